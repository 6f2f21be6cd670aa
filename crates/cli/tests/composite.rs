//! The composite judges `output_quality` and `tool_use_quality` through the `agenteval` binary
//! and the local judge server: one call per item for all members, the pass rule over the
//! applicable members, and not-applicable composites.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::process::Command;

use agenteval_judge_server::{start, ServerConfig};
use serde_json::{json, Value};
use support::found;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("agenteval-composite-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn output_quality_judges_every_member_in_one_call_and_passes_only_when_all_applicable_pass() {
    let judge = start(ServerConfig::default()).expect("the local judge starts");
    let dir = scratch("m365");
    let all = |scores: [&str; 6]| -> String {
        [
            "fluency",
            "coherence",
            "intent_resolution",
            "task_adherence",
            "groundedness",
            "task_completion",
        ]
        .iter()
        .zip(scores)
        .map(|(id, score)| format!(" [[judge:dimension={id}:{score}]]"))
        .collect()
    };
    let item = |response: String| json!({"prompt": "Capital of France?", "response": response, "context": "Paris is the capital of France."});
    let document = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"output_quality": {}, "tool_use_quality": {}},
        "items": [
            item(format!("Paris.{}", all(["4", "5", "4", "1", "5", "1"]))),
            item(format!("Paris.{}", all(["4", "5", "4", "1", "2", "1"]))),
            item(format!("Paris.{}", all(["4", "na", "4", "0", "5", "1"]))),
            item(format!("Paris.{}", all(["na", "na", "na", "na", "na", "na"]))),
        ]
    });
    let file = dir.join("dataset.json");
    std::fs::write(&file, document.to_string()).expect("dataset written");
    let report = support::report_with_azure_judge(&file, &judge.url(), &[]);
    assert_eq!(
        judge.stats().completions,
        4,
        "one call per item; tool_use_quality needs no call"
    );
    let pass = found(&report, 0, "output_quality");
    assert_eq!(
        (&pass["result"], &pass["score"], &pass["threshold"]),
        (&json!("pass"), &json!(1.0), &json!(1.0))
    );
    assert_eq!(pass["details"]["prompt_version"], "output_quality/v2");
    assert_eq!(
        pass["details"]["components"].as_array().map(Vec::len),
        Some(6)
    );
    let fail = found(&report, 1, "output_quality");
    assert_eq!(fail["result"], "fail");
    assert!(
        fail["reason"]
            .as_str()
            .unwrap_or("")
            .starts_with("Failed: groundedness (2, threshold 3)."),
        "{fail}"
    );
    let binary = found(&report, 2, "output_quality");
    assert_eq!(binary["result"], "fail");
    assert_eq!(
        binary["details"]["components"][1]["result"],
        "not_applicable"
    );
    let none = found(&report, 3, "output_quality");
    assert_eq!(none["result"], "skipped");
    let tools = found(&report, 0, "tool_use_quality");
    assert_eq!(tools["result"], "skipped");
    assert_eq!(
        tools["reason"],
        "Not applicable: the response makes no tool call"
    );
}

#[test]
fn foundry_tool_use_quality_rates_the_tool_members() {
    let judge = start(ServerConfig::default()).expect("the local judge starts");
    let dir = scratch("foundry");
    let criteria = json!({"testing_criteria": [
        {"type": "azure_ai_evaluator", "name": "tools", "evaluator_name": "builtin.tool_use_quality", "initialization_parameters": {"evaluation_level": "turn"}},
        {"type": "azure_ai_evaluator", "name": "output", "evaluator_name": "builtin.output_quality"}
    ]});
    let row = json!({
        "query": [{"role": "user", "content": [{"type": "text", "text": "Weather in Paris? [[judge:dimension=tool_call_accuracy:5]] [[judge:dimension=tool_call_success:1]] [[judge:dimension=tool_input_accuracy:1]] [[judge:dimension=tool_output_utilization:1]] [[judge:dimension=tool_selection:1]]"}]}],
        "response": [
            {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp": 21}}]},
            {"role": "assistant", "content": [{"type": "text", "text": "It is 21 degrees in Paris."}]}
        ],
        "tool_definitions": [{"name": "get_weather", "description": "Weather by city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
    });
    let file = dir.join("rows.jsonl");
    std::fs::write(&file, format!("{criteria}\n{row}\n")).expect("rows written");
    let scored = support::score_with_openai_judge(&file, &judge.url());
    assert_eq!(scored["tools_result"], "pass", "{scored:#}");
    assert_eq!(
        scored["tools_properties"]["evaluation_level"], "turn",
        "configured"
    );
    assert_eq!(
        scored["output_properties"]["evaluation_level"], "turn",
        "query and response: a turn"
    );
    let output_result = scored["output_result"].as_str().unwrap_or("");
    assert!(
        output_result == "pass" || output_result == "fail",
        "{scored:#}"
    );
    assert_eq!(judge.stats().completions, 2);
}

#[test]
fn the_composites_make_at_least_four_times_fewer_calls_than_their_members() {
    let judge = start(ServerConfig::default()).expect("the local judge starts");
    let dir = scratch("calls");
    let row = |index: usize| {
        json!({
            "query": format!("Row {index}: weather in Paris?"),
            "response": [
                {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp": 21}}]},
                {"role": "assistant", "content": [{"type": "text", "text": "It is 21 degrees in Paris."}]}
            ],
            "context": "Paris weather: 21 degrees.",
            "tool_definitions": [{"name": "get_weather", "description": "Weather by city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
        })
    };
    let calls = |ids: &[&str]| -> u64 {
        let criteria: Vec<Value> = ids
            .iter()
            .map(|id| json!({"type": "azure_ai_evaluator", "name": id, "evaluator_name": format!("builtin.{id}")}))
            .collect();
        let file = dir.join(format!("rows-{}.jsonl", ids.len()));
        let rows: Vec<String> = (0..3).map(|index| row(index).to_string()).collect();
        std::fs::write(
            &file,
            format!(
                "{}\n{}\n",
                json!({"testing_criteria": criteria}),
                rows.join("\n")
            ),
        )
        .expect("rows written");
        judge.reset_stats();
        let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
            .arg("score")
            .arg(&file)
            .args(["--format", "report", "--no-judge-cache"])
            .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
            .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
            .env_remove("AZURE_AI_API_KEY")
            .output()
            .expect("agenteval runs");
        assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
        judge.stats().completions
    };
    let composites = calls(&["output_quality", "tool_use_quality"]);
    let members = calls(&[
        "fluency",
        "coherence",
        "intent_resolution",
        "task_adherence",
        "groundedness",
        "task_completion",
        "tool_call_accuracy",
        "tool_call_success",
        "tool_input_accuracy",
        "tool_output_utilization",
        "tool_selection",
    ]);
    assert_eq!(composites, 6, "two calls per row");
    assert!(
        members >= 4 * composites,
        "{members} member calls against {composites}"
    );
}
