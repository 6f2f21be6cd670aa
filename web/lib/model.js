// The results the page shows, built from compact rows (`entries.js`): the evaluators in the order
// they first appear, counts per status and per evaluator, score lists for the charts, tags, and
// the filtered, sorted view the table shows. Pure data; no DOM.

export class Results {
  constructor(rows = []) {
    this.rows = [];
    this.evaluators = [];
    this.counts = new Map();
    this.entries = { total: 0, pass: 0, fail: 0, partial: 0, error: 0, skipped: 0 };
    this.skippedVerdicts = 0;
    this.tags = new Set();
    /** Whether any row is a thread's turn. */
    this.hasTurns = false;
    /** The most results any row has. */
    this.widest = 0;
    this.append(rows);
  }

  /** Adds rows as they arrive from a run; the counts are kept as they go. */
  append(rows) {
    for (const row of rows) {
      row.position = this.rows.length;
      this.rows.push(row);
      this.entries.total += 1;
      if (row.turn !== null && row.turn !== undefined) this.hasTurns = true;
      if (row.results.length > this.widest) this.widest = row.results.length;
      if (row.status in this.entries) this.entries[row.status] += 1;
      for (const result of row.results) {
        let counts = this.counts.get(result.evaluator);
        if (!counts) {
          counts = { name: result.evaluator, pass: 0, fail: 0, error: 0, skipped: 0, scores: [] };
          this.counts.set(result.evaluator, counts);
          this.evaluators.push(result.evaluator);
        }
        if (result.result in counts) counts[result.result] += 1;
        if (result.result === "skipped") this.skippedVerdicts += 1;
        if (result.score !== null && (result.result === "pass" || result.result === "fail")) counts.scores.push(result.score);
      }
      for (const tag of row.tags ?? []) this.tags.add(tag);
    }
  }

  /** Sets the rows' tags (`tags[position]`, a list each), when they come after the rows. */
  setTags(tags) {
    tags.forEach((list, position) => {
      if (this.rows[position]) this.rows[position].tags = list;
      for (const tag of list) this.tags.add(tag);
    });
  }

  /** `row`'s result of `evaluator`, or undefined when it did not run there. */
  static resultOf(row, evaluator) {
    return row.results.find((result) => result.evaluator === evaluator);
  }

  /**
   * Counts of entries by status (`passRate`: passing entries of all entries, errors and skipped
   * ones included; `skippedVerdicts`: verdicts skipped, cancelled judge calls included), and per
   * evaluator: pass, fail, error, skipped, pass rate (of its pass and fail verdicts), scores.
   */
  summary() {
    const { total, pass } = this.entries;
    const entries = { ...this.entries, passRate: total > 0 ? pass / total : null, skippedVerdicts: this.skippedVerdicts };
    const evaluators = this.evaluators.map((name) => {
      const counts = this.counts.get(name);
      const decided = counts.pass + counts.fail;
      return { ...counts, passRate: decided > 0 ? counts.pass / decided : null };
    });
    return { entries, evaluators };
  }

  /** Per tag: entries by status. Entries without tags count under "(no tag)". */
  byTag() {
    const tags = new Map();
    for (const row of this.rows) {
      const names = row.tags?.length ? row.tags : ["(no tag)"];
      for (const tag of names) {
        if (!tags.has(tag)) tags.set(tag, { tag, pass: 0, fail: 0, partial: 0, error: 0, skipped: 0 });
        const counts = tags.get(tag);
        if (row.status in counts) counts[row.status] += 1;
      }
    }
    return [...tags.values()].sort((a, b) => a.tag.localeCompare(b.tag));
  }

  /**
   * Positions of the rows that pass `filter` (`{status, evaluator, tag, matches, only}`: `matches`
   * a set of positions from the engine's text search, `only` those a comparison's subset keeps), sorted by `sort` (`{key: "index" | "status" |
   * evaluator name, descending}`). Rows arrive in input order, so the unfiltered view in that
   * order is every position as it is.
   */
  view(filter = {}, sort = { key: "index", descending: false }) {
    const { status, evaluator, tag, matches, only } = filter;
    if (!status && !evaluator && !tag && !matches && !only && sort.key === "index" && !sort.descending) {
      return Array.from({ length: this.rows.length }, (_, position) => position);
    }
    const positions = [];
    for (const row of this.rows) {
      if (matches && !matches.has(row.position)) continue;
      if (only && !only.has(row.position)) continue;
      if (tag && !(row.tags ?? []).includes(tag)) continue;
      if (evaluator) {
        const result = Results.resultOf(row, evaluator);
        if (!result) continue;
        if (status && result.result !== status) continue;
      } else if (status === "skipped") {
        // An entry counts as skipped when it has no verdict or any of its verdicts was skipped
        // (a judged evaluator without a judge, a cancelled judge call).
        if (row.status !== "skipped" && !row.results.some((result) => result.result === "skipped")) continue;
      } else if (status && row.status !== status) {
        continue;
      }
      positions.push(row.position);
    }
    const compare = comparator(this.rows, sort.key);
    positions.sort((a, b) => (sort.descending ? compare(b, a) : compare(a, b)) || a - b);
    return positions;
  }
}

const STATUS_ORDER = { error: 0, fail: 1, partial: 2, skipped: 3, pass: 4 };

function comparator(rows, key) {
  if (key === "index") return (a, b) => rows[a].index - rows[b].index || (rows[a].turn ?? -1) - (rows[b].turn ?? -1);
  if (key === "status") return (a, b) => STATUS_ORDER[rows[a].status] - STATUS_ORDER[rows[b].status];
  const value = (position) => {
    const result = Results.resultOf(rows[position], key);
    if (!result) return -Infinity;
    return result.score ?? (result.result === "pass" ? 1 : result.result === "fail" ? 0 : -1);
  };
  return (a, b) => value(a) - value(b);
}

/** The entry's id as every export writes it: "item-2" for an item or row, "item-4.turn-1" for a thread turn (0-based). */
export function entryLabel(row) {
  return row.turn === null || row.turn === undefined ? `item-${row.index}` : `item-${row.index}.turn-${row.turn}`;
}
