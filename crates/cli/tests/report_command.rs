//! End-to-end tests of `agenteval report`: a scored document, or runevals results, written in the
//! report formats without scoring it again, with `score`'s summary table and exit codes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::process::Output;

use serde_json::Value;

const FORMATS: [&str; 5] = ["report", "csv", "junit", "md", "html"];

fn agenteval(args: &[&str], stdin: &[u8]) -> Output {
    support::with_stdin(args, stdin)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// Deterministic evaluators only (no skipped results, which a document cannot hold): a pass, a
/// fail, an item without a response (errored scores with their codes), an invalid item, a thread.
const DOCUMENT: &str = r#"{"schemaVersion": "1.11.0",
  "default_evaluators": {"PartialMatch": {}, "Citations": {"citation_format": "bracket"}},
  "items": [
    {"prompt": "Desks on floor 3?", "response": "There are 84 desks [1].", "expected_response": "There are 84 desks."},
    {"prompt": "Gym guests?", "response": "Any time.", "expected_response": "Twice a month, accompanied."},
    {"prompt": "Parcels?", "response": "", "expected_response": "The mail room."},
    {"prompt": 7},
    {"turns": [
      {"prompt": "A room for six?", "response": "Room 2C [2].", "expected_response": "Room 2C."},
      {"prompt": "Book it.", "response": "Booked [3].", "expected_response": "Room 2C is booked.",
       "evaluators": {"ExactMatch": {}}, "evaluators_mode": "replace"}
    ]}
  ]}"#;

#[test]
fn a_scored_document_is_written_in_every_format_as_the_run_that_scored_it_writes_it() {
    let scored = agenteval(&["score", "-"], DOCUMENT.as_bytes());
    assert_eq!(scored.status.code(), Some(1), "{}", stderr(&scored));
    let document: Value = serde_json::from_slice(&scored.stdout).expect("a scored document");
    assert_eq!(
        document["items"][2]["scores"]["partialMatch"]["code"],
        "emptyAgentResponse"
    );
    for format in FORMATS {
        let fresh = agenteval(&["score", "-", "--format", format], DOCUMENT.as_bytes());
        let reread = agenteval(&["report", "-", "--format", format], &scored.stdout);
        assert_eq!(
            reread.status.code(),
            Some(1),
            "{format}: {}",
            stderr(&reread)
        );
        assert_eq!(stdout(&reread), stdout(&fresh), "{format}");
        let table = |output: &Output| {
            let text = stderr(output);
            text.lines()
                .filter(|line| {
                    !line.starts_with("<stdin>: error: ") && !line.starts_with("<stdin>: warning: ")
                })
                .map(|line| format!("{line}\n"))
                .collect::<String>()
        };
        assert_eq!(
            stderr(&reread),
            table(&fresh),
            "{format}: the summary table, without the scoring's diagnostics"
        );
    }
    let default = agenteval(&["report", "-"], &scored.stdout);
    let report: Value = serde_json::from_slice(&default.stdout).expect("the run report JSON");
    assert_eq!(report["summary"]["items"], 6);
    assert_eq!(report["items"][3]["status"], "error");
}

#[test]
fn runevals_results_are_written_from_a_file_with_exit_code_one_for_their_failures() {
    let dir = std::env::temp_dir().join(format!("agenteval-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("report.md");
    let output = agenteval(
        &[
            "report",
            "tests/fixtures/scored/runevals-judged.json",
            "--format",
            "md",
            "--out",
            out.to_str().expect("a UTF-8 path"),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let markdown = std::fs::read_to_string(&out).expect("written");
    assert!(
        markdown.contains("| Groundedness | 1 | 2 | 0 | 0 | 33.3% |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("| ToolCallAccuracy | 0 | 0 | 0 | 1 |"),
        "{markdown}"
    );
    assert!(stderr(&output).contains("items: 4  pass: 1  fail: 2  partial: 0  error: 1"));
    let _ = std::fs::remove_dir_all(dir);

    let passing = r#"{"individual_results": [{"prompt": "p", "response": "r", "results": {
        "partial_match_score": "{\"partial_match\": 0.9, \"partial_match_result\": \"pass\", \"partial_match_threshold\": 0.5}"}}],
        "aggregate_statistics": {}}"#;
    let output = agenteval(&["report", "-", "--format", "csv"], passing.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("index,turn,status,problem,PartialMatch"));
}

#[test]
fn a_dataset_without_scores_or_a_wrong_format_is_a_usage_error() {
    let output = agenteval(&["report", "examples/m365-demo.json"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let message = stderr(&output);
    assert!(
        message.starts_with(
            "examples/m365-demo.json: error: at /items: the dataset carries no scores"
        ),
        "{message}"
    );
    assert!(message.contains("score the dataset instead"), "{message}");
    let rows = agenteval(&["report", "examples/foundry-demo.jsonl"], b"");
    assert_eq!(rows.status.code(), Some(2));
    assert!(stderr(&rows).contains("(it is JSON Lines (Foundry rows))"));
    let syntax = agenteval(&["report", "-"], b"{\"items\": [");
    assert_eq!(syntax.status.code(), Some(2));
    assert!(
        stderr(&syntax).starts_with("<stdin>:1:"),
        "{}",
        stderr(&syntax)
    );
    for format in ["document", "foundry"] {
        let output = agenteval(&["report", "-", "--format", format], DOCUMENT.as_bytes());
        assert_eq!(output.status.code(), Some(2), "{format}");
    }
}

/// Score, add a review to the scored document as a reviewer's tool would, and re-render it: the
/// review is kept in every format beside the evaluators' verdicts, and counted under the table.
#[test]
fn a_reviewed_document_keeps_its_review_in_every_format() {
    let scored = agenteval(&["score", "-"], DOCUMENT.as_bytes());
    let mut document: Value = serde_json::from_slice(&scored.stdout).expect("a scored document");
    assert_eq!(
        document["items"][1]["scores"]["partialMatch"]["result"],
        "fail"
    );
    document["items"][1]["extensions"] = serde_json::json!({"review": {
        "needs_review": false,
        "comment": "policy changed",
        "overrides": [{"evaluator": "PartialMatch", "verdict": "pass", "comment": "also correct", "reviewer": "ana"}]
    }});
    document["items"][4]["turns"][1]["extensions"] =
        serde_json::json!({"review": {"needs_review": true, "overrides": []}});
    let reviewed = serde_json::to_vec(&document).unwrap();
    let line = "review: 1 verdict overridden: evaluators and reviewer disagree on 1 of 1 reviewed; 1 entry needs review\n";
    for format in FORMATS {
        let output = agenteval(&["report", "-", "--format", format], &reviewed);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{format}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).ends_with(line),
            "{format}: {}",
            stderr(&output)
        );
        let text = stdout(&output);
        let kept = match format {
            "report" => {
                let report: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(report["items"][1]["results"][0]["result"], "fail");
                assert_eq!(
                    report["items"][1]["review"]["overrides"][0]["verdict"],
                    "pass"
                );
                assert_eq!(report["summary"]["review"]["overridden"], 1);
                assert_eq!(
                    report["summary"]["fail"], 2,
                    "the counts stay the evaluators'"
                );
                report["items"][5]["review"]["needs_review"] == true
            }
            "csv" => text.contains(",fail,") && text.contains(",pass,also correct,ana,"),
            "junit" => text.contains("<property name=\"review.verdict\" value=\"pass\"/>"),
            "md" => {
                text.contains("  - PartialMatch: fail, reviewer pass \\(ana\\)\\: also correct")
            }
            _ => {
                text.contains("<td class=\"fail\">fail</td>")
                    && text.contains("(ana): also correct")
            }
        };
        assert!(kept, "{format}: {text}");
    }
    let unreviewed = agenteval(&["report", "-", "--format", "md"], &scored.stdout);
    assert!(!stderr(&unreviewed).contains("review:"));
}

#[test]
fn a_review_that_cannot_be_read_is_a_located_warning_and_the_entries_are_kept() {
    let scored = agenteval(&["score", "-"], DOCUMENT.as_bytes());
    let mut document: Value = serde_json::from_slice(&scored.stdout).unwrap();
    document["items"][0]["extensions"] = serde_json::json!({"review": {"overrides": [
        {"evaluator": "PartialMatch", "verdict": "maybe", "comment": "?"}]}});
    let output = agenteval(&["report", "-"], &serde_json::to_vec(&document).unwrap());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).starts_with("<stdin>: warning: at /items/0/extensions/review/overrides/0/verdict: expected \"pass\" or \"fail\", got \"maybe\"\n"),
        "{}",
        stderr(&output)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["items"].as_array().unwrap().len(), 6);
    assert_eq!(report["items"][0]["review"]["needs_review"], true);
}
