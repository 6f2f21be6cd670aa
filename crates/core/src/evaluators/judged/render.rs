//! How dataset values are shown to a judge. Agent message lists are reformatted the way
//! azure-ai-evaluation 1.18.10 does it (`_common/utils.py`, reference notes §3.3), to the
//! character where the reference renders them: the conversation as `User turn i:` /
//! `Agent turn i:` blocks ([`conversation_history`]), the agent's answer as its text with
//! `[TOOL_CALL] name(k="v")` / `[TOOL_RESULT] …` lines ([`agent_response_text`],
//! [`tool_call_results`]) and tool definitions as `- name: description (inputs: …)` lines
//! ([`tool_definitions_summary`]). Where the reference gives up and sends Python's `repr` of the
//! raw input, [`conversation`] and [`agent_response`] show a readable listing instead ([`readable`]).
//!
//! It renders only; which inputs a judge reads, and what it decides before any call, is
//! `catalog`'s.

use crate::json::{Map, Value};
use crate::text::python;
pub use agenteval_python::repr::{py_json, py_repr, py_str};

/// The messages of `value` when it is a non-empty list of message objects (each with a `role`).
pub fn messages(value: &Value) -> Option<Vec<&Map<String, Value>>> {
    let list = value.as_array()?;
    let messages: Vec<&Map<String, Value>> = list
        .iter()
        .filter_map(Value::as_object)
        .filter(|message| message.contains_key("role"))
        .collect();
    (!list.is_empty() && messages.len() == list.len()).then_some(messages)
}

/// Python's truth value of a JSON value.
pub fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(flag)) => *flag,
        Some(Value::Number(number)) => number.as_f64().is_some_and(|number| number != 0.0),
        Some(Value::String(text)) => !text.is_empty(),
        Some(Value::Array(list)) => !list.is_empty(),
        Some(Value::Object(map)) => !map.is_empty(),
    }
}

fn member<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    value.as_object().and_then(|map| map.get(key))
}

fn is_str(value: Option<&Value>, expected: &str) -> bool {
    value.and_then(Value::as_str) == Some(expected)
}

/// `_format_value`: a tool-call argument as `[TOOL_CALL]` lines show it (`"text"`, `None`, `2`,
/// `{'k': 'v'}`).
fn format_argument(value: &Value) -> String {
    match value {
        Value::String(text) => format!("\"{text}\""),
        other => py_repr(other),
    }
}

/// `_stringify_tool_result`: text as it is, `None` as nothing, anything else as JSON.
fn stringify_tool_result(result: Option<&Value>) -> String {
    match result {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => py_json(other),
    }
}

// --- the reference's message handling --------------------------------------------------------

/// `_preprocess_messages`: MCP approval messages dropped, `function_call` / `openapi_call` items
/// renamed `tool_call` and their outputs `tool_result`. Anything but a list is returned as is.
pub fn preprocess(messages: &Value) -> Value {
    let Value::Array(list) = messages else {
        return messages.clone();
    };
    let has_item = |message: &Map<String, Value>, kind: &str| {
        message
            .get("content")
            .and_then(Value::as_array)
            .is_some_and(|items| items.iter().any(|item| is_str(member(item, "type"), kind)))
    };
    let kept = list.iter().filter(|message| {
        let Some(message) = message.as_object() else {
            return true;
        };
        let role = message.get("role").and_then(Value::as_str);
        !((role == Some("assistant") && has_item(message, "mcp_approval_request"))
            || (role == Some("tool") && has_item(message, "mcp_approval_response")))
    });
    Value::Array(kept.map(normalise_message).collect())
}

fn normalise_message(message: &Value) -> Value {
    let mut message = message.clone();
    if let Some(Value::Array(items)) = message.as_object_mut().and_then(|m| m.get_mut("content")) {
        for item in items.iter_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            let rename =
                |item: &mut Map<String, Value>, kind: &str, field: Option<(&str, &str)>| {
                    item.insert("type".to_owned(), Value::from(kind));
                    if let Some((from, to)) = field {
                        if let Some(value) = item.shift_remove(from) {
                            item.insert(to.to_owned(), value);
                        }
                    }
                };
            match item.get("type").and_then(Value::as_str) {
                Some("function_call") => {
                    rename(item, "tool_call", Some(("function_call", "tool_call")));
                }
                Some("function_call_output") => rename(
                    item,
                    "tool_result",
                    Some(("function_call_output", "tool_result")),
                ),
                Some("openapi_call") => rename(item, "tool_call", None),
                Some("openapi_call_output") => rename(
                    item,
                    "tool_result",
                    Some(("openapi_call_output", "tool_result")),
                ),
                _ => {}
            }
        }
    }
    message
}

/// `_is_intermediate_response`: the last message is the assistant's and its last content item
/// is a `function_call` or an `mcp_approval_request` (the agent has not answered yet).
pub fn is_intermediate(response: &Value) -> bool {
    let Some(last) = response.as_array().and_then(|list| list.last()) else {
        return false;
    };
    is_str(member(last, "role"), "assistant")
        && member(last, "content")
            .and_then(Value::as_array)
            .and_then(|items| items.last())
            .is_some_and(|item| {
                matches!(
                    member(item, "type").and_then(Value::as_str),
                    Some("function_call" | "mcp_approval_request")
                )
            })
}

/// `_extract_text_from_content`: the `text` of each content item; `None` where Python raises
/// (or later fails on a text that is not a string).
fn texts_of(content: &Value) -> Option<Vec<String>> {
    match content {
        Value::String(_) => Some(Vec::new()),
        Value::Object(map) => map.keys().all(|key| !key.contains("text")).then(Vec::new),
        Value::Array(items) => {
            let mut texts = Vec::new();
            for item in items {
                match item {
                    Value::Object(item) => match item.get("text") {
                        None => {}
                        Some(Value::String(text)) => texts.push(text.clone()),
                        Some(_) => return None,
                    },
                    Value::String(text) if !text.contains("text") => {}
                    Value::Array(list) if !list.iter().any(|entry| entry == "text") => {}
                    _ => return None,
                }
            }
            Some(texts)
        }
        _ => None,
    }
}

/// The items Python's `for content in msg.get("content", [])` sees, each of which must then be
/// a dict (`content.get(…)`); `None` where that raises.
pub(super) fn content_objects(message: &Map<String, Value>) -> Option<Vec<&Map<String, Value>>> {
    match message.get("content") {
        None => Some(Vec::new()),
        Some(Value::Array(items)) => items.iter().map(Value::as_object).collect(),
        Some(Value::String(text)) if text.is_empty() => Some(Vec::new()),
        Some(Value::Object(map)) if map.is_empty() => Some(Vec::new()),
        Some(_) => None,
    }
}

/// Python's `==` between two dict keys (tool-call ids).
fn same_key(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Bool(a), Value::Number(b)) | (Value::Number(b), Value::Bool(a)) => {
            b.as_f64() == Some(f64::from(u8::from(*a)))
        }
        _ => left == right,
    }
}

/// How `[TOOL_CALL]` lines show argument values: `_format_value`, or every value quoted
/// (ToolCallSuccess's own copy).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arguments {
    Formatted,
    Quoted,
}

/// `_get_agent_response` (with `texts`) and `_get_tool_calls_results` (without): the agent's
/// text and, with `tools`, a `[TOOL_CALL]` line per call followed by its `[TOOL_RESULT]`.
fn agent_lines(
    messages: &[&Map<String, Value>],
    texts: bool,
    tools: bool,
    arguments: Arguments,
) -> Option<Vec<String>> {
    let mut results: Vec<(&Value, String)> = Vec::new();
    if tools {
        for message in messages {
            if !is_str(message.get("role"), "tool") {
                continue;
            }
            let Some(id) = message.get("tool_call_id") else {
                continue;
            };
            if id.is_array() || id.is_object() {
                return None;
            }
            for item in content_objects(message)? {
                if is_str(item.get("type"), "tool_result") {
                    let line = format!(
                        "[TOOL_RESULT] {}",
                        stringify_tool_result(item.get("tool_result"))
                    );
                    match results.iter_mut().find(|(known, _)| same_key(known, id)) {
                        Some(entry) => entry.1 = line,
                        None => results.push((id, line)),
                    }
                }
            }
        }
    }
    let mut lines = Vec::new();
    for message in messages {
        if !is_str(message.get("role"), "assistant") {
            continue;
        }
        let Some(content) = message.get("content") else {
            continue;
        };
        if texts {
            lines.extend(texts_of(content)?);
        }
        if !tools {
            continue;
        }
        for item in content_objects(message)? {
            if !is_str(item.get("type"), "tool_call") {
                continue;
            }
            let (name, call_arguments, id) = call_parts(item)?;
            let rendered = match call_arguments {
                None => String::new(),
                Some(Value::Object(map)) => map
                    .iter()
                    .map(|(key, value)| match arguments {
                        Arguments::Formatted => format!("{key}={}", format_argument(value)),
                        Arguments::Quoted => format!("{key}=\"{}\"", py_str(value)),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                Some(_) => return None,
            };
            lines.push(format!("[TOOL_CALL] {name}({rendered})"));
            if let Some(id) = id {
                if id.is_array() || id.is_object() {
                    return None;
                }
                if let Some((_, line)) = results.iter().find(|(known, _)| same_key(known, id)) {
                    lines.push(line.clone());
                }
            }
        }
    }
    Some(lines)
}

/// A tool call's name (as text), arguments and id, flat (`name`, `arguments`, `tool_call_id`) or
/// nested (`tool_call.function.{name, arguments}`, `tool_call.id`).
fn call_parts(item: &Map<String, Value>) -> Option<(String, Option<&Value>, Option<&Value>)> {
    let nested = item.get("tool_call").filter(|call| match call {
        Value::Object(map) => map.contains_key("function"),
        Value::String(text) => text.contains("function"),
        Value::Array(list) => list.iter().any(|entry| entry == "function"),
        _ => false,
    });
    match nested {
        Some(Value::Object(call)) => {
            let function = call.get("function")?.as_object()?;
            let name = function.get("name").map_or_else(String::new, py_str);
            Some((name, function.get("arguments"), call.get("id")))
        }
        Some(_) => None,
        None => Some((
            item.get("name").map_or_else(String::new, py_str),
            item.get("arguments"),
            item.get("tool_call_id"),
        )),
    }
}

/// `reformat_conversation_history(query, include_system_messages=with_system,
/// include_tool_messages=with_tools)`: `User turn i:` / `Agent turn i:` blocks, every line
/// indented two spaces, after a `SYSTEM_PROMPT:` block when asked. `None` where the reference
/// falls back to the raw input (not a message list, or not one more user turn than agent turns).
pub fn conversation_history(query: &Value, with_system: bool, with_tools: bool) -> Option<String> {
    let list = query.as_array()?;
    let mut user_turns: Vec<Vec<Vec<String>>> = Vec::new();
    let mut agent_turns: Vec<Vec<String>> = Vec::new();
    let mut user: Vec<Vec<String>> = Vec::new();
    let mut agent: Vec<&Map<String, Value>> = Vec::new();
    let mut system: Option<String> = None;
    for message in list {
        let message = message.as_object()?;
        let role = message.get("role");
        if !truthy(role) {
            continue;
        }
        if with_system && is_str(role, "system") {
            system = system_text(message.get("content"))?;
        } else if is_str(role, "user") && message.contains_key("content") {
            if !agent.is_empty() {
                agent_turns.push(agent_lines(&agent, true, with_tools, Arguments::Formatted)?);
                agent.clear();
            }
            let texts = texts_of(message.get("content").unwrap_or(&Value::Null))?;
            if !texts.is_empty() {
                user.push(texts);
            }
        } else if is_str(role, "assistant") || is_str(role, "tool") {
            if !user.is_empty() {
                user_turns.push(std::mem::take(&mut user));
            }
            agent.push(message);
        }
    }
    if !user.is_empty() {
        user_turns.push(user);
    }
    if !agent.is_empty() {
        agent_turns.push(agent_lines(&agent, true, with_tools, Arguments::Formatted)?);
    }
    if user_turns.len() != agent_turns.len() + 1 {
        return None;
    }
    let indented = |out: &mut String, text: &str| {
        out.push_str("  ");
        out.push_str(&text.split('\n').collect::<Vec<_>>().join("\n  "));
        out.push('\n');
    };
    let mut out = String::new();
    if let Some(system) = system.filter(|system| !system.is_empty()) {
        out.push_str("SYSTEM_PROMPT:\n  ");
        out.push_str(&system);
        out.push_str("\n\n");
    }
    for (position, turn) in user_turns.iter().enumerate() {
        out.push_str(&format!("User turn {}:\n", position + 1));
        for text in turn.iter().flatten() {
            indented(&mut out, text);
        }
        out.push('\n');
        if let Some(lines) = agent_turns.get(position) {
            out.push_str(&format!("Agent turn {}:\n", position + 1));
            for line in lines {
                indented(&mut out, line);
            }
            out.push('\n');
        }
    }
    Some(out)
}

/// `_extract_system_message_content`, as the history prints it: `Some(None)` for nothing to
/// print, `None` where Python raises.
fn system_text(content: Option<&Value>) -> Option<Option<String>> {
    match content {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(text)) => Some(Some(text.clone())),
        Some(list @ Value::Array(_)) => Some(Some(texts_of(list)?.join("\n"))),
        Some(other) if !truthy(Some(other)) => Some(None),
        Some(_) => None,
    }
}

/// `reformat_agent_response(response, include_tool_messages=with_tools)`: the assistant's text
/// and, with `with_tools`, its `[TOOL_CALL]` / `[TOOL_RESULT]` lines. `Some("")` for nothing
/// (`null`, `[]`); `None` where the reference falls back to the raw input.
pub fn agent_response_text(response: &Value, with_tools: bool) -> Option<String> {
    agent_lines_text(response, true, with_tools, Arguments::Formatted)
}

/// ToolCallSuccess's `_reformat_tool_calls_results`: only `[TOOL_CALL]` lines (every argument
/// value quoted) and their `[TOOL_RESULT]` lines; `None` where the reference falls back.
pub fn tool_call_results(response: &Value) -> Option<String> {
    agent_lines_text(response, false, true, Arguments::Quoted)
}

/// A response's agent lines joined: `Some("")` for nothing (`null`, `[]`), `None` where the
/// reference falls back to the raw input (not a list of message objects, or no line at all).
fn agent_lines_text(
    response: &Value,
    with_text: bool,
    with_tools: bool,
    arguments: Arguments,
) -> Option<String> {
    match response {
        Value::Null => Some(String::new()),
        Value::Array(list) if list.is_empty() => Some(String::new()),
        Value::Array(list) => {
            let messages: Vec<&Map<String, Value>> =
                list.iter().map(Value::as_object).collect::<Option<_>>()?;
            let lines = agent_lines(&messages, with_text, with_tools, arguments)?;
            (!lines.is_empty()).then(|| lines.join("\n"))
        }
        _ => None,
    }
}

/// `reformat_tool_definitions`: `TOOL_DEFINITIONS:` then `- name: description (inputs: a, b)`
/// per tool (`no parameters` when it has none); `None` where the reference falls back.
pub fn tool_definitions_summary(definitions: &Value) -> Option<String> {
    let tools: Vec<&Map<String, Value>> = match definitions {
        Value::Array(list) => list.iter().map(Value::as_object).collect::<Option<_>>()?,
        Value::Object(map) if map.is_empty() => Vec::new(),
        Value::String(text) if text.is_empty() => Vec::new(),
        _ => return None,
    };
    let mut lines = vec!["TOOL_DEFINITIONS:".to_owned()];
    for tool in tools {
        let name = tool
            .get("name")
            .map_or_else(|| "unnamed_tool".to_owned(), py_str);
        let description = match tool.get("description") {
            None => "",
            Some(Value::String(text)) => text.trim_matches(python::is_space),
            Some(_) => return None,
        };
        let properties = match tool.get("parameters") {
            None => None,
            Some(Value::Object(parameters)) => parameters.get("properties"),
            Some(_) => return None,
        };
        let inputs = match properties {
            Some(Value::Object(map)) if !map.is_empty() => {
                map.keys().cloned().collect::<Vec<_>>().join(", ")
            }
            Some(other) if truthy(Some(other)) => return None,
            _ => "no parameters".to_owned(),
        };
        lines.push(format!("- {name}: {description} (inputs: {inputs})"));
    }
    Some(lines.join("\n"))
}

/// `filter_to_used_tools`: the definitions of the tools the assistant called in
/// `message_lists` (preprocessed); all of them when calls were made but none is defined, or
/// where the reference's filter fails.
pub fn used_tool_definitions(definitions: &Value, message_lists: &[&Value]) -> Value {
    let Value::Array(tools) = definitions else {
        return definitions.clone();
    };
    let mut used: Vec<&Value> = Vec::new();
    let mut any_call = false;
    for list in message_lists {
        let Some(list) = list.as_array() else {
            return definitions.clone();
        };
        for message in list {
            let Some(message) = message.as_object() else {
                return definitions.clone();
            };
            if !is_str(message.get("role"), "assistant") || !message.contains_key("content") {
                continue;
            }
            let Some(items) = content_objects(message) else {
                return definitions.clone();
            };
            for item in items {
                if !is_str(item.get("type"), "tool_call") {
                    continue;
                }
                any_call = true;
                match item.get("tool_call").and_then(Value::as_object) {
                    Some(call) if call.contains_key("function") => {
                        return definitions.clone();
                    }
                    _ => {
                        if let Some(name) = item.get("name") {
                            used.push(name);
                        }
                    }
                }
            }
        }
    }
    let kept: Vec<Value> = tools
        .iter()
        .filter(|tool| {
            member(tool, "name").is_some_and(|name| used.iter().any(|used| same_key(used, name)))
        })
        .cloned()
        .collect();
    if any_call && kept.is_empty() {
        return definitions.clone();
    }
    Value::Array(kept)
}

// --- what agenteval shows the judge -----------------------------------------------------------

/// The conversation for the judge: [`conversation_history`] of the preprocessed messages, else a
/// [`readable`] listing; text as it is.
pub fn conversation(query: &Value, with_system: bool, with_tools: bool) -> String {
    if let Value::String(text) = query {
        return text.clone();
    }
    let messages = preprocess(query);
    match conversation_history(&messages, with_system, with_tools) {
        Some(history) => history.trim_end().to_owned(),
        None => readable(&messages),
    }
}

/// The agent's answer for the judge: [`agent_response_text`] of the preprocessed messages, else a
/// [`readable`] listing; text as it is.
pub fn agent_response(response: &Value, with_tools: bool) -> String {
    if let Value::String(text) = response {
        return text.clone();
    }
    let messages = preprocess(response);
    agent_response_text(&messages, with_tools).unwrap_or_else(|| readable(&messages))
}

/// Any value, readably: text as it is, a message list (or a list of content items) one line per
/// message and item (`role: text`, `[TOOL_CALL] …`, `[TOOL_RESULT] …`), other JSON as JSON.
pub fn readable(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        Value::Array(list) if list.iter().all(|entry| entry.is_object()) => list
            .iter()
            .filter_map(Value::as_object)
            .map(|entry| match entry.get("role") {
                Some(role) => format!("{}: {}", py_str(role), content_text(entry.get("content"))),
                None => item_text(entry),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => py_json(other),
    }
}

fn content_text(content: Option<&Value>) -> String {
    match content {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_object().map_or_else(|| py_json(item), item_text))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(other) => py_json(other),
    }
}

fn item_text(item: &Map<String, Value>) -> String {
    if let Some(Value::String(text)) = item.get("text") {
        return text.clone();
    }
    match item.get("type").and_then(Value::as_str) {
        Some("tool_call" | "function_call" | "openapi_call") => {
            let (name, arguments, _) = call_parts(item).unwrap_or_default();
            let arguments = match arguments {
                Some(Value::Object(map)) => map
                    .iter()
                    .map(|(key, value)| format!("{key}={}", format_argument(value)))
                    .collect::<Vec<_>>()
                    .join(", "),
                Some(other) => py_str(other),
                None => String::new(),
            };
            format!("[TOOL_CALL] {name}({arguments})")
        }
        Some(kind @ ("tool_result" | "function_call_output" | "openapi_call_output")) => {
            format!("[TOOL_RESULT] {}", stringify_tool_result(item.get(kind)))
        }
        _ => py_json(&Value::Object(item.clone())),
    }
}

/// Tool calls (`[TOOL_CALL]` lines, each followed by the `[TOOL_RESULT]` attached to it) of a
/// list of call objects; a string as it is.
pub fn call_list(calls: &Value) -> String {
    match calls {
        Value::Array(list) => list
            .iter()
            .map(|call| match call.as_object() {
                Some(call) => {
                    let line = item_text(call);
                    match call.get("tool_result") {
                        Some(result) if line.starts_with("[TOOL_CALL]") => format!(
                            "{line}\n[TOOL_RESULT] {}",
                            stringify_tool_result(Some(result))
                        ),
                        _ => line,
                    }
                }
                None => py_str(call),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => readable(other),
    }
}

/// Tool definitions in full (their parameter schemas matter to the tool judges), one JSON
/// object per line; text as it is.
pub fn definitions_json(definitions: &Value) -> String {
    match definitions {
        Value::String(text) => text.clone(),
        Value::Array(list) => list.iter().map(py_json).collect::<Vec<_>>().join("\n"),
        other => py_json(other),
    }
}

/// A tool-definitions summary for the judge: [`tool_definitions_summary`], else the JSON.
pub fn definitions_summary(definitions: &Value) -> String {
    match definitions {
        Value::String(text) => text.clone(),
        other => tool_definitions_summary(other).unwrap_or_else(|| definitions_json(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    /// A case of the reference's judge case files (`tests/fixtures/parity/judges`).
    fn case(key: &str, name: &str) -> Value {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/parity/judges")
            .join(format!("{key}.json"));
        let document = json::parse_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        document["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|case| case["name"] == name)
            .unwrap_or_else(|| panic!("{key}: {name}"))
            .clone()
    }

    /// The reference's rendering of `variable` in the case's (first) call.
    fn rendered<'c>(case: &'c Value, variable: &str) -> &'c str {
        case["prompt_inputs"][variable].as_str().unwrap()
    }

    #[test]
    fn histories_match_the_reference() {
        let with_tools = case("tool_selection", "agent query with tool calls");
        let query = preprocess(&with_tools["inputs"]["query"]);
        assert_eq!(
            conversation_history(&query, true, true).as_deref(),
            Some(rendered(&with_tools, "query"))
        );
        let multi_turn = case("intent_resolution", "agent multi-turn query");
        let query = preprocess(&multi_turn["inputs"]["query"]);
        assert_eq!(
            conversation_history(&query, false, false).as_deref(),
            Some(rendered(&multi_turn, "query"))
        );
        // NOTE: a system prompt given as content items keeps only its first line indented, as
        // `_pretty_format_conversation_history` writes it.
        let system = case("task_adherence", "system message as content list");
        let query = preprocess(&system["inputs"]["query"]);
        assert_eq!(
            conversation_history(&query, true, false).as_deref(),
            Some(rendered(&system, "query"))
        );
    }

    #[test]
    fn histories_the_reference_cannot_read_fall_back_to_a_listing() {
        let string_content = case("relevance", "user message with string content");
        let query = &string_content["inputs"]["query"];
        assert_eq!(conversation_history(&preprocess(query), false, false), None);
        assert_eq!(
            conversation(query, false, false),
            "system: You are a helpful travel assistant. Use the tools when needed.\nuser: What's the weather in Paris? Email it to me."
        );
        assert_eq!(conversation(&json!("plain"), true, true), "plain");
    }

    #[test]
    fn agent_responses_match_the_reference() {
        for (key, name) in [
            ("task_adherence", "agent query with tool calls"),
            ("task_adherence", "function_call items"),
            ("task_completion", "tool result null"),
            ("task_completion", "failed tool result"),
        ] {
            let case = case(key, name);
            let response = preprocess(&case["inputs"]["response"]);
            assert_eq!(
                agent_response_text(&response, true).as_deref(),
                Some(rendered(&case, "response")),
                "{key}: {name}"
            );
        }
        let tool_input = case(
            "tool_input_accuracy",
            "built-in file_search without definition",
        );
        assert_eq!(
            agent_response(&tool_input["inputs"]["response"], true),
            rendered(&tool_input, "tool_calls")
        );
        let text_only = case("relevance", "agent messages");
        assert_eq!(
            agent_response(&text_only["inputs"]["response"], false),
            rendered(&text_only, "response")
        );
        assert_eq!(agent_response_text(&json!([]), true).as_deref(), Some(""));
        assert_eq!(
            agent_response_text(&json!([{"role": "assistant", "content": "x"}]), false),
            None
        );
    }

    #[test]
    fn tool_call_success_quotes_every_argument() {
        for name in [
            "with query",
            "nested tool_call payload",
            "no definition matches the used tools",
        ] {
            let case = case("tool_call_success", name);
            let response = preprocess(&case["inputs"]["response"]);
            assert_eq!(
                tool_call_results(&response).as_deref(),
                Some(rendered(&case, "tool_calls")),
                "{name}"
            );
            let used = used_tool_definitions(&case["inputs"]["tool_definitions"], &[&response]);
            assert_eq!(
                tool_definitions_summary(&used).as_deref(),
                Some(rendered(&case, "tool_definitions")),
                "{name}"
            );
        }
        let no_calls = case("tool_call_success", "no tool calls");
        assert_eq!(
            tool_call_results(&preprocess(&no_calls["inputs"]["response"])),
            None
        );
    }

    #[test]
    fn definition_summaries_match_the_reference() {
        let all = case("task_completion", "agent messages");
        assert_eq!(
            tool_definitions_summary(&all["inputs"]["tool_definitions"]).as_deref(),
            Some(rendered(&all, "tool_definitions"))
        );
        for name in [
            "agent multi-turn query",
            "no tool used drops all definitions",
            "tool definition without description",
        ] {
            let case = case("tool_output_utilization", name);
            let query = preprocess(&case["inputs"]["query"]);
            let response = preprocess(&case["inputs"]["response"]);
            let used =
                used_tool_definitions(&case["inputs"]["tool_definitions"], &[&query, &response]);
            assert_eq!(
                tool_definitions_summary(&used).as_deref(),
                Some(rendered(&case, "tool_definitions")),
                "{name}"
            );
        }
    }

    #[test]
    fn intermediate_responses_end_with_a_call_or_an_approval_request() {
        let intermediate = json!([{"role": "assistant", "content": [{"type": "text", "text": "Checking."}, {"type": "function_call", "name": "f", "arguments": {}}]}]);
        assert!(is_intermediate(&intermediate));
        let approval =
            json!([{"role": "assistant", "content": [{"type": "mcp_approval_request"}]}]);
        assert!(is_intermediate(&approval));
        let answered = json!([{"role": "assistant", "content": [{"type": "tool_call", "name": "f", "arguments": {}}]}]);
        assert!(!is_intermediate(&answered), "only function_call counts");
        assert!(!is_intermediate(&json!("text")));
        let preprocessed = preprocess(&json!([
            {"role": "assistant", "content": [{"type": "mcp_approval_request", "id": "a"}]},
            {"role": "tool", "tool_call_id": "a", "content": [{"type": "mcp_approval_response", "approve": true}]},
            {"role": "assistant", "content": [{"type": "function_call", "name": "f", "arguments": {}}]},
            {"role": "tool", "tool_call_id": "c", "content": [{"type": "function_call_output", "function_call_output": 1}]}
        ]));
        assert_eq!(
            preprocessed,
            json!([
                {"role": "assistant", "content": [{"type": "tool_call", "name": "f", "arguments": {}}]},
                {"role": "tool", "tool_call_id": "c", "content": [{"type": "tool_result", "tool_result": 1}]}
            ])
        );
    }
}
