//! The OpenAI Responses API (and Azure AI Foundry agents behind it): `POST {endpoint}/responses`
//! with the model or a Foundry agent reference, the prompt as `input` (text, or a Foundry
//! query's messages), and `previous_response_id` to continue a conversation. The output items
//! become the reply: `message` items' `output_text` is the text (their URL and file citations
//! the citations), and every tool item (`function_call` with its `function_call_output`,
//! `file_search_call`, `mcp_call`, `web_search_call`, …) a tool call. A function the agent asks
//! the client to run is answered from the target's canned `tools` outputs; without one, the
//! item ends with an error saying so. Usage adds up over the rounds.
//!
//! NOTE: shapes from the Responses API reference
//! (<https://platform.openai.com/docs/api-reference/responses>).

use serde_json::{json, Map, Value};

use super::target::{ResponsesModel, ResponsesTarget};
use super::wire::{json_request, optional_key, text_at, Context};
use super::{AgentError, Citation, Prompt, Reply, ToolCall};
use crate::judge::{Method, Usage};

/// The most rounds of canned function outputs one prompt may take.
const MAX_ROUNDS: usize = 8;

/// Sends one prompt; `previous` is the last response's id in this conversation, updated.
///
/// # Errors
/// A call failed, the response failed, or a function call has no canned output.
pub async fn turn(
    context: &Context<'_>,
    target: &ResponsesTarget,
    previous: &mut Option<String>,
    prompt: &Prompt,
) -> Result<Reply, AgentError> {
    let credential = optional_key(context.secrets, target.key.as_ref(), target.key_header)?;
    let mut input = match &prompt.messages {
        Some(messages) => Value::Array(messages.clone()),
        None => Value::String(prompt.text.clone()),
    };
    let mut reply = Reply::default();
    for round in 0..MAX_ROUNDS {
        let mut body = Map::new();
        match &target.model {
            ResponsesModel::Model(model) => {
                body.insert("model".into(), json!(model));
            }
            ResponsesModel::Agent { name, version } => {
                let mut agent = Map::new();
                agent.insert("name".into(), json!(name));
                if let Some(version) = version {
                    agent.insert("version".into(), json!(version));
                }
                agent.insert("type".into(), json!("agent_reference"));
                body.insert("agent".into(), Value::Object(agent));
            }
        }
        body.insert("input".into(), input);
        if let Some(previous) = previous.as_ref() {
            body.insert("previous_response_id".into(), json!(previous));
        }
        if let Some(instructions) = &target.instructions {
            body.insert("instructions".into(), json!(instructions));
        }
        let call = if round == 0 {
            "Responses: create a response".to_owned()
        } else {
            format!("Responses: send function outputs (round {})", round + 1)
        };
        let answer = context
            .send_json(
                &call,
                json_request(
                    Method::Post,
                    format!("{}/responses", target.endpoint),
                    Some(&Value::Object(body)),
                    credential.clone(),
                ),
            )
            .await?;
        if text_at(&answer, "/status") == Some("failed") {
            let said = text_at(&answer, "/error/message").unwrap_or("no reason given");
            return Err(AgentError::new(
                "agentError",
                format!("{call}: the response failed: {said}"),
            ));
        }
        *previous = text_at(&answer, "/id").map(str::to_owned);
        add_usage(&mut reply, answer.get("usage"));
        let pending = read_output(&answer, &mut reply);
        if pending.is_empty() {
            return Ok(reply);
        }
        let mut outputs = Vec::new();
        for (call_id, name) in pending {
            let Some(output) = target.tool_outputs.get(&name) else {
                return Err(AgentError::new(
                    "agentToolCallUnanswered",
                    format!(
                        "{call}: the agent asked the client to run the function '{name}' (call \
                         {call_id}); give its result in the target's \"tools\": {{\"{name}\": \
                         {{\"output\": …}}}} to answer it"
                    ),
                ));
            };
            if let Some(tool) = reply.tool_calls.iter_mut().find(|tool| tool.id == call_id) {
                tool.output = Some(output.clone());
            }
            let output = match output {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            outputs.push(
                json!({"type": "function_call_output", "call_id": call_id, "output": output}),
            );
        }
        input = Value::Array(outputs);
    }
    Err(AgentError::new(
        "agentError",
        format!("Responses: the agent still asked for functions after {MAX_ROUNDS} rounds"),
    ))
}

fn add_usage(reply: &mut Reply, usage: Option<&Value>) {
    let Some(usage) = usage else { return };
    let count = |name: &str| usage.get(name).and_then(Value::as_u64).unwrap_or(0);
    let round = Usage {
        prompt_tokens: count("input_tokens"),
        completion_tokens: count("output_tokens"),
        total_tokens: count("total_tokens"),
    };
    reply.usage.get_or_insert_with(Usage::default).add(round);
}

/// Reads a response's output into `reply`; returns the function calls without an output in the
/// same response (call id, name), which the client must answer.
fn read_output(answer: &Value, reply: &mut Reply) -> Vec<(String, String)> {
    let items = answer
        .get("output")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for item in items {
        let kind = text_at(item, "/type").unwrap_or_default();
        match kind {
            "message" => read_message(item, reply),
            "function_call_output" => {
                let call_id = text_at(item, "/call_id").unwrap_or_default();
                if let Some(tool) = reply.tool_calls.iter_mut().find(|tool| tool.id == call_id) {
                    tool.output = item.get("output").map(parsed);
                }
            }
            "reasoning" => {}
            _ if kind.ends_with("_call") => {
                reply
                    .tool_calls
                    .push(tool_call(item, kind, reply.tool_calls.len()))
            }
            _ => {}
        }
    }
    items
        .iter()
        .filter(|item| text_at(item, "/type") == Some("function_call"))
        .filter_map(|item| {
            let id = text_at(item, "/call_id")?;
            let answered = reply
                .tool_calls
                .iter()
                .any(|tool| tool.id == id && tool.output.is_some());
            (!answered).then(|| {
                (
                    id.to_owned(),
                    text_at(item, "/name").unwrap_or_default().to_owned(),
                )
            })
        })
        .collect()
}

fn read_message(item: &Value, reply: &mut Reply) {
    let parts = item
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for part in parts {
        if text_at(part, "/type") != Some("output_text") {
            continue;
        }
        if let Some(text) = text_at(part, "/text").filter(|text| !text.trim().is_empty()) {
            if !reply.text.is_empty() {
                reply.text.push_str("\n\n");
            }
            reply.text.push_str(text);
        }
        let annotations = part
            .get("annotations")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        for annotation in annotations {
            let title = text_at(annotation, "/title").or_else(|| text_at(annotation, "/filename"));
            let url = text_at(annotation, "/url").or_else(|| text_at(annotation, "/file_id"));
            if title.is_some() || url.is_some() {
                reply.citations.push(Citation {
                    title: title.map(str::to_owned),
                    url: url.map(str::to_owned),
                    text: None,
                });
            }
        }
    }
}

/// One tool item: a function or MCP call with its arguments (and output when the service ran
/// it), or a hosted tool (`file_search_call`, `web_search_call`…) under its tool's name.
fn tool_call(item: &Value, kind: &str, position: usize) -> ToolCall {
    let id = text_at(item, "/call_id")
        .or_else(|| text_at(item, "/id"))
        .map_or_else(|| format!("call_{}", position + 1), str::to_owned);
    let name = text_at(item, "/name")
        .map_or_else(|| kind.trim_end_matches("_call").to_owned(), str::to_owned);
    let arguments = match kind {
        "file_search_call" => {
            json!({"queries": item.get("queries").cloned().unwrap_or(Value::Null)})
        }
        "web_search_call" => item.get("action").cloned().unwrap_or(Value::Null),
        _ => item.get("arguments").map(parsed).unwrap_or(Value::Null),
    };
    let output = item
        .get("output")
        .or_else(|| item.get("results"))
        .filter(|output| !output.is_null())
        .map(parsed);
    ToolCall {
        id,
        name,
        arguments,
        output,
    }
}

/// A value given as JSON text, parsed; any other value as it is.
fn parsed(value: &Value) -> Value {
    match value {
        Value::String(text) => serde_json::from_str(text).unwrap_or_else(|_| value.clone()),
        other => other.clone(),
    }
}
