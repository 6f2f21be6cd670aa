//! The demo agent over the OpenAI Responses API (`POST {endpoint}/responses`), as OpenAI and
//! Azure AI Foundry agents answer it: output items for the agent's work — a `file_search_call`
//! over its sources, a `function_call` with the tool's `function_call_output` when it runs the
//! tool itself — then the assistant `message` with `output_text` and `url_citation`
//! annotations, and the usage. A function tool is the client's to run when the request names a
//! Foundry agent or declares the function in `tools`: the response then ends with the
//! `function_call`, and the client's `function_call_output` (with `previous_response_id`) gets
//! the message.

use serde_json::{json, Map, Value};

use super::knowledge::{self, Answer};
use super::turn::{tokens, Turn};
use crate::http::{invalid, Outcome, Request, Response};
use crate::memory::{PendingCall, Thread};
use crate::reply::content_text;
use crate::state::Shared;

/// The `created_at` of every response, fixed so that responses are reproducible.
const CREATED: u64 = 1_700_000_000;

/// What the input asks for.
enum Input {
    /// A user prompt.
    Prompt(String),
    /// The output of the function call `call_id` the agent asked the client to run.
    ToolOutput { call_id: String, output: String },
}

/// Answers `POST {endpoint}/responses`.
pub(crate) fn respond(shared: &Shared, request: &Request) -> Outcome {
    let body = match serde_json::from_slice::<Value>(&request.body) {
        Ok(Value::Object(body)) => body,
        _ => return invalid("the request body must be a JSON object"),
    };
    let Some(model) = model_name(&body) else {
        return invalid(
            "`model` (a string) or `agent` ({\"name\", \"version\", \"type\": \"agent_reference\"}) is required",
        );
    };
    if body.get("stream").and_then(Value::as_bool) == Some(true) {
        return invalid("`stream: true` is not supported by the demo agent");
    }
    let previous = body.get("previous_response_id").and_then(Value::as_str);
    let thread = match previous {
        None => Thread::default(),
        Some(id) => match shared.memory.thread(&thread_key(id)) {
            Some(thread) => thread,
            None => return invalid(&format!("Previous response with id '{id}' not found.")),
        },
    };
    let input = match read_input(body.get("input")) {
        Ok(input) => input,
        Err(message) => return invalid(message),
    };
    let (answer, items, pending, turn) = match input {
        Input::ToolOutput { call_id, output } => {
            let Some(pending) = thread.pending_call.filter(|call| call.call_id == call_id) else {
                return invalid(&format!(
                    "No tool call found for function call output with call_id {call_id}."
                ));
            };
            let answer = knowledge::answer_topic(pending.topic, Some(&output));
            (answer, Vec::new(), None, None)
        }
        Input::Prompt(text) => {
            let turn = match Turn::read(shared, "responses", &text) {
                Ok(turn) => turn,
                Err(mistake) => return invalid(&mistake),
            };
            if let Some(held) = turn.hold(shared) {
                return held;
            }
            let answer = knowledge::answer(&turn.prompt, thread.topic);
            let (items, pending) = work_items(shared, &turn.prompt, &answer, &body);
            (answer, items, pending, Some(turn))
        }
    };
    let mut output = items;
    if pending.is_none() {
        output.push(message_item(shared, &answer));
    }
    let response_id = format!("resp_{}", shared.memory.fresh_id(shared.config.seed));
    shared.memory.keep_thread(
        thread_key(&response_id),
        Thread {
            topic: answer.topic,
            pending_call: pending,
        },
    );
    let input_tokens = tokens(request.body.len());
    let output_tokens = tokens(Value::Array(output.clone()).to_string().len());
    let mut response = json!({
        "id": response_id, "object": "response", "created_at": CREATED,
        "status": "completed", "error": null, "incomplete_details": null,
        "model": model, "previous_response_id": previous, "output": output,
        "usage": {
            "input_tokens": input_tokens, "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    });
    if let (Some(agent), Some(fields)) = (body.get("agent"), response.as_object_mut()) {
        fields.insert("agent".into(), agent.clone());
    }
    let response = Response::json(200, &response);
    match turn {
        Some(turn) => turn.deliver(response),
        None => Outcome::Send(response),
    }
}

/// The model or agent name the response reports.
fn model_name(body: &Map<String, Value>) -> Option<String> {
    if let Some(model) = body.get("model").and_then(Value::as_str) {
        return Some(model.to_string());
    }
    let name = body.get("agent")?.get("name")?.as_str()?;
    Some(name.to_string())
}

fn thread_key(response_id: &str) -> String {
    format!("responses:{response_id}")
}

/// The prompt (the last user message) or the function call output in `input`.
fn read_input(input: Option<&Value>) -> Result<Input, &'static str> {
    const EXPECTED: &str = "`input` must be text, or a list of input items holding a user message \
                            or a `function_call_output`";
    let items = match input {
        Some(Value::String(text)) => return Ok(Input::Prompt(text.clone())),
        Some(Value::Array(items)) => items,
        _ => return Err(EXPECTED),
    };
    let tool_output = items
        .iter()
        .rev()
        .find(|item| item.get("type").and_then(Value::as_str) == Some("function_call_output"));
    if let Some(item) = tool_output {
        let call_id = item.get("call_id").and_then(Value::as_str);
        let output = match item.get("output") {
            Some(Value::String(text)) => Some(text.clone()),
            Some(other) => Some(other.to_string()),
            None => None,
        };
        return match (call_id, output) {
            (Some(call_id), Some(output)) => Ok(Input::ToolOutput {
                call_id: call_id.to_string(),
                output,
            }),
            _ => Err("a `function_call_output` item needs `call_id` and `output`"),
        };
    }
    items
        .iter()
        .rev()
        .find(|item| item.get("role").and_then(Value::as_str) == Some("user"))
        .map(|item| Input::Prompt(content_text(item.get("content"))))
        .ok_or(EXPECTED)
}

/// The items for the agent's work before its message, and the call left to the client when
/// the answer's tool is a function the client runs: for a Foundry agent reference (an agent's
/// function tools run on the caller's side), or when the request's `tools` declare it.
fn work_items(
    shared: &Shared,
    prompt: &str,
    answer: &Answer,
    body: &Map<String, Value>,
) -> (Vec<Value>, Option<PendingCall>) {
    let mut items = Vec::new();
    if let (Some(tool), Some(topic)) = (answer.tool, answer.topic) {
        let call_id = format!("call_{}", shared.memory.fresh_id(shared.config.seed));
        items.push(json!({
            "type": "function_call", "id": format!("fc_{}", shared.memory.fresh_id(shared.config.seed)),
            "call_id": call_id, "name": tool.name, "arguments": tool.arguments, "status": "completed",
        }));
        if body.contains_key("agent") || declares(body, tool.name) {
            return (items, Some(PendingCall { call_id, topic }));
        }
        items.push(json!({
            "type": "function_call_output", "call_id": call_id, "output": tool.output,
            "status": "completed",
        }));
    } else if !answer.sources.is_empty() {
        let results: Vec<Value> = answer
            .sources
            .iter()
            .map(|source| {
                json!({"file_id": source.url, "filename": source.title, "score": 0.9, "text": source.extract})
            })
            .collect();
        items.push(json!({
            "type": "file_search_call", "id": format!("fs_{}", shared.memory.fresh_id(shared.config.seed)),
            "status": "completed", "queries": [prompt], "results": results,
        }));
    }
    (items, None)
}

/// Whether the request's `tools` declare a function called `name`.
fn declares(body: &Map<String, Value>, name: &str) -> bool {
    body.get("tools")
        .and_then(Value::as_array)
        .is_some_and(|tools| {
            tools
                .iter()
                .any(|tool| tool.get("name").and_then(Value::as_str) == Some(name))
        })
}

/// The assistant message: the answer's text without markers, its sources as `url_citation`
/// annotations over the whole text.
fn message_item(shared: &Shared, answer: &Answer) -> Value {
    let text = answer.plain_text();
    let end = text.chars().count();
    let annotations: Vec<Value> = answer
        .sources
        .iter()
        .map(|source| {
            json!({"type": "url_citation", "url": source.url, "title": source.title,
                   "start_index": 0, "end_index": end})
        })
        .collect();
    json!({
        "type": "message", "id": format!("msg_{}", shared.memory.fresh_id(shared.config.seed)),
        "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": annotations}],
    })
}
