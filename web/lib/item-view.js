// The item view: one entry's conversation so far (a thread turn's earlier turns), prompt, response
// (shown as text, citations marked), expected answer and a word-level diff of the two, retrieval
// diagnostics and tool calls as tables (`evidence.js`), and every evaluator's verdict with its
// score, threshold, reason, error and details, the judge's request and raw answer on request
// (`judge-exchange.js`), a reviewer's verdict beside it and the review form (`review.js`) when the
// page can keep reviews. A modal `<dialog>`: focus moves into it, Escape closes it, and Previous /
// Next (buttons, or ArrowLeft / ArrowRight and k / j outside text fields) step through the table's
// entries in the order it shows them.

import { h, formatScore, plural } from "./dom.js";
import { inputFields } from "./entries.js";
import { recordsTable, retrievalView } from "./evidence.js";
import { exchangeToggle } from "./judge-exchange.js";
import { entryLabel } from "./model.js";
import { reviewCell, reviewSection } from "./review.js";
import { diffView } from "./word-diff.js";

/** Citation markers the Citations evaluator reads: `[1]`, markdown links, and OAI's private-use marks. */
const CITATION = /\uE200cite(?:\uE202[^\uE201\uE200]*)+\uE201|\[\d+\](?!\()|\[[^\]\n]{1,200}\]\(https?:\/\/[^)\s]+\)/gu;

/** Keys that step to the previous (-1) or next (+1) entry. */
const STEP_KEYS = { ArrowLeft: -1, k: -1, ArrowRight: 1, j: 1 };

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

/** A section holding `view` (a table), or the value as text when it has no table form. */
function evidenceSection(title, value, view) {
  if (value === undefined || value === null) return null;
  return view ? h("section", { class: "item-section" }, h("h3", {}, title), view) : section(title, value);
}

/** A thread turn's earlier turns, as the conversation that led to it. */
function conversationSection(turns) {
  if (!turns?.length) return null;
  return h(
    "section",
    { class: "item-section conversation", "aria-label": "Conversation so far" },
    h("h3", {}, `Conversation so far (${plural(turns.length, "earlier turn")})`),
    h(
      "ol",
      { class: "conversation-turns" },
      turns.map(({ turn, prompt, response }) =>
        h(
          "li",
          { class: "conversation-turn", "data-turn": turn },
          h("div", { class: "conversation-role" }, `Turn ${turn + 1} · user`),
          h("pre", { class: "item-text" }, asText(prompt) ?? "(no prompt)"),
          h("div", { class: "conversation-role" }, `Turn ${turn + 1} · agent`),
          h("pre", { class: "item-text" }, asText(response) ?? "(no response)"),
        ),
      ),
    ),
  );
}

function diffSection(expected, response) {
  if (typeof expected !== "string" || typeof response !== "string") return null;
  return h("section", { class: "item-section" }, h("h3", {}, "Response against the expected answer"), diffView(expected, response));
}

function verdicts(results, review) {
  return h(
    "div",
    { class: "evidence-scroll" },
    h(
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
              { class: "verdict-reason" },
              result.reason ?? result.error?.message ?? "",
              result.details && Object.keys(result.details).length > 0
                ? h("details", {}, h("summary", {}, "details"), h("pre", { class: "item-text" }, JSON.stringify(result.details, null, 2)))
                : null,
              exchangeToggle(result.judge_exchanges),
            ),
            review ? reviewCell(review, result) : null,
          ),
        ),
      ),
    ),
  );
}

/** Whether a key pressed in `event` was meant for a field (typing), not for the view. */
function typing(event) {
  const target = event.composedPath?.()[0] ?? event.target;
  return Boolean(target?.closest?.("input, textarea, select, [contenteditable]"));
}

export class ItemView {
  /**
   * `onReview(position, review)`, when given, saves a review and resolves to the entry again;
   * `onStep(position, delta)` opens the entry `delta` places from `position` in the table's order.
   */
  constructor({ onReview, onStep } = {}) {
    this.onReview = onReview;
    this.onStep = onStep;
    this.body = h("div", { class: "item-body" });
    this.title = h("h2", { id: "item-title" }, "Entry");
    this.where = h("span", { class: "item-where", id: "item-where", "aria-live": "polite" });
    this.previous = h("button", { type: "button", id: "item-previous", "aria-keyshortcuts": "ArrowLeft k", title: "Previous entry (← or k)", onclick: () => this.step(-1) }, "‹ Previous");
    this.next = h("button", { type: "button", id: "item-next", "aria-keyshortcuts": "ArrowRight j", title: "Next entry (→ or j)", onclick: () => this.step(1) }, "Next ›");
    this.dialog = h(
      "dialog",
      { class: "item-view", "aria-labelledby": "item-title" },
      h(
        "div",
        { class: "item-head" },
        this.title,
        h("div", { class: "item-nav" }, this.previous, this.where, this.next, h("button", { type: "button", class: "close", onclick: () => this.dialog.close() }, "Close")),
      ),
      this.body,
    );
    this.dialog.addEventListener("keydown", (event) => {
      const delta = STEP_KEYS[event.key];
      if (!delta || event.altKey || event.ctrlKey || event.metaKey || typing(event)) return;
      event.preventDefault();
      this.step(delta);
    });
  }

  step(delta) {
    if (this.position === undefined || !this.onStep) return;
    const button = delta < 0 ? this.previous : this.next;
    if (!button.disabled) this.onStep(this.position, delta);
  }

  /**
   * Opens the view on `{outcome, input, conversation, reviewCounts}`, entry `position` of the run;
   * `place` (`{at, count}`, 0-based) is where it stands in the table's order, for Previous / Next.
   */
  show({ outcome, input, conversation, reviewCounts }, position, place) {
    const values = inputFields(input);
    this.position = position;
    if (place) this.place = place;
    const { at, count } = this.place ?? { at: -1, count: 0 };
    this.where.textContent = at >= 0 ? `${at + 1} of ${count}` : "";
    this.previous.disabled = !(at > 0);
    this.next.disabled = !(at >= 0 && at < count - 1);
    this.title.textContent = `${entryLabel(outcome)} — ${outcome.status ?? "skipped"}`;
    this.body.replaceChildren(
      ...[
        outcome.problem ? section("Problem", outcome.problem) : null,
        conversationSection(conversation),
        section(conversation?.length ? `Prompt (turn ${outcome.turn + 1})` : "Prompt", values.prompt),
        section("Response", values.response, { citations: true }),
        section("Expected response", values.expected),
        diffSection(values.expected, values.response),
        section("Context", values.context),
        evidenceSection("Retrieval diagnostics", values.retrieval, retrievalView(values.retrieval)),
        evidenceSection("Tool calls", values.tools, recordsTable(values.tools, "Calls")),
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
