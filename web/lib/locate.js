// Finding a spot in a dataset's text: the line and column a JSON pointer names (by walking the
// JSON text, without building it), and the lines around a spot. Used by the engine worker for the
// problems list; tolerant of broken text (it stops where it cannot go on).

/** 1-based line and column of byte-free string offset `offset` in `text`. */
export function lineColumn(text, offset) {
  let line = 1;
  let start = 0;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) {
    line += 1;
    start = index + 1;
  }
  return { line, column: offset - start + 1 };
}

function skipSpace(text, at) {
  while (at < text.length && " \t\r\n".includes(text[at])) at += 1;
  return at;
}

function stringEnd(text, at) {
  for (let index = at + 1; index < text.length; index += 1) {
    if (text[index] === "\\") index += 1;
    else if (text[index] === '"') return index + 1;
  }
  return text.length;
}

/** Offset just past the JSON value starting at `at`. */
function valueEnd(text, at) {
  if (text[at] === '"') return stringEnd(text, at);
  if (text[at] === "{" || text[at] === "[") {
    let depth = 0;
    for (let index = at; index < text.length; index += 1) {
      const char = text[index];
      if (char === '"') index = stringEnd(text, index) - 1;
      else if (char === "{" || char === "[") depth += 1;
      else if (char === "}" || char === "]") {
        depth -= 1;
        if (depth === 0) return index + 1;
      }
    }
    return text.length;
  }
  let index = at;
  while (index < text.length && !",}] \t\r\n".includes(text[index])) index += 1;
  return index;
}

function unescapePointer(token) {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Offset of the value JSON pointer `pointer` names in `text` (as far as it can be followed). */
export function pointerOffset(text, pointer) {
  let at = skipSpace(text, 0);
  const tokens = pointer === "" ? [] : pointer.split("/").slice(1).map(unescapePointer);
  for (const token of tokens) {
    if (text[at] === "{") {
      let index = skipSpace(text, at + 1);
      let found = false;
      while (index < text.length && text[index] === '"') {
        const keyEnd = stringEnd(text, index);
        let key;
        try {
          key = JSON.parse(text.slice(index, keyEnd));
        } catch {
          return at;
        }
        const colon = skipSpace(text, keyEnd);
        const value = skipSpace(text, colon + 1);
        if (key === token) {
          at = value;
          found = true;
          break;
        }
        index = skipSpace(text, valueEnd(text, value));
        if (text[index] !== ",") break;
        index = skipSpace(text, index + 1);
      }
      if (!found) return at;
    } else if (text[at] === "[") {
      const wanted = Number(token);
      if (!Number.isInteger(wanted)) return at;
      let index = skipSpace(text, at + 1);
      for (let element = 0; element < wanted; element += 1) {
        index = skipSpace(text, valueEnd(text, index));
        if (text[index] !== ",") return at;
        index = skipSpace(text, index + 1);
      }
      at = index;
    } else {
      return at;
    }
  }
  return at;
}

/** The lines `around` either side of `line` (1-based), each `{number, text}`, long lines cut. */
export function linesAround(text, line, around = 3) {
  const lines = [];
  let number = 1;
  let start = 0;
  while (start <= text.length && number <= line + around) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (number >= line - around) lines.push({ number, text: text.slice(start, Math.min(end, start + 400)).replace(/\r$/, "") });
    start = end + 1;
    number += 1;
    if (end === text.length) break;
  }
  return lines;
}
