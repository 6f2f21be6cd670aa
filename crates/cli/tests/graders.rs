//! Foundry's OpenAI-style deterministic graders through the `agenteval` binary: a JSONL whose
//! config line names `string_check` and `text_similarity` criteria, scored with the verdicts and
//! scores worked out by hand (fuzzy_match from RapidFuzz's `fuzz.ratio`), a bad criterion as an
//! `evaluatorConfigurationError`, the `meteor` metric equal to `builtin.meteor_score` on the same
//! texts (with the CLI's embedded WordNet), the `foundry` output carrying each criterion's
//! columns, and `cosine`: skipped without a judge, the embeddings' cosine with the local one.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

fn dataset(dir: &Path) -> PathBuf {
    let config = json!({"testing_criteria": [
        {"type": "string_check", "name": "exact", "input": "{{sample.output_text}}",
         "reference": "{{item.label}}", "operation": "eq"},
        {"type": "string_check", "name": "mentions", "input": "{{sample.output_text}}",
         "reference": "{{item.label}}", "operation": "ilike"},
        {"type": "text_similarity", "name": "fuzzy", "input": "{{sample.output_text}}",
         "reference": "{{item.label}}", "evaluation_metric": "fuzzy_match", "pass_threshold": 0.8},
        {"type": "text_similarity", "name": "rouge", "input": "Answer: {{sample.output_text}}",
         "reference": "Answer: {{item.meta.answer}}", "evaluation_metric": "rouge_1",
         "pass_threshold": 0.5},
        {"type": "text_similarity", "name": "bleu", "input": "{{sample.output_text}}",
         "reference": "{{item.label}}", "evaluation_metric": "bleu", "pass_threshold": 0.5},
        {"type": "text_similarity", "name": "embeddings", "input": "{{sample.output_text}}",
         "reference": "{{item.label}}", "evaluation_metric": "cosine", "pass_threshold": 0.5},
        {"type": "text_similarity", "name": "meteor", "input": "{{sample.output_text}}",
         "reference": "{{item.meta.answer}}", "evaluation_metric": "meteor", "pass_threshold": 0.5},
        {"type": "azure_ai_evaluator", "name": "meteor_builtin",
         "evaluator_name": "builtin.meteor_score",
         "data_mapping": {"response": "{{item.response}}", "ground_truth": "{{item.meta.answer}}"}},
        {"type": "text_similarity", "name": "broken", "input": "{{sample.output_text}}",
         "reference": "{{item.label}}", "evaluation_metric": "levenshtein", "pass_threshold": 0.5}
    ]});
    let rows = [
        json!({"response": "Paris", "label": "Paris", "meta": {"answer": "Paris"}}),
        json!({"response": "It is PARIS.", "label": "paris", "meta": {"answer": "Lyon"}}),
        json!({"response": "hello word", "meta": {"answer": "hello world"}}),
    ];
    let mut text = config.to_string();
    for row in rows {
        text.push('\n');
        text.push_str(&row.to_string());
    }
    let dir = dir.join(format!("agenteval-graders-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let file = dir.join("rows.jsonl");
    std::fs::write(&file, text).expect("dataset written");
    file
}

fn score(file: &Path, format: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(file)
        .args(["--format", format])
        .env_remove("AZURE_AI_OPENAI_ENDPOINT")
        .env_remove("OPENAI_API_KEY")
        .current_dir(support::root())
        .output()
        .expect("agenteval runs")
}

fn result<'r>(report: &'r Value, row: usize, criterion: &str) -> &'r Value {
    report["items"][row]["results"]
        .as_array()
        .and_then(|results| {
            results
                .iter()
                .find(|result| result["evaluator"] == criterion)
        })
        .unwrap_or_else(|| panic!("no {criterion} result for row {row}: {report:#}"))
}

fn verdict(report: &Value, row: usize, criterion: &str) -> (String, Option<f64>) {
    let found = result(report, row, criterion);
    (
        found["result"].as_str().unwrap_or_default().to_owned(),
        found["score"].as_f64(),
    )
}

#[test]
fn graders_score_foundry_rows() {
    let file = dataset(&std::env::temp_dir());
    let output = score(&file, "report");
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    let pass = |score: f64| ("pass".to_owned(), Some(score));
    let fail = |score: f64| ("fail".to_owned(), Some(score));

    assert_eq!(verdict(&report, 0, "exact"), pass(1.0));
    assert_eq!(verdict(&report, 1, "exact"), fail(0.0));
    assert_eq!(verdict(&report, 0, "mentions"), pass(1.0));
    assert_eq!(verdict(&report, 1, "mentions"), pass(1.0));

    assert_eq!(verdict(&report, 0, "fuzzy"), pass(1.0));
    // "It is PARIS." / "paris": LCS "is" → 1 − (12 + 5 − 4) / 17.
    assert_eq!(verdict(&report, 1, "fuzzy"), fail(0.23529411764705888));

    // "Answer: Paris" both sides; "answer it is paris" against "answer lyon": 1 of 4 and 1 of 2.
    assert_eq!(verdict(&report, 0, "rouge"), pass(1.0));
    let f1 = 2.0 * 0.25 * 0.5 / (0.25 + 0.5);
    assert_eq!(verdict(&report, 1, "rouge"), fail(f1));
    // "answer hello word" against "answer hello world": 2 of 3 each side.
    let two_thirds = 2.0 / 3.0;
    assert_eq!(
        verdict(&report, 2, "rouge"),
        pass(2.0 * two_thirds * two_thirds / (two_thirds + two_thirds))
    );

    let bleu = result(&report, 0, "bleu");
    assert_eq!(bleu["result"], "pass", "{bleu}");
    assert_eq!(bleu["threshold"], 0.5);

    for row in 0..3 {
        let meteor = result(&report, row, "meteor");
        let built_in = result(&report, row, "meteor_builtin");
        assert!(meteor["score"].is_number(), "{meteor}");
        assert_eq!(meteor["score"], built_in["score"], "row {row}");
        assert_eq!(meteor["result"], built_in["result"], "row {row}");
    }
    assert_eq!(verdict(&report, 1, "meteor"), fail(0.0));

    let cosine = result(&report, 0, "embeddings");
    assert_eq!(cosine["result"], "skipped", "{cosine}");
    assert!(cosine["reason"]
        .as_str()
        .unwrap_or_default()
        .contains("embeddings"));

    let broken = result(&report, 0, "broken");
    assert_eq!(broken["result"], "error");
    assert_eq!(broken["error"]["code"], "evaluatorConfigurationError");
    assert!(broken["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("`evaluation_metric`"));

    let missing = result(&report, 2, "exact");
    assert_eq!(missing["result"], "error", "{missing}");
    assert!(missing["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("{{item.label}}"));
}

#[test]
fn foundry_output_carries_each_criterion() {
    let file = dataset(&std::env::temp_dir());
    let output = score(&file, "foundry");
    let text = String::from_utf8_lossy(&output.stdout);
    let rows: Vec<Value> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    assert_eq!(
        rows.len(),
        3,
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(rows[1]["exact_result"], "fail");
    assert_eq!(rows[1]["mentions_result"], "pass");
    assert_eq!(rows[1]["fuzzy_score"], 0.23529411764705888);
    assert_eq!(rows[1]["fuzzy_threshold"], 0.8);
    assert_eq!(rows[0]["embeddings_status"], "skipped");
    assert_eq!(rows[0]["broken_error_code"], "evaluatorConfigurationError");
    assert_eq!(rows[2]["rouge_result"], "pass");
}

#[test]
fn with_a_judge_cosine_is_the_cosine_of_the_endpoints_embeddings() {
    let judge = agenteval_judge_server::start(agenteval_judge_server::ServerConfig::default())
        .expect("the local judge starts");
    let config = json!({"testing_criteria": [
        {"type": "text_similarity", "name": "cosine", "input": "{{sample.output_text}}",
         "reference": "{{item.label}}", "evaluation_metric": "cosine", "pass_threshold": 0.9},
        {"type": "string_check", "name": "exact", "input": "{{sample.output_text}}",
         "reference": "{{item.label}}", "operation": "eq"}
    ]});
    let rows = [
        json!({"response": "The invoice was paid on Monday.", "label": "The invoice was paid on Monday."}),
        json!({"response": "Bananas are yellow.", "label": "The invoice was paid on Monday."}),
    ];
    let dir = std::env::temp_dir().join(format!("agenteval-graders-cosine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let file = dir.join("rows.jsonl");
    let text: Vec<String> = std::iter::once(config.to_string())
        .chain(rows.iter().map(Value::to_string))
        .collect();
    std::fs::write(&file, text.join("\n")).expect("dataset written");
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(&file)
        .args(["--format", "report", "--no-judge-cache"])
        .args(["--judge-embedding-model", "text-embedding-3-small"])
        .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env_remove("AZURE_AI_API_KEY")
        .current_dir(support::root())
        .output()
        .expect("agenteval runs");
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    let same = result(&report, 0, "cosine");
    assert_eq!(same["result"], "pass", "{same}");
    assert_eq!(same["threshold"], 0.9);
    assert!(
        (same["score"].as_f64().unwrap_or(0.0) - 1.0).abs() < 1e-9,
        "{same}"
    );
    let unrelated = result(&report, 1, "cosine");
    assert_eq!(unrelated["result"], "fail", "{unrelated}");
    assert!(
        unrelated["score"].as_f64().unwrap_or(1.0) < 0.9,
        "{unrelated}"
    );
    assert_eq!(verdict(&report, 1, "exact"), ("fail".to_owned(), Some(0.0)));
}
