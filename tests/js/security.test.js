// Attacks on the package replayed against local servers on 127.0.0.1 (issue 38), in Node and in
// headless Chromium: a judge endpoint that redirects to another origin never gets the key sent
// there; a redirect within its origin still works where the runtime shows its target.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";

import * as agenteval from "agenteval";
import { localJudge, packagePage } from "./helpers.js";

const { url, key } = localJudge();

const CHAT = "/openai/deployments/gpt-4o-judge/chat/completions?api-version=2024-10-21";
const judge = { kind: "azure", endpoint: url, model: "gpt-4o-judge", apiKey: key, retries: 1, backoffMs: 5 };

/** A server on another port that records every request it gets. */
let elsewhere;
const received = [];

before(async () => {
  const server = createServer((request, response) => {
    received.push({ method: request.method, headers: request.headers });
    response.writeHead(200, { "access-control-allow-origin": "*", "access-control-allow-headers": "*" });
    response.end("{}");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  elsewhere = { server, url: `http://127.0.0.1:${server.address().port}` };
});

after(async () => {
  await new Promise((resolve) => elsewhere.server.close(resolve));
});

function dataset(directives) {
  return {
    schemaVersion: "1.11.0",
    default_evaluators: { Relevance: {} },
    items: [{ prompt: `What is the capital of France? ${directives}`, response: "Paris." }],
  };
}

test("node: a redirect to another origin is refused and nothing reaches it; one within the origin is followed", async () => {
  received.length = 0;
  const away = await agenteval.score(dataset(`[[judge:fault=redirect]] [[judge:location=${elsewhere.url}${CHAT}]]`), { judge });
  const refused = away.items[0].results[0];
  assert.equal(refused.result, "error");
  assert.equal(refused.error.code, "evaluatorConfigurationError");
  assert.match(refused.error.message, new RegExp(`another origin \\(${elsewhere.url.replaceAll(".", "\\.")}\\)`));
  assert.match(refused.error.message, /configure that endpoint directly/);
  assert.equal(received.length, 0, "the other origin got no request");
  assert.ok(!JSON.stringify(away).includes(key));

  const moved = await agenteval.score(dataset(`[[judge:fault=redirect*1]] [[judge:location=${CHAT}&moved=1]]`), { judge });
  const followed = moved.items[0].results[0];
  assert.equal(typeof followed.score, "number", JSON.stringify(followed));
});

let chromium;

before(async () => {
  chromium = await packagePage();
});

after(async () => {
  await chromium?.close();
});

test("chromium: a redirect from the judge is never followed with the key, and says why", async () => {
  received.length = 0;
  const result = await chromium.page.evaluate(
    async ({ judge, data }) => (await globalThis.agenteval.score(data, { judge })).items[0].results[0],
    { judge, data: dataset(`[[judge:fault=redirect]] [[judge:location=${elsewhere.url}${CHAT}]]`) },
  );
  assert.equal(result.result, "error");
  assert.equal(result.error.code, "evaluatorConfigurationError");
  assert.match(result.error.message, /the browser does not reveal where/);
  assert.equal(received.length, 0, "the other origin got no request, not even a preflight");
});

/** A judge that answers with a body that never ends (bounded at 256 MiB), counting what it sent. */
async function endlessJudge() {
  const state = { sent: 0 };
  const server = createServer((request, response) => {
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "POST, OPTIONS" };
    if (request.method === "OPTIONS") {
      response.writeHead(204, cors).end();
      return;
    }
    response.writeHead(200, { ...cors, "content-type": "application/json" });
    const chunk = Buffer.alloc(1 << 16, 120);
    const more = () => {
      while (state.sent < 256 << 20) {
        state.sent += chunk.length;
        if (!response.write(chunk)) {
          response.once("drain", more);
          return;
        }
      }
      response.end();
    };
    response.on("close", () => { state.closed = true; });
    more();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { state, url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

const plain = { schemaVersion: "1.11.0", default_evaluators: { Relevance: {} }, items: [{ prompt: "p", response: "r" }] };

test("node and chromium: an endless judge reply is given up at the limit, not read whole", async () => {
  const endless = await endlessJudge();
  try {
    const options = { kind: "openai", endpoint: endless.url, model: "m", retries: 0, timeoutMs: 20000 };
    const report = await agenteval.score(plain, { judge: options });
    const result = report.items[0].results[0];
    assert.equal(result.error?.code, "evaluatorError", JSON.stringify(result));
    assert.match(result.error.message, /larger than 4194304 bytes/);
    assert.ok(endless.state.sent < 64 << 20, `${endless.state.sent} bytes sent`);
    const small = await agenteval.score(plain, { judge: { ...options, maxReplyBytes: 2048 } });
    assert.match(small.items[0].results[0].error.message, /larger than 2048 bytes/);
    endless.state.sent = 0;
    const inPage = await chromium.page.evaluate(
      async ({ options, data }) => (await globalThis.agenteval.score(data, { judge: options })).items[0].results[0],
      { options, data: plain },
    );
    assert.equal(inPage.error?.code, "evaluatorError", JSON.stringify(inPage));
    assert.match(inPage.error.message, /larger than 4194304 bytes/);
    assert.ok(endless.state.sent < 64 << 20, `${endless.state.sent} bytes sent to the page`);
    await assert.rejects(
      () => Promise.resolve().then(() => agenteval.score(plain, { judge: { ...options, maxReplyBytes: 10 } })),
      (error) => error.code === "invalidArgument" && /options\.judge\.maxReplyBytes/.test(error.message),
    );
  } finally {
    await endless.close();
  }
});

test("node: a getToken that never settles ends at the time-out, and an aborted run ends at once", async () => {
  const hanging = { ...judge, apiKey: undefined, getToken: () => new Promise(() => {}), timeoutMs: 300 };
  const started = Date.now();
  const report = await agenteval.score(plain, { judge: hanging });
  const result = report.items[0].results[0];
  assert.equal(result.error?.code, "judgeAuthenticationError", JSON.stringify(result));
  assert.match(result.error.message, /gave none within 0\.3 s/);
  assert.ok(Date.now() - started < 10000, `${Date.now() - started} ms`);
  const controller = new AbortController();
  const run = agenteval.score(plain, { judge: { ...hanging, timeoutMs: 3600000 }, signal: controller.signal });
  setTimeout(() => controller.abort(), 200);
  const cancelled = (await run).items[0].results[0];
  assert.equal(cancelled.result, "skipped", JSON.stringify(cancelled));
  assert.match(cancelled.reason, /^cancelled/);
});

test("node: whatever a custom evaluator throws becomes that evaluator's evaluatorError; the run goes on", async () => {
  const hostile = {
    getterThrows: () => {
      const error = new Error("x");
      Object.defineProperty(error, "message", { get() { throw new Error("gotcha"); } });
      throw error;
    },
    proxy: () => {
      throw new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); }, ownKeys() { throw new Error("trap"); } });
    },
    fine: () => true,
  };
  const report = await agenteval.score(
    { schemaVersion: "1.11.0", default_evaluators: { getterThrows: {}, proxy: {}, fine: {} }, items: [{ prompt: "p", response: "r" }] },
    { custom: hostile },
  );
  const results = Object.fromEntries(report.items[0].results.map((entry) => [entry.evaluator, entry]));
  assert.equal(results.getterThrows.error?.code, "evaluatorError", JSON.stringify(results.getterThrows));
  assert.equal(results.proxy.error?.code, "evaluatorError", JSON.stringify(results.proxy));
  assert.equal(results.fine.result, "pass");
});

test("node: a detached buffer is refused with a coded error naming it, not a raw TypeError", async () => {
  const view = new TextEncoder().encode('{"schemaVersion": "1.11.0", "items": []}');
  const buffer = view.buffer;
  structuredClone(buffer, { transfer: [buffer] });
  assert.equal(buffer.byteLength, 0, "detached");
  for (const dataset of [buffer, view]) {
    assert.throws(
      () => agenteval.validate(dataset),
      (error) => error.code === "invalidArgument" && /detached/.test(error.message) && /^dataset: /.test(error.message),
    );
    await assert.rejects(
      () => Promise.resolve().then(() => agenteval.score(dataset)),
      (error) => error.code === "invalidArgument" && /detached/.test(error.message),
    );
  }
});

test("node: undefined or NaN from a custom evaluator is named as returned, not as null", async () => {
  const report = await agenteval.score(
    { schemaVersion: "1.11.0", default_evaluators: { nothing: {}, notANumber: {}, forever: {} }, items: [{ prompt: "p", response: "r" }] },
    { custom: { nothing: () => undefined, notANumber: () => NaN, forever: async () => -Infinity } },
  );
  const results = Object.fromEntries(report.items[0].results.map((entry) => [entry.evaluator, entry]));
  for (const [name, written] of [["nothing", "undefined"], ["notANumber", "NaN"], ["forever", "-Infinity"]]) {
    assert.equal(results[name].error?.code, "invalidEvaluatorResult", JSON.stringify(results[name]));
    assert.match(results[name].error.message, new RegExp(`^custom evaluator '${name}' returned ${written}; expected`));
  }
});
