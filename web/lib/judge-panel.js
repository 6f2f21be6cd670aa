// The judge panel: the endpoint the LLM-judged evaluators are sent to (kind, endpoint,
// deployment or model, api-version, embeddings model, key, reasoning model, concurrency) and "test connection". The settings are
// saved on this device without the key; the key stays in memory unless "remember on this device"
// is ticked. The key goes only into the judge options given to the engine, which sends it only to
// the endpoint; it is never shown in results, exports, the URL or logs.

import { h } from "./dom.js";
import { explain } from "./judge-check.js";
import { KeyField } from "./key-field.js";

const KINDS = [
  ["azure", "Azure OpenAI (deployment)"],
  ["azure-v1", "Azure OpenAI /openai/v1"],
  ["openai", "OpenAI-compatible (/v1)"],
];

function field(label, input, hint) {
  return h("label", { class: "field" }, label, input, hint ? h("span", { class: "hint" }, hint) : null);
}

export class JudgePanel {
  /**
   * `store` keeps settings (may be absent); `onTest(judge)` resolves to a result or rejects;
   * `onReach(endpoint)` resolves to whether the endpoint can be reached (`judge-check.js`);
   * `onChange()`, when given, hears of every change of the settings.
   */
  constructor({ store, onTest, onReach, onChange }) {
    this.store = store;
    this.onTest = onTest;
    this.onReach = onReach;
    this.onChange = onChange;
    this.key = new KeyField({ id: "judge-key", rememberId: "judge-remember", setting: "judgeKey", store: () => this.store });
    this.enabled = h("input", { type: "checkbox", id: "judge-enabled" });
    this.kind = h("select", { id: "judge-kind" }, KINDS.map(([value, text]) => h("option", { value }, text)));
    this.endpoint = h("input", { type: "url", id: "judge-endpoint", placeholder: "https://my-resource.openai.azure.com", autocomplete: "off", spellcheck: "false" });
    this.model = h("input", { type: "text", id: "judge-model", placeholder: "gpt-4o", autocomplete: "off", spellcheck: "false" });
    this.apiVersion = h("input", { type: "text", id: "judge-api-version", placeholder: "2024-10-21", autocomplete: "off" });
    this.embeddingModel = h("input", { type: "text", id: "judge-embedding-model", placeholder: "text-embedding-3-small", autocomplete: "off", spellcheck: "false" });
    this.concurrency = h("input", { type: "number", id: "judge-concurrency", min: "1", max: "64", value: "8" });
    this.reasoning = h("input", { type: "checkbox", id: "judge-reasoning" });
    this.status = h("p", { class: "judge-status", id: "judge-status", role: "status" });
    this.demo = h("button", { type: "button", id: "judge-demo", hidden: true, onclick: () => this.useDemo() }, "Use the local demo judge");
    for (const input of [this.enabled, this.kind, this.endpoint, this.model, this.apiVersion, this.embeddingModel, this.concurrency, this.reasoning]) {
      input.addEventListener("change", () => this.save());
    }
    this.element = h(
      "details",
      { class: "panel judge-panel", id: "judge-panel" },
      h("summary", {}, "LLM judge ", h("span", { class: "hint", id: "judge-summary" }, "not configured: judged evaluators are skipped")),
      h("div", { class: "panel-body" },
        h("label", { class: "field field-check" }, this.enabled, "Send the judged evaluators to this endpoint"),
        field("Kind", this.kind),
        field("Endpoint", this.endpoint, "Azure: https://<resource>.openai.azure.com · OpenAI-compatible: base URL ending in /v1"),
        field("Deployment or model", this.model),
        field("API version (Azure)", this.apiVersion),
        field("Embeddings deployment or model", this.embeddingModel, "For Copilot Studio's TextSimilarity (optional)"),
        field("API key", this.key.input, "Kept in memory; sent only to the endpoint"),
        this.key.rememberLabel(),
        h("label", { class: "field field-check" }, this.reasoning, "Reasoning model (o1, o3, gpt-5…): max_completion_tokens, no temperature"),
        field("Concurrency", this.concurrency),
        h("div", { class: "actions" }, h("button", { type: "button", id: "judge-test", onclick: () => this.test() }, "Test connection"), this.demo),
        this.status,
      ),
    );
  }

  /** Restores the saved settings and the remembered key. */
  async restore() {
    const saved = await this.store?.getSetting("judge").catch(() => undefined);
    if (saved) {
      this.enabled.checked = Boolean(saved.enabled);
      this.kind.value = saved.kind ?? "azure";
      this.endpoint.value = saved.endpoint ?? "";
      this.model.value = saved.model ?? "";
      this.apiVersion.value = saved.apiVersion ?? "";
      this.embeddingModel.value = saved.embeddingModel ?? "";
      this.concurrency.value = String(saved.concurrency ?? 8);
      this.reasoning.checked = Boolean(saved.reasoning);
    }
    await this.key.restore();
    this.describe();
  }

  /** Offers the judge `agenteval view` names in `/serve.json` (the local demo judge under `cargo xtask serve`). */
  offerDemo(judge) {
    this.demoJudge = judge;
    this.demo.hidden = false;
    this.demo.textContent = `Use the ${judge.label ?? "local demo judge"}`;
  }

  useDemo() {
    const judge = this.demoJudge;
    this.enabled.checked = true;
    this.kind.value = judge.kind;
    this.endpoint.value = judge.endpoint;
    this.model.value = judge.model;
    this.apiVersion.value = "";
    this.save();
  }

  settings() {
    return {
      enabled: this.enabled.checked,
      kind: this.kind.value,
      endpoint: this.endpoint.value.trim(),
      model: this.model.value.trim(),
      apiVersion: this.apiVersion.value.trim(),
      embeddingModel: this.embeddingModel.value.trim(),
      concurrency: Number(this.concurrency.value) || 8,
      reasoning: this.reasoning.checked,
    };
  }

  save() {
    this.describe();
    this.store?.setSetting("judge", this.settings()).catch(() => {});
    this.onChange?.();
  }

  describe() {
    const { enabled, endpoint, model } = this.settings();
    this.element.querySelector("#judge-summary").textContent =
      enabled && endpoint ? `${model || "(no model)"} at ${endpoint}` : "not configured: judged evaluators are skipped";
  }

  /** The package's `judge` option, or undefined when no judge is configured. */
  judge() {
    return this.enabled.checked ? this.configured() : undefined;
  }

  /** The judge the fields describe, switched on or not; undefined without an endpoint. */
  configured() {
    const { kind, endpoint, model, apiVersion, embeddingModel, concurrency, reasoning } = this.settings();
    if (!endpoint) return undefined;
    const judge = { kind, endpoint, model, concurrency };
    if (reasoning) judge.reasoning = true;
    if (apiVersion) judge.apiVersion = apiVersion;
    if (embeddingModel) judge.embeddingModel = embeddingModel;
    if (this.key.value) judge.apiKey = this.key.value;
    return judge;
  }

  /** The settings without the key, to store with a run. */
  describeForRun() {
    const judge = this.judge();
    if (!judge) return null;
    const { apiKey, ...rest } = judge;
    return { ...rest, hasKey: apiKey !== undefined };
  }

  async test() {
    const judge = this.configured();
    if (!judge) {
      this.status.textContent = "Enter an endpoint first.";
      return;
    }
    this.status.textContent = "Testing…";
    const problem = explain(await this.onReach(judge.endpoint));
    if (problem) {
      this.status.textContent = `Cannot reach the judge: ${problem}.`;
      return;
    }
    try {
      const result = await this.onTest(judge);
      this.status.textContent =
        result.result === "pass" || result.result === "fail"
          ? `Connected: the judge answered (Relevance ${result.score} on a test item).`
          : `The judge did not give a verdict: ${result.error?.code ?? result.result}: ${result.error?.message ?? result.reason ?? ""}`;
    } catch (error) {
      this.status.textContent = `Cannot use the judge: ${error.message}`;
    }
  }
}
