// The page's agent panel in headless Chromium, against the demo agent of the local judge server
// (`cargo xtask test` starts it: AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY; the key is also the
// Direct Line secret): the Copilot Studio import set run through the agent with progress, then
// scored; cancelling mid-run; a reload mid-run offered again and nothing sent until asked; "Test
// connection" with a wrong key naming the 401; the demo agent offered when the page is served with
// the demo judge; the key in no export and no storage unless remembered.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { configureAgent, configureJudge, downloadExport, markPending, openFile, pageSuite, screenshot, settled, storedText, summary } from "./page-helpers.js";
import { examples, localJudge } from "./helpers.js";

const { url, key } = localJudge();

const harness = pageSuite();

const importSet = () => readFile(join(examples, "copilot-studio-import.csv"), "utf8");

const directLine = { kind: "directline", endpoint: `${url}/agent/v3/directline`, key };

/** How many requests the demo agent has had, all routes together. */
async function agentRequests() {
  const stats = await (await fetch(`${url}/stats`)).json();
  return Object.values(stats.agent_requests ?? {}).reduce((sum, count) => sum + count, 0);
}

/** A fresh page with the import set open (scored from its file: no responses yet). */
async function withImportSet() {
  const opened = await harness.open();
  await settled(opened.page);
  assert.equal(await openFile(opened.page, "copilot-studio-import.csv", await importSet()), "done");
  return opened;
}

/** Waits until the agent run has answered at least `done` conversations, still running. */
async function answeredAtLeast(page, done) {
  await page.waitForFunction((wanted) => document.querySelector("#agent-progress").value >= wanted && document.body.dataset.agent === "running", done, { timeout: 30000 });
}

/** Clicks "Export the dataset with responses" and resolves to the file's name and text. */
async function exportAnswered(page) {
  const [file] = await Promise.all([page.waitForEvent("download", { timeout: 15000 }), page.click("#agent-export")]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), "utf8") };
}

test("run agent: the import set goes through Direct Line with progress, then is scored, and the key stays out of exports and storage", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await configureJudge(page, { endpoint: url, key, concurrency: 4 });
  assert.equal(await openFile(page, "copilot-studio-import.csv", await importSet()), "done");
  const unanswered = await summary(page);
  assert.equal(unanswered.pass + unanswered.fail + unanswered.partial, 0, `no verdicts without responses: ${JSON.stringify(unanswered)}`);
  await configureAgent(page, { ...directLine, concurrency: 2 });
  await markPending(page);
  await page.click("#agent-run");
  await answeredAtLeast(page, 1);
  assert.match(await page.textContent("#agent-status"), /^Agent: \d \/ 6 conversations answered$/);
  assert.equal(await page.isDisabled("#agent-run"), true, "Run agent is disabled while a run goes");
  assert.equal(await settled(page), "done");
  assert.equal(await page.evaluate(() => document.body.dataset.agent), "done");
  assert.match(await page.textContent("#agent-status"), /Agent run done: 6 answered, 0 errors/);
  assert.match(await page.textContent("#dataset-name"), /copilot-studio-import\.answered\.csv/);
  const scored = await summary(page);
  assert.equal(scored.entries, 6);
  assert.equal(scored.pass + scored.fail + scored.partial, 6, `every answered entry has a verdict: ${JSON.stringify(scored)}`);
  await screenshot(page, "agent-run-done");

  const answered = await exportAnswered(page);
  assert.equal(answered.name, "copilot-studio-import.answered.csv");
  assert.ok(answered.text.startsWith("question,expectedResponse,actualResponse\r\n"));
  assert.match(answered.text, /20 vacation days per year/);
  const report = await downloadExport(page, "report");
  for (const text of [answered.text, report, await storedText(page), page.url()]) {
    assert.ok(!text.includes(key), "the key is in an export, the URL or storage");
  }
  assert.deepEqual(problems, []);
});

test("run agent: Cancel stops the run mid-way; what was answered can be exported, nothing more is sent", async () => {
  const { page } = await withImportSet();
  await configureAgent(page, { ...directLine, concurrency: 1 });
  await page.click("#agent-run");
  await answeredAtLeast(page, 1);
  await page.click("#agent-cancel");
  await page.waitForFunction(() => document.body.dataset.agent === "cancelled", null, { timeout: 15000 });
  const status = await page.textContent("#agent-status");
  const answered = Number(/cancelled: (\d) answered/.exec(status)?.[1]);
  assert.ok(answered >= 1 && answered < 6, status);
  const after = await agentRequests();
  await page.waitForTimeout(2000);
  assert.equal(await agentRequests(), after, "requests went on after Cancel");
  const { text } = await exportAnswered(page);
  const filled = text.trim().split("\r\n").slice(1).filter((row) => !row.endsWith(","));
  assert.equal(filled.length, answered, text);
  assert.match(await page.textContent("#dataset-name"), /^copilot-studio-import\.csv/, "a cancelled run is not scored");
});

test("run agent: a reload mid-run is offered again, and nothing is sent until it is asked for", async () => {
  const { page } = await withImportSet();
  await configureAgent(page, { ...directLine, concurrency: 1 });
  await page.click("#agent-run");
  await answeredAtLeast(page, 1);
  await page.reload();
  await settled(page);
  await page.waitForSelector("#agent-resume", { state: "visible" });
  assert.equal(await page.textContent("#agent-resume"), "Run agent again: 6 conversations");
  assert.match(await page.textContent("#agent-status"), /cut by a reload after \d of 6 conversations.*Nothing is sent until you run it again\. Enter the key first/);
  assert.equal(await page.inputValue("#agent-key"), "", "the key was not remembered");
  await page.waitForTimeout(1500);
  const before = await agentRequests();
  await page.waitForTimeout(2000);
  assert.equal(await agentRequests(), before, "the page sent prompts by itself after the reload");

  await page.fill("#agent-key", key);
  await markPending(page);
  await page.click("#agent-resume");
  assert.equal(await settled(page), "done");
  assert.match(await page.textContent("#agent-status"), /Agent run done: 6 answered/);
  assert.match(await page.textContent("#dataset-name"), /copilot-studio-import\.answered\.csv/);
  assert.ok((await agentRequests()) > before);
});

test("test connection: a wrong key names the 401, the right one shows the reply as text; a remembered key is kept", async () => {
  const { page } = await harness.open();
  await settled(page);
  await configureAgent(page, { kind: "chat", endpoint: `${url}/agent/v1`, model: "demo-agent", key: "wrong-key" });
  await page.click("#agent-test");
  await page.waitForFunction(() => /did not answer|Cannot use/.test(document.querySelector("#agent-status").textContent), null, { timeout: 15000 });
  assert.match(await page.textContent("#agent-status"), /401/);
  assert.ok(!(await page.textContent("#agent-status")).includes("wrong-key"));

  await page.fill("#agent-key", key);
  await page.check("#agent-remember");
  await page.click("#agent-test");
  await page.waitForFunction(() => document.querySelector("#agent-status").textContent.startsWith("Connected"), null, { timeout: 15000 });
  assert.match(await page.textContent("#agent-status"), /^Connected: the agent answered: .+/);
  assert.equal(await page.locator("#agent-status *").count(), 0, "the reply is text, not markup");
  assert.ok((await storedText(page)).includes(key), "a remembered key is kept on the device");
  await page.reload();
  await settled(page);
  assert.equal(await page.inputValue("#agent-key"), key);
  assert.equal(await page.inputValue("#agent-endpoint"), `${url}/agent/v1`);
});

test("the agent serve.json offers is one click away and answers; without one nothing is offered", async () => {
  const { page, context } = await harness.open({ path: "/tests/js/web/blank.html" });
  let offered = { judge: { endpoint: url, kind: "azure", model: "demo", label: "local demo judge" }, agent: null };
  await context.route("**/web/serve.json", (route) => route.fulfill({ json: offered }));
  await page.goto(`${harness.server.url}/web/index.html`);
  await settled(page);
  await page.click("#agent-panel > summary");
  assert.equal(await page.isVisible("#agent-demo"), false, "a judge alone offers no agent");
  offered = { ...offered, agent: { kind: "chat", endpoint: `${url}/agent/v1`, model: "demo-agent", label: "local demo agent" } };
  await page.reload();
  await settled(page);
  await page.click("#agent-panel > summary");
  await page.waitForSelector("#agent-demo", { state: "visible" });
  assert.equal(await page.textContent("#agent-demo"), "Use the local demo agent");
  await page.click("#agent-demo");
  assert.equal(await page.inputValue("#agent-kind"), "chat");
  assert.equal(await page.inputValue("#agent-endpoint"), `${url}/agent/v1`);
  await page.fill("#agent-key", key);
  await page.click("#agent-test");
  await page.waitForFunction(() => document.querySelector("#agent-status").textContent.startsWith("Connected"), null, { timeout: 15000 });
});

test("test connection: each kind the panel offers reaches the demo agent, Direct Line by secret or by token endpoint", async () => {
  const { page } = await harness.open();
  await settled(page);
  const kinds = [
    { kind: "directline", endpoint: `${url}/agent/v3/directline`, key },
    { kind: "directline", endpoint: `${url}/agent/v3/directline`, key: "", tokenEndpoint: `${url}/agent/directline/token` },
    { kind: "responses", endpoint: `${url}/agent/openai/v1`, model: "demo-agent", key },
    { kind: "a2a", endpoint: `${url}/agent/a2a`, key },
    { kind: "chat", endpoint: `${url}/agent/v1`, model: "demo-agent", key },
    { kind: "http", endpoint: `${url}/agent/http`, key },
  ];
  await page.click("#agent-panel > summary");
  for (const { tokenEndpoint, ...agent } of kinds) {
    await page.selectOption("#agent-kind", agent.kind);
    await page.fill("#agent-endpoint", agent.endpoint);
    if (agent.model) await page.fill("#agent-model", agent.model);
    await page.fill("#agent-key", agent.key);
    if (tokenEndpoint) await page.fill("#agent-token-endpoint", tokenEndpoint);
    await page.dispatchEvent("#agent-endpoint", "change");
    await page.click("#agent-test");
    await page.waitForFunction(() => !document.querySelector("#agent-status").textContent.startsWith("Testing"), null, { timeout: 15000 });
    assert.match(await page.textContent("#agent-status"), /^Connected: the agent answered: \S/, JSON.stringify(agent));
  }
});
