//! The `agenteval` binary with a judge: every standard judge through the local judge server
//! (`agenteval-judge-server`), over each endpoint kind, with its faults, the key, the cache and
//! the figures it reports.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use agenteval_judge_server::{start, RunningServer, ServerConfig};
use serde_json::{json, Value};

const KEY: &str = "sk-test-key-7f3a";

fn server(config: ServerConfig) -> RunningServer {
    start(config).expect("the local judge starts")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agenteval-judge-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Runs `agenteval score FILE --format report` against `url` (azure kind through the M365
/// variables) with `extra` flags; returns the output and the parsed report.
fn score(dir: &Path, dataset: &Value, url: &str, extra: &[&str]) -> (Output, Value) {
    let file = dir.join("dataset.json");
    std::fs::write(&file, dataset.to_string()).expect("dataset written");
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(&file)
        .args(["--format", "report", "--judge-cache-dir"])
        .arg(dir.join("cache"))
        .args(extra)
        .env("AZURE_AI_OPENAI_ENDPOINT", url)
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env("AZURE_AI_API_KEY", KEY)
        .env("AZURE_AI_API_VERSION", "2024-10-21")
        .output()
        .expect("agenteval runs");
    let report = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output, report)
}

fn document(evaluators: Value, items: Value) -> Value {
    json!({"schemaVersion": "1.11.0", "default_evaluators": evaluators, "items": items})
}

fn item(response: &str) -> Value {
    json!({"prompt": "What is the capital of France?", "response": response, "expected_response": "Paris", "context": "Paris is the capital of France."})
}

fn result<'r>(report: &'r Value, index: usize, evaluator: &str) -> &'r Value {
    report["items"][index]["results"]
        .as_array()
        .and_then(|results| {
            results
                .iter()
                .find(|result| result["evaluator"] == evaluator)
        })
        .unwrap_or_else(|| panic!("no {evaluator} result for item {index}: {report:#}"))
}

fn code(result: &Value) -> &str {
    result["error"]["code"].as_str().unwrap_or("")
}

#[test]
fn every_m365_judge_gets_a_verdict_from_the_judge_on_its_scale() {
    let judge = server(ServerConfig {
        key: Some(KEY.into()),
        ..ServerConfig::default()
    });
    let dir = scratch("m365");
    let likert = [
        "Relevance",
        "Coherence",
        "Fluency",
        "Groundedness",
        "Similarity",
        "Retrieval",
        "ResponseCompleteness",
        "IntentResolution",
    ];
    let binary = ["TaskAdherence", "TaskCompletion", "ToolCallSuccess"];
    let evaluators: serde_json::Map<String, Value> = likert
        .iter()
        .chain(&binary)
        .map(|name| ((*name).to_owned(), json!({})))
        .collect();
    let (output, report) = score(
        &dir,
        &document(
            Value::Object(evaluators),
            json!([item("Paris is the capital of France."), item("Lyon.")]),
        ),
        &judge.url(),
        // One call at a time, so the second item's Retrieval request is sent after the first's
        // answer is cached, however loaded the machine.
        &["--no-judge-cache", "--judge-concurrency", "1"],
    );
    assert!(
        output.status.code() == Some(0) || output.status.code() == Some(1),
        "{output:?}"
    );
    for index in 0..2 {
        for name in likert {
            let result = result(&report, index, name);
            let score = result["score"]
                .as_f64()
                .unwrap_or_else(|| panic!("{name}: {result}"));
            assert!((1.0..=5.0).contains(&score), "{name}: {result}");
            assert_eq!(result["threshold"], 3.0);
            assert_eq!(result["result"], if score >= 3.0 { "pass" } else { "fail" });
            assert!(result["reason"]
                .as_str()
                .unwrap_or("")
                .starts_with("local judge"));
            assert!(result["usage"]["total_tokens"].as_u64().unwrap_or(0) > 0);
            assert_eq!(
                result["details"]["prompt_version"],
                format!("{}/v1", snake(name))
            );
        }
        for name in binary {
            let result = result(&report, index, name);
            let score = result["score"]
                .as_f64()
                .unwrap_or_else(|| panic!("{name}: {result}"));
            assert!(score == 0.0 || score == 1.0, "{name}: {result}");
            assert_eq!(result["threshold"], 1.0);
        }
    }
    let figures = &report["judge"];
    assert_eq!(figures["endpoint"], "azure");
    assert_eq!(figures["calls"], 22, "{figures}");
    assert_eq!(
        figures["cache_hits"], 1,
        "Retrieval sees only the query and context, the same for both items: one request serves both"
    );
    assert_eq!(figures["requests"], 21);
    assert_eq!(judge.stats().completions, 21);
    assert!(figures["usage"]["total_tokens"].as_u64().unwrap_or(0) > 0);
    assert_eq!(judge.stats().unauthorized, 0);
    let text = String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
    assert!(!text.contains(KEY), "the key leaked into the output");
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("judge (azure gpt-4o-judge): 22 calls, 1 from cache, 21 requests"));
}

fn snake(name: &str) -> String {
    let mut out = String::new();
    for (position, character) in name.chars().enumerate() {
        if character.is_ascii_uppercase() && position > 0 {
            out.push('_');
        }
        out.push(character.to_ascii_lowercase());
    }
    out
}

#[test]
fn judge_faults_end_in_their_outcomes_and_transient_ones_are_retried() {
    let judge = server(ServerConfig {
        retry_after_ms: 20,
        hang: Duration::from_secs(30),
        ..ServerConfig::default()
    });
    let dir = scratch("faults");
    let cases = [
        ("[[judge:score=4]]", "pass", ""),
        ("[[judge:score=2]]", "fail", ""),
        ("[[judge:score=\"5\"]]", "pass", ""),
        ("[[judge:score=7]]", "error", "judgeOutputUnparseable"),
        ("[[judge:score=null]]", "error", "judgeOutputUnparseable"),
        ("[[judge:fault=missing]]", "error", "judgeOutputUnparseable"),
        (
            "[[judge:fault=malformed]]",
            "error",
            "judgeOutputUnparseable",
        ),
        ("[[judge:fault=length]]", "error", "judgeOutputUnparseable"),
        ("[[judge:fault=refusal]]", "error", "judgeOutputUnparseable"),
        ("[[judge:fault=fence]]", "pass_or_fail", ""),
        ("[[judge:fault=tags]]", "pass_or_fail", ""),
        ("[[judge:skip]]", "skipped", ""),
        ("[[judge:fault=500*2]]", "pass_or_fail", ""),
        ("[[judge:fault=503*1]]", "pass_or_fail", ""),
        ("[[judge:fault=429*2]]", "pass_or_fail", ""),
        ("[[judge:fault=truncated*1]]", "pass_or_fail", ""),
        ("[[judge:fault=401]]", "error", "judgeAuthenticationError"),
        ("[[judge:fault=503]]", "error", "evaluatorError"),
        ("[[judge:fault=429]]", "error", "judgeRateLimited"),
        ("[[judge:fault=hang]]", "error", "judgeTimeout"),
    ];
    let items: Vec<Value> = cases
        .iter()
        .map(|(directive, _, _)| item(&format!("Paris. {directive}")))
        .collect();
    let (output, report) = score(
        &dir,
        &document(json!({"Relevance": {}}), Value::Array(items)),
        &judge.url(),
        &[
            "--judge-timeout",
            "1",
            "--judge-retries",
            "2",
            "--judge-concurrency",
            "4",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    for (index, (directive, expected, expected_code)) in cases.iter().enumerate() {
        let result = result(&report, index, "Relevance");
        let verdict = result["result"].as_str().unwrap_or("");
        match *expected {
            "pass_or_fail" => assert!(
                verdict == "pass" || verdict == "fail",
                "{directive}: {result}"
            ),
            _ => assert_eq!(verdict, *expected, "{directive}: {result}"),
        }
        assert_eq!(code(result), *expected_code, "{directive}: {result}");
        if verdict == "error" {
            assert!(
                result["score"].is_null(),
                "{directive}: a failure became a score"
            );
        }
    }
    assert_eq!(
        result(&report, 11, "Relevance")["reason"],
        "Not applicable: local judge: not applicable"
    );
    let figures = &report["judge"];
    assert!(figures["retries"].as_u64().unwrap_or(0) >= 6, "{figures}");
    assert!(
        figures["rate_limited"].as_u64().unwrap_or(0) >= 2,
        "{figures}"
    );
}

#[test]
fn a_rerun_is_served_from_the_cache_without_a_call() {
    let judge = server(ServerConfig::default());
    let dir = scratch("cache");
    let dataset = document(
        json!({"Relevance": {}, "Coherence": {}}),
        json!([item("Paris."), item("Lyon."), item("[[judge:score=9]]")]),
    );
    let (_, first) = score(&dir, &dataset, &judge.url(), &[]);
    assert_eq!(first["judge"]["cache_hits"], 0);
    assert_eq!(first["judge"]["requests"], 6);
    let (_, second) = score(&dir, &dataset, &judge.url(), &[]);
    assert_eq!(second["judge"]["cache_hits"], 4, "errors are not cached");
    assert_eq!(second["judge"]["requests"], 2);
    assert_eq!(first["items"][0], second["items"][0]);
    assert_eq!(judge.stats().completions, 8);
    let (_, third) = score(&dir, &dataset, &judge.url(), &["--no-judge-cache"]);
    assert_eq!(third["judge"]["cache_hits"], 0);
}

#[test]
fn foundry_criteria_run_every_builtin_judge_over_the_openai_kind() {
    let judge = server(ServerConfig::default());
    let dir = scratch("foundry");
    let ids = [
        "relevance",
        "coherence",
        "fluency",
        "groundedness",
        "similarity",
        "retrieval",
        "response_completeness",
        "intent_resolution",
        "tool_call_accuracy",
        "task_adherence",
        "task_completion",
        "tool_selection",
        "tool_input_accuracy",
        "tool_output_utilization",
        "tool_call_success",
    ];
    let criteria: Vec<Value> = ids
        .iter()
        .map(|id| json!({"type": "azure_ai_evaluator", "name": id, "evaluator_name": format!("builtin.{id}")}))
        .collect();
    let response = json!([
        {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp": 21}}]},
        {"role": "assistant", "content": [{"type": "text", "text": "It is 21 degrees in Paris."}]}
    ]);
    let row = json!({
        "query": [{"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]}],
        "response": response,
        "context": "Paris weather: 21 degrees.",
        "ground_truth": "21 degrees",
        "tool_definitions": [{"name": "get_weather", "description": "Weather by city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
    });
    let file = dir.join("rows.jsonl");
    std::fs::write(
        &file,
        format!("{}\n{}\n", json!({"testing_criteria": criteria}), row),
    )
    .expect("rows written");
    let scored = support::score_with_openai_judge(&file, &judge.url());
    for id in ids {
        let result = scored[format!("{id}_result")].as_str().unwrap_or("");
        assert!(result == "pass" || result == "fail", "{id}: {scored:#}");
        assert_eq!(scored[format!("{id}_status")], "completed", "{id}");
        assert!(scored[format!("{id}_reason")]
            .as_str()
            .is_some_and(|reason| !reason.is_empty()));
    }
    assert_eq!(judge.stats().completions, 15);
}

#[test]
fn without_a_judge_judged_evaluators_are_skipped() {
    let dir = scratch("none");
    let file = dir.join("dataset.json");
    std::fs::write(
        &file,
        document(json!({"Relevance": {}}), json!([item("Paris.")])).to_string(),
    )
    .expect("dataset written");
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args(["score"])
        .arg(&file)
        .args(["--format", "report"])
        .env_remove("AZURE_AI_OPENAI_ENDPOINT")
        .output()
        .expect("agenteval runs");
    let report: Value = serde_json::from_slice(&output.stdout).expect("a report");
    assert_eq!(result(&report, 0, "Relevance")["result"], "skipped");
    assert_eq!(
        result(&report, 0, "Relevance")["reason"],
        "no judge configured"
    );
    assert!(report.get("judge").is_none());
}

#[test]
fn bad_judge_settings_are_usage_errors() {
    let dir = scratch("bad");
    let dataset = document(json!({"Relevance": {}}), json!([item("Paris.")]));
    let (output, _) = score(&dir, &dataset, "not-a-url", &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("http(s) URL"));
    let (output, _) = score(
        &dir,
        &dataset,
        "http://127.0.0.1:9",
        &["--judge-kind", "bedrock"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("azure, azure-v1, openai"));
}

#[test]
fn ctrl_c_cancels_the_run_and_the_report_names_what_was_not_judged() {
    let judge = server(ServerConfig {
        hang: Duration::from_secs(120),
        ..ServerConfig::default()
    });
    let dir = scratch("ctrl-c");
    let file = dir.join("dataset.json");
    let dataset = document(
        json!({"Relevance": {}, "PartialMatch": {}}),
        json!([
            item("Paris. [[judge:fault=hang]]"),
            item("Paris."),
            item("Lyon.")
        ]),
    );
    std::fs::write(&file, dataset.to_string()).expect("dataset written");
    let out = dir.join("report.json");
    let child = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(&file)
        .args([
            "--format",
            "report",
            "--no-judge-cache",
            "--judge-timeout",
            "100",
            "--out",
        ])
        .arg(&out)
        .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("agenteval starts");
    let started = std::time::Instant::now();
    while judge.stats().completions < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the judge calls never arrived"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let interrupted = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(interrupted.success());
    let output = child.wait_with_output().expect("agenteval ends");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the hung call was aborted"
    );
    assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cancelled: 1 entries were not judged"),
        "{stderr}"
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(&out).expect("the report is written")).expect("JSON");
    assert_eq!(report["items"].as_array().map(Vec::len), Some(3));
    let hung = result(&report, 0, "Relevance");
    assert_eq!(hung["result"], "skipped");
    assert!(hung["reason"]
        .as_str()
        .unwrap_or("")
        .starts_with("cancelled"));
    assert_eq!(result(&report, 0, "PartialMatch")["result"], "pass");
    assert!(["pass", "fail"].contains(
        &result(&report, 1, "Relevance")["result"]
            .as_str()
            .unwrap_or("")
    ));
    assert_eq!(report["judge"]["cancelled"], true);
    assert_eq!(
        report["judge"]["not_reached"],
        json!([{"index": 0, "turn": null}])
    );
}

#[test]
fn the_markdown_and_html_reports_show_the_judges_figures_and_tokens() {
    let judge = server(ServerConfig::default());
    let dir = scratch("formats");
    let file = dir.join("dataset.json");
    std::fs::write(
        &file,
        document(
            json!({"Relevance": {}, "PartialMatch": {}}),
            json!([item("Paris.")]),
        )
        .to_string(),
    )
    .expect("dataset written");
    let run = |format: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
            .arg("score")
            .arg(&file)
            .args(["--no-judge-cache", "--format", format])
            .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
            .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
            .output()
            .expect("agenteval runs");
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let report: Value = serde_json::from_str(&run("report")).expect("JSON");
    let tokens = &report["summary"]["evaluators"]["Relevance"]["usage"];
    let total = tokens["total_tokens"].as_u64().expect("Relevance tokens");
    assert!(report["summary"]["evaluators"]["PartialMatch"]
        .get("usage")
        .is_none());
    let markdown = run("md");
    assert!(markdown.contains("## Judge"), "{markdown}");
    assert!(
        markdown.contains("| endpoint | azure gpt-4o-judge |"),
        "{markdown}"
    );
    assert!(
        markdown.contains(&format!(
            "| Relevance | {} | {} | {total} |",
            tokens["prompt_tokens"], tokens["completion_tokens"]
        )),
        "{markdown}"
    );
    assert!(!markdown.contains("| PartialMatch | 0"));
    let html = run("html");
    assert!(html.contains("<h2>Judge</h2>"));
    assert!(html.contains(&format!("<td class=\"num\">{total}</td>")));
}

#[test]
fn azure_v1_routes_and_a_criterions_own_model_reach_the_judge() {
    let judge = server(ServerConfig::default());
    let dir = scratch("v1");
    let criteria = json!({"testing_criteria": [
        {"type": "azure_ai_evaluator", "name": "default_model", "evaluator_name": "builtin.fluency"},
        {"type": "azure_ai_evaluator", "name": "own_model", "evaluator_name": "builtin.fluency",
         "initialization_parameters": {"deployment_name": "gpt-4o-mini-judge"}}
    ]});
    let file = dir.join("rows.jsonl");
    std::fs::write(
        &file,
        format!(
            "{criteria}\n{}\n",
            json!({"response": "Paris is the capital of France."})
        ),
    )
    .expect("rows written");
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(&file)
        .args([
            "--no-judge-cache",
            "--judge-kind",
            "azure-v1",
            "--judge-model",
            "gpt-4o-judge",
        ])
        .args(["--judge-endpoint", &format!("{}/openai/v1", judge.url())])
        .env_remove("AZURE_AI_OPENAI_ENDPOINT")
        .env_remove("AZURE_AI_API_KEY")
        .output()
        .expect("agenteval runs");
    let row: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(row["default_model_properties"]["model"], "gpt-4o-judge");
    assert_eq!(row["own_model_properties"]["model"], "gpt-4o-mini-judge");
    assert_eq!(judge.stats().completions, 2);
}
