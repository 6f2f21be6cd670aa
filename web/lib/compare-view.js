// Comparing the run shown with a baseline: an earlier run kept on this device, a scored file, or
// the scores the open file carried before it was scored again. The comparison is the package's
// `compare()` (through the engine worker), never worked out here: its metrics table in Foundry's
// colours, the pairing (the key used, the counts and the unmatched items), the flips of each
// pass rate one click away, each paired entry's baseline and candidate verdicts side by side,
// "changed only" and "regressions" filters for the results table, and the comparison's exports,
// byte for byte what `agenteval compare --format …` writes. Every piece of data is text.

import { h, formatScore, plural, replace } from "./dom.js";
import { saveText } from "./exports.js";

const EXPORTS = [
  { format: "json", label: "Comparison (JSON)", extension: "json", type: "application/json" },
  { format: "md", label: "Comparison (Markdown)", extension: "md", type: "text/markdown" },
  { format: "html", label: "Comparison (HTML)", extension: "html", type: "text/html" },
];

const HEADERS = ["Evaluator", "Metric", "n (excluded)", "Baseline", "Candidate", "Δ", "p", "Effect", "Flips ↓ / ↑"];

/** At most this many changed items are listed (the table's "changed only" filter shows them all). */
const LISTED = 500;

/** The results-table subsets the comparison offers: `[value, label]`. */
const SUBSETS = [
  ["", "all entries"],
  ["changed", "changed only"],
  ["regressions", "regressions"],
];

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The effect's class, as the CLI's HTML colours it: `improved-strong`, `degraded-weak`, `changed`, `inconclusive`. */
export function effectClass({ effect, strength }) {
  if (effect === "improved" || effect === "degraded") return `${effect}-${strength === "strong" ? "strong" : "weak"}`;
  if (effect === "changed") return "changed";
  return "inconclusive";
}

function effectText({ effect, strength }) {
  const words = effect.replaceAll("_", " ");
  return strength ? `${words} (${strength})` : words;
}

/** A mean or interval as the metric's type reads: pass rates in percent, scores as numbers. */
function shown(metric, value) {
  if (value === null || value === undefined) return "–";
  return metric.metric === "pass_rate" ? `${(value * 100).toFixed(1)} %` : formatScore(value);
}

function withInterval(metric, mean, interval) {
  const text = shown(metric, mean);
  return interval ? `${text} [${shown(metric, interval[0])}, ${shown(metric, interval[1])}]` : text;
}

function deltaText(metric) {
  if (metric.delta === null || metric.delta === undefined) return "–";
  const sign = metric.delta > 0 ? "+" : "";
  return metric.metric === "pass_rate" ? `${sign}${(metric.delta * 100).toFixed(1)} pp` : `${sign}${formatScore(metric.delta)}`;
}

function verdictText(verdict) {
  if (!verdict) return "absent";
  return verdict.score === undefined || verdict.score === null ? verdict.result : `${verdict.result} (${formatScore(verdict.score)})`;
}

/** Whether a paired item has an evaluator that passed in the baseline and fails or errors in the candidate. */
function regressed(item) {
  return Object.entries(item.baseline).some(([evaluator, before]) => {
    const after = item.candidate[evaluator]?.result;
    return before.result === "pass" && (after === "fail" || after === "error");
  });
}

export class CompareView {
  /**
   * `compare(baseline, options)` asks the engine for the comparison (`{comparison, baselineName,
   * candidateName}`, or with `options.format` the export's text); `rows()` gives the results
   * table's rows; `restrict(positions | null)` shows only those positions in it; `open(position)`
   * opens an entry's item view.
   */
  constructor({ compare, rows, restrict, open }) {
    this.compareWith = compare;
    this.rows = rows;
    this.restrict = restrict;
    this.openEntry = open;
    this.store = undefined;
    this.current = null;
    this.baseline = null;
    this.shown = null;
    this.generation = 0;
    this.runs = h("select", { id: "compare-run" });
    this.status = h("p", { class: "hint", id: "compare-status", role: "status" });
    const file = h("input", { type: "file", id: "compare-file", accept: ".json,.jsonl,.csv,application/json" });
    file.addEventListener("change", async () => {
      const chosen = file.files[0];
      file.value = "";
      if (chosen) await this.show({ bytes: await chosen.arrayBuffer(), name: chosen.name });
    });
    this.picker = h(
      "section",
      { class: "panel history", id: "history", "aria-labelledby": "history-title" },
      h("h2", { id: "history-title" }, "Compare runs"),
      h("p", { class: "hint" }, "Pick a baseline for the run shown: items are paired by id or prompt, and each evaluator is tested as agenteval compare does."),
      h(
        "div",
        { class: "inline-form" },
        h("label", { class: "field field-wide" }, "An earlier run on this device", this.runs),
        h("button", { type: "button", id: "compare-run-button", onclick: () => this.compareRun() }, "Compare"),
      ),
      h("label", { class: "field" }, "Or a scored file (document, Foundry rows, Copilot Studio export, run report, runevals results)", file),
      this.status,
    );
    this.subset = h(
      "select",
      { id: "filter-compare", onchange: () => this.applySubset() },
      SUBSETS.map(([value, label]) => h("option", { value }, label)),
    );
    this.filter = h("label", { class: "field", hidden: true }, "Compared", this.subset);
    this.element = h("section", { class: "compare", id: "compare", "aria-labelledby": "compare-title", hidden: true });
  }

  /** Lists the stored runs other than `current` (the run shown). */
  async refresh(current) {
    this.current = current ?? this.current;
    const runs = this.store ? await this.store.listRuns().catch(() => []) : [];
    const others = runs.filter((run) => run.id !== this.current);
    replace(
      this.runs,
      others.length === 0 ? h("option", { value: "" }, "(no earlier run)") : null,
      others.map((run) =>
        h("option", { value: run.id }, `${run.name} — ${when(run.startedAt)} — ${run.status}${run.summary ? `, ${run.summary.pass} pass / ${run.summary.fail} fail` : ""}`),
      ),
    );
  }

  async compareRun() {
    const id = this.runs.value;
    if (id) await this.show({ run: id });
  }

  /** Removes the comparison (a new dataset or run is shown). */
  clear() {
    this.generation += 1;
    this.status.textContent = "";
    this.baseline = null;
    this.shown = null;
    this.element.hidden = true;
    this.filter.hidden = true;
    this.subset.value = "";
    this.restrict(null);
    replace(this.element);
  }

  /**
   * Compares the run shown with `baseline` (`{run}`, `{bytes, name}` or `{stored: true}`) and
   * shows it, unless another dataset or run is shown by the time the answer comes.
   */
  async show(baseline) {
    const generation = this.generation;
    this.status.textContent = "Comparing…";
    let answer;
    try {
      answer = await this.compareWith(baseline);
    } catch (error) {
      if (generation === this.generation) this.status.textContent = error.message;
      return;
    }
    // Another dataset or run was shown meanwhile: this comparison is not of it.
    if (generation !== this.generation) return;
    this.status.textContent = "";
    this.baseline = baseline;
    this.shown = answer;
    this.draw();
  }

  draw() {
    const { comparison, baselineName, candidateName } = this.shown;
    const { pairing, metrics } = comparison;
    this.flips = h("div", { class: "compare-flips", id: "compare-flips", hidden: true });
    this.side = h("section", { class: "compare-entry", id: "compare-entry", "aria-labelledby": "compare-entry-title", hidden: true });
    const significant = metrics.some((metric) => ["improved", "degraded", "changed"].includes(metric.effect));
    replace(
      this.element,
      h("h2", { id: "compare-title" }, `Compared with ${baselineName}`),
      h("p", { class: "hint", id: "compare-runs" }, `Baseline ${baselineName} (${comparison.baseline.dialect}, ${plural(comparison.baseline.items, "item")}) → candidate ${candidateName} (${plural(comparison.candidate.items, "item")}).`),
      h("p", { id: "compare-pairing" }, pairingText(pairing)),
      this.unmatched(pairing),
      h(
        "table",
        { class: "deltas compare-metrics", id: "compare-metrics" },
        h("caption", {}, "Per evaluator: paired test of the candidate against the baseline (95 % intervals)"),
        h("thead", {}, h("tr", {}, HEADERS.map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, metrics.map((metric) => this.metricRow(metric))),
      ),
      significant ? null : h("p", { id: "compare-nothing" }, "No metric differs significantly between the runs."),
      this.changedList(comparison.items),
      this.flips,
      this.side,
      h(
        "div",
        { class: "actions", id: "compare-exports" },
        EXPORTS.map(({ format, label }) => h("button", { type: "button", "data-compare-format": format, onclick: () => this.export(format) }, label)),
      ),
    );
    this.element.hidden = false;
    this.filter.hidden = false;
    this.applySubset();
  }

  unmatched(pairing) {
    if (pairing.unmatched.length === 0) return null;
    return h(
      "details",
      { id: "compare-unmatched" },
      h("summary", {}, `${plural(pairing.unmatched.length, "unmatched item")}`),
      h(
        "ul",
        {},
        pairing.unmatched.map((item) => h("li", { "data-run": item.run }, `only in the ${item.run}: item ${item.index}, ${item.key}`)),
      ),
    );
  }

  /** The paired items whose verdicts or scores changed, each opening its side-by-side view. */
  changedList(items) {
    const changed = items.filter((item) => item.changed);
    return h(
      "details",
      { id: "compare-changed" },
      h("summary", {}, `${plural(changed.length, "paired item")} changed`),
      h(
        "ul",
        {},
        changed.slice(0, LISTED).map((item) => h("li", {}, h("button", { type: "button", class: "link", onclick: () => this.showItem(item) }, item.key))),
      ),
      changed.length > LISTED ? h("p", {}, `… and ${changed.length - LISTED} more (filter the table by "changed only")`) : null,
    );
  }

  metricRow(metric) {
    const flips = metric.flips
      ? h(
          "button",
          {
            type: "button",
            class: "link",
            "aria-label": `${metric.evaluator}: ${metric.flips.pass_to_fail} pass → fail, ${metric.flips.fail_to_pass} fail → pass`,
            onclick: () => this.showFlips(metric.evaluator),
          },
          `${metric.flips.pass_to_fail} / ${metric.flips.fail_to_pass}`,
        )
      : "–";
    return h(
      "tr",
      { "data-evaluator": metric.evaluator, "data-metric": metric.metric },
      h("th", { scope: "row" }, metric.evaluator),
      h("td", {}, `${metric.metric === "pass_rate" ? "pass rate" : "score"} (${metric.type})`),
      h("td", {}, `${metric.n} (${metric.excluded})`),
      h("td", {}, withInterval(metric, metric.baseline_mean, metric.baseline_ci)),
      h("td", {}, withInterval(metric, metric.candidate_mean, metric.candidate_ci)),
      h("td", {}, deltaText(metric)),
      h("td", {}, metric.p_value === null ? "–" : formatScore(metric.p_value, 4)),
      h("td", { class: `effect ${effectClass(metric)}`, "data-effect": effectClass(metric) }, effectText(metric)),
      h("td", {}, flips),
    );
  }

  /** Lists the items whose `evaluator` verdict flipped, each opening its side-by-side view. */
  showFlips(evaluator) {
    const flipped = this.shown.comparison.items.filter((item) => {
      const before = item.baseline[evaluator]?.result;
      const after = item.candidate[evaluator]?.result;
      return (before === "pass" && after === "fail") || (before === "fail" && after === "pass");
    });
    replace(
      this.flips,
      h("h3", { id: "compare-flips-title" }, `${evaluator}: ${plural(flipped.length, "flip")}`),
      h(
        "ul",
        { "aria-labelledby": "compare-flips-title" },
        flipped.slice(0, LISTED).map((item) =>
          h(
            "li",
            {},
            h(
              "button",
              { type: "button", class: "link", onclick: () => this.showItem(item) },
              `${item.key}: ${item.baseline[evaluator].result} → ${item.candidate[evaluator].result}`,
            ),
          ),
        ),
      ),
    );
    this.flips.hidden = false;
  }

  /** The paired item's verdicts side by side, one row per evaluator of either run. */
  showItem(item) {
    const evaluators = [...new Set([...Object.keys(item.baseline), ...Object.keys(item.candidate)])];
    const position = this.rows().find((row) => row.index === item.candidate_index)?.position;
    replace(
      this.side,
      h("h3", { id: "compare-entry-title" }, `${item.key} — baseline item ${item.baseline_index}, candidate item ${item.candidate_index}`),
      h(
        "table",
        { class: "deltas" },
        h("thead", {}, h("tr", {}, ["Evaluator", "Baseline", "Candidate"].map((text) => h("th", { scope: "col" }, text)))),
        h(
          "tbody",
          {},
          evaluators.map((evaluator) => {
            const before = verdictText(item.baseline[evaluator]);
            const after = verdictText(item.candidate[evaluator]);
            return h(
              "tr",
              { "data-evaluator": evaluator, class: before === after ? null : "compare-moved" },
              h("th", { scope: "row" }, evaluator),
              h("td", { "data-side": "baseline" }, before),
              h("td", { "data-side": "candidate" }, after),
            );
          }),
        ),
      ),
      position === undefined ? null : h("button", { type: "button", class: "link", onclick: () => this.openEntry(position) }, "Open the candidate's entry"),
    );
    this.side.hidden = false;
  }

  /** Shows the paired item of the results table's entry at `position` side by side, if it has one. */
  showEntry(position) {
    const row = this.rows()[position];
    const item = row && this.shown?.comparison.items.find((paired) => paired.candidate_index === row.index);
    if (item) this.showItem(item);
  }

  /** Applies the "changed only" or "regressions" subset to the results table. */
  applySubset() {
    const subset = this.subset.value;
    if (!subset || !this.shown) return this.restrict(null);
    const items = this.shown.comparison.items.filter((item) => (subset === "changed" ? item.changed : regressed(item)));
    const indexes = new Set(items.map((item) => item.candidate_index));
    this.restrict(this.rows().filter((row) => indexes.has(row.index)).map((row) => row.position));
  }

  async export(format) {
    const { extension, type } = EXPORTS.find((entry) => entry.format === format);
    try {
      const text = await this.compareWith(this.baseline, { format });
      saveText(`comparison.${extension}`, text, type);
    } catch (error) {
      this.status.textContent = `Export failed: ${error.message}`;
    }
  }
}

/** The pairing in words: "Paired by prompt: 7 matched, 0 only in the baseline, 1 only in the candidate." */
function pairingText(pairing) {
  const key = pairing.key === "index" ? "item index (a run report carries neither ids nor prompts)" : pairing.field ? `field ${pairing.field}` : pairing.key;
  const threads = pairing.threads > 0 ? ` ${plural(pairing.threads, "thread")} counted as one sample each.` : "";
  return `Paired by ${key}: ${pairing.matched} matched, ${pairing.only_baseline} only in the baseline, ${pairing.only_candidate} only in the candidate.${threads}`;
}
