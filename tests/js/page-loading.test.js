// Loading that keeps its promises and numbers that tell the truth, in headless Chromium: the
// Foundry config chosen after its dataset applies on Score, shows its name and can be removed;
// `?dataset=URL&config=URL`; problems the run finds (an unknown evaluator, with "did you mean")
// listed under Problems with their place; a Copilot Studio CSV scored with a judge keeps its inputs
// (item view and search); the headline with errors and skipped entries beside the pass rate, no
// "null", export buttons only where they apply, a fixed total during a run, a disabled Score that
// looks disabled; a judge that cannot be reached raises a banner at once, and "Test connection"
// tells a closed port from CORS.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { localJudge, root } from "./helpers.js";
import { configureJudge, markPending, openFile, pageSuite, pickFile, settled, summary, tableRows } from "./page-helpers.js";

const { url: judgeUrl, key } = localJudge();

const harness = pageSuite();

const offered = (page) => page.$$eval("#exports button", (buttons) => buttons.map((button) => button.dataset.format));

function configure(page, endpoint) {
  return configureJudge(page, { endpoint, key });
}

/** A port nothing listens on (it was just closed). */
async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test("page loading: a config chosen after its dataset applies on Score, is named and can be removed", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const rows = await readFile(join(root, "examples/foundry-demo.jsonl"), "utf8");
  assert.equal(await openFile(page, "foundry-demo.jsonl", rows), "invalid");
  const listed = await page.textContent("#diagnostics-list");
  assert.match(listed, /Foundry rows need an evaluation config/);
  assert.match(listed, /Choose the config with “Foundry evaluation config” in the Dataset panel/);
  assert.doesNotMatch(listed, /--config/, "the page speaks of its own controls, not the CLI's flags");
  assert.deepEqual(await offered(page), [], "no export for a dataset that cannot be read");
  assert.equal(await page.isEnabled("#run"), true);
  await page.setInputFiles("#config-file", join(root, "examples/foundry-config.json"));
  await page.waitForFunction(() => document.querySelector("#config-name").textContent === "config: foundry-config.json");
  assert.equal(await page.isVisible("#config-clear"), true);
  assert.match(await page.textContent("#run-status"), /^Config foundry-config\.json chosen: press Score to score foundry-demo\.jsonl with it\./);
  await markPending(page);
  await page.click("#run");
  assert.equal(await settled(page), "done", await page.textContent("#diagnostics"));
  assert.equal(await page.textContent("#dataset-name"), "foundry-demo.jsonl: foundry, 3 entries");
  assert.deepEqual((await offered(page)).sort(), ["csv", "foundry", "foundry-results", "html", "junit", "md", "report"]);
  // Removed, the config no longer applies.
  await page.click("#config-clear");
  assert.equal(await page.textContent("#config-name"), "no config (criteria from the rows, if any)");
  assert.equal(await page.isVisible("#config-clear"), false);
  await markPending(page);
  await page.click("#run");
  assert.equal(await settled(page), "invalid");
  assert.deepEqual(await offered(page), []);
  // `?dataset=URL&config=URL` opens the dataset with its config.
  const linked = await harness.open({
    path: `/web/index.html?dataset=${encodeURIComponent("/examples/foundry-demo.jsonl")}&config=${encodeURIComponent("/examples/foundry-config.json")}`,
  });
  assert.equal(await settled(linked.page), "done", await linked.page.textContent("#diagnostics"));
  assert.equal(await linked.page.textContent("#dataset-name"), "foundry-demo.jsonl: foundry, 3 entries");
  assert.equal(await linked.page.textContent("#config-name"), "config: foundry-config.json");
  assert.deepEqual([...problems, ...linked.problems], []);
});

test("page loading: an unknown evaluator and a bad item are listed under Problems, each at its place", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const text = '{\n  "schemaVersion": "1.11.0",\n  "default_evaluators": {\n    "ExactMatchh": {},\n    "PartialMatch": {}\n  },\n  "items": [\n    {"prompt": "p", "response": "r", "expected_response": "r"},\n    {"prompt": 42, "response": "x"}\n  ]\n}';
  assert.equal(await openFile(page, "typo.json", text), "done");
  await page.waitForFunction(() => /ExactMatchh/.test(document.querySelector("#diagnostics-list")?.textContent ?? ""));
  const items = await page.$$eval("#diagnostics-list li", (list) => list.map((item) => item.textContent));
  const typo = items.find((item) => item.includes("ExactMatchh"));
  assert.match(typo, /\/default_evaluators\/ExactMatchh: ExactMatchh \(evaluatorLoadError\): Unknown evaluator 'ExactMatchh'.*did you mean 'ExactMatch'\?/);
  assert.match(typo, /— entry item-0$/);
  assert.ok(items.some((item) => /\/items\/1\/prompt/.test(item)), items.join("\n"));
  await page.click("#diagnostics-list li:has-text('ExactMatchh') button");
  await page.waitForSelector("#excerpt .excerpt-here");
  assert.equal(await page.getAttribute("#excerpt .excerpt-here", "data-line"), "4");
  assert.deepEqual(problems, []);
});

test("page loading: a Copilot Studio CSV scored with the judge keeps its inputs in the item view and search", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await configure(page, judgeUrl);
  const text = await readFile(join(root, "tests/fixtures/copilot-studio/judged.csv"), "utf8");
  assert.equal(await openFile(page, "judged.csv", text), "done", await page.textContent("#diagnostics"));
  assert.equal((await summary(page)).entries, 7);
  await page.click('.table-viewport .table-row[aria-rowindex="2"]');
  await page.waitForSelector("dialog.item-view[open]");
  const view = await page.textContent("dialog.item-view");
  assert.match(view, /Prompt\s*How many vacation days do I get\?/);
  assert.match(view, /Response\s*You get 25 days\./);
  assert.match(view, /Expected response\s*25 days a year/);
  await page.keyboard.press("Escape");
  await page.fill("#filter-text", "vacation");
  await page.waitForFunction(() => document.querySelector("#table-count").textContent.startsWith("1 of 7"));
  assert.deepEqual((await tableRows(page)).map((row) => row.entry), ["item-0"]);
  assert.deepEqual(problems, []);
});

test("page loading: honest numbers — the headline, no null, plural nouns, exports per dialect, a fixed total", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  // Entries with errors and a skipped one are beside the pass rate, over every entry.
  const mixed = JSON.stringify({
    schemaVersion: "1.11.0",
    default_evaluators: {},
    items: [
      { prompt: "a", response: "yes", expected_response: "yes", evaluators: { ExactMatch: {} } },
      { prompt: "b", response: "", expected_response: "no", evaluators: { ExactMatch: {} } },
      { prompt: "c", response: "maybe", expected_response: "no", evaluators: { ExactMatch: {} } },
      { prompt: "d", response: "yes", expected_response: "yes", evaluators: { Relevance: {} } },
    ],
  });
  assert.equal(await openFile(page, "mixed.json", mixed), "done");
  assert.equal(await page.textContent("#headline"), "25.0 % pass · 1 fail · 1 error · 1 skipped · n = 4 · 1 verdict skipped");
  assert.equal((await summary(page)).skipped, 1);
  assert.deepEqual((await tableRows(page)).map((row) => row.status), ["pass", "error", "fail", "skipped"]);
  assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /\bnull\b/);
  await page.click('.table-viewport .table-row[aria-rowindex="5"]');
  await page.waitForSelector("dialog.item-view[open]");
  assert.equal(await page.textContent("#item-title"), "item-3 — skipped");
  await page.keyboard.press("Escape");
  const one = JSON.stringify({ schemaVersion: "1.11.0", items: [{ prompt: "a", response: "yes", expected_response: "yes" }] });
  assert.equal(await openFile(page, "one.json", one), "done");
  assert.equal(await page.textContent("#dataset-name"), "one.json: m365, 1 entry");
  assert.equal(await page.textContent("#table-count"), "1 of 1 entry");
  assert.match(await page.textContent("#run-status"), /^Done: scored 1 entry in /);
  // The export buttons are the plan's formats for the dialect.
  const formats = await offered(page);
  assert.equal(formats[0], "document");
  assert.ok(!formats.includes("foundry") && !formats.includes("copilot"), formats.join(" "));
  assert.equal(await openFile(page, "notes.txt", "just some notes"), "invalid");
  assert.deepEqual(await offered(page), []);
  assert.doesNotMatch(await page.textContent("#dataset-name"), /^Reading/);
  // A disabled Score looks disabled.
  const looks = await page.evaluate(() => {
    const button = document.querySelector("#run");
    const enabled = getComputedStyle(button).backgroundColor;
    button.disabled = true;
    const disabled = getComputedStyle(button).backgroundColor;
    button.disabled = false;
    return { enabled, disabled };
  });
  assert.notEqual(looks.disabled, looks.enabled);
  // During a run the total is the plan's, threads and all, from the first progress on.
  const threads = {
    schemaVersion: "1.11.0",
    default_evaluators: { PartialMatch: {} },
    items: Array.from({ length: 30000 }, (_, index) => ({
      turns: [
        { prompt: `q${index}`, response: "Paris is the capital.", expected_response: "Paris" },
        { prompt: `r${index}`, response: "Lyon.", expected_response: "Paris" },
      ],
    })),
  };
  await pickFile(page, "threads.json", JSON.stringify(threads));
  await page.waitForFunction(() => /^\d+ \/ \d+ entries/.test(document.querySelector("#run-status").textContent), null, { timeout: 60000 });
  const totals = new Set();
  while ((await page.evaluate(() => document.body.dataset.state)) === "running") {
    const match = (await page.textContent("#run-status")).match(/^\d+ \/ (\d+) entries/);
    if (match) totals.add(match[1]);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.deepEqual([...totals], ["60000"]);
  assert.equal(await settled(page), "done");
  assert.deepEqual(problems, []);
});

test("page loading: an unreachable judge raises a banner at once; Test connection tells a closed port from CORS", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const port = await closedPort();
  await configure(page, `http://127.0.0.1:${port}`);
  await page.click("#judge-test");
  await page.waitForFunction(() => /^Cannot|^Connected|did not/.test(document.querySelector("#judge-status").textContent));
  assert.equal(await page.textContent("#judge-status"), `Cannot reach the judge: connection refused to 127.0.0.1:${port} — check the endpoint (host and port).`);
  // A server without CORS headers answers, but the page cannot read it.
  const plain = createServer((request, response) => response.end("{}"));
  await new Promise((resolve) => plain.listen(0, "127.0.0.1", resolve));
  try {
    await page.fill("#judge-endpoint", `http://127.0.0.1:${plain.address().port}`);
    await page.click("#judge-test");
    await page.waitForFunction(() => /CORS/.test(document.querySelector("#judge-status").textContent));
  } finally {
    await new Promise((resolve) => plain.close(resolve));
  }
  await page.fill("#judge-endpoint", `http://127.0.0.1:${port}`);
  const dataset = JSON.stringify({ schemaVersion: "1.11.0", default_evaluators: { Relevance: {} }, items: [{ prompt: "p", response: "r" }] });
  await pickFile(page, "unreachable.json", dataset);
  await page.waitForSelector("#judge-banner:not([hidden])", { timeout: 5000 });
  assert.equal(await page.textContent("#judge-banner"), `Judge calls will fail: connection refused to 127.0.0.1:${port} — check the endpoint (host and port).`);
  await page.click("#cancel");
  await settled(page);
  // The page tolerates the refused connections it provoked; nothing else went wrong.
  assert.deepEqual(problems.filter((problem) => !/ERR_CONNECTION_REFUSED|CORS|Failed to fetch|Access-Control/i.test(problem)), []);
});

test("page loading: the table says what each entry is — name, prompt and response, full names, chart bars filter", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const cells = () =>
    page.$$eval(".table-viewport .table-row", (rows) =>
      rows
        .sort((a, b) => a.getAttribute("aria-rowindex") - b.getAttribute("aria-rowindex"))
        .map((row) => ({ entry: row.children[0].textContent, thread: row.children[2].textContent, name: row.children[4].textContent, prompt: row.children[5].textContent, response: row.children[6].title })),
    );
  await page.waitForFunction(() => [...document.querySelectorAll(".table-viewport .table-row")].every((row) => row.children[5].textContent !== ""));
  const rows = await cells();
  const demo = JSON.parse(await readFile(join(root, "examples/m365-demo.json"), "utf8"));
  assert.deepEqual(rows[0], { entry: "item-0", thread: "", name: "", prompt: demo.items[0].prompt, response: demo.items[0].response });
  assert.deepEqual(rows.slice(5).map((row) => [row.entry, row.thread, row.name, row.prompt]), [
    ["item-5.turn-0", "Onboarding conversation", "", "I start on Monday. What should I bring?"],
    ["item-5.turn-1", "Onboarding conversation", "", "Where do I park?"],
  ]);
  const headers = await page.$$eval(".table-head [role=columnheader]", (list) => list.map((header) => header.textContent.replace(/ [▲▼]$/, "")));
  assert.deepEqual(headers.slice(0, 7), ["Entry", "Status", "Thread", "Turn", "Id or name", "Prompt", "Response"]);
  // Full evaluator names, never cut into the same text.
  const shown = await page.$$eval(".table-head button.sort", (buttons) => buttons.map((button) => ({ text: button.textContent, clipped: button.scrollWidth > button.clientWidth })));
  assert.ok(shown.every((entry) => !entry.clipped), JSON.stringify(shown));
  // A pass-rate bar filters the table by its evaluator.
  await page.click('.charts svg[role=img] rect.bar-pass:has(title:text-matches("^ExactMatch"))');
  assert.equal(await page.inputValue("#filter-evaluator"), "ExactMatch");
  assert.deepEqual((await tableRows(page)).map((row) => row.entry), ["item-2"]);
  assert.deepEqual(problems, []);
});
