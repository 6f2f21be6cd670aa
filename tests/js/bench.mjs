// `cargo xtask bench` (WebAssembly part): size of the module, start-up time, and throughput of
// the 100 000-item benchmark document in Node and headless Chromium, against the native CLI timed
// on the same machine in the same run: `score()` to the run report, `scoreDocument()` to the
// scored document (streamed item by item, as the CLI writes documents) into a WritableStream that
// discards it (as the CLI's to `/dev/null`) and as bytes (`output: "bytes"`, also against the CLI
// writing the document to a file in memory, where both sides keep it), and `evaluate()`
// then `render("document")`, each given the document's bytes as the CLI reads its file; then
// `scoreDocument()` given the document as text, to bytes and to a string.
//
// This machine's speed drifts by up to ±30 % over minutes, so the work runs in rounds: each round
// times the CLI, then Node, then the Chromium page, once each, and ratios are taken within a round.
// Each call is timed after a full garbage collection (Node runs with `--expose-gc`, Chromium with
// `--js-flags=--expose-gc`), so that none pays for the garbage of the one before it, as the CLI's
// runs, each its own process, never do.
// One round first, not compared, lets both engines finish compiling the module's optimised tier;
// its times are printed as what a page's first calls take (module just started, memory not yet
// grown).
// Prints one JSON object.
//
// Usage: node --expose-gc bench.mjs DOCUMENT CLI

import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { join } from "node:path";

import { launchChromium, root, serve } from "./helpers.js";

const [documentPath, cli, plainCli] = process.argv.slice(2);
const ROUNDS = 5;

/**
 * The CLI's time for `format`, written to `/dev/null` or, with `out`, to that file (removed
 * afterwards); `binary` picks another build of the CLI (the one without profile-guided
 * optimisation, for comparison).
 */
function cliSeconds(format, out = "/dev/null", binary = cli) {
  const started = performance.now();
  const result = spawnSync(binary, ["score", documentPath, "--format", format, "--out", out], { stdio: "ignore" });
  const seconds = (performance.now() - started) / 1000;
  if (out !== "/dev/null") rmSync(out, { force: true });
  if (result.status !== 0 && result.status !== 1) throw new Error(`${binary} failed: ${result.status}`);
  return seconds;
}

/**
 * Where the CLI writes the scored document when it is to be kept, as `output: "bytes"` keeps it:
 * a file in memory (tmpfs), so that both sides pay for 342 MB of fresh memory and neither for a
 * disk.
 */
const IN_MEMORY_OUT = join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), `agenteval-bench-${process.pid}.json`);

/**
 * Times, once each: `score()`, `scoreDocument()` to a stream and to bytes, and `evaluate()` +
 * `render("document")`, given the document's bytes (as read from a file, like the CLI's input);
 * then `scoreDocument()` to bytes and to a string given its text. Self-contained, so the page
 * runs it from its source.
 */
async function measure(agenteval, bytes, text) {
  const seconds = async (work) => {
    globalThis.gc();
    const begin = performance.now();
    await work();
    return (performance.now() - begin) / 1000;
  };
  return {
    scoreSeconds: await seconds(() => agenteval.score(bytes)),
    documentStreamSeconds: await seconds(() => agenteval.scoreDocument(bytes, { output: new WritableStream() })),
    documentSeconds: await seconds(() => agenteval.scoreDocument(bytes, { output: "bytes" })),
    documentFromTextSeconds: await seconds(() => agenteval.scoreDocument(text, { output: "bytes" })),
    documentStringSeconds: await seconds(() => agenteval.scoreDocument(text)),
    evaluateDocumentSeconds: await seconds(async () => {
      const evaluation = await agenteval.evaluate(bytes);
      evaluation.render("document");
      evaluation.free();
    }),
  };
}

/** The package loaded in Node: its start-up time and a function that measures one round. */
async function nodeRunner(bytes, text) {
  const started = performance.now();
  const agenteval = await import("agenteval");
  const startupMs = performance.now() - started;
  return { startupMs, round: () => measure(agenteval, bytes, text) };
}

/** The package loaded in a Chromium page: its start-up time and a function that measures one round. */
async function chromiumRunner(page, server) {
  await page.goto(`${server.url}/tests/js/web/blank.html`);
  const startupMs = await page.evaluate(
    async ({ documentUrl, source }) => {
      globalThis.benchBytes = new Uint8Array(await (await fetch(documentUrl)).arrayBuffer());
      globalThis.benchText = new TextDecoder().decode(globalThis.benchBytes);
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
    round: () => page.evaluate(() => globalThis.benchMeasure(globalThis.benchPackage, globalThis.benchBytes, globalThis.benchText)),
  };
}

const wasm = await readFile(join(root, "pkg/agenteval_wasm_bg.wasm"));
const bytes = new Uint8Array(await readFile(documentPath));
const text = new TextDecoder().decode(bytes);
const server = await serve();
const browser = await launchChromium(["--js-flags=--expose-gc"]);
try {
  const node = await nodeRunner(bytes, text);
  const chromium = await chromiumRunner(await browser.newPage(), server);
  const firstRound = { node: await node.round(), chromium: await chromium.round() };
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const native = {
      reportSeconds: cliSeconds("report"),
      documentSeconds: cliSeconds("document"),
      documentToMemorySeconds: cliSeconds("document", IN_MEMORY_OUT),
      plainDocumentSeconds: plainCli ? cliSeconds("document", "/dev/null", plainCli) : null,
    };
    rounds.push({ native, node: await node.round(), chromium: await chromium.round() });
  }
  console.log(
    JSON.stringify({
      wasmBytes: wasm.length,
      wasmGzipBytes: gzipSync(wasm, { level: 9 }).length,
      documentBytes: bytes.length,
      startupMs: { node: node.startupMs, chromium: chromium.startupMs },
      firstRound,
      rounds,
    }),
  );
} finally {
  await browser.close();
  await server.close();
}
