// The results table: entries × evaluators, with each entry's id or name, prompt and response
// (clipped; whole on hover and focus, fetched for the rows in view only), a thread and a turn
// column when the run has thread turns (numbered as the exports number them), virtualised (only the
// rows in view, plus a margin, exist in the DOM), so it scrolls smoothly at 100 000 entries.
// Columns sort on click; rows open the item view on click or Enter; arrow keys move between rows.
// On a narrow screen each entry is a card instead (its verdicts wrapped, named), still virtualised.
// ARIA table semantics with `aria-rowcount` and `aria-rowindex` tell screen readers where they are.

import { h, formatScore } from "./dom.js";
import { entryLabel, Results } from "./model.js";

const ROW_HEIGHT = 32;
/** Below this width the entries are cards (one per entry, its verdicts wrapped), not a wide table. */
const CARDS_QUERY = "(max-width: 600px)";
/** A card's height: its padding and three lines (entry and status, prompt, response)… */
const CARD_BASE = 84;
/** …and a line per two verdicts of the entry with the most. */
const CARD_VERDICT_LINE = 24;
const MARGIN = 4;

/** The thread and turn columns' headers, and what they say of their numbering. */
const THREAD_COLUMNS = [
  ["Thread", "The thread: its name, else its item as the exports name it"],
  ["Turn", "The turn within its thread, numbered from 0 as the exports number it (item-4.turn-1)"],
];

/** The columns of the entries' text, when the table has a `labels` source: `[key, header]`. */
const TEXT_COLUMNS = [
  ["name", "Id or name"],
  ["prompt", "Prompt"],
  ["response", "Response"],
];

export class ResultsTable {
  /**
   * `onOpen(position)` opens the item view; `onSort(key)` asks for another order; `labels(entries)`
   * (optional; `[{position, index, turn}]`) resolves to each entry's `{name, prompt, response}` (or
   * to nothing while they cannot be read yet), shown clipped, whole on hover and focus.
   */
  constructor({ onOpen, onSort, labels }) {
    this.onOpen = onOpen;
    this.onSort = onSort;
    this.labels = labels;
    this.texts = new Map();
    this.marks = new Map();
    this.wanted = new Set();
    this.asking = 0;
    this.positions = [];
    this.results = null;
    this.sort = { key: "index", descending: false };
    this.header = h("div", { class: "table-head", role: "rowgroup" });
    this.spacer = h("div", { class: "table-spacer" });
    this.viewport = h(
      "div",
      { class: "table-viewport", role: "rowgroup", tabindex: "0", "aria-label": "Results, one row per entry" },
      this.spacer,
    );
    this.element = h("div", { class: "results-table", role: "table", "aria-label": "Results" }, this.header, this.viewport);
    this.viewport.addEventListener("scroll", () => this.schedule());
    this.viewport.addEventListener("keydown", (event) => this.key(event));
    this.drawn = new Map();
    this.frame = 0;
    this.rowHeight = ROW_HEIGHT;
    this.narrow = globalThis.matchMedia?.(CARDS_QUERY);
    this.narrow?.addEventListener("change", () => {
      if (this.results) this.show(this.results, this.positions, this.sort);
    });
  }

  /** Shows `positions` (rows of `results`, in order) with `sort` marked in the header. */
  show(results, positions, sort) {
    const threads = results.hasTurns;
    const columnsChanged = this.results !== results || this.evaluatorCount !== results.evaluators.length || this.threads !== threads;
    if (this.results !== results) this.texts.clear();
    this.results = results;
    this.positions = positions;
    this.sort = sort;
    this.evaluatorCount = results.evaluators.length;
    this.threads = threads;
    this.textStart = 2 + (threads ? THREAD_COLUMNS.length : 0);
    const cards = Boolean(this.narrow?.matches);
    this.element.classList.toggle("as-cards", cards);
    this.rowHeight = cards ? CARD_BASE + CARD_VERDICT_LINE * Math.ceil(results.widest / 2) : ROW_HEIGHT;
    this.element.style.setProperty("--row-height", `${this.rowHeight}px`);
    this.element.setAttribute("aria-rowcount", String(positions.length + 1));
    this.spacer.style.height = `${positions.length * this.rowHeight}px`;
    const thread = threads ? "minmax(7rem, 10rem) minmax(3.5rem, 4rem) " : "";
    const text = this.labels ? "minmax(6rem, 10rem) minmax(12rem, 3fr) minmax(12rem, 3fr) " : "";
    const template = `minmax(9rem, 10rem) minmax(5rem, 6rem) ${thread}${text}repeat(${Math.max(1, results.evaluators.length)}, minmax(7rem, 1fr))`;
    this.element.style.setProperty("--columns", template);
    this.element.style.setProperty("--table-width", `${14 + (threads ? 14 : 0) + (this.labels ? 30 : 0) + 7 * Math.max(1, results.evaluators.length)}rem`);
    if (columnsChanged || this.headerSort !== `${sort.key}/${sort.descending}`) this.drawHeader();
    for (const row of this.drawn.values()) row.remove();
    this.drawn.clear();
    this.draw();
  }

  drawHeader() {
    this.headerSort = `${this.sort.key}/${this.sort.descending}`;
    const column = (key, label) => {
      const sorted = this.sort.key === key;
      return h(
        "div",
        { role: "columnheader", "aria-sort": sorted ? (this.sort.descending ? "descending" : "ascending") : "none" },
        h("button", { type: "button", class: "sort", title: `${label} — sort by it`, onclick: () => this.onSort(key) }, breakable(label), sorted ? (this.sort.descending ? " ▼" : " ▲") : ""),
      );
    };
    this.header.replaceChildren(
      h(
        "div",
        { class: "table-row", role: "row", "aria-rowindex": "1" },
        column("index", "Entry"),
        column("status", "Status"),
        this.threads ? THREAD_COLUMNS.map(([header, explained]) => h("div", { role: "columnheader", class: "text-header", title: explained }, header)) : null,
        this.labels ? TEXT_COLUMNS.map(([, header]) => h("div", { role: "columnheader", class: "text-header" }, header)) : null,
        this.results.evaluators.map((name) => column(name, name)),
      ),
    );
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /**
   * Draws the rows in view: rows still in view stay, rows that left are refilled for the slots
   * that came into view (no elements are made while scrolling, once the view is full).
   */
  draw() {
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / this.rowHeight) - MARGIN);
    const last = Math.min(this.positions.length, Math.ceil((top + height) / this.rowHeight) + MARGIN);
    const spare = [];
    for (const [slot, row] of this.drawn) {
      if (slot < first || slot >= last) {
        spare.push(row);
        this.drawn.delete(slot);
      }
    }
    for (let slot = first; slot < last; slot += 1) {
      if (this.drawn.has(slot)) continue;
      const row = spare.pop() ?? this.spacer.appendChild(this.emptyRow());
      this.fill(row, slot);
      this.drawn.set(slot, row);
    }
    for (const row of spare) row.remove();
  }

  /** A row element with a cell for the entry, its status and each evaluator. */
  emptyRow() {
    const cell = (properties) => h("div", { role: "cell", ...properties }, h("span", { class: "badge" }), document.createTextNode(""));
    const row = h(
      "div",
      { class: "table-row", role: "row", tabindex: "-1", onclick: () => this.onOpen(Number(row.dataset.position)) },
      h("div", { role: "cell", "data-column": "entry" }),
      cell({ "data-column": "status" }),
      this.threads ? THREAD_COLUMNS.map(([header]) => h("div", { role: "cell", class: "cell-thread", "data-column": header.toLowerCase() })) : null,
      this.labels ? TEXT_COLUMNS.map(([key]) => h("div", { role: "cell", class: "cell-text", "data-column": key })) : null,
      this.results.evaluators.map((name) => cell({ "data-evaluator": name })),
    );
    return row;
  }

  /** Fills `row`'s text cells for entry `position`, or asks for its text. */
  fillText(row, position) {
    const texts = this.texts.get(position);
    if (!texts) this.want(position);
    if (this.threads) this.fillThread(row, position, texts);
    TEXT_COLUMNS.forEach(([key], column) => {
      const cell = row.children[column + this.textStart];
      const value = texts?.[key] ?? "";
      cell.textContent = value;
      if (value) {
        cell.title = value;
        cell.tabIndex = -1;
      } else {
        cell.removeAttribute("title");
        cell.removeAttribute("tabindex");
      }
    });
  }

  /** Fills `row`'s thread and turn cells for entry `position` (`texts` its labels, once read). */
  fillThread(row, position, texts) {
    const entry = this.results.rows[position];
    const [thread, turn] = [row.children[2], row.children[3]];
    const inThread = entry.turn !== null && entry.turn !== undefined;
    thread.textContent = inThread ? texts?.thread || `item-${entry.index}` : "";
    thread.title = thread.textContent;
    turn.textContent = inThread ? String(entry.turn) : "";
  }

  /** Asks for the text of `position` with the others wanted in the same frame. */
  want(position) {
    this.wanted.add(position);
    if (this.asking) return;
    this.asking = setTimeout(() => this.ask(), 30);
  }

  async ask() {
    const positions = [...this.wanted];
    const results = this.results;
    this.wanted.clear();
    const entries = positions.map((position) => ({ position, index: results.rows[position]?.index, turn: results.rows[position]?.turn ?? null }));
    const found = await this.labels(entries).catch(() => []);
    this.asking = 0;
    if (results !== this.results || found.length === 0) return;
    positions.forEach((position, at) => {
      if (found[at]) this.texts.set(position, found[at]);
    });
    for (const row of this.drawn.values()) {
      const position = Number(row.dataset.position);
      if (found[positions.indexOf(position)]) this.fillText(row, position);
    }
    if (this.wanted.size > 0) this.asking = setTimeout(() => this.ask(), 30);
  }

  /** Asks again for the text of the rows in view (once it can be read: a run ended). */
  refreshText() {
    if (!this.labels) return;
    for (const row of this.drawn.values()) this.fillText(row, Number(row.dataset.position));
  }

  /** Sets the reviewed entries' marks (`position` → `{needsReview, overrides}`) and redraws the rows in view. */
  setMarks(marks) {
    this.marks = marks;
    if (!this.results) return;
    for (const [slot, row] of this.drawn) this.fill(row, slot);
  }

  /** Writes entry `entry`'s id in `cell`, with its review mark when it is reviewed. */
  fillEntry(cell, entry) {
    cell.textContent = entryLabel(entry);
    const mark = this.marks.get(entry.position);
    if (!mark) return;
    const said = [mark.overrides > 0 ? `reviewed: ${mark.overrides} ${mark.overrides === 1 ? "verdict" : "verdicts"}` : "reviewed", mark.needsReview ? "needs review" : null].filter(Boolean).join(", ");
    cell.append(" ", h("span", { class: `review-mark${mark.needsReview ? " review-mark-needs" : ""}`, title: said, "aria-label": said, "data-review": said }, mark.needsReview ? "⚑" : "✎"));
  }

  /** Shows the entry at `slot` in `row`. */
  fill(row, slot) {
    const position = this.positions[slot];
    const entry = this.results.rows[position];
    row.setAttribute("aria-rowindex", String(slot + 2));
    row.dataset.position = String(position);
    row.style.transform = `translateY(${slot * this.rowHeight}px)`;
    const cells = row.children;
    this.fillEntry(cells[0], entry);
    setBadge(cells[1], entry.status ?? "skipped", entry.status ?? "skipped", "");
    const first = this.textStart + (this.labels ? TEXT_COLUMNS.length : 0);
    if (this.labels) this.fillText(row, position);
    else if (this.threads) this.fillThread(row, position);
    this.results.evaluators.forEach((name, column) => {
      const result = Results.resultOf(entry, name);
      const cell = cells[column + first];
      if (!result) setBadge(cell, "absent", "", "");
      else setBadge(cell, result.result, result.result, result.score === null ? "" : ` ${formatScore(result.score, 2)}`);
    });
  }

  key(event) {
    const focused = document.activeElement?.closest?.(".table-row");
    const slot = focused && this.viewport.contains(focused) ? Number(focused.getAttribute("aria-rowindex")) - 2 : -1;
    let next = null;
    if (event.key === "ArrowDown") next = slot + 1;
    else if (event.key === "ArrowUp") next = slot - 1;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = this.positions.length - 1;
    else if (event.key === "PageDown") next = slot + 10;
    else if (event.key === "PageUp") next = slot - 10;
    else if (event.key === "Enter" && slot >= 0) {
      event.preventDefault();
      this.onOpen(this.positions[slot]);
      return;
    }
    if (next === null) return;
    event.preventDefault();
    this.focusSlot(Math.max(0, Math.min(this.positions.length - 1, next)));
  }

  focusSlot(slot) {
    if (slot < 0) return;
    const top = slot * this.rowHeight;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (top + this.rowHeight > this.viewport.scrollTop + this.viewport.clientHeight) {
      this.viewport.scrollTop = top + this.rowHeight - this.viewport.clientHeight;
    }
    this.draw();
    this.drawn.get(slot)?.focus();
  }
}

/**
 * `name` as text nodes with line-break opportunities (`<wbr>`) where its words meet — before an
 * upper-case letter that follows a lower-case one, after `.`, `_` or `-` — so a long evaluator name
 * wraps between words instead of being cut.
 */
function breakable(name) {
  const parts = name.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[._-])/u);
  return parts.flatMap((part, at) => (at === 0 ? [part] : [h("wbr"), part]));
}

/** Sets a cell's badge (`kind` its class, `label` its text) and the text after it. */
function setBadge(cell, kind, label, after) {
  const badge = cell.firstChild;
  badge.className = label ? `badge badge-${kind}` : "";
  badge.textContent = label;
  cell.lastChild.textContent = after;
  cell.className = `cell-${kind}`;
}
