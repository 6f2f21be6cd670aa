//! The Rubric judge through the `agenteval` binary and the local judge server: the seed's
//! worked examples, an always-applicable dimension the judge drops, a rubric that applies to
//! nothing, bad options, every report format showing the dimensions, and a Foundry criterion.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use agenteval_judge_server::{start, RunningServer, ServerConfig};
use serde_json::{json, Value};

fn server() -> RunningServer {
    start(ServerConfig::default()).expect("the local judge starts")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agenteval-rubric-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The seed's restaurant-booking rubric.
fn booking() -> Value {
    json!({"dimensions": [
        {"id": "intent_recognition", "description": "Correctly identifies the user's reservation intent (book, modify, cancel, inquire).", "weight": 9},
        {"id": "tool_usage_accuracy", "description": "Calls the correct tool with correct parameters.", "weight": 6},
        {"id": "policy_enforcement", "description": "Enforces business rules: dinner service 17:00-22:00, max party size 8, 30-day booking window.", "weight": 5},
        {"id": "information_gathering", "description": "Collects all required information before attempting to create a reservation.", "weight": 4},
        {"id": "communication_clarity", "description": "Provides clear, concise responses and confirms reservation details.", "weight": 2},
        {"id": "general_quality", "description": "Other important quality factors not already covered by the listed criteria.", "weight": 5, "always_applicable": true}
    ]})
}

const IDS: [&str; 6] = [
    "intent_recognition",
    "tool_usage_accuracy",
    "policy_enforcement",
    "information_gathering",
    "communication_clarity",
    "general_quality",
];

/// A response whose directives make the local judge rate the dimensions `ratings` (in `IDS` order).
fn response(text: &str, ratings: [&str; 6]) -> String {
    let directives: String = IDS
        .iter()
        .zip(ratings)
        .map(|(id, rating)| format!(" [[judge:dimension={id}:{rating}]]"))
        .collect();
    format!("{text}{directives}")
}

fn item(response: String) -> Value {
    json!({"prompt": "Book a table for 4 on Friday at 19:30.", "response": response})
}

fn run(dir: &Path, dataset: &Value, url: &str, format: &str) -> Output {
    let file = dir.join("dataset.json");
    std::fs::write(&file, dataset.to_string()).expect("dataset written");
    Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(&file)
        .args(["--format", format, "--no-judge-cache"])
        .env("AZURE_AI_OPENAI_ENDPOINT", url)
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env_remove("AZURE_AI_API_KEY")
        .output()
        .expect("agenteval runs")
}

fn rubric_result(report: &Value, index: usize) -> &Value {
    report["items"][index]["results"]
        .as_array()
        .and_then(|results| {
            results
                .iter()
                .find(|result| result["evaluator"] == "Rubric")
        })
        .unwrap_or_else(|| panic!("no Rubric result for item {index}: {report:#}"))
}

#[test]
fn a_rubric_is_judged_in_one_call_per_item_with_the_seeds_scores() {
    let judge = server();
    let dir = scratch("m365");
    let document = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"Rubric": booking()},
        "items": [
            item(response("Booked: Friday 19:30, party of 4.", ["5", "5", "5", "4", "5", "4"])),
            item(response("Booked a table for 12 on Saturday.", ["3", "1", "1", "2", "2", "1"])),
            item(response("Booked.", ["5", "5", "5", "4", "5", "na"])),
            item(response("Hello.", ["na", "na", "na", "na", "na", "5"])),
            item(response("Booked.", ["5", "5", "5", "omit", "5", "4"])),
            item("Your table for 4 on Friday at 19:30 is booked.".to_owned()),
        ]
    });
    let output = run(&dir, &document, &judge.url(), "report");
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(judge.stats().completions, 6, "one call per item");

    let pass = rubric_result(&report, 0);
    assert_eq!(pass["result"], "pass");
    assert!((pass["score"].as_f64().unwrap_or(0.0) - 0.941_935_483_9).abs() < 5e-11);
    assert_eq!(pass["threshold"], 0.5);
    assert_eq!(pass["details"]["prompt_version"], "rubric/v2");
    let dimensions = pass["details"]["dimension_scores"]
        .as_array()
        .expect("dimension_scores");
    assert_eq!(dimensions.len(), 6);
    assert_eq!(
        dimensions[0],
        json!({"id": "intent_recognition", "score": 5, "applicable": true, "weight": 9, "reason": "local judge: dimension intent_recognition scored 5"})
    );
    assert!(pass["reason"]
        .as_str()
        .unwrap_or("")
        .contains("Dimensions: intent_recognition 5/5 (weight 9): local judge: dimension intent_recognition scored 5;"));

    let fail = rubric_result(&report, 1);
    assert_eq!(fail["result"], "fail");
    assert!((fail["score"].as_f64().unwrap_or(0.0) - 0.354_838_709_7).abs() < 5e-11);

    let dropped = rubric_result(&report, 2);
    assert_eq!(dropped["result"], "error");
    assert_eq!(dropped["error"]["code"], "judgeOutputUnparseable");
    assert!(dropped["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("'general_quality' not applicable"));

    let partly = rubric_result(&report, 3);
    assert_eq!(
        partly["result"], "pass",
        "only general_quality applies: 5/5"
    );
    assert_eq!(partly["score"], 1.0);

    let omitted = rubric_result(&report, 4);
    assert_eq!(omitted["error"]["code"], "judgeOutputUnparseable");
    assert!(omitted["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("does not rate dimension 'information_gathering'"));

    let derived = rubric_result(&report, 5);
    let score = derived["score"].as_f64().expect("a derived score");
    assert!((0.2..=1.0).contains(&score), "{derived}");
    assert_eq!(
        derived["result"],
        if score >= 0.5 { "pass" } else { "fail" }
    );
}

#[test]
fn no_applicable_dimension_is_skipped_and_bad_options_are_configuration_errors() {
    let judge = server();
    let dir = scratch("skipped");
    let document = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"Rubric": {"dimensions": [
            {"id": "a", "description": "first", "weight": 1},
            {"id": "b", "description": "second", "weight": 2}
        ]}},
        "items": [
            {"prompt": "Hi", "response": "Hello [[judge:dimension=a:na]] [[judge:dimension=b:na]]"},
            {"prompt": "Hi", "response": "Hello", "evaluators": {"Rubric": {"dimensions": [
                {"id": "a", "description": "first", "weight": 1},
                {"id": "a", "description": "again", "weight": 0}
            ]}}}
        ]
    });
    let output = run(&dir, &document, &judge.url(), "report");
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    let skipped = rubric_result(&report, 0);
    assert_eq!(skipped["result"], "skipped");
    assert!(skipped["reason"]
        .as_str()
        .unwrap_or("")
        .starts_with("Not applicable: "));
    let broken = rubric_result(&report, 1);
    assert_eq!(broken["error"]["code"], "evaluatorConfigurationError");
    assert_eq!(
        broken["error"]["message"],
        "option `dimensions` at /dimensions/1/id: the id 'a' is already the id of /dimensions/0"
    );
    assert_eq!(judge.stats().completions, 1);
}

#[test]
fn every_report_format_shows_the_dimensions() {
    let judge = server();
    let dir = scratch("formats");
    let document = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"Rubric": booking()},
        "items": [item(response("Booked a table for 12.", ["3", "1", "1", "2", "2", "1"]))]
    });
    for format in ["md", "html", "junit", "csv", "document"] {
        let output = run(&dir, &document, &judge.url(), format);
        let written = String::from_utf8_lossy(&output.stdout);
        // Markdown backslash-escapes the data's punctuation; rendered, it reads the same.
        let text = if format == "md" {
            written.replace('\\', "")
        } else {
            written.into_owned()
        };
        assert!(
            text.contains("policy_enforcement 1/5 (weight 5)"),
            "{format}: {text}"
        );
        assert!(
            text.contains("local judge: dimension general_quality scored 1"),
            "{format}: {text}"
        );
    }
}

#[test]
fn a_foundry_criterion_names_the_rubric() {
    let judge = server();
    let dir = scratch("foundry");
    let criteria = json!({"testing_criteria": [
        {"type": "azure_ai_evaluator", "name": "booking", "evaluator_name": "Rubric", "initialization_parameters": booking()}
    ]});
    let row = json!({
        "query": "Book a table for 4 on Friday at 19:30.",
        "response": response("Booked: Friday 19:30, party of 4.", ["5", "5", "5", "4", "5", "4"])
    });
    let file = dir.join("rows.jsonl");
    std::fs::write(&file, format!("{criteria}\n{row}\n")).expect("rows written");
    let scored = support::score_with_openai_judge(&file, &judge.url());
    assert_eq!(scored["booking_result"], "pass", "{scored:#}");
    assert!((scored["booking_score"].as_f64().unwrap_or(0.0) - 0.941_935_483_9).abs() < 5e-11);
}
