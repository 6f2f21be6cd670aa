//! The demo agent over A2A (JSON-RPC `message/send`), end to end over TCP: messages and tasks,
//! the conversation kept by `contextId`, the agent card, JSON-RPC errors, faults and keys.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use agenteval_judge_server::{start, ServerConfig};
use common::{post, server, Client};
use serde_json::{json, Value};

const A2A: &str = "/agent/a2a";

fn send(text: &str, context_id: Option<&str>) -> Value {
    let mut message = json!({
        "role": "user", "kind": "message", "messageId": "m-1",
        "parts": [{"kind": "text", "text": text}],
    });
    if let Some(context_id) = context_id {
        message["contextId"] = json!(context_id);
    }
    json!({"jsonrpc": "2.0", "id": 7, "method": "message/send", "params": {"message": message}})
}

fn result(reply: &common::Reply) -> Value {
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let body = reply.json();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["id"], 7);
    assert!(body.get("error").is_none(), "{body}");
    body["result"].clone()
}

#[test]
fn a_message_answers_and_its_context_carries_the_conversation() {
    let server = server();
    let first = result(&post(&server.url(), A2A, &send("Where do I park?", None)));
    assert_eq!(first["kind"], "message");
    assert_eq!(first["role"], "agent");
    assert_eq!(
        first["parts"][0],
        json!({"kind": "text", "text": "Visitor parking is in garage B [1]."})
    );
    assert_eq!(
        first["parts"][1]["data"]["citations"][0]["title"],
        "Campus guide"
    );
    let context = first["contextId"].as_str().unwrap();
    assert!(!context.is_empty());

    let follow_up = result(&post(
        &server.url(),
        A2A,
        &send("When is it open?", Some(context)),
    ));
    assert_eq!(follow_up["contextId"], context);
    assert!(follow_up["parts"][0]["text"]
        .as_str()
        .unwrap()
        .contains("6:00 to 22:00"));
    let elsewhere = result(&post(
        &server.url(),
        A2A,
        &send("When is it open?", Some("ctx-new")),
    ));
    assert_eq!(elsewhere["contextId"], "ctx-new");
    assert!(elsewhere["parts"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("I couldn't find that"));
    assert_eq!(elsewhere["parts"].as_array().unwrap().len(), 1);
}

#[test]
fn a_tool_answer_is_a_completed_task_with_an_artifact() {
    let server = server();
    let task = result(&post(
        &server.url(),
        A2A,
        &send("What is the code for the payroll portal?", Some("ctx-pay")),
    ));
    assert_eq!(task["kind"], "task");
    assert_eq!(task["contextId"], "ctx-pay");
    assert_eq!(task["status"]["state"], "completed");
    let parts = &task["artifacts"][0]["parts"];
    assert!(parts[0]["text"].as_str().unwrap().contains("PAY-42"));
    assert_eq!(
        parts[1]["data"]["toolCalls"][0]["name"],
        "lookup_portal_code"
    );
    assert_eq!(task["history"][0]["taskId"], task["id"]);
}

#[test]
fn a_non_blocking_send_is_a_working_task_that_tasks_get_sees_complete() {
    let server = server();
    let mut request = send("Who wrote Hamlet? [[agent:latency=100]]", Some("ctx-slow"));
    request["params"]["configuration"] = json!({"blocking": false});
    let working = result(&post(&server.url(), A2A, &request));
    assert_eq!(working["kind"], "task");
    assert_eq!(working["status"]["state"], "working");
    assert!(working.get("artifacts").is_none());
    let task_id = working["id"].as_str().unwrap();
    let get = json!({"jsonrpc": "2.0", "id": 7, "method": "tasks/get", "params": {"id": task_id}});
    let still = result(&post(&server.url(), A2A, &get));
    assert_eq!(still["status"]["state"], "working");
    std::thread::sleep(std::time::Duration::from_millis(350));
    let done = result(&post(&server.url(), A2A, &get));
    assert_eq!(done["status"]["state"], "completed");
    assert_eq!(done["contextId"], "ctx-slow");
    assert_eq!(
        done["artifacts"][0]["parts"][0]["text"],
        "William Shakespeare wrote Hamlet [1]."
    );
    let unknown = post(
        &server.url(),
        A2A,
        &json!({"jsonrpc": "2.0", "id": 7, "method": "tasks/get", "params": {"id": "task-nope"}}),
    );
    assert_eq!(unknown.json()["error"]["code"], -32001);
}

#[test]
fn the_agent_card_describes_the_endpoint() {
    let server = server();
    let mut client = Client::new(&server.url());
    let card = client.get("/agent/a2a/.well-known/agent-card.json", &[]);
    assert_eq!(card.status, 200);
    let card = card.json();
    assert_eq!(card["protocolVersion"], "0.3.0");
    assert_eq!(card["preferredTransport"], "JSONRPC");
    assert_eq!(card["url"], format!("{}/agent/a2a", server.url()));
    assert!(!card["skills"].as_array().unwrap().is_empty());
    assert!(card.get("securitySchemes").is_none());
    assert_eq!(server.stats().agent_requests["a2a.card"], 1);
}

#[test]
fn protocol_mistakes_are_json_rpc_errors() {
    let server = server();
    let mut client = Client::new(&server.url());
    let parse = client.request(
        "POST",
        A2A,
        &[("content-type", "application/json")],
        "{nope",
    );
    assert_eq!(parse.status, 200);
    assert_eq!(parse.json()["error"]["code"], -32700);
    let cases = [
        (
            json!({"id": 1, "method": "message/send"}),
            -32600,
            "jsonrpc",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/cancel", "params": {}}),
            -32601,
            "tasks/cancel",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {}}),
            -32602,
            "params.message",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "message/send",
                   "params": {"message": {"role": "user", "parts": [{"kind": "file"}]}}}),
            -32602,
            "kind \"text\"",
        ),
    ];
    for (body, code, expected) in cases {
        let reply = client.post(A2A, &body);
        let error = &reply.json()["error"];
        assert_eq!(error["code"], code, "{body}");
        assert!(
            error["message"].as_str().unwrap().contains(expected),
            "{error}"
        );
    }
    let directive = client.post(A2A, &send("[[agent:fault=nope]]", None));
    assert_eq!(directive.json()["error"]["code"], -32602);
}

#[test]
fn faults_are_http_errors_and_keys_are_checked() {
    let server = start(ServerConfig {
        key: Some("sk-a2a".into()),
        ..ServerConfig::default()
    })
    .expect("server starts");
    let mut client = Client::new(&server.url());
    assert_eq!(
        client.post(A2A, &send("Where do I park?", None)).status,
        401
    );
    let card = client
        .get("/agent/a2a/.well-known/agent-card.json", &[])
        .json();
    assert_eq!(card["security"], json!([{"bearer": []}]));
    let auth = [("authorization", "Bearer sk-a2a")];
    let failing = send("Where do I park? [[agent:fault=500*1]]", None);
    assert_eq!(client.post_with(A2A, &auth, &failing).status, 500);
    assert_eq!(
        result(&client.post_with(A2A, &auth, &failing))["kind"],
        "message"
    );
    let limited = client.post_with(A2A, &auth, &send("x [[agent:fault=429]]", None));
    assert_eq!(limited.status, 429);
    assert!(limited.header("retry-after").is_some());
    assert_eq!(server.stats().agent_requests["a2a"], 4);
}
