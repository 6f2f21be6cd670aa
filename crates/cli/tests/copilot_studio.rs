//! The `agenteval` binary on Copilot Studio CSV: the export written back with our verdicts (the
//! default format), read back to the same verdicts, every report format, stdin, and bad rows
//! reported by row and column without losing the others.

mod support;

use std::process::{Command, Output};

use support::root;

use serde_json::Value;

fn agenteval(args: &[&str], stdin: Option<&[u8]>) -> Output {
    support::with_stdin(args, stdin.unwrap_or_default())
}

const EXPORT: &str = "tests/fixtures/copilot-studio/export.csv";
const BAD: &str = "tests/fixtures/copilot-studio/bad.csv";

fn report(args: &[&str], stdin: Option<&[u8]>) -> Value {
    let output = agenteval(args, stdin);
    serde_json::from_slice(&output.stdout).expect("the report is JSON")
}

/// Each entry's `(status, [(evaluator, result)])`.
fn verdicts(report: &Value) -> Vec<(Value, Vec<(Value, Value)>)> {
    report["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| {
            let results = item["results"]
                .as_array()
                .expect("results")
                .iter()
                .map(|result| (result["evaluator"].clone(), result["result"].clone()))
                .collect();
            (item["status"].clone(), results)
        })
        .collect()
}

#[test]
fn the_export_is_written_back_by_default_and_reads_back_to_the_same_verdicts() {
    let scored = agenteval(&["score", EXPORT], None);
    assert_eq!(scored.status.code(), Some(1), "the set has failing rows");
    let expected = std::fs::read_to_string(
        root().join("crates/core/src/dataset/copilot_studio/snapshots/agenteval_core__dataset__copilot_studio__tests__export_scored.snap"),
    )
    .expect("the core's snapshot");
    let body = expected.splitn(3, "---\n").nth(2).expect("snapshot body");
    let written = String::from_utf8(scored.stdout.clone()).expect("UTF-8");
    assert_eq!(
        written.replace("\r\n", "\n").trim_end(),
        body.replace("\r\n", "\n").trim_end()
    );
    assert!(written.ends_with("\r\n"));

    let first = report(&["score", EXPORT, "--format", "report"], None);
    assert_eq!(first["dialect"], "copilot_studio");
    let again = report(&["score", "-", "--format", "report"], Some(&scored.stdout));
    assert_eq!(verdicts(&first), verdicts(&again));
    let rewritten = agenteval(&["score", "-", "--format", "copilot"], Some(&scored.stdout));
    assert_eq!(rewritten.stdout, scored.stdout, "byte-stable");
}

#[test]
fn every_report_format_takes_the_dialect() {
    for format in ["csv", "junit", "md", "html"] {
        let output = agenteval(&["score", EXPORT, "--format", format], None);
        assert_eq!(output.status.code(), Some(1), "{format}");
        assert!(!output.stdout.is_empty(), "{format}");
    }
    let output = agenteval(&["score", EXPORT, "--format", "document"], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("--format document does not apply to copilot_studio input; use copilot, report"));
}

#[test]
fn bad_rows_name_row_and_column_and_the_others_are_scored() {
    let output = agenteval(&["score", BAD, "--format", "report"], None);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.csv:3:8: error: row 3, column 2 (expectedResponse): the quoted field that starts here has text after its closing quote"), "{stderr}");
    assert!(stderr.contains("bad.csv:5:1: error: row 5, column 3 (actualResponse): missing"));
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let statuses: Vec<&str> = report["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["status"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        statuses,
        ["pass", "error", "pass", "error", "error", "error", "error", "pass"]
    );
    let validate = agenteval(&["validate", BAD], None);
    assert_eq!(validate.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&validate.stderr)
        .contains("5 error(s) in 8 item(s) (copilot_studio)"));
}

#[test]
fn a_header_without_question_is_rejected_naming_it() {
    let output = agenteval(
        &["score", "-"],
        Some(b"\xEF\xBB\xBFquestion,result_1\r\nq,Pass\r\n"),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("header row, column 2 (result_1): there is no testMethodType_1 column"));
}

#[test]
fn with_the_local_judge_the_deterministic_methods_are_scored_and_the_judged_ones_skipped() {
    let judge = agenteval_judge_server::start(agenteval_judge_server::ServerConfig {
        key: Some("sk-test-key-copilot".into()),
        ..agenteval_judge_server::ServerConfig::default()
    })
    .expect("the local judge starts");
    let cache = std::env::temp_dir().join(format!("agenteval-copilot-{}", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args(["score", EXPORT, "--format", "report", "--no-judge-cache"])
        .current_dir(root())
        .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env("AZURE_AI_API_KEY", "sk-test-key-copilot")
        .env("AZURE_AI_API_VERSION", "2024-10-21")
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .expect("agenteval runs");
    let judged: Value = serde_json::from_slice(&output.stdout).expect("the report is JSON");
    let plain = report(&["score", EXPORT, "--format", "report"], None);
    let results = |report: &Value| -> Vec<(Value, Value, Value)> {
        report["items"]
            .as_array()
            .expect("items")
            .iter()
            .flat_map(|item| item["results"].as_array().cloned().unwrap_or_default())
            .map(|result| {
                (
                    result["evaluator"].clone(),
                    result["result"].clone(),
                    result["score"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(results(&judged), results(&plain), "the same verdicts");
    let general_quality = &judged["items"][2]["results"][1];
    assert_eq!(general_quality["evaluator"], "GeneralQuality");
    assert_eq!(general_quality["result"], "skipped");
    assert!(general_quality["reason"]
        .as_str()
        .is_some_and(|reason| reason.contains("not available yet")));
    let _ = std::fs::remove_dir_all(cache);
}
