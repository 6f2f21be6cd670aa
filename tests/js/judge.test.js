// LLM judges through the package: the core's scheduler over `fetch` against the local judge
// server (`cargo xtask test` starts it and passes its URL and key in AGENTEVAL_JUDGE_URL and
// AGENTEVAL_JUDGE_KEY), in Node and in headless Chromium (a page and a Web Worker, across
// origins, with the IndexedDB cache).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";

import * as agenteval from "agenteval";
import { localJudge, packagePage } from "./helpers.js";

const { url, key } = localJudge();

const judge = (extra = {}) => ({ kind: "azure", endpoint: url, model: "gpt-4o-judge", apiKey: key, backoffMs: 5, ...extra });

function item(response, prompt = "What is the capital of France?") {
  return { prompt, response, expected_response: "Paris", context: "Paris is the capital of France." };
}

function dataset(items, evaluators = { Relevance: {}, Coherence: {} }) {
  return { schemaVersion: "1.11.0", default_evaluators: evaluators, items };
}

function result(report, index, evaluator) {
  const found = report.items[index].results.find((entry) => entry.evaluator === evaluator);
  assert.ok(found, `no ${evaluator} result for item ${index}`);
  return found;
}

async function stats() {
  return (await fetch(`${url}/stats`)).json();
}

test("node: judged evaluators get verdicts on their scale, with usage and the run's figures", async () => {
  const report = await agenteval.score(dataset([item("Paris is the capital."), item("Lyon.")]), { judge: judge() });
  for (const index of [0, 1]) {
    for (const name of ["Relevance", "Coherence"]) {
      const entry = result(report, index, name);
      assert.ok(entry.score >= 1 && entry.score <= 5, JSON.stringify(entry));
      assert.equal(entry.result, entry.score >= 3 ? "pass" : "fail");
      assert.equal(entry.threshold, 3);
      assert.match(entry.reason, /^local judge/);
      assert.equal(entry.details.prompt_version, `${name.toLowerCase()}/v1`);
      assert.ok(entry.usage.total_tokens > 0);
    }
  }
  assert.equal(report.judge.endpoint, "azure");
  assert.equal(report.judge.calls, 4);
  assert.equal(report.judge.cancelled, false);
  assert.ok(report.summary.evaluators.Relevance.usage.total_tokens > 0);
  assert.ok(!JSON.stringify(report).includes(key), "the key leaked into the report");
});

test("node: judge faults end in their outcomes; transient ones are retried", async () => {
  const cases = [
    ["[[judge:score=4]]", "pass", undefined],
    ["[[judge:score=2]]", "fail", undefined],
    ["[[judge:score=7]]", "error", "judgeOutputUnparseable"],
    ["[[judge:fault=malformed]]", "error", "judgeOutputUnparseable"],
    ["[[judge:fault=refusal]]", "error", "judgeOutputUnparseable"],
    ["[[judge:skip]]", "skipped", undefined],
    ["[[judge:fault=500*2]]", "scored", undefined],
    ["[[judge:fault=429*2]]", "scored", undefined],
    ["[[judge:fault=truncated*1]]", "scored", undefined],
    ["[[judge:fault=401]]", "error", "judgeAuthenticationError"],
    ["[[judge:fault=503]]", "error", "evaluatorError"],
    ["[[judge:fault=hang]]", "error", "judgeTimeout"],
  ];
  const report = await agenteval.score(
    dataset(cases.map(([directive]) => item(`Paris. ${directive}`)), { Relevance: {} }),
    { judge: judge({ retries: 2, timeoutMs: 500, concurrency: 4 }) },
  );
  cases.forEach(([directive, expected, code], index) => {
    const entry = result(report, index, "Relevance");
    if (expected === "scored") assert.ok(["pass", "fail"].includes(entry.result), directive);
    else assert.equal(entry.result, expected, directive);
    assert.equal(entry.error?.code, code, directive);
    if (entry.result === "error") assert.equal(entry.score, null, `${directive}: a failure became a score`);
  });
  assert.ok(report.judge.retries >= 6, JSON.stringify(report.judge));
  assert.ok(report.judge.rate_limited >= 2);
});

test("node: getToken supplies a bearer token per request; a wrong one is an authentication error", async () => {
  let calls = 0;
  const tokenJudge = judge({ apiKey: undefined, getToken: async () => { calls += 1; return key; } });
  const ok = await agenteval.score(dataset([item("Paris.")], { Relevance: {} }), { judge: tokenJudge });
  assert.ok(["pass", "fail"].includes(result(ok, 0, "Relevance").result));
  assert.equal(calls, 1);
  const wrong = await agenteval.score(dataset([item("Paris.")], { Relevance: {} }), {
    judge: judge({ apiKey: undefined, getToken: () => "wrong-token" }),
  });
  assert.equal(result(wrong, 0, "Relevance").error.code, "judgeAuthenticationError");
  const failing = await agenteval.score(dataset([item("Paris.")], { Relevance: {} }), {
    judge: judge({ apiKey: undefined, getToken: () => Promise.reject(new Error("no session")) }),
  });
  const entry = result(failing, 0, "Relevance");
  assert.equal(entry.error.code, "judgeAuthenticationError");
  assert.match(entry.error.message, /no session/);
});

test("node: concurrency bounds the requests in flight", async () => {
  await fetch(`${url}/reset`, { method: "POST", headers: { "api-key": key } });
  // Hung requests of earlier tests (the client gave up on them) stay in flight on the server.
  const lingering = (await stats()).in_flight;
  const items = Array.from({ length: 24 }, (_, index) => item(`Paris ${index}. [[judge:score=3]]`));
  const report = await agenteval.score(dataset(items, { Relevance: {} }), { judge: judge({ concurrency: 3 }) });
  assert.equal(report.items.length, 24);
  const seen = await stats();
  assert.ok(seen.max_in_flight <= lingering + 3, JSON.stringify({ lingering, seen }));
  assert.ok(report.judge.peak_in_flight <= 3);
  assert.equal(seen.completions, 24);
});

test("node: identical requests in a run are answered from the cache", async () => {
  const items = [item("Same answer."), item("Same answer."), item("Same answer.")];
  const report = await agenteval.score(dataset(items, { Relevance: {} }), { judge: judge({ concurrency: 1 }) });
  assert.equal(report.judge.calls, 3);
  assert.equal(report.judge.cache_hits, 2);
  assert.equal(report.judge.requests, 1);
  assert.deepEqual(result(report, 2, "Relevance").score, result(report, 0, "Relevance").score);
});

test("node: cancelling ends every entry, skips the judge calls not answered and names them", async () => {
  const controller = new AbortController();
  const items = [item("Paris. [[judge:fault=hang]]"), item("Paris."), item("Lyon.")];
  const seen = [];
  const pending = agenteval.score(dataset(items, { Relevance: {}, PartialMatch: {} }), {
    judge: judge({ timeoutMs: 60000 }),
    signal: controller.signal,
    onResult: (outcome) => seen.push(outcome.index),
  });
  setTimeout(() => controller.abort(), 300);
  const report = await pending;
  assert.equal(report.items.length, 3);
  assert.deepEqual(seen, [0, 1, 2]);
  const first = result(report, 0, "Relevance");
  assert.equal(first.result, "skipped");
  assert.match(first.reason, /^cancelled/);
  assert.equal(result(report, 0, "PartialMatch").result, "pass");
  assert.equal(report.judge.cancelled, true);
  assert.deepEqual(report.judge.not_reached, [{ index: 0, turn: null }]);
});

test("node: Foundry criteria run every builtin judge over the openai kind", async () => {
  const ids = ["relevance", "coherence", "fluency", "groundedness", "similarity", "retrieval", "response_completeness", "intent_resolution", "tool_call_accuracy", "task_adherence", "task_completion", "tool_selection", "tool_input_accuracy", "tool_output_utilization", "tool_call_success"];
  const config = { testing_criteria: ids.map((id) => ({ type: "azure_ai_evaluator", name: id, evaluator_name: `builtin.${id}` })) };
  const row = {
    query: [{ role: "user", content: [{ type: "text", text: "Weather in Paris?" }] }],
    response: [
      { role: "assistant", content: [{ type: "tool_call", tool_call_id: "c1", name: "get_weather", arguments: { city: "Paris" } }] },
      { role: "tool", tool_call_id: "c1", content: [{ type: "tool_result", tool_result: { temp: 21 } }] },
      { role: "assistant", content: [{ type: "text", text: "It is 21 degrees in Paris." }] },
    ],
    context: "Paris weather: 21 degrees.",
    ground_truth: "21 degrees",
    tool_definitions: [{ name: "get_weather", description: "Weather by city", parameters: { type: "object", properties: { city: { type: "string" } } } }],
  };
  const report = await agenteval.score(JSON.stringify(row), {
    config,
    judge: { kind: "openai", endpoint: `${url}/v1`, model: "llama3", apiKey: key },
  });
  for (const id of ids) {
    const entry = result(report, 0, id);
    assert.ok(["pass", "fail"].includes(entry.result), `${id}: ${JSON.stringify(entry)}`);
  }
});

test("node: the azure-v1 route, and a Foundry criterion's own deployment", async () => {
  const config = {
    testing_criteria: [
      { type: "azure_ai_evaluator", name: "default_model", evaluator_name: "builtin.fluency" },
      { type: "azure_ai_evaluator", name: "own_model", evaluator_name: "builtin.fluency", initialization_parameters: { deployment_name: "gpt-4o-mini-judge" } },
    ],
  };
  const report = await agenteval.score(JSON.stringify({ response: "Paris is the capital of France." }), {
    config,
    judge: { kind: "azure-v1", endpoint: `${url}/openai/v1`, model: "gpt-4o-judge", apiKey: key },
  });
  assert.equal(result(report, 0, "default_model").details.model, "gpt-4o-judge");
  assert.equal(result(report, 0, "own_model").details.model, "gpt-4o-mini-judge");
});

test("node: scoreItem, evaluate and custom evaluators run with a judge", async () => {
  const outcome = await agenteval.scoreItem(item("Paris."), ["Relevance", "mine"], {
    judge: judge(),
    custom: { mine: async (input) => input.response.length > 3 },
  });
  assert.ok(["pass", "fail"].includes(outcome.results[0].result));
  assert.equal(outcome.results[1].result, "pass");
  const evaluation = await agenteval.evaluate(dataset([item("Paris.")], { Relevance: {} }), { judge: judge() });
  assert.equal(evaluation.report.judge.calls, 1);
  assert.match(evaluation.render("md"), /Relevance/);
  assert.ok(!evaluation.render("html").includes(key));
  evaluation.free();
});

test("node: bad judge options are refused naming the field, never showing the key", async () => {
  const refuse = (options, pattern) =>
    assert.rejects(agenteval.score(dataset([item("Paris.")]), { judge: options }), (error) => {
      assert.equal(error.code, "invalidArgument");
      assert.match(error.message, pattern);
      assert.ok(!error.message.includes("sk-secret"));
      return true;
    });
  await refuse({ ...judge(), kind: "bedrock" }, /options\.judge\.kind/);
  await refuse({ ...judge(), endpoint: "ftp://x" }, /options\.judge\.endpoint/);
  await refuse({ ...judge(), model: "" }, /options\.judge\.model/);
  await refuse({ ...judge(), apiKey: "sk-secret", getToken: () => "t" }, /apiKey or getToken/);
  await refuse({ ...judge(), concurrency: 0 }, /options\.judge\.concurrency/);
  await refuse({ ...judge(), color: "red" }, /options\.judge\.color: unknown option/);
});

test("node: without a judge, judged evaluators are skipped", async () => {
  const report = await agenteval.score(dataset([item("Paris.")], { Relevance: {} }));
  assert.equal(result(report, 0, "Relevance").result, "skipped");
  assert.equal(result(report, 0, "Relevance").reason, "no judge configured");
  assert.equal(report.judge, undefined);
});

describeChromium();

function describeChromium() {
  let chromium;
  let page;

  before(async () => {
    chromium = await packagePage();
    page = chromium.page;
  });

  after(async () => {
    await chromium?.close();
  });

  test("chromium page: judges through fetch across origins, and a re-run is served from IndexedDB", async () => {
    const outcome = await page.evaluate(
      async ({ options, data }) => {
        const first = await globalThis.agenteval.score(data, { judge: options });
        const second = await globalThis.agenteval.score(data, { judge: options });
        return { first, second };
      },
      { options: judge(), data: dataset([item("Paris in the page."), item("Lyon in the page. [[judge:score=9]]")]) },
    );
    const entry = result(outcome.first, 0, "Relevance");
    assert.ok(entry.score >= 1 && entry.score <= 5);
    assert.equal(result(outcome.first, 1, "Relevance").error.code, "judgeOutputUnparseable");
    assert.equal(outcome.first.judge.cache_hits, 0);
    assert.equal(outcome.second.judge.cache_hits, 2, "answers with a verdict come from IndexedDB");
    assert.equal(outcome.second.judge.requests, 2, "errors are not cached");
    assert.deepEqual(result(outcome.second, 0, "Relevance"), entry);
  });

  test("chromium page: an AbortSignal aborts the judge calls in flight and the report names the entries", async () => {
    const report = await page.evaluate(
      async ({ options, data }) => {
        const controller = new AbortController();
        const pending = globalThis.agenteval.score(data, { judge: options, signal: controller.signal });
        setTimeout(() => controller.abort(), 300);
        return pending;
      },
      { options: judge({ timeoutMs: 60000, cache: false }), data: dataset([item("Paris. [[judge:fault=hang]]"), item("Paris in Chromium.")], { Relevance: {} }) },
    );
    assert.equal(report.items.length, 2);
    assert.equal(result(report, 0, "Relevance").result, "skipped");
    assert.match(result(report, 0, "Relevance").reason, /^cancelled/);
    assert.ok(["pass", "fail"].includes(result(report, 1, "Relevance").result));
    assert.deepEqual(report.judge.not_reached, [{ index: 0, turn: null }]);
  });

  test("chromium worker: judges run in the package's Web Worker, getToken answered by the page", async () => {
    const outcome = await page.evaluate(
      async ({ options, data, secret }) => {
        const client = globalThis.agenteval.connectWorker();
        let asked = 0;
        try {
          const withKey = await client.score(data, { judge: options });
          const withToken = await client.score(data, {
            judge: { ...options, apiKey: undefined, getToken: async () => { asked += 1; return secret; } },
          });
          return { withKey, withToken, asked };
        } finally {
          client.terminate();
        }
      },
      { options: judge({ cache: false }), data: dataset([item("Paris from a worker.")], { Relevance: {} }), secret: key },
    );
    assert.ok(["pass", "fail"].includes(result(outcome.withKey, 0, "Relevance").result));
    assert.equal(outcome.withKey.judge.calls, 1);
    assert.deepEqual(result(outcome.withToken, 0, "Relevance").score, result(outcome.withKey, 0, "Relevance").score);
    assert.equal(outcome.asked, 1);
  });
}
