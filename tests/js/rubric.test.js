// The Rubric and the composite judges through the package: one call per item rates every
// dimension, against the local judge server (`cargo xtask test` starts it and passes its URL and
// key in AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY); the seed's worked examples, an
// always-applicable dimension the judge drops, the dimensions in the report formats, bad
// options, and output_quality's pass rule over its members; in Node, and in headless Chromium (a
// page and the package's Web Worker).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";

import * as agenteval from "agenteval";
import { localJudge, packagePage } from "./helpers.js";

const { url, key } = localJudge();

const judge = { kind: "azure", endpoint: url, model: "gpt-4o-judge", apiKey: key, backoffMs: 5 };

// The seed's restaurant-booking rubric (Foundry's rubric evaluators).
const rubric = {
  dimensions: [
    { id: "intent_recognition", description: "Correctly identifies the user's reservation intent.", weight: 9 },
    { id: "tool_usage_accuracy", description: "Calls the correct tool with correct parameters.", weight: 6 },
    { id: "policy_enforcement", description: "Enforces business rules: max party size 8.", weight: 5 },
    { id: "information_gathering", description: "Collects all required information first.", weight: 4 },
    { id: "communication_clarity", description: "Clear, concise responses that confirm details.", weight: 2 },
    { id: "general_quality", description: "Other important quality factors.", weight: 5, always_applicable: true },
  ],
};

// A response whose directives make the local judge rate the dimensions `ratings`, in order.
function response(text, ratings) {
  const directives = rubric.dimensions.map((dimension, index) => ` [[judge:dimension=${dimension.id}:${ratings[index]}]]`);
  return text + directives.join("");
}

function dataset(responses, evaluators = { Rubric: rubric }) {
  return {
    schemaVersion: "1.11.0",
    default_evaluators: evaluators,
    items: responses.map((text) => ({ prompt: "Book a table for 4 on Friday at 19:30.", response: text })),
  };
}

function rubricResult(report, index) {
  const found = report.items[index].results.find((entry) => entry.evaluator === "Rubric");
  assert.ok(found, `no Rubric result for item ${index}`);
  return found;
}

test("node: the seed's worked examples, one judge call per item", async () => {
  const report = await agenteval.score(
    dataset([
      response("Booked: Friday 19:30, party of 4.", [5, 5, 5, 4, 5, 4]),
      response("Booked a table for 12.", [3, 1, 1, 2, 2, 1]),
      response("Booked.", [5, 5, 5, 4, 5, "na"]),
      response("Hello.", ["na", "na", "na", "na", "na", 4]),
    ]),
    { judge },
  );
  assert.equal(report.judge.calls, 4);
  const pass = rubricResult(report, 0);
  assert.equal(pass.result, "pass");
  assert.ok(Math.abs(pass.score - 0.9419354839) < 5e-11, String(pass.score));
  assert.equal(pass.threshold, 0.5);
  assert.equal(pass.details.prompt_version, "rubric/v2");
  assert.deepEqual(pass.details.dimension_scores[0], {
    id: "intent_recognition",
    score: 5,
    applicable: true,
    weight: 9,
    reason: "local judge: dimension intent_recognition scored 5",
  });
  const fail = rubricResult(report, 1);
  assert.equal(fail.result, "fail");
  assert.ok(Math.abs(fail.score - 0.3548387097) < 5e-11, String(fail.score));
  const dropped = rubricResult(report, 2);
  assert.equal(dropped.result, "error");
  assert.equal(dropped.error.code, "judgeOutputUnparseable");
  assert.match(dropped.error.message, /'general_quality' not applicable/);
  const only = rubricResult(report, 3);
  assert.equal(only.score, 0.8, "only general_quality applies: 4/5");
  assert.deepEqual(
    only.details.dimension_scores.map((entry) => entry.applicable),
    [false, false, false, false, false, true],
  );
});

test("node: every report format shows the dimensions", async () => {
  const evaluation = await agenteval.evaluate(dataset([response("Booked a table for 12.", [3, 1, 1, 2, 2, 1])]), { judge });
  try {
    for (const format of ["md", "html", "junit", "csv", "report"]) {
      const written = evaluation.render(format);
      // Markdown backslash-escapes the data's punctuation; rendered, it reads the same.
      const text = format === "md" ? written.replaceAll("\\", "") : written;
      assert.ok(text.includes("policy_enforcement 1/5 (weight 5)"), format);
      assert.ok(text.includes("local judge: dimension general_quality scored 1"), format);
    }
  } finally {
    evaluation.free();
  }
});

test("node: bad dimensions are configuration errors naming the JSON pointer", async () => {
  const bad = { dimensions: [{ id: "a", description: "first", weight: 1 }, { id: "b", description: "second", weight: 0 }] };
  const report = await agenteval.score(dataset(["Booked."], { Rubric: bad }), { judge });
  const entry = rubricResult(report, 0);
  assert.equal(entry.result, "error");
  assert.equal(entry.error.code, "evaluatorConfigurationError");
  assert.equal(
    entry.error.message,
    "option `dimensions` at /dimensions/1/weight: the weight must be a number greater than 0, got 0",
  );
});

test("node: without a judge, bad dimensions are the same configuration errors, as in the CLI", async () => {
  const bad = { dimensions: [{ id: "a", description: "first", weight: 1 }, { id: "b", description: "second", weight: 0 }] };
  const report = await agenteval.score(dataset(["Booked."], { Rubric: bad }));
  const entry = rubricResult(report, 0);
  assert.equal(entry.result, "error");
  assert.equal(entry.error.code, "evaluatorConfigurationError");
  assert.match(entry.error.message, /^option `dimensions` at \/dimensions\/1\/weight: /);
});

test("node: without a judge a rubric is skipped", async () => {
  const report = await agenteval.score(dataset(["Booked."]));
  const entry = rubricResult(report, 0);
  assert.equal(entry.result, "skipped");
  assert.equal(entry.reason, "no judge configured");
});

test("node: output_quality rates its members in one call and passes only when every applicable one passes", async () => {
  const members = ["fluency", "coherence", "intent_resolution", "task_adherence", "groundedness", "task_completion"];
  const rated = (scores) => members.map((id, index) => ` [[judge:dimension=${id}:${scores[index]}]]`).join("");
  const before = (await (await fetch(`${url}/stats`)).json()).completions;
  const report = await agenteval.score(
    {
      schemaVersion: "1.11.0",
      default_evaluators: { output_quality: {}, tool_use_quality: {} },
      items: [
        { prompt: "Capital of France?", response: `Paris.${rated([4, 5, 4, 1, 5, 1])}`, context: "Paris is the capital of France." },
        { prompt: "Capital of France?", response: `Paris.${rated([4, 5, 4, 1, 2, 1])}`, context: "Paris is the capital of France." },
      ],
    },
    { judge },
  );
  const after = (await (await fetch(`${url}/stats`)).json()).completions;
  assert.equal(after - before, 2, "one call per item; tool_use_quality needs none without tool calls");
  const [pass, fail] = [0, 1].map((index) => report.items[index].results.find((entry) => entry.evaluator === "output_quality"));
  assert.equal(pass.result, "pass");
  assert.equal(pass.score, 1);
  assert.equal(pass.details.components.length, 6);
  assert.equal(fail.result, "fail");
  assert.match(fail.reason, /^Failed: groundedness \(2, threshold 3\)\./);
  const tools = report.items[0].results.find((entry) => entry.evaluator === "tool_use_quality");
  assert.equal(tools.result, "skipped");
});

test("node: generateRubric has the judge write a rubric the Rubric judge then scores with", async () => {
  const generated = await agenteval.generateRubric(
    { instructions: "Book restaurant tables. Dinner is served 17:00-22:00; parties of at most 8 guests.", traces: "user: a table for 10\nagent: at most 8" },
    { judge: { ...judge, cache: false } },
  );
  assert.deepEqual(
    generated.dimensions.map((dimension) => dimension.id),
    ["book_restaurant_tables", "dinner_is_served", "parties_of_at", "general_quality"],
  );
  assert.equal(generated.dimensions.at(-1).always_applicable, true);
  const report = await agenteval.score(dataset(["Booked for 4 at 19:00."], { Rubric: generated }), { judge });
  assert.match(rubricResult(report, 0).result, /^(pass|fail)$/);
  assert.equal(rubricResult(report, 0).details.dimension_scores.length, 4);
  await assert.rejects(agenteval.generateRubric({ traces: "user: hi" }, { judge }), (error) => error.code === "invalidArgument" && /traces cannot be used alone/.test(error.message));
  await assert.rejects(agenteval.generateRubric({ instructions: "Be kind." }, {}), (error) => error.code === "invalidArgument" && /options\.judge/.test(error.message));
  await assert.rejects(
    agenteval.generateRubric({ instructions: "Be kind. [[judge:fault=500*9]]" }, { judge: { ...judge, retries: 0, cache: false } }),
    (error) => error.code === "judgeFailed",
  );
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

  test("chromium page and worker: the seed's worked examples through fetch", async () => {
    const outcome = await page.evaluate(
      async ({ options, data }) => {
        const inPage = await globalThis.agenteval.score(data, { judge: options });
        const client = globalThis.agenteval.connectWorker();
        try {
          const inWorker = await client.score(data, { judge: options });
          return { inPage, inWorker };
        } finally {
          client.terminate();
        }
      },
      {
        options: { ...judge, cache: false },
        data: dataset([
          response("Booked in the page: Friday 19:30, party of 4.", [5, 5, 5, 4, 5, 4]),
          response("Booked a table for 12 in the page.", [3, 1, 1, 2, 2, 1]),
          response("Booked.", [5, 5, 5, 4, 5, "na"]),
        ]),
      },
    );
    for (const report of [outcome.inPage, outcome.inWorker]) {
      const [pass, fail, dropped] = [0, 1, 2].map((index) => rubricResult(report, index));
      assert.equal(pass.result, "pass");
      assert.ok(Math.abs(pass.score - 0.9419354839) < 5e-11, String(pass.score));
      assert.equal(pass.details.dimension_scores.length, 6);
      assert.equal(fail.result, "fail");
      assert.ok(Math.abs(fail.score - 0.3548387097) < 5e-11, String(fail.score));
      assert.equal(dropped.error.code, "judgeOutputUnparseable");
      assert.equal(report.judge.calls, 3);
    }
  });

  test("chromium page: generateRubric through fetch", async () => {
    const ids = await page.evaluate(async (options) => {
      const rubric = await globalThis.agenteval.generateRubric({ systemPrompt: "You answer questions about vacation policy. Cite the handbook." }, { judge: options });
      return rubric.dimensions.map((dimension) => dimension.id);
    }, { ...judge, cache: false });
    assert.deepEqual(ids, ["you_answer_questions", "cite_the_handbook", "general_quality"]);
  });

  test("chromium page and worker: output_quality rates its members in one call through fetch", async () => {
    const members = ["fluency", "coherence", "intent_resolution", "task_adherence", "groundedness", "task_completion"];
    const rated = (scores) => members.map((id, index) => ` [[judge:dimension=${id}:${scores[index]}]]`).join("");
    const data = {
      schemaVersion: "1.11.0",
      default_evaluators: { output_quality: {} },
      items: [
        { prompt: "Capital of France?", response: `Paris, in the page.${rated([4, 5, 4, 1, 5, 1])}`, context: "Paris is the capital of France." },
        { prompt: "Capital of France?", response: `Paris, in the page.${rated([4, 5, 4, 1, 2, 1])}`, context: "Paris is the capital of France." },
      ],
    };
    const outcome = await page.evaluate(
      async ({ options, data }) => {
        const inPage = await globalThis.agenteval.score(data, { judge: options });
        const client = globalThis.agenteval.connectWorker();
        try {
          const inWorker = await client.score(data, { judge: options });
          return { inPage, inWorker };
        } finally {
          client.terminate();
        }
      },
      { options: { ...judge, cache: false }, data },
    );
    for (const report of [outcome.inPage, outcome.inWorker]) {
      assert.equal(report.judge.calls, 2, "one call per item");
      const [pass, fail] = [0, 1].map((index) => report.items[index].results.find((entry) => entry.evaluator === "output_quality"));
      assert.deepEqual([pass.result, pass.score, pass.details.components.length], ["pass", 1, 6]);
      assert.equal(fail.result, "fail");
      assert.match(fail.reason, /^Failed: groundedness \(2, threshold 3\)\./);
    }
  });
}
