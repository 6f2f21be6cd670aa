// The page's reach in headless Chromium: at 390 px wide the entries are cards and the item view
// wraps, with no sideways scrolling of the page; and turning a judge on after a run that skipped
// the judged evaluators offers to score again with it (the local judge `cargo xtask test` starts:
// AGENTEVAL_JUDGE_URL, AGENTEVAL_JUDGE_KEY).

import { test } from "node:test";
import assert from "node:assert/strict";

import { configureJudge, markPending, pageSuite, screenshot, settled, summary } from "./page-helpers.js";
import { localJudge } from "./helpers.js";

const { url: judgeUrl, key: judgeKey } = localJudge();

const harness = pageSuite();

/** Elements inside `selector` (outside any of its own sideways scrollers) that reach past its right edge. */
function overflowing(page, selector) {
  return page.$eval(selector, (container) => {
    const right = container.getBoundingClientRect().right + 1;
    return [...container.querySelectorAll("*")]
      .filter((element) => !element.closest(".evidence-scroll") && element.getClientRects().length > 0)
      .filter((element) => element.getBoundingClientRect().right > right)
      .map((element) => `${element.tagName}.${element.className} ${Math.round(element.getBoundingClientRect().right)} > ${Math.round(right)}`);
  });
}

test("page at 390 px: entries as cards, an item view that wraps, no sideways scrolling", async () => {
  const { page, problems } = await harness.open({ viewport: { width: 390, height: 844 } });
  assert.equal(await settled(page), "done");
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)) <= 0, "the page scrolls sideways");
  assert.equal(await page.$eval(".results-table", (table) => table.classList.contains("as-cards")), true);
  assert.equal(await page.isHidden(".results-table .table-head"), true, "the wide table's header is shown");
  await page.waitForFunction(() => [...document.querySelectorAll(".table-viewport .table-row [data-column=prompt]")].every((cell) => cell.textContent !== ""));
  const cards = await page.$$eval(".table-viewport .table-row", (rows) =>
    rows
      .sort((a, b) => a.getAttribute("aria-rowindex") - b.getAttribute("aria-rowindex"))
      .map((row) => {
        const box = row.getBoundingClientRect();
        const verdicts = [...row.querySelectorAll("[data-evaluator]")].filter((cell) => cell.getClientRects().length > 0);
        return {
          entry: row.querySelector("[data-column=entry]").textContent,
          prompt: row.querySelector("[data-column=prompt]").textContent,
          height: box.height,
          width: box.width,
          named: verdicts.map((cell) => getComputedStyle(cell, "::before").content),
          inside: verdicts.every((cell) => cell.getBoundingClientRect().right <= box.right + 1 && cell.getBoundingClientRect().bottom <= box.bottom + 1),
        };
      }),
  );
  assert.equal(cards.length, 7);
  assert.equal(cards[0].entry, "item-0");
  assert.match(cards[0].prompt, /vacation/i);
  assert.ok(cards.every((card) => card.height > 60 && card.width <= 390), JSON.stringify(cards.map(({ height, width }) => ({ height, width }))));
  assert.ok(cards.every((card) => card.inside), "a card's verdicts are cut off");
  assert.deepEqual(cards[0].named, ['"PartialMatch "', '"Citations "'], "each verdict named in its card");
  await screenshot(page, "phone-cards");
  // The item view of the entry with retrieval diagnostics wraps to the screen.
  await page.click('.table-viewport .table-row[aria-rowindex="5"]');
  await page.waitForSelector("dialog.item-view[open]");
  const dialog = await page.$eval("dialog.item-view", (element) => ({ right: element.getBoundingClientRect().right, scroll: element.scrollWidth - element.clientWidth }));
  assert.ok(dialog.right <= 390, `the dialog ends at ${dialog.right} px`);
  assert.ok(dialog.scroll <= 0, `the dialog scrolls sideways by ${dialog.scroll} px`);
  assert.deepEqual(await overflowing(page, "dialog.item-view"), []);
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)) <= 0);
  await screenshot(page, "phone-item");
  await page.keyboard.press("Escape");
  // Wider again, the table comes back.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForFunction(() => !document.querySelector(".results-table").classList.contains("as-cards"));
  assert.equal(await page.isVisible(".results-table .table-head"), true);
  assert.equal(await page.$eval('.table-viewport .table-row[aria-rowindex="3"]', (row) => row.getBoundingClientRect().height), 32);
  assert.deepEqual(problems, []);
});

test("page judge offer: a judge turned on after a run that skipped judged evaluators offers to score again", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  assert.match(await page.textContent('#summary [data-evaluator="Coherence"] .card-detail'), /1 skipped/);
  assert.equal(await page.isHidden("#judge-offer"), true, "no demo judge is served here: nothing to offer yet");
  await configureJudge(page, { endpoint: judgeUrl, key: judgeKey });
  await page.waitForSelector("#judge-offer:not([hidden])");
  assert.match(await page.textContent("#judge-offer"), /^A judge is on: score again to give the judged evaluators their verdicts \(\d+ judge calls?\)\./);
  assert.equal(await page.isVisible("#judge-offer-demo"), false);
  await markPending(page);
  await page.click("#judge-offer-score");
  assert.equal(await settled(page), "done");
  assert.equal(await page.isHidden("#judge-offer"), true, "the offer is gone once the judge scored");
  assert.match(await page.textContent('#summary [data-evaluator="Coherence"] .card-detail'), /0 skipped/);
  assert.equal((await summary(page)).entries, 7);
  assert.match(await page.textContent("#run-status"), /judge: \d+ calls?,/);
  assert.deepEqual(problems, []);
});
