// evaluateRows against evaluate, entry by entry: the same statuses, verdicts and scores in its
// columns, the same outcomes from entry(), the same summary, and the same text for every format.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { document, examples } from "./helpers.js";

const encoder = new TextEncoder();
const demo = await readFile(join(examples, "m365-demo.json"));
const foundryRows = await readFile(join(examples, "foundry-demo.jsonl"), "utf8");
const foundryConfig = JSON.parse(await readFile(join(examples, "foundry-config.json"), "utf8"));
const generated = encoder.encode(JSON.stringify(document(2000)));
// A thread, an item with every evaluator skipped, an invalid item and a per-item evaluator, in a
// document the streaming path reads (current form), so turns, "none" statuses and late columns
// are covered.
const mixed = encoder.encode(
  JSON.stringify({
    schemaVersion: "1.6.0",
    default_evaluators: { ExactMatch: {} },
    items: [
      { prompt: "p", response: "r", expected_response: "r" },
      {
        turns: [
          { prompt: "a", response: "x", expected_response: "x" },
          { prompt: "b", response: "", expected_response: "y" },
        ],
      },
      { prompt: "q", response: "s", expected_response: "t", evaluators: { PartialMatch: {} } },
      { prompt: "j", response: "k", evaluators: { Relevance: {} }, evaluators_mode: "replace" },
      { prompt: 3 },
    ],
  }),
);

const CODES = { pass: 0, fail: 1, partial: 2, error: 3, skipped: 4 };
const NOT_RUN = 5;
const FORMATS = ["document", "report", "foundry", "csv", "junit", "md", "html"];
const EVALUATED_AT = "2026-01-02T03:04:05Z";

const cases = [
  { name: "examples/m365-demo.json", dataset: demo, options: {} },
  { name: "examples/foundry-demo.jsonl", dataset: foundryRows, options: { config: foundryConfig } },
  { name: "a generated 2 000-item document", dataset: generated, options: {} },
  { name: "a document with threads, skipped and invalid items", dataset: mixed, options: {} },
  { name: "a parsed document (read whole)", dataset: JSON.parse(new TextDecoder().decode(demo)), options: {} },
];

/** The chunks given to onRows as one set of rows, earlier chunks widened to the last columns. */
function concatenate(chunks) {
  const evaluators = chunks.at(-1)?.evaluators ?? [];
  const width = evaluators.length;
  const count = chunks.reduce((sum, chunk) => sum + chunk.index.length, 0);
  const rows = {
    index: new Int32Array(count),
    turn: new Int32Array(count),
    status: new Uint8Array(count),
    evaluators,
    result: new Uint8Array(count * width).fill(NOT_RUN),
    score: new Float64Array(count * width).fill(NaN),
  };
  let at = 0;
  for (const chunk of chunks) {
    assert.deepEqual(chunk.evaluators, evaluators.slice(0, chunk.evaluators.length), "columns only grow");
    const chunkWidth = chunk.evaluators.length;
    rows.index.set(chunk.index, at);
    rows.turn.set(chunk.turn, at);
    rows.status.set(chunk.status, at);
    for (let row = 0; row < chunk.index.length; row += 1) {
      const from = row * chunkWidth;
      rows.result.set(chunk.result.subarray(from, from + chunkWidth), (at + row) * width);
      rows.score.set(chunk.score.subarray(from, from + chunkWidth), (at + row) * width);
    }
    at += chunk.index.length;
  }
  return rows;
}

function assertRowsMatch(rows, report) {
  assert.ok(rows.index instanceof Int32Array && rows.turn instanceof Int32Array);
  assert.ok(rows.status instanceof Uint8Array && rows.result instanceof Uint8Array);
  assert.ok(rows.score instanceof Float64Array);
  const width = rows.evaluators.length;
  assert.equal(rows.index.length, report.items.length);
  assert.equal(rows.result.length, report.items.length * width);
  assert.equal(rows.score.length, report.items.length * width);
  const seen = [];
  for (const outcome of report.items) {
    for (const result of outcome.results) if (!seen.includes(result.evaluator)) seen.push(result.evaluator);
  }
  assert.deepEqual(rows.evaluators, seen, "columns in first-seen order");
  report.items.forEach((outcome, row) => {
    assert.equal(rows.index[row], outcome.index, `index of entry ${row}`);
    assert.equal(rows.turn[row], outcome.turn ?? -1, `turn of entry ${row}`);
    assert.equal(rows.status[row], outcome.status === null ? CODES.skipped : CODES[outcome.status], `status of entry ${row}`);
    rows.evaluators.forEach((name, column) => {
      const cell = row * width + column;
      const result = outcome.results.find((candidate) => candidate.evaluator === name);
      assert.equal(rows.result[cell], result ? CODES[result.result] : NOT_RUN, `${name} on entry ${row}`);
      const score = result?.score ?? NaN;
      assert.ok(Object.is(rows.score[cell], score), `${name}'s score on entry ${row}: ${rows.score[cell]} vs ${score}`);
    });
  });
}

for (const { name, dataset, options } of cases) {
  test(`evaluateRows matches evaluate on ${name}`, async () => {
    const evaluation = await agenteval.evaluate(dataset, options);
    const { report } = evaluation;
    const chunks = [];
    const progress = [];
    const rowsEvaluation = await agenteval.evaluateRows(dataset, {
      ...options,
      sliceMs: 1,
      onRows: (chunk) => chunks.push(chunk),
      onProgress: (done) => progress.push(done),
    });
    try {
      assert.equal(rowsEvaluation.dialect, report.dialect);
      assert.deepEqual(rowsEvaluation.summary, report.summary);
      assert.equal(rowsEvaluation.length, report.items.length);
      assertRowsMatch(rowsEvaluation.rows, report);
      report.items.forEach((outcome, position) => assert.deepEqual(rowsEvaluation.entry(position), outcome));
      assert.ok(chunks.length >= 1);
      assertRowsMatch(concatenate(chunks), report);
      assert.deepEqual(progress.at(-1), { done: report.items.length, total: report.items.length });
      for (const format of FORMATS) {
        const settings = { evaluatedAt: EVALUATED_AT, title: "Rows" };
        let expected;
        try {
          expected = evaluation.render(format, settings);
        } catch (error) {
          assert.throws(() => rowsEvaluation.render(format, settings), { code: error.code, message: error.message });
          continue;
        }
        assert.equal(rowsEvaluation.render(format, settings), expected, `format ${format}`);
        assert.equal(rowsEvaluation.render(format, settings), expected, `format ${format}, again`);
      }
      if (report.dialect === "m365") {
        assert.equal(rowsEvaluation.render("document"), evaluation.render("document"), "without evaluatedAt");
      }
    } finally {
      rowsEvaluation.free();
      evaluation.free();
    }
  });
}

test("a large document is scored in many chunks, each with the rows since the last", async () => {
  const chunks = [];
  const rowsEvaluation = await agenteval.evaluateRows(generated, { sliceMs: 0.5, onRows: (chunk) => chunks.push(chunk) });
  try {
    assert.ok(chunks.length > 1, `${chunks.length} chunks`);
    const indexes = concatenate(chunks).index;
    assert.deepEqual(Array.from(indexes), Array.from({ length: 2000 }, (_, index) => index));
  } finally {
    rowsEvaluation.free();
  }
});

test("entry refuses positions outside the run, and a freed evaluation refuses every call", async () => {
  const rowsEvaluation = await agenteval.evaluateRows(demo);
  for (const position of [-1, 1.5, rowsEvaluation.length]) {
    assert.throws(() => rowsEvaluation.entry(position), { code: "invalidArgument", message: /^position: expected an entry position/ });
  }
  assert.throws(() => rowsEvaluation.render("pdf"), { code: "invalidArgument" });
  rowsEvaluation.free();
  rowsEvaluation.free();
  assert.throws(() => rowsEvaluation.entry(0), { code: "invalidArgument", message: /already freed/ });
});

test("evaluateRows rejects a judge, unknown options, and a cancelled run", async () => {
  const judge = { kind: "openai", endpoint: "http://127.0.0.1:9", model: "m" };
  await assert.rejects(agenteval.evaluateRows(demo, { judge }), {
    code: "invalidArgument",
    message: /^options\.judge: evaluateRows runs the built-in evaluators only; score with a judge through evaluate\(\)/,
  });
  await assert.rejects(agenteval.evaluateRows(demo, { onResult: () => {} }), { code: "invalidArgument", message: /options\.onResult: unknown option/ });
  await assert.rejects(agenteval.evaluateRows(demo, { onRows: 3 }), { code: "invalidArgument", message: /options\.onRows/ });
  await assert.rejects(agenteval.evaluateRows(demo, { signal: AbortSignal.abort(new Error("stop")) }), /stop/);
  const controller = new AbortController();
  const started = agenteval.evaluateRows(generated, {
    sliceMs: 0.5,
    signal: controller.signal,
    onRows: () => controller.abort(new Error("stopped midway")),
  });
  await assert.rejects(started, /stopped midway/);
  const after = await agenteval.evaluateRows(demo);
  assert.ok(after.length > 0, "the module works after a cancelled run");
  after.free();
});

test("evaluateRows rejects invalid input with diagnostics, as evaluate does", async () => {
  for (const [dataset, options] of [
    ['{"schemaVersion": "1.6.0", "items": [', {}],
    ['{"items": "none"}', {}],
    [foundryRows, { config: { testing_criteria: "nope" } }],
    [undefined, {}],
  ]) {
    const expected = await agenteval.evaluate(dataset, options).then(
      () => assert.fail("evaluate accepts it"),
      (error) => error,
    );
    await assert.rejects(agenteval.evaluateRows(dataset, options), (error) => {
      assert.ok(error instanceof Error);
      assert.equal(error.code, expected.code);
      assert.equal(error.message, expected.message);
      assert.deepEqual(error.diagnostics, expected.diagnostics);
      return true;
    });
  }
});
