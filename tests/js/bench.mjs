// `cargo xtask bench` (WebAssembly part): size of the module, start-up time, and throughput of
// the 100 000-item benchmark document in Node and headless Chromium, against the native CLI timed
// on the same machine in the same run: `score()` to the run report, `scoreDocument()` to the
// scored document (streamed item by item, as the CLI writes documents) as bytes (`output:
// "bytes"`, the fast way) and as a string, and `evaluate()` then `render("document")`. Prints one
// JSON object.
//
// Usage: node bench.mjs DOCUMENT CLI

import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { join } from "node:path";

import { launchChromium, root, serve } from "./helpers.js";

const [documentPath, cli] = process.argv.slice(2);
const RUNS = 3;

function cliSeconds(format) {
  const times = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const result = spawnSync(cli, ["score", documentPath, "--format", format, "--out", "/dev/null"], { stdio: "ignore" });
    if (result.status !== 0 && result.status !== 1) throw new Error(`${cli} failed: ${result.status}`);
    times.push((performance.now() - started) / 1000);
  }
  return Math.min(...times);
}

/**
 * Times `score()`, `scoreDocument()` (bytes, then string) and `evaluate()` + `render("document")`
 * on `text`, best of `runs`. Self-contained, so the page runs it from its source.
 */
async function measure(agenteval, text, runs) {
  const seconds = async (work) => {
    const begin = performance.now();
    await work();
    return (performance.now() - begin) / 1000;
  };
  const score = [];
  const document = [];
  const documentString = [];
  const evaluated = [];
  for (let run = 0; run < runs; run += 1) {
    score.push(await seconds(() => agenteval.score(text)));
    document.push(await seconds(() => agenteval.scoreDocument(text, { output: "bytes" })));
    documentString.push(await seconds(() => agenteval.scoreDocument(text)));
    evaluated.push(
      await seconds(async () => {
        const evaluation = await agenteval.evaluate(text);
        evaluation.render("document");
        evaluation.free();
      }),
    );
  }
  return {
    scoreSeconds: Math.min(...score),
    documentSeconds: Math.min(...document),
    documentStringSeconds: Math.min(...documentString),
    evaluateDocumentSeconds: Math.min(...evaluated),
  };
}

async function nodeFigures(text) {
  const started = performance.now();
  const agenteval = await import("agenteval");
  const startupMs = performance.now() - started;
  return { startupMs, ...(await measure(agenteval, text, RUNS)) };
}

async function chromiumFigures() {
  const server = await serve();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/tests/js/web/blank.html`);
    return await page.evaluate(
      async ({ documentUrl, runs, source }) => {
        const text = await (await fetch(documentUrl)).text();
        const started = performance.now();
        const agenteval = await import("/pkg/index.js");
        const startupMs = performance.now() - started;
        const measureInPage = (0, eval)(`(${source})`);
        return { startupMs, ...(await measureInPage(agenteval, text, runs)) };
      },
      {
        documentUrl: `/${documentPath.slice(root.length).replace(/^\/+/, "")}`,
        runs: RUNS,
        source: measure.toString(),
      },
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

const wasm = await readFile(join(root, "pkg/agenteval_wasm_bg.wasm"));
const text = await readFile(documentPath, "utf8");
const native = { reportSeconds: cliSeconds("report"), documentSeconds: cliSeconds("document") };
const node = await nodeFigures(text);
const chromium = await chromiumFigures();
console.log(
  JSON.stringify({
    wasmBytes: wasm.length,
    wasmGzipBytes: gzipSync(wasm, { level: 9 }).length,
    documentBytes: Buffer.byteLength(text),
    native,
    node,
    chromium,
  }),
);
