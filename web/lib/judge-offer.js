// The judge one click away, above the results: after a run without a judge whose dataset has
// judged evaluators, "judged evaluators skipped — use the local demo judge" with a button, when
// the page is served with one (`agenteval view --judge-endpoint`, `cargo xtask serve`); and once
// a judge is turned on after such a run, an offer to score again with it. It only offers: the
// page runs nothing until the button is pressed.

import { h, plural } from "./dom.js";

export class JudgeOffer {
  /** `onUseDemo()` turns the demo judge on and scores again; `onScore()` scores again. */
  constructor({ onUseDemo, onScore }) {
    this.text = h("span", { class: "judge-offer-text" });
    this.useDemo = h("button", { type: "button", id: "judge-offer-demo", class: "primary", onclick: onUseDemo }, "Use the local demo judge");
    this.scoreAgain = h("button", { type: "button", id: "judge-offer-score", class: "primary", onclick: onScore }, "Score again with the judge");
    this.element = h("p", { class: "judge-offer", id: "judge-offer", role: "status", hidden: true }, this.text, " ", this.useDemo, this.scoreAgain);
    this.demo = undefined;
    this.skipped = 0;
  }

  /** The page is served with a demo judge (its label from `serve.json`). */
  offerDemo(label) {
    this.demo = label ?? "local demo judge";
    this.useDemo.textContent = `Use the ${this.demo}`;
    if (this.state === "skipped") this.draw();
  }

  /** A run began: nothing is offered while it goes. */
  clear() {
    this.state = undefined;
    this.draw();
  }

  /** A run without a judge ended; `judgeCalls` is how many calls its judged evaluators would make. */
  ranWithoutJudge(judgeCalls) {
    this.skipped = judgeCalls ?? 0;
    this.state = this.skipped > 0 ? "skipped" : undefined;
    this.draw();
  }

  /** A judge was turned on (`on`) or off after a run without one. */
  judgeTurned(on) {
    if (this.state === undefined && !(on && this.skipped > 0)) return;
    this.state = on ? "judge-on" : this.skipped > 0 ? "skipped" : undefined;
    this.draw();
  }

  draw() {
    const skipped = this.state === "skipped" && this.demo !== undefined;
    const judgeOn = this.state === "judge-on";
    this.element.hidden = !skipped && !judgeOn;
    this.useDemo.hidden = !skipped;
    this.scoreAgain.hidden = !judgeOn;
    if (skipped) this.text.textContent = `Judged evaluators skipped (${plural(this.skipped, "judge call")} not made) — use the ${this.demo}:`;
    else if (judgeOn) this.text.textContent = `A judge is on: score again to give the judged evaluators their verdicts (${plural(this.skipped, "judge call")}).`;
  }
}
