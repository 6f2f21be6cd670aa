// One run at a time, in headless Chromium: a dataset opened during a run cancels it and nothing of
// it reaches the new results; Cancel ends with an honest summary and the cancelled judge verdicts
// count as skipped; a judged run cut short never resumes by itself after a reload (a counting judge
// proxy sees no request until Resume); "Done" only once the run is stored in IndexedDB.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";

import { document, localJudge } from "./helpers.js";
import { configureJudge, openFile, pageSuite, pickFile, settled, summary, tableRows } from "./page-helpers.js";

const { url, key } = localJudge();

const harness = pageSuite();

const nonce = `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/**
 * A proxy in front of the local judge that counts the judge requests (POSTs) it forwards:
 * `{url, count(), close()}`.
 */
async function countingJudge() {
  const target = new URL(url);
  let posts = 0;
  const sockets = new Set();
  const pending = new Set();
  const server = createServer((incoming, outgoing) => {
    if (incoming.method === "POST") posts += 1;
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    pending.add(forwarded);
    forwarded.on("close", () => pending.delete(forwarded));
    incoming.pipe(forwarded);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    count: () => posts,
    close: () => {
      for (const socket of sockets) socket.destroy();
      for (const forwarded of pending) forwarded.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The judge at `endpoint`, remembered across reloads. */
const configure = (page, endpoint) => configureJudge(page, { endpoint, key, remember: true });

/** The stored run records, as IndexedDB holds them. */
async function storedRuns(page) {
  return page.evaluate(async () => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open("agenteval-page");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const runs = await new Promise((resolve) => {
      const request = db.transaction("runs").objectStore("runs").getAll();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return runs.map(({ id, name, status }) => ({ id, name, status }));
  });
}

test("page runs: a dataset opened during a run cancels it; only the new dataset's entries are shown", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const big = document(200000);
  big.items.forEach((item, index) => {
    item.prompt = `Old run question ${index}`;
  });
  await pickFile(page, "big.json", JSON.stringify(big));
  await page.waitForFunction(() => document.body.dataset.state === "running" && document.querySelectorAll(".table-viewport .table-row").length > 0, null, { timeout: 60000 });
  const small = document(3);
  small.items.forEach((item, index) => {
    item.prompt = `New run question ${index}`;
  });
  assert.equal(await openFile(page, "small.json", JSON.stringify(small)), "done");
  // Long enough for any row of the old run still in flight to arrive.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal((await summary(page)).entries, 3);
  assert.equal((await tableRows(page)).length, 3);
  assert.match(await page.textContent("#dataset-name"), /^small\.json: m365, 3 entries$/);
  assert.match(await page.textContent("#run-status"), /^Done: scored 3 entries/);
  await page.fill("#filter-text", "old run question");
  await page.waitForFunction(() => document.querySelector("#table-count").textContent.startsWith("0 of 3"));
  // Done only once stored: the record says so the moment the page does.
  const runs = await storedRuns(page);
  const latest = runs.find((run) => run.name === "small.json");
  assert.equal(latest?.status, "done", JSON.stringify(runs));
  assert.equal(runs.find((run) => run.name === "big.json")?.status, "cancelled");
  // The same while a judged run waits on its judge.
  await configure(page, url);
  const hanging = {
    schemaVersion: "1.11.0",
    default_evaluators: { Relevance: {} },
    items: [0, 1, 2, 3].map((index) => ({ prompt: `Hanging ${index} (${nonce})`, response: `Paris. [[judge:fault=hang]]` })),
  };
  await pickFile(page, "hanging.json", JSON.stringify(hanging));
  await settled(page, ["running"]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(await openFile(page, "small-again.json", JSON.stringify(small)), "done");
  assert.equal((await summary(page)).entries, 3);
  assert.match(await page.textContent("#dataset-name"), /^small-again\.json: m365, 3 entries$/);
  assert.deepEqual(problems, []);
});

test("page runs: Cancel gives an honest summary; after a reload nothing is sent until Resume", async () => {
  const judge = await countingJudge();
  try {
    const { page, problems } = await harness.open();
    await settled(page);
    await configure(page, judge.url);
    const items = Array.from({ length: 6 }, (_, index) => ({
      prompt: `What is the capital of France? (${index}, ${nonce})`,
      expected_response: "Paris is the capital of France.",
      response: index === 2 ? "Paris. [[judge:fault=hang*1]]" : `Paris, answer ${index}.`,
    }));
    const dataset = JSON.stringify({ schemaVersion: "1.11.0", default_evaluators: { Relevance: {}, PartialMatch: {} }, items });
    await pickFile(page, "cancel-me.json", dataset);
    await settled(page, ["running"]);
    // Entries 0 and 1 are recorded; entry 2's judge call hangs; 3 to 5 are answered meanwhile.
    await page.waitForFunction(() => document.querySelectorAll(".table-viewport .table-row").length === 2);
    for (let wait = 0; wait < 100 && judge.count() < 6; wait += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    await page.click("#cancel");
    assert.equal(await settled(page), "cancelled");
    assert.equal(await page.textContent("#run-status"), "Cancelled: 5 of 6 entries fully scored; 1 judge verdict cancelled (counted as skipped).");
    const cards = await summary(page);
    assert.equal(cards.entries, 6);
    assert.match(await page.textContent('#summary [data-summary="skipped"] .card-detail'), /^1 verdict skipped$/);
    assert.match(await page.textContent('#summary [data-evaluator="Relevance"] .card-detail'), /1 skipped$/);
    await page.selectOption("#filter-status", "skipped");
    assert.deepEqual((await tableRows(page)).map((row) => row.entry), ["item-2"]);
    await page.selectOption("#filter-status", "");
    // The export writes the cancelled verdict as skipped.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('#exports button[data-format="report"]')]);
    const { readFile } = await import("node:fs/promises");
    const report = JSON.parse(await readFile(await download.path(), "utf8"));
    assert.equal(report.items[2].results.find((result) => result.evaluator === "Relevance").result, "skipped");
    assert.equal(report.summary.evaluators.Relevance.skipped, 1);
    // A reload shows the cut run and waits: no judge request until Resume.
    const before = judge.count();
    await page.reload();
    assert.equal(await settled(page), "paused");
    // Looking at the cut run (an entry, a search) sends nothing either.
    await page.click('.table-viewport .table-row[aria-rowindex="4"]');
    await page.waitForSelector("dialog.item-view[open]");
    assert.match(await page.textContent("dialog.item-view"), /^item-2 — .*Relevance\s*skipped.*cancelled/s);
    await page.keyboard.press("Escape");
    await page.fill("#filter-text", "answer 4");
    await page.waitForFunction(() => document.querySelector("#table-count").textContent.startsWith("1 of 6"));
    await page.fill("#filter-text", "");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(judge.count(), before, "the page sent judge requests by itself after the reload");
    assert.equal(await page.textContent("#resume"), "Resume (1 judge call left)");
    assert.match(await page.textContent("#run-status"), /^Cancelled: 5 of 6 entries fully scored; 1 judge verdict cancelled\./);
    assert.equal((await summary(page)).entries, 6);
    await page.click("#resume");
    assert.equal(await settled(page), "done");
    const sent = judge.count() - before;
    assert.ok(sent >= 1 && sent <= 1, `Resume sent ${sent} judge requests for 1 judge call left`);
    const relevance = await page.$$eval(".table-viewport .table-row", (rows) =>
      rows.sort((a, b) => a.getAttribute("aria-rowindex") - b.getAttribute("aria-rowindex")).map((row) => row.children[5].textContent),
    );
    assert.ok(relevance.every((cell) => /^(pass|fail)/.test(cell)), relevance.join(", "));
    assert.deepEqual(problems, []);
  } finally {
    await judge.close();
  }
});

test("page runs: Cancel without a judge says how many entries were scored, and the run stays cancelled after a reload", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await pickFile(page, "long.json", JSON.stringify(document(200000)));
  await page.waitForFunction(() => document.body.dataset.state === "running" && document.querySelectorAll(".table-viewport .table-row").length > 0, null, { timeout: 60000 });
  await page.click("#cancel");
  assert.equal(await settled(page), "cancelled");
  const [, scored] = (await page.textContent("#run-status")).match(/^Cancelled: (\d+) of 200000 entries scored\.$/) ?? [];
  assert.ok(Number(scored) > 0 && Number(scored) < 200000, await page.textContent("#run-status"));
  assert.equal(await page.textContent("#dataset-name"), "long.json: m365, 200000 entries");
  // Cancelled by hand, it waits for Resume after a reload, even without a judge.
  await page.reload();
  assert.equal(await settled(page), "paused");
  assert.equal(await page.textContent("#resume"), "Resume (0 judge calls left)");
  assert.match(await page.textContent("#run-status"), /^\d+ of 200000 entries scored before the run was cancelled\.$/);
  assert.deepEqual(problems, []);
});
