//! The demo agent as a chat completions endpoint and as a generic JSON endpoint, end to end over
//! TCP: answers, conversations (message history; `conversation_id`), tool calls and citations,
//! errors, faults and keys.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::time::{Duration, Instant};

use agenteval_judge_server::{start, ServerConfig};
use common::{ok, post, server, Client};
use serde_json::{json, Value};

const CHAT: &str = "/agent/v1/chat/completions";
const HTTP: &str = "/agent/http";

#[test]
fn chat_answers_the_last_user_message_in_the_light_of_the_earlier_ones() {
    let server = server();
    let single = ok(&post(
        &server.url(),
        CHAT,
        &json!({"messages": [
            {"role": "system", "content": "You are the HR assistant."},
            {"role": "user", "content": "Summarize the travel policy."},
        ]}),
    ));
    assert_eq!(single["object"], "chat.completion");
    assert_eq!(single["model"], "demo-agent");
    assert_eq!(
        single["choices"][0]["message"]["content"],
        "Book economy class for flights under 6 hours.\n\nReceipts are required for expenses above $25."
    );
    assert_eq!(single["choices"][0]["finish_reason"], "stop");
    let usage = &single["usage"];
    assert_eq!(
        usage["total_tokens"].as_u64().unwrap(),
        usage["prompt_tokens"].as_u64().unwrap() + usage["completion_tokens"].as_u64().unwrap()
    );

    let follow_up = ok(&post(
        &server.url(),
        CHAT,
        &json!({"model": "hr", "messages": [
            {"role": "user", "content": "Who wrote Hamlet?"},
            {"role": "assistant", "content": "William Shakespeare wrote Hamlet."},
            {"role": "user", "content": [{"type": "text", "text": "When?"}]},
        ]}),
    ));
    assert_eq!(follow_up["model"], "hr");
    assert_eq!(
        follow_up["choices"][0]["message"]["content"],
        "He wrote it between 1599 and 1601."
    );
}

#[test]
fn chat_refuses_bad_requests_and_takes_faults() {
    let server = server();
    for (body, expected) in [
        (json!({"model": "m"}), "'messages'"),
        (
            json!({"messages": [{"role": "system", "content": "x"}]}),
            "role 'user'",
        ),
        (
            json!({"messages": [{"role": "user", "content": "x"}], "stream": true}),
            "stream",
        ),
    ] {
        let reply = post(&server.url(), CHAT, &body);
        assert_eq!(reply.status, 400);
        assert!(reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains(expected));
    }
    let limited = json!({"messages": [{"role": "user", "content": "Where do I park? [[agent:fault=429*1]]"}]});
    let first = post(&server.url(), CHAT, &limited);
    assert_eq!(first.status, 429);
    assert_eq!(first.header("retry-after"), Some("1"));
    let second = ok(&post(&server.url(), CHAT, &limited));
    assert_eq!(
        second["choices"][0]["message"]["content"],
        "Visitor parking is in garage B."
    );
    assert_eq!(server.stats().agent_requests["chat"], 5);
    assert_eq!(
        server.stats().completions,
        0,
        "the judge's counter is untouched"
    );
}

#[test]
fn http_replies_with_text_citations_and_tool_calls() {
    let server = server();
    let reply = ok(&post(
        &server.url(),
        HTTP,
        &json!({"prompt": "Summarize the travel policy.", "conversation_id": "c-1"}),
    ));
    assert_eq!(reply["conversation_id"], "c-1");
    assert_eq!(
        reply["reply"]["text"],
        "Book economy class for flights under 6 hours [1].\n\nReceipts are required for expenses above $25 [2]."
    );
    let titles: Vec<&str> = reply["reply"]["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Travel policy", "Expense policy"]);
    assert_eq!(reply["reply"]["tool_calls"], json!([]));

    let follow_up = ok(&post(
        &server.url(),
        HTTP,
        &json!({"prompt": "What about long flights?", "conversation_id": "c-1"}),
    ));
    assert!(follow_up["reply"]["text"]
        .as_str()
        .unwrap()
        .contains("premium economy"));

    let tool = ok(&post(
        &server.url(),
        HTTP,
        &json!({"prompt": "What is the code for the payroll portal?", "conversation_id": 5}),
    ));
    assert_eq!(tool["conversation_id"], "5");
    assert_eq!(
        tool["reply"]["tool_calls"],
        json!([{"name": "lookup_portal_code", "arguments": "{\"portal\":\"payroll\"}", "output": "PAY-42"}])
    );
}

#[test]
fn http_refuses_bad_requests_and_takes_faults_and_keys() {
    let server = start(ServerConfig {
        key: Some("sk-http".into()),
        hang: Duration::from_millis(150),
        ..ServerConfig::default()
    })
    .expect("server starts");
    let mut client = Client::new(&server.url());
    assert_eq!(client.post(HTTP, &json!({"prompt": "hi"})).status, 401);
    let auth = [("api-key", "sk-http")];
    for (body, expected) in [
        (json!({"conversation_id": "x"}), "`prompt`"),
        (
            json!({"prompt": "hi", "conversation_id": [1]}),
            "`conversation_id`",
        ),
        (json!({"prompt": "[[agent:latency=soon]]"}), "latency"),
    ] {
        let reply = client.post_with(HTTP, &auth, &body);
        assert_eq!(reply.status, 400);
        assert!(reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains(expected));
    }
    let started = Instant::now();
    let hung = client.post_with(HTTP, &auth, &json!({"prompt": "x [[agent:fault=hang]]"}));
    assert!(hung.closed);
    assert_eq!(hung.status, 0);
    assert!(started.elapsed() >= Duration::from_millis(140));
    let broken = client.post_with(
        HTTP,
        &auth,
        &json!({"prompt": "x [[agent:fault=notjson-body]]"}),
    );
    assert_eq!(broken.status, 200);
    assert!(serde_json::from_slice::<Value>(&broken.body).is_err());
    let fine = client.post_with(HTTP, &auth, &json!({"prompt": "What is 2+2?"}));
    assert_eq!(ok(&fine)["reply"]["text"], "4");
    assert_eq!(ok(&fine)["conversation_id"], Value::Null);
}
