// The generated declarations type a realistic usage example (types/usage.ts) under strict
// settings, and reject the misuse it marks with @ts-expect-error. They also declare exactly what
// the package returns: objects from real runs, written as TypeScript object literals of their
// declared types, must type-check (no field missing, none extra, none of another type).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import * as agenteval from "agenteval";
import { examples, root } from "./helpers.js";

const here = fileURLToPath(new URL(".", import.meta.url));

function tsc(project) {
  return spawnSync(process.execPath, [join(here, "node_modules/typescript/bin/tsc"), "-p", project], {
    cwd: here,
    encoding: "utf8",
  });
}

test("tsc --noEmit accepts the typed usage example", () => {
  const result = tsc("types/tsconfig.json");
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

/** Objects the package returned, each with the name of the type it is declared as. */
async function returned() {
  const url = process.env.AGENTEVAL_JUDGE_URL;
  const key = process.env.AGENTEVAL_JUDGE_KEY;
  assert.ok(url && key, "AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY are unset: run these tests through `cargo xtask test`");
  const judge = { kind: "azure", endpoint: url, model: "gpt-4o-judge", apiKey: key, backoffMs: 5, cache: false };
  const demo = await readFile(join(examples, "m365-demo.json"));
  const rows = await readFile(join(examples, "foundry-demo.jsonl"), "utf8");
  const config = await readFile(join(examples, "foundry-config.json"), "utf8");
  const judged = await readFile(join(root, "tests/fixtures/copilot-studio/judged.csv"));
  const item = (response) => ({ prompt: "What is the capital of France?", response, expected_response: "Paris" });
  const progress = [];
  const contexts = [];
  const custom = {
    polite: (input, options, context) => {
      contexts.push(context);
      return { score: 1, reason: "fine", details: { seen: input.response } };
    },
    Strict: { prompt: "Rate {{response}}", model: "gpt-4o-other" },
  };
  const controller = new AbortController();
  const cancelled = agenteval.score(
    { schemaVersion: "1.11.0", default_evaluators: { Relevance: {} }, items: [item("Paris. [[judge:fault=hang]]"), item("Lyon.")] },
    { judge: { ...judge, timeoutMs: 60000 }, signal: controller.signal },
  );
  setTimeout(() => controller.abort(), 300);
  const document = await agenteval.scoreDocument(demo, { evaluatedAt: "2026-01-01T00:00:00Z" });
  const plain = await agenteval.score(demo);
  const reviews = [
    {
      index: 0,
      turn: null,
      review: { needs_review: true, comment: "check", overrides: [{ evaluator: plain.items[0].results[0].evaluator, verdict: "pass", comment: "fine", reviewer: "ana", at: "2026-01-01T00:00:00Z" }] },
    },
    { index: 1, review: null },
  ];
  const withBadReview = JSON.parse(document.document);
  withBadReview.items[0].extensions = { review: { overrides: [{ evaluator: "Nope", verdict: "pass", comment: "x" }] } };
  const inserted = JSON.parse(demo);
  inserted.items.unshift({ prompt: "A new question?", response: "An answer.", expected_response: "The answer." });
  inserted.items.push({ name: "thread", turns: [item("Paris."), item("Lyon.")] });
  const candidate = (await agenteval.scoreDocument(JSON.stringify(inserted))).document;
  return [
    ["EvaluatorInfo[]", agenteval.evaluators()],
    [
      "Validation[]",
      [
        agenteval.validate(demo),
        agenteval.validate('{"schemaVersion": "1.6.0",\n "items": [}'),
        agenteval.validate({ schemaVersion: "1.6.0", items: [{ prompt: 3 }, { prompt: "p", extra: 1 }] }),
        agenteval.validate(rows),
        agenteval.validate([1, 2]),
      ],
    ],
    ["Plan[]", [await agenteval.plan(demo), await agenteval.plan(rows, { config })]],
    [
      "RunReport[]",
      [
        await agenteval.score(demo, { onProgress: (update) => progress.push(update) }),
        await agenteval.score(rows, { config }),
        await agenteval.score(judged, { judge }),
        await agenteval.score(
          {
            schemaVersion: "1.11.0",
            default_evaluators: { polite: {}, Strict: {}, Relevance: {} },
            items: [item("Paris."), { turns: [item("Paris."), item("")] }],
          },
          { custom, judge },
        ),
        await cancelled,
        await agenteval.readReport(await readFile(join(root, "tests/fixtures/scored/runevals-malformed.json"), "utf8")),
        agenteval.applyReviews(plain, reviews),
        await agenteval.readReport(withBadReview),
      ],
    ],
    ["EntryReview[]", reviews],
    ["CaseOutcome", await agenteval.scoreItem(item("Paris."), ["PartialMatch", "ExactMatch"])],
    ["Progress[]", progress],
    ["CustomContext[]", contexts],
    ["ScoredDocument", document],
    ["Comparison[]", [agenteval.compare(document.document, candidate), agenteval.compare(candidate, candidate, { directions: { partialMatch: "neutral" } })]],
  ];
}

test("what the package returns is exactly what its declarations say", async () => {
  const objects = await returned();
  const reports = objects.find(([type]) => type === "RunReport[]")[1];
  assert.ok(reports.some((report) => report.judge?.not_reached?.length), "a cancelled judged run");
  assert.ok(reports.some((report) => Object.keys(report.judge?.deployments ?? {}).length), "a judged run with deployments");
  assert.ok(reports.some((report) => report.items.some((entry) => entry.results.some((result) => result.usage))), "judge usage");
  assert.ok(reports.some((report) => report.summary.review && report.items.some((entry) => entry.review?.overrides[0]?.reviewer)), "a reviewed run");
  assert.ok(reports.some((report) => report.items.some((entry) => entry.review?.problems?.length)), "a stored review with problems");
  for (const type of ["Progress[]", "CustomContext[]"]) {
    assert.ok(objects.find(([name]) => name === type)[1].length, type);
  }
  const names = [...new Set(objects.map(([type]) => type.replace("[]", "")))];
  const source = [
    `import type { ${names.join(", ")} } from "agenteval";`,
    ...objects.map(([type, value], index) => `export const returned${index}: ${type} = ${JSON.stringify(value, null, 1)};`),
  ].join("\n");
  const dir = await mkdtemp(join(here, "types", "returned-"));
  try {
    await writeFile(join(dir, "returned.ts"), source);
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../tsconfig.json", files: ["returned.ts"] }));
    const result = tsc(dir);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    await writeFile(join(dir, "returned.ts"), source.replace('"pass_rate":', '"passRate":'));
    assert.notEqual(tsc(dir).status, 0, "a misnamed field is refused");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
