// Human review in the item view: the reviewer's verdict beside each evaluator's (a "Review" cell of
// the verdicts table) and the form that sets it — per evaluator an override (pass or fail) with
// its comment, "needs review" and a comment on the entry. Saving hands the review to the engine,
// where the core checks it and the run's store keeps it; exports then carry it. The review never
// replaces the evaluators' verdicts. Reviewer text is shown as text only.

import { h } from "./dom.js";

/** The reviewer's name, remembered in this tab for the next overrides. */
let reviewerName = "";

/** The "Review" cell of the verdicts table for `result`: the reviewer's verdict and comment, or nothing. */
export function reviewCell(review, result) {
  const entry = review?.overrides?.find((candidate) => candidate.evaluator === result.evaluator);
  if (!entry) return h("td", { class: "review-cell" });
  const agrees = entry.verdict === result.result;
  return h(
    "td",
    { class: "review-cell", "data-override": entry.verdict },
    h("span", { class: `badge badge-${entry.verdict}` }, `reviewer: ${entry.verdict}`),
    agrees ? " (agrees)" : " (overrides)",
    h("span", { class: "review-comment" }, ` ${entry.comment}`),
    entry.reviewer ? h("span", { class: "review-by" }, ` — ${entry.reviewer}`) : null,
  );
}

/** The run's review counts in words: `1 of 3 reviewed verdicts overridden · 2 entries need review`. */
export function countsText(counts) {
  if (!counts) return "No entry of this run is reviewed yet.";
  const entries = (count) => `${count} ${count === 1 ? "entry" : "entries"}`;
  return [
    `This run: ${counts.overridden} of ${counts.reviewed} reviewed ${counts.reviewed === 1 ? "verdict" : "verdicts"} overridden`,
    `${entries(counts.needs_review)} ${counts.needs_review === 1 ? "needs" : "need"} review`,
    `${entries(counts.entries)} reviewed`,
  ].join(" · ");
}

/**
 * The run's review counts for the summary, in the words the HTML and Markdown reports use (the
 * core's `ReviewSummary::describe`): "3 verdicts overridden: evaluators and reviewer disagree on
 * 3 of 41 reviewed; 2 entries need review"; null without a review.
 */
export function summaryText(counts) {
  if (!counts || counts.entries === 0) return null;
  const plural = (count, one, many) => `${count} ${count === 1 ? one : many}`;
  const parts = [];
  if (counts.reviewed > 0) {
    parts.push(`${plural(counts.overridden, "verdict", "verdicts")} overridden: evaluators and reviewer disagree on ${counts.overridden} of ${counts.reviewed} reviewed`);
  }
  if (counts.needs_review > 0) parts.push(`${plural(counts.needs_review, "entry", "entries")} ${counts.needs_review === 1 ? "needs" : "need"} review`);
  if (parts.length === 0) parts.push(`${plural(counts.entries, "entry", "entries")} reviewed, no verdict overridden`);
  return parts.join("; ");
}

/**
 * The review form of an entry: `outcome` (with its `review`, if any), `save(review)`, which
 * resolves when the engine has kept it or rejects with the core's message, and the run's review
 * counts.
 */
export function reviewSection(outcome, save, counts) {
  const review = outcome.review ?? { needs_review: false, overrides: [] };
  const status = h("p", { class: "review-status", role: "status", "aria-live": "polite" });
  const needs = h("input", { type: "checkbox", id: "review-needs", checked: review.needs_review || null });
  const note = h("textarea", { id: "review-comment", rows: "2" });
  note.value = review.comment ?? "";
  const reviewer = h("input", { type: "text", id: "review-reviewer", autocomplete: "name" });
  reviewer.value = review.overrides.find((entry) => entry.reviewer)?.reviewer ?? reviewerName;
  const rows = outcome.results.map((result) => overrideRow(result, review.overrides.find((entry) => entry.evaluator === result.evaluator)));
  const submit = async () => {
    const overrides = [];
    for (const row of rows) {
      const verdict = row.verdict.value;
      if (!verdict) continue;
      const comment = row.comment.value.trim();
      if (!comment) {
        status.textContent = `${row.evaluator}: say why the verdict is overridden.`;
        row.comment.focus();
        return;
      }
      const kept = row.previous && row.previous.verdict === verdict && row.previous.comment === comment;
      const entry = { evaluator: row.evaluator, verdict, comment };
      if (reviewer.value.trim()) entry.reviewer = reviewer.value.trim();
      entry.at = kept && row.previous.at ? row.previous.at : new Date().toISOString().replace(/\.\d+Z$/, "Z");
      overrides.push(entry);
    }
    reviewerName = reviewer.value.trim();
    const next = { needs_review: needs.checked, overrides };
    if (note.value.trim()) next.comment = note.value.trim();
    status.textContent = "Saving…";
    try {
      await save(next);
    } catch (error) {
      status.textContent = `Not saved: ${error.message}`;
    }
  };
  return h(
    "section",
    { class: "item-section review-form", role: "group", "aria-labelledby": "review-title" },
    h("h3", { id: "review-title" }, "Review"),
    h(
      "p",
      { class: "hint" },
      "Your verdict is kept beside the evaluator's, never instead of it, with this run and in every export.",
    ),
    h("p", { class: "review-counts", id: "review-counts" }, countsText(counts)),
    h("div", { class: "review-line" }, needs, h("label", { for: "review-needs" }, "Needs review")),
    h("div", { class: "review-line" }, h("label", { for: "review-comment" }, "Comment on the entry"), note),
    h("div", { class: "review-line" }, h("label", { for: "review-reviewer" }, "Reviewer"), reviewer),
    rows.length
      ? h(
          "table",
          { class: "review-overrides" },
          h("caption", {}, "Override a verdict"),
          h("thead", {}, h("tr", {}, ["Evaluator", "Evaluator's verdict", "Your verdict", "Why"].map((name) => h("th", { scope: "col" }, name)))),
          h("tbody", {}, rows.map((row) => row.element)),
        )
      : null,
    h("div", { class: "actions" }, h("button", { type: "button", class: "primary", id: "review-save", onclick: submit }, "Save review")),
    status,
  );
}

/** One evaluator's override controls: no override, pass or fail, and the comment. */
function overrideRow(result, previous) {
  const label = `Your verdict on ${result.evaluator}`;
  const verdict = h(
    "select",
    { "aria-label": label, "data-evaluator": result.evaluator, class: "review-verdict" },
    h("option", { value: "" }, "no override"),
    h("option", { value: "pass" }, "pass"),
    h("option", { value: "fail" }, "fail"),
  );
  verdict.value = previous?.verdict ?? "";
  const comment = h("input", { type: "text", "aria-label": `Why (${result.evaluator})`, "data-evaluator": result.evaluator, class: "review-why" });
  comment.value = previous?.comment ?? "";
  const element = h(
    "tr",
    {},
    h("th", { scope: "row" }, result.evaluator),
    h("td", {}, h("span", { class: `badge badge-${result.result}` }, result.result)),
    h("td", {}, verdict),
    h("td", {}, comment),
  );
  return { evaluator: result.evaluator, verdict, comment, previous, element };
}
