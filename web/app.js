// The agenteval page: load a dataset (file, drop, paste, URL, or the built-in example), score it in
// the engine worker with an optional LLM judge, and show, compare and export the results. One run
// at a time: opening a dataset cancels the run in progress, and every row or progress message
// names its run, so those of a run no longer shown are dropped. Runs and their results are kept in
// IndexedDB as they arrive, so a reload shows them; a run cut short resumes by itself only when it
// costs nothing (no judge), else when the user presses Resume. The agent panel runs the open
// dataset through the agent under test first, when asked, then opens the answered dataset.

import { Engine } from "./lib/engine.js";
import { h, plural, replace } from "./lib/dom.js";
import { JudgePanel } from "./lib/judge-panel.js";
import { ResultsView } from "./lib/results-view.js";
import { openStore } from "./lib/store.js";
import { downloadExport, exportFormats } from "./lib/exports.js";
import { LoadPanel } from "./lib/load-panel.js";
import { RunBar } from "./lib/run-bar.js";
import { DiagnosticsList } from "./lib/diagnostics.js";
import { CompareView } from "./lib/compare-view.js";
import { explain } from "./lib/judge-check.js";
import { DatasetLine } from "./lib/dataset-line.js";
import { JudgeOffer } from "./lib/judge-offer.js";
import { AgentPanel, answeredName } from "./lib/agent-panel.js";
import { PENDING_AGENT_RUN } from "./lib/agent-run.js";

const EXAMPLE_NAME = "m365-demo.json";

class Page {
  constructor(root) {
    this.engine = new Engine();
    this.current = null;
    this.generation = 0;
    this.runId = null;
    this.setState("booting");
    this.view = new ResultsView({
      entry: (position) => {
        this.compare.showEntry(position);
        return this.engine.call("entry", position);
      },
      search: (text) => this.engine.call("search", text),
      review: (position, review) => this.engine.call("review", position, review),
      labels: (positions) => this.engine.call("labels", positions),
      reviews: () => this.engine.call("reviews"),
    });
    this.load = new LoadPanel({
      onBytes: (bytes, name) => this.openDataset(bytes, name),
      onError: (message) => this.fail(message),
      onConfig: (config, name) => this.chooseConfig(config, name),
    });
    this.judge = new JudgePanel({
      store: undefined,
      onTest: (judge) => this.engine.call("testJudge", judge),
      onReach: (endpoint) => this.engine.call("reach", endpoint),
      onChange: () => this.judgeOffer.judgeTurned(!this.activeRun && Boolean(this.judge.judge())),
    });
    this.judgeOffer = new JudgeOffer({
      onUseDemo: () => {
        this.judge.useDemo();
        return this.score();
      },
      onScore: () => this.score(),
    });
    this.agent = new AgentPanel({
      store: undefined,
      onTest: (request) => this.engine.call("testAgent", request),
      onRun: (request) => this.runAgent(request),
      onCancel: () => this.agentRun?.abort(new DOMException("cancelled by the user", "AbortError")),
      onResume: () => this.runAgent(this.agent.request(), this.pendingAgentRun),
    });
    this.runBar = new RunBar({ onRun: () => this.score(), onCancel: () => this.cancel(), onResume: () => this.resume() });
    this.diagnostics = new DiagnosticsList({ locate: (location) => this.engine.call("excerpt", location) });
    this.compare = new CompareView({
      compare: (baseline, options) => this.engine.call("compare", baseline, options),
      rows: () => this.view.results.rows,
      restrict: (positions) => this.view.restrict(positions),
      open: (position) => this.view.open(position),
    });
    this.view.compareSlot.append(this.compare.element);
    this.view.filterSlot.append(this.compare.filter);
    this.exports = h("section", { class: "panel exports", id: "exports", "aria-labelledby": "exports-title" });
    this.title = h("p", { class: "dataset-name", id: "dataset-name", "aria-live": "polite" });
    this.message = h("p", { class: "message", id: "message", role: "alert" });
    this.banner = h("p", { class: "banner", id: "judge-banner", role: "alert", hidden: true });
    this.datasetLine = new DatasetLine({ loader: this.load.element, title: this.title });
    replace(
      root,
      h(
        "header",
        { class: "top" },
        h("h1", {}, "agenteval"),
        h("p", { class: "tagline" }, "Score AI-agent test datasets in your browser. Nothing leaves this page except the judge and agent requests you configure."),
      ),
      h(
        "main",
        { id: "main" },
        h("div", { class: "controls" }, this.datasetLine.element, this.load.element, this.judge.element, this.agent.element, this.runBar.element, this.banner, this.judgeOffer.element, this.message, this.diagnostics.element),
        h("div", { class: "toolbar", role: "region", "aria-label": "Export and compare" }, this.exports, this.compare.picker),
        this.view.element,
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
    this.compare.store = this.store;
    this.agent.store = this.store;
    await this.judge.restore();
    await this.agent.restore();
    this.offerServedJudge();
    try {
      await this.engine.ready;
    } catch (error) {
      return this.fail(`The engine could not start: ${error.message}`);
    }
    this.drawExports();
    this.offerAgentAgain();
    // `?dataset=URL&config=URL`: the config is chosen first, so that it applies to the dataset.
    const query = new URLSearchParams(location.search);
    if (query.get("config") && !(await this.load.configFromUrl(query.get("config")))) return;
    if (query.get("dataset")) return this.load.fromUrl(query.get("dataset"));
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
      if (served?.judge?.endpoint) {
        this.judge.offerDemo(served.judge);
        this.judgeOffer.offerDemo(served.judge.label);
      }
      if (served?.agent?.endpoint) this.agent.offerDemo(served.agent);
    } catch {
      // Not served by `agenteval view`: no judge to offer.
    }
  }

  /** An agent run cut by a reload is offered again (never run by itself). */
  async offerAgentAgain() {
    const pending = await this.store?.getSetting(PENDING_AGENT_RUN).catch(() => undefined);
    if (!pending) return;
    this.pendingAgentRun = pending;
    this.agent.offerAgain(pending);
  }

  /**
   * Sends the open dataset's prompts (or those of `again`, a run cut by a reload: `{name,
   * dataset}`) to the agent, then opens the answered dataset, which scores it.
   */
  async runAgent({ target, secrets, concurrency }, again) {
    const name = again?.name ?? this.current?.name;
    if (!target) return this.agent.failed(new Error("enter the agent's endpoint first"));
    if (!name) return this.agent.failed(new Error("open a dataset first"));
    const token = await this.takeOver();
    if (token !== this.generation) return;
    const controller = new AbortController();
    this.agentRun = controller;
    this.pendingAgentRun = null;
    this.agent.started();
    let ran;
    try {
      ran = await this.engine.client.call("runAgent", [{ target, secrets, concurrency, name, dataset: again?.dataset }], {
        signal: controller.signal,
        judged: true,
        onProgress: (progress) => this.agent.progress(progress),
      });
    } catch (error) {
      return this.agent.failed(error);
    } finally {
      if (this.agentRun === controller) this.agentRun = null;
    }
    const answered = answeredName(name);
    this.agent.ended({ ...ran, name: answered });
    if (!ran.cancelled && token === this.generation) await this.openDataset(new TextEncoder().encode(ran.dataset).buffer, answered);
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
   * Starts a new piece of work (opening a dataset, scoring, restoring): the run in progress is
   * cancelled and its rows are dropped from then on, so nothing of it reaches what comes next.
   * Resolves to the work's token once that run has ended; the work goes on only while its token
   * is still `this.generation`.
   */
  async takeOver() {
    const token = ++this.generation;
    this.agentRun?.abort(new DOMException("another dataset was opened", "AbortError"));
    const running = this.activeRun;
    this.runId = null;
    if (running) {
      running.cancel();
      await running.promise.catch(() => {});
    }
    return token;
  }

  /**
   * Opens a dataset: shows its stored scores if it has any, else scores it. Problems are listed
   * as the CLI reports them: a dataset that cannot be read is not scored; a bad item is scored as
   * an error entry and named in the problems list. A run in progress is cancelled and its results
   * cleared first.
   */
  async openDataset(bytes, name) {
    const token = await this.takeOver();
    if (token !== this.generation) return;
    this.setState("loading");
    this.message.textContent = "";
    this.current = null;
    this.storedRows = null;
    this.pendingResume = null;
    this.compare.clear();
    this.view.reset([]);
    this.diagnostics.show([], name);
    this.drawExports();
    this.runBar.unavailable("");
    this.title.textContent = `Reading ${name}…`;
    let opened;
    try {
      opened = await this.engine.open(bytes, name, this.config);
    } catch (error) {
      if (token !== this.generation) return;
      this.title.textContent = `${name}: not opened`;
      this.datasetLine.clear();
      return this.fail(`${name}: ${error.message}`);
    }
    if (token !== this.generation) return;
    this.datasetLine.fold();
    const { stored } = opened;
    this.current = { name, dialect: opened.dialect, stored: Boolean(stored), formats: opened.formats, entries: opened.entries, judgeCalls: opened.judgeCalls, config: this.config };
    this.drawExports();
    if (stored) {
      this.title.textContent = `${name}: ${stored.dialect} report with ${plural(stored.items.length, "scored entry", "scored entries")}, shown as stored. Score again to compare.`;
      this.storedRows = stored.items;
      this.view.reset(stored.items);
      this.runBar.ready(`${plural(stored.items.length, "entry", "entries")} as stored`);
      this.view.loadReviews();
      this.setState("done");
      return;
    }
    this.title.textContent = this.describe();
    return this.score({ token });
  }

  /**
   * The config control changed (`config` is the text, or undefined when removed): it applies to
   * the next dataset opened, and to the open one when Score is pressed.
   */
  chooseConfig(config, name) {
    this.config = config;
    this.configName = name;
    if (!this.current || this.activeRun || this.current.stored) return;
    this.runBar.ready(
      config === undefined
        ? `Config removed: press Score to score ${this.current.name} without it.`
        : `Config ${name} chosen: press Score to score ${this.current.name} with it.`,
    );
  }

  /** Gives the open dataset the config chosen since it was opened (on Score). */
  async applyConfig() {
    if (this.current.config === this.config || this.current.stored) return;
    const planned = await this.engine.call("setConfig", this.config ?? null);
    Object.assign(this.current, planned, { config: this.config });
    this.diagnostics.show([], this.current.name);
    this.drawExports();
  }

  /** The open dataset in a few words: "name: dialect, 7 entries". */
  describe() {
    const { name, dialect, entries } = this.current;
    if (!dialect) return name;
    return `${name}: ${dialect}, ${plural(entries ?? this.view.results.rows.length, "entry", "entries")}`;
  }

  /**
   * Lists every problem the engine knows once a run has read the dataset: the dataset's
   * (warnings included) and those its results name (an unknown evaluator, an item's inputs).
   */
  async listProblems() {
    const { name } = this.current;
    const runId = this.runId;
    const diagnostics = await this.engine.call("problems").catch(() => null);
    if (diagnostics && this.current?.name === name && this.runId === runId) this.diagnostics.show(diagnostics, name);
  }

  /**
   * Scores the open dataset (again), or resumes stored run `resume`. `token` is the work this run
   * belongs to (from `takeOver`); without one, the run takes over from any other.
   */
  async score({ resume, token } = {}) {
    if (!this.current) return;
    token ??= await this.takeOver();
    if (token !== this.generation) return;
    await this.applyConfig();
    if (token !== this.generation) return;
    const runId = resume ?? `run-${new Date().toISOString()}-${Math.random().toString(36).slice(2, 8)}`;
    this.runId = runId;
    this.pendingResume = null;
    const judge = this.judge.judge();
    const comparesWithStored = Boolean(this.storedRows);
    this.compare.clear();
    this.judgeOffer.clear();
    this.view.reset(resume ? this.resumedRows ?? [] : []);
    let fresh = !resume;
    this.setState("running");
    this.runBar.started(this.current.entries);
    const run = this.engine.run(
      {
        judge,
        runId,
        persist: this.store ? { name: this.current.name, judge: this.judge.describeForRun(), startedAt: new Date().toISOString() } : undefined,
      },
      {
        onRows: (rows, from) => {
          if (from !== this.runId) return;
          if (!fresh) {
            fresh = true;
            this.view.reset([]);
          }
          this.view.append(rows);
        },
        onProgress: (progress, from) => {
          if (from !== this.runId) return;
          if (progress.judgeFailures) this.judgeFailing(runId, progress.judgeFailures);
          else this.runBar.progress(progress);
        },
      },
    );
    this.activeRun = run;
    this.banner.hidden = true;
    this.judgeTrouble = null;
    if (judge) this.checkJudge(judge, runId);
    const ours = () => this.runId === runId;
    try {
      const { report, tags, cut, stale } = await run.promise;
      if (stale || !ours()) return;
      if (tags) this.view.results.setTags(tags);
      this.view.refresh();
      if (tags) this.view.drawFilters();
      this.current.dialect = report.dialect;
      this.current.entries = report.summary.items;
      this.title.textContent = `${this.describe()}${resume ? " (resumed from this device)" : ""}`;
      this.current.scored = true;
      this.drawExports();
      if (comparesWithStored) this.compare.show({ stored: true });
      this.compare.refresh(runId);
      this.view.loadReviews();
      if (!judge) this.judgeOffer.ranWithoutJudge(this.current.judgeCalls);
      if (cut) {
        this.runBar.cancelled(cut);
        this.setState("cancelled");
      } else {
        this.runBar.finished(report, this.view.results.rows.length);
        this.setState("done");
      }
      this.listProblems();
    } catch (error) {
      if (!ours()) return;
      this.view.refresh();
      if (error.name === "AbortError" || /cancel/i.test(error.message)) {
        this.title.textContent = this.describe();
        this.runBar.cancelled({ entries: this.current.entries ?? this.view.results.rows.length, scored: this.view.results.rows.length });
        this.compare.refresh(runId);
        this.setState("cancelled");
      } else if (error.diagnostics) {
        this.title.textContent = `${this.current.name}: not scored — fix the problems listed below.`;
        this.datasetLine.unfold();
        this.diagnostics.show(error.diagnostics, this.current.name);
        this.current.formats = [];
        this.drawExports();
        this.runBar.ready("");
        this.setState("invalid");
      } else {
        this.runBar.ready("");
        this.fail(`Scoring failed: ${error.message}`);
      }
    } finally {
      if (this.activeRun === run) this.activeRun = null;
      if (ours()) this.view.table.refreshText();
    }
  }

  cancel() {
    this.activeRun?.cancel();
  }

  /**
   * Checks, without a judge call, that the run's judge endpoint can be reached, and raises the
   * banner at once when it cannot (rather than after the calls' retries).
   */
  async checkJudge(judge, runId) {
    const problem = explain(await this.engine.call("reach", judge.endpoint).catch(() => ({ state: "reachable" })));
    if (!problem || this.runId !== runId) return;
    this.judgeTrouble = problem;
    this.showBanner(`Judge calls will fail: ${problem}.`);
  }

  /** Judge calls of run `runId` failed: `{count, code, message}`, the latest failure's. */
  judgeFailing(runId, { count, code, message }) {
    if (this.runId !== runId) return;
    const why = this.judgeTrouble ?? `${code}: ${message} — check the judge's settings`;
    this.showBanner(`${plural(count, "judge call")} failing: ${why}.`);
  }

  showBanner(text) {
    this.banner.textContent = text;
    this.banner.hidden = false;
  }

  /**
   * Shows a stored run. One cut short by a reload scores again by itself only without a judge (its
   * judge answers would cost money): a judged run, or one the user cancelled, waits for Resume,
   * which says how many judge calls it would send.
   */
  async restore(record) {
    const token = ++this.generation;
    this.setState("loading");
    let restored;
    try {
      restored = await this.engine.call("restore", record.id);
    } catch {
      return this.openExample();
    }
    if (token !== this.generation) return;
    const { validation, rows, run, formats, entries, judgeCallsLeft } = restored;
    this.datasetLine.fold();
    this.current = { name: run.name, dialect: validation.dialect, scored: run.status === "done", formats, entries, config: this.config };
    this.diagnostics.show(validation.diagnostics, run.name);
    this.title.textContent = `${this.describe()} (${run.status === "done" ? "restored" : "cut short"} on this device)`;
    this.resumedRows = rows;
    this.compare.clear();
    this.view.reset(rows);
    this.view.loadReviews();
    this.drawExports();
    this.compare.refresh(run.id);
    if (run.status === "done") {
      this.runBar.ready(`${plural(rows.length, "entry", "entries")} restored`);
      this.setState("done");
      return;
    }
    if (!run.judge && run.status !== "cancelled") return this.score({ resume: run.id, token });
    this.pendingResume = { id: run.id, needsKey: Boolean(run.judge?.hasKey) };
    const scored = run.cut
      ? `Cancelled: ${run.cut.fullyScored} of ${plural(run.cut.entries, "entry", "entries")} fully scored; ${plural(run.cut.cancelledVerdicts, "judge verdict")} cancelled.`
      : `${rows.length} of ${plural(entries ?? validation.items, "entry", "entries")} scored before ${run.status === "cancelled" ? "the run was cancelled" : "the reload"}.`;
    const key = this.pendingResume.needsKey && !this.judge.judge()?.apiKey ? " Enter the judge's key, then resume." : "";
    this.runBar.offerResume(judgeCallsLeft, `${scored}${key}`);
    this.setState("paused");
  }

  /** Resumes the stored run the page offered to resume. */
  resume() {
    const pending = this.pendingResume;
    if (!pending) return;
    if (pending.needsKey && !this.judge.judge()?.apiKey) {
      this.message.textContent = "Enter the judge's key in the LLM judge panel before resuming: this run was started with one.";
      return;
    }
    this.message.textContent = "";
    return this.score({ resume: pending.id });
  }

  drawExports() {
    // The plan's formats for the open dataset (none when it cannot be read), offered once there
    // are results to write: exporting never starts a run of its own.
    const formats = exportFormats(this.current?.formats);
    const ready = Boolean(this.current?.scored || this.current?.stored);
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

document.getElementById("start-hint")?.remove();
const root = document.querySelector("agenteval-app") ?? document.body;
const page = new Page(root);
globalThis.agentevalPage = page;
page.start();
