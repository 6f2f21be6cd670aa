// The README's main job, `cargo xtask serve`, as a user runs it (the xtask binary that runs these
// tests is passed as AGENTEVAL_XTASK): it runs `agenteval view examples/m365-demo.json`, which
// serves the page compiled into the CLI with its security headers and compression; the page opens
// the example it is given scored, offers the local demo judge, and scores the example's judged
// evaluators with it — from the judge panel, or in one click from the offer a run without a judge
// makes.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { launchChromium, root } from "./helpers.js";
import { markPending, settled, summary } from "./page-helpers.js";

const xtask = process.env.AGENTEVAL_XTASK;
if (!xtask) throw new Error("AGENTEVAL_XTASK is unset: run these tests through `cargo xtask test`");

let server;
let url;
let pageUrl;
let browser;

before(async () => {
  // Its own process group: xtask runs `agenteval view` as a child, and both are stopped together.
  server = spawn(xtask, ["serve", "--port", "0", "--no-open"], { stdio: ["ignore", "pipe", "inherit"], detached: true });
  [pageUrl, url] = await new Promise((resolve, reject) => {
    let printed = "";
    server.stdout.on("data", (chunk) => {
      printed += chunk;
      const found = printed.match(/^page:\s+((http:\/\/127\.0\.0\.1:\d+)\/\S*)$/m);
      if (found) resolve([found[1], found[2]]);
    });
    server.on("exit", (code) => reject(new Error(`cargo xtask serve exited (${code}) before printing the page's URL: ${printed}`)));
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (server) process.kill(-server.pid);
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
  assert.equal(served.judge.apiKey, undefined);
  assert.deepEqual(
    { kind: served.agent.kind, model: served.agent.model, label: served.agent.label },
    { kind: "chat", model: "demo-agent", label: "local demo agent" },
  );
  assert.equal(served.agent.endpoint, `${served.judge.endpoint}/agent/v1`, "the demo judge's server plays the agent");
  const card = await fetch(new URL("/agent/a2a/.well-known/agent-card.json", served.judge.endpoint));
  assert.equal(card.status, 200, "the offered agent's server answers");
});

test("serve: the page's files are compressed for browsers that accept it", async () => {
  const plain = await (await fetch(`${url}/app.js`, { headers: { "accept-encoding": "identity" } })).arrayBuffer();
  for (const encoding of ["br", "gzip"]) {
    // Node's fetch decodes the body and keeps the header: the bytes must be the file's.
    const response = await fetch(`${url}/app.js`, { headers: { "accept-encoding": encoding } });
    assert.equal(response.headers.get("content-encoding"), encoding);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), Buffer.from(plain));
  }
});

test("serve: the page is given the example to open, at the URL it printed", async () => {
  assert.equal(pageUrl, `${url}/?dataset=/opened/m365-demo.json`);
  const opened = await fetch(`${url}/opened/m365-demo.json`);
  assert.equal(opened.status, 200);
  assert.deepEqual(await opened.json(), JSON.parse(readFileSync(join(root, "examples/m365-demo.json"), "utf8")));
});

test("serve: the page opens with the example scored and scores its judged evaluators with the demo judge", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  await page.goto(pageUrl);
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
  assert.match(await page.textContent("#run-status"), /judge: 1 call,/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("serve: a run that skipped judged evaluators offers the demo judge in one click", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  await page.goto(pageUrl);
  assert.equal(await settled(page), "done");
  assert.match(await page.textContent('#summary [data-evaluator="Coherence"] .card-detail'), /1 skipped/);
  await page.waitForSelector("#judge-offer:not([hidden])");
  assert.match(await page.textContent("#judge-offer"), /^Judged evaluators skipped \(\d+ judge calls? not made\) — use the local demo judge \(deterministic replies, no model\):/);
  assert.equal(await page.textContent("#judge-offer-demo"), "Use the local demo judge (deterministic replies, no model)");
  assert.equal(await page.isChecked("#judge-enabled"), false, "the page turned a judge on by itself");
  await markPending(page);
  await page.click("#judge-offer-demo");
  assert.equal(await settled(page), "done");
  assert.equal(await page.isChecked("#judge-enabled"), true);
  assert.equal(await page.isHidden("#judge-offer"), true);
  assert.match(await page.textContent('#summary [data-evaluator="Coherence"] .card-detail'), /0 skipped/);
  assert.match(await page.textContent("#run-status"), /judge: \d+ calls?,/);
  assert.deepEqual(problems, []);
  await context.close();
});
