// Reviews through the package: applyReviews on a scored run, every format render writes with the
// review beside the verdicts, the scored document read back with its reviews (readReport), and
// wrong reviews refused with their place.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

import * as agenteval from "agenteval";
import { examples } from "./helpers.js";

const demo = await readFile(join(examples, "m365-demo.json"), "utf8");

/** A disagreeing override on the first entry, an agreeing one, and a thread turn marked. */
function reviewsOf(report) {
  const [first, second] = report.items[0].results;
  const turn = report.items.find((entry) => entry.turn === 1);
  return [
    {
      index: 0,
      turn: null,
      review: {
        needs_review: false,
        overrides: [
          { evaluator: first.evaluator, verdict: first.result === "pass" ? "fail" : "pass", comment: "the reviewer disagrees", reviewer: "ana", at: "2026-12-06T03:00:00Z" },
          { evaluator: second.evaluator, verdict: second.result, comment: "agreed" },
        ],
      },
    },
    { index: turn.index, turn: 1, review: { needs_review: true, comment: "<b>look again</b>", overrides: [] } },
  ];
}

test("applyReviews sets reviews beside the verdicts; every format writes them and readReport reads them back", async () => {
  const report = await agenteval.score(demo);
  const reviewed = agenteval.applyReviews(report, reviewsOf(report));
  assert.deepEqual(
    reviewed.items.map((entry) => [entry.status, entry.results]),
    report.items.map((entry) => [entry.status, entry.results]),
    "the evaluators' results and statuses are unchanged",
  );
  assert.deepEqual(reviewed.summary.review, { entries: 2, needs_review: 1, reviewed: 2, overridden: 1 });
  assert.equal(reviewed.summary.fail, report.summary.fail);
  assert.equal(reviewed.items[0].review.overrides[0].reviewer, "ana");
  assert.equal(report.items[0].review, undefined, "the given report is not changed");

  const evaluator = report.items[0].results[0].evaluator;
  const line = "1 verdict overridden: evaluators and reviewer disagree on 1 of 2 reviewed; 1 entry needs review";
  const rendered = Object.fromEntries(
    ["report", "csv", "junit", "md", "html"].map((format) => [format, agenteval.render(reviewed, format)]),
  );
  assert.deepEqual(JSON.parse(rendered.report).items[0].review, reviewed.items[0].review);
  assert.match(rendered.csv.split("\r\n")[0], new RegExp(`^index,turn,status,problem,needs_review,review_comment,.*,${evaluator}\\.review,${evaluator}\\.review_comment,`));
  assert.match(rendered.junit, /<property name="review.comment" value="the reviewer disagrees"\/>/);
  assert.ok(rendered.md.includes(`## Review\n\n${line.replace(":", "\\:")}`), rendered.md);
  assert.ok(rendered.html.includes(`<p class="review">${line}</p>`));
  assert.ok(rendered.html.includes("comment: &lt;b&gt;look again&lt;/b&gt;") && !rendered.html.includes("<b>look"));

  const scored = agenteval.render(reviewed, "document", { dataset: demo, evaluatedAt: "2026-12-06T00:00:00Z" });
  assert.deepEqual(JSON.parse(scored).items[0].extensions.review, reviewed.items[0].review);
  const reopened = await agenteval.readReport(scored);
  assert.deepEqual(
    reopened.items.map((entry) => entry.review),
    reviewed.items.map((entry) => entry.review),
  );
  assert.deepEqual(reopened.summary.review, reviewed.summary.review);

  const cleared = agenteval.applyReviews(reviewed, [{ index: 0, review: null }]);
  assert.equal(cleared.items[0].review, undefined);
  assert.equal(cleared.summary.review.entries, 1);
});

test("wrong reviews are refused with their place, in applyReviews and in a report given to render", async () => {
  const report = await agenteval.score(demo);
  const evaluator = report.items[0].results[0].evaluator;
  assert.throws(
    () =>
      agenteval.applyReviews(report, [
        { index: 0, review: { overrides: [{ evaluator, verdict: "maybe", comment: "?" }] } },
        { index: 99, review: { needs_review: true } },
      ]),
    (error) => {
      assert.equal(error.code, "invalidArgument");
      assert.equal(
        error.message,
        `reviews: at /0/review/overrides/0/verdict: expected "pass" or "fail", got "maybe"; at /1: the report has no entry item-99 (it has ${report.items.length} entries)`,
      );
      assert.equal(error.diagnostics.length, 2);
      return true;
    },
  );
  assert.throws(() => agenteval.applyReviews(report, "reviews"), (error) => error.code === "invalidArgument");
  const forged = structuredClone(report);
  forged.items[0].review = { overrides: [{ evaluator: "Nope", verdict: "pass", comment: "c" }] };
  assert.throws(
    () => agenteval.render(forged, "md"),
    (error) => error.code === "invalidReport" && /items\[0\]\.review\.overrides\[0\]\.evaluator: the entry has no result of `Nope`/.test(error.message),
  );
});

test("a kept run renders with the reviews option: Evaluation.render and RowsEvaluation.render, the run unchanged", async () => {
  const evaluation = await agenteval.evaluate(demo);
  const rows = await agenteval.evaluateRows(demo);
  const reviews = reviewsOf(evaluation.report);
  const evaluatedAt = "2026-12-06T00:00:00Z";
  const documents = [];
  for (const run of [evaluation, rows]) {
    const scored = run.render("document", { reviews, evaluatedAt });
    documents.push(scored);
    const reopened = await agenteval.readReport(scored);
    assert.deepEqual(reopened.summary.review, { entries: 2, needs_review: 1, reviewed: 2, overridden: 1 });
    assert.equal(JSON.parse(run.render("document", { evaluatedAt })).items[0].extensions, undefined, "the run kept has no review");
    assert.match(run.render("md", { reviews }), /\n## Review\n/);
    assert.doesNotMatch(run.render("md"), /## Review/);
    assert.throws(
      () => run.render("csv", { reviews: [{ index: 99, review: null }] }),
      (error) => error.code === "invalidArgument" && error.message.startsWith("options.reviews: at /0: the report has no entry item-99"),
    );
  }
  assert.equal(documents[0], documents[1], "both runs write the same reviewed document");
  evaluation.free();
  rows.free();
});
