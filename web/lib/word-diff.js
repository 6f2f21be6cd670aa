// A word-level diff of two texts (an entry's expected answer and its response): the words both
// share, those only the expected answer has (removed) and those only the response has (added),
// found by a longest common subsequence of words, and their nodes for the item view. Words are
// compared exactly; the spacing after each word is kept as the text writes it. Pure functions;
// the nodes are text inside `<del>`/`<ins>`, never markup made from the texts.

import { h } from "./dom.js";

/** Most word pairs compared (the table of the common subsequence); longer texts are not diffed. */
const MOST_CELLS = 4_000_000;

/** `text` as words, each with the spacing after it (and any leading spacing as its own token). */
function words(text) {
  return text.match(/^\s+|\S+\s*/gu) ?? [];
}

/**
 * The diff of `before` (the expected answer) and `after` (the response) as runs of
 * `{kind: "same" | "removed" | "added", text}` in reading order, or null when the texts are too
 * long to compare word by word.
 */
export function wordDiff(before, after) {
  const a = words(before);
  const b = words(after);
  const key = (token) => token.trim();
  let start = 0;
  while (start < a.length && start < b.length && key(a[start]) === key(b[start])) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && key(a[endA - 1]) === key(b[endB - 1])) {
    endA -= 1;
    endB -= 1;
  }
  const rows = endA - start;
  const columns = endB - start;
  if (rows * columns > MOST_CELLS) return null;
  // lengths[i * (columns + 1) + j]: the common subsequence of a[start + i..endA] and b[start + j..endB].
  const lengths = new Uint32Array((rows + 1) * (columns + 1));
  for (let i = rows - 1; i >= 0; i -= 1) {
    for (let j = columns - 1; j >= 0; j -= 1) {
      const at = i * (columns + 1) + j;
      lengths[at] =
        key(a[start + i]) === key(b[start + j])
          ? lengths[at + columns + 2] + 1
          : Math.max(lengths[at + columns + 1], lengths[at + 1]);
    }
  }
  const runs = [];
  const push = (kind, text) => {
    const last = runs[runs.length - 1];
    if (last?.kind === kind) last.text += text;
    else runs.push({ kind, text });
  };
  for (const token of a.slice(0, start)) push("same", token);
  let i = 0;
  let j = 0;
  while (i < rows || j < columns) {
    const at = i * (columns + 1) + j;
    if (i < rows && j < columns && key(a[start + i]) === key(b[start + j])) {
      push("same", b[start + j]);
      i += 1;
      j += 1;
    } else if (i < rows && (j === columns || lengths[at + columns + 1] >= lengths[at + 1])) {
      push("removed", a[start + i]);
      i += 1;
    } else {
      push("added", b[start + j]);
      j += 1;
    }
  }
  for (const token of b.slice(endB)) push("same", token);
  return runs;
}

/**
 * The item view's diff of `expected` against `response`: the response's words with those only it
 * has marked `<ins>` and the expected answer's missing words `<del>`, or a note when the texts are
 * too long to compare.
 */
export function diffView(expected, response) {
  const runs = wordDiff(expected, response);
  if (!runs) return h("p", { class: "hint" }, "The texts are too long to compare word by word.");
  const added = runs.filter((run) => run.kind === "added").length;
  const removed = runs.filter((run) => run.kind === "removed").length;
  return h(
    "div",
    { class: "word-diff-box" },
    h(
      "p",
      { class: "hint" },
      added + removed === 0
        ? "The response has the same words as the expected answer."
        : "Struck: words of the expected answer the response lacks. Underlined: words only the response has.",
    ),
    h(
      "p",
      { class: "item-text word-diff", "data-added": added, "data-removed": removed },
      runs.map(({ kind, text }) =>
        kind === "same" ? text : h(kind === "added" ? "ins" : "del", { class: `diff-${kind}`, title: kind === "added" ? "only in the response" : "only in the expected answer" }, text),
      ),
    ),
  );
}
