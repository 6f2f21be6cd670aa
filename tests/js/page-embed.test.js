// The embeddable results view (`web/embed.js`) in a host page of its own in headless Chromium:
// `<agenteval-results src>` scores a dataset in its own worker, `mount()` shows a run report made
// elsewhere, and neither the host's global styles reach in nor the view's styles leak out; the
// view fills its host, searches a report, and says so when its `src` cannot be loaded.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";

import { root } from "./helpers.js";
import { pageSuite, screenshot } from "./page-helpers.js";

const cli = process.env.AGENTEVAL_CLI ?? join(root, "target/debug/agenteval");
const harness = pageSuite();

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

test("embed: the view fills its host, its search works on a report, and a broken src says so", async () => {
  const { page, problems } = await harness.open({ path: "/tests/js/web/embed-host.html" });
  const report = JSON.parse(
    spawnSync(cli, ["score", "examples/m365-demo.json", "--format", "report"], { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH } }).stdout,
  );
  await page.evaluate(async (report) => {
    const { mount } = await import("/web/embed.js");
    await mount(document.querySelector("#from-report"), { report });
  }, report);
  const inside = (selector) => `document.querySelector("#from-report").shadowRoot.querySelector(${JSON.stringify(selector)})`;
  const widths = await page.evaluate(`({ host: document.querySelector("#from-report").getBoundingClientRect(), view: ${inside(".results-view")}.getBoundingClientRect(), table: ${inside(".results-table")}.getBoundingClientRect() })`);
  assert.ok(Math.abs(widths.view.width - widths.host.width) < 1 && Math.abs(widths.view.left - widths.host.left) < 1, `the view (${widths.view.width} px) leaves a gutter in its host (${widths.host.width} px)`);
  assert.ok(widths.table.width > widths.host.width - 40, `the table is ${widths.table.width} px of ${widths.host.width} px`);
  // Search: a report holds no inputs; its ids, evaluators and reasons are searched.
  /** Types `text` in the view's search box; resolves once the count says `count` entries match. */
  const search = async (text, count) => {
    await page.evaluate(`(() => { const input = ${inside("#filter-text")}; input.value = ${JSON.stringify(text)}; input.dispatchEvent(new Event("input")); })()`);
    const wanted = `${count} of ${report.items.length} entries`;
    await page.waitForFunction(`${inside("#table-count")}.textContent === ${JSON.stringify(wanted)}`, null, { timeout: 5000 });
    return page.evaluate(`[...${inside(".table-viewport")}.querySelectorAll(".table-row")].length`);
  };
  const citationsFailing = report.items.filter((item) => item.results.some((result) => /No citations found/.test(result.reason ?? ""))).length;
  assert.ok(citationsFailing > 0 && citationsFailing < report.items.length);
  assert.equal(await search("no citations FOUND", citationsFailing), citationsFailing);
  assert.equal(await search("item-5.turn-1", 1), 1);
  assert.equal(await search("", report.items.length), report.items.length);
  // A src that cannot be loaded: a message in the view, and the error event.
  const failed = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const element = document.createElement("agenteval-results");
        element.id = "broken";
        element.addEventListener("agenteval-error", (event) => resolve(event.detail.message));
        element.setAttribute("src", "/examples/no-such-file.json");
        document.body.append(element);
      }),
  );
  assert.match(failed, /no-such-file\.json: the server answered 404/);
  const shown = await page.evaluate(() => {
    const message = document.querySelector("#broken").shadowRoot.querySelector(".embed-problem");
    const box = message?.getBoundingClientRect();
    return { text: message?.textContent, visible: Boolean(box && box.width > 0 && box.height > 0), role: message?.getAttribute("role") };
  });
  assert.equal(shown.text, "The results cannot be shown: /examples/no-such-file.json: the server answered 404");
  assert.equal(shown.visible, true);
  assert.equal(shown.role, "alert");
  await screenshot(page, "embedded-report");
  assert.deepEqual(problems, []);
});
