//! Opening scored datasets as reports (`scored::read_report`): every M365 document the engine
//! scores, written as a document and read back, gives the run's report (less what a document
//! cannot hold); the scored fixtures in `tests/fixtures/scored` map as their tests say, and their
//! reports are snapshotted.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod documents;

use agenteval_core::dataset::{self, Dataset};
use agenteval_core::evaluators;
use agenteval_core::json::Value;
use agenteval_core::report;
use agenteval_core::scored::m365_document::{self, DocumentOptions};
use agenteval_core::scored::{read_report, ReadError};
use agenteval_core::{
    engine, CaseOutcome, Details, ErrorCode, EvalResult, ItemStatus, RunReport, Verdict,
};

fn fixture(name: &str) -> String {
    let path = documents::root().join("tests/fixtures/scored").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn read_fixture(name: &str) -> RunReport {
    read_report(fixture(name).as_bytes()).unwrap_or_else(|error| panic!("{name}: {error}"))
}

/// The report a run's document can give back: skipped results left out (the schema has no shape
/// for them), judge tokens, and an error's reason and details (an ErroredScore holds only its
/// message and code), its code `evaluatorError` when the document is older than 1.9 (which has
/// no `code`); one result per `scores` key (the last, in the first one's place), named after the
/// key; the summary recomputed.
fn as_stored(run: &RunReport, with_codes: bool) -> RunReport {
    let mut stored = RunReport::new(run.dialect);
    for outcome in &run.items {
        let mut outcome = outcome.clone();
        let mut kept: Vec<EvalResult> = Vec::new();
        for mut result in std::mem::take(&mut outcome.results) {
            if result.result == Verdict::Skipped {
                continue;
            }
            result.usage = None;
            if let Some(error) = &mut result.error {
                result.reason = None;
                result.details = Details::new();
                if !with_codes {
                    error.code = ErrorCode::EvaluatorError;
                }
            }
            result.evaluator =
                evaluators::from_score_key(evaluators::score_key(&result.evaluator)).to_owned();
            match kept.iter_mut().find(|k| k.evaluator == result.evaluator) {
                Some(slot) => *slot = result,
                None => kept.push(result),
            }
        }
        outcome.results = kept;
        stored.push(outcome);
    }
    stored
}

#[test]
fn every_scored_document_reads_back_as_its_run_report() {
    let options = DocumentOptions {
        evaluated_at: Some("2026-11-30T12:00:00Z".to_owned()),
    };
    let mut read_back = 0;
    for (name, text) in documents::files()
        .into_iter()
        .chain(documents::written_by_hand())
    {
        let Ok(loaded) = dataset::load(text.as_bytes(), None) else {
            continue;
        };
        let Dataset::M365(document) = &loaded.dataset else {
            continue;
        };
        let run = engine::score(&loaded.dataset);
        let with_codes = document
            .document
            .as_object()
            .is_some_and(m365_document::writes_error_codes);
        let written = m365_document::write(&document.document, &run, &options);
        let text = serde_json::to_string_pretty(&written).unwrap();
        let report = match read_report(text.as_bytes()) {
            Ok(report) => report,
            Err(ReadError::NotScored(_)) => {
                // NOTE: a thread without turns has nowhere to carry its problem.
                assert!(
                    run.items.iter().all(|outcome| outcome.problem.is_some()),
                    "{name}: scored, but read as not scored"
                );
                continue;
            }
            Err(error) => panic!("{name}: {error}"),
        };
        let expected = as_stored(&run, with_codes);
        for (got, want) in report.items.iter().zip(&expected.items) {
            assert_eq!(got, want, "{name}");
        }
        assert_eq!(report, expected, "{name}");
        assert!(!report.items.is_empty(), "{name}");
        read_back += 1;
    }
    assert!(read_back >= 30, "only {read_back} documents read back");
}

#[test]
fn a_round_trip_keeps_scores_codes_problems_and_the_thread_that_could_not_be_evaluated() {
    let text = r#"{"schemaVersion": "1.11.0",
        "default_evaluators": {"ExactMatch": {}, "Citations": {"citation_format": "bracket"}},
        "items": [
          {"prompt": "p", "response": "Paris [1] [2]", "expected_response": "Paris"},
          {"prompt": "p", "response": "", "expected_response": "x"},
          {"prompt": 7},
          {"turns": [{"prompt": "t", "response": "a", "expected_response": "a"}, {"prompt": 7}]},
          {"prompt": "p", "response": "r", "evaluators": {"Relevance": {}}, "evaluators_mode": "replace"}
        ]}"#;
    let loaded = dataset::load(text.as_bytes(), None).unwrap();
    let Dataset::M365(document) = &loaded.dataset else {
        panic!("an M365 document");
    };
    let run = engine::score(&loaded.dataset);
    let written = m365_document::write(&document.document, &run, &DocumentOptions::default());
    let report = read_report(written.to_string().as_bytes()).unwrap();
    assert_eq!(report, as_stored(&run, true));
    let citations = &report.items[0].results[1];
    assert_eq!(
        (citations.evaluator.as_str(), citations.score),
        ("Citations", Some(2.0))
    );
    assert_eq!(
        report.items[0].results[0].score, None,
        "ExactMatch has none"
    );
    let empty = &report.items[1];
    assert_eq!(empty.status, Some(ItemStatus::Error));
    assert!(empty
        .results
        .iter()
        .all(|result| result.error.as_ref().unwrap().code == ErrorCode::EmptyAgentResponse));
    assert_eq!(
        report.items[2].problem, run.items[2].problem,
        "the invalid item's problem"
    );
    let thread = &report.items[3];
    assert_eq!(
        (thread.turn, thread.status),
        (None, Some(ItemStatus::Error))
    );
    assert!(thread
        .problem
        .as_deref()
        .unwrap()
        .contains("/items/3/turns/1/prompt"));
    assert_eq!(
        (report.items[4].status, report.items[4].results.len()),
        (None, 0),
        "all skipped"
    );
    assert_eq!(report.summary.items, 5);
    assert_eq!(report.summary.error, 3);
}

/// The first entry of item `index`.
fn entry(report: &RunReport, index: usize) -> &CaseOutcome {
    report
        .items
        .iter()
        .find(|entry| entry.index == index)
        .unwrap()
}

#[test]
fn m365_scored_fixture_keeps_what_is_stored() {
    let report = read_fixture("m365-scored.json");
    let statuses: Vec<(usize, Option<usize>, Option<ItemStatus>)> = report
        .items
        .iter()
        .map(|entry| (entry.index, entry.turn, entry.status))
        .collect();
    use ItemStatus::{Error, Fail, Partial, Pass};
    assert_eq!(
        statuses,
        [
            (0, None, Some(Fail)),
            (1, None, Some(Partial)),
            (2, None, Some(Error)),
            (3, Some(0), Some(Pass)),
            (3, Some(1), Some(Fail)),
            (4, None, Some(Partial)),
            (5, None, Some(Error)),
            (6, None, Some(Error)),
            (7, None, Some(Partial)),
            (8, None, None),
            (9, None, Some(Pass)),
        ]
    );
    let first = &report.items[0].results;
    let names: Vec<&str> = first.iter().map(|r| r.evaluator.as_str()).collect();
    assert_eq!(names, ["PartialMatch", "ExactMatch", "Citations"]);
    assert_eq!(
        (
            first[0].score,
            first[0].threshold,
            first[0].reason.as_deref()
        ),
        (Some(0.8), Some(0.5), Some("Match score: 0.800"))
    );
    assert_eq!(first[1].details.get("match"), Some(&Value::Bool(false)));
    assert_eq!((first[2].score, first[2].threshold), (Some(1.0), Some(1.0)));
    assert_eq!(
        first[2].details.get("format").and_then(Value::as_str),
        Some("bracket")
    );

    let timeout = &report.items[1].results[1];
    assert_eq!(timeout.evaluator, "Relevance");
    let error = timeout.error.as_ref().unwrap();
    assert_eq!(
        (error.code, error.message.as_str()),
        (
            ErrorCode::JudgeTimeout,
            "The judge did not answer within 30 s."
        )
    );
    assert_eq!(
        report.items[2].problem.as_deref(),
        Some("Agent request failed: HTTP 503 Service Unavailable")
    );

    let unreadable = &entry(&report, 4).results;
    let error = unreadable[0].error.as_ref().unwrap();
    assert_eq!(error.code, ErrorCode::InvalidStoredResult);
    assert_eq!(
        error.message,
        "at /items/4/scores/relevance/score: expected a number, got \"high\""
    );
    assert_eq!(
        unreadable[0]
            .details
            .get("stored")
            .and_then(|s| s.get("score")),
        Some(&Value::from("high"))
    );
    assert_eq!(unreadable[1].evaluator, "professional_tone");
    assert_eq!(unreadable[1].details.get("samples"), Some(&Value::from(3)));

    assert_eq!(
        entry(&report, 5).problem.as_deref(),
        Some("at /items/5/status: expected one of \"pass\", \"fail\", \"partial\", \"error\", got \"maybe\"")
    );
    assert_eq!(entry(&report, 5).results[0].result, Verdict::Pass);
    assert_eq!(
        entry(&report, 6).problem.as_deref(),
        Some("at /items/6: expected an item object, got an integer (7)")
    );
    let unknown = &entry(&report, 7).results[0];
    assert_eq!(
        unknown.error.as_ref().unwrap().code,
        ErrorCode::EvaluatorError
    );
    assert_eq!(
        unknown.details.get("code"),
        Some(&Value::from("judgeExploded"))
    );
    assert_eq!(unknown.details.get("retries"), Some(&Value::from(3)));
    assert_eq!(
        entry(&report, 8).problem.as_deref(),
        Some("at /items/8: not scored (it has no `scores` or `status`)")
    );

    let summary = &report.summary;
    assert_eq!(
        (
            summary.items,
            summary.pass,
            summary.fail,
            summary.partial,
            summary.error
        ),
        (11, 2, 2, 3, 3)
    );
    let relevance = &summary
        .per_evaluator()
        .iter()
        .find(|(name, _)| name == "Relevance")
        .unwrap()
        .1;
    assert_eq!((relevance.pass, relevance.fail, relevance.error), (2, 1, 3));
}

/// `(evaluator, result, score, threshold)` of each result of each entry, with its status.
type Mapped = Vec<(
    Option<ItemStatus>,
    Vec<(String, Verdict, Option<f64>, Option<f64>)>,
)>;

fn mapped(report: &RunReport) -> Mapped {
    report
        .items
        .iter()
        .map(|entry: &CaseOutcome| {
            let results = entry
                .results
                .iter()
                .map(|r: &EvalResult| (r.evaluator.clone(), r.result, r.score, r.threshold))
                .collect();
            (entry.status, results)
        })
        .collect()
}

fn result(
    name: &str,
    verdict: Verdict,
    score: Option<f64>,
    threshold: Option<f64>,
) -> (String, Verdict, Option<f64>, Option<f64>) {
    (name.to_owned(), verdict, score, threshold)
}

#[test]
fn runevals_judged_fixture_maps_runevals_verdicts() {
    use Verdict::{Fail, Pass, Skipped};
    let report = read_fixture("runevals-judged.json");
    assert_eq!(
        mapped(&report),
        vec![
            (
                Some(ItemStatus::Pass),
                vec![
                    result("Relevance", Pass, Some(5.0), Some(3.0)),
                    result("Coherence", Pass, Some(4.0), Some(3.0)),
                    result("Groundedness", Pass, Some(5.0), Some(4.0)),
                    result("Citations", Pass, Some(1.0), Some(1.0)),
                ]
            ),
            (
                Some(ItemStatus::Fail),
                vec![
                    result("Relevance", Pass, Some(4.0), Some(3.0)),
                    result("Coherence", Pass, Some(5.0), Some(3.0)),
                    result("Groundedness", Fail, Some(3.0), Some(4.0)),
                    result("Citations", Fail, Some(0.0), Some(1.0)),
                ]
            ),
            (
                Some(ItemStatus::Fail),
                vec![
                    result("Relevance", Pass, Some(5.0), Some(3.0)),
                    result("Coherence", Pass, Some(5.0), Some(3.0)),
                    result("Groundedness", Fail, Some(2.0), Some(3.0)),
                    result("ToolCallAccuracy", Skipped, None, None),
                ]
            ),
            (
                Some(ItemStatus::Error),
                vec![
                    result("Relevance", Fail, Some(1.0), Some(3.0)),
                    result("Coherence", Fail, Some(1.0), Some(3.0)),
                ]
            ),
        ]
    );
    let groundedness = &report.items[1].results[2];
    assert_eq!(
        groundedness.reason.as_deref(),
        Some("Partly supported by the context.")
    );
    let kept: Vec<&str> = groundedness.details.iter().map(|(key, _)| key).collect();
    assert_eq!(
        kept,
        [
            "gpt_groundedness",
            "groundedness_result",
            "groundedness_threshold"
        ]
    );
    assert_eq!(
        groundedness.details.get("groundedness_result"),
        Some(&Value::from("pass")),
        "the evaluator's own verdict, overruled by runevals' threshold 4, is kept"
    );
    let citations = &report.items[0].results[3];
    assert_eq!(
        citations.details.get("citation_format"),
        Some(&Value::from("oai_unicode"))
    );
    let skipped = &report.items[2].results[3];
    assert_eq!(
        skipped.reason.as_deref(),
        Some("No tool calls found in response or provided tool_calls.")
    );
    assert_eq!(
        skipped.details.get("tool_call_accuracy_result"),
        Some(&Value::from("pass"))
    );
    let summary = &report.summary;
    assert_eq!(
        (
            summary.items,
            summary.pass,
            summary.fail,
            summary.partial,
            summary.error
        ),
        (4, 1, 2, 0, 1)
    );
    let tallies: Vec<(&str, usize, usize, usize)> = summary
        .per_evaluator()
        .iter()
        .map(|(name, tally)| (name.as_str(), tally.pass, tally.fail, tally.skipped))
        .collect();
    assert_eq!(
        tallies,
        [
            ("Relevance", 3, 1, 0),
            ("Coherence", 3, 1, 0),
            ("Groundedness", 1, 2, 0),
            ("Citations", 1, 1, 0),
            ("ToolCallAccuracy", 0, 0, 1),
        ]
    );
}

#[test]
fn runevals_partial_match_fixture_maps_the_evaluators_own_keys() {
    use Verdict::{Fail, Pass};
    let report = read_fixture("runevals-partial-match.json");
    assert_eq!(
        mapped(&report),
        vec![
            (
                Some(ItemStatus::Pass),
                vec![result("PartialMatch", Pass, Some(0.7143), Some(0.5))]
            ),
            (
                Some(ItemStatus::Fail),
                vec![result("PartialMatch", Fail, Some(0.1), Some(0.5))]
            ),
            (
                Some(ItemStatus::Fail),
                vec![result("PartialMatch", Fail, Some(0.8), Some(0.9))]
            ),
            (None, vec![]),
        ]
    );
    assert_eq!(
        report.items[1].results[0].reason.as_deref(),
        Some("Match score: 0.100 (below threshold 0.5)")
    );
    assert!(report.items[0].results[0].details.is_empty());
    let tally = &report.summary.per_evaluator()[0].1;
    assert_eq!(
        (tally.pass, tally.fail, tally.pass_rate),
        (1, 2, Some(1.0 / 3.0))
    );
    assert_eq!((tally.min, tally.max), (Some(0.1), Some(0.8)));
}

#[test]
fn runevals_malformed_fixture_keeps_every_entry() {
    use Verdict::{Error, Pass};
    let report = read_fixture("runevals-malformed.json");
    assert_eq!(report.items.len(), 4);
    let first = &report.items[0];
    assert_eq!(first.status, Some(ItemStatus::Partial));
    let summary: Vec<(&str, Verdict, Option<ErrorCode>)> = first
        .results
        .iter()
        .map(|r| {
            (
                r.evaluator.as_str(),
                r.result,
                r.error.as_ref().map(|e| e.code),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("PartialMatch", Pass, None),
            ("Relevance", Error, Some(ErrorCode::InvalidStoredResult)),
            ("Coherence", Error, Some(ErrorCode::InvalidStoredResult)),
            ("Groundedness", Error, Some(ErrorCode::EvaluatorError)),
            ("Fluency", Pass, None),
            ("professional_tone", Pass, None),
            ("Citations", Error, Some(ErrorCode::InvalidStoredResult)),
        ]
    );
    let message = |at: usize| first.results[at].error.as_ref().unwrap().message.clone();
    assert!(
        message(1).starts_with(
            "at /individual_results/0/results/relevance_score: expected an evaluator's output object as JSON text (line 1, column"
        ),
        "{}",
        message(1)
    );
    assert_eq!(
        message(2),
        "at /individual_results/0/results/coherence_score: expected `result` or `coherence_result`, \"pass\" or \"fail\", got \"maybe\""
    );
    assert_eq!(message(3), "Judge call failed: 429 Too Many Requests");
    assert_eq!(
        message(6),
        "at /individual_results/0/results/citations_score: expected an evaluator's output object, or its JSON text, got an integer (3)"
    );
    let fluency = &first.results[4];
    assert_eq!(
        (fluency.score, fluency.threshold, &fluency.reason),
        (None, None, &None)
    );
    let kept: Vec<&str> = fluency.details.iter().map(|(key, _)| key).collect();
    assert_eq!(
        kept,
        ["fluency", "threshold", "reason"],
        "what could not be mapped"
    );
    let tone = &first.results[5];
    assert_eq!((tone.score, tone.threshold), (Some(0.9), Some(0.5)));
    let problems: Vec<Option<&str>> = report.items[1..]
        .iter()
        .map(|entry| {
            assert_eq!(entry.status, Some(ItemStatus::Error));
            entry.problem.as_deref()
        })
        .collect();
    assert_eq!(
        problems,
        [
            Some("at /individual_results/1: expected a result object, got \"not an object\""),
            Some("at /individual_results/2/results: expected an object of `<evaluator>_score` results, got an array"),
            Some("at /individual_results/3/results: expected an object of `<evaluator>_score` results, it has none"),
        ]
    );
}

#[test]
fn unscored_examples_are_refused_as_not_scored() {
    let root = documents::root();
    for path in [
        "examples/m365-demo.json",
        "examples/foundry-demo.jsonl",
        "tests/fixtures/m365-copilot-eval/samples/starter.json",
    ] {
        let bytes = std::fs::read(root.join(path)).unwrap();
        match read_report(&bytes) {
            Err(ReadError::NotScored(diagnostic)) => {
                assert!(
                    diagnostic
                        .message
                        .starts_with("the dataset carries no scores"),
                    "{path}: {diagnostic}"
                );
            }
            other => panic!("{path}: {other:?}"),
        }
    }
}

#[test]
fn scored_fixture_reports_snapshot() {
    for name in [
        "m365-scored.json",
        "runevals-judged.json",
        "runevals-partial-match.json",
        "runevals-malformed.json",
    ] {
        let mut report = read_fixture(name);
        report.tool.version = "test";
        insta::assert_snapshot!(name, report::to_json(&report));
    }
}

#[test]
fn runevals_results_give_the_document_that_scores_them_again() {
    let results =
        agenteval_core::json::parse(fixture("runevals-partial-match.json").as_bytes()).unwrap();
    let stored = read_fixture("runevals-partial-match.json");
    let document =
        agenteval_core::scored::read::runevals::rescore_document(&results, "results.json").unwrap();
    assert_eq!(document["metadata"]["name"], "results.json, scored again");
    let loaded = dataset::load(document.to_string().as_bytes(), None).unwrap();
    let Dataset::M365(read) = &loaded.dataset else {
        panic!("not an M365 document");
    };
    assert_eq!(read.items().len(), stored.items.len());
    for ((item, entry), outcome) in read
        .items()
        .iter()
        .zip(results["individual_results"].as_array().unwrap())
        .zip(&stored.items)
    {
        assert_eq!(item["prompt"], entry["prompt"]);
        assert_eq!(
            item.get("response"),
            entry.get("response").filter(|value| value.is_string())
        );
        assert_eq!(item["evaluators_mode"], "replace");
        let evaluators: Vec<(&str, Option<f64>)> = item["evaluators"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(name, options)| {
                (
                    name.as_str(),
                    options.get("threshold").and_then(Value::as_f64),
                )
            })
            .collect();
        let expected: Vec<(&str, Option<f64>)> = outcome
            .results
            .iter()
            .map(|result| (result.evaluator.as_str(), result.threshold))
            .collect();
        assert_eq!(evaluators, expected);
    }
    let rescored = engine::score(&loaded.dataset);
    assert_eq!(rescored.items.len(), stored.items.len());
    assert!(agenteval_core::scored::read::runevals::rescore_document(
        &agenteval_core::json!({"items": []}),
        "x"
    )
    .is_none());
}
