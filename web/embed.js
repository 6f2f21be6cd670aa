// The results view for other pages (portal extensions): `mount(host, options)` or the
// `<agenteval-results>` element shows the summary, charts, table and item view of a dataset
// (scored in its own engine worker) or of a report already made. It lives in a shadow root with
// its own styles, so the host page's styles do not reach in and its own do not leak out.
//
//   import { mount } from "./embed.js";
//   const view = await mount(element, { dataset: text | bytes | object, config, judge });
//   const view = await mount(element, { report });   // a run report (`agenteval score --format report`)
//   <agenteval-results src="reports/run.json"></agenteval-results>   (a dataset or a report)

import { Engine } from "./lib/engine.js";
import { compactRow, searchText } from "./lib/entries.js";
import { h, plural } from "./lib/dom.js";
import { entryLabel } from "./lib/model.js";
import { ResultsView } from "./lib/results-view.js";

const STYLES = new URL("./styles.css", import.meta.url).href;

function isReport(value) {
  return value && typeof value === "object" && value.tool && typeof value.dialect === "string" && Array.isArray(value.items) && value.summary;
}

function bytesOf(dataset) {
  if (dataset instanceof ArrayBuffer) return dataset.slice(0);
  if (ArrayBuffer.isView(dataset)) return dataset.buffer.slice(dataset.byteOffset, dataset.byteOffset + dataset.byteLength);
  const text = typeof dataset === "string" ? dataset : JSON.stringify(dataset);
  return new TextEncoder().encode(text).buffer;
}

/**
 * The search of a run report's entries (it holds no inputs): the positions of the entries whose
 * id, evaluators, reasons or error messages hold `text`, ignoring case.
 */
function reportSearch(outcomes) {
  let texts;
  return async (text) => {
    texts ??= outcomes.map((outcome) =>
      [entryLabel(outcome), ...outcome.results.map((result) => result.evaluator), searchText(null, outcome), outcome.problem ?? ""].join("\n").toLowerCase(),
    );
    const needle = text.toLowerCase();
    return texts.flatMap((haystack, position) => (haystack.includes(needle) ? [position] : []));
  };
}

/** The embedded view's frame in `host`'s shadow root: its styles, then `children`. */
function frameIn(host, ...children) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  const frame = h("div", { class: "embedded" }, h("link", { rel: "stylesheet", href: STYLES }), ...children);
  root.replaceChildren(frame);
  return frame;
}

/**
 * Shows the results of `options.report` (a run report object), or of `options.dataset` scored in
 * the page (with `options.config` and `options.judge` as the package takes them), inside `host`'s
 * shadow root. Resolves to `{view, report, engine}` once shown; `engine` is undefined for a report.
 */
export async function mount(host, options = {}) {
  const status = h("p", { class: "run-status", role: "status" }, "Loading…");
  const frame = frameIn(host, status);
  if (isReport(options.report)) {
    const outcomes = options.report.items;
    const view = new ResultsView({ entry: async (position) => ({ outcome: outcomes[position], input: null }), search: reportSearch(outcomes) });
    frame.append(view.element);
    view.reset(outcomes.map(compactRow));
    status.textContent = plural(outcomes.length, "entry", "entries");
    return { view, report: options.report, engine: undefined };
  }
  if (options.dataset === undefined) throw new TypeError("mount: give options.report or options.dataset");
  const engine = new Engine();
  const view = new ResultsView({
    entry: (position) => engine.call("entry", position),
    search: (text) => engine.call("search", text),
  });
  frame.append(view.element);
  await engine.ready;
  const config = typeof options.config === "object" && options.config !== null ? JSON.stringify(options.config) : options.config;
  const { stored } = await engine.open(bytesOf(options.dataset), options.name ?? "dataset", config);
  if (stored) {
    view.reset(stored.items);
    status.textContent = `${plural(stored.items.length, "entry", "entries")}, as stored`;
    return { view, report: stored, engine };
  }
  status.textContent = "Scoring…";
  try {
    const { report, tags } = await engine.run({ judge: options.judge }, { onRows: (rows) => view.append(rows) }).promise;
    if (tags) view.results.setTags(tags);
    view.refresh();
    status.textContent = `${plural(view.results.rows.length, "entry", "entries")} scored`;
    return { view, report, engine };
  } catch (error) {
    const problems = (error.diagnostics ?? []).filter((entry) => entry.severity === "error").map((entry) => entry.message);
    status.textContent = `The dataset cannot be scored: ${problems.slice(0, 3).join("; ") || error.message}`;
    throw Object.assign(new Error(status.textContent), { diagnostics: error.diagnostics });
  }
}

/**
 * `<agenteval-results src="…">`: fetches `src` (a dataset or a run report) and shows its results,
 * or, when it cannot (no such file, a dataset that cannot be scored), a message saying why.
 */
class AgentevalResults extends HTMLElement {
  static get observedAttributes() {
    return ["src"];
  }

  attributeChangedCallback() {
    this.load();
  }

  async load() {
    const src = this.getAttribute("src");
    if (!src) return;
    try {
      const response = await fetch(new URL(src, document.baseURI), { credentials: "same-origin" });
      if (!response.ok) throw new Error(`${src}: the server answered ${response.status}`);
      const bytes = await response.arrayBuffer();
      let report;
      try {
        const value = JSON.parse(new TextDecoder().decode(bytes));
        if (isReport(value)) report = value;
      } catch {
        // JSON Lines or CSV: a dataset.
      }
      this.mounted = await mount(this, report ? { report } : { dataset: bytes, name: src.split("/").pop() });
      this.dispatchEvent(new CustomEvent("agenteval-ready", { detail: { entries: this.mounted.view.results.rows.length } }));
    } catch (error) {
      if (!this.shadowRoot?.querySelector(".embed-problem, .results-view")) {
        frameIn(this, h("p", { class: "embed-problem", role: "alert" }, `The results cannot be shown: ${error.message}`));
      }
      this.dispatchEvent(new CustomEvent("agenteval-error", { detail: { message: error.message } }));
    }
  }
}

if (!customElements.get("agenteval-results")) customElements.define("agenteval-results", AgentevalResults);
