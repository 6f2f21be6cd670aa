// The item view as a user walks it in headless Chromium: Previous / Next with buttons and keys
// (never while typing in a field), a thread turn with its earlier turns, retrieval diagnostics
// and tool calls as tables, a word-level diff of the response against the expected answer made
// of text nodes, and for a judged verdict the judge's reason and, on "Show request", the exact
// request sent and the raw answer, without the key. The judge is the local one `cargo xtask
// test` starts (AGENTEVAL_JUDGE_URL, AGENTEVAL_JUDGE_KEY).

import { test } from "node:test";
import assert from "node:assert/strict";

import { configureJudge, openFile, pageSuite, settled } from "./page-helpers.js";
import { localJudge } from "./helpers.js";

const { url: judgeUrl, key: judgeKey } = localJudge();

const harness = pageSuite();

const dialog = "dialog.item-view";

async function openRow(page, rowIndex) {
  await page.click(`.table-viewport .table-row[aria-rowindex="${rowIndex}"]`);
  await page.waitForSelector(`${dialog}[open]`);
}

/** The item view's title and its place ("2 of 7"), once the title is not `previous`. */
async function heading(page, previous) {
  if (previous) await page.waitForFunction((old) => document.querySelector("#item-title").textContent !== old, previous);
  return page.evaluate(() => ({ title: document.querySelector("#item-title").textContent, where: document.querySelector("#item-where").textContent }));
}

test("item view: previous and next by buttons and keys in the table's order, not while typing", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await openRow(page, 2);
  let seen = await heading(page);
  assert.match(seen.title, /^item-0 — /);
  assert.equal(seen.where, "1 of 7");
  assert.equal(await page.isDisabled("#item-previous"), true, "nothing before the first entry");
  await page.keyboard.press("ArrowRight");
  seen = await heading(page, seen.title);
  assert.match(seen.title, /^item-1 — /);
  assert.equal(seen.where, "2 of 7");
  await page.keyboard.press("j");
  seen = await heading(page, seen.title);
  assert.match(seen.title, /^item-2 — /);
  await page.keyboard.press("k");
  seen = await heading(page, seen.title);
  assert.match(seen.title, /^item-1 — /);
  await page.click("#item-next");
  seen = await heading(page, seen.title);
  assert.match(seen.title, /^item-2 — /);
  await page.click("#item-previous");
  seen = await heading(page, seen.title);
  assert.match(seen.title, /^item-1 — /);
  // Typing in the review comment moves the caret, not the view.
  await page.fill("#review-comment", "abc");
  await page.focus("#review-comment");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("j");
  await page.waitForTimeout(300);
  assert.match((await heading(page)).title, /^item-1 — /);
  assert.equal(await page.inputValue("#review-comment"), "abjc");
  // The last entry (the thread's second turn) has no next.
  await page.keyboard.press("Escape");
  await page.waitForFunction((selector) => !document.querySelector(selector).open, dialog);
  await openRow(page, 8);
  seen = await heading(page);
  assert.equal(seen.title.split(" ")[0], "item-5.turn-1");
  assert.equal(seen.where, "7 of 7");
  assert.equal(await page.isDisabled("#item-next"), true);
  // Filtered, the steps follow the table: only failing entries.
  await page.keyboard.press("Escape");
  await page.selectOption("#filter-status", "pass");
  const passing = await page.$$eval(".table-viewport .table-row", (rows) => rows.length);
  await openRow(page, 2);
  seen = await heading(page);
  assert.equal(seen.where, `1 of ${passing}`);
  assert.ok(passing > 1);
  await page.keyboard.press("ArrowRight");
  seen = await heading(page, seen.title);
  assert.equal(seen.where, `2 of ${passing}`);
  assert.match(seen.title, / — pass$/);
  assert.deepEqual(problems, []);
});

test("item view: a thread turn shows the earlier turns; retrieval and tool calls as tables; a word diff of text nodes", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  // The second turn of the onboarding thread: its first turn is the conversation so far.
  await openRow(page, 8);
  const turns = await page.$$eval(`${dialog} .conversation-turn`, (items) => items.map((item) => item.textContent));
  assert.equal(turns.length, 1);
  assert.match(turns[0], /I start on Monday\. What should I bring\?/);
  assert.match(turns[0], /Please bring a photo ID and your signed offer letter\./);
  assert.match(await page.textContent(dialog), /Prompt \(turn 2\)\s*Where do I park\?/);
  await page.keyboard.press("Escape");
  // Item 3 has retrieval diagnostics: its hits by rank with their source and extracts.
  await openRow(page, 5);
  const hits = await page.$$eval(`${dialog} table.retrieval-hits tbody tr`, (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
  assert.deepEqual(hits, [
    ["1", "https://contoso.sharepoint.com/hr/travel.docx", "Employees fly Economy Class on flights under 6 hours."],
    ["2", "https://contoso.sharepoint.com/hr/expenses.docx", "Receipts are required above $25."],
  ]);
  assert.match(await page.textContent(`${dialog} .retrieval-execution .evidence-facts`), /capability OneDriveAndSharePoint · status success · 2 results/);
  assert.match(await page.textContent(`${dialog} .retrieval-execution table.evidence caption`), /Queries/);
  // The diff: the response's own words inserted, the expected answer's missing ones deleted.
  const diff = await page.$eval(`${dialog} .word-diff`, (element) => ({
    added: [...element.querySelectorAll("ins")].map((node) => node.textContent.trim()),
    removed: [...element.querySelectorAll("del")].map((node) => node.textContent.trim()),
    elements: [...element.querySelectorAll("*")].map((node) => node.tagName),
    text: element.textContent,
  }));
  assert.ok(diff.added.some((text) => /Book/.test(text)), JSON.stringify(diff));
  assert.ok(diff.removed.some((text) => /Economy/.test(text)), JSON.stringify(diff));
  assert.ok(diff.elements.every((tag) => tag === "INS" || tag === "DEL"));
  await page.keyboard.press("Escape");
  // Tool calls, and markup in a response, in a dataset of our own.
  const hostile = '<img src=x onerror="window.__xss=1">Weather is <b>sunny</b>';
  const state = await openFile(
    page,
    "tools.json",
    JSON.stringify({
      schemaVersion: "1.11.0",
      items: [
        {
          prompt: "Weather in Paris?",
          response: hostile,
          expected_response: "Weather is sunny in Paris",
          evaluators: { ToolCallSelection: { calls: [{ tool: { plugin_name: "weather", function_name: "forecast" } }] }, ExactMatch: {} },
          diagnostics: {
            tool_calls: [
              { id: "c1", tool: { plugin_name: "weather", function_name: "forecast" }, response_status: 200, arguments: { city: "Paris" } },
              { id: "c2", tool: { plugin_name: "mail", function_name: "send" }, response_status: 500 },
            ],
          },
        },
      ],
    }),
  );
  assert.equal(state, "done");
  await openRow(page, 2);
  const tools = await page.$eval(`${dialog} table.evidence`, (table) => ({
    head: [...table.querySelectorAll("thead th")].map((cell) => cell.textContent),
    rows: [...table.querySelectorAll("tbody tr")].map((row) => [...row.children].map((cell) => cell.textContent)),
  }));
  assert.deepEqual(tools.head, ["#", "id", "tool.plugin_name", "tool.function_name", "response_status", "arguments"]);
  assert.deepEqual(tools.rows, [
    ["1", "c1", "weather", "forecast", "200", '{"city":"Paris"}'],
    ["2", "c2", "mail", "send", "500", ""],
  ]);
  const hostileDiff = await page.$eval(`${dialog} .word-diff`, (element) => ({ text: element.textContent, images: element.querySelectorAll("img, b").length }));
  assert.equal(hostileDiff.images, 0, "the response's markup became elements");
  assert.match(hostileDiff.text, /<img src=x/);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.deepEqual(problems, []);
});

test("item view: a judged verdict shows the judge's reason and, on request, the exact request and raw answer, never the key", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await configureJudge(page, { endpoint: judgeUrl, key: judgeKey });
  const nonce = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const state = await openFile(
    page,
    "judged.json",
    JSON.stringify({
      schemaVersion: "1.11.0",
      default_evaluators: { Relevance: {}, PartialMatch: {} },
      items: [{ prompt: `What is the capital of France? (${nonce})`, expected_response: "Paris is the capital of France.", response: "Paris." }],
    }),
  );
  assert.equal(state, "done");
  await openRow(page, 2);
  const relevance = `${dialog} .verdicts tbody tr:first-child`;
  assert.match(await page.textContent(`${relevance} th`), /Relevance/);
  const reason = await page.textContent(`${relevance} .verdict-reason`);
  assert.ok(reason.replace("Show request", "").trim().length > 0, "the judge's reason");
  assert.equal(await page.isVisible(`${relevance} .exchanges`), false, "the request shows only on request");
  assert.equal(await page.$(`${dialog} .verdicts tbody tr:nth-child(2) .show-request`), null, "PartialMatch calls no judge");
  await page.click(`${relevance} .show-request`);
  await page.waitForSelector(`${relevance} .exchanges:not([hidden])`);
  const shown = await page.$eval(`${relevance} .exchanges`, (element) => ({
    url: element.querySelector(".exchange-url").textContent,
    request: element.querySelector(".exchange-request").textContent,
    answer: element.querySelector(".exchange-answer").textContent,
    roles: [...element.querySelectorAll(".exchange-role")].map((node) => node.textContent),
    text: element.textContent,
  }));
  assert.match(shown.url, /^POST http:\/\/127\.0\.0\.1:\d+\/openai\/deployments\/gpt-4o-judge\/chat\/completions/);
  const body = JSON.parse(shown.request);
  assert.ok(Array.isArray(body.messages));
  assert.match(body.messages.map((message) => message.content).join("\n"), new RegExp(nonce));
  assert.deepEqual(shown.roles, body.messages.map((message) => message.role));
  const answer = JSON.parse(shown.answer);
  assert.ok(answer.choices[0].message.content.length > 0, "the raw answer as the endpoint sent it");
  assert.ok(!shown.text.includes(judgeKey), "the key was shown");
  assert.equal(await page.getAttribute(`${relevance} .show-request`, "aria-expanded"), "true");
  await page.click(`${relevance} .show-request`);
  assert.equal(await page.isVisible(`${relevance} .exchanges`), false);
  await page.keyboard.press("Escape");
  // The run kept on this device keeps them too: after a reload, the same request and answer.
  await page.reload();
  assert.equal(await settled(page), "done");
  await openRow(page, 2);
  await page.click(`${relevance} .show-request`);
  assert.equal(await page.textContent(`${relevance} .exchange-request`), shown.request);
  assert.equal(await page.textContent(`${relevance} .exchange-answer`), shown.answer);
  assert.deepEqual(problems, []);
});

test("judge panel: the reasoning switch sends the judge's calls as a reasoning model's, and is kept across a reload", async () => {
  const { page, problems } = await harness.open();
  await settled(page);
  await configureJudge(page, { endpoint: judgeUrl, key: judgeKey, remember: true });
  await page.check("#judge-reasoning");
  await page.dispatchEvent("#judge-reasoning", "change");
  const nonce = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const judged = (question) =>
    JSON.stringify({ schemaVersion: "1.11.0", default_evaluators: { Relevance: {} }, items: [{ prompt: `${question} (${nonce})`, response: "Paris." }] });
  assert.equal(await openFile(page, "reasoning.json", judged("What is the capital of France?")), "done");
  const body = async () => {
    await openRow(page, 2);
    const relevance = `${dialog} .verdicts tbody tr:first-child`;
    await page.click(`${relevance} .show-request`);
    await page.waitForSelector(`${relevance} .exchanges:not([hidden])`);
    const sent = JSON.parse(await page.textContent(`${relevance} .exchange-request`));
    await page.keyboard.press("Escape");
    return sent;
  };
  const reasoning = await body();
  assert.ok(Number.isInteger(reasoning.max_completion_tokens), JSON.stringify(reasoning));
  assert.equal(reasoning.temperature, undefined, "no temperature for a reasoning model");
  assert.equal(reasoning.max_tokens, undefined);
  await page.reload();
  await settled(page);
  assert.equal(await page.isChecked("#judge-reasoning"), true, "the switch is a saved setting");
  await page.uncheck("#judge-reasoning");
  await page.dispatchEvent("#judge-reasoning", "change");
  assert.equal(await openFile(page, "plain.json", judged("And the capital of Italy?")), "done");
  const plain = await body();
  assert.equal(typeof plain.temperature, "number", JSON.stringify(plain));
  assert.equal(plain.max_completion_tokens, undefined);
  assert.deepEqual(problems, []);
});
