// The package's API in Node, through the built pkg/ as a user installs it (`import "agenteval"`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import * as agenteval from "agenteval";
import { document, examples, root } from "./helpers.js";

const demo = await readFile(join(examples, "m365-demo.json"), "utf8");
const foundryRows = await readFile(join(examples, "foundry-demo.jsonl"), "utf8");
const foundryConfig = JSON.parse(await readFile(join(examples, "foundry-config.json"), "utf8"));

function assertCode(code, pattern) {
  return (error) => {
    assert.ok(error instanceof Error, "a real Error");
    assert.equal(error.code, code);
    if (pattern) assert.match(error.message, pattern);
    return true;
  };
}

test("exports exactly the documented functions", () => {
  const names = Object.keys(agenteval).filter((name) => !name.startsWith("__")).sort();
  assert.deepEqual(names, ["applyReviews", "compare", "connectWorker", "evaluate", "evaluateRows", "evaluators", "generateRubric", "plan", "readReport", "render", "rescoreDataset", "run", "score", "scoreDocument", "scoreItem", "validate", "version"]);
  assert.match(agenteval.version(), /^\d+\.\d+\.\d+/);
});

test("evaluators lists every built-in with options and defaults", () => {
  const list = agenteval.evaluators();
  const partial = list.find((info) => info.name === "PartialMatch");
  assert.equal(partial.kind, "deterministic");
  assert.ok(Array.isArray(partial.inputs));
  const relevance = list.find((info) => info.name === "Relevance");
  assert.deepEqual(relevance.options.find((option) => option.name === "threshold")?.default, 3);
  assert.ok(list.some((info) => info.name === "builtin.f1_score"));
});

test("validate accepts text, bytes, buffers and parsed values alike", () => {
  const bytes = new TextEncoder().encode(demo);
  const forms = [demo, bytes, bytes.buffer.slice(0), JSON.parse(demo)];
  const results = forms.map((form) => agenteval.validate(form));
  for (const result of results) assert.deepEqual(result, results[0]);
  assert.equal(results[0].valid, true);
  assert.equal(results[0].dialect, "m365");
  assert.equal(results[0].items, 7);
});

test("validate returns the problems of a bad dataset instead of throwing", () => {
  const syntax = agenteval.validate('{"schemaVersion": "1.6.0",\n "items": [}');
  assert.equal(syntax.valid, false);
  assert.deepEqual(syntax.diagnostics[0].location, { kind: "lineColumn", line: 2, column: 12 });
  const rows = agenteval.validate(foundryRows, { config: foundryConfig });
  assert.equal(rows.dialect, "foundry");
  assert.equal(rows.valid, true);
  const noConfig = agenteval.validate(foundryRows);
  assert.equal(noConfig.valid, false);
  assert.match(noConfig.diagnostics[0].message, /testing_criteria/);
});

test("misuse throws an Error with a code and a message naming the field", () => {
  assert.throws(() => agenteval.validate(undefined), assertCode("invalidArgument", /^dataset: /));
  assert.throws(() => agenteval.validate(() => 1), assertCode("invalidArgument", /^dataset: /));
  assert.throws(() => agenteval.validate(demo, { confg: {} }), assertCode("invalidArgument", /^options\.confg: unknown option/));
  assert.throws(() => agenteval.validate(demo, "config"), assertCode("invalidArgument", /^options: /));
  assert.throws(() => agenteval.validate(foundryRows, { config: "{" }), assertCode("invalidConfig", /^options\.config: line 1/));
  assert.throws(() => agenteval.render({}, "md"), assertCode("invalidReport", /^report: dialect: required$/));
});

test("render names the path of a report field that does not fit", async () => {
  const report = await agenteval.score(demo);
  assert.equal(agenteval.render(report, "md"), agenteval.render(structuredClone(report), "md"));
  const broken = structuredClone(report);
  broken.items[1].results[0].result = "maybe";
  assert.throws(
    () => agenteval.render(broken, "md"),
    assertCode("invalidReport", /^report: items\[1\]\.results\[0\]\.result: expected one of "pass", "fail", "error", "skipped", got "maybe"$/),
  );
  broken.items[1].results[0].result = "pass";
  broken.items[0].index = 1.5;
  assert.throws(() => agenteval.render(broken, "md"), assertCode("invalidReport", /^report: items\[0\]\.index: expected a non-negative integer, got a number \(1\.5\)$/));
});

test("render reads every number of a report given back exactly, and leaves strings as they are", async () => {
  const report = await agenteval.score(demo);
  const bits = new BigUint64Array(1);
  const float = new Float64Array(bits.buffer);
  let state = 0x9e3779b97f4a7c15n;
  const random = [];
  while (random.length < 4000) {
    state ^= (state << 13n) & 0xffffffffffffffffn;
    state ^= state >> 7n;
    state ^= (state << 17n) & 0xffffffffffffffffn;
    bits[0] = state;
    if (Number.isFinite(float[0])) random.push(float[0]);
  }
  const special = [0.1 + 0.2, 1e-7, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -0, 2 ** 53 + 2, 2 ** 64, -(2 ** 63), 1e21, 123456789012345680000, 0.9411764705882353];
  const result = report.items[0].results.find((entry) => entry.score !== null);
  assert.ok(result, "a result with a score");
  const strings = ["\u0000number:5", "number:1", "1e3"];
  result.details = { ...result.details, numbers: [...special, ...random], strings };
  for (const score of [...special, ...random.slice(0, 200)]) {
    result.score = score;
    const written = JSON.parse(agenteval.render(report, "report"));
    const back = written.items[0].results.find((entry) => entry.evaluator === result.evaluator);
    assert.ok(Object.is(back.score, score === 0 ? 0 : score), `score ${score}: ${back.score}`);
    if (score === special[0]) {
      back.details.numbers.forEach((number, index) => {
        const sent = result.details.numbers[index];
        assert.ok(Object.is(number, sent === 0 ? 0 : sent), `details.numbers[${index}] ${sent}: ${number}`);
      });
      assert.deepEqual(back.details.strings, strings);
    }
  }
});

test("score rejects unusable input with coded errors", async () => {
  await assert.rejects(agenteval.score("[1, 2"), assertCode("invalidDataset", /^dataset: line 1/));
  await assert.rejects(agenteval.score(demo, { onResult: "print" }), assertCode("invalidArgument", /^options\.onResult: expected a function/));
  await assert.rejects(agenteval.score(demo, { signal: {} }), assertCode("invalidArgument", /^options\.signal: /));
  await assert.rejects(agenteval.score(demo, { custom: { PartialMatch: () => 1 } }), assertCode("invalidArgument", /^options\.custom\.PartialMatch: .*collides/));
  await assert.rejects(agenteval.score(demo, { sliceMs: -1 }), assertCode("invalidArgument", /^options\.sliceMs: /));
  const error = await agenteval.score('{"items": 3').catch((error) => error);
  assert.ok(Array.isArray(error.diagnostics) && error.diagnostics.length > 0);
});

test("score resolves to the run report, the same for every input form", async () => {
  const report = await agenteval.score(demo);
  assert.deepEqual(Object.keys(report), ["tool", "dialect", "summary", "items"]);
  assert.equal(report.tool.name, "agenteval");
  assert.equal(report.summary.items, report.items.length);
  assert.deepEqual(await agenteval.score(JSON.parse(demo)), report);
  assert.deepEqual(await agenteval.score(new TextEncoder().encode(demo)), report);
  assert.deepEqual(JSON.parse(JSON.stringify(report)), report, "plain JSON-compatible objects");
  const rows = await agenteval.score(foundryRows, { config: JSON.stringify(foundryConfig) });
  assert.equal(rows.dialect, "foundry");
  assert.deepEqual(rows.summary.evaluators && Object.keys(rows.summary.evaluators), ["f1", "rougeL", "relevance"]);
});

test("score streams entries in order with progress, and keeps the event loop turning", async () => {
  const data = document(20000);
  const seen = [];
  const progress = [];
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 1);
  const report = await agenteval.score(data, {
    onResult: (outcome) => seen.push(outcome.index),
    onProgress: (update) => progress.push(update),
    sliceMs: 4,
  });
  clearInterval(timer);
  assert.equal(seen.length, 20000);
  assert.deepEqual(seen.slice(0, 3), [0, 1, 2]);
  assert.deepEqual(report.items.map((item) => item.index), seen);
  assert.ok(progress.length > 2, `progress reported ${progress.length} times`);
  assert.deepEqual(progress.at(-1), { done: 20000, total: 20000 });
  for (let i = 1; i < progress.length; i += 1) assert.ok(progress[i].done >= progress[i - 1].done);
  assert.ok(ticks > 2, `timers ran ${ticks} times during the run`);
});

test("an AbortSignal cancels a run before and during scoring", async () => {
  const before = new AbortController();
  before.abort();
  await assert.rejects(agenteval.score(demo, { signal: before.signal }), { name: "AbortError" });

  const during = new AbortController();
  let results = 0;
  const run = agenteval.score(document(50000), {
    signal: during.signal,
    sliceMs: 2,
    onResult: () => {
      results += 1;
      if (results === 100) during.abort();
    },
  });
  await assert.rejects(run, { name: "AbortError" });
  assert.ok(results < 50000, `stopped after ${results} entries`);

  const reason = new AbortController();
  const itemWithSlow = agenteval.scoreItem({ prompt: "p", response: "r" }, ["slow"], {
    custom: { slow: () => new Promise(() => {}) },
    signal: reason.signal,
  });
  setTimeout(() => reason.abort(new Error("user cancelled")), 10);
  await assert.rejects(itemWithSlow, /user cancelled/);
});

test("custom evaluators run sync or async and their results are validated", async () => {
  const calls = [];
  const custom = {
    longEnough: (input, options) => input.response.length >= (options.options?.min ?? 3),
    scored: async (input, options, context) => {
      calls.push(context);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { score: 0.8, reason: `scored ${context.evaluator}`, details: { words: input.response.split(" ").length } };
    },
    wrong: () => "yes",
    throws: () => {
      throw new Error("boom");
    },
    rejects: async () => Promise.reject(new TypeError("no network")),
  };
  const outcome = await agenteval.scoreItem(
    { prompt: "What is 2+2?", response: "four", expected_response: "4" },
    { longEnough: { options: { min: 10 } }, scored: { threshold: 0.5 }, wrong: {}, throws: {}, rejects: {} },
    { custom },
  );
  const [longEnough, scored, wrong, throws, rejects] = outcome.results;
  assert.equal(longEnough.result, "fail");
  assert.deepEqual(
    { result: scored.result, score: scored.score, threshold: scored.threshold, reason: scored.reason, details: scored.details },
    { result: "pass", score: 0.8, threshold: 0.5, reason: "scored scored", details: { words: 1 } },
  );
  assert.equal(wrong.error.code, "invalidEvaluatorResult");
  assert.equal(throws.error.code, "evaluatorError");
  assert.match(throws.error.message, /boom/);
  assert.match(rejects.error.message, /no network/);
  assert.equal(outcome.status, "partial");
  assert.deepEqual(calls, [{ evaluator: "scored", index: 0, turn: null }]);
});

test("custom evaluators named in a dataset run on every item and turn", async () => {
  const dataset = {
    schemaVersion: "1.9.0",
    default_evaluators: { polite: { threshold: 1 } },
    items: [
      { prompt: "a", response: "Thank you for asking." },
      { turns: [{ prompt: "b", response: "No." }, { prompt: "c", response: "Thanks!" }] },
    ],
  };
  const report = await agenteval.score(dataset, {
    custom: { polite: (input) => (/thank/i.test(input.response) ? 1 : 0) },
  });
  assert.deepEqual(
    report.items.map((item) => [item.index, item.turn, item.status]),
    [[0, null, "pass"], [1, 0, "fail"], [1, 1, "pass"]],
  );
  assert.deepEqual(report.summary.evaluators.polite.pass_rate, 2 / 3);
  const missing = await agenteval.score(dataset);
  assert.equal(missing.items[0].results[0].error.code, "evaluatorLoadError");
});

test("score reads a document given as text one item at a time, with the report of the document read whole", async () => {
  const dataset = {
    schemaVersion: "1.11.0",
    default_evaluators: { ExactMatch: {}, polite: { threshold: 1 } },
    items: [
      { prompt: "a", response: "Thank you.", expected_response: "Thank you." },
      { turns: [{ prompt: "b", response: "No." }, { prompt: "c", response: "Thanks!" }] },
      { prompt: 3 },
    ],
  };
  const custom = { polite: async (input) => (/thank/i.test(input.response) ? 1 : 0) };
  const run = async (input) => {
    const progress = [];
    const report = await agenteval.score(input, { custom, sliceMs: 0.000001, onProgress: (update) => progress.push(update) });
    return { report, progress };
  };
  const whole = await run(dataset);
  const text = await run(JSON.stringify(dataset));
  const bytes = await run(new TextEncoder().encode(JSON.stringify(dataset)));
  assert.deepEqual(text.report, whole.report);
  assert.deepEqual(bytes.report, whole.report);
  assert.deepEqual(whole.report.items.map((item) => [item.index, item.turn, item.status]), [
    [0, null, "pass"], [1, 0, "partial"], [1, 1, "partial"], [2, null, "error"],
  ]);
  assert.ok(whole.progress.every(({ total }) => total === 4), JSON.stringify(whole.progress));
  // Read item by item, the thread counts as one entry until its turns are read.
  assert.deepEqual(text.progress[0], { done: 1, total: 3 });
  assert.deepEqual(text.progress.at(-1), { done: 4, total: 4 });
  for (const { done, total } of text.progress) assert.ok(done <= total && total <= 4, JSON.stringify(text.progress));
});

test("scoreItem refuses threads, bad items and bad selections", async () => {
  await assert.rejects(agenteval.scoreItem({ turns: [] }, ["ExactMatch"]), assertCode("invalidItem", /^item\.turns: /));
  await assert.rejects(agenteval.scoreItem("text", ["ExactMatch"]), assertCode("invalidItem"));
  await assert.rejects(agenteval.scoreItem({ prompt: "p", response: "r" }, []), assertCode("invalidArgument", /^evaluators: /));
  await assert.rejects(agenteval.scoreItem({ prompt: "p", response: "r" }, { ExactMatch: 1 }), assertCode("invalidArgument", /^evaluators\.ExactMatch: /));
});

test("render writes every CLI format", async () => {
  const report = await agenteval.score(demo);
  const scored = JSON.parse(agenteval.render(report, "document", { dataset: demo, evaluatedAt: "2026-01-02T03:04:05Z" }));
  assert.equal(scored.metadata.evaluatedAt, "2026-01-02T03:04:05Z");
  assert.equal(scored.items.length, JSON.parse(demo).items.length);
  assert.deepEqual(JSON.parse(agenteval.render(report, "report")), report);
  assert.match(agenteval.render(report, "csv"), /^index,turn,status/);
  assert.match(agenteval.render(report, "junit", { title: "demo" }), /<testsuites[^>]*name="demo"/);
  assert.match(agenteval.render(report, "md"), /^# agenteval/);
  assert.match(agenteval.render(report, "html"), /^<!DOCTYPE html>/i);
  assert.throws(() => agenteval.render(report, "document"), assertCode("invalidArgument", /^options\.dataset: /));
  assert.throws(() => agenteval.render(report, "foundry", { dataset: demo }), assertCode("invalidArgument", /^options\.dataset: /));
  assert.throws(() => agenteval.render(report, "xml"), assertCode("invalidArgument", /^format: expected one of document, report/));
  const rows = await agenteval.score(foundryRows, { config: foundryConfig });
  const lines = agenteval.render(rows, "foundry", { dataset: foundryRows, config: foundryConfig }).trimEnd().split("\n");
  assert.equal(lines.length, rows.items.length);
  assert.ok("f1_result" in JSON.parse(lines[0]));
});

const scoredFixtures = join(root, "tests/fixtures/scored");

/** The entries of a run as a scored document holds them: without its skipped results. */
function asStored(items) {
  return items.map((item) => ({ ...item, results: item.results.filter((result) => result.result !== "skipped") }));
}

test("readReport opens a scored document as the report of the run that wrote it, in every input form", async () => {
  const report = await agenteval.score(demo);
  const scored = agenteval.render(report, "document", { dataset: demo, evaluatedAt: "2026-01-02T03:04:05Z" });
  const forms = [scored, new TextEncoder().encode(scored), new TextEncoder().encode(scored).buffer, JSON.parse(scored)];
  const reports = await Promise.all(forms.map((form) => agenteval.readReport(form)));
  for (const read of reports) assert.deepEqual(read, reports[0]);
  const read = reports[0];
  assert.equal(read.dialect, "m365");
  assert.deepEqual(read.tool, report.tool);
  assert.deepEqual(read.items, asStored(report.items));
  for (const key of ["items", "pass", "fail", "partial", "error"]) assert.equal(read.summary[key], report.summary[key], key);
  assert.ok(report.items.some((item) => item.results.some((result) => result.result === "skipped")), "the demo has skipped results");
  const ran = Object.entries(report.summary.evaluators).filter(([, tally]) => tally.pass + tally.fail + tally.error > 0);
  assert.deepEqual(Object.keys(read.summary.evaluators).sort(), ran.map(([name]) => name).sort());
  for (const [name, tally] of ran) {
    assert.deepEqual(read.summary.evaluators[name], { ...tally, skipped: 0 }, name);
  }
  assert.match(agenteval.render(read, "md"), /^# agenteval/);
  assert.deepEqual(JSON.parse(agenteval.render(read, "report")), read);
});

test("readReport maps runevals results: runevals' own verdict and threshold, not-applicable skipped, the rest in details", async () => {
  const read = await agenteval.readReport(await readFile(join(scoredFixtures, "runevals-judged.json")));
  assert.deepEqual(read.items.map((item) => item.status), ["pass", "fail", "fail", "error"]);
  const groundedness = read.items[1].results.find((result) => result.evaluator === "Groundedness");
  assert.deepEqual([groundedness.result, groundedness.score, groundedness.threshold], ["fail", 3, 4]);
  assert.equal(groundedness.details.groundedness_result, "pass");
  const toolCalls = read.items[2].results.find((result) => result.evaluator === "ToolCallAccuracy");
  assert.equal(toolCalls.result, "skipped");
  assert.equal(toolCalls.reason, "No tool calls found in response or provided tool_calls.");
  assert.deepEqual(read.summary.evaluators.Groundedness, { pass: 1, fail: 2, error: 0, skipped: 0, pass_rate: 1 / 3, mean: 10 / 3, min: 2, max: 5 });
  const partial = await agenteval.readReport(await readFile(join(scoredFixtures, "runevals-partial-match.json"), "utf8"));
  assert.deepEqual(partial.items.map((item) => item.results.map((result) => [result.evaluator, result.result, result.score])), [
    [["PartialMatch", "pass", 0.7143]],
    [["PartialMatch", "fail", 0.1]],
    [["PartialMatch", "fail", 0.8]],
    [],
  ]);
});

test("readReport keeps every item of a malformed file and says where each stored result is wrong", async () => {
  const read = await agenteval.readReport(await readFile(join(scoredFixtures, "runevals-malformed.json"), "utf8"));
  assert.equal(read.items.length, 4);
  const coherence = read.items[0].results.find((result) => result.evaluator === "Coherence");
  assert.equal(coherence.error.code, "invalidStoredResult");
  assert.match(coherence.error.message, /^at \/individual_results\/0\/results\/coherence_score: expected `result` or `coherence_result`/);
  assert.deepEqual(coherence.details.stored, { coherence: 4, coherence_result: "maybe" });
  assert.deepEqual(read.items.map((item) => item.status), ["partial", "error", "error", "error"]);
  assert.match(read.items[1].problem, /^at \/individual_results\/1: expected a result object/);
  const document = await agenteval.readReport(await readFile(join(scoredFixtures, "m365-scored.json")));
  assert.equal(document.items.find((item) => item.index === 2).problem, "Agent request failed: HTTP 503 Service Unavailable");
  assert.equal(document.items.find((item) => item.index === 1).results[1].error.code, "judgeTimeout");
});

test("readReport rejects a dataset without scores as notScored, naming what it looked for, and bad input with codes", async () => {
  for (const [dataset, pattern] of [
    [demo, /^dataset: at \/items: the dataset carries no scores \(no item or turn has `scores` or `status`\); expected an M365 eval document/],
    [foundryRows, /^dataset: the dataset carries no scores \(it is JSON Lines \(Foundry rows\)\)/],
    [[{ prompt: "p", expected_response: "e" }], /\(it is a legacy M365 prompt list\)/],
  ]) {
    await assert.rejects(agenteval.readReport(dataset), (error) => {
      assertCode("notScored", pattern)(error);
      assert.match(error.message, /`individual_results`.*score the dataset instead$/);
      assert.equal(error.diagnostics.length, 1);
      return true;
    });
  }
  await assert.rejects(agenteval.readReport('{"items": ['), assertCode("invalidDataset", /^dataset: line 1, column/));
  await assert.rejects(agenteval.readReport('{"individual_results": {}}'), assertCode("invalidDataset", /^dataset: at \/individual_results: expected the array of runevals results/));
  await assert.rejects(agenteval.readReport(undefined), assertCode("invalidArgument", /^dataset: expected a dataset/));
});

test("evaluate keeps the run: its report is score's, and render writes every format from it", async () => {
  const report = await agenteval.score(demo);
  const seen = [];
  const evaluation = await agenteval.evaluate(demo, { onResult: (outcome) => seen.push(outcome.index) });
  assert.deepEqual(evaluation.report, report);
  assert.equal(evaluation.report, evaluation.report, "the same object on every read");
  assert.deepEqual(seen, report.items.map((item) => item.index));
  const options = { evaluatedAt: "2026-01-02T03:04:05Z", title: "demo" };
  for (const format of ["document", "report", "csv", "junit", "md", "html"]) {
    assert.equal(
      evaluation.render(format, options),
      agenteval.render(report, format, { dataset: demo, ...options }),
      `${format}: the same text as render()`,
    );
  }
  assert.throws(() => evaluation.render("foundry"), assertCode("invalidArgument", /^format: .*`foundry` writes into Foundry rows/));
  assert.throws(() => evaluation.render("xml"), assertCode("invalidArgument", /^format: expected one of document/));
  assert.throws(() => evaluation.render("md", { dataset: demo }), assertCode("invalidArgument", /^options\.dataset: unknown option/));
  evaluation.free();
  assert.throws(() => evaluation.render("md"), assertCode("invalidArgument", /^evaluation: already freed/));
  assert.throws(() => evaluation.report, assertCode("invalidArgument", /^evaluation: already freed/));
  evaluation.free();
});

test("evaluate keeps Foundry rows, runs custom evaluators, is disposable and rejects like score", async () => {
  const custom = { polite: (input) => /thank/i.test(input.response) };
  const dataset = { schemaVersion: "1.9.0", default_evaluators: { polite: {} }, items: [{ prompt: "Hi", response: "Thanks!" }] };
  const evaluation = await agenteval.evaluate(dataset, { custom });
  try {
    assert.equal(evaluation.report.items[0].status, "pass");
    assert.match(evaluation.render("csv"), /polite/);
  } finally {
    evaluation.free();
  }
  const rows = await agenteval.evaluate(foundryRows, { config: foundryConfig });
  const lines = rows.render("foundry").trimEnd().split("\n");
  assert.equal(lines.length, rows.report.items.length);
  const jsonLines = (text) => text.trimEnd().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(jsonLines(rows.render("foundry")), jsonLines(agenteval.render(rows.report, "foundry", { dataset: foundryRows, config: foundryConfig })));
  assert.throws(() => rows.render("document"), assertCode("invalidArgument", /^format: .*an M365 eval document/));
  rows[Symbol.dispose]();
  assert.throws(() => rows.render("md"), assertCode("invalidArgument", /^evaluation: already freed/));
  await assert.rejects(agenteval.evaluate("[1, 2"), assertCode("invalidDataset"));
  await assert.rejects(agenteval.evaluate(demo, { onresult: () => {} }), assertCode("invalidArgument", /^options\.onresult: unknown option/));
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(agenteval.evaluate(demo, { signal: controller.signal }), { name: "AbortError" });
});

test("scoreDocument writes what evaluate then render writes, with progress, for every input form", async () => {
  const evaluatedAt = "2026-11-30T00:00:00Z";
  const evaluation = await agenteval.evaluate(demo);
  const expected = evaluation.render("document", { evaluatedAt });
  const summary = evaluation.report.summary;
  evaluation.free();
  const progress = [];
  const streamed = await agenteval.scoreDocument(demo, { evaluatedAt, sliceMs: 0.001, onProgress: (p) => progress.push(p) });
  assert.equal(streamed.document, expected);
  assert.deepEqual(streamed.summary, summary);
  assert.deepEqual(streamed.diagnostics, agenteval.validate(demo).diagnostics);
  assert.deepEqual(streamed.diagnostics.map((diagnostic) => diagnostic.severity), ["warning"]);
  assert.match(streamed.diagnostics[0].message, /^1 of \d+ entries \(items and turns\) have no response/);
  const total = JSON.parse(demo).items.length;
  assert.ok(progress.length >= 2, `${progress.length} progress calls`);
  assert.deepEqual(progress.at(-1), { done: total, total });
  assert.ok(progress.every((p, i) => i === 0 || p.done >= progress[i - 1].done));
  const bytes = await agenteval.scoreDocument(new TextEncoder().encode(demo), { evaluatedAt });
  assert.equal(bytes.document, expected);
  const parsed = await agenteval.scoreDocument(JSON.parse(demo), { evaluatedAt });
  assert.equal(parsed.document, expected, "a parsed object is read whole, with the same result");
  const asBytes = await agenteval.scoreDocument(demo, { evaluatedAt, output: "bytes" });
  assert.ok(asBytes.document instanceof Uint8Array);
  assert.equal(new TextDecoder().decode(asBytes.document), expected);
  assert.deepEqual(asBytes.summary, summary);
  const legacyBytes = await agenteval.scoreDocument(JSON.parse(demo), { evaluatedAt, output: "bytes" });
  assert.equal(new TextDecoder().decode(legacyBytes.document), expected, "a document read whole, as bytes");
});

/** A 6 000-item document whose scored output spans several chunks, with text in every UTF-8 length. */
function multiChunkDocument() {
  const response = "ä ß ΑΣ 中文 😀 ok ".repeat(40);
  return JSON.stringify({
    schemaVersion: "1.11.0",
    default_evaluators: { ExactMatch: {}, PartialMatch: {} },
    items: Array.from({ length: 6000 }, (_, i) => ({ prompt: `q${i} ✓`, response, expected_response: `${response}${i}` })),
  });
}

test("scoreDocument's batches double while steps are quick, halve when slow, and stay within 1 to 1024 items", async () => {
  const snippets = join(root, "pkg", "snippets");
  const [snippet] = await readdir(snippets);
  const { nextBatch } = await import(pathToFileURL(join(snippets, snippet, "js", "drive.js")).href);
  assert.equal(nextBatch(1, 0.5, 8), 2, "under an eighth of a slice");
  assert.equal(nextBatch(64, 0.99, 8), 128);
  assert.equal(nextBatch(64, 1, 8), 64, "between an eighth and a half");
  assert.equal(nextBatch(64, 4, 8), 64);
  assert.equal(nextBatch(64, 4.01, 8), 32, "over half a slice");
  assert.equal(nextBatch(1, 100, 8), 1, "never below one item");
  assert.equal(nextBatch(1024, 0, 8), 1024, "never above 1024 items");
  let batch = 1;
  for (let step = 0; step < 20; step += 1) batch = nextBatch(batch, 0.01, 8);
  assert.equal(batch, 1024);
});

test("scoreDocument writes the same in batches of items (quick steps) as one item per step (slow ones), and keeps the event loop turning", async () => {
  const evaluatedAt = "2026-11-30T00:00:00Z";
  const data = JSON.stringify(document(20000));
  const progress = [];
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 1);
  const batched = await agenteval.scoreDocument(data, { evaluatedAt, output: "bytes", sliceMs: 4, onProgress: (update) => progress.push(update) });
  clearInterval(timer);
  const itemByItem = await agenteval.scoreDocument(data, { evaluatedAt, output: "bytes", sliceMs: 0.000001 });
  assert.deepEqual(batched.document, itemByItem.document);
  assert.deepEqual(batched.summary, itemByItem.summary);
  assert.ok(progress.length > 2, `progress reported ${progress.length} times`);
  assert.deepEqual(progress.at(-1), { done: 20000, total: 20000 });
  for (let i = 1; i < progress.length; i += 1) assert.ok(progress[i].done > progress[i - 1].done);
  assert.ok(ticks > 2, `timers ran ${ticks} times during the run`);
});

test("scoreDocument output larger than a chunk, with text in every UTF-8 length, is whole as text and bytes", async () => {
  const evaluatedAt = "2026-11-30T00:00:00Z";
  const text = multiChunkDocument();
  const evaluation = await agenteval.evaluate(text);
  const expected = evaluation.render("document", { evaluatedAt });
  evaluation.free();
  const bytesExpected = new TextEncoder().encode(expected);
  assert.ok(bytesExpected.length > 8 << 20, `${bytesExpected.length} bytes: more than two chunks`);
  const asText = await agenteval.scoreDocument(text, { evaluatedAt, output: "string" });
  assert.equal(asText.document, expected);
  const asBytes = await agenteval.scoreDocument(text, { evaluatedAt, output: "bytes" });
  assert.ok(Buffer.from(bytesExpected).equals(asBytes.document));
});

test("scoreDocument output stays whole when items grow or shrink past the size projected from the first ones", async () => {
  const evaluatedAt = "2026-11-30T00:00:00Z";
  const document = (lengthOf) =>
    JSON.stringify({
      schemaVersion: "1.11.0",
      default_evaluators: { ExactMatch: {} },
      items: Array.from({ length: 3000 }, (_, i) => {
        const response = "x".repeat(lengthOf(i));
        return { prompt: `q${i}`, response, expected_response: response };
      }),
    });
  for (const [name, lengthOf] of [
    ["growing", (i) => (i < 1000 ? 2000 : 20000)],
    ["shrinking", (i) => (i < 1000 ? 20000 : 10)],
  ]) {
    const text = document(lengthOf);
    const evaluation = await agenteval.evaluate(text);
    const expected = new TextEncoder().encode(evaluation.render("document", { evaluatedAt }));
    evaluation.free();
    const asBytes = await agenteval.scoreDocument(text, { evaluatedAt, output: "bytes" });
    assert.ok(Buffer.from(expected).equals(asBytes.document), `${name}: the bytes`);
    assert.ok(asBytes.document.buffer.byteLength <= expected.length * 1.125, `${name}: no more than an eighth left over`);
    const asText = await agenteval.scoreDocument(text, { evaluatedAt });
    assert.equal(asText.document, new TextDecoder().decode(expected), `${name}: the text`);
  }
});

test("scoreDocument's output buffer keeps every byte when the size projected from the first items cannot be allocated", async () => {
  const snippets = join(root, "pkg", "snippets");
  const [snippet] = await readdir(snippets);
  const { DocumentSink } = await import(pathToFileURL(join(snippets, snippet, "js", "drive.js")).href);
  const text = "scored ✓ document";
  const bytes = new TextEncoder().encode(text);
  const sink = new DocumentSink({ buffer: bytes.buffer });
  sink.append(0, 7, 2 ** 60);
  sink.append(7, bytes.length - 7, 2 ** 60);
  assert.equal(sink.take("string"), text);
  assert.deepEqual([...sink.take("bytes")], [...bytes]);
});

/** A WritableStream that keeps its chunks; `write` may wait (`delay`) or fail (`failAt`). */
function collectingStream({ delay = 0, failAt = -1 } = {}) {
  const state = { chunks: [], closed: false, aborted: undefined };
  const stream = new WritableStream(
    {
      async write(chunk) {
        if (state.chunks.length === failAt) throw new Error("disk full");
        if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
        state.chunks.push(chunk);
      },
      close() {
        state.closed = true;
      },
      abort(reason) {
        state.aborted = reason;
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
  return { stream, state };
}

test("scoreDocument writes the scored document to a WritableStream in chunks and closes it", async () => {
  const evaluatedAt = "2026-11-30T00:00:00Z";
  const text = multiChunkDocument();
  const asBytes = await agenteval.scoreDocument(text, { evaluatedAt, output: "bytes" });
  const { stream, state } = collectingStream({ delay: 1 });
  const progress = [];
  const streamed = await agenteval.scoreDocument(text, { evaluatedAt, output: stream, onProgress: (p) => progress.push(p) });
  assert.deepEqual(Object.keys(streamed).sort(), ["diagnostics", "summary"]);
  assert.deepEqual(streamed.summary, asBytes.summary);
  assert.equal(state.closed, true);
  assert.ok(state.chunks.length >= 3, `${state.chunks.length} chunks`);
  assert.ok(state.chunks.every((chunk) => chunk instanceof Uint8Array));
  assert.ok(Buffer.concat(state.chunks).equals(asBytes.document), "the chunks are the document");
  assert.deepEqual(progress.at(-1), { done: 6000, total: 6000 });
  assert.equal(stream.locked, false, "the writer's lock is released");
  const legacy = '[{"prompt": "p", "response": "r", "expected_response": "r", "evaluators": {"ExactMatch": {}}}]';
  const legacyBytes = await agenteval.scoreDocument(legacy, { evaluatedAt, output: "bytes" });
  const legacyStream = collectingStream();
  await agenteval.scoreDocument(legacy, { evaluatedAt, output: legacyStream.stream });
  assert.ok(Buffer.concat(legacyStream.state.chunks).equals(legacyBytes.document), "a document read whole, to a stream");
  assert.equal(legacyStream.state.closed, true);
});

test("scoreDocument to a stream waits for its backpressure, rejects with its error, and aborts it when cancelled", async () => {
  const snippets = join(root, "pkg", "snippets");
  const [snippet] = await readdir(snippets);
  const { StreamSink } = await import(pathToFileURL(join(snippets, snippet, "js", "drive.js")).href);
  let release;
  const blocked = new WritableStream({ write: () => new Promise((resolve) => (release = resolve)) }, new CountQueuingStrategy({ highWaterMark: 1 }));
  const bytes = new TextEncoder().encode("abcdef");
  const sink = new StreamSink({ buffer: bytes.buffer }, blocked);
  sink.append(0, 3);
  sink.append(3, 3);
  let ready = false;
  const waiting = sink.ready().then(() => (ready = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(ready, false, "the sink waits while the stream is full");
  release();
  await new Promise((resolve) => setTimeout(resolve, 0));
  release();
  await waiting;
  assert.equal(ready, true);

  const large = JSON.stringify({
    schemaVersion: "1.11.0",
    default_evaluators: { ExactMatch: {} },
    items: Array.from({ length: 3000 }, (_, i) => ({ prompt: `q${i}`, response: "x".repeat(4000), expected_response: "x" })),
  });
  const failing = collectingStream({ failAt: 1 });
  await assert.rejects(agenteval.scoreDocument(large, { output: failing.stream }), /disk full/);
  assert.equal(failing.state.closed, false);
  const controller = new AbortController();
  const cancelled = collectingStream();
  await assert.rejects(
    agenteval.scoreDocument(large, { output: cancelled.stream, sliceMs: 0.001, signal: controller.signal, onProgress: () => controller.abort(new Error("stop")) }),
    /stop/,
  );
  assert.match(String(cancelled.state.aborted), /stop/, "the stream is aborted with the reason");
  assert.equal(cancelled.state.closed, false);
  await assert.rejects(agenteval.scoreDocument(demo, { output: {} }), assertCode("invalidArgument", /^options\.output: expected "string", "bytes" or a WritableStream$/));
  const after = await agenteval.scoreDocument(demo, { output: "bytes" });
  assert.equal(after.summary.items, 7, "the module works after failed and cancelled runs");
});

/**
 * Checks that `problem`, at the first item's response, is the only problem of a two-item dataset:
 * `validate` names it, `score` and `scoreDocument` make that item an error and pass the other.
 * Resolves to `scoreDocument`'s result.
 */
async function assertFirstResponseIsTheOnlyProblem(form, problem) {
  const checked = agenteval.validate(form);
  assert.equal(checked.valid, false);
  assert.equal(checked.diagnostics[0].message, problem);
  assert.equal(checked.diagnostics[0].location.pointer, "/items/0/response");
  const report = await agenteval.score(form);
  assert.deepEqual(report.items.map((item) => item.status), ["error", "pass"]);
  assert.equal(report.items[0].problem, `/items/0/response: ${problem}`);
  const scored = await agenteval.scoreDocument(form);
  assert.deepEqual(JSON.parse(scored.document).items.map((item) => item.status), ["error", "pass"]);
  return scored;
}

test("a string past the input limit makes only its item an error, in every input form", async () => {
  const huge = "x".repeat(2 << 20);
  const object = {
    schemaVersion: "1.11.0",
    default_evaluators: { ExactMatch: {} },
    items: [{ prompt: "p", response: huge, expected_response: "r" }, { prompt: "q", response: "r", expected_response: "r" }],
  };
  const text = JSON.stringify(object);
  const problem = "string is 2097152 bytes long; the limit is 1048576 bytes (1 MiB)";
  for (const form of [text, new TextEncoder().encode(text), object]) {
    const { document } = await assertFirstResponseIsTheOnlyProblem(form, problem);
    assert.equal(JSON.parse(document).items[0].response, huge);
  }
});

test("a repeated key makes only its item an error, as text and as bytes, and is written once", async () => {
  const text = `{"schemaVersion": "1.11.0", "default_evaluators": {"ExactMatch": {}}, "items": [
    {"prompt": "p", "response": "b", "expected_response": "r", "response": "r"},
    {"prompt": "q", "response": "r", "expected_response": "r"}]}`;
  const problem = 'key "response" is held more than once in its object; expected each key once';
  for (const form of [text, new TextEncoder().encode(text)]) {
    const { document } = await assertFirstResponseIsTheOnlyProblem(form, problem);
    assert.equal(document.match(/"response":/g).length, 2);
    assert.equal(JSON.parse(document).items[0].response, "r");
  }
  await assert.rejects(
    agenteval.score('{"schemaVersion": "1.11.0", "schemaVersion": "1.11.0", "items": [{"prompt": "q"}]}'),
    assertCode("invalidDataset", /\/schemaVersion: key "schemaVersion" is held more than once/),
  );
});

test("scoreDocument reports bad items, reads legacy forms whole, rejects like score, and cancels", async () => {
  const withBadItem = JSON.stringify({
    schemaVersion: "1.11.0",
    default_evaluators: { ExactMatch: {} },
    items: [{ prompt: "p", response: "r", expected_response: "r" }, { prompt: 7 }],
  });
  const scored = await agenteval.scoreDocument(withBadItem);
  assert.deepEqual(JSON.parse(scored.document).items.map((item) => item.status), ["pass", "error"]);
  assert.equal(scored.summary.error, 1);
  assert.match(scored.diagnostics[0].message, /string/);
  const legacy = await agenteval.scoreDocument('[{"prompt": "p", "response": "r", "expected_response": "r", "evaluators": {"ExactMatch": {}}}]');
  assert.equal(JSON.parse(legacy.document).items[0].status, "pass");
  assert.match(legacy.diagnostics[0].message, /legacy/);
  await assert.rejects(agenteval.scoreDocument('{"schemaVersion": "1.11.0", "items": []}'), assertCode("invalidDataset", /items/));
  const foundryWithConfig = `${JSON.stringify(foundryConfig)}\n${foundryRows}`;
  await assert.rejects(agenteval.scoreDocument(foundryWithConfig), assertCode("invalidArgument", /Foundry/));
  await assert.rejects(agenteval.scoreDocument(demo, { onProgress: 3 }), assertCode("invalidArgument", /options\.onProgress/));
  await assert.rejects(agenteval.scoreDocument(demo, { colour: 1 }), assertCode("invalidArgument", /colour/));
  await assert.rejects(agenteval.scoreDocument(demo, { output: "blob" }), assertCode("invalidArgument", /^options\.output: expected "string", "bytes" or a WritableStream, got "blob"/));
  await assert.rejects(agenteval.scoreDocument(demo, { output: 1 }), assertCode("invalidArgument", /^options\.output: expected a string/));
  const controller = new AbortController();
  const large = JSON.stringify({
    schemaVersion: "1.11.0",
    default_evaluators: { PartialMatch: {} },
    items: Array.from({ length: 3000 }, (_, i) => ({ prompt: `q${i}`, response: "a b c", expected_response: "a b" })),
  });
  const running = agenteval.scoreDocument(large, {
    sliceMs: 0.001,
    signal: controller.signal,
    onProgress: ({ done }) => done > 0 && controller.abort(new Error("stop")),
  });
  await assert.rejects(running, /stop/);
  const after = await agenteval.scoreDocument(withBadItem);
  assert.equal(after.summary.items, 2, "the module works after a cancelled run");
});

test("a crash inside the module throws internalError and the next call works", async () => {
  assert.equal(typeof agenteval.__testPanic, "function", "the crash tests need the test build of pkg/ that `cargo xtask test` makes (feature crash-test)");
  assert.throws(() => agenteval.__testPanic(), (error) => {
    assert.equal(error.code, "internalError");
    assert.match(error.message, /deliberate panic/);
    assert.ok(error.cause instanceof WebAssembly.RuntimeError);
    return true;
  });
  assert.equal(agenteval.validate(demo).valid, true);
  const report = await agenteval.score(demo);
  assert.equal(report.items.length, 7);
  assert.throws(() => agenteval.__testPanic(), { code: "internalError" });
  assert.equal(agenteval.evaluators().length > 0, true);
});

test("a crash during a run ends that run with internalError and the next run works", async () => {
  const dataset = { schemaVersion: "1.9.0", default_evaluators: { probe: {} }, items: [{ prompt: "p", response: "r" }, { prompt: "q", response: "s" }] };
  await assert.rejects(agenteval.score(dataset, { custom: { probe: () => agenteval.__testPanic() } }), { code: "internalError" });
  const report = await agenteval.score(dataset, { custom: { probe: () => true } });
  assert.equal(report.summary.pass, 2);
});

test("floats come back exactly as written, from a document read item by item or whole", async () => {
  const values = [];
  const view = new DataView(new ArrayBuffer(8));
  const mask = (1n << 64n) - 1n;
  let state = 0x853c49e6748fea9bn;
  while (values.length < 3000) {
    state ^= (state << 13n) & mask;
    state ^= state >> 7n;
    state ^= (state << 17n) & mask;
    view.setBigUint64(0, state >> 1n);
    const value = view.getFloat64(0);
    if (Number.isFinite(value)) values.push(value.toPrecision(17));
  }
  const written = `[${values.join(", ")}]`;
  const item = `{"prompt": "p", "expected_response": "r", "response": "r", "extensions": {"v": ${written}}}`;
  const current = `{"schemaVersion": "1.11.0", "default_evaluators": {"ExactMatch": {}}, "items": [${item}]}`;
  const legacy = `[${item}]`;
  for (const dataset of [current, legacy]) {
    const scored = JSON.parse((await agenteval.scoreDocument(dataset)).document);
    assert.deepEqual(scored.items[0].extensions.v, JSON.parse(written));
  }
});

test("rescoreDataset turns runevals results into the document that scores them again; plan says which datasets are stored", async () => {
  const results = await readFile(join(scoredFixtures, "runevals-partial-match.json"), "utf8");
  const stored = await agenteval.readReport(results);
  const document = JSON.parse(agenteval.rescoreDataset(results, "run-1.json"));
  assert.equal(document.metadata.name, "run-1.json, scored again");
  assert.equal(document.items.length, stored.items.length);
  assert.deepEqual(
    document.items.map((item) => Object.keys(item.evaluators)),
    stored.items.map((entry) => entry.results.map((result) => result.evaluator)),
  );
  const plan = agenteval.plan(JSON.stringify(document));
  assert.equal(plan.dialect, "m365");
  assert.equal(plan.stored, false, "the document to score again carries no results");
  const rescored = await agenteval.score(JSON.stringify(document));
  assert.equal(rescored.items.length, stored.items.length);
  assert.equal(agenteval.rescoreDataset('{"schemaVersion": "1.11.0", "items": [{"prompt": "p"}]}'), undefined);
  assert.equal(agenteval.rescoreDataset("not json"), undefined);
  assert.equal(agenteval.plan(await readFile(join(scoredFixtures, "m365-scored.json"))).stored, true);
});
