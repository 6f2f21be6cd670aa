//! The Responses API: tool items and the message as the reply, `previous_response_id` across a
//! thread, a Foundry agent reference with an `api-key`, canned function outputs.

use std::cell::Cell;

use serde_json::json;

use super::{answer, body, conversation, drive};

const FOUNDRY: &str = r#"{"kind": "responses", "endpoint": "https://foundry.test/openai/v1", "agent": {"name": "hr-agent", "version": "3"}, "keyEnv": "FOUNDRY_KEY", "keyHeader": "api-key"}"#;

fn response(id: &str, output: serde_json::Value) -> serde_json::Value {
    json!({"id": id, "object": "response", "status": "completed", "output": output,
           "usage": {"input_tokens": 30, "output_tokens": 10, "total_tokens": 40}})
}

#[test]
fn tool_items_and_the_message_become_the_reply_and_the_conversation_continues() {
    let round = Cell::new(0);
    let (records, sent, _) = drive(
        FOUNDRY,
        &[("FOUNDRY_KEY", "foundry-key-abcdef123")],
        &[conversation(&["How many vacation days?", "And sick days?"])],
        move |_, _| {
            round.set(round.get() + 1);
            answer(
                200,
                response(
                    &format!("resp_{}", round.get()),
                    json!([
                        {"type": "file_search_call", "id": "fs_1", "status": "completed", "queries": ["vacation days"], "results": [{"filename": "leave.pdf", "text": "20 days"}]},
                        {"type": "function_call", "call_id": "call_7", "name": "lookup_policy", "arguments": "{\"topic\": \"leave\"}"},
                        {"type": "function_call_output", "call_id": "call_7", "output": "{\"days\": 20}"},
                        {"type": "message", "role": "assistant", "content": [
                            {"type": "output_text", "text": "New employees get 20 days [1].", "annotations": [{"type": "url_citation", "url": "https://hr.test/leave", "title": "Leave"}]}
                        ]}
                    ]),
                ),
            )
        },
    );
    let reply = records[0][0].reply.clone().unwrap();
    assert_eq!(reply.text, "New employees get 20 days [1].");
    assert_eq!(
        reply.citations[0].url.as_deref(),
        Some("https://hr.test/leave")
    );
    assert_eq!(reply.tool_calls.len(), 2);
    assert_eq!(reply.tool_calls[0].name, "file_search");
    assert_eq!(
        reply.tool_calls[0].arguments,
        json!({"queries": ["vacation days"]})
    );
    assert_eq!(reply.tool_calls[1].arguments, json!({"topic": "leave"}));
    assert_eq!(reply.tool_calls[1].output, Some(json!({"days": 20})));
    assert_eq!(reply.usage.unwrap().total_tokens, 40);
    let first = body(&sent[0]);
    assert_eq!(
        first["agent"],
        json!({"name": "hr-agent", "type": "agent_reference", "version": "3"})
    );
    assert_eq!(first["input"], "How many vacation days?");
    assert!(first.get("previous_response_id").is_none());
    assert_eq!(body(&sent[1])["previous_response_id"], "resp_1");
    assert!(sent[0].url.ends_with("/openai/v1/responses"));
    assert!(sent[0]
        .headers
        .contains(&("api-key".into(), "foundry-key-abcdef123".into())));
}

#[test]
fn a_function_left_to_the_client_ends_the_item_unless_an_output_is_canned() {
    let script = |request: &crate::judge::HttpRequest, _| {
        let sent = body(request);
        if sent["input"].is_array() {
            assert_eq!(sent["input"][0]["type"], "function_call_output");
            assert_eq!(sent["input"][0]["output"], "{\"temp\":21}");
            assert_eq!(sent["previous_response_id"], "resp_a");
            return answer(
                200,
                response(
                    "resp_b",
                    json!([{"type": "message", "content": [{"type": "output_text", "text": "It is 21 degrees."}]}]),
                ),
            );
        }
        answer(
            200,
            response(
                "resp_a",
                json!([{"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}]),
            ),
        )
    };
    let (records, _, _) = drive(
        r#"{"kind": "responses", "endpoint": "https://api.test/v1", "model": "gpt-4o"}"#,
        &[],
        &[conversation(&["Weather in Paris?"])],
        script,
    );
    let error = records[0][0].reply.clone().unwrap_err();
    assert_eq!(error.code, "agentToolCallUnanswered");
    assert!(
        error.message.contains("'get_weather' (call c1)"),
        "{}",
        error.message
    );
    let (records, sent, _) = drive(
        r#"{"kind": "responses", "endpoint": "https://api.test/v1", "model": "gpt-4o", "tools": {"get_weather": {"output": {"temp": 21}}}}"#,
        &[],
        &[conversation(&["Weather in Paris?"])],
        script,
    );
    let reply = records[0][0].reply.clone().unwrap();
    assert_eq!(reply.text, "It is 21 degrees.");
    assert_eq!(reply.tool_calls[0].output, Some(json!({"temp": 21})));
    assert_eq!(
        reply.usage.unwrap().total_tokens,
        80,
        "usage adds up over rounds"
    );
    assert_eq!(sent.len(), 2);
}
