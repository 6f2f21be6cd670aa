// The embeddable results view (`web/embed.js`) in a host page of its own in headless Chromium:
// `<agenteval-results src>` scores a dataset in its own worker, `mount()` shows a run report made
// elsewhere, and neither the host's global styles reach in nor the view's styles leak out.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";

import { root } from "./helpers.js";
import { pageHarness, screenshot } from "./page-helpers.js";

const cli = process.env.AGENTEVAL_CLI ?? join(root, "target/debug/agenteval");
let harness;

before(async () => {
  harness = await pageHarness();
});
after(async () => {
  await harness?.close();
});

test("embed: the custom element and mount() show results inside a shadow root, styles isolated both ways", async () => {
  const { page, problems } = await harness.open({ path: "/tests/js/web/embed-host.html" });
  const report = JSON.parse(
    spawnSync(cli, ["score", "examples/foundry-demo.jsonl", "--config", "examples/foundry-config.json", "--format", "report"], {
      cwd: root,
      encoding: "utf8",
      env: { PATH: process.env.PATH },
    }).stdout,
  );
  const ready = page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const element = document.querySelector("#from-src");
        element.addEventListener("agenteval-ready", (event) => resolve(event.detail));
        element.addEventListener("agenteval-error", (event) => reject(new Error(event.detail.message)));
      }),
  );
  await page.evaluate(() => import("/web/embed.js"));
  assert.deepEqual(await ready, { entries: 7 });
  const mounted = await page.evaluate(async (report) => {
    const { mount } = await import("/web/embed.js");
    const { view } = await mount(document.querySelector("#from-report"), { report });
    return view.results.rows.length;
  }, report);
  assert.equal(mounted, report.items.length);
  await page.waitForFunction(() => document.querySelector("#from-src").shadowRoot.querySelectorAll(".table-viewport .table-row").length === 7);
  const seen = await page.evaluate(() => {
    const inside = document.querySelector("#from-src").shadowRoot;
    const badge = inside.querySelector(".table-viewport .badge");
    const entries = inside.querySelector('[data-summary="entries"] .card-value').textContent;
    const otherEntries = document.querySelector("#from-report").shadowRoot.querySelector('[data-summary="entries"] .card-value').textContent;
    const hostButton = getComputedStyle(document.querySelector("button.primary"));
    const hostCard = getComputedStyle(document.querySelector("div.card"));
    return {
      entries,
      otherEntries,
      badgeDisplay: getComputedStyle(badge).display,
      badgeColor: getComputedStyle(badge).color,
      badgeFont: getComputedStyle(badge).fontFamily,
      hostButtonBackground: hostButton.backgroundColor,
      hostCardBorder: hostCard.borderTopWidth,
      documentStyleSheets: document.styleSheets.length,
    };
  });
  assert.equal(seen.entries, "7");
  assert.equal(seen.otherEntries, String(report.items.length));
  assert.equal(seen.badgeDisplay, "inline-block", "the host's `.badge {display: none}` reached in");
  assert.notEqual(seen.badgeColor, "rgb(255, 0, 0)", "the host's colour reached in");
  assert.doesNotMatch(seen.badgeFont, /^serif/);
  assert.notEqual(seen.hostButtonBackground, "rgb(11, 92, 173)", "the view's .primary style leaked out");
  assert.equal(seen.hostCardBorder, "0px", "the view's .card style leaked out");
  assert.equal(seen.documentStyleSheets, 1, "the view added a style sheet to the host document");
  // The item view opens inside the shadow root.
  await page.evaluate(() => document.querySelector("#from-src").shadowRoot.querySelector('.table-viewport .table-row[aria-rowindex="2"]').click());
  await page.waitForFunction(() => document.querySelector("#from-src").shadowRoot.querySelector("dialog.item-view").open);
  const text = await page.evaluate(() => document.querySelector("#from-src").shadowRoot.querySelector("dialog.item-view").textContent);
  assert.match(text, /How many vacation days do new employees get\?/);
  await screenshot(page, "embedded");
  assert.deepEqual(problems, []);
});
