// The page asks the core's plan instead of deciding: a one-row Foundry JSONL opened with a config
// is scored and shown as a row, and a first line carrying `testing_criteria` beside row fields is
// a row (the core's config line rule), not the config the page used to take it for.

import { test } from "node:test";
import assert from "node:assert/strict";

import { openFile, pageSuite, settled, summary } from "./page-helpers.js";

const harness = pageSuite();

const criterion = (mapping) => ({ testing_criteria: [{ type: "azure_ai_evaluator", name: "f1", evaluator_name: "builtin.f1_score", data_mapping: mapping }] });

async function chooseConfig(page, config) {
  await page.setInputFiles("#config-file", { name: "config.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(config)) });
  await page.waitForFunction(() => document.querySelector("#config-name").textContent === "config: config.json");
}

async function exportButtons(page) {
  return page.$$eval("[data-format]", (buttons) => buttons.map((button) => button.dataset.format));
}

async function itemText(page, rowIndex) {
  await page.click(`.table-viewport .table-row[aria-rowindex="${rowIndex}"]`);
  await page.waitForSelector("dialog.item-view[open]");
  const text = await page.textContent("dialog.item-view");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("dialog.item-view").open);
  return text;
}

test("page: a one-row JSONL with a config is a Foundry row, and a first line with row fields is a row", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await chooseConfig(page, criterion({ response: "{{item.answer}}", ground_truth: "{{item.truth}}" }));
  const one = `${JSON.stringify({ answer: "Paris is the capital", truth: "Paris" })}\n`;
  assert.equal(await openFile(page, "one.jsonl", one), "done", await page.textContent("#diagnostics"));
  assert.match(await page.textContent("#dataset-name"), /^one\.jsonl: foundry, 1 entr/);
  const counts = await summary(page);
  assert.deepEqual([counts.entries, counts.pass], [1, 1], JSON.stringify(counts));
  assert.deepEqual(await exportButtons(page), ["foundry", "foundry-results", "report", "csv", "junit", "md", "html"], "the plan's formats, the dataset's own first");

  await chooseConfig(page, criterion({ response: "{{item.response}}", ground_truth: "{{item.ground_truth}}" }));
  const carrying = [
    JSON.stringify({ response: "Lyon is a city", ground_truth: "Lyon is a city", testing_criteria: [] }),
    JSON.stringify({ response: "Nice", ground_truth: "Marseille" }),
  ].join("\n");
  assert.equal(await openFile(page, "carrying.jsonl", carrying), "done", await page.textContent("#diagnostics"));
  assert.match(await page.textContent("#dataset-name"), /^carrying\.jsonl: foundry, 2 entries/);
  assert.match(await itemText(page, 2), /Lyon is a city/, "the first line is the first row");
  assert.match(await itemText(page, 3), /Marseille/);

  assert.equal(await openFile(page, "broken.json", '{"schemaVersion": "1.11.0", "items": ['), "invalid");
  assert.deepEqual(await exportButtons(page), [], "nothing to export from a dataset that cannot be read");
  assert.equal(await openFile(page, "m365.json", JSON.stringify({ schemaVersion: "1.11.0", default_evaluators: { ExactMatch: {} }, items: [{ prompt: "p", response: "r", expected_response: "r" }] })), "done");
  assert.deepEqual(await exportButtons(page), ["document", "report", "csv", "junit", "md", "html"]);
  assert.deepEqual(problems, []);
});
