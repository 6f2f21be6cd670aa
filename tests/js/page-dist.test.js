// The page as one offline file (`cargo xtask dist`), opened from file:// in headless Chromium with
// every HTTP(S) request refused: it scores its built-in example, then a dataset picked with the
// file input, with no page error, no console error and no CSP violation, and never reaches for
// the network. `cargo xtask test` builds the file and passes its path as AGENTEVAL_DIST.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";

import { join } from "node:path";

import { document as m365Document, launchChromium, root } from "./helpers.js";

const dist = process.env.AGENTEVAL_DIST;
if (!dist) throw new Error("AGENTEVAL_DIST is unset: run these tests through `cargo xtask test` (it builds the offline file)");

/** Entries of the built-in example (examples/m365-demo.json). */
const EXAMPLE_ENTRIES = 7;

let browser;
let page;
const problems = [];
const requests = [];

function watchConsole(source, where) {
  source.on("console", (message) => {
    if (message.type() === "error") problems.push(`${where} console error: ${message.text()}`);
  });
}

before(async () => {
  browser = await launchChromium();
  const context = await browser.newContext();
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (/^(https?|wss?):/i.test(url)) {
      requests.push(url);
      return route.abort("internetdisconnected");
    }
    return route.continue();
  });
  await context.addInitScript(() => {
    document.addEventListener(
      "securitypolicyviolation",
      (event) => console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`),
      true,
    );
  });
  page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`page error: ${error.stack ?? error}`));
  page.on("worker", (worker) => watchConsole(worker, "worker"));
  watchConsole(page, "page");
  await page.goto(pathToFileURL(dist).href);
});

after(async () => {
  await browser?.close();
});

/** Waits until the page has scored a dataset of `entries` entries; fails at the first problem. */
async function scored(entries) {
  const deadline = Date.now() + 60_000;
  let seen = {};
  while (Date.now() < deadline) {
    assert.deepEqual(problems, [], `reported while the page was in state ${seen.state}`);
    seen = await page.evaluate(() => ({
      state: document.body.dataset.state,
      entries: document.querySelector('#summary [data-summary="entries"]')?.textContent ?? "",
      title: document.getElementById("dataset-name")?.textContent ?? "",
      message: document.getElementById("message")?.textContent ?? "",
    }));
    assert.ok(!["error", "invalid"].includes(seen.state), `the page stopped in state ${seen.state}: ${seen.message}`);
    if (seen.state === "done" && Number(seen.entries.replace(/[^\d]/g, "")) === entries) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`no ${entries} scored entries within 60 s: state ${seen.state}, "${seen.title}", entries "${seen.entries}"`);
}

test("dist: the offline file scores the built-in example", async () => {
  await scored(EXAMPLE_ENTRIES);
  const inlined = await page.evaluate(() =>
    ["agenteval-engine", "agenteval-wasm", "agenteval-example"].map((id) => document.getElementById(id)?.tagName),
  );
  assert.deepEqual(inlined, ["SCRIPT", "SCRIPT", "SCRIPT"]);
  assert.equal(await page.locator("#start-hint").count(), 0, "the start-up hint is gone once the page runs");
  assert.deepEqual(problems, []);
  assert.deepEqual(requests, []);
});

test("dist: a dataset picked with the file input is scored in the file too", async () => {
  const dataset = m365Document(3, { PartialMatch: {} });
  await page.setInputFiles("#dataset-file", {
    name: "three.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(dataset)),
  }, { timeout: 10_000 });
  await scored(3);
  assert.deepEqual(problems, []);
  assert.deepEqual(requests, [], "the offline file reached for the network");
});

test("web/index.html opened from file:// says it needs agenteval view or the offline file", async () => {
  const context = await browser.newContext();
  const plain = await context.newPage();
  await plain.goto(pathToFileURL(join(root, "web/index.html")).href);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const hint = plain.locator("#start-hint");
  assert.ok(await hint.isVisible(), "the hint is shown");
  assert.match(await hint.textContent(), /agenteval view.*offline file/s);
  await context.close();
});
