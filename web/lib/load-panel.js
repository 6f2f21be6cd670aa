// Loading a dataset: the file picker, dropping a file anywhere on the page, pasting text, or a
// URL; and the optional Foundry evaluation config. Hands the bytes to the page; reads files
// asynchronously, so a 100 MB file never blocks the tab.

import { h } from "./dom.js";

export class LoadPanel {
  /** `onBytes(arrayBuffer, name)`, `onConfig(text, name)`, `onError(message)`. */
  constructor({ onBytes, onConfig, onError }) {
    this.onBytes = onBytes;
    this.onConfig = onConfig;
    this.onError = onError;
    const file = h("input", { type: "file", id: "dataset-file", accept: ".json,.jsonl,.ndjson,.csv,.txt,application/json" });
    file.addEventListener("change", () => {
      if (file.files[0]) this.fromFile(file.files[0]);
      file.value = "";
    });
    const config = h("input", { type: "file", id: "config-file", accept: ".json,application/json" });
    config.addEventListener("change", async () => {
      const chosen = config.files[0];
      if (!chosen) return;
      this.configLabel.textContent = `config: ${chosen.name}`;
      this.onConfig(await chosen.text(), chosen.name);
    });
    this.configLabel = h("span", { class: "hint", id: "config-name" }, "no config (criteria from the rows, if any)");
    const url = h("input", { type: "url", id: "dataset-url", placeholder: "https://…/dataset.json", spellcheck: "false" });
    const paste = h("textarea", { id: "dataset-paste", "aria-label": "Dataset text", rows: "6", spellcheck: "false", placeholder: "Paste an eval document, JSON Lines rows or CSV" });
    this.dropHint = h("div", { class: "drop-hint", id: "drop-hint", hidden: true }, "Drop the dataset to score it");
    this.element = h(
      "section",
      { class: "panel load-panel", "aria-labelledby": "load-title" },
      h("h2", { id: "load-title" }, "Dataset"),
      h(
        "div",
        { class: "panel-body" },
        h("label", { class: "field" }, "Open a file (or drop it anywhere on the page)", file),
        h("label", { class: "field" }, "Foundry evaluation config (optional)", config, this.configLabel),
        h(
          "form",
          {
            class: "inline-form",
            onsubmit: (event) => {
              event.preventDefault();
              if (url.value.trim()) this.fromUrl(url.value.trim());
            },
          },
          h("label", { class: "field field-wide" }, "Or a URL", url),
          h("button", { type: "submit", id: "dataset-url-load" }, "Load"),
        ),
        h(
          "details",
          {},
          h("summary", {}, "Or paste the text"),
          paste,
          h(
            "button",
            {
              type: "button",
              id: "dataset-paste-score",
              onclick: () => {
                if (paste.value.trim()) this.onBytes(new TextEncoder().encode(paste.value).buffer, "pasted text");
              },
            },
            "Score the pasted text",
          ),
        ),
      ),
      this.dropHint,
    );
    this.listenForDrops();
  }

  async fromFile(file) {
    try {
      this.onBytes(await file.arrayBuffer(), file.name);
    } catch (error) {
      this.onError(`${file.name}: cannot read the file: ${error.message}`);
    }
  }

  async fromUrl(text) {
    let url;
    try {
      url = new URL(text, location.href);
      if (!["http:", "https:"].includes(url.protocol)) throw new Error("only http(s) URLs can be loaded");
    } catch (error) {
      return this.onError(`${text}: not a dataset URL: ${error.message}`);
    }
    try {
      const response = await fetch(url, { credentials: "omit", referrerPolicy: "no-referrer" });
      if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`);
      const name = decodeURIComponent(url.pathname.split("/").pop() || url.host);
      this.onBytes(await response.arrayBuffer(), name);
    } catch (error) {
      this.onError(`${url.href}: cannot load it: ${error.message}`);
    }
  }

  listenForDrops() {
    let depth = 0;
    document.addEventListener("dragenter", (event) => {
      if (!event.dataTransfer?.types?.includes("Files")) return;
      depth += 1;
      this.dropHint.hidden = false;
    });
    document.addEventListener("dragleave", () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) this.dropHint.hidden = true;
    });
    document.addEventListener("dragover", (event) => event.preventDefault());
    document.addEventListener("drop", (event) => {
      event.preventDefault();
      depth = 0;
      this.dropHint.hidden = true;
      const file = event.dataTransfer?.files?.[0];
      if (file) this.fromFile(file);
    });
  }
}
