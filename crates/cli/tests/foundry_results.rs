//! `--format foundry-results` through the `agenteval` binary (issue 42 point 6): Foundry's result
//! objects, one line per row, agreeing with the flat rows on every verdict; task navigation's
//! details; a composite followed by its members; refused for another dialect.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use agenteval_judge_server::{start, ServerConfig};
use serde_json::{json, Value};
use support::{agenteval, root};

fn lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("every line is JSON"))
        .collect()
}

#[test]
fn the_demo_rows_as_result_objects_agree_with_the_flat_rows() {
    let args = |format: &'static str| {
        [
            "score",
            "examples/foundry-demo.jsonl",
            "--config",
            "examples/foundry-config.json",
            "--format",
            format,
        ]
    };
    let flat = agenteval(&args("foundry"));
    let objects = agenteval(&args("foundry-results"));
    assert_eq!(objects.status.code(), flat.status.code());
    let inputs = std::fs::read_to_string(root().join("examples/foundry-demo.jsonl")).unwrap();
    let inputs: Vec<Value> = inputs
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (flat, objects) = (lines(&flat.stdout), lines(&objects.stdout));
    assert_eq!(objects.len(), inputs.len());
    for ((line, row), input) in objects.iter().zip(&flat).zip(&inputs) {
        assert_eq!(line["datasource_item"], *input);
        let results = line["results"].as_array().unwrap();
        let names: Vec<&str> = results
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["f1", "rougeL", "relevance"]);
        let metrics: Vec<&str> = results
            .iter()
            .map(|r| r["metric"].as_str().unwrap())
            .collect();
        assert_eq!(metrics, ["f1_score", "rouge_score", "relevance"]);
        for result in results {
            let name = result["name"].as_str().unwrap();
            assert_eq!(result["type"], "azure_ai_evaluator");
            assert_eq!(result["label"], row[format!("{name}_result")], "{name}");
            assert_eq!(result["passed"], row[format!("{name}_passed")], "{name}");
            assert_eq!(result["score"], row[format!("{name}_score")], "{name}");
            assert_eq!(result["reason"], row[format!("{name}_reason")], "{name}");
            assert_eq!(
                result["threshold"],
                row[format!("{name}_threshold")],
                "{name}"
            );
        }
        let relevance = &results[2];
        assert_eq!(
            (&relevance["label"], &relevance["passed"]),
            (&json!("not_applicable"), &Value::Null),
            "no judge: skipped"
        );
    }
    assert_eq!(objects[0]["results"][0]["label"], "pass");
    assert_eq!(objects[1]["results"][0]["label"], "fail");
    assert_eq!(objects[1]["results"][0]["passed"], false);
}

#[test]
fn task_navigation_results_carry_their_precision_recall_and_f1() {
    let output = agenteval(&[
        "score",
        "tests/fixtures/seeds/task-navigation.jsonl",
        "--config",
        "tests/fixtures/seeds/task-navigation-config.json",
        "--format",
        "foundry-results",
    ]);
    let objects = lines(&output.stdout);
    let first = &objects[0]["results"][0];
    assert_eq!(
        (&first["name"], &first["metric"], &first["label"]),
        (
            &json!("task_navigation_efficiency"),
            &json!("task_navigation_efficiency"),
            &json!("pass")
        )
    );
    assert_eq!(first["passed"], true);
    assert_eq!(first["details"]["f1_score"], 1.0, "{first:#}");
    assert_eq!(first["details"]["precision_score"], 1.0);
}

#[test]
fn a_composite_is_followed_by_one_result_per_member() {
    let judge = start(ServerConfig::default()).expect("the local judge starts");
    let dir = std::env::temp_dir().join(format!("agenteval-results-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let criteria = json!({"testing_criteria": [
        {"type": "azure_ai_evaluator", "name": "tools", "evaluator_name": "builtin.tool_use_quality"},
    ]});
    let row = json!({
        "query": "Weather in Paris? [[judge:dimension=tool_call_accuracy:2]] [[judge:dimension=tool_call_success:1]] [[judge:dimension=tool_input_accuracy:1]] [[judge:dimension=tool_output_utilization:1]] [[judge:dimension=tool_selection:1]]",
        "response": [
            {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp": 21}}]},
            {"role": "assistant", "content": [{"type": "text", "text": "It is 21 degrees in Paris."}]}
        ]
    });
    let file = dir.join("rows.jsonl");
    std::fs::write(&file, format!("{criteria}\n{row}\n")).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(&file)
        .args(["--format", "foundry-results", "--no-judge-cache"])
        .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env_remove("AZURE_AI_API_KEY")
        .output()
        .expect("agenteval runs");
    let objects = lines(&output.stdout);
    assert_eq!(
        objects.len(),
        1,
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = objects[0]["results"].as_array().unwrap();
    let metrics: Vec<&str> = results
        .iter()
        .map(|r| r["metric"].as_str().unwrap())
        .collect();
    assert_eq!(
        metrics,
        [
            "tool_use_quality",
            "tool_call_accuracy",
            "tool_call_success",
            "tool_input_accuracy",
            "tool_output_utilization",
            "tool_selection"
        ]
    );
    assert!(results.iter().all(|r| r["name"] == "tools"));
    assert_eq!(
        (&results[0]["label"], &results[0]["passed"]),
        (&json!("fail"), &json!(false))
    );
    let accuracy = &results[1];
    assert_eq!(
        (
            &accuracy["label"],
            &accuracy["score"],
            &accuracy["threshold"],
            &accuracy["passed"]
        ),
        (&json!("fail"), &json!(2.0), &json!(3.0), &json!(false))
    );
    assert_eq!(results[2]["label"], "pass");
    assert_eq!(results[2]["passed"], true);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn foundry_results_are_refused_for_an_m365_document() {
    let output = agenteval(&[
        "score",
        "examples/m365-demo.json",
        "--format",
        "foundry-results",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("foundry-results does not apply to m365 input; use document"),
        "{stderr}"
    );
}
