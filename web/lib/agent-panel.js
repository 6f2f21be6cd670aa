// The agent panel: the agent under test (kind, endpoint, Direct Line secret or token endpoint,
// model, Foundry agent or system prompt where the kind needs one, concurrency), "Test connection",
// and "Run agent": the open dataset's prompts sent to the agent, with progress and Cancel, the
// answered dataset then scored and offered for export in its own format. The settings are saved
// on this device without the key; the key stays in memory unless "remember on this device" is
// ticked, with the judge panel's rules (`key-field.js`). The key goes only into the `secrets` the package's
// `run()` is given, which sends it only to the agent; every text the agent answers is shown as text.

import { h, plural } from "./dom.js";
import { saveText } from "./exports.js";
import { KeyField } from "./key-field.js";

const KINDS = [
  ["directline", "Copilot Studio / Direct Line"],
  ["responses", "OpenAI Responses / Foundry agent"],
  ["a2a", "A2A agent"],
  ["chat", "Chat completions model"],
  ["http", "HTTP JSON endpoint"],
];

/** The name the target gives its secret; `secrets` maps it to the key in memory. */
const SECRET = "AGENT_SECRET";
/** The prompt "Test connection" sends. */
const TEST_PROMPT = "What can you help me with?";

/** Which fields each kind uses, besides the endpoint, the key and the concurrency. */
const FIELDS_OF = {
  directline: ["tokenEndpoint"],
  responses: ["model", "agentName"],
  a2a: [],
  chat: ["model", "system"],
  http: ["replyPointer"],
};

function field(label, input, hint) {
  return h("label", { class: "field" }, label, input, hint ? h("span", { class: "hint" }, hint) : null);
}

function text(id, placeholder) {
  return h("input", { type: "text", id, placeholder, autocomplete: "off", spellcheck: "false" });
}

/** `name.csv` → `name.answered.csv`: the answered dataset keeps its dataset's extension. */
export function answeredName(name) {
  const match = /^(.*?)(\.[^.]+)?$/.exec(name || "dataset");
  return `${match[1] || "dataset"}.answered${match[2] ?? ""}`;
}

/** The media type of a dataset saved under `name`. */
function mediaType(name) {
  if (/\.csv$/i.test(name)) return "text/csv";
  if (/\.(jsonl|ndjson)$/i.test(name)) return "application/jsonl";
  return "application/json";
}

/** The words of a failed agent call: `agentHttpError: 401 …`. */
function describeError(error) {
  return error?.code ? `${error.code}: ${error.message}` : (error?.message ?? String(error));
}

export class AgentPanel {
  /**
   * `store` keeps settings (may be absent); `onTest({target, secrets})` resolves to the reply of
   * one prompt (`{response, error}`); `onRun({target, secrets, concurrency})` runs the open
   * dataset through the agent; `onCancel()` stops it; `onResume()` runs again a run cut by a reload.
   */
  constructor({ store, onTest, onRun, onCancel, onResume }) {
    this.store = store;
    this.onTest = onTest;
    this.key = new KeyField({ id: "agent-key", rememberId: "agent-remember", setting: "agentKey", store: () => this.store });
    this.answered = null;
    this.kind = h("select", { id: "agent-kind" }, KINDS.map(([value, label]) => h("option", { value }, label)));
    this.endpoint = h("input", { type: "url", id: "agent-endpoint", placeholder: "https://directline.botframework.com/v3/directline", autocomplete: "off", spellcheck: "false" });
    this.inputs = {
      tokenEndpoint: text("agent-token-endpoint", "https://…/directline/token"),
      model: text("agent-model", "gpt-4o"),
      agentName: text("agent-name", "hr-agent"),
      system: h("textarea", { id: "agent-system", rows: "2", spellcheck: "false", placeholder: "You are Contoso's HR assistant." }),
      replyPointer: text("agent-reply-pointer", "/reply/text"),
    };
    this.fields = {
      tokenEndpoint: field("Token endpoint (instead of a secret)", this.inputs.tokenEndpoint, "Copilot Studio: GET → {token}"),
      model: field("Model", this.inputs.model),
      agentName: field("Foundry agent name (instead of a model)", this.inputs.agentName),
      system: field("System prompt", this.inputs.system),
      replyPointer: field("JSON pointer to the reply text", this.inputs.replyPointer, "The body sent is {\"prompt\", \"conversation_id\"}"),
    };
    this.concurrency = h("input", { type: "number", id: "agent-concurrency", min: "1", max: "32", value: "4" });
    this.status = h("p", { class: "judge-status", id: "agent-status", role: "status", "aria-live": "polite" });
    this.bar = h("progress", { id: "agent-progress", max: "1", value: "0", "aria-label": "Agent run progress", hidden: true });
    this.demo = h("button", { type: "button", id: "agent-demo", hidden: true, onclick: () => this.useDemo() }, "Use the local demo agent");
    this.runButton = h("button", { type: "button", id: "agent-run", class: "primary", onclick: () => onRun(this.request()) }, "Run agent");
    this.cancelButton = h("button", { type: "button", id: "agent-cancel", disabled: true, onclick: onCancel }, "Cancel");
    this.resumeButton = h("button", { type: "button", id: "agent-resume", class: "primary", hidden: true, onclick: onResume }, "Run agent again");
    this.exportButton = h("button", { type: "button", id: "agent-export", disabled: true, onclick: () => this.exportAnswered() }, "Export the dataset with responses");
    for (const input of [this.kind, this.endpoint, this.concurrency, ...Object.values(this.inputs)]) {
      input.addEventListener("change", () => this.save());
    }
    this.element = h(
      "details",
      { class: "panel agent-panel", id: "agent-panel" },
      h("summary", {}, "Agent ", h("span", { class: "hint", id: "agent-summary" }, "not configured: responses come from the dataset")),
      h("div", { class: "panel-body" },
        field("Kind", this.kind),
        field("Endpoint", this.endpoint, "Direct Line base URL, Responses or chat base URL ending in /v1, A2A or HTTP URL"),
        Object.values(this.fields),
        field("Secret or key", this.key.input, "Kept in memory; sent only to the agent"),
        this.key.rememberLabel(),
        field("Concurrency", this.concurrency),
        h("div", { class: "actions" }, h("button", { type: "button", id: "agent-test", onclick: () => this.test() }, "Test connection"), this.demo),
        h("div", { class: "actions" }, this.resumeButton, this.runButton, this.cancelButton, this.exportButton),
        this.bar,
        this.status,
      ),
    );
    this.showFields();
  }

  /** Restores the saved settings and the remembered key. */
  async restore() {
    const saved = await this.store?.getSetting("agent").catch(() => undefined);
    if (saved) {
      this.kind.value = saved.kind ?? "directline";
      this.endpoint.value = saved.endpoint ?? "";
      for (const [name, input] of Object.entries(this.inputs)) input.value = saved[name] ?? "";
      this.concurrency.value = String(saved.concurrency ?? 4);
    }
    await this.key.restore();
    this.showFields();
    this.describe();
  }

  /** Offers the agent `agenteval view` names in `/serve.json` (the local demo agent under `cargo xtask serve`): `{kind, endpoint, model, label}`. */
  offerDemo(agent) {
    this.demoAgent = agent;
    this.demo.hidden = false;
    this.demo.textContent = `Use the ${agent.label ?? "local demo agent"}`;
  }

  useDemo() {
    const agent = this.demoAgent;
    this.kind.value = agent.kind;
    this.endpoint.value = agent.endpoint;
    if (agent.model) this.inputs.model.value = agent.model;
    this.save();
  }

  settings() {
    const settings = { kind: this.kind.value, endpoint: this.endpoint.value.trim(), concurrency: Number(this.concurrency.value) || 4 };
    for (const [name, input] of Object.entries(this.inputs)) settings[name] = input.value.trim();
    return settings;
  }

  save() {
    this.showFields();
    this.describe();
    this.store?.setSetting("agent", this.settings()).catch(() => {});
  }

  showFields() {
    const used = FIELDS_OF[this.kind.value] ?? [];
    for (const [name, element] of Object.entries(this.fields)) element.hidden = !used.includes(name);
  }

  describe() {
    const { kind, endpoint } = this.settings();
    this.element.querySelector("#agent-summary").textContent = endpoint ? `${kind} at ${endpoint}` : "not configured: responses come from the dataset";
  }

  /** The package's `target` the fields describe (no secret in it: it names `AGENT_SECRET`); undefined without an endpoint. */
  target() {
    const { kind, endpoint, tokenEndpoint, model, agentName, system, replyPointer } = this.settings();
    if (!endpoint) return undefined;
    const key = this.key.value;
    const keyed = key ? { keyEnv: SECRET } : {};
    switch (kind) {
      case "directline":
        return key || !tokenEndpoint ? { kind, endpoint, secretEnv: SECRET } : { kind, endpoint, tokenEndpoint };
      case "responses":
        return agentName ? { kind, endpoint, agent: { name: agentName }, ...keyed } : { kind, endpoint, model, ...keyed };
      case "chat":
        return system ? { kind, endpoint, model, system, ...keyed } : { kind, endpoint, model, ...keyed };
      case "http":
        return {
          kind,
          url: endpoint,
          headers: key ? { Authorization: `Bearer {{env.${SECRET}}}` } : {},
          body: { prompt: "{{prompt}}", conversation_id: "{{conversation_id}}" },
          reply: { text: replyPointer || "/reply/text" },
        };
      default:
        return { kind, endpoint, ...keyed };
    }
  }

  /** What a run needs: `{target, secrets, concurrency}`; the key only in `secrets`. */
  request() {
    const key = this.key.value;
    return { target: this.target(), secrets: key ? { [SECRET]: key } : {}, concurrency: this.settings().concurrency };
  }

  async test() {
    const { target, secrets } = this.request();
    if (!target) {
      this.status.textContent = "Enter the agent's endpoint first.";
      return;
    }
    this.status.textContent = `Testing: sending "${TEST_PROMPT}"…`;
    try {
      const { response, error } = await this.onTest({ target, secrets, prompt: TEST_PROMPT });
      this.status.textContent = error ? `The agent did not answer: ${describeError(error)}` : `Connected: the agent answered: ${response}`;
    } catch (error) {
      this.status.textContent = `Cannot use the agent: ${describeError(error)}`;
    }
  }

  /** A run of `total` prompts started. */
  started(total) {
    this.answered = null;
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    this.resumeButton.hidden = true;
    this.exportButton.disabled = true;
    this.bar.hidden = false;
    this.bar.max = Math.max(1, total ?? 1);
    this.bar.value = 0;
    this.status.textContent = "Sending the prompts to the agent…";
    document.body.dataset.agent = "running";
  }

  /** `{done, total}` from the run. */
  progress({ done, total }) {
    this.bar.max = Math.max(1, total);
    this.bar.value = done;
    this.status.textContent = `Agent: ${done} / ${plural(total, "conversation")} answered`;
  }

  /**
   * The run ended: `report` is the package's run report, `dataset` the answered dataset's text,
   * `name` the name to save it under, `cancelled` whether the user stopped it.
   */
  ended({ report, dataset, name, cancelled }) {
    this.idle();
    this.answered = { dataset, name };
    this.exportButton.disabled = false;
    const failed = report.entries.filter((entry) => entry.error && entry.error.code !== "cancelled");
    const why = failed.length > 0 ? ` First failure: ${describeError(failed[0].error)}.` : "";
    const counts = `${report.answered} answered, ${plural(failed.length, "error")}`;
    this.status.textContent = cancelled ? `Agent run cancelled: ${counts}; the rest not sent.${why}` : `Agent run done: ${counts}; scoring the answered dataset.${why}`;
    document.body.dataset.agent = cancelled ? "cancelled" : "done";
  }

  /** The run failed as a whole (a bad target, no dataset). */
  failed(error) {
    this.idle();
    this.status.textContent = `Agent run failed: ${describeError(error)}`;
    document.body.dataset.agent = "failed";
  }

  /** A run cut by a reload: `{name, total, done}`; offered again, never run by itself. */
  offerAgain({ name, total, done }) {
    this.idle();
    this.element.open = true;
    this.resumeButton.hidden = false;
    const known = Number.isFinite(total) && total > 0;
    this.resumeButton.textContent = known ? `Run agent again: ${plural(total, "conversation")}` : "Run agent again";
    const after = known ? ` after ${done} of ${plural(total, "conversation")}` : "";
    this.status.textContent = `The agent run on ${name} was cut by a reload${after}; the answers it had were not kept. Nothing is sent until you run it again.${this.key.value ? "" : " Enter the key first if the agent needs one."}`;
    document.body.dataset.agent = "offered";
  }

  idle() {
    this.runButton.disabled = false;
    this.cancelButton.disabled = true;
    this.resumeButton.hidden = true;
  }

  exportAnswered() {
    if (!this.answered) return;
    const { dataset, name } = this.answered;
    saveText(name, dataset, mediaType(name));
  }
}
