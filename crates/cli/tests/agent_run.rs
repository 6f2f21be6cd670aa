//! `agenteval run` and `agenteval score --target` against the local demo agent
//! (`agenteval-judge-server`'s `/agent` routes), for every target kind: threads held in one
//! conversation in order, Direct Line replies joined from several activities, rate limits
//! retried, an expired conversation restarted once and noted, keys absent from every output, and
//! the Copilot Studio import example run and scored in one pass.

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

const KEY: &str = "agent-key-4b9e7c21d0";

fn server(key: Option<&str>) -> RunningServer {
    start(ServerConfig {
        key: key.map(str::to_owned),
        ..ServerConfig::default()
    })
    .expect("the demo agent starts")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agenteval-agent-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The target configuration of `kind` against `agent`; keyed targets read `AGENT_KEY`.
fn target(agent: &RunningServer, kind: &str, keyed: bool) -> Value {
    let url = agent.url();
    let mut target = match kind {
        "directline" => {
            json!({"kind": "directline", "endpoint": format!("{url}/agent/v3/directline"),
            "secretEnv": "AGENT_KEY", "quietMs": 300, "timeoutMs": 20000})
        }
        "directline-token" => {
            json!({"kind": "directline", "endpoint": format!("{url}/agent/v3/directline"),
            "tokenEndpoint": format!("{url}/agent/directline/token"), "quietMs": 300})
        }
        "responses" => {
            json!({"kind": "responses", "endpoint": format!("{url}/agent/openai/v1"), "model": "demo-agent"})
        }
        "chat" => {
            json!({"kind": "chat", "endpoint": format!("{url}/agent/v1"), "model": "demo-agent", "system": "You are the HR agent."})
        }
        "a2a" => json!({"kind": "a2a", "endpoint": format!("{url}/agent/a2a")}),
        "http" => json!({"kind": "http", "url": format!("{url}/agent/http"),
            "body": {"prompt": "{{prompt}}", "conversation_id": "{{conversation_id}}"},
            "reply": {"text": "/reply/text", "citations": "/reply/citations", "toolCalls": "/reply/tool_calls"}}),
        other => panic!("no target {other}"),
    };
    if keyed && kind != "directline" {
        let field = if kind == "http" { "headers" } else { "keyEnv" };
        target[field] = if kind == "http" {
            json!({"Authorization": "Bearer {{env.AGENT_KEY}}"})
        } else {
            json!("AGENT_KEY")
        };
    }
    target
}

/// Runs `agenteval ARGS` with `AGENT_KEY` set to `key` (the demo secret when `None`).
fn agenteval(args: &[&str], key: Option<&str>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args(args)
        .current_dir(support::root())
        .env("AGENT_KEY", key.unwrap_or("demo-directline-secret"))
        .env_remove("AZURE_AI_OPENAI_ENDPOINT")
        .output()
        .expect("agenteval runs")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("file written");
    path.display().to_string()
}

/// `agenteval run DATASET --target T --run-report R ARGS…`: the output, the dataset written and
/// the run report.
fn run(
    dir: &Path,
    dataset: &str,
    target: &Value,
    key: Option<&str>,
    extra: &[&str],
) -> (Output, String, Value) {
    let target_file = write(dir, "target.json", &target.to_string());
    let report_file = dir.join("run-report.json").display().to_string();
    let mut args = vec![
        "run",
        dataset,
        "--target",
        &target_file,
        "--run-report",
        &report_file,
    ];
    args.extend_from_slice(extra);
    let output = agenteval(&args, key);
    let written = String::from_utf8_lossy(&output.stdout).into_owned();
    let report = std::fs::read_to_string(&report_file)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    (output, written, report)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const THREAD: &str = r#"{"schemaVersion": "1.11.0", "items": [
    {"name": "parking", "turns": [{"prompt": "Where can visitors park?"}, {"prompt": "When is it open?"}]},
    {"prompt": "How many vacation days do new employees get?"}
]}"#;

#[test]
fn every_target_holds_a_thread_in_one_conversation_in_order() {
    let agent = server(None);
    let dir = scratch("threads");
    let dataset = write(&dir, "thread.json", THREAD);
    for kind in [
        "directline",
        "directline-token",
        "responses",
        "chat",
        "a2a",
        "http",
    ] {
        let (output, written, report) =
            run(&dir, &dataset, &target(&agent, kind, false), None, &[]);
        assert_eq!(output.status.code(), Some(0), "{kind}: {}", stderr(&output));
        let document: Value =
            serde_json::from_str(&written).unwrap_or_else(|_| panic!("{kind}: {written}"));
        let turns = &document["items"][0]["turns"];
        let first = turns[0]["response"]
            .as_str()
            .unwrap_or_default()
            .to_lowercase();
        let second = turns[1]["response"]
            .as_str()
            .unwrap_or_default()
            .to_lowercase();
        assert!(first.contains("garage b"), "{kind}: {first}");
        assert!(
            second.contains("open"),
            "{kind}: the follow-up is answered in context: {second}"
        );
        let single = document["items"][1]["response"]
            .as_str()
            .unwrap_or_default();
        assert!(single.contains("20"), "{kind}: {single}");
        let run = &document["items"][1]["extensions"]["agenteval.run"];
        assert!(run["latencyMs"].is_u64(), "{kind}: {run}");
        assert_eq!(report["answered"], 3, "{kind}: {report}");
        assert_eq!(report["entries"][0]["turn"], 1, "{kind}");
        assert_eq!(report["entries"][1]["turn"], 2, "{kind}");
    }
    let stats = agent.stats();
    assert_eq!(
        stats.agent_requests.get("directline.start"),
        Some(&4),
        "one conversation per item, threads included, over the two Direct Line runs: {:?}",
        stats.agent_requests
    );
}

#[test]
fn direct_line_replies_are_joined_from_their_activities_with_citations() {
    let agent = server(None);
    let dir = scratch("joined");
    let dataset = write(
        &dir,
        "travel.json",
        r#"{"schemaVersion": "1.11.0", "items": [{"prompt": "Summarize the travel policy."}]}"#,
    );
    let (output, written, _) = run(
        &dir,
        &dataset,
        &target(&agent, "directline", false),
        None,
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let item = &serde_json::from_str::<Value>(&written).unwrap()["items"][0];
    let response = item["response"].as_str().unwrap();
    let parts: Vec<&str> = response.split("\n\n").collect();
    assert_eq!(
        parts.len(),
        2,
        "two bot messages joined with a blank line: {response:?}"
    );
    assert!(
        parts[0].contains("[1]") && parts[1].contains("[2]"),
        "{response}"
    );
    let citations = item["citations"].as_array().unwrap();
    assert_eq!(citations.len(), 2, "{item}");
    assert!(citations[0]["source"]
        .as_str()
        .unwrap()
        .starts_with("https://"));
    assert_eq!(citations[0]["index"], 1);
}

#[test]
fn rate_limits_are_retried_and_an_expired_conversation_is_restarted_once_and_noted() {
    let agent = server(None);
    let dir = scratch("faults");
    let dataset = write(
        &dir,
        "faults.json",
        r#"{"schemaVersion": "1.11.0", "items": [
            {"prompt": "How long is paid parental leave? [[agent:fault=429*1]]"},
            {"prompt": "Where can visitors park? [[agent:fault=expire*1]]"},
            {"prompt": "How many vacation days? [[agent:fault=500*9]]"}
        ]}"#,
    );
    let (output, written, report) = run(
        &dir,
        &dataset,
        &target(&agent, "directline", false),
        None,
        &["--target-retries", "2"],
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "one item failed: {}",
        stderr(&output)
    );
    let document: Value = serde_json::from_str(&written).unwrap();
    assert!(document["items"][0]["response"]
        .as_str()
        .unwrap()
        .contains("16 weeks"));
    assert!(report["rateLimited"].as_u64().unwrap() >= 1, "{report}");
    assert!(report["retries"].as_u64().unwrap() >= 1, "{report}");
    let restarted = &document["items"][1];
    assert!(restarted["response"]
        .as_str()
        .unwrap()
        .to_lowercase()
        .contains("garage b"));
    let notes = restarted["extensions"]["agenteval.run"]["notes"].to_string();
    assert!(notes.contains("expired and was restarted"), "{notes}");
    assert!(
        stderr(&output).contains("items[1]: note: the Direct Line conversation"),
        "{}",
        stderr(&output)
    );
    let failed = &document["items"][2];
    assert!(failed.get("response").is_none());
    let error = &failed["extensions"]["agenteval.run"]["error"];
    assert_eq!(error["code"], "agentError");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("Direct Line: post the prompt: the endpoint answered 500"),
        "{error}"
    );
    assert!(
        stderr(&output).contains("items[2]: agentError: Direct Line: post the prompt"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        agent.stats().agent_requests.get("directline.start"),
        Some(&4)
    );
}

#[test]
fn keys_are_absent_from_every_output() {
    let agent = server(Some(KEY));
    let dir = scratch("keys");
    let dataset = write(
        &dir,
        "echo.jsonl",
        "{\"query\": \"Where can visitors park?\"}\n{\"query\": \"How many vacation days do new employees get?\"}\n",
    );
    for kind in ["directline", "responses", "chat", "a2a", "http"] {
        let (output, written, report) =
            run(&dir, &dataset, &target(&agent, kind, true), Some(KEY), &[]);
        assert_eq!(output.status.code(), Some(0), "{kind}: {}", stderr(&output));
        let rows: Vec<Value> = written
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert!(
            rows[1]["response"].to_string().contains("20"),
            "{kind}: {written}"
        );
        for (what, text) in [
            ("stdout", written.clone()),
            ("stderr", stderr(&output)),
            ("run report", report.to_string()),
        ] {
            assert!(
                !text.contains(KEY),
                "{kind}: the key is in the {what}: {text}"
            );
        }
    }
    let (refused, _, report) = run(
        &dir,
        &dataset,
        &target(&agent, "chat", true),
        Some("agent-key-wrong-000"),
        &[],
    );
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        report["entries"][0]["error"]["code"], "agentAuthenticationError",
        "{report}"
    );
    assert!(!stderr(&refused).contains("agent-key-wrong-000"));
    let missing = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args([
            "run",
            &dataset,
            "--target",
            &write(&dir, "t.json", &target(&agent, "chat", true).to_string()),
        ])
        .env_remove("AGENT_KEY")
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("the environment variable AGENT_KEY is not set"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn the_copilot_studio_import_set_is_run_and_scored_in_one_pass() {
    let agent = server(None);
    let dir = scratch("import");
    let target_file = write(
        &dir,
        "target.json",
        &target(&agent, "directline", false).to_string(),
    );
    let judge = format!("{}/v1", agent.url());
    let output = agenteval(
        &[
            "score",
            "examples/copilot-studio-import.csv",
            "--target",
            &target_file,
            "--judge-kind",
            "openai",
            "--judge-endpoint",
            &judge,
            "--judge-model",
            "demo-judge",
            "--no-judge-cache",
            "--format",
            "report",
        ],
        None,
    );
    let report: Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{}", stderr(&output)));
    let items = report["items"].as_array().unwrap();
    assert_eq!(items.len(), 6);
    for item in items {
        let result = &item["results"][0];
        assert_eq!(result["evaluator"], "GeneralQuality", "{item:#}");
        assert!(
            result["result"] == "pass" || result["result"] == "fail",
            "judged on the agent's reply: {item:#}"
        );
        assert!(result["score"].is_number(), "{item:#}");
    }
    let unanswered = agenteval(
        &[
            "score",
            "examples/copilot-studio-import.csv",
            "--judge-kind",
            "openai",
            "--judge-endpoint",
            &judge,
            "--judge-model",
            "demo-judge",
            "--no-judge-cache",
            "--format",
            "report",
        ],
        None,
    );
    let unanswered: Value = serde_json::from_slice(&unanswered.stdout).unwrap();
    assert_eq!(
        unanswered["items"][0]["results"][0]["error"]["code"], "emptyAgentResponse",
        "without --target the set has no response to score: {unanswered:#}"
    );
    assert!(
        stderr(&output).contains("agent (directline): 6 answered"),
        "{}",
        stderr(&output)
    );
    let filled = agenteval(
        &[
            "run",
            "examples/copilot-studio-import.csv",
            "--target",
            &target_file,
        ],
        None,
    );
    let csv = String::from_utf8_lossy(&filled.stdout);
    assert!(
        csv.starts_with("question,expectedResponse,actualResponse\r\n"),
        "{csv}"
    );
    assert_eq!(
        csv.matches("\r\n").count(),
        7,
        "the header and six records: {csv}"
    );
    assert!(
        csv.contains("\"New employees get 20 vacation days per year [1]."),
        "{csv}"
    );
}
