// The agenteval page: load a dataset (file, drop, paste, URL, or the built-in example), score it in
// the engine worker with an optional LLM judge, and show, compare and export the results. Runs and
// their results are kept in IndexedDB as they arrive, so a reload shows them and resumes a run
// that was cut short.

import { Engine } from "./lib/engine.js";
import { h, replace } from "./lib/dom.js";
import { JudgePanel } from "./lib/judge-panel.js";
import { Results } from "./lib/model.js";
import { ResultsView } from "./lib/results-view.js";
import { openStore } from "./lib/store.js";
import { downloadExport, exportFormats } from "./lib/exports.js";
import { LoadPanel } from "./lib/load-panel.js";
import { RunBar } from "./lib/run-bar.js";
import { DiagnosticsList } from "./lib/diagnostics.js";
import { HistoryPanel } from "./lib/history.js";

const EXAMPLE_NAME = "m365-demo.json";

class Page {
  constructor(root) {
    this.engine = new Engine();
    this.current = null;
    this.setState("booting");
    this.view = new ResultsView({
      entry: (position) => this.engine.call("entry", position),
      search: (text) => this.engine.call("search", text),
      review: (position, review) => this.engine.call("review", position, review),
    });
    this.load = new LoadPanel({
      onBytes: (bytes, name) => this.openDataset(bytes, name),
      onError: (message) => this.fail(message),
      onConfig: (config, name) => {
        this.config = config;
        this.configName = name;
      },
    });
    this.judge = new JudgePanel({ store: undefined, onTest: (judge) => this.engine.call("testJudge", judge) });
    this.runBar = new RunBar({ onRun: () => this.score(), onCancel: () => this.cancel() });
    this.diagnostics = new DiagnosticsList({ locate: (location) => this.engine.call("excerpt", location) });
    this.history = new HistoryPanel({
      onCompare: (rows, name) => this.view.compareWith(rows ? new Results(rows) : null, name),
      readFile: (bytes) => this.engine.call("readStored", bytes),
      loadRun: (id) => this.engine.call("storedRows", id),
    });
    this.exports = h("section", { class: "panel exports", id: "exports", "aria-labelledby": "exports-title" });
    this.title = h("p", { class: "dataset-name", id: "dataset-name", "aria-live": "polite" });
    this.message = h("p", { class: "message", id: "message", role: "alert" });
    replace(
      root,
      h(
        "header",
        { class: "top" },
        h("h1", {}, "agenteval"),
        h("p", { class: "tagline" }, "Score AI-agent test datasets in your browser. Nothing leaves this page except the judge requests you configure."),
      ),
      h(
        "main",
        { id: "main" },
        h("div", { class: "controls" }, this.load.element, this.judge.element, this.runBar.element, this.title, this.message, this.diagnostics.element),
        this.view.element,
        h("div", { class: "side-panels" }, this.exports, this.history.element),
      ),
    );
  }

  setState(state) {
    document.body.dataset.state = state;
  }

  fail(message) {
    this.message.textContent = message;
    this.setState("error");
  }

  async start() {
    try {
      this.store = await openStore();
    } catch {
      this.store = undefined;
    }
    this.judge.store = this.store;
    this.history.store = this.store;
    await this.judge.restore();
    this.offerServedJudge();
    try {
      await this.engine.ready;
    } catch (error) {
      return this.fail(`The engine could not start: ${error.message}`);
    }
    this.drawExports();
    const url = new URLSearchParams(location.search).get("dataset");
    if (url) return this.load.fromUrl(url);
    const latest = this.store ? (await this.store.listRuns().catch(() => []))[0] : undefined;
    if (latest) return this.restore(latest);
    return this.openExample();
  }

  async offerServedJudge() {
    if (!location.protocol.startsWith("http")) return;
    try {
      const response = await fetch(new URL("serve.json", location.href));
      if (!response.ok) return;
      const served = await response.json();
      if (served?.judge?.endpoint) this.judge.offerDemo(served.judge);
    } catch {
      // Not served by `agenteval view`: no judge to offer.
    }
  }

  async openExample() {
    const inline = document.getElementById("agenteval-example")?.textContent;
    try {
      const bytes = inline
        ? new TextEncoder().encode(inline).buffer
        : await (await fetch(new URL("../examples/m365-demo.json", import.meta.url))).arrayBuffer();
      await this.openDataset(bytes, EXAMPLE_NAME);
    } catch (error) {
      this.fail(`Cannot load the built-in example: ${error.message}`);
    }
  }

  /**
   * Opens a dataset: shows its stored scores if it has any, else scores it. Problems are listed
   * as the CLI reports them: a dataset that cannot be read is not scored; a bad item is scored as
   * an error entry and named in the problems list.
   */
  async openDataset(bytes, name) {
    this.setState("loading");
    this.message.textContent = "";
    this.title.textContent = `Reading ${name}…`;
    this.view.compareWith(null);
    this.diagnostics.show([], name);
    let opened;
    try {
      opened = await this.engine.open(bytes, name, this.config);
    } catch (error) {
      return this.fail(`${name}: ${error.message}`);
    }
    const { stored } = opened;
    this.current = { name, dialect: stored?.dialect ?? null, stored: Boolean(stored), formats: opened.formats };
    this.drawExports();
    if (stored) {
      this.title.textContent = `${name}: a ${stored.dialect} report with ${stored.items.length} scored entries, shown as stored. Score again to compare.`;
      this.storedRows = stored.items;
      this.view.reset(stored.items);
      this.runBar.ready(`${stored.items.length} entries as stored`);
      this.setState("done");
      return;
    }
    this.storedRows = null;
    return this.score();
  }

  /** Lists the open dataset's problems (warnings included) once a run has read it. */
  async listProblems() {
    const { name } = this.current;
    const validation = await this.engine.call("validate").catch(() => null);
    if (validation && this.current?.name === name) this.diagnostics.show(validation.diagnostics, name);
  }

  /** Scores the open dataset (again). */
  async score({ resume } = {}) {
    if (!this.current) return;
    const runId = resume ?? `run-${new Date().toISOString()}-${Math.random().toString(36).slice(2, 8)}`;
    const judge = this.judge.judge();
    const baseline = this.storedRows;
    this.view.reset(resume ? this.resumedRows ?? [] : []);
    let fresh = !resume;
    this.setState("running");
    this.runBar.started();
    const run = this.engine.run(
      {
        judge,
        runId,
        persist: this.store ? { name: this.current.name, judge: this.judge.describeForRun(), startedAt: new Date().toISOString() } : undefined,
      },
      {
        onRows: (rows) => {
          if (!fresh) {
            fresh = true;
            this.view.reset([]);
          }
          this.view.append(rows);
        },
        onProgress: (progress) => this.runBar.progress(progress),
      },
    );
    this.activeRun = run;
    try {
      const { report, tags } = await run.promise;
      if (tags) this.view.results.setTags(tags);
      this.view.refresh();
      if (tags) this.view.drawFilters();
      this.current.dialect = report.dialect;
      this.title.textContent = `${this.current.name}: ${report.dialect}, ${report.summary.items} entries${resume ? " (resumed from this device)" : ""}`;
      this.runBar.finished(report, this.view.results.rows.length);
      this.current.scored = true;
      this.drawExports();
      if (baseline) this.view.compareWith(new Results(baseline.map((row) => ({ ...row }))), "the scores stored in the file");
      this.history.refresh(runId);
      this.setState(report.judge?.not_reached?.length ? "cancelled" : "done");
      this.listProblems();
    } catch (error) {
      this.view.refresh();
      if (error.name === "AbortError" || /cancel/i.test(error.message)) {
        this.runBar.cancelled(this.view.results.rows.length);
        this.history.refresh(runId);
        this.setState("cancelled");
      } else if (error.diagnostics) {
        this.title.textContent = `${this.current.name}: not scored — fix the problems listed below.`;
        this.diagnostics.show(error.diagnostics, this.current.name);
        this.runBar.ready("");
        this.setState("invalid");
      } else {
        this.runBar.ready("");
        this.fail(`Scoring failed: ${error.message}`);
      }
    } finally {
      this.activeRun = null;
    }
  }

  cancel() {
    this.activeRun?.cancel();
  }

  /** Shows a stored run and, if it was cut short, scores it again (judge answers come from the cache). */
  async restore(record) {
    this.setState("loading");
    let restored;
    try {
      restored = await this.engine.call("restore", record.id);
    } catch (error) {
      return this.openExample();
    }
    const { validation, rows, run, formats } = restored;
    this.current = { name: run.name, dialect: validation.dialect, scored: run.status === "done", formats };
    this.diagnostics.show(validation.diagnostics, run.name);
    this.title.textContent = `${run.name}: ${validation.dialect}, ${validation.items} entries (${run.status === "done" ? "restored" : "resumed"} from this device)`;
    this.resumedRows = rows;
    this.view.reset(rows);
    this.drawExports();
    this.history.refresh(run.id);
    if (run.status === "done") {
      this.runBar.ready(`${rows.length} entries restored`);
      this.setState("done");
      return;
    }
    if (run.judge?.hasKey && !this.judge.judge()?.apiKey) {
      this.runBar.ready(`${rows.length} of ${validation.items} entries scored before the reload; enter the judge's key and press Score to continue.`);
      this.setState("paused");
      return;
    }
    return this.score({ resume: run.id });
  }

  drawExports() {
    const formats = exportFormats(this.current?.formats);
    const ready = Boolean(this.current);
    replace(
      this.exports,
      h("h2", { id: "exports-title" }, "Export"),
      h("p", { class: "hint" }, "The same files as agenteval score --format … writes for this run."),
      h(
        "div",
        { class: "actions" },
        formats.map(({ format, label }) =>
          h(
            "button",
            {
              type: "button",
              "data-format": format,
              disabled: !ready,
              onclick: () => this.export(format),
            },
            label,
          ),
        ),
      ),
    );
  }

  async export(format) {
    try {
      const evaluatedAt = new Date().toISOString().replace(/\.\d+Z$/, "Z");
      const text = await this.engine.call("export", format, { evaluatedAt, title: this.current.name });
      downloadExport(this.current.name, format, text);
    } catch (error) {
      this.message.textContent = `Export failed: ${error.message}`;
    }
  }
}

const root = document.querySelector("agenteval-app") ?? document.body;
const page = new Page(root);
globalThis.agentevalPage = page;
page.start();
