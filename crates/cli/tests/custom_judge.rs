//! Custom judged evaluators from prompt templates through the `agenteval` binary and the local
//! judge server: `--custom-evaluator NAME=FILE` with a JSON definition (a range, or labels) or a
//! plain prompt file, named in an M365 document; the same name without a judge (skipped) and
//! without the flag (a load error); bad flags; and Foundry `score_model` / `label_model`
//! criteria.

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
use support::found;

fn server() -> RunningServer {
    start(ServerConfig::default()).expect("the local judge starts")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agenteval-custom-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let file = dir.join(name);
    std::fs::write(&file, text).expect("file written");
    file
}

/// `agenteval score DATASET --format report ARGS…` against the judge at `url` (none when `None`).
fn score(dataset: &Path, args: &[String], url: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agenteval"));
    command
        .arg("score")
        .arg(dataset)
        .args(["--format", "report", "--no-judge-cache"])
        .args(args)
        .env_remove("AZURE_AI_API_KEY")
        .env_remove("AZURE_AI_OPENAI_ENDPOINT");
    if let Some(url) = url {
        command
            .env("AZURE_AI_OPENAI_ENDPOINT", url)
            .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge");
    }
    command.output().expect("agenteval runs")
}

fn report(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)))
}

fn document(dir: &Path) -> PathBuf {
    let document = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"Politeness": {"threshold": 7}, "Tone": {}, "Brief": {}},
        "items": [
            {"prompt": "Where is my order?", "response": "It ships today, thank you for waiting! [[judge:score=8]] [[judge:label=friendly]]", "expected_response": "It ships today."},
            {"prompt": "Where is my order?", "response": "Check the website. [[judge:score=4]] [[judge:label=rude]]"},
            {"prompt": "Cancel it.", "response": "Done. [[judge:score=11]] [[judge:label=sarcastic]]", "expected_response": "Cancelled."}
        ]
    });
    write(dir, "dataset.json", &document.to_string())
}

fn templates(dir: &Path) -> Vec<String> {
    let politeness = write(
        dir,
        "politeness.json",
        &json!({
            "prompt": "How polite is the answer to the question?\nQuestion: {{prompt}}\nAnswer: {{response}}",
            "range": [0, 10],
            "threshold": 5
        })
        .to_string(),
    );
    let tone = write(
        dir,
        "tone.json",
        &json!({
            "messages": [
                {"role": "system", "content": "Classify the answer's tone."},
                {"role": "user", "content": "Answer: {{response}}\nReference: {{expected_response}}"}
            ],
            "labels": ["friendly", "neutral", "rude"],
            "passing_labels": ["friendly", "neutral"]
        })
        .to_string(),
    );
    let brief = write(dir, "brief.txt", "Is this answer brief? {{response}}");
    vec![
        format!("--custom-evaluator=Politeness={}", politeness.display()),
        format!("--custom-evaluator=Tone={}", tone.display()),
        format!("--custom-evaluator=Brief={}", brief.display()),
    ]
}

#[test]
fn templates_named_in_a_document_are_judged_with_their_range_labels_and_thresholds() {
    let judge = server();
    let dir = scratch("m365");
    let dataset = document(&dir);
    let output = score(&dataset, &templates(&dir), Some(&judge.url()));
    let report = report(&output);

    let polite = found(&report, 0, "Politeness");
    assert_eq!(
        (&polite["result"], &polite["score"], &polite["threshold"]),
        (&json!("pass"), &json!(8.0), &json!(7.0)),
        "the document's threshold 7 overrides the template's 5: {polite}"
    );
    assert_eq!(polite["details"]["prompt_version"], "custom/v1");
    let curt = found(&report, 1, "Politeness");
    assert_eq!(
        (&curt["result"], &curt["score"]),
        (&json!("fail"), &json!(4.0))
    );
    let off = found(&report, 2, "Politeness");
    assert_eq!(off["error"]["code"], "judgeOutputUnparseable");
    assert!(off["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("off its scale (0-10)"));

    let friendly = found(&report, 0, "Tone");
    assert_eq!(
        (&friendly["result"], &friendly["details"]["label"]),
        (&json!("pass"), &json!("friendly"))
    );
    let no_reference = found(&report, 1, "Tone");
    assert_eq!(no_reference["result"], "skipped");
    assert_eq!(
        no_reference["reason"],
        "Not applicable: the item has no expected_response, which the prompt template uses"
    );
    let unknown = found(&report, 2, "Tone");
    assert_eq!(unknown["error"]["code"], "judgeOutputUnparseable");
    assert!(unknown["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("\"sarcastic\" is not one of the labels"));

    let brief = found(&report, 0, "Brief");
    assert_eq!(
        brief["error"]["message"], "the judge's score 8 is off its scale (1-5)",
        "a plain prompt file scores 1-5: {brief}"
    );
    let brief = found(&report, 1, "Brief");
    assert_eq!(
        (&brief["result"], &brief["score"], &brief["threshold"]),
        (&json!("pass"), &json!(4.0), &json!(3.0))
    );
    assert_eq!(
        judge.stats().completions,
        8,
        "3 Politeness + 2 Tone (one skipped before a call) + 3 Brief"
    );
}

#[test]
fn without_a_judge_templates_are_skipped_and_without_the_flag_their_names_are_unknown() {
    let dir = scratch("nojudge");
    let dataset = document(&dir);
    let skipped = report(&score(&dataset, &templates(&dir), None));
    let polite = found(&skipped, 0, "Politeness");
    assert_eq!(
        (&polite["result"], &polite["reason"]),
        (&json!("skipped"), &json!("no judge configured"))
    );
    let unknown = report(&score(&dataset, &[], None));
    let polite = found(&unknown, 0, "Politeness");
    assert_eq!(polite["error"]["code"], "evaluatorLoadError");
}

#[test]
fn bad_custom_evaluator_flags_stop_the_run_and_say_why() {
    let dir = scratch("bad");
    let dataset = document(&dir);
    let broken = write(
        &dir,
        "broken.json",
        r#"{"prompt": "Rate {{response}}", "range": [5, 1]}"#,
    );
    let cases = [
        (
            "--custom-evaluator=Politeness".to_owned(),
            "expected NAME=FILE",
        ),
        (
            format!("--custom-evaluator=Relevance={}", broken.display()),
            "collides with the built-in evaluator",
        ),
        (
            format!(
                "--custom-evaluator=Politeness={}",
                dir.join("missing.json").display()
            ),
            "cannot read",
        ),
        (
            format!("--custom-evaluator=Politeness={}", broken.display()),
            "broken.json: /range: expected [low, high] with low < high",
        ),
    ];
    for (flag, expected) in cases {
        let output = score(&dataset, std::slice::from_ref(&flag), None);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flag}: {stderr}");
        assert!(stderr.contains(expected), "{flag}: {stderr}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn foundry_score_model_and_label_model_criteria_read_any_row_field() {
    let judge = server();
    let dir = scratch("foundry");
    let config = json!({"testing_criteria": [
        {
            "type": "score_model",
            "name": "helpfulness",
            "model": "gpt-4o-mini",
            "input": [
                {"role": "developer", "content": "Rate how helpful the answer is for the topic."},
                {"role": "user", "content": "Topic: {{item.topic}}\nAnswer: {{sample.output_text}}"}
            ],
            "range": [1, 10],
            "pass_threshold": 6
        },
        {
            "type": "label_model",
            "name": "tone",
            "input": [{"role": "user", "content": [{"type": "input_text", "text": "Tone of: {{item.response}}"}]}],
            "labels": ["friendly", "rude"],
            "passing_labels": ["friendly"]
        }
    ]});
    let rows = [
        json!({"topic": "billing", "response": "Your bill is ready. [[judge:score=9]] [[judge:label=friendly]]"}),
        json!({"topic": "refunds", "response": "No. [[judge:score=2]] [[judge:label=rude]]"}),
        json!({"response": "Hello [[judge:score=7]] [[judge:label=friendly]]"}),
    ];
    let mut lines = vec![config.to_string()];
    lines.extend(rows.iter().map(Value::to_string));
    let file = write(&dir, "rows.jsonl", &(lines.join("\n") + "\n"));
    let rows = support::rows_with_openai_judge(&file, &judge.url());
    assert_eq!(rows[0]["helpfulness_result"], "pass");
    assert_eq!(rows[0]["helpfulness_score"], 9.0);
    assert_eq!(rows[0]["helpfulness_threshold"], 6.0);
    assert_eq!(rows[0]["tone_result"], "pass");
    assert_eq!(rows[1]["helpfulness_result"], "fail");
    assert_eq!(rows[1]["tone_result"], "fail");
    assert_eq!(rows[1]["tone_score"], 0.0);
    assert_eq!(
        rows[2]["helpfulness_result"], "not_applicable",
        "{:#}",
        rows[2]
    );
    assert_eq!(rows[2]["tone_result"], "pass");
    assert_eq!(judge.stats().completions, 5);
}
