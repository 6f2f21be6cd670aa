// The package gives the same results as the native CLI: every output format of `agenteval score`
// on the example datasets (the scored document's `metadata.evaluatedAt`, the run time, is taken
// from the CLI's output). `evaluate()` then `Evaluation.render` writes every format byte for byte
// as the CLI does. `render()` of a report that went through JavaScript objects gives the same JSON
// values and text, except that JavaScript cannot tell `0.0` from `0` in evaluator `details` (JSON
// does not either): the JSON formats are compared as values, and the HTML report's details blocks
// with that spelling unified.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { root } from "./helpers.js";

const cli = process.env.AGENTEVAL_CLI ?? join(root, "target/debug/agenteval");

function runCli(args) {
  const result = spawnSync(cli, ["score", ...args], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 });
  assert.ok(result.status === 0 || result.status === 1, `agenteval ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

const cases = [
  {
    dataset: "examples/m365-demo.json",
    formats: ["document", "report", "csv", "junit", "md", "html"],
  },
  {
    dataset: "examples/foundry-demo.jsonl",
    config: "examples/foundry-config.json",
    formats: ["foundry", "foundry-results", "report", "csv", "junit", "md", "html"],
  },
];

test("the native CLI is built", () => {
  assert.ok(existsSync(cli), `${cli} is missing: run cargo build -p agenteval-cli (or set AGENTEVAL_CLI)`);
});

for (const { dataset, config, formats } of cases) {
  const text = readFileSync(join(root, dataset), "utf8");
  const configText = config && readFileSync(join(root, config), "utf8");
  const configArgs = config ? ["--config", config] : [];
  for (const format of formats) {
    test(`${dataset} --format ${format}: identical to the CLI`, async () => {
      const expected = runCli([dataset, ...configArgs, "--format", format]);
      const report = await agenteval.score(text, { config: configText });
      const evaluatedAt = format === "document" ? JSON.parse(expected).metadata?.evaluatedAt : undefined;
      const evaluation = await agenteval.evaluate(text, { config: configText });
      try {
        const options = evaluatedAt === undefined ? { title: dataset } : { title: dataset, evaluatedAt };
        assert.equal(evaluation.render(format, options), expected, "Evaluation.render: byte for byte");
      } finally {
        evaluation.free();
      }
      if (format === "document") {
        const streamed = await agenteval.scoreDocument(text, { evaluatedAt });
        assert.equal(streamed.document, expected, "scoreDocument: byte for byte");
        const bytes = await agenteval.scoreDocument(text, { evaluatedAt, output: "bytes" });
        assert.ok(bytes.document instanceof Uint8Array);
        assert.ok(Buffer.from(expected).equals(bytes.document), "scoreDocument as bytes: byte for byte");
      }
      const actual = agenteval.render(report, format, {
        dataset: text,
        config: configText,
        title: dataset,
        evaluatedAt,
      });
      if (format === "document" || format === "report") {
        assert.deepEqual(JSON.parse(actual), JSON.parse(expected));
      } else if (format === "foundry" || format === "foundry-results") {
        const lines = (text) => text.trimEnd().split("\n").map((line) => JSON.parse(line));
        assert.deepEqual(lines(actual), lines(expected));
      } else if (format === "html") {
        const unify = (text) => text.replace(/(\d)\.0(?=[,\n])/g, "$1");
        assert.equal(unify(actual), unify(expected));
      } else {
        assert.equal(actual, expected);
      }
    });
  }
}
