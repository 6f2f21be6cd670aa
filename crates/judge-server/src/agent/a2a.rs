//! The demo agent over Agent2Agent (A2A, protocol 0.3, JSON-RPC 2.0 binding): `message/send` at
//! `POST /agent/a2a`, answered with a `Message` — or a completed `Task` with an artifact when
//! the agent used a tool, or a `working` one when the client asked not to block — carrying the
//! `contextId` that keeps the conversation; `tasks/get`; and the agent card at
//! `GET /agent/a2a/.well-known/agent-card.json`. Protocol errors are JSON-RPC errors
//! (HTTP 200); faults are HTTP errors, as a gateway in front of an agent sends them.

use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use super::knowledge::{self, Answer};
use super::turn::Turn;
use crate::http::{Outcome, Request, Response};
use crate::memory::Thread;
use crate::state::Shared;

/// JSON-RPC's error codes.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
/// A2A's `TaskNotFoundError`.
const TASK_NOT_FOUND: i64 = -32001;

/// How long a non-blocking task stays `working`.
const WORK_TIME: Duration = Duration::from_millis(200);

/// The A2A protocol version the card declares.
const PROTOCOL_VERSION: &str = "0.3.0";

/// Answers a JSON-RPC call at `POST /agent/a2a`.
pub(crate) fn call(shared: &Shared, request: &Request) -> Outcome {
    let body = match serde_json::from_slice::<Value>(&request.body) {
        Ok(body) => body,
        Err(error) => {
            return rpc_error(&Value::Null, PARSE_ERROR, &format!("Parse error: {error}"))
        }
    };
    let id = body.get("id").cloned().unwrap_or(Value::Null);
    let (Some("2.0"), Some(method)) = (
        body.get("jsonrpc").and_then(Value::as_str),
        body.get("method").and_then(Value::as_str),
    ) else {
        return rpc_error(
            &id,
            INVALID_REQUEST,
            "Invalid Request: expected {\"jsonrpc\": \"2.0\", \"id\", \"method\", \"params\"}",
        );
    };
    let params = body.get("params");
    match method {
        "message/send" => send(shared, &id, params),
        "tasks/get" => get_task(shared, &id, params),
        _ => rpc_error(
            &id,
            METHOD_NOT_FOUND,
            &format!(
                "Method not found: `{method}`; the demo agent answers `message/send` and `tasks/get`"
            ),
        ),
    }
}

/// `message/send`: a `Message`, or a `Task` for a tool answer; with `configuration.blocking`
/// false, always a `Task`, `working` until [`WORK_TIME`] (and any `latency=MS`) has passed.
fn send(shared: &Shared, id: &Value, params: Option<&Value>) -> Outcome {
    let message = match read_message(params) {
        Ok(message) => message,
        Err(problem) => {
            return rpc_error(id, INVALID_PARAMS, &format!("Invalid params: {problem}"))
        }
    };
    let blocking = params
        .and_then(|params| params.pointer("/configuration/blocking"))
        .and_then(Value::as_bool)
        != Some(false);
    let turn = match Turn::read(shared, "a2a", &message_text(message)) {
        Ok(turn) => turn,
        Err(mistake) => {
            return rpc_error(id, INVALID_PARAMS, &format!("Invalid params: {mistake}"))
        }
    };
    let held = if blocking {
        turn.hold(shared)
    } else {
        turn.refusal(shared)
    };
    if let Some(held) = held {
        return held;
    }
    let context_id = message
        .get("contextId")
        .and_then(Value::as_str)
        .map_or_else(
            || format!("ctx-{}", shared.memory.fresh_id(shared.config.seed)),
            str::to_string,
        );
    let key = format!("a2a:{context_id}");
    let previous = shared.memory.thread(&key).and_then(|thread| thread.topic);
    let answer = knowledge::answer(&turn.prompt, previous);
    shared.memory.keep_thread(
        key,
        Thread {
            topic: answer.topic,
            pending_call: None,
        },
    );
    let result = if !blocking || answer.tool.is_some() {
        let completed = task(shared, &context_id, message, &answer);
        let task_id = text(&completed, "id");
        let done = if blocking {
            Instant::now()
        } else {
            Instant::now() + WORK_TIME + turn.latency
        };
        shared.memory.keep_task(task_id, done, completed.clone());
        if blocking {
            completed
        } else {
            working(&completed)
        }
    } else {
        json!({
            "kind": "message", "role": "agent",
            "messageId": format!("msg-{}", shared.memory.fresh_id(shared.config.seed)),
            "contextId": context_id, "parts": parts(&answer),
        })
    };
    turn.deliver(Response::json(
        200,
        &json!({"jsonrpc": "2.0", "id": id, "result": result}),
    ))
}

/// `tasks/get`: the task `params.id` as it is now.
fn get_task(shared: &Shared, id: &Value, params: Option<&Value>) -> Outcome {
    let Some(task_id) = params
        .and_then(|params| params.get("id"))
        .and_then(Value::as_str)
    else {
        return rpc_error(
            id,
            INVALID_PARAMS,
            "Invalid params: `params.id` must be a task id",
        );
    };
    let Some((done, completed)) = shared.memory.task(task_id) else {
        return rpc_error(id, TASK_NOT_FOUND, &format!("Task not found: {task_id}"));
    };
    let result = if Instant::now() >= done {
        completed
    } else {
        working(&completed)
    };
    Outcome::Send(Response::json(
        200,
        &json!({"jsonrpc": "2.0", "id": id, "result": result}),
    ))
}

/// `completed` as it looks while the agent works on it: state `working`, no artifacts yet.
fn working(completed: &Value) -> Value {
    let mut task = completed.clone();
    if let Some(fields) = task.as_object_mut() {
        fields.insert("status".into(), json!({"state": "working"}));
        fields.remove("artifacts");
    }
    task
}

fn text(value: &Value, field: &str) -> String {
    value
        .get(field)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The agent card; its `url` is on the host the request was sent to.
pub(crate) fn card(shared: &Shared, request: &Request) -> Outcome {
    let host = request.header("host").unwrap_or("127.0.0.1");
    let mut card = json!({
        "protocolVersion": PROTOCOL_VERSION,
        "name": "agenteval demo agent",
        "description": "A local demo agent answering HR and general questions from a small built-in knowledge base, for testing agent runs.",
        "url": format!("http://{host}/agent/a2a"),
        "preferredTransport": "JSONRPC",
        "version": env!("CARGO_PKG_VERSION"),
        "capabilities": {"streaming": false, "pushNotifications": false, "stateTransitionHistory": false},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain", "application/json"],
        "skills": [
            {"id": "hr-policies", "name": "HR policies",
             "description": "Vacation, parental leave, travel and expenses, benefits, payroll, onboarding and parking.",
             "tags": ["hr", "policies"],
             "examples": ["How many vacation days do new employees get?", "Where do I park?"]},
            {"id": "general-knowledge", "name": "General questions",
             "description": "A few general knowledge questions.",
             "tags": ["general"], "examples": ["What is the capital of France?"]},
        ],
    });
    if let (Some(_), Some(fields)) = (&shared.config.key, card.as_object_mut()) {
        fields.insert(
            "securitySchemes".into(),
            json!({"bearer": {"type": "http", "scheme": "bearer"}}),
        );
        fields.insert("security".into(), json!([{"bearer": []}]));
    }
    Outcome::Send(Response::json(200, &card))
}

/// `params.message`, checked: a user message with a list of parts.
fn read_message(params: Option<&Value>) -> Result<&Map<String, Value>, &'static str> {
    let message = params
        .and_then(|params| params.get("message"))
        .and_then(Value::as_object)
        .ok_or("`params.message` must be an object")?;
    if message.get("role").and_then(Value::as_str) != Some("user") {
        return Err("`params.message.role` must be \"user\"");
    }
    let parts = message
        .get("parts")
        .and_then(Value::as_array)
        .ok_or("`params.message.parts` must be an array")?;
    if !parts
        .iter()
        .any(|part| part.get("kind").and_then(Value::as_str) == Some("text"))
    {
        return Err("`params.message.parts` must hold a part of kind \"text\"");
    }
    Ok(message)
}

/// The text parts of `message`, one per line.
fn message_text(message: &Map<String, Value>) -> String {
    message
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|part| part.get("kind").and_then(Value::as_str) == Some("text"))
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The answer as parts: its text (with citation markers), then its citations and tool calls as
/// a data part when it has any.
fn parts(answer: &Answer) -> Vec<Value> {
    let mut parts = vec![json!({"kind": "text", "text": answer.text()})];
    let mut data = Map::new();
    if !answer.sources.is_empty() {
        data.insert("citations".into(), Value::Array(answer.citations()));
    }
    if let Some(tool) = answer.tool {
        data.insert(
            "toolCalls".into(),
            json!([{"name": tool.name, "arguments": tool.arguments, "output": tool.output}]),
        );
    }
    if !data.is_empty() {
        parts.push(json!({"kind": "data", "data": data}));
    }
    parts
}

/// A completed task whose artifact is the answer.
fn task(shared: &Shared, context_id: &str, message: &Map<String, Value>, answer: &Answer) -> Value {
    let task_id = format!("task-{}", shared.memory.fresh_id(shared.config.seed));
    let mut asked = message.clone();
    asked.insert("contextId".into(), json!(context_id));
    asked.insert("taskId".into(), json!(task_id));
    json!({
        "kind": "task", "id": task_id, "contextId": context_id,
        "status": {"state": "completed"},
        "artifacts": [{
            "artifactId": format!("artifact-{}", shared.memory.fresh_id(shared.config.seed)),
            "name": "answer", "parts": parts(answer),
        }],
        "history": [asked],
    })
}

fn rpc_error(id: &Value, code: i64, message: &str) -> Outcome {
    Outcome::Send(Response::json(
        200,
        &json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
    ))
}
