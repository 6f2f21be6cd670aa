// The judge calls behind a judged verdict, on request ("Show request" in the item view): per call
// the URL, the chat messages as the judge read them, the exact request body and the raw answer,
// as the run kept them (`judge_exchanges` of the result). The key is never among them: it travels
// in a header, which the run does not keep. Every part is shown as text.

import { h } from "./dom.js";

function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The messages of a chat request body, as `role: content` blocks; nothing for another body. */
function messages(body) {
  const list = parsed(body)?.messages;
  if (!Array.isArray(list)) return null;
  return h(
    "div",
    { class: "exchange-messages" },
    list.map((message) =>
      h("div", { class: "exchange-message" }, h("div", { class: "exchange-role" }, String(message?.role ?? "")), h("pre", { class: "item-text" }, String(message?.content ?? ""))),
    ),
  );
}

function exchange({ url, request, answer, cached }, at, count) {
  return h(
    "div",
    { class: "exchange" },
    h("p", { class: "exchange-url" }, `${count > 1 ? `Call ${at + 1} of ${count}: ` : ""}POST ${url}`, cached ? " (answer from the judge cache)" : ""),
    messages(request),
    h("details", {}, h("summary", {}, "Exact request body"), h("pre", { class: "item-text exchange-request" }, request)),
    h("h4", {}, "Raw answer"),
    answer === null || answer === undefined
      ? h("p", { class: "hint" }, "No answer: the call failed or the run was cancelled before it answered.")
      : h("pre", { class: "item-text exchange-answer" }, answer),
  );
}

/**
 * A "Show request" toggle for `exchanges` (a result's `judge_exchanges`), or null when the result
 * made no judge call the run kept.
 */
export function exchangeToggle(exchanges) {
  if (!Array.isArray(exchanges) || exchanges.length === 0) return null;
  const body = h("div", { class: "exchanges", hidden: true }, exchanges.map((entry, at) => exchange(entry, at, exchanges.length)));
  const button = h("button", { type: "button", class: "link show-request", "aria-expanded": "false" }, "Show request");
  button.addEventListener("click", () => {
    body.hidden = !body.hidden;
    button.setAttribute("aria-expanded", String(!body.hidden));
    button.textContent = body.hidden ? "Show request" : "Hide request";
  });
  return h("div", { class: "exchange-toggle" }, button, body);
}
