//! Every agent fault on every request-reply protocol (Responses, chat, A2A, generic HTTP), end to
//! end over TCP: the status and headers each kind answers with, a hang closing the connection, a
//! truncated body, `*N` giving way to the normal reply, and the stats counting each.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::time::{Duration, Instant};

use agenteval_judge_server::{start, ServerConfig};
use common::Client;
use serde_json::{json, Value};

/// A protocol's request carrying a prompt.
type RequestFor = fn(&str) -> Value;

/// Each protocol's path and its request.
fn protocols() -> Vec<(&'static str, RequestFor)> {
    vec![
        (
            "/agent/openai/v1/responses",
            |prompt| json!({"model": "m", "input": prompt}),
        ),
        (
            "/agent/v1/chat/completions",
            |prompt| json!({"messages": [{"role": "user", "content": prompt}]}),
        ),
        ("/agent/a2a", |prompt| {
            json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {
                "role": "user", "messageId": "m", "parts": [{"kind": "text", "text": prompt}]
            }}})
        }),
        ("/agent/http", |prompt| json!({"prompt": prompt})),
    ]
}

#[test]
fn every_http_level_fault_answers_on_every_protocol() {
    let server = start(ServerConfig {
        hang: Duration::from_millis(100),
        retry_after_ms: 1500,
        ..ServerConfig::default()
    })
    .expect("server starts");
    let mut client = Client::new(&server.url());
    let kinds = [
        ("429", 429),
        ("500", 500),
        ("502", 502),
        ("503", 503),
        ("401", 401),
        ("403", 403),
        ("expire", 403),
        ("notjson-body", 200),
    ];
    for (path, request) in protocols() {
        for (kind, status) in kinds {
            let reply = client.post(
                path,
                &request(&format!("Where do I park? [[agent:fault={kind}]]")),
            );
            assert_eq!(reply.status, status, "{path} {kind}");
            match kind {
                "429" => {
                    assert_eq!(reply.header("retry-after"), Some("2"));
                    assert_eq!(reply.header("retry-after-ms"), Some("1500"));
                }
                "notjson-body" => assert!(serde_json::from_slice::<Value>(&reply.body).is_err()),
                _ => assert!(
                    reply.json()["error"]["message"].is_string(),
                    "{path} {kind}"
                ),
            }
        }
        let started = Instant::now();
        let hung = client.post(path, &request("x [[agent:fault=hang]]"));
        assert!(hung.closed && hung.status == 0, "{path}: hang answered");
        assert!(started.elapsed() >= Duration::from_millis(90));
        let truncated = client.post(path, &request("Where do I park? [[agent:fault=truncated]]"));
        assert_eq!(truncated.status, 200);
        assert!(truncated.closed);
        assert!(
            truncated.body.len() < truncated.announced.unwrap(),
            "{path}: body whole"
        );
    }
    let stats = server.stats();
    for (kind, _) in kinds {
        assert_eq!(stats.faults[kind], 4, "{kind}");
    }
    assert_eq!(stats.faults["hang"], 4);
    assert_eq!(stats.faults["truncated"], 4);
}

#[test]
fn counted_faults_give_way_to_the_normal_reply_on_every_protocol() {
    let server = start(ServerConfig::default()).expect("server starts");
    let mut client = Client::new(&server.url());
    for (path, request) in protocols() {
        let body = request("Where do I park? [[agent:fault=502*2]]");
        assert_eq!(client.post(path, &body).status, 502, "{path}");
        assert_eq!(client.post(path, &body).status, 502, "{path}");
        let answered = client.post(path, &body);
        assert_eq!(answered.status, 200, "{path}");
        let text = String::from_utf8_lossy(&answered.body).to_string();
        assert!(text.contains("garage B"), "{path}: {text}");
        assert!(
            !text.contains("[[agent:"),
            "{path}: the directive is in the reply: {text}"
        );
    }
    assert_eq!(server.stats().faults["502"], 8);
}
