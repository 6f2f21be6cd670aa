// Dataset text and agent responses are untrusted: the page renders them as text. A dataset full of
// script, event-handler, `srcdoc`, template, `javascript:` and markup payloads, in every field the
// page shows (prompt, response, expected answer, tags, thread and document names, retrieval hits,
// keywords and citations that reasons repeat, the file name, and the text of a broken file that
// the problems list quotes), is loaded, scored and opened entry by entry; nothing may execute, no
// element or link may come from the data, and the Content Security Policy must forbid inline
// script and eval.

import { test } from "node:test";
import assert from "node:assert/strict";

import { openFile, pageSuite, settled } from "./page-helpers.js";

const PAYLOADS = [
  "<script>window.__xss = 'script'</script>",
  '<img src="x" onerror="window.__xss = \'img\'">',
  '<iframe srcdoc="<script>parent.__xss = \'srcdoc\'</script>"></iframe>',
  '<template><img src="x" onerror="window.__xss = \'template\'"></template>',
  "javascript:window.__xss = 'javascript'",
  '<a href="javascript:window.__xss = \'link\'">click</a>',
  '<svg onload="window.__xss = \'svg\'"></svg>',
  '"><img src=x onerror=window.__xss=\'attribute\'>',
  "[click](javascript:window.__xss='markdown')",
  "{{constructor.constructor('window.__xss = \"template-injection\"')()}}",
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=\'mxss\'">',
];

const all = PAYLOADS.join(" ");

function payloadDocument() {
  return JSON.stringify({
    schemaVersion: "1.11.0",
    metadata: { name: all, description: all, tags: PAYLOADS },
    default_evaluators: { PartialMatch: {}, Citations: { citation_format: "mixed" } },
    items: [
      ...PAYLOADS.map((payload) => ({
        prompt: payload,
        expected_response: payload,
        response: `${payload} [1] [${payload}](https://example.com/${encodeURIComponent(payload)})`,
        tags: [payload],
        evaluators: {
          KeywordMatch: { keywords: [payload] },
          RetrievalResult: { capability: "OneDriveAndSharePoint", expected_items: [{ retrievalExtract_contains: payload }] },
        },
        diagnostics: {
          retrieval_executions: [
            {
              capability: "OneDriveAndSharePoint",
              status: "success",
              totalResultCount: 1,
              queries: [{ queryString: payload, filterExpression: null }],
              retrievalHits: [{ rank: 1, webUrl: "javascript:window.__xss='hit'", extracts: [{ text: payload }] }],
            },
          ],
        },
      })),
      { name: all, turns: PAYLOADS.slice(0, 3).map((payload) => ({ prompt: payload, response: payload, expected_response: payload, tags: [payload] })) },
    ],
  });
}

const harness = pageSuite();

/** Every trace a payload could leave: a global, dialogs, CSP reports, elements, attributes, links. */
async function traces(page) {
  return page.evaluate(() => {
    const elements = [...document.querySelectorAll("*")];
    for (const element of document.querySelectorAll("agenteval-results")) elements.push(...element.shadowRoot.querySelectorAll("*"));
    return {
      xss: window.__xss ?? null,
      scripts: [...document.scripts].map((script) => script.src || script.type || "inline"),
      handlers: elements.flatMap((element) => element.getAttributeNames().filter((name) => /^on/i.test(name)).map((name) => `${element.tagName} ${name}`)),
      foreign: elements.filter((element) => ["IMG", "IFRAME", "OBJECT", "EMBED", "TEMPLATE", "STYLE", "MATH", "A", "FORM"].includes(element.tagName)).map((element) => element.outerHTML.slice(0, 80)),
      svgFromData: elements.filter((element) => element.tagName.toLowerCase() === "svg" && !element.classList.contains("chart")).length,
      violations: window.__violations ?? [],
    };
  });
}

async function openPage() {
  const opened = await harness.open();
  await opened.page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (event) => window.__violations.push(`${event.violatedDirective}: ${event.blockedURI}`));
  });
  await opened.page.reload();
  const dialogs = [];
  opened.page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss();
  });
  await settled(opened.page);
  return { ...opened, dialogs };
}

test("page safety: a dataset of payloads in every field is shown as text; nothing executes", async () => {
  const { page, problems, dialogs } = await openPage();
  const before = await traces(page);
  assert.equal(await openFile(page, '<img src=x onerror="window.__xss=\'name\'">.json', payloadDocument()), "done", await page.textContent("#diagnostics"));
  assert.equal(await page.locator(".table-viewport .table-row").count(), PAYLOADS.length + 3);
  // The tag filter and charts list the payload tags as text.
  const tags = await page.$$eval("#filter-tag option", (options) => options.map((option) => option.textContent));
  for (const payload of PAYLOADS) assert.ok(tags.includes(payload), `tag ${payload} missing from the filter`);
  // Open every entry: the item view shows each payload verbatim, as text.
  const count = await page.locator(".table-viewport .table-row").count();
  for (let row = 0; row < count; row += 1) {
    await page.click(`.table-viewport .table-row[aria-rowindex="${row + 2}"]`);
    await page.waitForSelector("dialog.item-view[open]");
    const text = await page.textContent("dialog.item-view .item-body");
    const payload = PAYLOADS[row] ?? PAYLOADS[row - PAYLOADS.length];
    assert.ok(text.includes(payload), `entry ${row + 1} does not show its payload as text`);
    for (const details of await page.$$("dialog.item-view details")) await details.evaluate((element) => (element.open = true));
    await page.keyboard.press("Escape");
  }
  // Search with a payload (the engine's search), then the shown rows.
  await page.fill("#filter-text", "<script>");
  await page.waitForFunction(() => !document.querySelector("#table-count").textContent.startsWith(`${document.querySelectorAll(".table-viewport .table-row").length + 1000}`));
  const after = await traces(page);
  assert.equal(after.xss, null);
  assert.deepEqual(after.scripts, before.scripts);
  assert.deepEqual(after.handlers, []);
  assert.deepEqual(after.foreign, before.foreign, "elements made from the data");
  assert.equal(after.svgFromData, 0);
  assert.deepEqual(after.violations, [], "something from the data tried to load or run");
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
});

test("page safety: a broken file's problems quote its payload text as text", async () => {
  const { page, problems, dialogs } = await openPage();
  const broken = `{\n"schemaVersion": "1.6.0", "items": [\n{"prompt": ${JSON.stringify(PAYLOADS[0])}, ${PAYLOADS[1]}}]}`;
  const before = await traces(page);
  assert.equal(await openFile(page, "broken.json", broken), "invalid");
  await page.click("#diagnostics-list li:first-child button");
  await page.waitForSelector("#excerpt .excerpt-here", { timeout: 5000 }).catch(async (error) => {
    throw new Error(`${await page.textContent("#diagnostics")}: ${error.message}`);
  });
  assert.ok((await page.textContent("#excerpt")).includes("<script>window.__xss"));
  const found = await traces(page);
  assert.equal(found.xss, null);
  assert.deepEqual(found.handlers, []);
  assert.deepEqual(found.foreign, before.foreign);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
});

test("page safety: the Content Security Policy forbids inline script and eval", async () => {
  const { page } = await openPage();
  const result = await page.evaluate(async () => {
    const script = document.createElement("script");
    script.textContent = "window.__xss = 'injected inline script'";
    document.body.append(script);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const policy = document.querySelector('meta[http-equiv="Content-Security-Policy"]').content;
    return { xss: window.__xss ?? null, violations: window.__violations, policy };
  });
  assert.equal(result.xss, null);
  assert.ok(result.violations.some((entry) => entry.startsWith("script-src")), result.violations.join("; "));
  assert.match(result.policy, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.match(result.policy, /object-src 'none'/);
  assert.doesNotMatch(result.policy, /'unsafe-inline'|'unsafe-eval'/);
});
