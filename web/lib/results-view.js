// The results view: summary cards, charts, filters and the virtualised table, the item view, and
// a place for the comparison with another run (`compare-view.js`, which may also narrow the
// table to a subset of its entries). The page and the embeddable element (`embed.js`) both use it;
// it reads entries through a `source` (`{entry(position), search(text)}`) and never touches the
// engine or the page's state directly.

import { h, percent, plural, replace } from "./dom.js";
import { histogram, passRateChart, tagChart } from "./charts.js";
import { ItemView } from "./item-view.js";
import { Results } from "./model.js";
import { summaryText } from "./review.js";
import { ResultsTable } from "./table.js";

const STATUS_FILTERS = ["pass", "fail", "partial", "error", "skipped"];
const REDRAW_MS = 250;

function select(label, id, options, onchange) {
  return h(
    "label",
    { class: "field" },
    label,
    h("select", { id, onchange: (event) => onchange(event.target.value) }, options.map(([value, text]) => h("option", { value }, text))),
  );
}

function card(name, label, value, detail) {
  return h(
    "div",
    { class: `card card-${name}`, "data-summary": name },
    h("div", { class: "card-value" }, String(value)),
    h("div", { class: "card-label" }, label),
    detail ? h("div", { class: "card-detail" }, detail) : null,
  );
}

export class ResultsView {
  /**
   * `source` answers `entry(position)`, `search(text)`, `labels(positions)` (the entries' text
   * for the table), `review(position, review)` (saves a review) and `reviews()` (the run's review
   * counts and marks); each may be absent (no item view, no search, no text columns, no review).
   */
  constructor(source = {}) {
    this.source = source;
    this.results = new Results();
    this.filter = { status: "", evaluator: "", tag: "", text: "" };
    this.sort = { key: "index", descending: false };
    this.histogramOf = "";
    this.summary = h("section", { class: "summary", id: "summary", "aria-label": "Summary" });
    this.charts = h("section", { class: "charts", "aria-label": "Charts" });
    this.count = h("p", { class: "table-count", id: "table-count", "aria-live": "polite" });
    this.table = new ResultsTable({
      onOpen: (position) => this.open(position),
      onSort: (key) => this.sortBy(key),
      labels: source.labels,
    });
    const onReview = source.review && (async (position, review) => {
      const entry = await source.review(position, review);
      this.loadReviews();
      return entry;
    });
    this.item = new ItemView({ onReview, onStep: (position, delta) => this.step(position, delta) });
    this.reviewLine = h("p", { class: "review-summary", id: "review-summary", hidden: true });
    this.opening = 0;
    this.compareSlot = h("div", { class: "compare-slot" });
    this.filterSlot = h("div", { class: "filter-slot" });
    this.filters = h("div", { class: "filters", role: "search" });
    this.element = h(
      "div",
      { class: "results-view" },
      this.summary,
      this.charts,
      this.compareSlot,
      h("section", { class: "table-section", "aria-label": "Entries" }, h("h2", {}, "Entries"), this.filters, this.count, this.table.element),
      this.item.dialog,
    );
    this.drawFilters();
    this.pending = 0;
  }

  /** Replaces the results. */
  reset(rows = []) {
    this.results = new Results(rows);
    this.showReviews({ counts: undefined, marks: [] });
    this.filter.matches = undefined;
    this.drawFilters();
    this.refresh();
  }

  /**
   * Adds rows arriving from a run. The view is redrawn at most every `REDRAW_MS` while rows keep
   * coming (each redraw counts every row), and once more by `refresh()` at the end.
   */
  append(rows) {
    const evaluators = this.results.evaluators.length;
    const tags = this.results.tags.size;
    this.results.append(rows);
    if (evaluators !== this.results.evaluators.length || tags !== this.results.tags.size) this.drawFilters();
    if (this.pending) return;
    const wait = Math.max(0, (this.drawnAt ?? 0) + REDRAW_MS - performance.now());
    this.pending = setTimeout(() => requestAnimationFrame(() => this.refresh()), wait);
  }

  /** Redraws everything from the rows held. */
  refresh() {
    clearTimeout(this.pending);
    this.pending = 0;
    this.drawnAt = performance.now();
    const summary = this.results.summary();
    this.drawSummary(summary);
    this.drawCharts(summary);
    this.drawTable();
  }

  drawSummary({ entries, evaluators }) {
    replace(
      this.summary,
      h("h2", { class: "visually-hidden" }, "Summary"),
      h("p", { class: "headline", id: "headline" }, headline(entries)),
      this.reviewLine,
      h(
        "div",
        { class: "cards" },
        card("entries", "entries", entries.total),
        card("pass", "pass", entries.pass),
        card("fail", "fail", entries.fail),
        card("partial", "partial", entries.partial, "a verdict errored"),
        card("error", "error", entries.error),
        card("skipped", "skipped", entries.skipped, entries.skippedVerdicts > 0 ? `${plural(entries.skippedVerdicts, "verdict")} skipped` : "no verdict given"),
      ),
      h(
        "div",
        { class: "cards cards-evaluators" },
        evaluators.map((entry) =>
          h(
            "div",
            { class: "card card-evaluator", "data-evaluator": entry.name },
            h("div", { class: "card-value" }, percent(entry.passRate)),
            h("div", { class: "card-label" }, entry.name),
            h("div", { class: "card-detail" }, `${entry.pass} pass · ${entry.fail} fail · ${entry.error} error · ${entry.skipped} skipped`),
          ),
        ),
      ),
    );
  }

  drawCharts({ evaluators }) {
    const scored = evaluators.filter((entry) => entry.scores.length > 0);
    if (!scored.some((entry) => entry.name === this.histogramOf)) this.histogramOf = scored[0]?.name ?? "";
    const chosen = scored.find((entry) => entry.name === this.histogramOf);
    const chooser = select(
      "Scores of",
      "histogram-evaluator",
      scored.map((entry) => [entry.name, entry.name]),
      (name) => {
        this.histogramOf = name;
        this.drawCharts(this.results.summary());
      },
    );
    chooser.querySelector("select").value = this.histogramOf;
    replace(
      this.charts,
      h("figure", { class: "chart-box" }, h("figcaption", {}, "Pass rate per evaluator"), passRateChart(evaluators, (name) => this.filterBy({ evaluator: name, status: "" }))),
      h(
        "figure",
        { class: "chart-box" },
        h("figcaption", {}, "Score distribution ", scored.length > 0 ? chooser : null),
        chosen ? histogram(chosen.name, chosen.scores) : h("p", {}, "No scores yet."),
      ),
      this.results.tags.size > 0
        ? h(
            "figure",
            { class: "chart-box" },
            h("figcaption", {}, "Entries by tag"),
            tagChart(this.results.byTag(), (tag, status) => this.filterBy({ tag: tag === "(no tag)" ? "" : tag, status, evaluator: "" })),
          )
        : null,
    );
  }

  drawFilters() {
    const search = h("input", {
      type: "search",
      id: "filter-text",
      placeholder: "prompt, response, reason…",
      value: this.filter.text,
    });
    let timer = 0;
    search.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.searchFor(search.value), 200);
    });
    const status = select("Status", "filter-status", [["", "any"], ...STATUS_FILTERS.map((name) => [name, name])], (value) => {
      this.filter.status = value;
      this.drawTable();
    });
    const evaluator = select("Evaluator", "filter-evaluator", [["", "any (entry status)"], ...this.results.evaluators.map((name) => [name, name])], (value) => {
      this.filter.evaluator = value;
      this.drawTable();
    });
    const tag = select("Tag", "filter-tag", [["", "any"], ...[...this.results.tags].sort().map((name) => [name, name])], (value) => {
      this.filter.tag = value;
      this.drawTable();
    });
    status.querySelector("select").value = this.filter.status;
    evaluator.querySelector("select").value = this.filter.evaluator;
    tag.querySelector("select").value = this.filter.tag;
    replace(
      this.filters,
      h("label", { class: "field field-wide" }, "Search", search),
      status,
      evaluator,
      tag,
      this.filterSlot,
    );
  }

  /** Asks the source for the run's reviews and shows them (the summary's line, the table's marks). */
  async loadReviews() {
    if (!this.source.reviews) return;
    const results = this.results;
    const state = await this.source.reviews().catch(() => null);
    if (state && results === this.results) this.showReviews(state);
  }

  /** Shows `{counts, marks}`: the counts in the summary, a mark on each reviewed entry's row. */
  showReviews({ counts, marks }) {
    const text = summaryText(counts);
    this.reviewLine.textContent = text ?? "";
    this.reviewLine.hidden = !text;
    this.table.setMarks(new Map(marks.map((mark) => [mark.position, mark])));
  }

  /** Shows only the entries at `positions` in the table (all of them for null). */
  restrict(positions) {
    this.filter.only = positions ? new Set(positions) : undefined;
    this.drawTable();
  }

  /** Sets some of the table's filters (a chart's bar was clicked) and shows the table. */
  filterBy(filter) {
    Object.assign(this.filter, filter);
    this.drawFilters();
    this.drawTable();
    this.table.element.scrollIntoView?.({ block: "nearest" });
  }

  async searchFor(text) {
    this.filter.text = text;
    if (!text.trim() || !this.source.search) {
      this.filter.matches = undefined;
    } else {
      const found = await this.source.search(text.trim());
      if (this.filter.text !== text) return;
      this.filter.matches = new Set(found);
    }
    this.drawTable();
  }

  drawTable() {
    const positions = this.results.view(this.filter, this.sort);
    this.count.textContent = `${positions.length} of ${plural(this.results.rows.length, "entry", "entries")}`;
    this.table.show(this.results, positions, this.sort);
  }

  sortBy(key) {
    this.sort = { key, descending: this.sort.key === key ? !this.sort.descending : false };
    this.drawTable();
  }

  /** Opens entry `position` in the item view, placed in the table's current order. */
  async open(position) {
    if (!this.source.entry) return;
    const asked = ++this.opening;
    const entry = await this.source.entry(position);
    if (asked !== this.opening) return;
    const order = this.table.positions;
    this.item.show(entry, position, { at: order.indexOf(position), count: order.length });
  }

  /** Opens the entry `delta` places from `position` in the table's order, if there is one. */
  step(position, delta) {
    const order = this.table.positions;
    const next = order[order.indexOf(position) + delta];
    if (next !== undefined) this.open(next);
  }
}

/**
 * The run in one line, errors and skipped entries beside the pass rate: "37.5 % pass · 1 fail ·
 * 5 errors · 2 skipped · n = 8" (a count only when it is not zero).
 */
export function headline({ total, pass, fail, partial, error, skipped, skippedVerdicts }) {
  if (total === 0) return "No entries yet";
  const parts = [`${percent(pass / total)} pass`];
  if (fail) parts.push(`${fail} fail`);
  if (partial) parts.push(`${partial} partial`);
  if (error) parts.push(plural(error, "error"));
  if (skipped) parts.push(`${skipped} skipped`);
  parts.push(`n = ${total}`);
  if (skippedVerdicts) parts.push(`${plural(skippedVerdicts, "verdict")} skipped`);
  return parts.join(" · ");
}

export { Results };
