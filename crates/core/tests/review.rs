//! Reviews of a run's verdicts through every format: applied to a scored run, written by each
//! writer beside the evaluators' verdicts (which never change), and read back from the scored
//! document.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::Path;

use agenteval_core::dataset::{self, Dataset};
use agenteval_core::json::{self, Value};
use agenteval_core::report::{self, reviews};
use agenteval_core::scored::m365_document::{self, DocumentOptions};
use agenteval_core::scored::{self, read_report};
use agenteval_core::{engine, RunReport, Verdict};

fn file(path: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn scored(path: &str, config: Option<&str>) -> (Dataset, RunReport) {
    let config = config.map(|path| json::parse(&file(path)).unwrap());
    let loaded = dataset::load(&file(path), config.as_ref()).unwrap();
    let report = engine::score(&loaded.dataset);
    (loaded.dataset, report)
}

/// Reviews of the demo's first item (one override that disagrees, one that agrees) and of the
/// thread's second turn (needs review, a comment with markup in it).
fn demo_reviews(report: &RunReport) -> Value {
    let first = &report.items[0].results;
    let (one, two) = (&first[0], &first[1]);
    let flip = |verdict: Verdict| {
        if verdict == Verdict::Pass {
            "fail"
        } else {
            "pass"
        }
    };
    let turn = report
        .items
        .iter()
        .find(|entry| entry.turn == Some(1))
        .unwrap();
    json::parse(
        serde_json::json!([
            {"index": 0, "review": {"overrides": [
                {"evaluator": one.evaluator, "verdict": flip(one.result), "comment": "the reviewer disagrees", "reviewer": "ana", "at": "2026-12-06T03:00:00Z"},
                {"evaluator": two.evaluator, "verdict": two.result.as_str(), "comment": "agreed"}
            ]}},
            {"index": turn.index, "turn": 1, "review": {"needs_review": true, "comment": "=cmd <script>alert(1)</script>"}}
        ])
        .to_string()
        .as_bytes(),
    )
    .unwrap()
}

#[test]
fn every_format_writes_the_review_beside_the_original_verdicts() {
    let (dataset, run) = scored("examples/m365-demo.json", None);
    let mut reviewed = run.clone();
    reviews::apply(&mut reviewed, &demo_reviews(&run)).unwrap();
    for (after, before) in reviewed.items.iter().zip(&run.items) {
        assert_eq!(
            (after.status, &after.results),
            (before.status, &before.results)
        );
    }
    let counts = reviewed.summary.review;
    assert_eq!(
        (
            counts.entries,
            counts.needs_review,
            counts.reviewed,
            counts.overridden
        ),
        (2, 1, 2, 1)
    );
    let line = "1 verdict overridden: evaluators and reviewer disagree on 1 of 2 reviewed; 1 entry needs review";
    assert_eq!(counts.describe().unwrap(), line);
    let evaluator = &reviewed.items[0].results[0].evaluator;

    let report_json: serde_json::Value = serde_json::from_str(&report::to_json(&reviewed)).unwrap();
    assert_eq!(
        report_json["items"][0]["review"]["overrides"][0]["reviewer"],
        "ana"
    );
    assert_eq!(report_json["summary"]["review"]["overridden"], 1);
    let unreviewed_json: serde_json::Value = serde_json::from_str(&report::to_json(&run)).unwrap();
    assert!(unreviewed_json["items"][0].get("review").is_none());
    assert!(unreviewed_json["summary"].get("review").is_none());

    let csv = report::csv::write(&reviewed);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(&header[4..6], ["needs_review", "review_comment"]);
    let column = header
        .iter()
        .position(|name| *name == format!("{evaluator}.review"))
        .unwrap();
    assert_eq!(header[column - 5], format!("{evaluator}.result"));
    let first_row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_ne!(first_row[column], first_row[column - 5]);
    assert_eq!(first_row[column + 1], "the reviewer disagrees");
    assert!(
        csv.contains("'=cmd <script>"),
        "the comment gets the formula guard: {csv}"
    );
    assert!(!report::csv::write(&run).contains("review"));

    let markdown = report::markdown::write(&reviewed);
    assert!(markdown.contains("\n## Review\n\n1 verdict overridden\\: evaluators"));
    assert!(markdown.contains("  - needs review\n"));
    assert!(markdown.contains("&lt;script&gt;alert\\(1\\)&lt;/script&gt;"));
    assert!(!report::markdown::write(&run).contains("## Review"));

    let html = report::html::write(&reviewed, "t");
    assert!(html.contains(&format!("<h2>Review</h2>\n<p class=\"review\">{line}</p>")));
    assert!(html.contains("<th>Review</th>"));
    assert!(html.contains("(ana, 2026-12-06T03:00:00Z): the reviewer disagrees</td>"));
    assert!(html.contains("&lt;script&gt;") && !html.contains("<script>"));

    let junit = report::junit::write(&reviewed, "t");
    assert!(junit.contains("<property name=\"review.comment\" value=\"the reviewer disagrees\"/>"));
    assert!(junit.contains("<property name=\"review.needs_review\" value=\"true\"/>"));
    assert_eq!(
        junit.matches("<testcase").count(),
        report::junit::write(&run, "t").matches("<testcase").count()
    );

    let Dataset::M365(document) = &dataset else {
        panic!("the demo is an M365 document")
    };
    let written = m365_document::write(&document.document, &reviewed, &DocumentOptions::default());
    assert_eq!(
        written["items"][0]["extensions"]["review"],
        reviewed.items[0].review.as_ref().unwrap().to_value()
    );
    let text = written.to_string();
    let back = read_report(text.as_bytes()).unwrap();
    let reviews_of = |report: &RunReport| {
        report
            .items
            .iter()
            .map(|entry| entry.review.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(reviews_of(&back), reviews_of(&reviewed));
    assert_eq!(back.summary.review, reviewed.summary.review);
    assert!(
        dataset::load(text.as_bytes(), None).is_ok(),
        "the reviewed document is still a valid dataset"
    );
}

#[test]
fn foundry_rows_and_copilot_studio_sets_carry_the_review() {
    let (dataset, run) = scored(
        "examples/foundry-demo.jsonl",
        Some("examples/foundry-config.json"),
    );
    let mut reviewed = run.clone();
    let evaluator = reviewed.items[1].results[0].evaluator.clone();
    let reviews = json::parse(
        serde_json::json!([{"index": 1, "review": {"overrides": [
            {"evaluator": evaluator, "verdict": "fail", "comment": "wrong tool"}]}}])
        .to_string()
        .as_bytes(),
    )
    .unwrap();
    reviews::apply(&mut reviewed, &reviews).unwrap();
    let Dataset::Foundry(rows) = &dataset else {
        panic!("Foundry rows")
    };
    let row = scored::foundry_rows::output_row(&rows.rows[1], &reviewed.items[1]);
    assert_eq!(
        row.get("review").unwrap()["overrides"][0]["comment"],
        Value::from("wrong tool")
    );
    assert!(
        scored::foundry_rows::output_row(&rows.rows[0], &reviewed.items[0])
            .get("review")
            .is_none()
    );

    let (set, run) = scored("tests/fixtures/copilot-studio/import.csv", None);
    let Dataset::CopilotStudio(set) = &set else {
        panic!("a Copilot Studio set")
    };
    let mut reviewed = run.clone();
    let evaluator = reviewed.items[0].results[0].evaluator.clone();
    let reviews = json::parse(
        serde_json::json!([{"index": 0, "review": {"needs_review": true, "overrides": [
            {"evaluator": evaluator, "verdict": "pass", "comment": "close enough"}]}}])
        .to_string()
        .as_bytes(),
    )
    .unwrap();
    reviews::apply(&mut reviewed, &reviews).unwrap();
    let written = scored::copilot_studio::write(set, &reviewed);
    let mut lines = written.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|column| *column == name).unwrap();
    assert_eq!(row[at("review_1")], "Pass");
    assert_eq!(row[at("reviewComment_1")], "close enough");
    assert_eq!(row[at("needsReview")], "true");
    assert_eq!(at("review_1"), at("score_1") + 1);
    assert!(!scored::copilot_studio::write(set, &run).contains("review"));
}

#[test]
fn a_stored_review_that_cannot_be_read_is_kept_in_part_and_located() {
    let text = r#"{"schemaVersion": "1.11.0", "items": [
        {"prompt": "p", "response": "r", "scores": {"exactMatch": {"match": false, "result": "fail"}}, "status": "fail",
         "extensions": {"other": 1, "review": {"overrides": [
            {"evaluator": "ExactMatch", "verdict": "pass", "comment": "same meaning"},
            {"evaluator": "Relevance", "verdict": "pass", "comment": "x"}]}}},
        {"prompt": "p2", "response": "r2", "scores": {"exactMatch": {"match": true, "result": "pass"}}, "status": "pass",
         "extensions": {"review": "looked at it"}},
        {"prompt": "p3", "response": "r3", "scores": {"exactMatch": {"match": true, "result": "pass"}}, "status": "pass"}
    ]}"#;
    let report = read_report(text.as_bytes()).unwrap();
    assert_eq!(report.items.len(), 3);
    let first = report.items[0].review.as_ref().unwrap();
    assert!(first.needs_review);
    assert_eq!(first.overrides.len(), 1);
    assert_eq!(
        first.problems,
        ["at /items/0/extensions/review/overrides/1/evaluator: the entry has no result of `Relevance` to override (it has ExactMatch)"]
    );
    let second = report.items[1].review.as_ref().unwrap();
    assert_eq!(
        second.problems,
        ["at /items/1/extensions/review: expected a review object {needs_review, comment, overrides}, got \"looked at it\""]
    );
    assert!(report.items[2].review.is_none());
    assert_eq!(report.summary.review.overridden, 1);
    assert_eq!(report.summary.review.needs_review, 2);
    let markdown = report::markdown::write(&report);
    assert!(markdown.contains("review problem\\: at /items/1/extensions/review\\: expected"));
}
