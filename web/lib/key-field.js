// A secret's input and its "Remember the key on this device" box, shared by the judge and agent
// panels: the key stays in memory unless the box is ticked; ticked, it is saved in the store under
// its own setting (and removed again when unticked), so a reload restores it.

import { h } from "./dom.js";

export class KeyField {
  /**
   * `id` names the input, `rememberId` the box, `setting` the store setting the remembered key
   * is kept under; `store()` gives the store (may be absent).
   */
  constructor({ id, rememberId, setting, store }) {
    this.setting = setting;
    this.store = store;
    this.value = "";
    this.input = h("input", { type: "password", id, autocomplete: "off", spellcheck: "false" });
    this.remember = h("input", { type: "checkbox", id: rememberId });
    this.input.addEventListener("input", () => {
      this.value = this.input.value;
      if (this.remember.checked) this.save();
    });
    this.remember.addEventListener("change", () => this.save());
  }

  /** The "remember" box with its label. */
  rememberLabel() {
    return h("label", { class: "field field-check" }, this.remember, "Remember the key on this device");
  }

  /** Restores the remembered key, if any. */
  async restore() {
    const key = await this.store()?.getSetting(this.setting).catch(() => undefined);
    if (typeof key !== "string") return;
    this.value = key;
    this.input.value = key;
    this.remember.checked = true;
  }

  save() {
    this.store()?.setSetting(this.setting, this.remember.checked ? this.value : undefined).catch(() => {});
  }
}
