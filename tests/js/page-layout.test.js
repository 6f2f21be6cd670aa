// The page's layout as a user sees it in headless Chromium: once a dataset is open the loader
// folds into the dataset's line ("Change" unfolds it), export and compare sit in a toolbar above
// the results, which take the whole width; a dataset with threads gets thread and turn columns,
// numbered as the exports number them.

import { test } from "node:test";
import assert from "node:assert/strict";

import { downloadExport, pageSuite, screenshot, settled, tableRows } from "./page-helpers.js";

const harness = pageSuite();

/** The bounding boxes of `selectors` (null for one not shown). */
function boxes(page, selectors) {
  return page.evaluate((list) => Object.fromEntries(list.map((selector) => {
    const element = document.querySelector(selector);
    const box = element?.getBoundingClientRect();
    return [selector, box && box.width > 0 ? { top: box.top, left: box.left, width: box.width, bottom: box.bottom } : null];
  })), selectors);
}

test("page layout: the loader folds into one line, export and compare above results that take the whole width", async () => {
  const { page, problems } = await harness.open({ viewport: { width: 1400, height: 900 } });
  assert.equal(await settled(page), "done");
  assert.equal(await page.isHidden("#load-panel"), true, "the loader stays open beside the results");
  assert.equal(await page.textContent(".dataset-line"), "m365-demo.json: m365, 7 entriesChange");
  const seen = await boxes(page, ["main", ".dataset-line", "#exports", "#history", ".results-view", "#summary", ".results-table"]);
  const main = await page.$eval("main", (element) => {
    const style = getComputedStyle(element);
    return element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  });
  assert.ok(Math.abs(seen[".results-view"].width - main) < 2, `results ${seen[".results-view"].width} px of ${main} px`);
  assert.ok(Math.abs(seen[".results-table"].width - main) < 30, `table ${seen[".results-table"].width} px of ${main} px`);
  assert.ok(seen["#exports"].bottom <= seen[".results-view"].top, "export sits above the results");
  assert.ok(seen["#history"].bottom <= seen[".results-view"].top, "compare sits above the results");
  assert.ok(Math.abs(seen["#exports"].top - seen["#history"].top) < 2, "export and compare share the toolbar's row");
  assert.ok(seen[".dataset-line"].bottom <= seen["#exports"].top);
  await screenshot(page, "layout-folded");
  // "Change" unfolds the loader; a dataset opened from it folds it again.
  await page.click("#dataset-change");
  assert.equal(await page.isVisible("#load-panel"), true);
  assert.equal(await page.getAttribute("#dataset-change", "aria-expanded"), "true");
  await page.click("#dataset-change");
  assert.equal(await page.isHidden("#load-panel"), true, "Keep this dataset folds it back");
  await page.click("#dataset-change");
  await page.evaluate(() => {
    document.body.dataset.state = "test-pending";
  });
  await page.fill("#dataset-url", `${harness.server.url}/examples/foundry-demo.jsonl`);
  await page.click("#dataset-url-load");
  assert.equal(await settled(page), "invalid", "Foundry rows without their config");
  assert.equal(await page.isVisible("#load-panel"), true, "a dataset that needs a config keeps the loader open");
  await screenshot(page, "layout-wide");
  assert.deepEqual(problems, []);
});

test("page layout: threads get thread and turn columns, numbered as the exports number them", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  const headers = await page.$$eval(".table-head [role=columnheader]", (cells) => cells.map((cell) => cell.textContent.replace(/[▲▼]/g, "").trim()));
  assert.deepEqual(headers.slice(0, 5), ["Entry", "Status", "Thread", "Turn", "Id or name"]);
  await page.waitForFunction(() => [...document.querySelectorAll(".table-viewport .table-row")].some((row) => row.children[2].textContent === "Onboarding conversation"));
  const rows = await page.$$eval(".table-viewport .table-row", (list) =>
    list
      .sort((a, b) => Number(a.getAttribute("aria-rowindex")) - Number(b.getAttribute("aria-rowindex")))
      .map((row) => [row.children[0].textContent, row.children[2].textContent, row.children[3].textContent]),
  );
  assert.deepEqual(rows.slice(-2), [
    ["item-5.turn-0", "Onboarding conversation", "0"],
    ["item-5.turn-1", "Onboarding conversation", "1"],
  ]);
  assert.deepEqual(rows[0], ["item-0", "", ""], "a single-turn item has no thread or turn");
  // The CSV export's index and turn columns name the same entries, in the same order.
  const csv = (await downloadExport(page, "csv")).trim().split(/\r?\n/).slice(1);
  const fromCsv = csv.map((line) => {
    const [index, turn] = line.split(",");
    return turn === "" ? `item-${index}` : `item-${index}.turn-${turn}`;
  });
  assert.deepEqual(fromCsv, (await tableRows(page)).map((row) => row.entry));
  // A dataset without threads has no such columns.
  await page.evaluate(() => {
    document.body.dataset.state = "test-pending";
  });
  await page.setInputFiles("#dataset-file", {
    name: "flat.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ schemaVersion: "1.11.0", default_evaluators: { ExactMatch: {} }, items: [{ prompt: "p", response: "r", expected_response: "r" }] })),
  });
  assert.equal(await settled(page), "done");
  const flat = await page.$$eval(".table-head [role=columnheader]", (cells) => cells.map((cell) => cell.textContent.replace(/[▲▼]/g, "").trim()));
  assert.deepEqual(flat.slice(0, 3), ["Entry", "Status", "Id or name"]);
  assert.deepEqual(problems, []);
});
