// Run by `cargo xtask test` after `pkg/` is built again as `cargo xtask build` builds it: the
// package carries no deliberate panic. The other suites run against the test build, which adds
// `__testPanic` (feature `crash-test`) for the crash-recovery tests.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import test from "node:test";

import * as agenteval from "agenteval";

import { root } from "./helpers.js";

test("the built package exports no deliberate panic, from its module or the API", async () => {
  for (const file of ["pkg/agenteval_wasm_bg.wasm"]) {
    const module = new WebAssembly.Module(await readFile(join(root, file)));
    const exported = WebAssembly.Module.exports(module).map((entry) => entry.name);
    assert.ok(exported.includes("validate"), `${file}: the module's exports are read`);
    assert.equal(exported.some((name) => /panic/i.test(name)), false, `${file}: ${exported.join(", ")}`);
  }
  assert.equal(agenteval.__testPanic, undefined);
  const report = await agenteval.score('{"schemaVersion": "1.6.0", "items": [{"prompt": "p", "response": "a b", "expected_response": "a b", "evaluators": {"ExactMatch": {}}}]}');
  assert.equal(report.items[0].status, "pass");
});
