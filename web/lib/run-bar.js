// The run bar: Score, Cancel and Resume, and the progress of a run — done of the plan's total,
// entries per second and the time left — then how it ended.

import { h, plural } from "./dom.js";

function seconds(value) {
  if (!Number.isFinite(value)) return "–";
  return value < 60 ? `${value.toFixed(value < 10 ? 1 : 0)} s` : `${Math.floor(value / 60)} min ${Math.round(value % 60)} s`;
}

export class RunBar {
  /** `onRun()` scores the open dataset, `onCancel()` stops the run, `onResume()` resumes a stored run. */
  constructor({ onRun, onCancel, onResume }) {
    this.runButton = h("button", { type: "button", id: "run", class: "primary", onclick: onRun }, "Score");
    this.cancelButton = h("button", { type: "button", id: "cancel", disabled: true, onclick: onCancel }, "Cancel");
    this.resumeButton = h("button", { type: "button", id: "resume", class: "primary", hidden: true, onclick: onResume }, "Resume");
    this.bar = h("progress", { id: "progress", max: "1", value: "0", "aria-label": "Scoring progress" });
    this.status = h("p", { id: "run-status", class: "run-status", role: "status", "aria-live": "polite" });
    this.element = h(
      "section",
      { class: "panel run-bar", "aria-label": "Run" },
      h("div", { class: "actions" }, this.resumeButton, this.runButton, this.cancelButton),
      this.bar,
      this.status,
    );
  }

  /** A run starts; `total` is the plan's count of entries (fixed for the whole run), when known. */
  started(total) {
    this.startedAt = performance.now();
    this.total = Number.isFinite(total) && total > 0 ? total : null;
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    this.resumeButton.hidden = true;
    this.bar.max = this.total ?? 1;
    this.bar.value = 0;
    this.status.textContent = "Scoring…";
  }

  /** `{done, total}` from the engine; the plan's total wins over the engine's running estimate. */
  progress({ done, total: estimate }) {
    const total = Math.max(this.total ?? estimate, done);
    const elapsed = (performance.now() - this.startedAt) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    this.bar.max = Math.max(1, total);
    this.bar.value = done;
    const left = rate > 0 ? (total - done) / rate : Infinity;
    this.status.textContent = `${done} / ${plural(total, "entry", "entries")} · ${rate >= 100 ? Math.round(rate) : rate.toFixed(1)} per second · ${done >= total ? "finishing" : `about ${seconds(left)} left`}`;
  }

  /** The run ended and is stored. */
  finished(report, entries) {
    this.idle();
    this.bar.max = 1;
    this.bar.value = 1;
    const elapsed = (performance.now() - this.startedAt) / 1000;
    const judge = report.judge;
    const calls = judge ? ` · judge: ${plural(judge.calls, "call")}, ${judge.cache_hits} from the cache` : "";
    this.status.textContent = `Done: scored ${plural(entries, "entry", "entries")} in ${seconds(elapsed)}${calls}`;
  }

  /**
   * The run was cancelled: `{entries, fullyScored, cancelledVerdicts}` for a judged run (its
   * unanswered verdicts skipped), or only the entries scored before it stopped.
   */
  cancelled({ entries, fullyScored, cancelledVerdicts, scored }) {
    if (fullyScored !== undefined) {
      this.ready(`Cancelled: ${fullyScored} of ${plural(entries, "entry", "entries")} fully scored; ${plural(cancelledVerdicts, "judge verdict")} cancelled (counted as skipped).`);
    } else {
      this.ready(`Cancelled: ${scored} of ${plural(entries, "entry", "entries")} scored.`);
    }
  }

  /** Offers to resume a stored run that was cut short, with what it would send. */
  offerResume(judgeCallsLeft, message) {
    this.ready(message);
    this.resumeButton.hidden = false;
    this.resumeButton.textContent = `Resume (${plural(judgeCallsLeft, "judge call")} left)`;
  }

  ready(message) {
    this.idle();
    this.status.textContent = message;
  }

  /** No run: Score can be pressed, Cancel cannot. */
  idle() {
    this.runButton.disabled = false;
    this.cancelButton.disabled = true;
    this.resumeButton.hidden = true;
  }

  /** Nothing to score (no dataset, or one that cannot be read). */
  unavailable(message) {
    this.ready(message);
    this.runButton.disabled = true;
  }
}
