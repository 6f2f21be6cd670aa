// The core's run plan through the package (`plan()`): hosts ask it instead of deciding the
// dialect, the config line, the formats or what a run needs. And the case that made it needed:
// a one-row Foundry JSONL with a config is scored as Foundry rows.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { examples } from "./helpers.js";

const config = {
  testing_criteria: [
    {
      type: "azure_ai_evaluator",
      name: "f1",
      evaluator_name: "builtin.f1_score",
      data_mapping: { response: "{{item.answer}}", ground_truth: "{{item.truth}}" },
    },
  ],
};
const row = '{"answer": "Paris is the capital", "truth": "Paris"}\n';

test("node: a one-row JSONL with a config is planned and scored as Foundry rows", async () => {
  const plan = await agenteval.plan(row, { config });
  assert.deepEqual(
    { dialect: plan.dialect, layout: plan.layout, config: plan.config, items: plan.items, entries: plan.entries },
    { dialect: "foundry", layout: "lines", config: "given", items: 1, entries: 1 },
  );
  assert.deepEqual(plan.formats, ["foundry", "foundry-results", "report", "csv", "junit", "md", "html"]);
  const report = await agenteval.score(row, { config });
  assert.equal(report.dialect, "foundry");
  assert.equal(report.items.length, 1);
  assert.equal(report.items[0].results[0].score, 0.5);
  const validation = await agenteval.validate(row, { config });
  assert.equal(validation.valid, true);
  assert.equal(validation.dialect, "foundry");
});

test("node: the plan names the formats and needs of each example, as the CLI decides them", async () => {
  const m365 = await agenteval.plan(await readFile(join(examples, "m365-demo.json")));
  assert.equal(m365.dialect, "m365");
  assert.equal(m365.formats[0], "document");
  assert.ok(!m365.formats.includes("foundry"));
  assert.equal(m365.entries, m365.items - 1 + m365.turns, JSON.stringify(m365));
  const judged = await agenteval.plan({
    schemaVersion: "1.11.0",
    default_evaluators: { Relevance: {} },
    items: [{ prompt: "p", response: "r" }],
  });
  assert.deepEqual(judged.needs, { judge: true, embeddings: false, wordnet: false, judge_calls: 1 });
  const foundry = await agenteval.plan(await readFile(join(examples, "foundry-demo.jsonl")), {
    config: JSON.parse(await readFile(join(examples, "foundry-config.json"), "utf8")),
  });
  assert.equal(foundry.dialect, "foundry");
  assert.equal(foundry.formats[0], "foundry");
});

test("node: a dataset the core cannot read is refused by plan as score refuses it", async () => {
  await assert.rejects(() => Promise.resolve().then(() => agenteval.plan('{"answer": 1}\n')), (error) => {
    assert.equal(error.code, "invalidDataset");
    return true;
  });
});
