//! Agent2Agent (A2A) over JSON-RPC 2.0: `message/send` with the prompt as a user `Message` of one
//! text part, the conversation kept through the `contextId` the agent returns. The result is a
//! `Message` (its text parts are the reply) or a `Task` (its artifacts' text parts, else its
//! status message's); a task still `submitted` or `working` is polled with `tasks/get` until it
//! ends. Both the 0.3 shapes (`kind` on parts and results) and the 1.0 ones (`{"message": …}` or
//! `{"task": …}` results, parts without `kind`) are read. Citations and tool calls listed in a
//! `data` part are kept.
//!
//! NOTE: method names and shapes from the A2A specification
//! (<https://a2a-protocol.org/latest/specification/>).

use std::time::Duration;

use serde_json::{json, Value};

use super::target::{A2aTarget, KeyHeader};
use super::wire::{json_request, optional_key, text_at, Context};
use super::{AgentError, Citation, Prompt, Reply, ToolCall};
use crate::judge::Method;

/// How often a task still running is asked about, and how many times at most.
const POLL_INTERVAL: Duration = Duration::from_millis(500);
const MAX_POLLS: u32 = 240;

/// Sends one prompt; `context_id` is the conversation's, learnt from the first answer.
/// `message_id` must be unique in the run.
///
/// # Errors
/// A call failed, the agent answered a JSON-RPC error, or the task failed.
pub async fn turn(
    context: &Context<'_>,
    target: &A2aTarget,
    context_id: &mut Option<String>,
    message_id: &str,
    prompt: &Prompt,
) -> Result<Reply, AgentError> {
    let credential = optional_key(context.secrets, target.key.as_ref(), KeyHeader::Bearer)?;
    let mut message = json!({
        "kind": "message",
        "role": "user",
        "messageId": message_id,
        "parts": [{"kind": "text", "text": prompt.text}],
    });
    if let (Some(id), Some(message)) = (context_id.as_ref(), message.as_object_mut()) {
        message.insert("contextId".into(), json!(id));
    }
    let call = "A2A: message/send";
    let mut result = rpc(
        context,
        target,
        call,
        credential.clone(),
        "message/send",
        json!({"message": message, "configuration": {"blocking": true}}),
        message_id,
    )
    .await?;
    let mut polls = 0;
    while let Some(task_id) = running_task(&result) {
        if polls == MAX_POLLS {
            return Err(AgentError::new(
                "agentTimeout",
                format!("A2A: tasks/get: task {task_id} was still running after {MAX_POLLS} polls"),
            ));
        }
        polls += 1;
        context.clock.sleep(POLL_INTERVAL).await;
        result = rpc(
            context,
            target,
            "A2A: tasks/get",
            credential.clone(),
            "tasks/get",
            json!({"id": task_id}),
            message_id,
        )
        .await?;
    }
    let (kind, body) = unwrap_result(&result);
    if let Some(id) = text_at(body, "/contextId") {
        *context_id = Some(id.to_owned());
    }
    if kind == "task" {
        let state = task_state(body);
        if matches!(state, "failed" | "rejected" | "canceled" | "auth-required") {
            let said = body
                .pointer("/status/message")
                .map(parts_text)
                .filter(|text| !text.is_empty())
                .unwrap_or_else(|| "no reason given".to_owned());
            return Err(AgentError::new(
                "agentError",
                format!("{call}: the task ended '{state}': {said}"),
            ));
        }
        let artifacts: Vec<String> = body
            .get("artifacts")
            .and_then(Value::as_array)
            .map(|artifacts| artifacts.iter().map(parts_text).collect())
            .unwrap_or_default();
        let mut text = artifacts
            .into_iter()
            .filter(|text| !text.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n");
        if text.is_empty() {
            text = body
                .pointer("/status/message")
                .map(parts_text)
                .unwrap_or_default();
        }
        let mut reply = Reply {
            text,
            ..Reply::default()
        };
        for artifact in body
            .get("artifacts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            read_data_parts(artifact, &mut reply);
        }
        if state == "input-required" {
            reply
                .notes
                .push("the agent asked for more input (task state input-required)".to_owned());
        }
        return Ok(reply);
    }
    let mut reply = Reply {
        text: parts_text(body),
        ..Reply::default()
    };
    read_data_parts(body, &mut reply);
    Ok(reply)
}

/// Citations (`{title, url}`) and tool calls (`{name, arguments, output}`) an agent lists in a
/// `data` part's `citations` and `toolCalls`, as Microsoft Agent Framework samples and the demo
/// agent send them (A2A itself gives them no place).
fn read_data_parts(holder: &Value, reply: &mut Reply) {
    let parts = holder
        .get("parts")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for data in parts.iter().filter_map(|part| part.get("data")) {
        let listed = |name: &str| {
            data.get(name)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        for citation in listed("citations") {
            reply.citations.push(Citation {
                title: text_at(&citation, "/title").map(str::to_owned),
                url: text_at(&citation, "/url").map(str::to_owned),
                text: None,
            });
        }
        for call in listed("toolCalls") {
            let position = reply.tool_calls.len();
            reply.tool_calls.push(ToolCall {
                id: text_at(&call, "/id")
                    .map_or_else(|| format!("call_{}", position + 1), str::to_owned),
                name: text_at(&call, "/name").unwrap_or_default().to_owned(),
                arguments: call.get("arguments").cloned().unwrap_or(Value::Null),
                output: call.get("output").cloned(),
            });
        }
    }
}

async fn rpc(
    context: &Context<'_>,
    target: &A2aTarget,
    call: &str,
    credential: Option<(String, String)>,
    method: &str,
    params: Value,
    id: &str,
) -> Result<Value, AgentError> {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let answer = context
        .send_json(
            call,
            json_request(
                Method::Post,
                target.endpoint.clone(),
                Some(&body),
                credential,
            ),
        )
        .await?;
    if let Some(error) = answer.get("error") {
        let code = error.get("code").map(Value::to_string).unwrap_or_default();
        let message = text_at(error, "/message").unwrap_or("no message");
        return Err(AgentError::new(
            "agentError",
            format!("{call}: the agent answered JSON-RPC error {code}: {message}"),
        ));
    }
    answer.get("result").cloned().ok_or_else(|| {
        AgentError::new(
            "agentError",
            format!("{call}: the answer has neither \"result\" nor \"error\""),
        )
    })
}

/// The result's kind (`message` or `task`) and its object, in either version's shape.
fn unwrap_result(result: &Value) -> (&'static str, &Value) {
    if let Some(task) = result.get("task") {
        return ("task", task);
    }
    if let Some(message) = result.get("message").filter(|message| message.is_object()) {
        return ("message", message);
    }
    let is_task = text_at(result, "/kind") == Some("task") || result.get("status").is_some();
    (if is_task { "task" } else { "message" }, result)
}

/// A task's state, lower case with the 1.0 `TASK_STATE_` prefix removed.
fn task_state(task: &Value) -> &str {
    let state = text_at(task, "/status/state").unwrap_or("completed");
    match state {
        "TASK_STATE_SUBMITTED" => "submitted",
        "TASK_STATE_WORKING" => "working",
        "TASK_STATE_COMPLETED" => "completed",
        "TASK_STATE_FAILED" => "failed",
        "TASK_STATE_CANCELLED" | "TASK_STATE_CANCELED" => "canceled",
        "TASK_STATE_REJECTED" => "rejected",
        "TASK_STATE_INPUT_REQUIRED" => "input-required",
        "TASK_STATE_AUTH_REQUIRED" => "auth-required",
        other => other,
    }
}

/// The id of a task that has not ended yet.
fn running_task(result: &Value) -> Option<String> {
    let (kind, body) = unwrap_result(result);
    (kind == "task" && matches!(task_state(body), "submitted" | "working"))
        .then(|| text_at(body, "/id").map(str::to_owned))
        .flatten()
}

/// The text parts of a message or artifact, joined with a blank line.
fn parts_text(holder: &Value) -> String {
    holder
        .get("parts")
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter(|part| matches!(text_at(part, "/kind"), None | Some("text")))
                .filter_map(|part| text_at(part, "/text"))
                .filter(|text| !text.trim().is_empty())
                .collect::<Vec<_>>()
                .join("\n\n")
        })
        .unwrap_or_default()
}
