// The web page end to end in headless Chromium (playwright-core), served as `cargo xtask serve`
// serves it: the built-in example scored on opening, every dialect by file, paste, URL and drop,
// bad files with their problems located in the text, filters, sorting, the item view, scoring a
// scored file again and comparing with its scores (the other Compare flows are in
// page-compare.test.js), every export against the native CLI byte for byte, keyboard use, and
// phone widths.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { root } from "./helpers.js";
import { markPending, openFile, pageSuite, screenshot, settled, showLoader, summary, tableRows } from "./page-helpers.js";

const cli = process.env.AGENTEVAL_CLI ?? join(root, "target/debug/agenteval");
const harness = pageSuite();

function cliReport(args) {
  const result = spawnSync(cli, ["score", ...args, "--format", "report"], { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH } });
  assert.ok(result.status === 0 || result.status === 1, result.stderr);
  return JSON.parse(result.stdout);
}

/** The CLI's run report of `text` (written to a temporary file named `name`). */
function cliReportOf(text, name, extra = []) {
  const directory = mkdtempSync(join(tmpdir(), "agenteval-page-"));
  const path = join(directory, name);
  writeFileSync(path, text);
  return cliReport([path, ...extra]);
}

function entriesOf(report) {
  const { items, pass, fail, partial, error } = report.summary;
  const skipped = report.items.filter((entry) => entry.status === null).length;
  return { entries: items, pass, fail, partial, error, skipped };
}

const legacy = JSON.stringify([
  { prompt: "Capital of France?", expected_response: "Paris is the capital.", response: "The capital is Paris." },
  { prompt: "2+2?", expected_response: "4", response: "five" },
]);

const foundryRows = [
  { query: "Capital of France?", response: "Paris is the capital of France.", ground_truth: "The capital of France is Paris." },
  { query: "Who wrote Hamlet?", response: "Marlowe.", ground_truth: "Shakespeare wrote Hamlet." },
];

const foundryConfig = {
  testing_criteria: [
    {
      type: "azure_ai_evaluator",
      name: "f1",
      evaluator_name: "builtin.f1_score",
      initialization_parameters: { threshold: 0.5 },
      data_mapping: { response: "{{item.response}}", ground_truth: "{{item.ground_truth}}" },
    },
  ],
};

test("page: opens with the built-in example scored, the cards equal the CLI's summary", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  const expected = entriesOf(cliReport(["examples/m365-demo.json"]));
  assert.deepEqual(await summary(page), expected);
  const rows = await tableRows(page);
  assert.equal(rows.length, expected.entries);
  assert.deepEqual(rows.map((row) => row.entry), ["item-0", "item-1", "item-2", "item-3", "item-4", "item-5.turn-0", "item-5.turn-1"]);
  const cli = cliReport(["examples/m365-demo.json"]);
  assert.deepEqual(rows.map((row) => row.status), cli.items.map((entry) => entry.status));
  const rate = await page.textContent('#summary [data-evaluator="PartialMatch"] .card-value');
  assert.equal(rate, `${(cli.summary.evaluators.PartialMatch.pass_rate * 100).toFixed(1)} %`);
  assert.equal(await page.locator(".charts svg[role=img]").count(), 3, "pass rates, scores and tags");
  await screenshot(page, "results");
  assert.deepEqual(problems, []);
});

test("page: every dialect by file input, paste, URL and drop gives the CLI's verdicts", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  // M365 legacy array, by file.
  assert.equal(await openFile(page, "legacy.json", legacy), "done");
  const legacyReport = cliReportOf(legacy, "legacy.json");
  assert.deepEqual(await summary(page), entriesOf(legacyReport));
  assert.deepEqual((await tableRows(page)).map((row) => row.status), legacyReport.items.map((entry) => entry.status ?? "skipped"));
  // Foundry JSONL with its config given separately.
  await page.setInputFiles("#config-file", { name: "config.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(foundryConfig)) });
  await page.waitForFunction(() => document.querySelector("#config-name").textContent === "config: config.json");
  const jsonl = foundryRows.map((row) => JSON.stringify(row)).join("\n");
  assert.equal(await openFile(page, "rows.jsonl", jsonl), "done", await page.textContent("#diagnostics"));
  assert.equal(await page.textContent("#dataset-name"), "rows.jsonl: foundry, 2 entries");
  const configPath = join(mkdtempSync(join(tmpdir(), "agenteval-page-")), "config.json");
  writeFileSync(configPath, JSON.stringify(foundryConfig));
  const foundryReport = cliReportOf(jsonl, "rows.jsonl", ["--config", configPath]);
  assert.deepEqual((await tableRows(page)).map((row) => row.status), foundryReport.items.map((entry) => entry.status));
  assert.deepEqual(foundryReport.items.map((entry) => entry.status), ["pass", "fail"]);
  // Foundry JSONL with the config as its first line, pasted.
  await markPending(page);
  await showLoader(page);
  await page.click("details:has(#dataset-paste) > summary");
  await page.fill("#dataset-paste", [JSON.stringify(foundryConfig), ...foundryRows.map((row) => JSON.stringify(row))].join("\n"));
  await page.click("#dataset-paste-score");
  assert.equal(await settled(page), "done", await page.textContent("#diagnostics"));
  assert.deepEqual((await summary(page)).entries, 2);
  // The example by URL (served beside the page).
  await markPending(page);
  await showLoader(page);
  await page.fill("#dataset-url", `${harness.server.url}/examples/m365-demo.json`);
  await page.click("#dataset-url-load");
  assert.equal(await settled(page), "done");
  assert.equal((await summary(page)).entries, 7);
  // A file dropped on the page.
  await page.evaluate(async (text) => {
    document.body.dataset.state = "test-pending";
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], "dropped.json", { type: "application/json" }));
    document.body.dispatchEvent(new DragEvent("dragenter", { dataTransfer: transfer, bubbles: true }));
    document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, legacy);
  assert.equal(await settled(page), "done");
  assert.match(await page.textContent("#dataset-name"), /^dropped\.json: m365, 2 entries/);
  assert.equal(await page.isHidden("#drop-hint"), true);
  // The dataset URL as a query parameter.
  const linked = await harness.open({ path: `/web/index.html?dataset=${encodeURIComponent("/examples/m365-demo.json")}` });
  assert.equal(await settled(linked.page), "done");
  assert.match(await linked.page.textContent("#dataset-name"), /^m365-demo\.json: m365, 7 entries/);
  assert.deepEqual([...problems, ...linked.problems], []);
});

test("page: bad files list their problems with line and column or pointer, and show the spot", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const broken = '{\n  "schemaVersion": "1.6.0",\n  "items": [\n    {"prompt": "a", "response": "b",}\n  ]\n}';
  assert.equal(await openFile(page, "broken.json", broken), "invalid");
  const first = await page.textContent("#diagnostics-list li:first-child");
  assert.match(first, /line 4, column \d+/);
  await page.click("#diagnostics-list li:first-child button");
  await page.waitForSelector("#excerpt .excerpt-here");
  assert.equal(await page.getAttribute("#excerpt .excerpt-here", "data-line"), "4");
  assert.match(await page.textContent("#excerpt .excerpt-here"), /"response": "b",}/);
  // A bad item is scored as an error entry, as the CLI does, and its problem is named by its JSON
  // pointer and located in the text.
  const wrong = '{\n  "schemaVersion": "1.6.0",\n  "items": [\n    {"prompt": "a"},\n    {"prompt": 42, "response": "b"}\n  ]\n}';
  assert.equal(await openFile(page, "wrong.json", wrong), "done");
  await page.waitForSelector("#diagnostics:not([hidden])");
  assert.equal((await tableRows(page))[1].status, "error");
  const pointer = await page.textContent("#diagnostics-list");
  assert.match(pointer, /\/items\/1\/prompt/);
  await page.click("#diagnostics-list li:first-child button");
  await page.waitForSelector("#excerpt .excerpt-here");
  assert.equal(await page.getAttribute("#excerpt .excerpt-here", "data-line"), "5");
  assert.equal(await page.textContent("#excerpt .excerpt-mark"), "4");
  await screenshot(page, "problems");
  // Not a dataset at all.
  assert.equal(await openFile(page, "notes.txt", "just some notes"), "invalid");
  assert.match(await page.textContent("#diagnostics-list"), /line 1, column 1/);
  assert.deepEqual(problems, []);
});

test("page: filters, search and sorting narrow and order the table", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await page.selectOption("#filter-status", "fail");
  assert.deepEqual((await tableRows(page)).map((row) => row.entry), ["item-1", "item-5.turn-0", "item-5.turn-1"]);
  await page.selectOption("#filter-evaluator", "Citations");
  assert.deepEqual((await tableRows(page)).map((row) => row.entry), ["item-1", "item-5.turn-0", "item-5.turn-1"]);
  await page.selectOption("#filter-status", "pass");
  assert.deepEqual((await tableRows(page)).map((row) => row.entry), ["item-0", "item-3"]);
  await page.selectOption("#filter-status", "");
  await page.selectOption("#filter-evaluator", "");
  await page.selectOption("#filter-tag", "leave");
  assert.deepEqual((await tableRows(page)).map((row) => row.entry), ["item-0", "item-1"]);
  await page.selectOption("#filter-tag", "");
  await page.fill("#filter-text", "garage b");
  await page.waitForFunction(() => document.querySelector("#table-count").textContent.startsWith("1 of"));
  assert.deepEqual((await tableRows(page)).map((row) => row.entry), ["item-5.turn-1"]);
  await page.fill("#filter-text", "");
  await page.waitForFunction(() => document.querySelector("#table-count").textContent.startsWith("7 of"));
  await page.click('[role=columnheader] button:text-is("Status")');
  const byStatus = (await tableRows(page)).map((row) => row.status);
  assert.deepEqual(byStatus, ["error", "fail", "fail", "fail", "pass", "pass", "pass"]);
  await page.click('[role=columnheader] button:has-text("PartialMatch")');
  await page.click('[role=columnheader] button:has-text("PartialMatch")');
  assert.equal(await page.getAttribute('[role=columnheader]:has(button:has-text("PartialMatch"))', "aria-sort"), "descending");
  assert.equal((await tableRows(page))[0].entry, "item-5.turn-0", "the highest PartialMatch score (0.941) first");
  assert.deepEqual(problems, []);
});

test("page: the item view shows the entry's text, citations marked, and every verdict", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await page.click('.table-viewport .table-row[aria-rowindex="5"]');
  await page.waitForSelector("dialog.item-view[open]");
  const text = await page.textContent("dialog.item-view");
  assert.match(text, /Summarize the travel policy/);
  assert.match(text, /Economy class for flights under 6 hours/);
  assert.deepEqual(await page.$$eval("dialog.item-view mark.citation", (marks) => marks.map((mark) => mark.textContent)), ["[1]", "[2]"]);
  const verdicts = await page.$$eval("dialog.item-view .verdicts tbody tr", (rows) => rows.map((row) => row.children[0].textContent));
  assert.deepEqual(verdicts, ["PartialMatch", "Citations", "KeywordMatch", "RetrievalQuery", "RetrievalResult"]);
  assert.match(text, /Retrieval diagnostics/);
  await screenshot(page, "item");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("dialog.item-view").open);
  // An error entry names its code.
  await page.click('.table-viewport .table-row[aria-rowindex="6"]');
  await page.waitForSelector("dialog.item-view[open]");
  assert.match(await page.textContent("dialog.item-view .verdicts"), /emptyAgentResponse/);
  assert.deepEqual(problems, []);
});

function normalise(text) {
  return text.replace(/"evaluatedAt": "[^"]*"/g, '"evaluatedAt": "T"');
}

test("page: every export is byte for byte what the CLI writes for the same run", async () => {
  const problems = [];
  const cases = [
    { open: null, args: ["m365-demo.json"], formats: ["document", "report", "csv", "junit", "md", "html"] },
    {
      open: { name: "foundry-demo.jsonl", config: "examples/foundry-config.json" },
      args: ["foundry-demo.jsonl", "--config", "foundry-config.json"],
      formats: ["foundry", "foundry-results", "report", "csv", "junit", "md", "html"],
    },
  ];
  for (const { open, args, formats } of cases) {
    // A page for each dataset: Chromium holds back a page's tenth download in a row.
    const opened = await harness.open();
    const page = opened.page;
    await settled(page);
    if (open) {
      await page.setInputFiles("#config-file", join(root, open.config));
      await page.waitForFunction(() => document.querySelector("#config-name").textContent === "config: foundry-config.json");
      await openFile(page, open.name, await readFile(join(root, "examples", open.name), "utf8"));
    }
    const offered = await page.$$eval("#exports button", (buttons) => buttons.map((button) => button.dataset.format));
    assert.deepEqual(offered.sort(), [...formats].sort());
    for (const format of formats) {
      const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: 15000 }).catch(async (error) => {
          throw new Error(`${format}: no download (${await page.textContent("#message")}; ${error.message})`);
        }),
        page.click(`#exports button[data-format="${format}"]`),
      ]);
      const written = await readFile(await download.path(), "utf8");
      // The CLI run from the dataset's folder, so that it names the dataset as the page does.
      const result = spawnSync(cli, ["score", ...args, "--format", format], { cwd: join(root, "examples"), encoding: "utf8", env: { PATH: process.env.PATH } });
      assert.ok(result.status === 0 || result.status === 1, result.stderr);
      assert.equal(normalise(written), normalise(result.stdout), `${args[0]} --format ${format}`);
      assert.match(download.suggestedFilename(), /^[\w.-]+\.(scored\.json|scored\.jsonl|results\.jsonl|report\.json|csv|junit\.xml|md|html)$/);
    }
    problems.push(...opened.problems);
  }
  assert.deepEqual(problems, []);
});

test("page: keyboard only — tab order reaches every control, arrows move in the table, Enter opens an entry", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const unlabeled = await page.evaluate(() =>
    [...document.querySelectorAll("input, select, textarea, button")]
      .filter((element) => !element.closest("[hidden]"))
      .filter((element) => {
        const label = element.labels?.[0]?.textContent?.trim() || element.getAttribute("aria-label") || element.textContent.trim();
        return !label;
      })
      .map((element) => element.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unlabeled, []);
  await page.focus(".table-viewport");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("aria-rowindex")), "3");
  await page.keyboard.press("Enter");
  await page.waitForSelector("dialog.item-view[open]");
  assert.match(await page.textContent("#item-title"), /^item-1 /);
  await page.keyboard.press("Escape");
  const order = [];
  await showLoader(page);
  await page.focus("#dataset-file");
  for (let step = 0; step < 40; step += 1) {
    await page.keyboard.press("Tab");
    order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.className || document.activeElement.tagName));
  }
  for (const id of ["config-file", "dataset-url", "dataset-url-load", "run", "filter-text", "filter-status"]) {
    assert.ok(order.includes(id), `${id} is not reached by Tab: ${order.join(", ")}`);
  }
  assert.ok(order.indexOf("dataset-url") < order.indexOf("run") && order.indexOf("run") < order.indexOf("filter-text"), order.join(", "));
  assert.deepEqual(problems, []);
});

function luminance([r, g, b]) {
  const channel = (value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

test("page: text meets WCAG AA contrast (4.5:1) on its background", async () => {
  const { page } = await harness.open();
  await settled(page);
  const pairs = await page.evaluate(() => {
    const rgb = (text) => text.match(/\d+(\.\d+)?/g).slice(0, 4).map(Number);
    const background = (element) => {
      for (let node = element; node; node = node.parentElement) {
        const value = rgb(getComputedStyle(node).backgroundColor);
        if (value.length < 4 || value[3] > 0) return value.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const chosen = document.querySelectorAll(".badge, .card-value, .card-label, .card-detail, .hint, .tagline, h1, h2, .table-row [role=cell], button, label");
    return [...chosen]
      .filter((element) => element.textContent.trim() && element.getClientRects().length > 0)
      .map((element) => ({ text: element.textContent.trim().slice(0, 30), color: rgb(getComputedStyle(element).color).slice(0, 3), background: background(element) }));
  });
  assert.ok(pairs.length > 50);
  for (const { text, color, background } of pairs) {
    const [light, dark] = [luminance(color), luminance(background)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05);
    assert.ok(ratio >= 4.5, `"${text}": contrast ${ratio.toFixed(2)} (${color} on ${background})`);
  }
});

test("page: readable at phone width — nothing wider than the screen but the table's own scroller", async () => {
  const { page, problems } = await harness.open({ viewport: { width: 390, height: 844 } });
  await settled(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  assert.equal((await tableRows(page)).length, 7);
  await screenshot(page, "phone");
  assert.deepEqual(problems, []);
});

test("page: a scored document and runevals results open as reports; scoring again compares with them", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  const scored = spawnSync(cli, ["score", "m365-demo.json", "--format", "document"], { cwd: join(root, "examples"), encoding: "utf8", env: { PATH: process.env.PATH } }).stdout;
  assert.equal(await openFile(page, "m365-demo.scored.json", scored), "done");
  assert.match(await page.textContent("#dataset-name"), /^m365-demo\.scored\.json: m365 report with 7 scored entries, shown as stored/);
  const expected = cliReport(["examples/m365-demo.json"]).items.map((entry) => entry.status);
  assert.deepEqual((await tableRows(page)).map((row) => row.status), expected);
  await markPending(page);
  await page.click("#run");
  assert.equal(await settled(page), "done");
  await page.waitForSelector("#compare:not([hidden]) #compare-metrics");
  assert.equal(await page.textContent("#compare-title"), "Compared with m365-demo.scored.json");
  assert.equal(await page.textContent("#compare-changed summary"), "0 paired items changed");
  // runevals results: shown as stored, then scored again from their prompts and responses.
  const runevals = await readFile(join(root, "tests/fixtures/scored/runevals-partial-match.json"), "utf8");
  assert.equal(await openFile(page, "results-20260101.json", runevals), "done");
  assert.match(await page.textContent("#dataset-name"), /m365 report with 4 scored entries, shown as stored/);
  const stored = await page.evaluate(() => globalThis.agentevalPage.view.results.rows.map((row) => row.results.map((result) => [result.evaluator, result.result, result.score])));
  assert.deepEqual(stored[0], [["PartialMatch", "pass", 0.7143]]);
  await markPending(page);
  await page.click("#run");
  assert.equal(await settled(page), "done");
  assert.equal((await summary(page)).entries, 4);
  const rescored = await page.evaluate(() => globalThis.agentevalPage.view.results.rows.map((row) => row.results.map((result) => result.evaluator)));
  assert.deepEqual(rescored, [["PartialMatch"], ["PartialMatch"], ["PartialMatch"], []], "the evaluators each result was scored with (the last has none)");
  await page.waitForSelector('#compare:not([hidden]) #compare-metrics tr[data-evaluator="partialMatch"][data-metric="score"]');
  const row = await page.$eval('#compare-metrics tr[data-evaluator="partialMatch"][data-metric="score"]', (element) => [...element.children].map((cell) => cell.textContent));
  assert.match(row[3], /^0\.\d{3} \[/, "the stored mean score, with its interval");
  assert.match(row[4], /^0\.\d{3} \[/, "the mean score scored again, with its interval");
  assert.deepEqual(problems, []);
});
