//! End-to-end tests of the `agenteval` binary: exit codes, stdin, diagnostics, formats, streaming.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

use support::{agenteval, root, with_stdin};

use agenteval_core::{dataset, engine, report};
use serde_json::Value;

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn scores_the_m365_example_into_a_document() {
    let output = agenteval(&["score", "examples/m365-demo.json"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "the demo has failing items: {}",
        stderr(&output)
    );
    let document: Value =
        serde_json::from_slice(&output.stdout).expect("stdout is the scored document");
    assert_eq!(document["schemaVersion"], "1.11.0");
    assert!(document["metadata"]["evaluatedAt"].is_string());
    let first = &document["items"][0];
    assert_eq!(first["scores"]["partialMatch"]["result"], "pass");
    assert_eq!(first["scores"]["citations"]["count"], 1);
    assert_eq!(first["status"], "pass");
    assert_eq!(document["items"][1]["status"], "fail");
    assert_eq!(document["items"][2]["scores"]["exactMatch"]["match"], true);
    assert_eq!(document["items"][4]["status"], "error");
    let thread = &document["items"][5];
    assert_eq!(thread["summary"]["turns_total"], 2);
    let summary = stderr(&output);
    assert!(
        summary.contains("PartialMatch"),
        "summary table on stderr: {summary}"
    );
    assert!(
        summary.contains("items: 7"),
        "summary table on stderr: {summary}"
    );
}

#[test]
fn reads_stdin_and_writes_the_run_report() {
    let dataset = std::fs::read(root().join("examples/m365-demo.json")).expect("example exists");
    let output = with_stdin(&["score", "-", "--format", "report"], &dataset);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).expect("stdout is the report");
    assert_eq!(report["tool"]["name"], "agenteval");
    assert_eq!(report["dialect"], "m365");
    assert_eq!(report["summary"]["items"], 7);
    assert_eq!(report["items"][0]["turn"], Value::Null);
    assert_eq!(report["items"][5]["turn"], 0);
}

/// A documented deviation: integers outside the 64-bit range are read as the nearest float (the
/// Python references keep them exact), so the scored document writes them in float notation.
/// Every 64-bit integer is kept digit for digit.
#[test]
fn integers_beyond_64_bits_come_back_as_floats() {
    let dataset = br#"{"schemaVersion": "1.11.0", "default_evaluators": {"ExactMatch": {}},
        "items": [{"prompt": "p", "expected_response": "r", "response": "r",
                   "extensions": {"big": 1180591620717411303424, "max": 18446744073709551615,
                                  "min": -9223372036854775808}}]}"#;
    let output = with_stdin(&["score", "-"], dataset);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8(output.stdout).expect("the document is UTF-8");
    assert!(text.contains(r#""big": 1.1805916207174113e+21"#), "{text}");
    assert!(text.contains(r#""max": 18446744073709551615"#), "{text}");
    assert!(text.contains(r#""min": -9223372036854775808"#), "{text}");
}

/// A document that the item-by-item reader leaves to the exact path (here for an escaped key) is
/// read whole and scored into the same document as its plain twin.
#[test]
fn a_document_with_an_escaped_key_scores_like_its_plain_twin() {
    let plain = r#"{"schemaVersion": "1.11.0", "default_evaluators": {"ExactMatch": {}},
        "items": [{"prompt": "p", "expected_response": "r", "response": "r"},
                  {"prompt": "q", "expected_response": "s", "response": "t"}]}"#;
    let escaped = plain.replacen(r#""prompt": "q""#, r#""\u0070rompt": "q""#, 1);
    assert_ne!(escaped, plain);
    let scored = |dataset: &str| {
        let output = with_stdin(&["score", "-"], dataset.as_bytes());
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let text = String::from_utf8(output.stdout).expect("the document is UTF-8");
        text.lines()
            .filter(|line| !line.contains("\"evaluatedAt\""))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let document = scored(plain);
    assert!(document.contains(r#""prompt": "q""#), "{document}");
    assert_eq!(scored(&escaped), document);
}

#[test]
fn all_passing_dataset_exits_zero() {
    let dataset = br#"{"schemaVersion": "1.6.0", "default_evaluators": {"ExactMatch": {}},
        "items": [{"prompt": "code?", "expected_response": "PAY-42", "response": "pay-42"}]}"#;
    let output = with_stdin(&["score", "-", "--format", "md"], dataset);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn malformed_json_names_file_line_and_column() {
    let output = with_stdin(
        &["score", "-"],
        b"{\n  \"schemaVersion\": \"1.6.0\",\n  \"items\": [,]\n}",
    );
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("<stdin>:3:"),
        "location missing: {message}"
    );
}

#[test]
fn invalid_document_names_the_json_pointer() {
    let output = agenteval(&[
        "validate",
        "tests/fixtures/m365-copilot-eval/schema/v1/examples/invalid/empty-items.json",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("empty-items.json"), "{message}");
    assert!(message.contains("/items"), "{message}");
}

#[test]
fn validate_accepts_a_valid_document() {
    let output = agenteval(&["validate", "examples/m365-demo.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(agenteval(&["score"]).status.code(), Some(2));
    assert_eq!(agenteval(&["frobnicate"]).status.code(), Some(2));
    let missing = agenteval(&["score", "no-such-file.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("no-such-file.json"));
    let wrong_format = agenteval(&["score", "examples/m365-demo.json", "--format", "foundry"]);
    assert_eq!(wrong_format.status.code(), Some(2));
}

#[test]
fn writes_every_format_to_a_file() {
    let dir = std::env::temp_dir().join(format!("agenteval-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (format, marker) in [
        ("csv", "index,turn,status"),
        ("junit", "<testsuite"),
        ("md", "|"),
        ("html", "<!DOCTYPE html>"),
        ("report", "\"summary\""),
    ] {
        let out = dir.join(format!("out.{format}"));
        let output = agenteval(&[
            "score",
            "examples/m365-demo.json",
            "--format",
            format,
            "--out",
            out.to_str().expect("utf-8 path"),
        ]);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{format}: {}",
            stderr(&output)
        );
        let text = std::fs::read_to_string(&out).expect("output written");
        assert!(text.contains(marker), "{format} output lacks {marker:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A current-form document is scored item by item in the report formats too, and each format
/// comes out as the core renders the report of the document read whole.
#[test]
fn report_formats_of_a_document_are_the_whole_documents_report() {
    let path = "examples/m365-demo.json";
    let bytes = std::fs::read(root().join(path)).expect("example exists");
    let whole = engine::score(&dataset::load(&bytes, None).expect("example loads").dataset);
    for (format, expected) in [
        ("csv", report::csv::write(&whole)),
        ("junit", report::junit::write(&whole, path)),
        ("md", report::markdown::write(&whole)),
        ("html", report::html::write(&whole, path)),
        ("report", report::to_json(&whole) + "\n"),
    ] {
        let output = agenteval(&["score", path, "--format", format]);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{format}: {}",
            stderr(&output)
        );
        assert_eq!(
            String::from_utf8(output.stdout).expect("UTF-8 output"),
            expected,
            "{format}"
        );
    }
}

#[test]
fn foundry_jsonl_scores_rows_with_flat_keys() {
    let output = agenteval(&[
        "score",
        "examples/foundry-demo.jsonl",
        "--config",
        "examples/foundry-config.json",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let rows: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is a JSON row"))
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2]["f1_result"], "pass");
    assert_eq!(rows[2]["f1"], 1.0);
    assert_eq!(rows[0]["query"], "What is the capital of France?");
}

#[test]
fn bad_jsonl_row_is_reported_and_the_others_are_scored() {
    let config =
        std::fs::read_to_string(root().join("examples/foundry-config.json")).expect("config");
    let config: Value = serde_json::from_str(&config).expect("config is JSON");
    let input = format!(
        "{}\n{}\n{{\"response\": oops}}\n{}\n",
        config,
        r#"{"response": "a b c", "ground_truth": "a b c"}"#,
        r#"{"response": "x", "ground_truth": "y"}"#
    );
    let output = with_stdin(&["score", "-"], input.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("<stdin>:3:"),
        "line of the bad row: {message}"
    );
    let rows: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is a JSON row"))
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["f1_result"], "pass");
    assert_eq!(rows[2]["f1_result"], "fail");
}

/// The first of two scored items is an error for `problem`, and ExactMatch passes the second.
fn assert_first_is_an_error_and_second_passes(items: &[Value], problem: &str) {
    assert_eq!(items[0]["status"], "error");
    assert_eq!(
        items[0]["error"]["message"],
        format!("Item could not be evaluated: {problem}")
    );
    assert_eq!(items[1]["status"], "pass");
    assert_eq!(items[1]["scores"]["exactMatch"]["result"], "pass");
}

#[test]
fn an_item_with_a_string_past_the_limit_is_an_error_and_kept_whole() {
    let huge = "x".repeat(2 << 20);
    let input = format!(
        r#"{{"schemaVersion": "1.6.0", "items": [{{"prompt": "p", "response": "{huge}", "expected_response": "a", "evaluators": {{"ExactMatch": {{}}}}}}, {{"prompt": "q", "response": "a", "expected_response": "a", "evaluators": {{"ExactMatch": {{}}}}}}]}}"#
    );
    let output = with_stdin(&["score", "-"], input.as_bytes());
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let problem =
        "/items/0/response: string is 2097152 bytes long; the limit is 1048576 bytes (1 MiB)";
    assert!(stderr(&output).contains(problem), "{}", stderr(&output));
    let scored: Value = serde_json::from_slice(&output.stdout).expect("a scored document");
    let items = scored["items"].as_array().expect("items");
    assert_eq!(
        items[0]["response"].as_str().map(str::len),
        Some(huge.len())
    );
    assert_first_is_an_error_and_second_passes(items, problem);
}

#[test]
fn an_item_with_a_repeated_key_is_an_error_and_written_with_the_key_once() {
    let input = br#"{"schemaVersion": "1.6.0", "items": [
        {"prompt": "p", "response": "b", "expected_response": "a", "response": "a", "evaluators": {"ExactMatch": {}}},
        {"prompt": "q", "response": "a", "expected_response": "a", "evaluators": {"ExactMatch": {}}}
    ]}"#;
    let output = with_stdin(&["score", "-"], input);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let problem = "/items/0/response: key \"response\" is held more than once in its object; \
                   expected each key once";
    assert!(stderr(&output).contains(problem), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.matches("\"response\":").count(), 2, "{text}");
    let scored: Value = serde_json::from_str(&text).expect("a scored document");
    let items = scored["items"].as_array().expect("items");
    assert_eq!(items[0]["response"], "a");
    assert_first_is_an_error_and_second_passes(items, problem);
}

/// Each row's output appears before the next row is even written: the CLI streams JSONL.
#[test]
fn jsonl_is_streamed_row_by_row() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args(["score", "-", "--config", "examples/foundry-config.json"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("agenteval starts");
    let mut stdin = child.stdin.take().expect("stdin piped");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout piped"));
    let row = r#"{"query": "q", "response": "same words", "ground_truth": "same words"}"#;
    stdin
        .write_all(format!("{row}\n{row}\n").as_bytes())
        .expect("write two rows");
    stdin.flush().expect("flush");
    let mut first = String::new();
    stdout
        .read_line(&mut first)
        .expect("first result arrives while stdin is still open");
    let first: Value = serde_json::from_str(&first).expect("a JSON row");
    assert_eq!(first["f1_result"], "pass");
    stdin
        .write_all(format!("{row}\n").as_bytes())
        .expect("write a third row");
    drop(stdin);
    let rest: Vec<String> = stdout.lines().map(|line| line.expect("line")).collect();
    assert_eq!(rest.len(), 2);
    assert_eq!(child.wait().expect("exit").code(), Some(0));
}

#[test]
fn a_one_row_foundry_file_with_a_config_scores_as_rows_in_every_path() {
    let dir = std::env::temp_dir().join(format!("agenteval-one-row-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let row = r#"{"answer": "Paris is the capital", "truth": "Paris"}"#;
    let rows = dir.join("one.jsonl");
    std::fs::write(&rows, format!("{row}\n")).expect("rows written");
    let config = dir.join("config.json");
    std::fs::write(
        &config,
        r#"{"testing_criteria": [{"type": "azure_ai_evaluator", "name": "f1", "evaluator_name": "builtin.f1_score",
            "data_mapping": {"response": "{{item.answer}}", "ground_truth": "{{item.truth}}"}}]}"#,
    )
    .expect("config written");
    let (rows, config) = (rows.to_string_lossy(), config.to_string_lossy());
    let streamed = agenteval(&["score", &rows, "--config", &config]);
    assert_eq!(streamed.status.code(), Some(0), "{}", stderr(&streamed));
    let scored: Value = serde_json::from_slice(&streamed.stdout).expect("a Foundry row");
    assert_eq!(
        (scored["f1_score"].as_f64(), &scored["f1_result"]),
        (Some(0.5), &Value::from("pass"))
    );
    let report = agenteval(&["score", &rows, "--config", &config, "--format", "report"]);
    let report: Value = serde_json::from_slice(&report.stdout).expect("a run report");
    assert_eq!(report["dialect"], "foundry");
    assert_eq!(report["items"].as_array().map(Vec::len), Some(1));
    let validated = agenteval(&["validate", &rows, "--config", &config]);
    assert_eq!(validated.status.code(), Some(0), "{}", stderr(&validated));
    assert!(stderr(&validated).contains("valid foundry dataset with 1 item(s)"));
    let piped = with_stdin(&["score", "-", "--config", &config], row.as_bytes());
    assert_eq!(piped.status.code(), Some(0), "{}", stderr(&piped));
    let document = agenteval(&["score", &rows, "--config", &config, "--format", "document"]);
    assert_eq!(document.status.code(), Some(2));
    assert!(stderr(&document).contains(
        "--format document does not apply to foundry input; use foundry, foundry-results, report"
    ));
}
