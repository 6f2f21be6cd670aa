// METEOR in the package: its WordNet table is a separate asset (`wordnet-meteor.bin.gz`), fetched
// and installed before the first run that scores `builtin.meteor_score`; scores are the
// reference's, as in the committed parity cases, in Node (read from the package folder) and in
// Chromium (fetched, gunzipped by DecompressionStream).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { launchChromium, root, serve } from "./helpers.js";

const fixture = JSON.parse(await readFile(join(root, "tests/fixtures/parity/meteor_score.json"), "utf8"));
const scored = fixture.cases.filter(
  (entry) => entry.output && Object.keys(entry.init).length === 0 && typeof entry.inputs.response === "string",
);
const sample = scored.filter((_, index) => index % 7 === 0);
const rows = sample.map((entry) => ({ response: entry.inputs.response, ground_truth: entry.inputs.ground_truth }));
const config = {
  testing_criteria: [
    {
      type: "azure_ai_evaluator",
      name: "meteor",
      evaluator_name: "builtin.meteor_score",
      data_mapping: { response: "{{item.response}}", ground_truth: "{{item.ground_truth}}" },
    },
  ],
};

function close(expected, actual) {
  return expected === actual || Math.abs(expected - actual) <= 1e-12 * Math.max(Math.abs(expected), Math.abs(actual));
}

function assertReference(outcomes, cases = sample) {
  assert.equal(outcomes.length, cases.length);
  outcomes.forEach((outcome, position) => {
    const [result] = outcome.results;
    const { name, output } = cases[position];
    assert.ok(!result.error, `${name}: ${JSON.stringify(result.error)}`);
    assert.ok(close(output.meteor, result.score), `${name}: ${output.meteor} vs ${result.score}`);
    assert.equal(result.result, output.meteor_result, name);
  });
}

test("score fetches the WordNet table and gives the reference's METEOR scores", async () => {
  assert.ok(sample.length > 200, `${sample.length} cases`);
  const report = await agenteval.score(rows, { config });
  assertReference(report.items);
});

test("evaluateRows gets the table too", async () => {
  const evaluation = await agenteval.evaluateRows(rows, { config });
  try {
    assertReference(sample.map((_, position) => evaluation.entry(position)));
  } finally {
    evaluation.free();
  }
});

test("a config given as text names METEOR just as well", async () => {
  const report = await agenteval.score(rows.slice(0, 5), { config: JSON.stringify(config) });
  assertReference(report.items, sample.slice(0, 5));
});

test("in Chromium the table is fetched once, on METEOR's first call only", async () => {
  const server = await serve();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const fetched = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/wordnet-meteor.bin.gz")) fetched.push(request.url());
    });
    await page.goto(`${server.url}/tests/js/web/blank.html`);
    const f1Config = { testing_criteria: [{ name: "f1", evaluator_name: "builtin.f1_score" }] };
    const result = await page.evaluate(
      async ({ rows, config, f1Config }) => {
        const { score } = await import("/pkg/index.js");
        const plain = await score(rows, { config: f1Config });
        const before = performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith(".bin.gz")).length;
        const first = await score(rows, { config });
        const second = await score(rows, { config });
        return {
          plain: plain.items.length,
          before,
          first: first.items.map((item) => item.results[0]),
          second: second.items.map((item) => item.results[0].score),
        };
      },
      { rows: rows.slice(0, 20), config, f1Config },
    );
    assert.equal(result.plain, 20);
    assert.equal(result.before, 0, "no table for a call without METEOR");
    assert.equal(fetched.length, 1, `fetched ${fetched.length} times`);
    assertReference(result.first.map((entry) => ({ results: [entry] })), sample.slice(0, 20));
    assert.deepEqual(result.second, result.first.map((entry) => entry.score));
  } finally {
    await browser.close();
    await server.close();
  }
});
