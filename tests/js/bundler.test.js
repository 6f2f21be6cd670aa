// The same package bundled by Vite (a production build of bundler/), loaded in Chromium.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { launchChromium } from "./helpers.js";

const here = fileURLToPath(new URL(".", import.meta.url));

test("a Vite build of an app using the package runs in Chromium", async () => {
  const { build } = await import("vite");
  const outDir = await mkdtemp(join(tmpdir(), "agenteval-vite-"));
  try {
    await build({
      root: join(here, "bundler"),
      logLevel: "error",
      build: { outDir, emptyOutDir: true, target: "es2022" },
      worker: { format: "es" },
    });
    const assets = await readdir(join(outDir, "assets"));
    assert.ok(assets.some((name) => name.endsWith(".wasm")), `the module is emitted as an asset: ${assets}`);

    const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
    const server = createServer(async (request, response) => {
      const path = new URL(request.url, "http://x").pathname;
      try {
        const body = await readFile(join(outDir, path === "/" ? "index.html" : path));
        response.writeHead(200, { "content-type": types[extname(path) || ".html"] ?? "application/octet-stream" }).end(body);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (error) => errors.push(String(error)));
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.waitForFunction(() => globalThis.result !== undefined, null, { timeout: 20000 });
      const result = await page.evaluate(() => globalThis.result);
      assert.deepEqual(errors, []);
      assert.deepEqual(result, { status: "pass", markdown: "# agenteval results", remote: 1 });
    } finally {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});
