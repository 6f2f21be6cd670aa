// Times evaluate against evaluateRows on the 100 000-item benchmark document (bytes), 3 runs
// each: `node bench-rows.mjs [path]` (default target/bench/document-100k.json; generate it with
// `cargo run --release -q -p agenteval-core --example compare_reference -- write-document
// target/bench/document-100k.json 100000`).

import { readFile } from "node:fs/promises";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { root } from "./helpers.js";

const path = process.argv[2] ?? join(root, "target/bench/document-100k.json");
const bytes = new Uint8Array(await readFile(path));
console.log(`${path}: ${(bytes.length / 1e6).toFixed(1)} MB`);

async function time(name, run) {
  for (let round = 1; round <= 3; round += 1) {
    const start = performance.now();
    const held = await run();
    const ms = performance.now() - start;
    console.log(`${name} run ${round}: ${ms.toFixed(0)} ms`);
    held.free();
  }
}

await time("evaluate(bytes, {onResult})", () => agenteval.evaluate(bytes, { onResult: () => {} }));
await time("evaluate(bytes)", () => agenteval.evaluate(bytes));
await time("evaluateRows(bytes, {onRows})", () => agenteval.evaluateRows(bytes, { onRows: () => {} }));
await time("evaluateRows(bytes)", () => agenteval.evaluateRows(bytes));
