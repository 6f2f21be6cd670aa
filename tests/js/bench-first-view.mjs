// The page's first-view transfer size, for `cargo xtask bench page`: `agenteval view` (no file:
// the page opens its built-in example) is loaded in a fresh browser context until the example is
// scored and shown; every file that view fetched from the server is then fetched again as a
// browser asks for it (`Accept-Encoding: gzip, deflate, br, zstd`) and its bytes on the wire are
// counted, compressed as the server sends them, beside their uncompressed size.

import { spawn } from "node:child_process";
import { request } from "node:http";

/** The kind a file is counted under, by its content type. */
function kindOf(type) {
  if (/html/.test(type)) return "html";
  if (/css/.test(type)) return "css";
  if (/javascript/.test(type)) return "js";
  if (/wasm/.test(type)) return "wasm";
  if (/json/.test(type)) return "json";
  return "other";
}

/** `{status, type, encoding, bytes}` of `url` fetched with `encoding` accepted: the body's bytes as sent. */
function fetchRaw(url, encoding) {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers: { "accept-encoding": encoding } }, (response) => {
      let bytes = 0;
      response.on("data", (chunk) => {
        bytes += chunk.length;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode, type: response.headers["content-type"] ?? "", encoding: response.headers["content-encoding"] ?? "identity", bytes }),
      );
      response.on("error", reject);
    });
    sent.on("error", reject);
    sent.end();
  });
}

/** The page's URL `agenteval view` prints on its standard output. */
function printedUrl(server) {
  return new Promise((resolve, reject) => {
    let printed = "";
    server.stdout.on("data", (chunk) => {
      printed += chunk;
      const found = printed.match(/^page:\s+(http:\/\/127\.0\.0\.1:\d+\/\S*)$/m);
      if (found) resolve(found[1]);
    });
    server.on("exit", (code) => reject(new Error(`agenteval view exited (${code}) before printing the page's URL: ${printed}`)));
  });
}

/**
 * Loads the page from `agenteval view` (`cli`) in `browser` and measures what its first view
 * transferred: `{files: [{path, kind, encoding, bytes, raw}], total, raw, byKind, wasmModules}`.
 */
export async function firstView(browser, cli) {
  const server = spawn(cli, ["view", "--port", "0", "--no-open"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const pageUrl = await printedUrl(server);
    const origin = new URL(pageUrl).origin;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const urls = new Set();
    context.on("request", (sent) => {
      if (sent.url().startsWith(origin)) urls.add(sent.url());
    });
    const page = await context.newPage();
    await page.goto(pageUrl);
    await page.waitForFunction(() => document.body.dataset.state === "done", null, { timeout: 60000 });
    await page.waitForLoadState("networkidle");
    await context.close();
    const files = [];
    for (const url of [...urls].sort()) {
      const sent = await fetchRaw(url, "gzip, deflate, br, zstd");
      const plain = await fetchRaw(url, "identity");
      if (sent.status !== 200) continue;
      files.push({ path: url.slice(origin.length), kind: kindOf(sent.type), encoding: sent.encoding, bytes: sent.bytes, raw: plain.bytes });
    }
    const byKind = {};
    for (const file of files) byKind[file.kind] = (byKind[file.kind] ?? 0) + file.bytes;
    return {
      files,
      total: files.reduce((sum, file) => sum + file.bytes, 0),
      raw: files.reduce((sum, file) => sum + file.raw, 0),
      byKind,
      wasmModules: files.filter((file) => file.kind === "wasm").length,
    };
  } finally {
    server.kill();
  }
}
