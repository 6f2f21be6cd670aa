// The package is one WebAssembly module: every function works from the first call of a fresh
// process (a Copilot Studio CSV validated and rendered synchronously, a judged score, BLEU and
// METEOR), the package ships no other module, and METEOR's WordNet table is fetched only when a
// run scores METEOR — as the module decides, whatever the input's text mentions — once, and
// again after a failed fetch, which rejects with `wordnetUnavailable`. `cargo xtask test` passes
// the local judge's URL and key in AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { launchChromium, localJudge, root, serve } from "./helpers.js";

const { url, key } = localJudge();

const csv = await readFile(join(root, "tests/fixtures/copilot-studio/export.csv"), "utf8");

function criterion(name, evaluator) {
  return { type: "azure_ai_evaluator", name, evaluator_name: evaluator, data_mapping: { response: "{{item.response}}", ground_truth: "{{item.ground_truth}}" } };
}

const rows = [
  { response: "The cat sat on the mat.", ground_truth: "A cat was sitting on the mat." },
  { response: "Paris is the capital of France.", ground_truth: "The capital of France is Paris." },
];
const meteorConfig = { testing_criteria: [criterion("meteor", "builtin.meteor_score")] };

test("the first call of the process reads a Copilot Studio CSV, synchronously: validate and render return values", async () => {
  const validation = agenteval.validate(csv);
  assert.equal(validation instanceof Promise, false);
  assert.equal(validation.dialect, "copilot_studio");
  assert.equal(validation.valid, true);
  const evaluation = await agenteval.evaluate(csv);
  try {
    const written = agenteval.render(evaluation.report, "copilot", { dataset: csv });
    assert.equal(typeof written, "string");
    assert.equal(written, evaluation.render("copilot"));
  } finally {
    evaluation.free();
  }
});

test("a judged score, BLEU and METEOR run in the same module, with no other module shipped", async () => {
  const judged = await agenteval.score(
    { schemaVersion: "1.11.0", default_evaluators: { Relevance: {} }, items: [{ prompt: "Capital of France?", response: "Paris is the capital of France." }] },
    { judge: { kind: "azure", endpoint: url, model: "gpt-4o-judge", apiKey: key, backoffMs: 5 } },
  );
  const relevance = judged.items[0].results[0];
  assert.equal(relevance.evaluator, "Relevance");
  assert.equal(typeof relevance.score, "number", JSON.stringify(relevance));
  const nltk = await agenteval.score(rows, { config: { testing_criteria: [criterion("bleu", "builtin.bleu_score"), ...meteorConfig.testing_criteria] } });
  for (const item of nltk.items) {
    for (const result of item.results) assert.equal(typeof result.score, "number", JSON.stringify(result));
  }
  const modules = (await readdir(join(root, "pkg"))).filter((name) => name.endsWith(".wasm"));
  assert.deepEqual(modules, ["agenteval_wasm_bg.wasm"]);
});

let server;
let browser;

before(async () => {
  server = await serve();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that loads the package through `agenteval/load`, counting its WordNet fetches; `fail` fetches are refused first. */
async function loadedPage(fail = 0) {
  const page = await browser.newPage();
  const fetched = [];
  let refused = 0;
  await page.route("**/wordnet-meteor.bin.gz", (route) => {
    fetched.push(route.request().url());
    if (refused < fail) {
      refused += 1;
      return route.fulfill({ status: 503, body: "unavailable" });
    }
    return route.continue();
  });
  await page.goto(`${server.url}/tests/js/web/blank.html`);
  await page.evaluate(async () => {
    const { load } = await import("/pkg/load.js");
    globalThis.agenteval = await load({ module: new URL("/pkg/agenteval_wasm_bg.wasm", location.href), wordnet: new URL("/pkg/wordnet-meteor.bin.gz", location.href) });
  });
  return { page, fetched };
}

test("WordNet is fetched only by a run that scores METEOR, once, for score, a grader's metric and evaluateRows", async () => {
  const { page, fetched } = await loadedPage();
  try {
    const f1Config = { testing_criteria: [criterion("f1", "builtin.f1_score")] };
    const mentioning = rows.map((row) => ({ ...row, response: `builtin.meteor_score "meteor" ${row.response}` }));
    const before = await page.evaluate(
      async ({ mentioning, f1Config, csv }) => {
        const { score, evaluateRows, validate } = globalThis.agenteval;
        const plain = await score(mentioning, { config: f1Config });
        const named = await score(mentioning.map((row) => JSON.stringify(row)).join("\n"), { config: f1Config });
        const run = await evaluateRows(csv);
        run.free();
        validate(mentioning, { config: { testing_criteria: [{ type: "azure_ai_evaluator", name: "meteor", evaluator_name: "builtin.meteor_score" }] } });
        return plain.items.length + named.items.length;
      },
      { mentioning, f1Config, csv },
    );
    assert.equal(before, 4);
    assert.equal(fetched.length, 0, "no run scored METEOR, though the inputs mention it and a validation names it");
    const scores = await page.evaluate(
      async ({ rows, meteorConfig }) => {
        const { score, evaluateRows } = globalThis.agenteval;
        const grader = { testing_criteria: [{ type: "text_similarity", name: "similar", input: "{{item.response}}", reference: "{{item.ground_truth}}", evaluation_metric: "meteor", pass_threshold: 0.5 }] };
        const first = await score(rows, { config: grader });
        const run = await evaluateRows(rows, { config: meteorConfig });
        const second = run.entry(0).results[0];
        run.free();
        return [first.items[0].results[0].score, second.score];
      },
      { rows, meteorConfig },
    );
    assert.equal(fetched.length, 1, `fetched ${fetched.length} times`);
    assert.equal(typeof scores[0], "number");
    assert.equal(scores[0], scores[1], "the grader's meteor metric is the built-in evaluator's score");
  } finally {
    await page.close();
  }
});

test("a failed WordNet fetch rejects with wordnetUnavailable, and the next run fetches it again", async () => {
  const { page, fetched } = await loadedPage(1);
  try {
    const outcome = await page.evaluate(
      async ({ rows, meteorConfig }) => {
        const { score } = globalThis.agenteval;
        const failed = await score(rows, { config: meteorConfig }).then(
          () => null,
          (error) => ({ code: error.code, message: error.message }),
        );
        const report = await score(rows, { config: meteorConfig });
        return { failed, score: report.items[0].results[0].score };
      },
      { rows, meteorConfig },
    );
    assert.equal(outcome.failed?.code, "wordnetUnavailable");
    assert.match(outcome.failed.message, /^METEOR's WordNet table could not be loaded: wordnet-meteor\.bin\.gz: HTTP 503/);
    assert.equal(typeof outcome.score, "number");
    assert.equal(fetched.length, 2);
  } finally {
    await page.close();
  }
});
