// The page with Copilot Studio test sets (CSV) opened through its file input: the entries and
// their statuses are the CLI's, a set with bad rows keeps its good rows, and the Copilot Studio
// export is offered and byte for byte what `agenteval score` writes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { root } from "./helpers.js";
import { openFile, pageSuite, settled, summary, tableRows } from "./page-helpers.js";

const cli = process.env.AGENTEVAL_CLI ?? join(root, "target/debug/agenteval");
const fixtures = join(root, "tests/fixtures/copilot-studio");
const harness = pageSuite();

function cliOutput(name, format) {
  const result = spawnSync(cli, ["score", name, "--format", format], { cwd: fixtures, encoding: "utf8", env: { PATH: process.env.PATH } });
  assert.ok(result.status === 0 || result.status === 1, result.stderr);
  return result.stdout;
}

function expected(report) {
  const { items, pass, fail, partial, error } = report.summary;
  const skipped = report.items.filter((entry) => entry.status === null).length;
  return {
    summary: { entries: items, pass, fail, partial, error, skipped },
    statuses: report.items.map((entry) => entry.status ?? "skipped"),
  };
}

test("page: a Copilot Studio export opened by file gives the CLI's entries, statuses and export", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const text = await readFile(join(fixtures, "export.csv"), "utf8");
  assert.equal(await openFile(page, "export.csv", text), "done", await page.textContent("#diagnostics"));
  assert.equal(await page.textContent("#dataset-name"), "export.csv: copilot_studio, 6 entries");
  const report = JSON.parse(cliOutput("export.csv", "report"));
  const { summary: cards, statuses } = expected(report);
  assert.deepEqual(await summary(page), cards);
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((row) => row.status), statuses);
  assert.deepEqual(rows.map((row) => row.entry), ["item-0", "item-1", "item-2", "item-3", "item-4", "item-5"]);
  const offered = await page.$$eval("#exports button", (buttons) => buttons.map((button) => button.dataset.format));
  assert.deepEqual(offered.sort(), ["copilot", "csv", "html", "junit", "md", "report"]);
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15000 }), page.click('#exports button[data-format="copilot"]')]);
  assert.equal(await readFile(await download.path(), "utf8"), cliOutput("export.csv", "copilot"));
  assert.equal(download.suggestedFilename(), "export.scored.csv");
  // The item view lists the row's verdicts.
  await page.click('.table-viewport .table-row[aria-rowindex="3"]');
  await page.waitForSelector("dialog.item-view[open]");
  const verdicts = await page.$$eval("dialog.item-view .verdicts tbody tr", (rows) => rows.map((row) => row.children[0].textContent));
  assert.deepEqual(verdicts, ["ExactMatch", "KeywordMatch"]);
  const view = await page.textContent("dialog.item-view");
  assert.match(view, /When does the store open\?/);
  assert.match(view, /The store opens at 9 am, every day\./);
  await page.keyboard.press("Escape");
  assert.deepEqual(problems, []);
});

test("page: a Copilot Studio CSV with bad rows keeps its good rows, as the CLI does", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const text = await readFile(join(fixtures, "bad.csv"), "utf8");
  await openFile(page, "bad.csv", text, ["done", "invalid"]);
  const report = JSON.parse(cliOutput("bad.csv", "report"));
  const { summary: cards, statuses } = expected(report);
  assert.deepEqual(statuses, ["pass", "error", "pass", "error", "error", "error", "error", "pass"]);
  assert.deepEqual(await summary(page), cards);
  assert.deepEqual((await tableRows(page)).map((row) => row.status), statuses);
  assert.match(await page.textContent("#diagnostics"), /row 3, column 2 \(expectedResponse\)/);
  assert.deepEqual(problems, []);
});
