// The package's run(): the agent under test answers a dataset over `fetch` (in Node and in a
// Chromium page, across origins), against the demo agent
// of the local judge server (`cargo xtask test` starts it and passes its URL and key in
// AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY; with a key, the key is also the Direct Line secret
// and the other agent routes' bearer token).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

import * as agenteval from "agenteval";
import { localJudge, packagePage, root } from "./helpers.js";

const { url, key } = localJudge();

const targets = {
  directline: { kind: "directline", endpoint: `${url}/agent/v3/directline`, secretEnv: "AGENT_KEY", quietMs: 300 },
  responses: { kind: "responses", endpoint: `${url}/agent/openai/v1`, model: "demo-agent", keyEnv: "AGENT_KEY" },
  chat: { kind: "chat", endpoint: `${url}/agent/v1`, model: "demo-agent", keyEnv: "AGENT_KEY" },
  a2a: { kind: "a2a", endpoint: `${url}/agent/a2a`, keyEnv: "AGENT_KEY" },
  http: {
    kind: "http",
    url: `${url}/agent/http`,
    headers: { Authorization: "Bearer {{env.AGENT_KEY}}" },
    body: { prompt: "{{prompt}}", conversation_id: "{{conversation_id}}" },
    reply: { text: "/reply/text", citations: "/reply/citations" },
  },
};

const secrets = { AGENT_KEY: key };

async function started() {
  const stats = await (await fetch(`${url}/stats`)).json();
  return stats.agent_requests?.["directline.start"] ?? 0;
}

test("node: run() holds an M365 thread in one Direct Line conversation, in order, and score() reads the responses", async () => {
  const before = await started();
  const dataset = {
    schemaVersion: "1.11.0",
    items: [
      { turns: [{ prompt: "Where can visitors park?" }, { prompt: "When is it open?" }] },
      { prompt: "How many vacation days do new employees get?", expected_response: "20 days" },
    ],
  };
  const progress = [];
  const ran = await agenteval.run(JSON.stringify(dataset), { target: targets.directline, secrets, onProgress: (seen) => progress.push(seen) });
  const document = JSON.parse(ran.dataset);
  const [first, second] = document.items[0].turns;
  assert.match(first.response, /garage B/i);
  assert.match(second.response, /open/i, "the follow-up is answered in the same conversation");
  assert.match(document.items[1].response, /20 vacation days/);
  assert.ok(document.items[1].citations.length >= 1);
  assert.equal(typeof document.items[1].extensions["agenteval.run"].latencyMs, "number");
  assert.equal(ran.report.answered, 3);
  assert.deepEqual(ran.report.entries.map((entry) => entry.turn ?? null), [1, 2, null]);
  assert.deepEqual(progress.at(-1), { done: 2, total: 2 });
  assert.equal((await started()) - before, 2, "one conversation per item, the thread's two turns in one");
  const report = await agenteval.score(ran.dataset);
  assert.notEqual(report.items[1].results[0]?.error?.code, "emptyAgentResponse");
});

test("node: every target answers the Copilot Studio import set, and the key is in no result", async () => {
  const csv = await readFile(`${root}/examples/copilot-studio-import.csv`, "utf8");
  for (const [kind, target] of Object.entries(targets)) {
    const ran = await agenteval.run(csv, { target, secrets, concurrency: 3 });
    assert.ok(ran.dataset.startsWith("question,expectedResponse,actualResponse\r\n"), kind);
    assert.match(ran.dataset, /20 vacation days per year/, kind);
    assert.equal(ran.report.answered, 6, `${kind}: ${JSON.stringify(ran.report)}`);
    assert.equal(ran.report.target, kind);
    assert.ok(!JSON.stringify(ran).includes(key), `${kind}: the key is in the result`);
  }
});

test("node: a 429 is retried to success and an expired Direct Line conversation is restarted once and noted", async () => {
  const dataset = {
    schemaVersion: "1.11.0",
    items: [
      { prompt: `How long is paid parental leave? [[agent:fault=429*1]] ${Date.now()}` },
      { prompt: `Where can visitors park? [[agent:fault=expire*1]] ${Date.now()}` },
    ],
  };
  const ran = await agenteval.run(JSON.stringify(dataset), { target: targets.directline, secrets, retries: 2 });
  const [limited, expired] = JSON.parse(ran.dataset).items;
  assert.match(limited.response, /16 weeks/);
  assert.ok(ran.report.rateLimited >= 1, JSON.stringify(ran.report));
  assert.match(expired.response, /garage B/i);
  assert.match(JSON.stringify(expired.extensions["agenteval.run"].notes), /expired and was restarted/);
  assert.equal(ran.report.answered, 2);
  assert.ok(!JSON.stringify(ran).includes(key));
});

test("node: getToken is asked once per run for each secret not given, and its refusal names it", async () => {
  const asked = [];
  const ran = await agenteval.run("question\r\nHow many vacation days?\r\nWhere can visitors park?\r\n", {
    target: targets.responses,
    getToken: async (name) => {
      asked.push(name);
      return key;
    },
  });
  assert.deepEqual(asked, ["AGENT_KEY"]);
  assert.equal(ran.report.answered, 2);
  await assert.rejects(
    agenteval.run("question\r\nHi\r\n", { target: targets.responses, getToken: () => Promise.reject(new Error("no sign-in")) }),
    (error) => error.code === "invalidArgument" && error.message === 'options.getToken("AGENT_KEY"): rejected',
  );
});

test("node: a bad target names its field, a missing secret is refused, and the signal cancels", async () => {
  await assert.rejects(agenteval.run("question\r\nHi\r\n", { target: { kind: "chat", model: "m" }, secrets }), (error) => {
    assert.equal(error.code, "invalidArgument");
    assert.equal(error.message, "options.target.endpoint: missing; expected an http(s) URL");
    return true;
  });
  await assert.rejects(agenteval.run("question\r\nHi\r\n", { target: targets.chat }), /options\.secrets\.AGENT_KEY: expected the secret the target names/);
  const controller = new AbortController();
  const slow = "question\r\nWhere can visitors park? [[agent:latency=10000]]\r\nHow many vacation days? [[agent:latency=10000]]\r\n";
  const pending = agenteval.run(slow, { target: targets.chat, secrets, concurrency: 1, signal: controller.signal });
  setTimeout(() => controller.abort(), 300);
  const started = Date.now();
  const ran = await pending;
  assert.ok(Date.now() - started < 5000, "the run ended at the abort, not after the agent's latency");
  assert.deepEqual(ran.report.entries.map((entry) => entry.error?.code), ["cancelled", "cancelled"]);
  assert.equal(ran.dataset, "question,actualResponse\r\nWhere can visitors park? [[agent:latency=10000]],\r\nHow many vacation days? [[agent:latency=10000]],\r\n");
});

describe("in a Chromium page", () => {
  let chromium;
  before(async () => {
    chromium = await packagePage();
  });
  after(async () => {
    await chromium?.close();
  });

  test("chromium page: run() holds a thread in one conversation for every target across origins, then scores", async () => {
    const dataset = {
      schemaVersion: "1.11.0",
      items: [{ turns: [{ prompt: "Where can visitors park?" }, { prompt: "When is it open?" }] }],
    };
    const outcome = await chromium.page.evaluate(
      async ({ data, targets, secrets }) => {
        const runs = [];
        for (const target of Object.values(targets)) runs.push(await globalThis.agenteval.run(JSON.stringify(data), { target, secrets }));
        const report = await globalThis.agenteval.score(runs[0].dataset);
        return { runs, scored: report.items.length };
      },
      { data: dataset, targets, secrets },
    );
    assert.deepEqual(outcome.runs.map((ran) => ran.report.target), Object.keys(targets));
    for (const ran of outcome.runs) {
      const [first, second] = JSON.parse(ran.dataset).items[0].turns;
      assert.match(first.response, /garage B/i, ran.report.target);
      assert.match(second.response, /open/i, ran.report.target);
      assert.equal(ran.report.answered, 2);
      assert.ok(!JSON.stringify(ran).includes(key));
    }
    assert.equal(outcome.scored, 2, "both turns of the thread are scored entries");
  });

  test("chromium worker: connectWorker().run answers the import set with progress, and an abort keeps what was answered", async () => {
    const csv = await readFile(`${root}/examples/copilot-studio-import.csv`, "utf8");
    const outcome = await chromium.page.evaluate(
      async ({ csv, target, secrets }) => {
        const worker = globalThis.agenteval.connectWorker();
        const progress = [];
        const ran = await worker.run(csv, { target, secrets, onProgress: (seen) => progress.push(seen) });
        const controller = new AbortController();
        const slow = "question\r\nWhere can visitors park?\r\nHow many vacation days? [[agent:latency=10000]]\r\n";
        const pending = worker.run(slow, { target, secrets, concurrency: 1, signal: controller.signal });
        setTimeout(() => controller.abort(), 1500);
        const aborted = await pending;
        worker.terminate();
        return { ran, progress, aborted };
      },
      { csv, target: targets.a2a, secrets },
    );
    assert.equal(outcome.ran.report.answered, 6);
    assert.match(outcome.ran.dataset, /20 vacation days per year/);
    assert.deepEqual(outcome.progress.at(-1), { done: 6, total: 6 });
    assert.deepEqual(
      outcome.aborted.report.entries.map((entry) => entry.status),
      ["answered", "error"],
      "the first answered before the abort, the second cancelled",
    );
    assert.equal(outcome.aborted.report.entries[1].error.code, "cancelled");
    assert.match(outcome.aborted.dataset, /garage B/i);
  });
});
