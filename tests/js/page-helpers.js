// Shared by the page's end-to-end tests: a browser on the page served from the repository (as
// `cargo xtask serve` serves it, `web/` beside `pkg/` and `examples/`), waiting for the page's
// states, reading its summary, and saving screenshots of the main views.

import { after, before } from "node:test";
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { launchChromium, root, serve } from "./helpers.js";

export const screenshots = join(root, "target/page-screenshots");

/** A served page in a fresh browser: `{server, browser, open(options), close()}`. */
export async function pageHarness() {
  const server = await serve();
  const browser = await launchChromium();
  const contexts = [];
  return {
    server,
    browser,
    /** A new page (own IndexedDB) on `path` (default the page), recording errors and CSP violations. */
    async open({ path = "/web/index.html", viewport = { width: 1280, height: 900 }, context: existing } = {}) {
      const context = existing ?? (await browser.newContext({ viewport, acceptDownloads: true }));
      if (!existing) contexts.push(context);
      const page = await context.newPage();
      const problems = [];
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error" && !/status of 404/.test(message.text())) problems.push(`console: ${message.text()}`);
      });
      await page.goto(`${server.url}${path}`);
      return { page, problems, context };
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await server.close();
    },
  };
}

/**
 * The harness of a test file: opened before its tests and closed after them. `{open(options),
 * server, browser}`, as [`pageHarness`] gives them.
 */
export function pageSuite() {
  let harness;
  before(async () => {
    harness = await pageHarness();
  });
  after(async () => {
    await harness?.close();
  });
  return {
    open: (options) => harness.open(options),
    get server() {
      return harness.server;
    },
    get browser() {
      return harness.browser;
    },
  };
}

/** Waits until the page's state is one of `states` (default the end of a run). */
export async function settled(page, states = ["done", "invalid", "error", "cancelled", "paused"], timeout = 60000) {
  await page.waitForFunction((wanted) => wanted.includes(document.body.dataset.state), states, { timeout });
  return page.evaluate(() => document.body.dataset.state);
}

/** The summary cards' numbers: `{entries, pass, fail, partial, error, skipped}`. */
export async function summary(page) {
  return page.evaluate(() => {
    const read = (name) => Number(document.querySelector(`#summary [data-summary="${name}"] .card-value`)?.textContent);
    return { entries: read("entries"), pass: read("pass"), fail: read("fail"), partial: read("partial"), error: read("error"), skipped: read("skipped") };
  });
}

/** Marks the page's state as pending, so that `settled` waits for the next run, not the last. */
export async function markPending(page) {
  await page.evaluate(() => {
    document.body.dataset.state = "test-pending";
  });
}

/** Gives `text` as a file named `name` to the page's file input (the run starts). */
export async function pickFile(page, name, text) {
  await markPending(page);
  await page.setInputFiles("#dataset-file", { name, mimeType: "application/json", buffer: Buffer.from(text) });
}

/** Opens `text` as a file named `name` through the page's file input, and waits for the run. */
export async function openFile(page, name, text, states) {
  await pickFile(page, name, text);
  return settled(page, states);
}

/** Saves a screenshot of the page as `target/page-screenshots/<name>.png`. */
export async function screenshot(page, name) {
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

/** Visible rows of the results table: `[{entry, reviewMark, status, position}]` (`reviewMark` "" when not reviewed). */
export async function tableRows(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".table-viewport .table-row")]
      .sort((a, b) => Number(a.getAttribute("aria-rowindex")) - Number(b.getAttribute("aria-rowindex")))
      .map((row) => ({
        entry: row.children[0].firstChild?.textContent ?? "",
        reviewMark: row.querySelector(".review-mark")?.dataset.review ?? "",
        status: row.children[1].textContent,
        position: Number(row.dataset.position),
      })),
  );
}

/**
 * Turns the page's LLM judge on: an Azure OpenAI endpoint at `endpoint`, deployment
 * `gpt-4o-judge`, key `key`; with `remember` the settings are kept, with `concurrency` its calls
 * at once.
 */
export async function configureJudge(page, { endpoint, key, remember = false, concurrency } = {}) {
  await page.click("#judge-panel > summary");
  await page.check("#judge-enabled");
  await page.selectOption("#judge-kind", "azure");
  await page.fill("#judge-endpoint", endpoint);
  await page.dispatchEvent("#judge-endpoint", "change");
  await page.fill("#judge-model", "gpt-4o-judge");
  await page.dispatchEvent("#judge-model", "change");
  await page.fill("#judge-key", key);
  if (remember) await page.check("#judge-remember");
  if (concurrency) {
    await page.fill("#judge-concurrency", String(concurrency));
    await page.dispatchEvent("#judge-concurrency", "change");
  }
}

/** Unfolds the loader ("Change" in the dataset's line) when a dataset has folded it away. */
export async function showLoader(page) {
  if (await page.isHidden("#load-panel")) await page.click("#dataset-change");
  await page.waitForSelector("#load-panel", { state: "visible" });
}

/** Clicks the export button of `format` and resolves to the downloaded file's text. */
export async function downloadExport(page, format) {
  const [file] = await Promise.all([page.waitForEvent("download", { timeout: 15000 }), page.click(`#exports button[data-format="${format}"]`)]);
  return readFile(await file.path(), "utf8");
}

/** Every value the page keeps in IndexedDB, as text. */
export async function storedText(page) {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((entry) => entry.name);
    const texts = [];
    for (const name of names) {
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const store of db.objectStoreNames) {
        const values = await new Promise((resolve) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
        });
        texts.push(JSON.stringify(values, (_, value) => (value instanceof Uint8Array ? new TextDecoder().decode(value) : value)));
      }
      db.close();
    }
    return texts.join("\n");
  });
}

/**
 * Fills the page's agent panel: `kind` at `endpoint` (`model` for the kinds that need one), the
 * key `key` (remembered with `remember`), `concurrency` conversations at once.
 */
export async function configureAgent(page, { kind, endpoint, model, key, remember = false, concurrency } = {}) {
  await page.click("#agent-panel > summary");
  await page.selectOption("#agent-kind", kind);
  await page.fill("#agent-endpoint", endpoint);
  await page.dispatchEvent("#agent-endpoint", "change");
  if (model) {
    await page.fill("#agent-model", model);
    await page.dispatchEvent("#agent-model", "change");
  }
  if (key !== undefined) await page.fill("#agent-key", key);
  if (remember) await page.check("#agent-remember");
  if (concurrency) {
    await page.fill("#agent-concurrency", String(concurrency));
    await page.dispatchEvent("#agent-concurrency", "change");
  }
}
