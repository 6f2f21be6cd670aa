// The README's main job, `cargo xtask serve`, as a user runs it (the xtask binary that runs these
// tests is passed as AGENTEVAL_XTASK): the page is served with its security headers, opens with the
// built-in example scored, offers the local demo judge, and scores the example's judged evaluators
// with it.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";

import { launchChromium } from "./helpers.js";
import { markPending, settled, summary } from "./page-helpers.js";

const xtask = process.env.AGENTEVAL_XTASK;
if (!xtask) throw new Error("AGENTEVAL_XTASK is unset: run these tests through `cargo xtask test`");

let server;
let url;
let browser;

before(async () => {
  server = spawn(xtask, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise((resolve, reject) => {
    let printed = "";
    server.stdout.on("data", (chunk) => {
      printed += chunk;
      const found = printed.match(/^page:\s+(http:\/\/127\.0\.0\.1:\d+)\/$/m);
      if (found) resolve(found[1]);
    });
    server.on("exit", (code) => reject(new Error(`cargo xtask serve exited (${code}) before printing the page's URL: ${printed}`)));
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.kill();
});

test("serve: security headers, and nothing outside web/, pkg/ and examples/", async () => {
  const page = await fetch(`${url}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type"), /^text\/html/);
  const policy = page.headers.get("content-security-policy");
  assert.match(policy, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.match(policy, /frame-ancestors 'self'/);
  assert.equal(page.headers.get("x-content-type-options"), "nosniff");
  assert.equal((await fetch(`${url}/pkg/agenteval_wasm_bg.wasm`)).headers.get("content-type"), "application/wasm");
  for (const path of ["/../Cargo.toml", "/%2e%2e/Cargo.toml", "/crates/core/src/lib.rs", "/pkg/../Cargo.toml"]) {
    assert.equal((await fetch(`${url}${path}`)).status, 404, path);
  }
  const served = await (await fetch(`${url}/serve.json`)).json();
  assert.equal(served.judge.kind, "azure");
  assert.match(served.judge.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
});

test("serve: the page opens with the example scored and scores its judged evaluators with the demo judge", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  await page.goto(`${url}/`);
  assert.equal(await settled(page), "done");
  assert.equal((await summary(page)).entries, 7);
  assert.match(await page.textContent('#summary [data-evaluator="Coherence"] .card-detail'), /1 skipped/);
  await page.click("#judge-panel > summary");
  await page.waitForSelector("#judge-demo:not([hidden])");
  await page.click("#judge-demo");
  assert.equal(await page.isChecked("#judge-enabled"), true);
  await markPending(page);
  await page.click("#run");
  assert.equal(await settled(page), "done");
  assert.match(await page.textContent('#summary [data-evaluator="Coherence"] .card-detail'), /0 skipped/);
  assert.match(await page.textContent("#run-status"), /judge: 1 calls/);
  assert.deepEqual(problems, []);
  await context.close();
});
