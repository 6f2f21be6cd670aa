// The page with an LLM judge (the local judge server `cargo xtask test` starts: AGENTEVAL_JUDGE_URL
// and AGENTEVAL_JUDGE_KEY) in headless Chromium: the judge panel and "test connection", verdicts
// and faults shown with their codes, the key kept out of exports, the URL and storage unless
// remembered, cancelling, and a run cut by a reload resumed on request, with the judge's answers
// from the cache.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

import { configureJudge, openFile, pageSuite, pickFile, screenshot, settled, storedText, summary, tableRows } from "./page-helpers.js";
import { localJudge } from "./helpers.js";

const { url, key } = localJudge();

const harness = pageSuite();

/** Makes each test's judge requests its own: the server counts a fault's attempts per request. */
const nonce = `${Date.now()}-${Math.random().toString(36).slice(2)}`;

function dataset(responses, evaluators = { Relevance: {}, PartialMatch: {} }) {
  return JSON.stringify({
    schemaVersion: "1.11.0",
    default_evaluators: evaluators,
    items: responses.map((response, index) => ({
      prompt: `What is the capital of France? (${index}, ${nonce})`,
      expected_response: "Paris is the capital of France.",
      response,
    })),
  });
}

/** Fills the judge panel with the test judge; ticks "remember" when asked. */
function configure(page, { remember = false, endpoint = url } = {}) {
  return configureJudge(page, { endpoint, key, remember, concurrency: 4 });
}

test("page judge: test connection, verdicts, faults with their codes, and the key nowhere it should not be", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await configure(page);
  await page.click("#judge-test");
  await page.waitForFunction(() => /^Connected|^Cannot|did not/.test(document.querySelector("#judge-status").textContent));
  assert.match(await page.textContent("#judge-status"), /^Connected: the judge answered \(Relevance [1-5] on a test item\)/);
  const responses = [
    "Paris is the capital. [[judge:score=4]]",
    "Lyon. [[judge:score=2]]",
    "Paris. [[judge:fault=malformed]]",
    "Paris, after two server errors. [[judge:fault=500*2]] [[judge:score=5]]",
    "Paris. [[judge:score=9]]",
  ];
  assert.equal(await openFile(page, "judged.json", dataset(responses)), "done");
  const relevance = await page.$$eval(".table-viewport .table-row", (rows) =>
    rows.sort((a, b) => a.getAttribute("aria-rowindex") - b.getAttribute("aria-rowindex")).map((row) => row.children[5].textContent),
  );
  assert.deepEqual(relevance, ["pass 4", "fail 2", "error", "pass 5", "error"]);
  assert.match(await page.textContent("#run-status"), /judge: 5 calls, 0 from the cache/);
  await page.click('.table-viewport .table-row[aria-rowindex="4"]');
  await page.waitForSelector("dialog.item-view[open]");
  assert.match(await page.textContent("dialog.item-view .verdicts"), /judgeOutputUnparseable/);
  await screenshot(page, "judged-item");
  await page.keyboard.press("Escape");
  // The key is in no export, not in the URL, and not stored (not remembered).
  for (const format of ["document", "report", "html"]) {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(`#exports button[data-format="${format}"]`)]);
    const written = await readFile(await download.path(), "utf8");
    assert.ok(!written.includes(key), `the key is in the ${format} export`);
    assert.match(written, /judgeOutputUnparseable/);
  }
  assert.ok(!page.url().includes(key));
  assert.ok(!(await storedText(page)).includes(key), "the key was stored without being remembered");
  // A refused key is an error with its code, never a score.
  await page.fill("#judge-key", "wrong-key");
  assert.equal(await openFile(page, "judged-again.json", dataset(["Paris at last. [[judge:score=4]]"])), "done");
  await page.click('.table-viewport .table-row[aria-rowindex="2"]');
  await page.waitForSelector("dialog.item-view[open]");
  assert.match(await page.textContent("dialog.item-view .verdicts"), /judgeAuthenticationError/);
  // The failure was announced as it happened, outside the item view.
  assert.match(await page.textContent("#judge-banner"), /^1 judge call failing: judgeAuthenticationError: .+ — check the judge's settings\.$/);
  assert.deepEqual(problems, []);
});

test("page judge: 'remember on this device' keeps the key across a reload; without it the key is gone", async () => {
  const { page, context, problems } = await harness.open();
  await settled(page);
  await configure(page, { remember: true });
  await page.waitForFunction(() => document.querySelector("#judge-key").value.length > 0);
  await page.reload();
  await settled(page);
  assert.equal(await page.inputValue("#judge-key"), key);
  assert.equal(await page.isChecked("#judge-remember"), true);
  assert.ok((await storedText(page)).includes(key));
  await page.click("#judge-panel > summary");
  await page.uncheck("#judge-remember");
  for (let wait = 0; wait < 100 && (await storedText(page)).includes(key); wait += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  const second = await context.newPage();
  await second.goto(page.url());
  await settled(second);
  assert.equal(await second.inputValue("#judge-key"), "");
  assert.equal(await second.inputValue("#judge-endpoint"), url, "the other settings are kept");
  assert.ok(!(await storedText(second)).includes(key));
  assert.deepEqual(problems, []);
});

test("page judge: Cancel stops a judged run; unanswered judge calls end skipped", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await configure(page);
  await pickFile(page, "hangs.json", dataset(["Paris. [[judge:fault=hang]]", "Paris is the capital.", "Lyon."]));
  await settled(page, ["running"]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await page.click("#cancel");
  assert.equal(await settled(page), "cancelled");
  assert.equal(await page.textContent("#run-status"), "Cancelled: 2 of 3 entries fully scored; 1 judge verdict cancelled (counted as skipped).");
  const rows = await tableRows(page);
  assert.equal(rows.length, 3);
  await page.click('.table-viewport .table-row[aria-rowindex="2"]');
  await page.waitForSelector("dialog.item-view[open]");
  const verdicts = await page.textContent("dialog.item-view .verdicts");
  assert.match(verdicts, /Relevance\s*skipped/);
  assert.match(verdicts, /cancelled/);
  assert.match(verdicts, /PartialMatch\s*fail0\.286/, "the deterministic evaluator still ran");
  assert.deepEqual(problems, []);
});

test("page judge: a run cut short by a reload resumes on Resume; answered judge calls come from the cache", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await configure(page, { remember: true });
  const responses = Array.from({ length: 16 }, (_, index) => `Paris, answer ${index}.${index === 4 ? " [[judge:fault=hang*1]]" : ""}`);
  await pickFile(page, "resume.json", dataset(responses));
  await settled(page, ["running"]);
  // Entries 0–3 are recorded; entry 4's judge call hangs, the others are answered meanwhile.
  await page.waitForFunction(() => document.querySelectorAll(".table-viewport .table-row").length === 4);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await page.reload();
  // A judged run never resumes by itself: it says what it would send, and waits.
  assert.equal(await settled(page), "paused");
  assert.match(await page.textContent("#resume"), /^Resume \(\d+ judge calls left\)$/);
  await page.click("#resume");
  assert.equal(await settled(page), "done");
  assert.match(await page.textContent("#dataset-name"), /^resume\.json: m365, 16 entries \(resumed from this device\)/);
  assert.equal((await summary(page)).entries, 16);
  const status = await page.textContent("#run-status");
  const [, calls, cached] = status.match(/judge: (\d+) calls, (\d+) from the cache/);
  assert.equal(Number(calls), 16);
  assert.ok(Number(cached) >= 15, `only ${cached} of 16 judge calls came from the cache: ${status}`);
  assert.deepEqual(problems, []);
});

test("page judge: without the key remembered, a cut run waits for the key before resuming", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await configure(page);
  await pickFile(page, "paused.json", dataset(["Paris.", "Paris! [[judge:fault=hang*1]]", "Paris?"]));
  await page.waitForFunction(() => document.querySelectorAll(".table-viewport .table-row").length === 1);
  await page.reload();
  assert.equal(await settled(page), "paused");
  assert.match(await page.textContent("#run-status"), /^1 of 3 entries scored before the reload\. Enter the judge's key, then resume\./);
  await page.click("#resume");
  assert.match(await page.textContent("#message"), /Enter the judge's key/);
  assert.equal(await page.evaluate(() => document.body.dataset.state), "paused");
  await page.click("#judge-panel > summary");
  await page.fill("#judge-key", key);
  await page.click("#resume");
  assert.equal(await settled(page), "done");
  assert.equal((await summary(page)).entries, 3);
  assert.deepEqual(problems, []);
});

test("page judge: Copilot Studio's TextSimilarity through the embeddings model the panel names", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await configure(page);
  await page.fill("#judge-embedding-model", "text-embedding-3-small");
  await page.dispatchEvent("#judge-embedding-model", "change");
  const csv = [
    "question,expectedResponse,actualResponse,testMethodType_1,passingScore_1",
    `Where is the office (${nonce})?,The office is in Lisbon,The office is in Lisbon,TextSimilarity,0.9`,
    `Where is the office (${nonce})?,The office is in Lisbon,Bananas grow on tall plants in warm places,TextSimilarity,0.7`,
  ].join("\r\n");
  assert.equal(await openFile(page, "similarity.csv", csv), "done");
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((row) => row.status), ["pass", "fail"]);
  await page.click('.table-viewport .table-row[aria-rowindex="2"]');
  await page.waitForSelector("dialog.item-view[open]");
  assert.match(await page.textContent("dialog.item-view .verdicts"), /cosine similarity of the embeddings 1\.0000 \(passes at 0\.9\)/);
  await page.keyboard.press("Escape");
  assert.deepEqual(problems, []);
});
