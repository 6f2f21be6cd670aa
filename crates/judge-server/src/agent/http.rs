//! The demo agent as a generic JSON endpoint (`POST /agent/http`): `{"prompt",
//! "conversation_id"?}` in, `{"reply": {"text", "citations": [{"title", "url"}], "tool_calls"}}`
//! out. The conversation id, when given, keeps the conversation for follow-ups.

use serde_json::{json, Value};

use super::knowledge;
use super::turn::Turn;
use crate::http::{invalid, Outcome, Request, Response};
use crate::memory::Thread;
use crate::state::Shared;

/// Answers `POST /agent/http`.
pub(crate) fn reply(shared: &Shared, request: &Request) -> Outcome {
    let body = match serde_json::from_slice::<Value>(&request.body) {
        Ok(body) if body.is_object() => body,
        _ => return invalid("the request body must be a JSON object"),
    };
    let Some(prompt) = body.get("prompt").and_then(Value::as_str) else {
        return invalid("`prompt` is required and must be a string");
    };
    let conversation = match body.get("conversation_id") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(Value::Number(id)) => Some(id.to_string()),
        Some(_) => return invalid("`conversation_id` must be a string or a number"),
    };
    let turn = match Turn::read(shared, "http", prompt) {
        Ok(turn) => turn,
        Err(mistake) => return invalid(&mistake),
    };
    if let Some(held) = turn.hold(shared) {
        return held;
    }
    let key = conversation.as_ref().map(|id| format!("http:{id}"));
    let previous = key
        .as_deref()
        .and_then(|key| shared.memory.thread(key))
        .and_then(|thread| thread.topic);
    let answer = knowledge::answer(&turn.prompt, previous);
    if let Some(key) = key {
        let thread = Thread {
            topic: answer.topic,
            pending_call: None,
        };
        shared.memory.keep_thread(key, thread);
    }
    let tool_calls: Vec<Value> = answer
        .tool
        .iter()
        .map(|tool| json!({"name": tool.name, "arguments": tool.arguments, "output": tool.output}))
        .collect();
    let reply = json!({
        "reply": {"text": answer.text(), "citations": answer.citations(), "tool_calls": tool_calls},
        "conversation_id": conversation,
    });
    turn.deliver(Response::json(200, &reply))
}
