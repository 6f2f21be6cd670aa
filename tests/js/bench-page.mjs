// `cargo xtask bench page`: the web page in headless Chromium on the 100 000-item benchmark
// document. Times drop-to-fully-rendered (from the file input's change to the results drawn: the
// run done, summary, charts and the table's first rows on screen), records the main thread's long
// tasks meanwhile (the page must not freeze), then scrolls the results table through the whole
// run frame by frame and records each frame's time. Runs ROUNDS times. With `AGENTEVAL_CLI`, also
// measures the first view's transfer size as `agenteval view` serves it (`bench-first-view.mjs`).
// Prints one JSON object.
//
// Usage: [AGENTEVAL_CLI=target/debug/agenteval] node bench-page.mjs DOCUMENT

import { firstView } from "./bench-first-view.mjs";
import { launchChromium, serve } from "./helpers.js";

const [documentPath] = process.argv.slice(2);
const cli = process.env.AGENTEVAL_CLI;
const ROUNDS = 3;
const SCROLL_FRAMES = 240;

async function round(browser, server) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${server.url}/web/index.html`);
  await page.waitForFunction(() => document.body.dataset.state === "done", null, { timeout: 60000 });
  await page.evaluate(() => {
    window.__bench = { longTasks: [] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bench.longTasks.push(entry.duration);
    }).observe({ type: "longtask" });
    document.querySelector("#dataset-file").addEventListener("change", () => {
      window.__bench.started = performance.now();
      document.body.dataset.state = "bench-pending";
    }, { capture: true });
  });
  await page.setInputFiles("#dataset-file", documentPath);
  await page.waitForFunction(() => ["done", "error", "invalid"].includes(document.body.dataset.state), null, { timeout: 300000, polling: 50 });
  const drop = await page.evaluate(
    () =>
      new Promise((resolve) => {
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            resolve({
              seconds: (performance.now() - window.__bench.started) / 1000,
              state: document.body.dataset.state,
              entries: Number(document.querySelector('#summary [data-summary="entries"] .card-value').textContent),
              rowsDrawn: document.querySelectorAll(".table-viewport .table-row").length,
              longTasks: window.__bench.longTasks.slice(),
            }),
          ),
        );
      }),
  );
  const frames = await page.evaluate(
    (count) =>
      new Promise((resolve) => {
        const viewport = document.querySelector(".table-viewport");
        const step = (viewport.scrollHeight - viewport.clientHeight) / count;
        const times = [];
        let last = performance.now();
        let frame = 0;
        window.__bench.longTasks = [];
        const tick = (now) => {
          if (frame > 0) times.push(now - last);
          last = now;
          if (frame === count) return resolve({ times, longTasks: window.__bench.longTasks.slice() });
          frame += 1;
          viewport.scrollTop = Math.round(step * frame);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    SCROLL_FRAMES,
  );
  await page.close();
  return { drop, frames, errors };
}

const server = await serve();
const browser = await launchChromium();
const rounds = [];
let transfer;
try {
  if (cli) transfer = await firstView(browser, cli);
  for (let index = 0; index < ROUNDS; index += 1) rounds.push(await round(browser, server));
} finally {
  await browser.close();
  await server.close();
}
const sorted = (values) => [...values].sort((a, b) => a - b);
const percentile = (values, p) => sorted(values)[Math.min(values.length - 1, Math.floor(values.length * p))];
const frameTimes = rounds.flatMap((entry) => entry.frames.times);
console.log(
  JSON.stringify({
    dropSeconds: rounds.map((entry) => entry.drop.seconds),
    entries: rounds.map((entry) => entry.drop.entries),
    states: rounds.map((entry) => entry.drop.state),
    rowsDrawn: rounds.map((entry) => entry.drop.rowsDrawn),
    loadLongestTaskMs: rounds.map((entry) => Math.max(0, ...entry.drop.longTasks)),
    loadLongTasks: rounds.map((entry) => entry.drop.longTasks.length),
    scrollFrameMaxMs: rounds.map((entry) => Math.max(...entry.frames.times)),
    scrollFrameP95Ms: percentile(frameTimes, 0.95),
    scrollFrameMedianMs: percentile(frameTimes, 0.5),
    scrollLongestTaskMs: rounds.map((entry) => Math.max(0, ...entry.frames.longTasks)),
    errors: rounds.flatMap((entry) => entry.errors),
    firstView: transfer,
  }),
);
