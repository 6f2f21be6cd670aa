// BLEU and GLEU through the package (NLTK's tokenisers): the scores are azure-ai-evaluation's, as
// in the parity case files (`tests/fixtures/parity/{bleu,gleu}_score.json`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { root } from "./helpers.js";

function config(name, evaluator) {
  return {
    testing_criteria: [{
      type: "azure_ai_evaluator",
      name,
      evaluator_name: evaluator,
      data_mapping: { response: "{{item.response}}", ground_truth: "{{item.ground_truth}}" },
    }],
  };
}

/** The reference's scored cases with default options and text inputs. */
async function referenceCases(file, key) {
  const document = JSON.parse(await readFile(join(root, "tests/fixtures/parity", file), "utf8"));
  return document.cases
    .filter((entry) => entry.output && Object.keys(entry.init).length === 0)
    .filter((entry) => typeof entry.inputs.response === "string" && typeof entry.inputs.ground_truth === "string")
    .map((entry) => ({ name: entry.name, inputs: entry.inputs, score: entry.output[key], result: entry.output[`${key}_result`] }));
}

for (const [file, key, evaluator] of [
  ["bleu_score.json", "bleu", "builtin.bleu_score"],
  ["gleu_score.json", "gleu", "builtin.gleu_score"],
]) {
  test(`${evaluator} in the package gives the reference's scores`, async () => {
    const cases = await referenceCases(file, key);
    assert.ok(cases.length > 1000, "enough cases");
    const rows = cases.map((entry) => JSON.stringify(entry.inputs)).join("\n");
    const options = { config: config(key, evaluator) };
    const validation = agenteval.validate(rows, options);
    assert.equal(validation.valid, true);
    const report = await agenteval.score(rows, options);
    assert.equal(report.items.length, cases.length);
    report.items.forEach((item, index) => {
      const expected = cases[index];
      const [result] = item.results;
      assert.equal(result.result, expected.result, expected.name);
      const tolerance = 1e-12 * Math.max(Math.abs(expected.score), Math.abs(result.score));
      assert.ok(Math.abs(result.score - expected.score) <= tolerance, `${expected.name}: ${result.score} vs ${expected.score}`);
    });
  });
}
