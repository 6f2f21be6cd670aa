// The package in a real Chromium page and in Web Workers (playwright-core driving Debian's
// headless Chromium), loaded from a local HTTP server as a web app would load it.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { document, examples, launchChromium, serve } from "./helpers.js";

const demo = await readFile(join(examples, "m365-demo.json"), "utf8");
let server;
let browser;
let page;

before(async () => {
  server = await serve();
  browser = await launchChromium();
  page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error));
  await page.goto(`${server.url}/tests/js/web/blank.html`);
  await page.evaluate(async () => {
    globalThis.agenteval = await import("/pkg/index.js");
  });
  assert.deepEqual(errors, []);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("page: validate, score and render work and results are plain JSON", async () => {
  const result = await page.evaluate(async (text) => {
    const { validate, score, render, evaluators } = globalThis.agenteval;
    const report = await score(text);
    return {
      validation: validate(text),
      roundTrips: JSON.stringify(JSON.parse(JSON.stringify(report))) === JSON.stringify(report),
      items: report.items.length,
      markdown: render(report, "md").split("\n")[0],
      evaluators: evaluators().length > 0,
    };
  }, demo);
  assert.equal(result.validation.valid, true);
  assert.equal(result.items, 7);
  assert.equal(result.roundTrips, true);
  assert.equal(result.markdown, "# agenteval results");
  assert.equal(result.evaluators, true);
});

test("page: evaluate keeps the run, renders from it, and frees it", async () => {
  const result = await page.evaluate(async (text) => {
    const { evaluate, render } = globalThis.agenteval;
    const evaluation = await evaluate(text);
    const document = evaluation.render("document", { evaluatedAt: "2026-01-02T03:04:05Z" });
    const same = document === render(evaluation.report, "document", { dataset: text, evaluatedAt: "2026-01-02T03:04:05Z" });
    evaluation[Symbol.dispose]();
    const freed = (() => {
      try {
        evaluation.render("md");
      } catch (error) {
        return error.code;
      }
    })();
    return { items: JSON.parse(document).items.length, same, freed };
  }, demo);
  assert.deepEqual(result, { items: JSON.parse(demo).items.length, same: true, freed: "invalidArgument" });
});

test("page: scoreDocument streams the scored document, equal to evaluate's, with progress", async () => {
  const result = await page.evaluate(async (text) => {
    const { evaluate, scoreDocument } = globalThis.agenteval;
    const evaluatedAt = "2026-01-02T03:04:05Z";
    const evaluation = await evaluate(text);
    const expected = evaluation.render("document", { evaluatedAt });
    evaluation.free();
    const progress = [];
    const streamed = await scoreDocument(text, { evaluatedAt, sliceMs: 0.001, onProgress: (p) => progress.push(p) });
    const bytes = await scoreDocument(text, { evaluatedAt, output: "bytes" });
    const sameBytes = bytes.document instanceof Uint8Array && new TextDecoder().decode(bytes.document) === expected;
    const chunks = [];
    const toStream = await scoreDocument(text, { evaluatedAt, output: new WritableStream({ write: (chunk) => chunks.push(chunk) }) });
    const sameStreamed = (await new Blob(chunks).text()) === expected && !("document" in toStream);
    return { same: streamed.document === expected, sameBytes, sameStreamed, items: streamed.summary.items, last: progress.at(-1) };
  }, demo);
  const total = JSON.parse(demo).items.length;
  assert.deepEqual(result, { same: true, sameBytes: true, sameStreamed: true, items: 7, last: { done: total, total } });
});

test("page: errors are Error objects with a code", async () => {
  const result = await page.evaluate(async () => {
    const { score, validate } = globalThis.agenteval;
    const sync = (() => {
      try {
        validate(null);
      } catch (error) {
        return { isError: error instanceof Error, code: error.code, message: error.message };
      }
    })();
    const rejected = await score("{").catch((error) => ({ isError: error instanceof Error, code: error.code }));
    return { sync, rejected };
  });
  assert.deepEqual(result.sync.isError, true);
  assert.equal(result.sync.code, "invalidArgument");
  assert.match(result.sync.message, /^dataset: /);
  assert.deepEqual(result.rejected, { isError: true, code: "invalidDataset" });
});

test("page: a large run streams results and the page keeps responding while it scores", async () => {
  const result = await page.evaluate(async (data) => {
    const { score } = globalThis.agenteval;
    let streamed = 0;
    let longestGap = 0;
    let ticks = 0;
    let last = 0;
    let running = true;
    const tick = () => {
      const now = performance.now();
      if (streamed > 0) {
        if (last > 0) longestGap = Math.max(longestGap, now - last);
        last = now;
        ticks += 1;
      }
      if (running) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const progress = [];
    const started = performance.now();
    let firstResult = 0;
    const report = await score(data, {
      onResult: () => {
        if (streamed === 0) firstResult = performance.now();
        streamed += 1;
      },
      onProgress: (p) => progress.push(p.done),
    });
    running = false;
    return {
      streamed,
      items: report.items.length,
      progress: progress.length,
      ticks,
      longestGap,
      loadMs: firstResult - started,
      scoreMs: performance.now() - firstResult,
    };
  }, document(30000));
  const timing = `load ${result.loadMs.toFixed(0)} ms, scoring ${result.scoreMs.toFixed(0)} ms`;
  assert.equal(result.streamed, 30000);
  assert.equal(result.items, 30000);
  assert.ok(result.progress > 2, `progress reported ${result.progress} times`);
  assert.ok(result.ticks > 5, `timers ran ${result.ticks} times (${timing})`);
  // Scoring yields after each slice of about 8 ms: timers get a turn all through the run. Bounds
  // with room for a loaded machine: on average a turn every 50 ms, and never a second without one
  // (a run that did not yield would hold the page for all of its scoring time).
  const gaps = `${result.ticks} timer turns, longest gap ${result.longestGap.toFixed(1)} ms (${timing})`;
  assert.ok(result.ticks >= result.scoreMs / 50, `timers starved while scoring: ${gaps}`);
  assert.ok(result.longestGap < 1000, `the page was held while scoring: ${gaps}`);
});

test("page: an AbortSignal cancels a run", async () => {
  const result = await page.evaluate(async (data) => {
    const { score } = globalThis.agenteval;
    const controller = new AbortController();
    let seen = 0;
    const error = await score(data, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
      onResult: () => (seen += 1),
    }).catch((error) => error);
    return { name: error.name, seen };
  }, document(30000));
  assert.equal(result.name, "AbortError");
  assert.ok(result.seen < 30000);
});

test("page: a crash resets the module and the next call works", async () => {
  const result = await page.evaluate(async (text) => {
    const { __testPanic, score } = globalThis.agenteval;
    let code;
    try {
      __testPanic();
    } catch (error) {
      code = error.code;
    }
    const report = await score(text);
    return { code, items: report.items.length };
  }, demo);
  assert.deepEqual(result, { code: "internalError", items: 7 });
});

test("worker: connectWorker scores off the main thread with streaming, progress and abort", async () => {
  const result = await page.evaluate(async ({ text, data }) => {
    const { connectWorker } = globalThis.agenteval;
    const worker = connectWorker();
    try {
      const streamed = [];
      const progress = [];
      const report = await worker.score(text, {
        onResult: (outcome) => streamed.push(outcome.index),
        onProgress: (update) => progress.push(update),
      });
      const validation = await worker.validate(text);
      const markdown = await worker.render(report, "md");
      const invalid = await worker.score("{").catch((error) => ({ code: error.code, isError: error instanceof Error }));
      const custom = await worker.score(text, { custom: { x: () => 1 } }).catch((error) => error.code);
      const controller = new AbortController();
      const aborted = worker.score(data, { signal: controller.signal, onProgress: () => controller.abort() });
      const abortName = await aborted.catch((error) => error.name);
      const after = await worker.scoreItem({ prompt: "p", response: "r" }, ["Relevance"]);
      const kept = [];
      const evaluation = await worker.evaluate(text, { onResult: (outcome) => kept.push(outcome.index) });
      const keptMarkdown = await evaluation.render("md");
      const keptCsv = (await evaluation.render("csv")) === (await worker.render(evaluation.report, "csv"));
      evaluation.free();
      const freed = await evaluation.render("md").catch((error) => error.code);
      const evaluated = { items: evaluation.report.items.length, streamed: kept.length, markdown: keptMarkdown.split("\n")[0], keptCsv, freed };
      const documentProgress = [];
      const scoredDocument = await worker.scoreDocument(text, { onProgress: (update) => documentProgress.push(update) });
      const bytesDocument = await worker.scoreDocument(text, { output: "bytes" });
      const chunks = [];
      let closed = false;
      const output = new WritableStream({ write: (chunk) => chunks.push(chunk), close: () => (closed = true) });
      const toStream = await worker.scoreDocument(text, { output });
      const failing = new WritableStream({ write: () => Promise.reject(new Error("disk full")) });
      const failed = await worker.scoreDocument(text, { output: failing }).then(() => "resolved", (error) => error.message);
      const document = {
        statuses: JSON.parse(scoredDocument.document).items.length,
        items: scoredDocument.summary.items,
        last: documentProgress.at(-1),
        bytes: bytesDocument.document instanceof Uint8Array && new TextDecoder().decode(bytesDocument.document) === scoredDocument.document,
        stream: closed && toStream.summary.items === 7 && (await new Blob(chunks).text()) === scoredDocument.document,
        failed,
      };
      const reopened = await worker.readReport(scoredDocument.document);
      const notScored = await worker.readReport(text).catch((error) => ({ code: error.code, diagnostics: error.diagnostics.length }));
      const reviewed = await worker.applyReviews(report, [{ index: 0, review: { needs_review: true, overrides: [] } }]);
      const read = { items: reopened.items.length, pass: reopened.summary.pass, notScored, needsReview: reviewed.summary.review.needs_review };
      const comparison = await worker.compare(scoredDocument.document, scoredDocument.document);
      const compared = {
        matched: comparison.pairing.matched,
        changed: comparison.items.filter((item) => item.changed).length,
        markdown: (await worker.compare(scoredDocument.document, scoredDocument.document, { format: "md" })).split("\n")[0],
        refused: await worker.compare(scoredDocument.document, text).catch((error) => error.code),
      };
      return { compared, items: report.items.length, streamed: streamed.length, last: progress.at(-1), valid: validation.valid, markdown: markdown.split("\n")[0], invalid, custom, abortName, after: after.results[0].result, evaluated, document, read, passed: report.summary.pass };
    } finally {
      worker.terminate();
    }
  }, { text: demo, data: document(30000) });
  assert.equal(result.items, 7);
  assert.equal(result.streamed, 7);
  assert.deepEqual(result.last, { done: 7, total: 7 });
  assert.equal(result.valid, true);
  assert.equal(result.markdown, "# agenteval results");
  assert.deepEqual(result.invalid, { code: "invalidDataset", isError: true });
  assert.equal(result.custom, "invalidArgument");
  assert.equal(result.abortName, "AbortError");
  assert.equal(result.after, "skipped");
  assert.deepEqual(result.evaluated, { items: 7, streamed: 7, markdown: "# agenteval results", keptCsv: true, freed: "invalidArgument" });
  const demoItems = JSON.parse(demo).items.length;
  assert.deepEqual(result.document, { statuses: demoItems, items: 7, last: { done: demoItems, total: demoItems }, bytes: true, stream: true, failed: "disk full" });
  assert.deepEqual(result.read, { items: 7, pass: result.passed, notScored: { code: "notScored", diagnostics: 1 }, needsReview: 1 });
  assert.deepEqual(result.compared, { matched: demoItems, changed: 0, markdown: "# Comparison: baseline → candidate", refused: "notScored" });
});

test("worker and page: a Copilot Studio CSV is read, through connectWorker too", async () => {
  const csv = await readFile(join(examples, "../tests/fixtures/copilot-studio/export.csv"), "utf8");
  const result = await page.evaluate(async (text) => {
    const { connectWorker, evaluateRows, validate, render, score } = globalThis.agenteval;
    const worker = connectWorker();
    try {
      const here = await evaluateRows(text);
      const run = await worker.evaluateRows(text);
      const kept = await worker.evaluate(text);
      const report = await score(text);
      const same = {
        input: JSON.stringify(await run.input(2)) === JSON.stringify(here.input(2)),
        evaluateInput: JSON.stringify(await kept.input(2)) === JSON.stringify(here.input(2)),
        copilot: (await run.render("copilot")) === here.render("copilot"),
        rendered: (await render(report, "copilot", { dataset: text })) === here.render("copilot"),
      };
      const question = here.input(1).question;
      here.free();
      run.free();
      kept.free();
      const validation = await validate(text);
      const remote = await worker.validate(text);
      return { same, question, dialect: validation.dialect, remote: remote.dialect, items: report.items.length };
    } finally {
      worker.terminate();
    }
  }, csv);
  assert.deepEqual(result, {
    same: { input: true, evaluateInput: true, copilot: true, rendered: true },
    question: "When does the store open?",
    dialect: "copilot_studio",
    remote: "copilot_studio",
    items: 6,
  });
});

test("worker: evaluateRows through connectWorker gives the columns, entries and renders of the page's own call", async () => {
  const result = await page.evaluate(async (text) => {
    const { connectWorker, evaluateRows } = globalThis.agenteval;
    const worker = connectWorker();
    try {
      const chunks = [];
      const progress = [];
      const run = await worker.evaluateRows(text, { onRows: (rows) => chunks.push(rows), onProgress: (update) => progress.push(update) });
      const here = await evaluateRows(text);
      const evaluatedAt = "2026-01-02T03:04:05Z";
      const same = {
        summary: JSON.stringify(run.summary) === JSON.stringify(here.summary),
        status: [...run.rows.status].join() === [...here.rows.status].join(),
        result: [...run.rows.result].join() === [...here.rows.result].join(),
        score: [...run.rows.score].map(String).join() === [...here.rows.score].map(String).join(),
        typed: run.rows.score instanceof Float64Array && run.rows.index instanceof Int32Array,
        entry: JSON.stringify(await run.entry(3)) === JSON.stringify(here.entry(3)),
        document: (await run.render("document", { evaluatedAt })) === here.render("document", { evaluatedAt }),
        chunked: chunks.reduce((sum, chunk) => sum + chunk.index.length, 0),
      };
      here.free();
      run.free();
      const freed = await run.entry(0).catch((error) => error.code);
      const judged = await worker.evaluateRows(text, { judge: { kind: "openai", endpoint: "http://127.0.0.1:9", model: "m" } }).catch((error) => error.code);
      return { same, length: run.length, dialect: run.dialect, last: progress.at(-1), freed, judged };
    } finally {
      worker.terminate();
    }
  }, demo);
  assert.deepEqual(result.same, { summary: true, status: true, result: true, score: true, typed: true, entry: true, document: true, chunked: 7 });
  assert.equal(result.length, 7);
  assert.equal(result.dialect, "m365");
  assert.equal(result.last.done, result.last.total);
  assert.equal(result.freed, "invalidArgument");
  assert.equal(result.judged, "invalidArgument");
});

test("worker: the message protocol keeps an evaluation under a handle until evaluationFree", async () => {
  const result = await page.evaluate(async (text) => {
    const worker = new Worker(new URL("/pkg/worker.js", location.href), { type: "module" });
    let nextId = 0;
    const call = (method, args) =>
      new Promise((resolve) => {
        const id = nextId++;
        const listener = ({ data }) => {
          if (data.id !== id || (data.type !== "done" && data.type !== "error")) return;
          worker.removeEventListener("message", listener);
          resolve(data);
        };
        worker.addEventListener("message", listener);
        worker.postMessage({ id, method, args });
      });
    try {
      const evaluated = await call("evaluate", [text, {}]);
      const { handle, report } = evaluated.value;
      const markdown = await call("evaluationRender", [handle, "md"]);
      const freed = await call("evaluationFree", [handle]);
      const after = await call("evaluationRender", [handle, "md"]);
      return {
        items: report.items.length,
        markdown: markdown.value.split("\n")[0],
        freed: freed.type,
        after: [after.type, after.error?.code, after.error?.message],
      };
    } finally {
      worker.terminate();
    }
  }, demo);
  assert.deepEqual(result, {
    items: 7,
    markdown: "# agenteval results",
    freed: "done",
    after: ["error", "invalidArgument", "evaluation: already freed; keep it until you are done with it"],
  });
});

test("worker: the package imported directly in a module worker", async () => {
  const result = await page.evaluate(async (text) => {
    const source = `
      const agenteval = await import(${JSON.stringify(new URL("/pkg/index.js", location.href).href)});
      self.onmessage = async ({ data }) => {
        let crash;
        try { agenteval.__testPanic(); } catch (error) { crash = error.code; }
        const report = await agenteval.score(data, { custom: { short: (input) => input.response.length < 40 } });
        self.postMessage({ crash, items: report.items.length, isWindow: typeof window !== "undefined" });
      };
      self.postMessage("ready");`;
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    const worker = new Worker(url, { type: "module" });
    const reply = await new Promise((resolve, reject) => {
      worker.onerror = (event) => reject(new Error(event.message));
      worker.onmessage = ({ data }) => {
        if (data === "ready") worker.postMessage(text);
        else resolve(data);
      };
    });
    worker.terminate();
    return reply;
  }, demo);
  assert.deepEqual(result, { crash: "internalError", items: 7, isWindow: false });
});
