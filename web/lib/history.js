// Earlier runs kept on this device, and comparing the current results with one of them or with a
// scored file (a scored M365 document, a run report, or runevals results).

import { h, replace } from "./dom.js";

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export class HistoryPanel {
  /** `onCompare(rows | null, name)`; `readFile(bytes)` and `loadRun(id)` resolve to compact rows. */
  constructor({ onCompare, readFile, loadRun }) {
    this.onCompare = onCompare;
    this.readFile = readFile;
    this.loadRun = loadRun;
    this.store = undefined;
    this.current = null;
    this.runs = h("select", { id: "compare-run" });
    this.status = h("p", { class: "hint", id: "compare-status", role: "status" });
    const file = h("input", { type: "file", id: "compare-file", accept: ".json,.jsonl,application/json" });
    file.addEventListener("change", async () => {
      const chosen = file.files[0];
      file.value = "";
      if (!chosen) return;
      try {
        const rows = await this.readFile(await chosen.arrayBuffer());
        this.onCompare(rows, chosen.name);
        this.status.textContent = "";
      } catch (error) {
        this.status.textContent = `${chosen.name}: ${error.message}`;
      }
    });
    this.element = h(
      "section",
      { class: "panel history", id: "history", "aria-labelledby": "history-title" },
      h("h2", { id: "history-title" }, "Compare runs"),
      h(
        "div",
        { class: "inline-form" },
        h("label", { class: "field field-wide" }, "An earlier run on this device", this.runs),
        h("button", { type: "button", id: "compare-run-button", onclick: () => this.compareRun() }, "Compare"),
      ),
      h("label", { class: "field" }, "Or a scored file (document, run report, runevals results)", file),
      this.status,
    );
  }

  /** Lists the stored runs other than `current`. */
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
    if (!id) return;
    try {
      const rows = await this.loadRun(id);
      this.onCompare(rows, this.runs.selectedOptions[0]?.textContent ?? id);
      this.status.textContent = "";
    } catch (error) {
      this.status.textContent = error.message;
    }
  }
}
