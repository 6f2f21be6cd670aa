// Custom judged evaluators from prompt templates through the package, against the local judge
// server (`cargo xtask test` starts it and passes its URL and key in AGENTEVAL_JUDGE_URL and
// AGENTEVAL_JUDGE_KEY): a range template and a label template named in an M365 document, beside
// a custom function; the same without a judge (skipped, not unknown); bad templates; Foundry
// `score_model` / `label_model` criteria; RetrievalResult's `match: "entailment"` and
// GeneralQuality / CompareMeaning named in an M365 document, judged the same way; in Node, and in
// headless Chromium (a page and the package's Web Worker).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";

import * as agenteval from "agenteval";
import { localJudge, packagePage } from "./helpers.js";

const { url, key } = localJudge();

const judge = { kind: "azure", endpoint: url, model: "gpt-4o-judge", apiKey: key, backoffMs: 5, cache: false };

const templates = {
  Politeness: {
    prompt: "How polite is the answer?\nQuestion: {{prompt}}\nAnswer: {{response}}",
    range: [0, 10],
    threshold: 5,
  },
  Tone: {
    messages: [
      { role: "system", content: "Classify the answer's tone." },
      { role: "user", content: "Answer: {{response}}\nReference: {{expected_response}}" },
    ],
    labels: ["friendly", "neutral", "rude"],
    passing_labels: ["friendly", "neutral"],
  },
};

const document = {
  schemaVersion: "1.11.0",
  default_evaluators: { Politeness: { threshold: 7 }, Tone: {} },
  items: [
    {
      prompt: "Where is my order?",
      response: "It ships today, thank you! [[judge:score=8]] [[judge:label=friendly]]",
      expected_response: "It ships today.",
    },
    { prompt: "Where is my order?", response: "Check the website. [[judge:score=4]] [[judge:label=rude]]" },
    {
      prompt: "Cancel it.",
      response: "Done. [[judge:score=11]] [[judge:label=sarcastic]]",
      expected_response: "Cancelled.",
    },
  ],
};

function found(report, index, evaluator) {
  const entry = report.items[index].results.find((result) => result.evaluator === evaluator);
  assert.ok(entry, `no ${evaluator} result for item ${index}`);
  return entry;
}

/** The verdicts of the document's templates, as the CLI test checks them too. */
function assertVerdicts(report) {
  const polite = found(report, 0, "Politeness");
  assert.deepEqual([polite.result, polite.score, polite.threshold], ["pass", 8, 7]);
  assert.equal(polite.details.prompt_version, "custom/v1");
  assert.deepEqual([found(report, 1, "Politeness").result, found(report, 1, "Politeness").score], ["fail", 4]);
  const off = found(report, 2, "Politeness");
  assert.equal(off.error.code, "judgeOutputUnparseable");
  assert.match(off.error.message, /off its scale \(0-10\)/);
  const tone = found(report, 0, "Tone");
  assert.deepEqual([tone.result, tone.details.label], ["pass", "friendly"]);
  const missing = found(report, 1, "Tone");
  assert.equal(missing.result, "skipped");
  assert.equal(missing.reason, "Not applicable: the item has no expected_response, which the prompt template uses");
  assert.match(found(report, 2, "Tone").error.message, /"sarcastic" is not one of the labels/);
  assert.equal(report.judge.calls, 5, "3 Politeness + 2 Tone (one skipped before a call)");
}

test("node: range and label templates named in a document are judged through fetch", async () => {
  const report = await agenteval.score(document, { judge, custom: templates });
  assertVerdicts(report);
});

test("node: templates run beside custom functions", async () => {
  const data = { ...document, default_evaluators: { ...document.default_evaluators, Short: {} } };
  const report = await agenteval.score(data, {
    judge,
    custom: { ...templates, Short: (input) => input.response.length < 80 },
  });
  assertVerdicts(report);
  assert.equal(found(report, 1, "Short").result, "pass");
});

test("node: without a judge templates are skipped, and without the template their names are unknown", async () => {
  const skipped = await agenteval.score(document, { custom: templates });
  const polite = found(skipped, 0, "Politeness");
  assert.deepEqual([polite.result, polite.reason], ["skipped", "no judge configured"]);
  const unknown = await agenteval.score(document);
  assert.equal(found(unknown, 0, "Politeness").error.code, "evaluatorLoadError");
});

test("node: a bad template is refused naming the option and the key", async () => {
  const cases = [
    [{ prompt: "Rate {{response}}", range: [5, 1] }, "options.custom.Politeness/range: expected [low, high] with low < high"],
    [{ prompt: "Rate {{response" }, "options.custom.Politeness/prompt: a placeholder opened with {{ is not closed with }}"],
    [{ prompt: "x", labels: ["a"], passing_labels: ["b"] }, 'options.custom.Politeness/passing_labels: "b" is not one of the labels'],
    [{}, "options.custom.Politeness: a custom judge needs its prompt"],
    ["Rate it", "options.custom.Politeness: expected a function (input, options, context) => result, or a judge template object"],
  ];
  for (const [template, message] of cases) {
    await assert.rejects(
      agenteval.score(document, { judge, custom: { Politeness: template } }),
      (error) => error.code === "invalidArgument" && error.message.startsWith(message),
      message,
    );
  }
});

const graderConfig = {
  testing_criteria: [
    {
      type: "score_model",
      name: "helpfulness",
      input: [
        { role: "developer", content: "Rate how helpful the answer is for the topic." },
        { role: "user", content: "Topic: {{item.topic}}\nAnswer: {{sample.output_text}}" },
      ],
      range: [1, 10],
      pass_threshold: 6,
    },
    {
      type: "label_model",
      name: "tone",
      input: [{ role: "user", content: [{ type: "input_text", text: "Tone of: {{item.response}}" }] }],
      labels: ["friendly", "rude"],
      passing_labels: ["friendly"],
    },
  ],
};
const graderRows = [graderConfig, { topic: "billing", response: "Your bill is ready. [[judge:score=9]] [[judge:label=friendly]]" }, { topic: "refunds", response: "No. [[judge:score=2]] [[judge:label=rude]]" }]
  .map((row) => JSON.stringify(row))
  .join("\n");

function assertGraders(report) {
  const result = (index, name) => report.items[index].results.find((entry) => entry.evaluator === name);
  assert.deepEqual([result(0, "helpfulness").result, result(0, "helpfulness").score], ["pass", 9]);
  assert.equal(result(0, "tone").details.label, "friendly");
  assert.deepEqual([result(1, "helpfulness").result, result(1, "tone").result], ["fail", "fail"]);
}

test("node: Foundry score_model and label_model criteria read any row field", async () => {
  assertGraders(await agenteval.score(graderRows, { judge }));
});

/** RetrievalResult in entailment mode over one hit whose extract carries the judge's answer. */
const entailment = {
  schemaVersion: "1.11.0",
  default_evaluators: {
    RetrievalResult: {
      capability: "OneDriveAndSharePoint",
      match: "entailment",
      expected_items: [
        { retrievalExtract_contains: "Customers can get their money back for a month" },
        { retrievalExtract_contains: "Delivery costs nothing" },
      ],
    },
    GeneralQuality: {},
    CompareMeaning: { threshold: 60 },
  },
  items: [1, 2].map((second) => ({
    prompt: "Refunds?",
    response:
      "Within 30 days. [[judge:score=80]] [[judge:dimension=relevance:1]] [[judge:dimension=completeness:1]] [[judge:dimension=groundedness:1]] [[judge:dimension=answered:1]]",
    expected_response: "Within 30 days",
    diagnostics: {
      retrieval_executions: [
        {
          capability: "OneDriveAndSharePoint",
          retrievalHits: [
            { rank: 1, webUrl: "https://contoso.example/refunds", extracts: [{ text: `Refunds are accepted within 30 days. [[judge:entails=1:1]] [[judge:entails=2:${second === 2 ? "2" : "none"}]]` }] },
            { rank: 2, webUrl: "https://contoso.example/shipping", extracts: [{ text: "Shipping is free on every order." }] },
          ],
        },
      ],
    },
  })),
};

function assertEntailment(report) {
  const [one, both] = [0, 1].map((index) => found(report, index, "RetrievalResult"));
  assert.deepEqual([one.result, one.score, one.details.diagnostic_code], ["fail", 0.5, "not_retrieved"]);
  assert.deepEqual([both.result, both.score], ["pass", 1]);
  assert.equal(both.details.prompt_version, "retrieval_entailment/v1");
  assert.equal(both.details.matched_items[1].matchedHitRank, 2);
  assert.deepEqual([found(report, 0, "GeneralQuality").result, found(report, 0, "GeneralQuality").score], ["pass", 100]);
  assert.deepEqual([found(report, 0, "CompareMeaning").result, found(report, 0, "CompareMeaning").threshold], ["pass", 60]);
}

test("node: RetrievalResult's entailment, GeneralQuality and CompareMeaning through the judge", async () => {
  assertEntailment(await agenteval.score(entailment, { judge }));
  const skipped = await agenteval.score(entailment);
  assert.equal(found(skipped, 0, "RetrievalResult").result, "skipped");
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

  test("chromium page and worker: the same templates and verdicts through fetch, Foundry graders in the worker, entailment in the page", async () => {
    const outcome = await page.evaluate(
      async ({ options, data, custom, entailmentData, rows }) => {
        const inPage = await globalThis.agenteval.score(data, { judge: options, custom });
        const client = globalThis.agenteval.connectWorker();
        try {
          const inWorker = await client.score(data, { judge: options, custom });
          let refused;
          try {
            await client.score(data, { custom: { ...custom, Short: () => true } });
          } catch (error) {
            refused = { code: error.code, message: error.message };
          }
          const entailment = await globalThis.agenteval.score(entailmentData, { judge: options });
          const graders = await client.score(rows, { judge: options });
          return { inPage, inWorker, refused, entailment, graders };
        } finally {
          client.terminate();
        }
      },
      { options: judge, data: document, custom: templates, entailmentData: entailment, rows: graderRows },
    );
    assertVerdicts(outcome.inPage);
    assertVerdicts(outcome.inWorker);
    assertEntailment(outcome.entailment);
    assertGraders(outcome.graders);
    assert.match(outcome.refused.message, /^options\.custom\.Short: custom evaluators that are functions cannot run in a worker/);
  });
}
