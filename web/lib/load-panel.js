// Loading a dataset: the file picker, dropping a file anywhere on the page, pasting text, or a
// URL; and the optional Foundry evaluation config (chosen before or after the dataset, shown by
// name, removable). Hands the bytes to the page; reads files asynchronously, so a 100 MB file
// never blocks the tab.

import { h } from "./dom.js";

const NO_CONFIG = "no config (criteria from the rows, if any)";

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
      config.value = "";
      if (!chosen) return;
      try {
        this.setConfig(await chosen.text(), chosen.name);
      } catch (error) {
        this.onError(`${chosen.name}: cannot read the file: ${error.message}`);
      }
    });
    this.configLabel = h("span", { class: "hint", id: "config-name" }, NO_CONFIG);
    this.configClear = h(
      "button",
      { type: "button", id: "config-clear", class: "clear", hidden: true, "aria-label": "Remove the config", title: "Remove the config", onclick: () => this.setConfig(undefined) },
      "×",
    );
    const url = h("input", { type: "url", id: "dataset-url", placeholder: "https://…/dataset.json", spellcheck: "false" });
    const paste = h("textarea", { id: "dataset-paste", "aria-label": "Dataset text", rows: "6", spellcheck: "false", placeholder: "Paste an eval document, JSON Lines rows or CSV" });
    this.dropHint = h("div", { class: "drop-hint", id: "drop-hint", hidden: true }, "Drop the dataset to score it");
    this.element = h(
      "section",
      { class: "panel load-panel", id: "load-panel", "aria-labelledby": "load-title" },
      h("h2", { id: "load-title" }, "Dataset"),
      h(
        "div",
        { class: "panel-body" },
        h("label", { class: "field" }, "Open a file (or drop it anywhere on the page)", file),
        h(
          "div",
          { class: "field" },
          h("label", { for: "config-file" }, "Foundry evaluation config (optional; before or after the dataset, applied when you press Score)"),
          config,
          h("span", { class: "config-chosen" }, this.configLabel, this.configClear),
        ),
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

  /** Chooses the config (`text` named `name`), or none with `undefined`, and tells the page. */
  setConfig(text, name) {
    this.configLabel.textContent = text === undefined ? NO_CONFIG : `config: ${name}`;
    this.configClear.hidden = text === undefined;
    this.onConfig(text, name);
  }

  /** Loads the config at `text` (a URL, as `?config=` gives it). Resolves once it is chosen. */
  async configFromUrl(text) {
    const fetched = await this.fetchUrl(text, "config");
    if (fetched) this.setConfig(new TextDecoder().decode(fetched.bytes), fetched.name);
    return Boolean(fetched);
  }

  async fromFile(file) {
    try {
      this.onBytes(await file.arrayBuffer(), file.name);
    } catch (error) {
      this.onError(`${file.name}: cannot read the file: ${error.message}`);
    }
  }

  async fromUrl(text) {
    const fetched = await this.fetchUrl(text, "dataset");
    if (fetched) this.onBytes(fetched.bytes, fetched.name);
  }

  /** `{bytes, name}` of the file at URL `text` (`what` names it in errors), or null after telling the page why not. */
  async fetchUrl(text, what) {
    let url;
    try {
      url = new URL(text, location.href);
      if (!["http:", "https:"].includes(url.protocol)) throw new Error("only http(s) URLs can be loaded");
    } catch (error) {
      this.onError(`${text}: not a ${what} URL: ${error.message}`);
      return null;
    }
    try {
      const response = await fetch(url, { credentials: "omit", referrerPolicy: "no-referrer" });
      if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`);
      const name = decodeURIComponent(url.pathname.split("/").pop() || url.host);
      return { bytes: await response.arrayBuffer(), name };
    } catch (error) {
      this.onError(`${url.href}: cannot load the ${what}: ${error.message}`);
      return null;
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
