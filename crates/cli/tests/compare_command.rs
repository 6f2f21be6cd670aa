//! End-to-end tests of `agenteval compare`: two datasets scored by `agenteval score`, compared,
//! with the exit codes of the gate (1 when a metric meets `--fail-on`, 0 otherwise, 2 on bad
//! input) and the output formats.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use support::agenteval;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A dataset of `count` questions scored with PartialMatch; the first `wrong` answers are wrong.
fn dataset(count: usize, wrong: usize, first_prompt: Option<&str>) -> String {
    let mut items: Vec<String> = (0..count)
        .map(|i| {
            let response = if i < wrong {
                "I do not know.".to_owned()
            } else {
                format!("The answer to question {i} is {i} apples.")
            };
            format!(
                r#"{{"prompt": "Question {i}?", "response": "{response}", "expected_response": "The answer to question {i} is {i} apples."}}"#
            )
        })
        .collect();
    if let Some(prompt) = first_prompt {
        items.insert(
            0,
            format!(r#"{{"prompt": "{prompt}", "response": "x", "expected_response": "y"}}"#),
        );
    }
    format!(
        r#"{{"schemaVersion": "1.11.0", "default_evaluators": {{"PartialMatch": {{}}}}, "items": [{}]}}"#,
        items.join(",")
    )
}

/// Scores `text` with `agenteval score` and writes the scored document to a file named `name`
/// in a directory of this test's own.
fn scored(test: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agenteval-compare-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let output = support::with_stdin(&["score", "-"], text.as_bytes());
    assert!(output.status.code().unwrap() <= 1, "{}", stderr(&output));
    let path = dir.join(name);
    std::fs::write(&path, &output.stdout).unwrap();
    path
}

fn compare(baseline: &Path, candidate: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "compare",
        baseline.to_str().unwrap(),
        candidate.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    agenteval(&args)
}

#[test]
fn a_regression_fails_the_gate_and_an_unchanged_run_passes_it() {
    let baseline = scored("gate", "baseline.json", &dataset(40, 0, None));
    let worse = scored("gate", "worse.json", &dataset(40, 20, None));
    let output = compare(&baseline, &worse, &["--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let rate = &json["metrics"][0];
    assert_eq!(rate["evaluator"], "partialMatch");
    assert_eq!(rate["metric"], "pass_rate");
    assert_eq!(rate["effect"], "degraded");
    assert_eq!(rate["strength"], "strong");
    assert_eq!(rate["flips"]["pass_to_fail"], 20);
    assert!(
        stderr(&output).contains("degraded: partialMatch pass rate"),
        "{}",
        stderr(&output)
    );

    let never = compare(&baseline, &worse, &["--fail-on", "never"]);
    assert_eq!(never.status.code(), Some(0), "{}", stderr(&never));

    let same = compare(&baseline, &baseline, &[]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    let markdown = String::from_utf8(same.stdout).unwrap();
    assert!(markdown.starts_with("# Comparison: "), "{markdown}");
    assert!(
        markdown.contains("No metric differs significantly"),
        "{markdown}"
    );

    let better = compare(&worse, &baseline, &["--fail-on", "strongly-degraded"]);
    assert_eq!(better.status.code(), Some(0), "{}", stderr(&better));
}

#[test]
fn a_weak_regression_fails_only_the_default_gate() {
    let baseline = scored("weak", "baseline.json", &dataset(60, 0, None));
    let worse = scored("weak", "worse.json", &dataset(60, 6, None));
    let json_of = |output: &Output| serde_json::from_slice::<Value>(&output.stdout).unwrap();
    let default = compare(&baseline, &worse, &["--format", "json"]);
    assert_eq!(json_of(&default)["metrics"][0]["strength"], "weak");
    assert_eq!(default.status.code(), Some(1), "{}", stderr(&default));
    let strong_only = compare(&baseline, &worse, &["--fail-on", "strongly-degraded"]);
    assert_eq!(
        strong_only.status.code(),
        Some(0),
        "{}",
        stderr(&strong_only)
    );
}

#[test]
fn an_inserted_item_is_unmatched_and_nothing_else_changes() {
    let baseline = scored("insert", "baseline.json", &dataset(10, 3, None));
    let candidate = scored(
        "insert",
        "candidate.json",
        &dataset(10, 3, Some("A new question?")),
    );
    let output = compare(&baseline, &candidate, &["--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["pairing"]["key"], "prompt");
    assert_eq!(json["pairing"]["matched"], 10);
    assert_eq!(json["pairing"]["only_candidate"], 1);
    assert_eq!(json["pairing"]["unmatched"][0]["key"], "A new question?");
    assert!(json["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|item| item["changed"] == false));
}

#[test]
fn bad_input_exits_2_naming_the_file() {
    let baseline = scored("bad", "baseline.json", &dataset(3, 0, None));
    let dir = baseline.parent().unwrap().to_path_buf();
    let unscored = dir.join("unscored.json");
    std::fs::write(&unscored, dataset(3, 0, None)).unwrap();
    let output = compare(&baseline, &unscored, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unscored.json"),
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("carries no scores"),
        "{}",
        stderr(&output)
    );

    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"items\": [").unwrap();
    let output = compare(&broken, &baseline, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("broken.json:1:"),
        "{}",
        stderr(&output)
    );

    let missing = dir.join("missing.json");
    assert_eq!(compare(&baseline, &missing, &[]).status.code(), Some(2));

    let keyless = compare(&baseline, &baseline, &["--key", "ticket"]);
    assert_eq!(keyless.status.code(), Some(2));
    assert!(
        stderr(&keyless).contains("item 0 has no `ticket`"),
        "{}",
        stderr(&keyless)
    );

    let bad_direction = compare(&baseline, &baseline, &["--direction", "x=sideways"]);
    assert_eq!(bad_direction.status.code(), Some(2));
    assert_eq!(
        compare(&baseline, &baseline, &["--format", "xml"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(agenteval(&["compare", "-", "-"]).status.code(), Some(2));
}

#[test]
fn the_html_page_and_the_out_file_are_written() {
    let baseline = scored("html", "baseline.json", &dataset(12, 0, None));
    let worse = scored("html", "worse.json", &dataset(12, 12, None));
    let out = baseline.parent().unwrap().join("comparison.html");
    let output = compare(
        &baseline,
        &worse,
        &["--format", "html", "--out", out.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("class=\"degraded-strong\""), "{page}");
}

/// `agenteval compare` of two files of `tests/fixtures/compare/` (run from the repository root).
fn compare_fixtures(baseline: &str, candidate: &str, extra: &[&str]) -> Output {
    let fixture = |name: &str| format!("tests/fixtures/compare/{name}");
    let mut args = vec!["compare".to_owned(), fixture(baseline), fixture(candidate)];
    args.extend(extra.iter().map(|arg| (*arg).to_owned()));
    agenteval(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn json_of(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", stderr(output)))
}

#[test]
fn scored_foundry_rows_pair_by_their_id_column_and_gate_a_regression() {
    let output = compare_fixtures(
        "foundry-baseline.jsonl",
        "foundry-candidate.jsonl",
        &["--format", "json"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let json = json_of(&output);
    assert_eq!(json["baseline"]["dialect"], "foundry");
    assert_eq!(json["pairing"]["key"], "id");
    assert_eq!(json["pairing"]["matched"], 12);
    assert_eq!(json["pairing"]["only_candidate"], 1);
    assert_eq!(json["pairing"]["unmatched"][0]["key"], "case-new");
    assert_eq!(json["pairing"]["unmatched"][0]["index"], 3);
    let rate = &json["metrics"][0];
    assert_eq!(
        (&rate["evaluator"], &rate["metric"]),
        (&Value::from("f1"), &Value::from("pass_rate"))
    );
    assert_eq!(rate["flips"]["pass_to_fail"], 10);
    assert_eq!(rate["effect"], "degraded");
    assert_eq!(json["metrics"][1]["type"], "continuous");
    let changed: Vec<&str> = json["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["changed"] == true)
        .map(|item| item["key"].as_str().unwrap())
        .collect();
    assert_eq!(changed.len(), 10);
    assert!(!changed.contains(&"case-10") && !changed.contains(&"case-11"));
    assert!(stderr(&output).contains("degraded: f1 pass rate"));
}

#[test]
fn copilot_studio_exports_pair_by_question_a_repeated_one_in_order() {
    let output = compare_fixtures(
        "copilot-baseline.csv",
        "copilot-candidate.csv",
        &["--format", "json"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json = json_of(&output);
    assert_eq!(json["candidate"]["dialect"], "copilot_studio");
    assert_eq!(json["pairing"]["key"], "prompt");
    assert_eq!(json["pairing"]["matched"], 4);
    assert_eq!(json["pairing"]["unmatched"][0]["key"], "Opening hours?");
    let items: Vec<(String, bool, String)> = json["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            (
                item["key"].as_str().unwrap().to_owned(),
                item["changed"].as_bool().unwrap(),
                item["candidate"]["ExactMatch"]["result"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            )
        })
        .collect();
    let expected = [
        ("What is 2+2?", true, "fail"),
        ("Capital of France?", false, "pass"),
        ("Say yes", false, "pass"),
        ("Say yes", true, "pass"),
    ];
    assert_eq!(
        items,
        expected.map(|(key, changed, result)| (key.to_owned(), changed, result.to_owned()))
    );
    assert_eq!(json["metrics"][0]["flips"]["fail_to_pass"], 1);
    assert_eq!(json["metrics"][0]["flips"]["pass_to_fail"], 1);
}

#[test]
fn a_run_report_pairs_by_item_index_with_a_report_or_a_scored_document_of_its_dialect() {
    for candidate in ["m365-report.json", "m365-scored.json"] {
        let output = compare_fixtures("m365-report.json", candidate, &["--format", "json"]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let json = json_of(&output);
        assert_eq!(json["pairing"]["key"], "index", "{candidate}");
        assert_eq!(json["pairing"]["matched"], 6, "{candidate}");
        assert!(json["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|item| item["changed"] == false));
        let evaluators: Vec<&str> = json["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|metric| metric["evaluator"].as_str().unwrap())
            .collect();
        assert!(evaluators.contains(&"partialMatch"), "{evaluators:?}");
    }
    let markdown = compare_fixtures("m365-report.json", "m365-report.json", &[]);
    assert!(String::from_utf8_lossy(&markdown.stdout)
        .contains("Paired by item index (a run report carries neither ids nor prompts)"));
}

#[test]
fn runs_of_different_dialects_exit_2_naming_both_files_and_dialects() {
    for (baseline, candidate, message) in [
        (
            "m365-scored.json",
            "foundry-candidate.jsonl",
            "compare/m365-scored.json is m365 (scored M365 document) and \
             tests/fixtures/compare/foundry-candidate.jsonl is foundry (scored Foundry rows): \
             the dialects differ",
        ),
        (
            "copilot-baseline.csv",
            "m365-report.json",
            "compare/copilot-baseline.csv is copilot_studio (Copilot Studio results export) \
             and tests/fixtures/compare/m365-report.json is m365 (agenteval run report): the \
             dialects differ",
        ),
    ] {
        let output = compare_fixtures(baseline, candidate, &[]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains(message), "{}", stderr(&output));
    }
}

#[test]
fn an_unscored_foundry_or_copilot_studio_input_exits_2_saying_it_carries_no_scores() {
    for unscored in ["foundry-baseline.input.jsonl", "copilot-baseline.input.csv"] {
        let output = compare_fixtures("foundry-baseline.jsonl", unscored, &[]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let message = stderr(&output);
        assert!(message.contains(unscored), "{message}");
        assert!(message.contains("carries no scores"), "{message}");
    }
}
