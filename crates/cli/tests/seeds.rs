//! The seed pages' own examples through the `agenteval` binary (issue 42): task navigation with
//! `function_call` actions or the whole `messages`, RetrievalResult without `capability`, and the
//! warning on tool verdicts over the tools the page lists as of limited support.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::path::PathBuf;

use agenteval_judge_server::{start, ServerConfig};
use serde_json::{json, Value};
use support::{agenteval, root};

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/seeds").join(name)
}

#[test]
fn task_navigation_reads_the_pages_function_calls_and_messages() {
    let rows = fixture("task-navigation.jsonl");
    let config = fixture("task-navigation-config.json");
    let output = agenteval(&[
        "score",
        rows.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
        "--format",
        "foundry",
    ]);
    assert_eq!(output.status.code(), Some(1), "one row fails: {output:?}");
    let rows: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    for criterion in ["task_navigation_efficiency", "navigation_from_messages"] {
        assert_eq!(
            rows[0][format!("{criterion}_result")],
            "pass",
            "{criterion}"
        );
        assert_eq!(rows[0][format!("{criterion}_properties")]["f1_score"], 1.0);
        assert_eq!(
            rows[1][format!("{criterion}_result")],
            "fail",
            "{criterion}"
        );
    }
}

#[test]
fn retrieval_result_without_capability_searches_every_execution_with_a_warning() {
    let document = fixture("retrieval-result.json");
    let path = document.to_str().unwrap();
    let validated = agenteval(&["validate", path]);
    assert_eq!(validated.status.code(), Some(0), "{validated:?}");
    let warning = "warning: at /items/1/evaluators/RetrievalResult: no capability: all retrieval executions were searched";
    assert!(String::from_utf8_lossy(&validated.stderr).contains(warning));
    let scored = agenteval(&["score", path, "--format", "report"]);
    assert!(String::from_utf8_lossy(&scored.stderr).contains(warning));
    let report: Value = serde_json::from_slice(&scored.stdout).unwrap();
    let retrieval = |index: usize| {
        report["items"][index]["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|result| result["evaluator"] == "RetrievalResult")
            .cloned()
            .unwrap()
    };
    let searched = retrieval(1);
    assert_eq!(searched["result"], "pass", "{searched}");
    assert_eq!(searched["details"]["results_evaluated"], 2);
    let without_diagnostics = retrieval(0);
    assert_eq!(without_diagnostics["details"]["diagnostic_code"], "error");
    assert!(without_diagnostics["error"].is_null());
}

#[test]
fn tool_verdicts_over_limited_support_tools_carry_a_warning() {
    let judge = start(ServerConfig::default()).expect("the local judge starts");
    let dir = std::env::temp_dir().join(format!("agenteval-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = json!({"testing_criteria": [
        {"type": "azure_ai_evaluator", "name": "accuracy", "evaluator_name": "builtin.tool_call_accuracy"},
        {"type": "azure_ai_evaluator", "name": "relevance", "evaluator_name": "builtin.relevance"}
    ]});
    let row = |tool: &str| {
        json!({
            "query": "Latest news on Paris? [[judge:score=5]]",
            "response": [
                {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": tool, "arguments": {"requesturl": "paris", "input": "paris"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": "Paris news"}]},
                {"role": "assistant", "content": [{"type": "text", "text": "Here is the news."}]}
            ],
            "tool_definitions": [{"name": "search_news", "description": "News search", "parameters": {"type": "object", "properties": {"input": {"type": "string"}}}}]
        })
    };
    let file = dir.join("rows.jsonl");
    std::fs::write(
        &file,
        format!(
            "{config}\n{}\n{}\n",
            row("bing_grounding"),
            row("search_news")
        ),
    )
    .unwrap();
    let rows = support::rows_with_openai_judge(&file, &judge.url());
    assert_eq!(rows[0]["accuracy_result"], "pass", "{:#}", rows[0]);
    let warning = rows[0]["accuracy_properties"]["warning"]
        .as_str()
        .unwrap_or("");
    assert!(
        warning.starts_with("limited support: the conversation calls bing_grounding,"),
        "{:#}",
        rows[0]
    );
    assert!(
        rows[0]["relevance_properties"].get("warning").is_none(),
        "relevance is not one of the judges the page names"
    );
    assert_eq!(rows[1]["accuracy_result"], "pass", "{:#}", rows[1]);
    assert!(rows[1]["accuracy_properties"].get("warning").is_none());
    std::fs::remove_dir_all(&dir).ok();
}
