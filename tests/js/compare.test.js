// `compare()` in Node: two scored runs paired by prompt or id, the comparison object, its exports
// byte for byte what `agenteval compare` writes, and its errors.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { document, examples, root } from "./helpers.js";

const cli = process.env.AGENTEVAL_CLI ?? join(root, "target/debug/agenteval");
const demo = JSON.parse(await readFile(join(examples, "m365-demo.json"), "utf8"));

async function scored(dataset) {
  return (await agenteval.scoreDocument(JSON.stringify(dataset))).document;
}

function assertCode(code, pattern) {
  return (error) => {
    assert.ok(error instanceof Error, "a real Error");
    assert.equal(error.code, code);
    if (pattern) assert.match(error.message, pattern);
    return true;
  };
}

test("an item inserted at the top of the demo is one added entry, and nothing changed", async () => {
  const baseline = await scored(demo);
  const inserted = structuredClone(demo);
  inserted.items.unshift({ prompt: "A brand-new question?", response: "An answer.", expected_response: "Another answer." });
  const candidate = await scored(inserted);
  const comparison = agenteval.compare(baseline, candidate);
  assert.equal(comparison.pairing.key, "prompt");
  assert.equal(comparison.pairing.matched, demo.items.length);
  assert.equal(comparison.pairing.only_baseline, 0);
  assert.equal(comparison.pairing.only_candidate, 1);
  assert.deepEqual(comparison.pairing.unmatched, [{ run: "candidate", index: 0, key: "A brand-new question?" }]);
  assert.equal(comparison.items.filter((item) => item.changed).length, 0);
  assert.deepEqual(comparison.items.map((item) => item.candidate_index), demo.items.map((_, index) => index + 1));
  for (const metric of comparison.metrics) {
    if (metric.n === 0) {
      assert.equal(metric.effect, "zero_samples", `${metric.evaluator} ${metric.metric}`);
      assert.equal(metric.delta, null);
      continue;
    }
    assert.equal(metric.delta, 0, `${metric.evaluator} ${metric.metric}`);
    assert.equal(metric.p_value, 1);
    assert.equal(metric.effect, "too_few_samples");
    assert.equal(metric.n + metric.excluded, demo.items.length);
  }
  const types = Object.fromEntries(comparison.metrics.map((metric) => [`${metric.evaluator} ${metric.metric}`, metric.type]));
  assert.equal(types["partialMatch pass_rate"], "boolean");
  assert.equal(types["partialMatch score"], "continuous");
  assert.equal(types["exactMatch pass_rate"], "boolean");
  assert.equal(types["exactMatch score"], undefined, "ExactMatch gives no score");
  assert.equal(comparison.metrics.find((metric) => metric.evaluator === "relevance").excluded, demo.items.length, "a judge without a judge is excluded everywhere");
  assert.equal(comparison.baseline.name, "baseline");
  assert.equal(comparison.candidate.dialect, "m365");
});

test("a regression over 40 items is degraded, with flips, intervals and the detectable delta", async () => {
  const good = document(40, { PartialMatch: {} });
  for (const item of good.items) item.response = item.expected_response;
  const bad = structuredClone(good);
  for (const item of bad.items.slice(0, 15)) item.response = "I cannot help with that.";
  const comparison = agenteval.compare(await scored(good), new TextEncoder().encode(await scored(bad)));
  const [rate] = comparison.metrics;
  assert.equal(rate.effect, "degraded");
  assert.equal(rate.strength, "strong");
  assert.deepEqual(rate.flips, { pass_to_fail: 15, fail_to_pass: 0 });
  assert.equal(rate.baseline_mean, 1);
  assert.equal(rate.candidate_mean, 25 / 40);
  assert.ok(rate.candidate_ci[0] < 25 / 40 && 25 / 40 < rate.candidate_ci[1]);
  assert.ok(rate.detectable_delta > 0);
  assert.equal(rate.test, "mcnemar_mid_p");
  const neutral = agenteval.compare(await scored(good), await scored(bad), { directions: { partialMatch: "neutral" } });
  assert.equal(neutral.metrics[0].effect, "changed");
});

test("the exports are byte for byte what agenteval compare writes", async () => {
  const dir = mkdtempSync(join(tmpdir(), "agenteval-compare-"));
  const baselinePath = join(dir, "baseline.json");
  const candidatePath = join(dir, "candidate.json");
  const changed = structuredClone(demo);
  changed.items[1].response = "Something else entirely.";
  writeFileSync(baselinePath, await scored(demo));
  writeFileSync(candidatePath, await scored(changed));
  for (const format of ["json", "md", "html"]) {
    const result = spawnSync(cli, ["compare", baselinePath, candidatePath, "--format", format], { cwd: root, encoding: "utf8" });
    assert.equal(result.status, 0, result.stderr);
    const exported = agenteval.compare(await readFile(baselinePath), await readFile(candidatePath, "utf8"), {
      format,
      baselineName: baselinePath,
      candidateName: candidatePath,
    });
    assert.equal(exported, result.stdout, `--format ${format}`);
  }
});

test("runs that cannot be read or paired, and bad options, are refused with codes", async () => {
  const baseline = await scored(demo);
  const unscored = JSON.stringify(demo);
  assert.throws(() => agenteval.compare(baseline, unscored), assertCode("notScored", /^candidate: /));
  assert.throws(() => agenteval.compare("{\"items\": [", baseline), assertCode("invalidDataset", /^baseline: line 1, column/));
  assert.throws(() => agenteval.compare(baseline, baseline, { key: "ticket" }), assertCode("notComparable", /item 0 has no `ticket`/));
  assert.throws(() => agenteval.compare(baseline, baseline, { format: "xml" }), assertCode("invalidArgument", /^options\.format: expected/));
  assert.throws(() => agenteval.compare(baseline, baseline, { directions: { partialMatch: "up" } }), assertCode("invalidArgument", /^options\.directions\.partialMatch/));
  assert.throws(() => agenteval.compare(baseline, baseline, { colour: true }), assertCode("invalidArgument", /options\.colour: unknown option/));
});
