// The item view: one entry's prompt, response (shown as text, citations marked), expected answer,
// retrieval diagnostics, tool calls, and every evaluator's verdict with its score, threshold,
// reason, error and details, with a reviewer's verdict beside it and the review form (`review.js`)
// when the page can keep reviews. A modal `<dialog>`: focus moves into it and Escape closes it.

import { h, formatScore } from "./dom.js";
import { inputFields } from "./entries.js";
import { entryLabel } from "./model.js";
import { reviewCell, reviewSection } from "./review.js";

/** Citation markers the Citations evaluator reads: `[1]`, markdown links, and OAI's private-use marks. */
const CITATION = /\uE200cite(?:\uE202[^\uE201\uE200]*)+\uE201|\[\d+\](?!\()|\[[^\]\n]{1,200}\]\(https?:\/\/[^)\s]+\)/gu;

/** `text` as nodes, with each citation wrapped in a `<mark class="citation">`. */
export function markCitations(text) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(CITATION)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    nodes.push(h("mark", { class: "citation", title: "citation" }, match[0].replace(/[\uE200-\uE202]/gu, " ").trim()));
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

function asText(value) {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

function section(title, value, { citations = false } = {}) {
  const text = asText(value);
  if (text === null) return null;
  return h("section", { class: "item-section" }, h("h3", {}, title), h("pre", { class: "item-text" }, citations ? markCitations(text) : text));
}

function verdicts(results, review) {
  return h(
    "table",
    { class: "verdicts" },
    h("caption", {}, "Evaluators"),
    h("thead", {}, h("tr", {}, ["Evaluator", "Result", "Score", "Threshold", "Reason", review ? "Review" : null].filter(Boolean).map((name) => h("th", { scope: "col" }, name)))),
    h(
      "tbody",
      {},
      results.map((result) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, result.evaluator),
          h("td", {}, h("span", { class: `badge badge-${result.result}` }, result.result), result.error ? ` ${result.error.code}` : ""),
          h("td", {}, formatScore(result.score)),
          h("td", {}, formatScore(result.threshold)),
          h(
            "td",
            {},
            result.reason ?? result.error?.message ?? "",
            result.details && Object.keys(result.details).length > 0
              ? h("details", {}, h("summary", {}, "details"), h("pre", { class: "item-text" }, JSON.stringify(result.details, null, 2)))
              : null,
          ),
          review ? reviewCell(review, result) : null,
        ),
      ),
    ),
  );
}

export class ItemView {
  /** `onReview(position, review)`, when given, saves a review and resolves to the entry again. */
  constructor({ onReview } = {}) {
    this.onReview = onReview;
    this.body = h("div", { class: "item-body" });
    this.title = h("h2", { id: "item-title" }, "Entry");
    this.dialog = h(
      "dialog",
      { class: "item-view", "aria-labelledby": "item-title" },
      h("div", { class: "item-head" }, this.title, h("button", { type: "button", class: "close", onclick: () => this.dialog.close() }, "Close")),
      this.body,
    );
  }

  /** Opens the view on `{outcome, input}`, entry `position` of the run. */
  show({ outcome, input, reviewCounts }, position) {
    const values = inputFields(input);
    this.title.textContent = `${entryLabel(outcome)} — ${outcome.status ?? "skipped"}`;
    this.body.replaceChildren(
      ...[
        outcome.problem ? section("Problem", outcome.problem) : null,
        section("Prompt", values.prompt),
        section("Response", values.response, { citations: true }),
        section("Expected response", values.expected),
        section("Context", values.context),
        section("Retrieval diagnostics", values.retrieval),
        section("Tool calls", values.tools),
        verdicts(outcome.results, outcome.review),
        this.onReview && position !== undefined
          ? reviewSection(outcome, async (review) => this.show(await this.onReview(position, review), position), reviewCounts)
          : null,
        h("details", { class: "item-section" }, h("summary", {}, "The entry as the dataset writes it"), h("pre", { class: "item-text" }, asText(input) ?? "(not available)")),
      ].filter(Boolean),
    );
    if (!this.dialog.open) this.dialog.showModal();
  }
}
