// `cargo xtask bench` (WebAssembly part): size of the module, start-up time, and throughput of
// the 100 000-item benchmark document in Node and headless Chromium, against the native CLI timed
// on the same machine in the same run: `score()` to the run report, `scoreDocument()` to the
// scored document (streamed item by item, as the CLI writes documents) into a WritableStream that
// discards it (as the CLI's to `/dev/null`), as bytes (`output: "bytes"`) and as a string, and
// `evaluate()` then `render("document")`.
//
// This machine's speed drifts by up to ±30 % over minutes, so the work runs in rounds: each round
// times the CLI, then Node, then the Chromium page, once each, and ratios are taken within a round.
// One round first, not compared, lets both engines finish compiling the module's optimised tier;
// its times are printed as what a page's first calls take (module just started, memory not yet
// grown).
// Prints one JSON object.
//
// Usage: node bench.mjs DOCUMENT CLI

import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { join } from "node:path";

import { launchChromium, root, serve } from "./helpers.js";

const [documentPath, cli] = process.argv.slice(2);
const ROUNDS = 5;

function cliSeconds(format) {
  const started = performance.now();
  const result = spawnSync(cli, ["score", documentPath, "--format", format, "--out", "/dev/null"], { stdio: "ignore" });
  if (result.status !== 0 && result.status !== 1) throw new Error(`${cli} failed: ${result.status}`);
  return (performance.now() - started) / 1000;
}

/**
 * Times `score()`, `scoreDocument()` (to a stream, bytes, then string) and `evaluate()` + `render("document")`
 * on `text`, once each. Self-contained, so the page runs it from its source.
 */
async function measure(agenteval, text) {
  const seconds = async (work) => {
    const begin = performance.now();
    await work();
    return (performance.now() - begin) / 1000;
  };
  return {
    scoreSeconds: await seconds(() => agenteval.score(text)),
    documentStreamSeconds: await seconds(() => agenteval.scoreDocument(text, { output: new WritableStream() })),
    documentSeconds: await seconds(() => agenteval.scoreDocument(text, { output: "bytes" })),
    documentStringSeconds: await seconds(() => agenteval.scoreDocument(text)),
    evaluateDocumentSeconds: await seconds(async () => {
      const evaluation = await agenteval.evaluate(text);
      evaluation.render("document");
      evaluation.free();
    }),
  };
}

/** The package loaded in Node: its start-up time and a function that measures one round. */
async function nodeRunner(text) {
  const started = performance.now();
  const agenteval = await import("agenteval");
  const startupMs = performance.now() - started;
  return { startupMs, round: () => measure(agenteval, text) };
}

/** The package loaded in a Chromium page: its start-up time and a function that measures one round. */
async function chromiumRunner(page, server) {
  await page.goto(`${server.url}/tests/js/web/blank.html`);
  const startupMs = await page.evaluate(
    async ({ documentUrl, source }) => {
      globalThis.benchText = await (await fetch(documentUrl)).text();
      const started = performance.now();
      globalThis.benchPackage = await import("/pkg/index.js");
      const startupMs = performance.now() - started;
      globalThis.benchMeasure = (0, eval)(`(${source})`);
      return startupMs;
    },
    {
      documentUrl: `/${documentPath.slice(root.length).replace(/^\/+/, "")}`,
      source: measure.toString(),
    },
  );
  return {
    startupMs,
    round: () => page.evaluate(() => globalThis.benchMeasure(globalThis.benchPackage, globalThis.benchText)),
  };
}

const wasm = await readFile(join(root, "pkg/agenteval_wasm_bg.wasm"));
const text = await readFile(documentPath, "utf8");
const server = await serve();
const browser = await launchChromium();
try {
  const node = await nodeRunner(text);
  const chromium = await chromiumRunner(await browser.newPage(), server);
  const firstRound = { node: await node.round(), chromium: await chromium.round() };
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const native = { reportSeconds: cliSeconds("report"), documentSeconds: cliSeconds("document") };
    rounds.push({ native, node: await node.round(), chromium: await chromium.round() });
  }
  console.log(
    JSON.stringify({
      wasmBytes: wasm.length,
      wasmGzipBytes: gzipSync(wasm, { level: 9 }).length,
      documentBytes: Buffer.byteLength(text),
      startupMs: { node: node.startupMs, chromium: chromium.startupMs },
      firstRound,
      rounds,
    }),
  );
} finally {
  await browser.close();
  await server.close();
}
