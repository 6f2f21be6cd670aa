// The open dataset in one line above the results — its name, dialect and entries (the page's
// title text) and "Change" — while the loader is folded away, so the results take the whole
// width. "Change" unfolds the loader (file, config, URL, paste) until the next dataset opens.

import { h } from "./dom.js";

export class DatasetLine {
  /** `loader` is the loader's element, folded away while a dataset is open. */
  constructor({ loader, title }) {
    this.loader = loader;
    this.title = title;
    this.change = h(
      "button",
      { type: "button", id: "dataset-change", class: "change", hidden: true, "aria-expanded": "true", "aria-controls": loader.id || null, onclick: () => this.toggle() },
      "Change",
    );
    this.element = h("div", { class: "dataset-line" }, title, this.change);
  }

  /** A dataset is open: the loader folds away behind "Change". */
  fold() {
    this.loader.hidden = true;
    this.change.hidden = false;
    this.change.textContent = "Change";
    this.change.setAttribute("aria-expanded", "false");
  }

  /** No dataset is open: the loader shows, and there is nothing to keep. */
  clear() {
    this.loader.hidden = false;
    this.change.hidden = true;
  }

  /** The user asked to change the dataset: the loader shows until one opens or they keep this one. */
  unfold() {
    this.loader.hidden = false;
    this.change.textContent = "Keep this dataset";
    this.change.setAttribute("aria-expanded", "true");
  }

  toggle() {
    if (this.loader.hidden) {
      this.unfold();
      this.loader.querySelector("input, button, textarea")?.focus();
    } else {
      this.fold();
    }
  }

  /** Whether the loader is folded away. */
  get folded() {
    return this.loader.hidden;
  }
}
