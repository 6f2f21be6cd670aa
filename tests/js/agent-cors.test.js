// The local demo agent (the judge server's `/agent` routes) answers a page on another origin in
// headless Chromium: each protocol through `fetch` with an Authorization header (so the browser
// sends a CORS preflight first), a Direct Line conversation walked to its reply, and a rate
// limit's Retry-After readable by the page. `cargo xtask test` starts the server with a key and
// passes its URL and key in AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY (the key is then also the
// Direct Line secret).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";

import { launchChromium, localJudge, serve } from "./helpers.js";

const { url, key } = localJudge();

let site;
let browser;
let page;

before(async () => {
  site = await serve();
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${site.url}/tests/js/web/blank.html`);
  assert.notEqual(new URL(site.url).origin, new URL(url).origin, "the agent must be on another origin");
});

after(async () => {
  await browser?.close();
  await site?.close();
});

/** `fetch` in the page: `{status, json, retryAfter}`, or `{failed: message}` when the browser refused it. */
function browserFetch(target, { method = "POST", body, headers = {} } = {}) {
  return page.evaluate(
    async ({ target, method, body, headers }) => {
      try {
        const response = await fetch(target, {
          method,
          headers: { "content-type": "application/json", ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, json: text ? JSON.parse(text) : null, retryAfter: response.headers.get("retry-after") };
      } catch (error) {
        return { failed: String(error) };
      }
    },
    { target, method, body, headers },
  );
}

const bearer = { authorization: `Bearer ${key}` };

test("chromium: a page on another origin walks a Direct Line conversation to its reply", async () => {
  const endpoint = `${url}/agent/v3/directline`;
  const started = await browserFetch(`${endpoint}/conversations`, { body: {}, headers: bearer });
  assert.equal(started.status, 201, JSON.stringify(started));
  const conversation = started.json;
  const auth = { authorization: `Bearer ${conversation.token}` };
  const activities = `${endpoint}/conversations/${encodeURIComponent(conversation.conversationId)}/activities`;
  const posted = await browserFetch(activities, {
    body: { type: "message", from: { id: "page" }, text: "Where do I park?" },
    headers: auth,
  });
  assert.equal(posted.status, 200, JSON.stringify(posted));
  let watermark = "";
  let reply;
  for (let attempt = 0; attempt < 100 && !reply; attempt += 1) {
    const batch = await browserFetch(`${activities}?watermark=${watermark}`, { method: "GET", headers: auth });
    assert.equal(batch.status, 200, JSON.stringify(batch));
    watermark = batch.json.watermark;
    reply = batch.json.activities.find((activity) => activity.type === "message" && activity.replyToId === posted.json.id);
    if (!reply) await new Promise((resolve) => setTimeout(resolve, 30));
  }
  assert.ok(reply, "no reply within 3 s");
  assert.equal(reply.text, "Visitor parking is in garage B [1].");
  assert.equal(reply.entities[0].citation[0].appearance.name, "Campus guide");
  const token = await browserFetch(`${url}/agent/directline/token`, { method: "GET" });
  assert.equal(token.status, 200);
  assert.ok(token.json.token && token.json.conversationId);
});

test("chromium: the Responses, chat, A2A and HTTP routes answer a page on another origin", async () => {
  const responses = await browserFetch(`${url}/agent/openai/v1/responses`, {
    body: { model: "demo", input: "How many vacation days do new employees get?" },
    headers: bearer,
  });
  assert.equal(responses.status, 200, JSON.stringify(responses));
  assert.match(responses.json.output.at(-1).content[0].text, /20 vacation days/);

  const chat = await browserFetch(`${url}/agent/v1/chat/completions`, {
    body: { messages: [{ role: "user", content: "Who wrote Hamlet?" }] },
    headers: { "api-key": key },
  });
  assert.equal(chat.status, 200, JSON.stringify(chat));
  assert.equal(chat.json.choices[0].message.content, "William Shakespeare wrote Hamlet.");

  const a2a = await browserFetch(`${url}/agent/a2a`, {
    body: {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: { message: { role: "user", messageId: "m1", parts: [{ kind: "text", text: "What is the capital of France?" }] } },
    },
    headers: bearer,
  });
  assert.equal(a2a.status, 200, JSON.stringify(a2a));
  assert.equal(a2a.json.result.parts[0].text, "Paris is the capital of France [1].");
  const card = await browserFetch(`${url}/agent/a2a/.well-known/agent-card.json`, { method: "GET" });
  assert.equal(card.json.protocolVersion, "0.3.0");

  const http = await browserFetch(`${url}/agent/http`, { body: { prompt: "Which benefits system do I use?" }, headers: bearer });
  assert.equal(http.status, 200, JSON.stringify(http));
  assert.equal(http.json.reply.citations[0].title, "Benefits overview");
});

test("chromium: a page reads a 401 and a rate limit's Retry-After from the agent", async () => {
  const refused = await browserFetch(`${url}/agent/http`, { body: { prompt: "hi" }, headers: { authorization: "Bearer wrong" } });
  assert.equal(refused.status, 401, JSON.stringify(refused));
  const limited = await browserFetch(`${url}/agent/http`, {
    body: { prompt: `Where do I park? [[agent:fault=429*1]] ${Date.now()}` },
    headers: bearer,
  });
  assert.equal(limited.status, 429, JSON.stringify(limited));
  assert.ok(Number(limited.retryAfter) >= 1, JSON.stringify(limited));
});
