//! Attacks on the CLI replayed against local judge servers on 127.0.0.1 (issue 38): the key
//! never follows a redirect to another origin.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::PathBuf;
use std::process::Command;

use agenteval_judge_server::{start, RunningServer, ServerConfig};
use serde_json::{json, Value};

const KEY: &str = "sk-security-test-9c1e";
const CHAT_PATH: &str = "/openai/deployments/gpt-4o-judge/chat/completions?api-version=2024-10-21";

fn server(key: Option<&str>) -> RunningServer {
    start(ServerConfig {
        key: key.map(str::to_owned),
        ..ServerConfig::default()
    })
    .expect("a local judge starts")
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("agenteval-security-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Scores one Relevance item whose prompt carries `directives`, against `judge` (azure kind,
/// with the key), and returns its result.
fn relevance(name: &str, judge: &RunningServer, directives: &str) -> Value {
    let dir = scratch(name);
    let file = dir.join("dataset.json");
    let dataset = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"Relevance": {}},
        "items": [{"prompt": format!("What is the capital of France? {directives}"), "response": "Paris."}]
    });
    std::fs::write(&file, dataset.to_string()).expect("dataset written");
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(&file)
        .args([
            "--format",
            "report",
            "--no-judge-cache",
            "--judge-retries",
            "1",
        ])
        .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env("AZURE_AI_API_KEY", KEY)
        .output()
        .expect("agenteval runs");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "a report on stdout; stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains(KEY), "{stderr}");
    assert!(!String::from_utf8_lossy(&output.stdout).contains(KEY));
    report["items"][0]["results"][0].clone()
}

#[test]
fn a_redirect_to_another_origin_is_refused_before_anything_reaches_it() {
    let judge = server(Some(KEY));
    let elsewhere = server(None);
    for status_directive in ["redirect", "redirect*1"] {
        let result = relevance(
            "cross-origin",
            &judge,
            &format!(
                "[[judge:fault={status_directive}]] [[judge:location={}{CHAT_PATH}]]",
                elsewhere.url()
            ),
        );
        assert_eq!(result["result"], "error", "{result}");
        assert_eq!(result["error"]["code"], "evaluatorConfigurationError");
        let message = result["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("another origin ({})", elsewhere.url())),
            "{message}"
        );
        assert!(
            message.contains("configure that endpoint directly"),
            "{message}"
        );
    }
    assert_eq!(
        elsewhere.stats().requests,
        0,
        "nothing was sent to the other origin"
    );
    assert_eq!(
        judge.stats().by_status.get(&307),
        Some(&2),
        "one request each, not retried"
    );
}

#[test]
fn a_redirect_within_the_origin_is_followed_with_the_key() {
    let judge = server(Some(KEY));
    let result = relevance(
        "same-origin",
        &judge,
        &format!("[[judge:fault=redirect*1]] [[judge:location={CHAT_PATH}&moved=1]]"),
    );
    assert!(result["score"].is_number(), "{result}");
    let stats = judge.stats();
    assert_eq!(stats.by_status.get(&307), Some(&1));
    assert_eq!(stats.by_status.get(&200), Some(&1));
    assert_eq!(
        stats.unauthorized, 0,
        "the key went with the same-origin hop"
    );
}

#[test]
fn a_key_that_cannot_travel_in_a_header_is_refused_up_front_without_being_shown() {
    let judge = server(Some(KEY));
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args(["score", "examples/m365-demo.json", "--no-judge-cache"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env("AZURE_AI_API_KEY", "sk-line\r\nX-Injected: yes")
        .output()
        .expect("agenteval runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("AZURE_AI_API_KEY: expected a key of printable ASCII characters"),
        "{stderr}"
    );
    assert!(!stderr.contains("sk-line"), "{stderr}");
    assert_eq!(judge.stats().requests, 0);
}

#[test]
fn absurd_judge_limits_and_bad_ports_are_refused_up_front() {
    for (flags, expected) in [
        (
            &["--judge-concurrency", "100000"][..],
            "--judge-concurrency: expected a whole number from 1 to 256",
        ),
        (
            &["--judge-retries", "1000000"][..],
            "--judge-retries: expected a whole number from 0 to 100",
        ),
        (
            &["--judge-endpoint", "http://127.0.0.1:70000"][..],
            "--judge-endpoint: expected an http(s) URL",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
            .args(["score", "examples/m365-demo.json", "--judge-model", "m"])
            .args(flags)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .env("AZURE_AI_OPENAI_ENDPOINT", "http://127.0.0.1:9")
            .output()
            .expect("agenteval runs");
        assert_eq!(output.status.code(), Some(2), "{flags:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{flags:?}: {stderr}");
    }
}

#[test]
fn control_characters_from_the_data_are_shown_not_sent_to_the_terminal() {
    let dir = scratch("escapes");
    let rows = dir.join("rows.jsonl");
    let name = "f1\u{1b}]0;pwned\u{7}\u{1b}[2J\rFAKE: all passed";
    let config = json!({"testing_criteria": [{"type": "azure_ai_evaluator", "name": name,
        "evaluator_name": "builtin.f1_score"}]});
    let text = format!(
        "{config}\n{}\n{}\n",
        json!({"response": "a b", "ground_truth": "a b"}),
        json!({"response": "x", "ground_truth": "y", "\u{1b}[31mkey": 1})
    );
    std::fs::write(&rows, text).expect("rows written");
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(&rows)
        .output()
        .expect("agenteval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    assert!(
        !stderr.contains('\r') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
    assert!(
        stderr.contains("f1\\x1b]0;pwned\\x07\\x1b[2J\\rFAKE: all passed"),
        "{stderr}"
    );
    let missing = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(dir.join("no-such-\u{1b}[2J.json"))
        .output()
        .expect("agenteval runs");
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        !stderr.contains('\u{1b}') && stderr.contains("no-such-\\x1b[2J.json"),
        "{stderr:?}"
    );
}

#[test]
fn an_unreadable_jsonl_row_becomes_an_error_row_at_the_position_validate_gives() {
    let dir = scratch("unreadable-row");
    let rows = dir.join("rows.jsonl");
    let config = json!({"testing_criteria": [{"type": "azure_ai_evaluator", "name": "f1",
        "evaluator_name": "builtin.f1_score"}]});
    std::fs::write(
        &rows,
        format!(
            "{config}\n{{\"response\": \"a b\", \"ground_truth\": \"a b\"}}\n  {{\"response\": \"c\" oops}}\r\n{{\"response\": \"d e\", \"ground_truth\": \"d e\"}}\n"
        ),
    )
    .expect("rows written");
    let run = |command: &str| {
        Command::new(env!("CARGO_BIN_EXE_agenteval"))
            .arg(command)
            .arg(&rows)
            .output()
            .expect("agenteval runs")
    };
    let scored = run("score");
    let lines: Vec<Value> = String::from_utf8_lossy(&scored.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(
        lines.len(),
        3,
        "every row is written, the unreadable one too"
    );
    assert_eq!(lines[1]["row_line"], 3);
    assert_eq!(lines[1]["row_text"], "{\"response\": \"c\" oops}");
    assert_eq!(
        lines[1]["row_error"],
        "line 3, column 20: expected `,` or `}` after the object member"
    );
    assert_eq!(lines[2]["f1_result"], "pass");
    let position = "rows.jsonl:3:20: error";
    assert!(String::from_utf8_lossy(&scored.stderr).contains(position));
    assert!(String::from_utf8_lossy(&run("validate").stderr).contains(position));
}

/// A server that answers every request with a 200 whose body never ends (chunked), or declares
/// `content_length` and sends nothing; returns its URL and the bytes it managed to send.
fn endless_server(
    content_length: Option<u64>,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    let sent = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = sent.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(4) {
            let Ok(mut stream) = stream else { continue };
            let mut head = [0u8; 65536];
            let _ = stream.read(&mut head);
            let header = match content_length {
                Some(length) => format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {length}\r\n\r\n"),
                None => "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n".to_owned(),
            };
            if stream.write_all(header.as_bytes()).is_err() || content_length.is_some() {
                std::thread::sleep(std::time::Duration::from_secs(2));
                continue;
            }
            let chunk = format!("10000\r\n{}\r\n", "x".repeat(0x10000));
            // Bounded: 256 MiB at most, far past the 4 MiB limit.
            for _ in 0..4096 {
                if stream.write_all(chunk.as_bytes()).is_err() {
                    break;
                }
                counter.fetch_add(0x10000, Ordering::Relaxed);
            }
        }
    });
    (url, sent)
}

#[test]
fn an_endless_or_huge_judge_reply_is_given_up_at_the_limit() {
    for content_length in [None, Some(4_294_967_296)] {
        let (url, sent) = endless_server(content_length);
        let dir = scratch("endless");
        let file = dir.join("dataset.json");
        std::fs::write(
            &file,
            json!({"schemaVersion": "1.11.0", "default_evaluators": {"Relevance": {}},
                "items": [{"prompt": "p", "response": "r"}]})
            .to_string(),
        )
        .expect("dataset written");
        let started = std::time::Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
            .arg("score")
            .arg(&file)
            .args([
                "--format",
                "report",
                "--no-judge-cache",
                "--judge-timeout",
                "20",
            ])
            .env("AZURE_AI_OPENAI_ENDPOINT", &url)
            .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
            .output()
            .expect("agenteval runs");
        let report: Value = serde_json::from_slice(&output.stdout).expect("a report");
        let result = &report["items"][0]["results"][0];
        assert_eq!(result["error"]["code"], "evaluatorError", "{result}");
        let message = result["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("larger than 4194304 bytes"), "{message}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(15),
            "given up at once, not at the time-out"
        );
        let written = sent.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            written < 64 << 20,
            "{content_length:?}: the client stopped reading ({written} bytes sent)"
        );
    }
}

#[test]
fn endless_or_binary_inputs_are_refused_at_their_first_bytes() {
    let dir = scratch("inputs");
    let rows = dir.join("row.jsonl");
    std::fs::write(&rows, "{\"response\": \"a\", \"ground_truth\": \"a\"}\n").expect("rows");
    let config = dir.join("config.json");
    std::fs::write(
        &config,
        json!({"testing_criteria": [{"type": "azure_ai_evaluator",
        "name": "f1", "evaluator_name": "builtin.f1_score"}]})
        .to_string(),
    )
    .expect("config");
    let (rows, config) = (
        rows.to_string_lossy().into_owned(),
        config.to_string_lossy().into_owned(),
    );
    let zero = "/dev/zero";
    let custom = format!("X={zero}");
    for (arguments, named) in [
        (vec!["validate", zero], "/dev/zero: byte 0 is NUL"),
        (vec!["score", zero], "/dev/zero: byte 0 is NUL"),
        (
            vec!["score", &rows, "--config", zero],
            "/dev/zero: byte 0 is NUL",
        ),
        (
            vec![
                "score",
                &rows,
                "--config",
                &config,
                "--custom-evaluator",
                &custom,
            ],
            "--custom-evaluator X=/dev/zero: /dev/zero: byte 0 is NUL",
        ),
    ] {
        let started = std::time::Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
            .args(&arguments)
            .output()
            .expect("agenteval runs");
        assert_eq!(output.status.code(), Some(2), "{arguments:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(named), "{arguments:?}: {stderr}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{arguments:?}"
        );
    }
    let stdin = std::fs::File::open(zero).expect("/dev/zero");
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args(["score", "-"])
        .stdin(stdin)
        .output()
        .expect("agenteval runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("<stdin>: byte 0 is NUL"));
}

#[test]
fn deployments_a_dataset_names_are_shown_with_their_request_counts() {
    let judge = server(Some(KEY));
    let dir = scratch("deployments");
    let rows = dir.join("rows.jsonl");
    let config = json!({"testing_criteria": [{"type": "azure_ai_evaluator", "name": "relevance",
        "evaluator_name": "builtin.relevance",
        "initialization_parameters": {"deployment_name": "pricey-deployment"}}]});
    let row = json!({"query": "What is the capital of France?", "response": "Paris."});
    std::fs::write(&rows, format!("{config}\n{row}\n{row}\n")).expect("rows written");
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(&rows)
        .args(["--format", "report", "--no-judge-cache"])
        .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env("AZURE_AI_API_KEY", KEY)
        .output()
        .expect("agenteval runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "judge requests per deployment (the dataset names its own): pricey-deployment 2"
        ),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("a report");
    assert_eq!(report["judge"]["model"], "gpt-4o-judge");
    assert_eq!(
        report["judge"]["deployments"],
        json!({"pricey-deployment": 2})
    );
}

#[test]
fn the_integer_negative_zero_is_written_back_as_written() {
    let dir = scratch("negative-zero");
    let rows = dir.join("rows.jsonl");
    let config = json!({"testing_criteria": [{"type": "azure_ai_evaluator", "name": "f1",
        "evaluator_name": "builtin.f1_score"}]});
    std::fs::write(
        &rows,
        format!("{config}\n{{\"response\": \"Paris\", \"ground_truth\": \"Paris\", \"n\": -0, \"f\": -0.0, \"l\": [-0, 0]}}\n"),
    )
    .expect("rows written");
    let document = dir.join("document.json");
    std::fs::write(
        &document,
        r#"{"schemaVersion": "1.0.0", "items": [{"prompt": "q", "response": "a", "expected_response": "a", "extensions": {"n": -0, "f": -0.0}, "evaluators": {"ExactMatch": {}}}]}"#,
    )
    .expect("document written");
    let score = |file: &PathBuf, format: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
            .args(["score", "--format", format])
            .arg(file)
            .output()
            .expect("agenteval runs");
        assert!(output.status.success(), "{format}: {output:?}");
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let row = score(&rows, "foundry");
    assert!(
        row.contains(r#""n":-0,"f":-0.0,"l":[-0,0]"#),
        "the row keeps its numbers: {row}"
    );
    let scored = score(&document, "document");
    assert!(scored.contains("\"n\": -0,"), "{scored}");
    assert!(scored.contains("\"f\": -0.0"), "{scored}");
}
