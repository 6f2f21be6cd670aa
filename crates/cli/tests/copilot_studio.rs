//! The `agenteval` binary on Copilot Studio CSV: the export written back with our verdicts (the
//! default format), read back to the same verdicts, every report format, stdin, and bad rows
//! reported by row and column without losing the others.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::process::{Command, Output};

use support::root;

use serde_json::{json, Value};

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
        root().join("crates/core/tests/snapshots/copilot_studio__export_scored.snap"),
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
fn with_the_local_judge_the_deterministic_methods_score_as_without_and_text_similarity_needs_an_embeddings_model(
) {
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
    let model_judged = |report: &Value| -> Vec<(Value, Value, Value)> {
        results(report)
            .into_iter()
            .filter(|(evaluator, _, _)| {
                !["GeneralQuality", "CompareMeaning", "TextSimilarity"]
                    .contains(&evaluator.as_str().unwrap_or_default())
            })
            .collect()
    };
    assert_eq!(
        model_judged(&judged),
        model_judged(&plain),
        "the same verdicts"
    );
    let general_quality = &judged["items"][2]["results"][1];
    assert_eq!(general_quality["evaluator"], "GeneralQuality");
    assert_ne!(general_quality["result"], "skipped");
    let text_similarity = &judged["items"][3]["results"][1];
    assert_eq!(text_similarity["evaluator"], "TextSimilarity");
    assert_eq!(
        text_similarity["error"]["code"], "evaluatorConfigurationError",
        "{text_similarity}"
    );
    assert!(text_similarity["error"]["message"]
        .as_str()
        .is_some_and(|message| message.contains("--judge-embedding-model")));
    let _ = std::fs::remove_dir_all(cache);
}

const JUDGED: &str = "tests/fixtures/copilot-studio/judged.csv";

/// `agenteval score JUDGED --format FORMAT` against the local judge.
fn judged(format: &str) -> Output {
    let judge = agenteval_judge_server::start(agenteval_judge_server::ServerConfig::default())
        .expect("the local judge starts");
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args(["score", JUDGED, "--format", format, "--no-judge-cache"])
        .current_dir(root())
        .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env("AZURE_AI_API_KEY", "sk-test-key-copilot")
        .env("AZURE_AI_API_VERSION", "2024-10-21")
        .output()
        .expect("agenteval runs");
    judge.stop();
    output
}

#[test]
fn with_the_local_judge_general_quality_and_compare_meaning_are_judged() {
    let output = judged("report");
    let report: Value = serde_json::from_slice(&output.stdout).expect("the report is JSON");
    let result = |item: usize, position: usize| report["items"][item]["results"][position].clone();
    let general = result(0, 0);
    assert_eq!(general["evaluator"], "GeneralQuality");
    assert_eq!(general["result"], "fail");
    assert_eq!(general["score"], 50.0);
    assert_eq!(
        general["reason"],
        "Seems relevant; Seems incomplete; Knowledge sources not cited; Answered the question"
    );
    assert_eq!(
        general["details"]["prompt_version"],
        "copilot_general_quality/v1"
    );
    let all = result(1, 0);
    assert_eq!(
        (&all["result"], &all["score"]),
        (&"pass".into(), &100.0.into())
    );
    assert_eq!(result(1, 1)["evaluator"], "ExactMatch");
    let below = result(2, 0);
    assert_eq!(below["evaluator"], "CompareMeaning");
    assert_eq!(
        (&below["result"], &below["score"]),
        (&"fail".into(), &65.0.into())
    );
    assert_eq!(below["threshold"], 70.0);
    assert_eq!(
        below["details"]["prompt_version"],
        "copilot_compare_meaning/v1"
    );
    let default = result(3, 0);
    assert_eq!(
        (&default["result"], &default["threshold"]),
        (&"pass".into(), &50.0.into())
    );
    for (item, code) in [
        (4, "judgeOutputUnparseable"),
        (5, "judgeAuthenticationError"),
        (6, "emptyAgentResponse"),
    ] {
        let failed = result(item, 0);
        assert_eq!(failed["result"], "error", "item {item}");
        assert_eq!(failed["error"]["code"], code, "item {item}");
        assert!(failed["score"].is_null(), "item {item}");
    }
    assert_eq!(
        report["judge"]["calls"], 6,
        "one call per judged method with a response"
    );
}

#[test]
fn the_judged_verdicts_are_written_back_to_the_export() {
    let output = judged("copilot");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let mut lines = text.lines();
    assert_eq!(
        lines
            .next()
            .map(|header| header.trim_start_matches('\u{feff}')),
        Some(
            "question,expectedResponse,actualResponse,testMethodType_1,result_1,passingScore_1,\
             explanation_1,score_1,testMethodType_2,result_2,passingScore_2,explanation_2,score_2"
        )
    );
    let rows: Vec<&str> = lines.collect();
    assert!(
        rows[0].ends_with(
            ",GeneralQuality,Fail,,Seems relevant; Seems incomplete; Knowledge sources not cited; \
         Answered the question,50,,,,,"
        ),
        "{}",
        rows[0]
    );
    assert!(rows[1].contains(",GeneralQuality,Pass,,Seems relevant; Seems complete; Knowledge sources cited; Answered the question,100,ExactMatch,Fail,"), "{}", rows[1]);
    assert!(
        rows[2].contains(",CompareMeaning,Fail,70,meaning matched 65 of 100 (passes at 70): close but it misses the reset link,65,"),
        "{}",
        rows[2]
    );
    assert!(rows[2].ends_with(",65,,,,,"), "{}", rows[2]);
    assert!(
        rows[3].contains(
            ",CompareMeaning,Pass,,meaning matched 50 of 100 (passes at 50): the same place,50,"
        ),
        "{}",
        rows[3]
    );
    assert!(rows[5].contains(",CompareMeaning,Error,,"), "{}", rows[5]);
}

#[test]
fn text_similarity_is_the_cosine_of_the_endpoints_embeddings() {
    let judge = agenteval_judge_server::start(agenteval_judge_server::ServerConfig::default())
        .expect("the local judge starts");
    let run = |format: &str| {
        Command::new(env!("CARGO_BIN_EXE_agenteval"))
            .args([
                "score",
                "tests/fixtures/copilot-studio/similarity.csv",
                "--format",
                format,
                "--no-judge-cache",
                "--judge-embedding-model",
                "text-embedding-3-small",
            ])
            .current_dir(root())
            .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
            .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
            .env_remove("AZURE_AI_API_KEY")
            .output()
            .expect("agenteval runs")
    };
    let output = run("report");
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    let result = |item: usize| report["items"][item]["results"][0].clone();
    let same = result(0);
    assert_eq!(
        (&same["result"], &same["threshold"]),
        (&json!("pass"), &json!(0.9)),
        "{same}"
    );
    assert!(
        (same["score"].as_f64().unwrap_or(0.0) - 1.0).abs() < 1e-9,
        "{same}"
    );
    assert_eq!(same["details"]["prompt_version"], "embeddings/v1");
    let unrelated = result(1);
    assert_eq!(unrelated["result"], "fail", "{unrelated}");
    assert!(unrelated["score"].as_f64().unwrap_or(1.0) < 0.7);
    assert!(unrelated["reason"]
        .as_str()
        .unwrap_or("")
        .starts_with("cosine similarity of the embeddings 0."));
    assert_eq!(result(2)["error"]["code"], "evaluatorConfigurationError");
    assert!(result(2)["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("from 0 to 1"));
    assert_eq!(result(3)["error"]["code"], "evaluatorConfigurationError");
    let near = result(4);
    assert_eq!(
        (&near["result"], &near["threshold"]),
        (&json!("pass"), &json!(0.5)),
        "{near}"
    );
    let export = run("copilot");
    let written = String::from_utf8_lossy(&export.stdout);
    let lines: Vec<&str> = written.lines().collect();
    assert!(
        lines[0].contains("result_1") && lines[0].contains("score_1"),
        "{written}"
    );
    assert!(lines[1].contains(",TextSimilarity,Pass,0.9,"), "{written}");
    assert!(
        lines[2].contains(",TextSimilarity,Fail,0.7,cosine similarity of the embeddings 0."),
        "{written}"
    );
}

#[test]
fn general_quality_and_compare_meaning_named_in_an_m365_document_use_the_same_prompts() {
    let judge = agenteval_judge_server::start(agenteval_judge_server::ServerConfig::default())
        .expect("the local judge starts");
    let dir = std::env::temp_dir().join(format!("agenteval-copilot-m365-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let all_hold = " [[judge:dimension=relevance:1]] [[judge:dimension=completeness:1]] [[judge:dimension=groundedness:1]] [[judge:dimension=answered:1]]";
    let document = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"GeneralQuality": {}, "CompareMeaning": {"threshold": 60}},
        "items": [
            {"prompt": "When does the store open?", "response": format!("At 9 am.{all_hold} [[judge:score=80]]"), "expected_response": "At 9 am"},
            {"prompt": "When does the store open?", "response": "Soon. [[judge:dimension=relevance:1]] [[judge:dimension=completeness:0]] [[judge:dimension=groundedness:0]] [[judge:dimension=answered:1]] [[judge:score=40]]", "expected_response": "At 9 am"},
            {"prompt": "Hi", "response": format!("Hello.{all_hold}")}
        ]
    });
    let file = dir.join("document.json");
    std::fs::write(&file, document.to_string()).expect("document written");
    let report = support::report_with_azure_judge(&file, &judge.url(), &[]);
    let result = |item: usize, evaluator: &str| support::found(&report, item, evaluator).clone();
    let general = result(0, "GeneralQuality");
    assert_eq!(
        (&general["result"], &general["score"]),
        (&json!("pass"), &json!(100.0)),
        "{general}"
    );
    assert_eq!(
        general["details"]["prompt_version"],
        "copilot_general_quality/v1"
    );
    let meaning = result(0, "CompareMeaning");
    assert_eq!(
        (&meaning["result"], &meaning["threshold"]),
        (&json!("pass"), &json!(60.0)),
        "{meaning}"
    );
    let weak = result(1, "GeneralQuality");
    assert_eq!(weak["result"], "fail");
    assert_eq!(
        weak["reason"],
        "Seems relevant; Seems incomplete; Knowledge sources not cited; Answered the question"
    );
    assert_eq!(result(1, "CompareMeaning")["result"], "fail");
    assert_eq!(
        result(2, "CompareMeaning")["error"]["code"],
        "evaluatorConfigurationError"
    );
    assert_eq!(judge.stats().completions, 5);
}
