// The generated declarations type a realistic usage example (types/usage.ts) under strict
// settings, and reject the misuse it marks with @ts-expect-error.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

test("tsc --noEmit accepts the typed usage example", () => {
  const result = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "types/tsconfig.json"], {
    cwd: here,
    encoding: "utf8",
  });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});
