// Large texts into the module: `TextEncoder` encodes a string to UTF-8 many times faster than
// passing it as a string argument does (which copies ASCII one character at a time).

const encoder = new TextEncoder();

/** `text` as UTF-8 bytes (lone surrogates become U+FFFD, as in any string passed to the module). */
export function utf8(text) {
  return encoder.encode(text);
}
