// The run bar: Score and Cancel, and the progress of a run — done of total, entries per second
// and the time left.

import { h } from "./dom.js";

function seconds(value) {
  if (!Number.isFinite(value)) return "–";
  return value < 60 ? `${value.toFixed(value < 10 ? 1 : 0)} s` : `${Math.floor(value / 60)} min ${Math.round(value % 60)} s`;
}

export class RunBar {
  constructor({ onRun, onCancel }) {
    this.runButton = h("button", { type: "button", id: "run", class: "primary", onclick: onRun }, "Score");
    this.cancelButton = h("button", { type: "button", id: "cancel", disabled: true, onclick: onCancel }, "Cancel");
    this.bar = h("progress", { id: "progress", max: "1", value: "0", "aria-label": "Scoring progress" });
    this.status = h("p", { id: "run-status", class: "run-status", role: "status", "aria-live": "polite" });
    this.element = h("section", { class: "panel run-bar", "aria-label": "Run" }, h("div", { class: "actions" }, this.runButton, this.cancelButton), this.bar, this.status);
  }

  started() {
    this.startedAt = performance.now();
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    this.bar.value = 0;
    this.status.textContent = "Scoring…";
  }

  /** `{done, total}` from the engine. */
  progress({ done, total }) {
    const elapsed = (performance.now() - this.startedAt) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    this.bar.max = Math.max(1, total);
    this.bar.value = done;
    const left = rate > 0 ? (total - done) / rate : Infinity;
    this.status.textContent = `${done} / ${total} entries · ${rate >= 100 ? Math.round(rate) : rate.toFixed(1)} per second · ${done >= total ? "done" : `about ${seconds(left)} left`}`;
  }

  finished(report, entries) {
    this.runButton.disabled = false;
    this.cancelButton.disabled = true;
    this.bar.max = 1;
    this.bar.value = 1;
    const elapsed = (performance.now() - this.startedAt) / 1000;
    const judge = report.judge;
    const calls = judge ? ` · judge: ${judge.calls} calls, ${judge.cache_hits} from the cache` : "";
    const notReached = judge?.not_reached?.length ? ` · ${judge.not_reached.length} entries not reached (cancelled)` : "";
    this.status.textContent = `Scored ${entries} entries in ${seconds(elapsed)}${calls}${notReached}`;
  }

  cancelled(entries) {
    this.ready(`Cancelled after ${entries} entries.`);
  }

  ready(message) {
    this.runButton.disabled = false;
    this.cancelButton.disabled = true;
    this.status.textContent = message;
  }
}
