//! The generic JSON endpoint: the body template, `{{env.NAME}}` headers, reply pointers, and the
//! errors naming a missing field or pointer.

use serde_json::json;

use super::{answer, body, drive};
use crate::agent::{run::Conversation, Prompt};

const TARGET: &str = r#"{"kind": "http", "url": "https://agent.test/ask",
    "headers": {"X-Api-Key": "{{env.AGENT_KEY}}"},
    "body": {"prompt": "{{prompt}}", "session": "{{conversation_id}}", "tags": "{{item.tags}}", "note": "topic: {{item.topic}}"},
    "reply": {"text": "/reply/text", "citations": "/reply/citations", "toolCalls": "/reply/tool_calls"}}"#;

fn item() -> Conversation {
    let mut prompt = Prompt {
        text: "How many days?".into(),
        ..Prompt::default()
    };
    prompt.item.insert("tags".into(), json!(["leave", "hr"]));
    prompt.item.insert("topic".into(), json!("leave"));
    Conversation {
        label: "items[0]".into(),
        turns: vec![prompt],
    }
}

#[test]
fn the_body_template_is_filled_and_the_pointers_read() {
    let (records, sent, _) = drive(
        TARGET,
        &[("AGENT_KEY", "agent-key-5555")],
        &[item()],
        |_, _| {
            answer(
                200,
                json!({"reply": {"text": "20 days", "citations": [{"title": "Leave", "url": "https://hr.test/leave"}, "https://hr.test/other"],
            "tool_calls": [{"name": "search", "arguments": {"q": "days"}}]}}),
            )
        },
    );
    let reply = records[0][0].reply.clone().unwrap();
    assert_eq!(reply.text, "20 days");
    assert_eq!(reply.citations.len(), 2);
    assert_eq!(
        reply.citations[1].url.as_deref(),
        Some("https://hr.test/other")
    );
    assert_eq!(reply.tool_calls[0].name, "search");
    let sent_body = body(&sent[0]);
    assert_eq!(sent_body["prompt"], "How many days?");
    assert_eq!(sent_body["tags"], json!(["leave", "hr"]));
    assert_eq!(sent_body["note"], "topic: leave");
    assert!(sent_body["session"]
        .as_str()
        .unwrap()
        .starts_with("agenteval-"));
    assert!(sent[0]
        .headers
        .contains(&("x-api-key".into(), "agent-key-5555".into())));
}

#[test]
fn a_missing_field_or_pointer_is_an_error_naming_it() {
    let (records, sent, _) = drive(
        r#"{"kind": "http", "url": "https://agent.test/ask", "body": {"q": "{{item.missing}}"}, "reply": {"text": "/text"}}"#,
        &[],
        &[item()],
        |_, _| answer(200, json!({"text": "x"})),
    );
    let error = records[0][0].reply.clone().unwrap_err();
    assert_eq!(
        error.message,
        "http: the body's {{item.missing}} names nothing this item has"
    );
    assert!(sent.is_empty());
    let (records, _, _) = drive(
        r#"{"kind": "http", "url": "https://agent.test/ask", "reply": {"text": "/answer"}}"#,
        &[],
        &[item()],
        |_, _| answer(200, json!({"text": "x"})),
    );
    let error = records[0][0].reply.clone().unwrap_err();
    assert_eq!(
        error.message,
        "http: call the agent: the answer has no text at /answer (reply.text)"
    );
}

#[test]
fn a_get_target_puts_the_prompt_in_its_url() {
    let (records, sent, _) = drive(
        r#"{"kind": "http", "url": "https://agent.test/ask?q={{prompt}}&topic={{item.topic}}", "method": "GET", "reply": {"text": "/answer"}}"#,
        &[],
        &[item()],
        |_, _| answer(200, json!({"answer": "20 days"})),
    );
    assert_eq!(records[0][0].reply.clone().unwrap().text, "20 days");
    assert_eq!(sent[0].method, crate::judge::Method::Get);
    assert_eq!(
        sent[0].url,
        "https://agent.test/ask?q=How%20many%20days%3F&topic=leave"
    );
    assert!(sent[0].body.is_empty());
}
