// Foundry's `string_check` and `text_similarity` graders through the package, from a config in
// the options or on the dataset's first line; a `meteor` metric alone makes the run fetch
// METEOR's WordNet table. Scores by hand (eq,
// ilike, fuzzy_match as RapidFuzz's `fuzz.ratio / 100`) and, for the BLEU, GLEU, METEOR and
// ROUGE metrics, those of the built-in evaluators on the same texts.

import { test } from "node:test";
import assert from "node:assert/strict";

import * as agenteval from "agenteval";

const rows = [
  { response: "Paris", label: "Paris" },
  { response: "It is PARIS, the capital of France.", label: "paris" },
  { response: "The cats were running quickly home.", label: "The cat ran quickly to its home." },
];

function grader(name, metric) {
  return {
    type: "text_similarity",
    name,
    input: "{{sample.output_text}}",
    reference: "{{item.label}}",
    evaluation_metric: metric,
    pass_threshold: 0.5,
  };
}

function builtIn(name, evaluator, parameters = {}) {
  return {
    type: "azure_ai_evaluator",
    name,
    evaluator_name: evaluator,
    initialization_parameters: parameters,
    data_mapping: { response: "{{item.response}}", ground_truth: "{{item.label}}" },
  };
}

function result(item, name) {
  const found = item.results.find((entry) => entry.evaluator === name);
  assert.ok(found, `no ${name} result`);
  return found;
}

test("a meteor metric alone fetches WordNet", async () => {
  const config = { testing_criteria: [grader("meteor", "meteor")] };
  const report = await agenteval.score(rows, { config });
  for (const item of report.items) {
    const meteor = result(item, "meteor");
    assert.equal(typeof meteor.score, "number", JSON.stringify(meteor));
  }
  assert.equal(result(report.items[0], "meteor").result, "pass");
});

test("string_check and fuzzy_match give the hand-computed verdicts", async () => {
  const config = {
    testing_criteria: [
      { type: "string_check", name: "exact", input: "{{sample.output_text}}", reference: "{{item.label}}", operation: "eq" },
      { type: "string_check", name: "mentions", input: "{{sample.output_text}}", reference: "{{item.label}}", operation: "ilike" },
      { type: "string_check", name: "literal", input: "{{sample.output_text}}", reference: "PARIS", operation: "like" },
      grader("fuzzy", "fuzzy_match"),
      grader("embeddings", "cosine"),
    ],
  };
  const validation = await agenteval.validate(rows, { config });
  assert.equal(validation.valid, true);
  const report = await agenteval.score(rows, { config });
  const verdicts = report.items.map((item) => ["exact", "mentions", "literal"].map((name) => result(item, name).result));
  assert.deepEqual(verdicts, [
    ["pass", "pass", "fail"],
    ["fail", "pass", "pass"],
    ["fail", "fail", "fail"],
  ]);
  assert.equal(result(report.items[0], "fuzzy").score, 1);
  // "It is PARIS, the capital of France." (35) / "paris" (5): LCS "par" → 1 − (40 − 6) / 40.
  assert.equal(result(report.items[1], "fuzzy").score, 1 - 34 / 40);
  assert.equal(result(report.items[1], "fuzzy").result, "fail");
  const cosine = result(report.items[0], "embeddings");
  assert.equal(cosine.result, "skipped");
  assert.match(cosine.reason, /embeddings/);
});

test("BLEU, GLEU, METEOR and ROUGE metrics are the built-in evaluators' scores", async () => {
  const pairs = [
    ["bleu", builtIn("bleu_builtin", "builtin.bleu_score")],
    ["gleu", builtIn("gleu_builtin", "builtin.gleu_score")],
    ["meteor", builtIn("meteor_builtin", "builtin.meteor_score")],
    ["rouge_2", builtIn("rouge_2_builtin", "builtin.rouge_score", { rouge_type: "rouge2" })],
    ["rouge_l", builtIn("rouge_l_builtin", "builtin.rouge_score", { rouge_type: "rougeL" })],
  ];
  const config = { testing_criteria: pairs.flatMap(([metric, criterion]) => [grader(metric, metric), criterion]) };
  const report = await agenteval.score(rows, { config });
  for (const item of report.items) {
    for (const [metric, criterion] of pairs) {
      const mine = result(item, metric);
      assert.equal(typeof mine.score, "number", `${metric}: ${JSON.stringify(mine)}`);
      assert.equal(mine.score, result(item, criterion.name).score, metric);
    }
  }
});

test("a config line naming a grader is read", async () => {
  const config = {
    testing_criteria: [{ type: "string_check", name: "exact", input: "{{sample.output_text}}", reference: "{{item.label}}", operation: "eq" }],
  };
  const text = [config, ...rows].map((line) => JSON.stringify(line)).join("\n");
  const report = await agenteval.score(text);
  assert.deepEqual(report.items.map((item) => result(item, "exact").result), ["pass", "fail", "fail"]);
});

test("a bad grader is an evaluatorConfigurationError naming its key", async () => {
  const config = { testing_criteria: [{ ...grader("broken", "bleu"), pass_threshold: 2 }] };
  const report = await agenteval.score(rows.slice(0, 1), { config });
  const broken = result(report.items[0], "broken");
  assert.equal(broken.result, "error");
  assert.equal(broken.error.code, "evaluatorConfigurationError");
  assert.match(broken.error.message, /`pass_threshold`/);
});
