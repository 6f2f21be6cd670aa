// Reading a run report back from JavaScript exactly: JSON text with every number written as a
// marked string of its shortest round-trip form (`String(number)`), which the module parses with
// a correctly rounded parser. Plain JSON text would go through the JSON parser's faster number
// reading, which can be one unit in the last place off for 17-digit scores.

export const NUMBER_MARK = "\u0000number:";

/** `JSON.stringify(value)` with numbers as marked strings; `undefined` when it is not JSON. */
export function exactJson(value) {
  try {
    return JSON.stringify(value, (_, item) => (typeof item === "number" ? NUMBER_MARK + String(item) : item));
  } catch {
    return undefined;
  }
}
