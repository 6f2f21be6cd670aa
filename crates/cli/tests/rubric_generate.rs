//! `agenteval rubric generate` through the binary and the local judge: a rubric from the agent's
//! instructions that the Rubric judge then scores with; the exit codes for no source, no judge
//! and a judge that fails.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};

use agenteval_judge_server::{start, RunningServer, ServerConfig};
use serde_json::{json, Value};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("agenteval-rubricgen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn generate(judge: Option<&RunningServer>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agenteval"));
    command
        .args(["rubric", "generate"])
        .args(args)
        .current_dir(support::root())
        .env_remove("AZURE_AI_OPENAI_ENDPOINT")
        .env_remove("AZURE_AI_API_KEY")
        .env_remove("OPENAI_API_KEY");
    if let Some(judge) = judge {
        command.args([
            "--judge-kind",
            "openai",
            "--judge-model",
            "llama3",
            "--judge-endpoint",
        ]);
        command.arg(format!("{}/v1", judge.url()));
    }
    command.output().expect("agenteval runs")
}

#[test]
fn a_generated_rubric_is_one_the_rubric_judge_scores_with() {
    let judge = start(ServerConfig::default()).expect("the local judge starts");
    let dir = scratch("generate");
    let instructions = dir.join("instructions.txt");
    std::fs::write(
        &instructions,
        "Book restaurant tables. Dinner is served 17:00-22:00; parties of at most 8 guests.",
    )
    .unwrap();
    let traces = dir.join("traces.txt");
    std::fs::write(
        &traces,
        "user: a table for 10 at 23:00\nagent: we close at 22:00",
    )
    .unwrap();
    let rubric_file = dir.join("rubric.json");
    let output = generate(
        Some(&judge),
        &[
            "--instructions",
            instructions.to_str().unwrap(),
            "--traces",
            traces.to_str().unwrap(),
            "--out",
            rubric_file.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(judge.stats().completions, 1);
    let rubric: Value = serde_json::from_slice(&std::fs::read(&rubric_file).unwrap()).unwrap();
    let dimensions = rubric["dimensions"].as_array().unwrap();
    let ids: Vec<&str> = dimensions
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "book_restaurant_tables",
            "dinner_is_served",
            "parties_of_at",
            "general_quality"
        ]
    );
    assert!(dimensions
        .iter()
        .all(|d| d["weight"].as_f64().unwrap() > 0.0));
    assert_eq!(dimensions[3]["always_applicable"], true);
    let dataset = dir.join("dataset.json");
    std::fs::write(
        &dataset,
        json!({
            "schemaVersion": "1.11.0",
            "default_evaluators": {"Rubric": rubric},
            "items": [{"prompt": "A table for 4 at 19:00", "response": "Booked for 4 at 19:00."}]
        })
        .to_string(),
    )
    .unwrap();
    let report = support::report_with_azure_judge(&dataset, &judge.url(), &[]);
    let scored = support::found(&report, 0, "Rubric");
    assert!(
        matches!(scored["result"].as_str(), Some("pass" | "fail")),
        "{scored:#}"
    );
    assert_eq!(
        scored["details"]["dimension_scores"]
            .as_array()
            .map(Vec::len),
        Some(4)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn no_source_no_judge_or_a_failing_judge_are_told_apart() {
    let judge = start(ServerConfig::default()).expect("the local judge starts");
    let dir = scratch("codes");
    let traces = dir.join("traces.txt");
    std::fs::write(&traces, "user: hi").unwrap();
    let alone = generate(Some(&judge), &["--traces", traces.to_str().unwrap()]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&alone.stderr).contains("traces cannot be used alone"));
    assert_eq!(
        judge.stats().completions,
        0,
        "nothing is sent for bad input"
    );
    let instructions = dir.join("instructions.txt");
    std::fs::write(&instructions, "Answer politely. [[judge:fault=500*9]]").unwrap();
    let path = instructions.to_str().unwrap();
    let no_judge = generate(None, &["--instructions", path]);
    assert_eq!(no_judge.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_judge.stderr).contains("--judge-endpoint"));
    let failing = generate(
        Some(&judge),
        &["--instructions", path, "--judge-retries", "0"],
    );
    assert_eq!(failing.status.code(), Some(1), "{failing:?}");
    assert!(
        String::from_utf8_lossy(&failing.stderr).contains("the judge call failed"),
        "{failing:?}"
    );
    assert!(failing.stdout.is_empty(), "no rubric is written");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_rubric_pages_bare_array_of_dimensions_is_a_rubric_in_documents_and_criteria() {
    let judge = start(ServerConfig::default()).expect("the local judge starts");
    let dir = scratch("bare");
    let dimensions = json!([
        {"id": "intent_recognition", "description": "Identifies the reservation intent.", "weight": 9},
        {"id": "general_quality", "description": "Other factors.", "weight": 5, "always_applicable": true}
    ]);
    let document = dir.join("document.json");
    std::fs::write(
        &document,
        json!({
            "schemaVersion": "1.11.0",
            "default_evaluators": {"Rubric": dimensions},
            "items": [{"prompt": "A table for 4", "response": "Booked."}]
        })
        .to_string(),
    )
    .unwrap();
    let report = support::report_with_azure_judge(&document, &judge.url(), &[]);
    let scored = support::found(&report, 0, "Rubric");
    assert_eq!(
        scored["details"]["dimension_scores"]
            .as_array()
            .map(Vec::len),
        Some(2),
        "{scored:#}"
    );
    let rows = dir.join("rows.jsonl");
    let criteria = json!({"testing_criteria": [
        {"type": "azure_ai_evaluator", "name": "booking", "evaluator_name": "Rubric", "initialization_parameters": dimensions}
    ]});
    std::fs::write(
        &rows,
        format!(
            "{criteria}\n{}\n",
            json!({"query": "A table for 4", "response": "Booked."})
        ),
    )
    .unwrap();
    let row = support::score_with_openai_judge(&rows, &judge.url());
    assert!(
        matches!(row["booking_result"].as_str(), Some("pass" | "fail")),
        "{row:#}"
    );
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        json!({
            "schemaVersion": "1.11.0",
            "default_evaluators": {"Rubric": [{"id": "a", "description": "d", "weight": "heavy"}]},
            "items": [{"prompt": "p", "response": "r"}]
        })
        .to_string(),
    )
    .unwrap();
    let refused = support::agenteval(&["validate", bad.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("/default_evaluators/Rubric/0/weight"),
        "{refused:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
