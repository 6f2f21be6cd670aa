// Shared by the test suites: repository paths, generated datasets, and a static file server for
// the browser tests (serving the repository root, so pages load /pkg/ as a web app would).

import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const examples = join(root, "examples");

/** The local judge `cargo xtask test` starts: `{url, key}` from AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY. */
export function localJudge() {
  const url = process.env.AGENTEVAL_JUDGE_URL;
  const key = process.env.AGENTEVAL_JUDGE_KEY;
  if (!url || !key) throw new Error("AGENTEVAL_JUDGE_URL and AGENTEVAL_JUDGE_KEY are unset: run these tests through `cargo xtask test`");
  return { url, key };
}

/** An M365 eval document with `count` single-turn items. */
export function document(count, evaluators = { PartialMatch: {}, Citations: {} }) {
  const items = [];
  for (let index = 0; index < count; index += 1) {
    items.push({
      prompt: `Question ${index}: how many vacation days do new employees get?`,
      expected_response: "New employees get 20 vacation days per year.",
      response: `New employees receive ${index % 30} vacation days per year [1].`,
    });
  }
  return { schemaVersion: "1.6.0", default_evaluators: evaluators, items };
}

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jsonl": "application/jsonl",
};

/** Serves the repository root on a loopback port; resolves to {url, close}. */
export async function serve() {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
    try {
      const body = await readFile(join(root, path));
      response.writeHead(200, {
        "content-type": TYPES[extname(path)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Launches headless Chromium (Debian's, or $CHROMIUM) through playwright-core. */
export async function launchChromium(extraArgs = []) {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
}

/**
 * A headless Chromium page served from the repository with the package loaded as
 * `globalThis.agenteval`: `{page, close()}`.
 */
export async function packagePage() {
  const server = await serve();
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(`${server.url}/tests/js/web/blank.html`);
  await page.evaluate(async () => {
    globalThis.agenteval = await import("/pkg/index.js");
  });
  return {
    page,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
