// Human review on the page, end to end in headless Chromium: a reviewer overrides a verdict with a
// comment and marks an entry, the override shows beside the evaluator's verdict, the summary counts
// it and the table marks the entry, every export carries it, a reload restores it from IndexedDB,
// and the exported scored document opened again shows it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

import { openFile, pageSuite, screenshot, settled, tableRows } from "./page-helpers.js";

const harness = pageSuite();

async function download(page, format) {
  const [file] = await Promise.all([page.waitForEvent("download", { timeout: 15000 }), page.click(`#exports button[data-format="${format}"]`)]);
  return readFile(await file.path(), "utf8");
}

/** Opens the first entry of the table in the item view. */
async function openFirstEntry(page) {
  await page.click('.table-viewport .table-row[aria-rowindex="2"]');
  await page.waitForSelector("dialog.item-view[open]");
}

async function closeItem(page) {
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("dialog.item-view").open);
}

/** The verdicts table's rows: `[evaluator, evaluator's verdict, reviewer's verdict or ""]`. */
function verdictRows(page) {
  return page.$$eval("dialog.item-view .verdicts tbody tr", (rows) =>
    rows.map((row) => [row.children[0].textContent, row.querySelector(".badge").textContent, row.querySelector(".review-cell")?.dataset.override ?? ""]),
  );
}

test("page review: an override with a comment survives export, reload and re-opening the scored document", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  await openFirstEntry(page);
  const before = await verdictRows(page);
  const [evaluator, original] = before[0];
  const flipped = original === "pass" ? "fail" : "pass";
  assert.ok(["pass", "fail"].includes(original), `a verdict to override: ${original}`);

  // A comment is required for an override.
  await page.selectOption(`select.review-verdict[data-evaluator="${evaluator}"]`, flipped);
  await page.click("#review-save");
  assert.match(await page.textContent(".review-status"), /say why the verdict is overridden/);
  await page.fill(`input.review-why[data-evaluator="${evaluator}"]`, "the answer is right <b>anyway</b>");
  await page.fill("#review-reviewer", "ana");
  await page.check("#review-needs");
  await page.click("#review-save");
  await page.waitForSelector(`dialog.item-view .review-cell[data-override="${flipped}"]`);
  const after = await verdictRows(page);
  assert.deepEqual(after[0], [evaluator, original, flipped], "the override beside the original verdict, which is unchanged");
  assert.match(await page.textContent("dialog.item-view .review-cell"), /reviewer: \w+ \(overrides\) the answer is right <b>anyway<\/b> — ana/);
  assert.equal(await page.$$eval("dialog.item-view .review-cell b", (bold) => bold.length), 0, "the comment is text, not markup");
  assert.equal(await page.isChecked("#review-needs"), true);
  assert.equal(await page.textContent("#review-counts"), "This run: 1 of 1 reviewed verdict overridden · 1 entry needs review · 1 entry reviewed");
  await screenshot(page, "item-review");
  await closeItem(page);
  // The summary counts the review, and the table marks the reviewed entry.
  const counted = "1 verdict overridden: evaluators and reviewer disagree on 1 of 1 reviewed; 1 entry needs review";
  await page.waitForFunction((text) => document.querySelector("#review-summary").textContent === text, counted);
  assert.equal(await page.isVisible("#review-summary"), true);
  const marks = async () => (await tableRows(page)).map((row) => [row.entry, row.reviewMark]);
  const marked = [["item-0", "reviewed: 1 verdict, needs review"]];
  assert.deepEqual((await marks()).filter(([, mark]) => mark), marked);

  const report = JSON.parse(await download(page, "report"));
  assert.equal(report.items[0].results[0].result, original, "the report keeps the evaluator's verdict");
  assert.equal(report.items[0].review.needs_review, true);
  assert.deepEqual(
    report.items[0].review.overrides.map(({ evaluator: name, verdict, comment, reviewer }) => ({ name, verdict, comment, reviewer })),
    [{ name: evaluator, verdict: flipped, comment: "the answer is right <b>anyway</b>", reviewer: "ana" }],
  );
  assert.match(report.items[0].review.overrides[0].at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.deepEqual(report.summary.review, { entries: 1, needs_review: 1, reviewed: 1, overridden: 1 });
  const csv = await download(page, "csv");
  assert.match(csv.split("\r\n")[0], new RegExp(`${evaluator}\\.review,${evaluator}\\.review_comment`));
  assert.match(await download(page, "md"), /## Review\n\n1 verdict overridden/);
  const scored = await download(page, "document");
  assert.equal(JSON.parse(scored).items[0].extensions.review.overrides[0].verdict, flipped);

  // A reload restores the run from IndexedDB, with its review.
  await page.reload();
  assert.equal(await settled(page), "done");
  await openFirstEntry(page);
  assert.deepEqual((await verdictRows(page))[0], [evaluator, original, flipped]);
  assert.equal(await page.inputValue(`select.review-verdict[data-evaluator="${evaluator}"]`), flipped);
  assert.match(await page.textContent("#review-counts"), /^This run: 1 of 1 reviewed verdict overridden/);
  await closeItem(page);
  assert.equal(await page.textContent("#review-summary"), counted, "the counts after a reload");
  assert.deepEqual((await marks()).filter(([, mark]) => mark), marked);
  assert.deepEqual(JSON.parse(await download(page, "report")).summary.review, report.summary.review);

  // The exported scored document, opened again, shows the review as stored.
  assert.equal(await openFile(page, "m365-demo.scored.json", scored), "done");
  await page.waitForFunction((text) => document.querySelector("#review-summary").textContent === text, counted);
  assert.deepEqual((await marks()).filter(([, mark]) => mark), marked, "the mark of the scored document's review");
  await openFirstEntry(page);
  assert.deepEqual((await verdictRows(page))[0], [evaluator, original, flipped]);
  // Clearing the override there leaves the entry marked and the export without an override.
  await page.selectOption(`select.review-verdict[data-evaluator="${evaluator}"]`, "");
  await page.click("#review-save");
  await page.waitForFunction(() => !document.querySelector("dialog.item-view .review-cell[data-override]"));
  await closeItem(page);
  const cleared = JSON.parse(await download(page, "report"));
  assert.deepEqual(cleared.summary.review, { entries: 1, needs_review: 1, reviewed: 0, overridden: 0 });
  assert.equal(await page.textContent("#review-summary"), "1 entry needs review");
  assert.deepEqual((await marks()).filter(([, mark]) => mark), [["item-0", "reviewed, needs review"]]);
  assert.deepEqual(problems, []);
});
