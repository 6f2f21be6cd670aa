//! Chat completions as the agent: the system prompt, the history of a thread, tool calls and usage.

use serde_json::json;

use super::{answer, body, conversation, drive};

#[test]
fn the_system_prompt_and_the_history_are_sent_with_each_turn() {
    let (records, sent, _) = drive(
        r#"{"kind": "chat", "endpoint": "http://127.0.0.1:9/v1", "model": "small", "system": "You are the HR agent."}"#,
        &[],
        &[conversation(&["one", "two"])],
        |request, _| {
            let turns = body(request)["messages"].as_array().unwrap().len();
            answer(
                200,
                json!({"choices": [{"message": {"role": "assistant", "content": format!("reply to {turns} messages"),
                "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\": 1}"}}]}}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}}),
            )
        },
    );
    assert_eq!(
        records[0][0].reply.clone().unwrap().text,
        "reply to 2 messages"
    );
    let second = records[0][1].reply.clone().unwrap();
    assert_eq!(second.text, "reply to 4 messages");
    assert_eq!(second.tool_calls[0].arguments, json!({"q": 1}));
    assert_eq!(second.usage.unwrap().total_tokens, 7);
    let messages = body(&sent[1])["messages"].clone();
    assert_eq!(
        messages[0],
        json!({"role": "system", "content": "You are the HR agent."})
    );
    assert_eq!(
        messages[2],
        json!({"role": "assistant", "content": "reply to 2 messages"})
    );
    assert_eq!(messages[3], json!({"role": "user", "content": "two"}));
    assert_eq!(sent[0].url, "http://127.0.0.1:9/v1/chat/completions");
}
