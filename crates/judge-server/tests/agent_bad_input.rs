//! Bad input never breaks the demo agent: every agent route, sent bodies of every wrong shape
//! (not JSON, not UTF-8, deeply nested, wrong types, unclosed directives), answers each with a
//! status of its own — never a dropped connection or a 5xx — and the server answers normally
//! afterwards.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use agenteval_judge_server::{start, ServerConfig};
use common::Client;
use serde_json::json;

#[test]
fn every_agent_route_answers_every_bad_body() {
    let server = start(ServerConfig::default()).expect("server starts");
    let mut client = Client::new(&server.url());
    let secret = [("authorization", "Bearer demo-directline-secret")];
    let started = client.post_with("/agent/v3/directline/conversations", &secret, &json!({}));
    let conversation = started.json()["conversationId"]
        .as_str()
        .unwrap()
        .to_string();
    let activities = format!("/agent/v3/directline/conversations/{conversation}/activities");
    let routes = [
        ("POST", "/agent/v3/directline/conversations"),
        ("POST", activities.as_str()),
        ("GET", activities.as_str()),
        ("GET", "/agent/directline/token"),
        ("POST", "/agent/openai/v1/responses"),
        ("POST", "/agent/v1/chat/completions"),
        ("POST", "/agent/a2a"),
        ("GET", "/agent/a2a/.well-known/agent-card.json"),
        ("POST", "/agent/http"),
    ];
    let nested = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let mut bodies: Vec<Vec<u8>> = [
        "",
        "null",
        "[]",
        "{}",
        "\"text\"",
        "12e999",
        "{\"type\": \"message\", \"text\": 5}",
        "{\"type\": \"message\", \"text\": \"[[agent:fault=429\"}",
        "{\"type\": [], \"text\": \"hi\"}",
        "{\"model\": 1, \"input\": {\"a\": 1}}",
        "{\"model\": \"m\", \"input\": [1, null, {\"role\": \"user\", \"content\": 7}]}",
        "{\"agent\": {\"name\": 5}, \"input\": \"hi\"}",
        "{\"model\": \"m\", \"input\": [{\"type\": \"function_call_output\"}]}",
        "{\"messages\": [1, 2, {\"role\": \"user\"}]}",
        "{\"messages\": [{\"role\": \"user\", \"content\": [{\"text\": 3}, null]}]}",
        "{\"jsonrpc\": \"2.0\", \"id\": {}, \"method\": \"message/send\", \"params\": {\"message\": {\"role\": \"user\", \"parts\": \"x\"}}}",
        "{\"jsonrpc\": \"2.0\", \"method\": \"tasks/get\", \"params\": {\"id\": 5}}",
        "{\"jsonrpc\": \"2.0\", \"method\": 5}",
        "{\"prompt\": \"[[agent:latency=99999999999999999999]]\"}",
        "{\"prompt\": \"\\u0000\\ud800\", \"conversation_id\": 1.5e300}",
    ]
    .iter()
    .map(|body| body.as_bytes().to_vec())
    .collect();
    bodies.push(nested.into_bytes());
    bodies.push(vec![0xff, 0xfe, b'{', 0x80]);
    for (method, path) in routes {
        for body in &bodies {
            let mut request = format!(
                "{method} {path}?watermark=%ff HTTP/1.1\r\nhost: x\r\nauthorization: Bearer demo-directline-secret\r\ncontent-length: {}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            request.extend_from_slice(body);
            let reply = client.raw(&request);
            let shown = String::from_utf8_lossy(&body[..body.len().min(80)]).to_string();
            assert!(
                matches!(reply.status, 200 | 201 | 400 | 401 | 404 | 405),
                "{method} {path} with {shown:?}: status {}",
                reply.status
            );
            assert!(
                !reply.closed,
                "{method} {path} with {shown:?}: connection closed"
            );
        }
    }
    let fine = client.post("/agent/http", &json!({"prompt": "Where do I park?"}));
    assert_eq!(
        fine.json()["reply"]["text"],
        "Visitor parking is in garage B [1]."
    );
}
