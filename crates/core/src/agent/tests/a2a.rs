//! A2A: `message/send` and the `contextId` across a thread, messages, tasks polled with
//! `tasks/get`, data-part citations, JSON-RPC errors and a missing token.

use std::cell::Cell;

use serde_json::json;

use super::{answer, body, conversation, drive};

const TARGET: &str =
    r#"{"kind": "a2a", "endpoint": "https://agent.test/a2a", "keyEnv": "A2A_TOKEN"}"#;

#[test]
fn message_send_keeps_the_context_and_reads_messages_and_tasks() {
    let turn = Cell::new(0);
    let (records, sent, _) = drive(
        TARGET,
        &[("A2A_TOKEN", "a2a-token-0987654321")],
        &[conversation(&["first", "second"])],
        move |_, _| {
            turn.set(turn.get() + 1);
            if turn.get() == 1 {
                return answer(
                    200,
                    json!({"jsonrpc": "2.0", "id": "x", "result": {
                    "kind": "message", "role": "agent", "messageId": "m1", "contextId": "ctx-1",
                    "parts": [{"kind": "text", "text": "Hello"}, {"kind": "data", "data": {"citations": [{"title": "Leave", "url": "https://hr.test/leave"}]}}, {"kind": "text", "text": "there"}]}}),
                );
            }
            answer(
                200,
                json!({"jsonrpc": "2.0", "id": "x", "result": {"task": {
                "id": "t1", "contextId": "ctx-1", "status": {"state": "TASK_STATE_COMPLETED"},
                "artifacts": [{"artifactId": "a", "parts": [{"text": "From the artifact"}]}]}}}),
            )
        },
    );
    let first = records[0][0].reply.clone().unwrap();
    assert_eq!(first.text, "Hello\n\nthere");
    assert_eq!(
        first.citations[0].url.as_deref(),
        Some("https://hr.test/leave")
    );
    assert_eq!(
        records[0][1].reply.clone().unwrap().text,
        "From the artifact"
    );
    let first = body(&sent[0]);
    assert_eq!(first["method"], "message/send");
    assert_eq!(first["jsonrpc"], "2.0");
    assert_eq!(first["params"]["message"]["role"], "user");
    assert_eq!(
        first["params"]["message"]["parts"][0],
        json!({"kind": "text", "text": "first"})
    );
    assert!(first["params"]["message"].get("contextId").is_none());
    let second = body(&sent[1]);
    assert_eq!(second["params"]["message"]["contextId"], "ctx-1");
    assert_ne!(
        first["params"]["message"]["messageId"],
        second["params"]["message"]["messageId"]
    );
    assert!(sent[0]
        .headers
        .contains(&("authorization".into(), "Bearer a2a-token-0987654321".into())));
}

#[test]
fn a_running_task_is_polled_and_errors_name_the_call() {
    let calls = Cell::new(0);
    let (records, sent, _) = drive(
        TARGET,
        &[("A2A_TOKEN", "a2a-token-0987654321")],
        &[conversation(&["q"])],
        move |_, _| {
            calls.set(calls.get() + 1);
            let state = if calls.get() < 3 {
                "working"
            } else {
                "completed"
            };
            answer(
                200,
                json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "task", "id": "t1", "contextId": "c",
            "status": {"state": state, "message": {"role": "agent", "parts": [{"kind": "text", "text": "done"}]}}}}),
            )
        },
    );
    assert_eq!(records[0][0].reply.clone().unwrap().text, "done");
    assert_eq!(body(&sent[1])["method"], "tasks/get");
    assert_eq!(body(&sent[1])["params"]["id"], "t1");
    let (records, _, _) = drive(
        TARGET,
        &[("A2A_TOKEN", "a2a-token-0987654321")],
        &[conversation(&["q"])],
        |_, _| {
            answer(
                200,
                json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}),
            )
        },
    );
    let error = records[0][0].reply.clone().unwrap_err();
    assert_eq!(
        error.message,
        "A2A: message/send: the agent answered JSON-RPC error -32601: Method not found"
    );
    let (records, sent, _) = drive(TARGET, &[], &[conversation(&["q"])], |_, _| {
        answer(200, json!({}))
    });
    let error = records[0][0].reply.clone().unwrap_err();
    assert_eq!(
        (error.code, error.message.as_str()),
        (
            "agentAuthenticationError",
            "the secret A2A_TOKEN is not set"
        )
    );
    assert!(sent.is_empty());
}
