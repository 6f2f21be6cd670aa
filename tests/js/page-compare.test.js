// The page's Compare in headless Chromium, as a user walks it: the example scored, then a copy
// with one item inserted at the top compared with that earlier run (exactly one added entry,
// nothing changed), a regression with its flips, side-by-side verdicts and the table's "changed
// only" and "regressions" filters, a Foundry baseline against an M365 run refused because the
// dialects differ, the scores a file carried compared with the run that scored it again, a judged
// run as the baseline (its kept results written into its dataset), and the comparison's exports
// byte for byte what `agenteval compare --format …` writes for the same files.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { localJudge, root } from "./helpers.js";
import { configureJudge, markPending, openFile, pageSuite, screenshot, settled, tableRows } from "./page-helpers.js";

const cli = process.env.AGENTEVAL_CLI ?? join(root, "target/debug/agenteval");
const { url: judgeUrl, key: judgeKey } = localJudge();
const harness = pageSuite();

const demo = () => readFile(join(root, "examples/m365-demo.json"), "utf8").then(JSON.parse);

/** The example with a new item inserted at the top. */
async function inserted() {
  const document = await demo();
  document.items.unshift({ prompt: "Where is the cafeteria?", response: "On the ground floor.", expected_response: "The cafeteria is on the ground floor." });
  return JSON.stringify(document, null, 2);
}

/** Compares the run shown with the stored run of the dataset named `name`. */
async function compareWithRun(page, name) {
  await page.waitForFunction((wanted) => [...document.querySelectorAll("#compare-run option")].some((option) => option.textContent.startsWith(`${wanted} — `)), name);
  const value = await page.$$eval("#compare-run option", (options, wanted) => options.find((option) => option.textContent.startsWith(`${wanted} — `)).value, name);
  await page.selectOption("#compare-run", value);
  await page.click("#compare-run-button");
  await page.waitForSelector("#compare:not([hidden]) #compare-metrics");
}

/** The metrics table: `{"evaluator metric": [effect class, effect text, flips]}`. */
async function metrics(page) {
  return page.$$eval("#compare-metrics tbody tr", (rows) =>
    Object.fromEntries(
      rows.map((row) => {
        const effect = row.querySelector("td.effect");
        return [`${row.dataset.evaluator} ${row.dataset.metric}`, [effect.dataset.effect, effect.textContent, row.lastElementChild.textContent]];
      }),
    ),
  );
}

async function showSubset(page, subset) {
  await page.selectOption("#filter-compare", subset);
  return (await tableRows(page)).map((row) => row.entry);
}

test("page compare: an item inserted at the top is exactly one added entry and nothing changes", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  assert.equal(await openFile(page, "m365-demo-inserted.json", await inserted()), "done");
  await compareWithRun(page, "m365-demo.json");
  assert.equal(await page.textContent("#compare-title"), "Compared with m365-demo.json");
  assert.equal(await page.textContent("#compare-pairing"), "Paired by prompt: 6 matched, 0 only in the baseline, 1 only in the candidate. 1 thread counted as one sample each.");
  const unmatched = await page.$$eval("#compare-unmatched li", (items) => items.map((item) => [item.dataset.run, item.textContent]));
  assert.deepEqual(unmatched, [["candidate", "only in the candidate: item 0, Where is the cafeteria?"]]);
  assert.equal(await page.textContent("#compare-changed summary"), "0 paired items changed");
  assert.equal(await page.textContent("#compare-nothing"), "No metric differs significantly between the runs.");
  const table = await metrics(page);
  assert.deepEqual(Object.keys(table).slice(0, 4), ["partialMatch pass_rate", "partialMatch score", "citations pass_rate", "citations score"]);
  for (const [name, [effect, text, flips]] of Object.entries(table)) {
    assert.equal(effect, "inconclusive", name);
    assert.match(text, /^(too few samples|zero samples)$/, name);
    assert.match(flips, name.endsWith("pass_rate") ? /^0 \/ 0$/ : /^–$/, name);
  }
  assert.equal(table["relevance pass_rate"][1], "zero samples", "a judged evaluator skipped without a judge leaves no pair");
  assert.deepEqual(await showSubset(page, "changed"), []);
  assert.equal(await page.textContent("#table-count"), "0 of 8 entries");
  assert.deepEqual(await showSubset(page, "regressions"), []);
  assert.equal((await showSubset(page, "")).length, 8);
  await screenshot(page, "compare-inserted");
  assert.deepEqual(problems, []);
});

test("page compare: a regression shows its flips one click away, side by side, and in the table's filters", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  const changed = await demo();
  changed.items[0].response = "I do not know.";
  assert.equal(await openFile(page, "m365-demo-v2.json", JSON.stringify(changed)), "done");
  await compareWithRun(page, "m365-demo.json");
  assert.equal(await page.textContent("#compare-changed summary"), "1 paired item changed");
  const [effect, , flips] = (await metrics(page))["partialMatch pass_rate"];
  assert.equal(effect, "inconclusive");
  assert.equal(flips, "1 / 0");
  assert.equal(await page.isVisible("#compare-flips"), false);
  await page.click('#compare-metrics tr[data-evaluator="partialMatch"][data-metric="pass_rate"] button');
  const flipped = await page.$$eval("#compare-flips li", (items) => items.map((item) => item.textContent));
  assert.deepEqual(flipped, ["How many vacation days do new employees get?: pass → fail"]);
  await page.click("#compare-flips li button");
  assert.equal(await page.textContent("#compare-entry-title"), "How many vacation days do new employees get? — baseline item 0, candidate item 0");
  const sides = await page.$$eval("#compare-entry tbody tr", (rows) => rows.map((row) => [row.dataset.evaluator, row.children[1].textContent, row.children[2].textContent]));
  const partial = sides.find(([evaluator]) => evaluator === "partialMatch");
  assert.match(partial[1], /^pass \(0\.\d+\)$/);
  assert.match(partial[2], /^fail \(0(\.\d+)?\)$/);
  assert.deepEqual(await showSubset(page, "changed"), ["item-0"]);
  assert.deepEqual(await showSubset(page, "regressions"), ["item-0"]);
  await page.click("#compare-entry button");
  await page.waitForSelector("dialog[open]");
  await screenshot(page, "compare-regression");
  assert.deepEqual(problems, []);
});

test("page compare: a Foundry baseline against an M365 run says the dialects differ", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  await page.setInputFiles("#compare-file", join(root, "tests/fixtures/compare/foundry-baseline.jsonl"));
  await page.waitForFunction(() => /dialects differ/.test(document.querySelector("#compare-status").textContent));
  assert.equal(
    await page.textContent("#compare-status"),
    "foundry-baseline.jsonl is foundry (scored Foundry rows) and m365-demo.json is m365 (scored M365 document): the dialects differ; only runs of the same dialect can be compared",
  );
  assert.equal(await page.isVisible("#compare"), false);
  assert.deepEqual(problems, []);
});

test("page compare: scoring a scored file again compares the run with the scores it carried", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  const scored = spawnSync(cli, ["score", "m365-demo.json"], { cwd: join(root, "examples"), encoding: "utf8", env: { PATH: process.env.PATH } });
  assert.ok(scored.status === 0 || scored.status === 1, scored.stderr);
  assert.equal(await openFile(page, "m365-demo.scored.json", scored.stdout), "done");
  assert.equal(await page.isVisible("#compare"), false);
  await markPending(page);
  await page.click("#run");
  assert.equal(await settled(page), "done");
  await page.waitForSelector("#compare:not([hidden]) #compare-metrics");
  assert.equal(await page.textContent("#compare-title"), "Compared with m365-demo.scored.json");
  assert.equal(await page.textContent("#compare-pairing"), "Paired by prompt: 6 matched, 0 only in the baseline, 0 only in the candidate. 1 thread counted as one sample each.");
  assert.equal(await page.textContent("#compare-changed summary"), "0 paired items changed");
  assert.deepEqual(problems, []);
});

test("page compare: the exports are byte for byte what agenteval compare writes for the same files", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  const candidate = await inserted();
  assert.equal(await openFile(page, "m365-demo-inserted.json", candidate), "done");
  await compareWithRun(page, "m365-demo.json");
  // The same runs scored by the CLI, named as the page names them.
  const directory = mkdtempSync(join(tmpdir(), "agenteval-page-compare-"));
  writeFileSync(join(directory, "inserted.input.json"), candidate);
  const scoreInto = (input, output) => {
    const result = spawnSync(cli, ["score", input, "--out", join(directory, output)], { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH } });
    assert.ok(result.status === 0 || result.status === 1, result.stderr);
  };
  scoreInto("examples/m365-demo.json", "m365-demo.json");
  scoreInto(join(directory, "inserted.input.json"), "m365-demo-inserted.json");
  for (const format of ["json", "md", "html"]) {
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 15000 }), page.click(`#compare-exports button[data-compare-format="${format}"]`)]);
    assert.equal(download.suggestedFilename(), `comparison.${format}`);
    const written = await readFile(await download.path(), "utf8");
    const result = spawnSync(cli, ["compare", "m365-demo.json", "m365-demo-inserted.json", "--format", format], { cwd: directory, encoding: "utf8", env: { PATH: process.env.PATH } });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(written, result.stdout, `--format ${format}`);
  }
  assert.deepEqual(problems, []);
});

test("page compare: a judged earlier run is a baseline too, its judge verdicts paired like the others", async () => {
  const { page, problems } = await harness.open();
  assert.equal(await settled(page), "done");
  await configureJudge(page, { endpoint: judgeUrl, key: judgeKey });
  await markPending(page);
  await page.click("#run");
  assert.equal(await settled(page), "done");
  assert.equal(await openFile(page, "m365-demo-inserted.json", await inserted()), "done");
  await compareWithRun(page, "m365-demo.json");
  assert.equal(await page.textContent("#compare-pairing"), "Paired by prompt: 6 matched, 0 only in the baseline, 1 only in the candidate. 1 thread counted as one sample each.");
  assert.equal(await page.textContent("#compare-changed summary"), "0 paired items changed");
  // Coherence, judged on the thread, has a verdict on both sides: the baseline's came from the
  // results kept with the earlier run (without a judge it is skipped, and leaves no pair).
  assert.equal((await metrics(page))["coherence pass_rate"][1], "too few samples");
  const paired = await page.$eval('#compare-metrics tr[data-evaluator="coherence"][data-metric="pass_rate"] td:nth-of-type(2)', (cell) => cell.textContent);
  assert.equal(paired, "1 (5)", "the thread is the one pair; the single-turn items have no coherence");
  assert.deepEqual(problems, []);
});
