// Copilot Studio test sets (CSV) through the package: every output format byte for byte as the
// native CLI writes it, the export read back to the same verdicts, and bad rows reported by row and
// column; with the local judge (`cargo xtask test` passes its URL and key in AGENTEVAL_JUDGE_URL
// and AGENTEVAL_JUDGE_KEY), GeneralQuality, CompareMeaning and TextSimilarity judged and written
// back byte for byte as the CLI writes them, and in headless Chromium the judged export's round
// trip: read, score, write, read back.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { packagePage, root } from "./helpers.js";

const cli = process.env.AGENTEVAL_CLI ?? join(root, "target/debug/agenteval");
const exportPath = "tests/fixtures/copilot-studio/export.csv";
const badPath = "tests/fixtures/copilot-studio/bad.csv";
const exportBytes = readFileSync(join(root, exportPath));

function runCli(args, input) {
  const result = spawnSync(cli, ["score", ...args], { cwd: root, encoding: "utf8", input });
  assert.ok(result.status === 0 || result.status === 1, `agenteval ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

/** What `agenteval score ARGS --no-judge-cache` prints against the local judge (as an Azure endpoint). */
function judgedCli(args) {
  const result = spawnSync(cli, ["score", ...args, "--no-judge-cache"], {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      AZURE_AI_OPENAI_ENDPOINT: process.env.AGENTEVAL_JUDGE_URL,
      AZURE_AI_MODEL_NAME: "gpt-4o-judge",
      AZURE_AI_API_KEY: process.env.AGENTEVAL_JUDGE_KEY,
      AZURE_AI_API_VERSION: "2024-10-21",
    },
  });
  assert.ok(result.status === 0 || result.status === 1, result.stderr);
  return result.stdout;
}

function verdicts(report) {
  return report.items.map((item) => [item.status, item.results.map((result) => [result.evaluator, result.result, result.score])]);
}

test("the export is scored in every format byte for byte as the CLI writes it", async () => {
  const evaluation = await agenteval.evaluate(exportBytes);
  try {
    assert.equal(evaluation.report.dialect, "copilot_studio");
    for (const format of ["copilot", "report", "csv", "junit", "md", "html"]) {
      const expected = runCli([exportPath, "--format", format]);
      assert.equal(evaluation.render(format, { title: exportPath }), expected, format);
    }
  } finally {
    evaluation.free();
  }
  const report = await agenteval.score(exportBytes.toString("utf8"));
  const rendered = await agenteval.render(report, "copilot", { dataset: exportBytes });
  assert.equal(rendered, runCli([exportPath]));
});

test("the written export reads back to the same verdicts, and writes back the same bytes", async () => {
  const first = await agenteval.score(exportBytes);
  const written = await agenteval.render(first, "copilot", { dataset: exportBytes });
  const again = await agenteval.score(written);
  assert.deepEqual(verdicts(again), verdicts(first));
  assert.equal(await agenteval.render(again, "copilot", { dataset: written }), written);
  const statuses = first.items.map((item) => item.status);
  assert.deepEqual(statuses, ["pass", "fail", "pass", null, null, "fail"]);
  const skipped = first.items[3].results.map((result) => [result.evaluator, result.result, result.reason]);
  assert.deepEqual(skipped, [
    ["CompareMeaning", "skipped", "no judge configured"],
    ["TextSimilarity", "skipped", "no judge configured"],
  ]);
});

test("validate names each bad row's row and column and keeps the others", async () => {
  const bad = readFileSync(join(root, badPath), "utf8");
  const validation = await agenteval.validate(bad);
  assert.equal(validation.valid, false);
  assert.equal(validation.dialect, "copilot_studio");
  assert.equal(validation.items, 8);
  const messages = validation.diagnostics.map((diagnostic) => diagnostic.message);
  assert.equal(messages.length, 5);
  assert.match(messages[0], /^row 3, column 2 \(expectedResponse\): the quoted field that starts here/);
  assert.deepEqual(validation.diagnostics[0].location, { kind: "lineColumn", line: 3, column: 8 });
  assert.ok(messages.includes("row 8, column 1 (question): empty; expected the question the agent was asked"));
  const report = await agenteval.score(bad);
  assert.deepEqual(
    report.items.map((item) => item.status),
    ["pass", "error", "pass", "error", "error", "error", "error", "pass"],
  );
  assert.deepEqual(verdicts(report), verdicts(JSON.parse(runCli([badPath, "--format", "report"]))));
});

test("a header without question is an invalidDataset error naming the column", async () => {
  await assert.rejects(
    async () => agenteval.score("question,result_1\nq,Pass\n"),
    (error) => error.code === "invalidDataset" && /column 2 \(result_1\): there is no testMethodType_1 column/.test(error.message),
  );
});

test("evaluateRows keeps the run and gives each row's columns for an item view", async () => {
  const rows = await agenteval.evaluateRows(exportBytes);
  try {
    assert.equal(rows.dialect, "copilot_studio");
    assert.equal(rows.length, 6);
    assert.deepEqual(rows.input(2), {
      question: 'Say "hi"',
      expectedResponse: "hello, hi",
      actualResponse: 'She said "hi"\nand left.',
      testMethodType_1: "KeywordMatch",
      result_1: "Pass",
      passingScore_1: "50",
      explanation_1: "",
      testMethodType_2: "GeneralQuality",
      result_2: "Pass",
      passingScore_2: "",
      explanation_2: "Seems relevant",
    });
    assert.equal(rows.render("copilot"), runCli([exportPath]));
    assert.throws(() => rows.input(6), (error) => error.code === "invalidArgument");
  } finally {
    rows.free();
  }
  const json = await agenteval.evaluateRows(readFileSync(join(root, "examples/m365-demo.json")));
  try {
    assert.equal(json.input(0), undefined);
  } finally {
    json.free();
  }
});

test("with a judge, GeneralQuality and CompareMeaning are judged, and written back as the CLI writes them", async () => {
  const url = process.env.AGENTEVAL_JUDGE_URL;
  const key = process.env.AGENTEVAL_JUDGE_KEY;
  assert.ok(url && key, "AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY are unset: run these tests through `cargo xtask test`");
  const judge = { kind: "azure", endpoint: url, model: "gpt-4o-judge", apiKey: key, backoffMs: 5 };
  const judgedPath = "tests/fixtures/copilot-studio/judged.csv";
  const bytes = readFileSync(join(root, judgedPath));
  const report = await agenteval.score(bytes, { judge });
  assert.equal(report.judge.calls, 6);
  const general = report.items[0].results[0];
  assert.deepEqual([general.evaluator, general.result, general.score], ["GeneralQuality", "fail", 50]);
  assert.equal(general.reason, "Seems relevant; Seems incomplete; Knowledge sources not cited; Answered the question");
  assert.equal(general.details.prompt_version, "copilot_general_quality/v1");
  assert.deepEqual([report.items[1].results[0].result, report.items[1].results[0].score], ["pass", 100]);
  const meaning = report.items[2].results[0];
  assert.deepEqual([meaning.evaluator, meaning.result, meaning.score, meaning.threshold], ["CompareMeaning", "fail", 65, 70]);
  assert.equal(report.items[3].results[0].result, "pass");
  assert.deepEqual(
    [4, 5, 6].map((index) => report.items[index].results[0].error.code),
    ["judgeOutputUnparseable", "judgeAuthenticationError", "emptyAgentResponse"],
  );
  const written = await agenteval.render(report, "copilot", { dataset: bytes });
  assert.equal(written, judgedCli([judgedPath]));
  // A judged run kept in the module gives each row's columns for an item view, as the lean run does.
  const evaluation = await agenteval.evaluate(bytes, { judge });
  try {
    const row = evaluation.input(0);
    assert.equal(row.question, "How many vacation days do I get?");
    assert.equal(row.expectedResponse, "25 days a year");
    assert.match(row.actualResponse, /^You get 25 days\./);
    assert.throws(() => evaluation.input(7), /position/);
  } finally {
    evaluation.free();
  }
});

test("with a judge and an embeddings model, TextSimilarity is the embeddings' cosine, written back as the CLI writes it", async () => {
  const url = process.env.AGENTEVAL_JUDGE_URL;
  const key = process.env.AGENTEVAL_JUDGE_KEY;
  assert.ok(url && key, "AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY are unset: run these tests through `cargo xtask test`");
  const similarityPath = "tests/fixtures/copilot-studio/similarity.csv";
  const bytes = readFileSync(join(root, similarityPath));
  const judge = { kind: "azure", endpoint: url, model: "gpt-4o-judge", apiKey: key, backoffMs: 5, cache: false };
  const withoutModel = await agenteval.score(bytes, { judge });
  assert.equal(withoutModel.items[0].results[0].error.code, "evaluatorConfigurationError");
  const report = await agenteval.score(bytes, { judge: { ...judge, embeddingModel: "text-embedding-3-small" } });
  const [same, unrelated] = [0, 1].map((index) => report.items[index].results[0]);
  assert.deepEqual([same.evaluator, same.result, same.threshold], ["TextSimilarity", "pass", 0.9]);
  assert.ok(Math.abs(same.score - 1) < 1e-9, String(same.score));
  assert.deepEqual([unrelated.result, unrelated.threshold], ["fail", 0.7]);
  assert.ok(unrelated.score < 0.7, String(unrelated.score));
  assert.equal(report.items[2].results[0].error.code, "evaluatorConfigurationError");
  assert.equal(report.items[4].results[0].result, "pass");
  const written = await agenteval.render(report, "copilot", { dataset: bytes });
  assert.equal(written, judgedCli([similarityPath, "--judge-embedding-model", "text-embedding-3-small"]));
});

describeChromium();

function describeChromium() {
  let chromium;

  before(async () => {
    chromium = await packagePage();
  });

  after(async () => {
    await chromium?.close();
  });

  test("chromium: a judged export's round trip through fetch: read, score, write, read back to the same verdicts", async () => {
    const url = process.env.AGENTEVAL_JUDGE_URL;
    const key = process.env.AGENTEVAL_JUDGE_KEY;
    const judge = { kind: "azure", endpoint: url, model: "gpt-4o-judge", apiKey: key, backoffMs: 5, cache: false, embeddingModel: "text-embedding-3-small" };
    const text = readFileSync(join(root, "tests/fixtures/copilot-studio/judged.csv"), "utf8") +
      readFileSync(join(root, "tests/fixtures/copilot-studio/similarity.csv"), "utf8").split("\r\n").slice(1, 3).map((row) => {
        const [question, expected, actual, method, score] = row.split(",");
        return `${question},${expected},${actual},${method},${score},,\n`;
      }).join("");
    const outcome = await chromium.page.evaluate(
      async ({ csv, judge }) => {
        const bytes = new TextEncoder().encode(csv);
        const first = await globalThis.agenteval.score(bytes, { judge });
        const written = await globalThis.agenteval.render(first, "copilot", { dataset: bytes });
        const again = await globalThis.agenteval.score(written, { judge });
        const rewritten = await globalThis.agenteval.render(again, "copilot", { dataset: written });
        return { first, again, written, rewritten };
      },
      { csv: text, judge },
    );
    const verdictsOf = (report) => report.items.map((item) => item.results.map((result) => [result.evaluator, result.result, result.score]));
    assert.deepEqual(verdictsOf(outcome.again), verdictsOf(outcome.first));
    assert.equal(outcome.rewritten, outcome.written, "byte-stable");
    const rows = outcome.written.split("\r\n");
    assert.ok(rows[3].includes(",CompareMeaning,Fail,70,meaning matched 65 of 100 (passes at 70): close but it misses the reset link,65,"), rows[3]);
    assert.ok(rows[8].includes(",TextSimilarity,Pass,0.9,cosine similarity of the embeddings 1.0000 (passes at 0.9),1,"), rows[8]);
    assert.ok(rows[9].includes(",TextSimilarity,Fail,0.7,"), rows[9]);
    assert.equal(outcome.first.items[7].results[0].evaluator, "TextSimilarity");
  });
}
