//! The demo agent as an OpenAI-compatible chat completions endpoint
//! (`POST /agent/v1/chat/completions`): the last user message is the prompt, the earlier ones
//! the conversation (a follow-up continues their last topic); the reply is the answer's text
//! without citation markers, with the usage.

use serde_json::{json, Value};

use super::knowledge;
use super::turn::{tokens, Turn};
use crate::http::{invalid, Outcome, Request, Response};
use crate::reply::content_text;
use crate::state::Shared;

/// The `created` time of every reply, fixed so that replies are reproducible.
const CREATED: u64 = 1_700_000_000;
/// The model reported when the body names none.
const DEFAULT_MODEL: &str = "demo-agent";

/// Answers `POST /agent/v1/chat/completions`.
pub(crate) fn complete(shared: &Shared, request: &Request) -> Outcome {
    let body = match serde_json::from_slice::<Value>(&request.body) {
        Ok(body) if body.is_object() => body,
        _ => return invalid("the request body must be a JSON object"),
    };
    let Some(messages) = body.get("messages").and_then(Value::as_array) else {
        return invalid("'messages' is a required property and must be an array");
    };
    if body.get("stream").and_then(Value::as_bool) == Some(true) {
        return invalid("`stream: true` is not supported by the demo agent");
    }
    let user_texts: Vec<String> = messages
        .iter()
        .filter(|message| message.get("role").and_then(Value::as_str) == Some("user"))
        .map(|message| content_text(message.get("content")))
        .collect();
    let Some((prompt, earlier)) = user_texts.split_last() else {
        return invalid("'messages' must hold a message with role 'user'");
    };
    let turn = match Turn::read(shared, "chat", prompt) {
        Ok(turn) => turn,
        Err(mistake) => return invalid(&mistake),
    };
    if let Some(held) = turn.hold(shared) {
        return held;
    }
    let topic = earlier.iter().fold(None, |topic, text| {
        knowledge::answer(&crate::directives::strip(text, "agent"), topic).topic
    });
    let content = knowledge::answer(&turn.prompt, topic).plain_text();
    let prompt_tokens = tokens(
        messages
            .iter()
            .map(|m| content_text(m.get("content")).len())
            .sum(),
    );
    let completion_tokens = tokens(content.len());
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_MODEL);
    let reply = json!({
        "id": format!("chatcmpl-{}", shared.memory.fresh_id(shared.config.seed)),
        "object": "chat.completion", "created": CREATED, "model": model,
        "choices": [{
            "index": 0, "logprobs": null, "finish_reason": "stop",
            "message": {"role": "assistant", "content": content, "refusal": null},
        }],
        "usage": {
            "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    });
    turn.deliver(Response::json(200, &reply))
}
