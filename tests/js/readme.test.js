// The JavaScript examples of pkg/README.md run as written in Node (each as its own module, against
// the built package). The Web Worker example cannot run in Node; what it shows (connectWorker with
// streaming, progress and abort) is exercised in a real Chromium worker by browser.test.js.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { root } from "./helpers.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const readme = readFileSync(join(root, "pkg/README.md"), "utf8");
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]);

test("the README has examples", () => {
  assert.ok(blocks.length >= 5, `${blocks.length} examples`);
});

blocks.forEach((code, index) => {
  const heading = readme.slice(0, readme.indexOf(code)).match(/### (.*)\n/g)?.at(-1)?.slice(4).trim() ?? "intro";
  if (code.includes("connectWorker")) return;
  test(`README example ${index + 1} (${heading}) runs`, () => {
    const file = join(here, `.readme-example-${index}.mjs`);
    writeFileSync(file, code);
    try {
      const result = spawnSync(process.execPath, [file], { encoding: "utf8" });
      assert.equal(result.status, 0, result.stderr);
      if (code.includes("console.log")) assert.ok(result.stdout.length > 0, "prints its results");
    } finally {
      rmSync(file, { force: true });
    }
  });
});
