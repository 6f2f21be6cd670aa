// `cargo xtask bench judge` (package part): judged calls per second through the package's
// scheduler over `fetch`, in Node and in a headless Chromium page, against the local judge at a
// fixed latency; the ideal is concurrency ÷ latency. The local judge speaks HTTP/1.1, and a
// browser opens at most six HTTP/1.1 connections to one origin, so in Chromium the ideal is also
// given for min(concurrency, 6) (real endpoints serve HTTP/2, which multiplexes one connection).
// Prints one JSON object.
//
// Usage: node bench-judge.mjs JUDGE_URL LATENCY_MS CONCURRENCY ITEMS

import * as agenteval from "agenteval";
import { launchChromium, serve } from "./helpers.js";

const [url, latencyMs, concurrency, count] = process.argv.slice(2).map((value, index) => (index === 0 ? value : Number(value)));

function dataset(salt) {
  const items = Array.from({ length: count }, (_, index) => ({
    prompt: `Question ${index} (${salt})?`,
    response: `Answer ${index}.`,
  }));
  return { schemaVersion: "1.11.0", default_evaluators: { Relevance: {} }, items };
}

const judge = { kind: "azure", endpoint: url, model: "bench", concurrency, cache: false };

async function node() {
  const warm = dataset("warm-up");
  await agenteval.score({ ...warm, items: warm.items.slice(0, concurrency) }, { judge });
  const started = performance.now();
  const report = await agenteval.score(dataset("node"), { judge });
  const seconds = (performance.now() - started) / 1000;
  if (report.judge.requests !== count || report.summary.evaluators.Relevance.error !== 0) {
    throw new Error(`node: ${JSON.stringify(report.judge)}`);
  }
  return seconds;
}

async function chromium() {
  const server = await serve();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/tests/js/web/blank.html`);
    return await page.evaluate(
      async ({ judge, warm, data, count }) => {
        const { score } = await import("/pkg/index.js");
        await score(warm, { judge });
        const started = performance.now();
        const report = await score(data, { judge });
        if (report.judge.requests !== count) throw new Error(JSON.stringify(report.judge));
        return (performance.now() - started) / 1000;
      },
      { judge, warm: { ...dataset("warm-up-page"), items: dataset("warm-up-page").items.slice(0, concurrency) }, data: dataset("page"), count },
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Chromium's limit of HTTP/1.1 connections to one origin. */
const BROWSER_CONNECTIONS = 6;
const ideal = concurrency / (latencyMs / 1000);
const figures = {};
for (const [name, measure] of [["node", node], ["chromium", chromium]]) {
  const seconds = await measure();
  const perSecond = count / seconds;
  figures[name] = { seconds, callsPerSecond: perSecond, shareOfIdeal: perSecond / ideal };
}
const http1Ideal = Math.min(concurrency, BROWSER_CONNECTIONS) / (latencyMs / 1000);
figures.chromium.http1IdealCallsPerSecond = http1Ideal;
figures.chromium.shareOfHttp1Ideal = figures.chromium.callsPerSecond / http1Ideal;
console.log(JSON.stringify({ latencyMs, concurrency, items: count, idealCallsPerSecond: ideal, ...figures }));
