//! How dataset values are shown to a judge: plain text as it is, agent message lists the way
//! azure-ai-evaluation reformats them (`_common/utils.py`, reference notes §3.3): the
//! conversation as `User turn i:` / `Agent turn i:` blocks, the agent's answer as its text with
//! `[TOOL_CALL] name(k="v")` and `[TOOL_RESULT] …` lines, and tool definitions as
//! `- name: description (inputs: …)`. Other JSON is shown as compact JSON.

use crate::json::{Map, Value};

/// The text content of a message: a string, or the `text` of its text parts.
fn message_texts(message: &Map<String, Value>) -> Vec<String> {
    match message.get("content") {
        Some(Value::String(text)) => vec![text.clone()],
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

fn role(message: &Map<String, Value>) -> &str {
    message.get("role").and_then(Value::as_str).unwrap_or("")
}

/// The messages of `value` when it is a list of message objects (each with a `role`).
pub fn messages(value: &Value) -> Option<Vec<&Map<String, Value>>> {
    let list = value.as_array()?;
    let messages: Vec<&Map<String, Value>> = list
        .iter()
        .filter_map(Value::as_object)
        .filter(|message| message.contains_key("role"))
        .collect();
    (!list.is_empty() && messages.len() == list.len()).then_some(messages)
}

/// The content items of a message of any of the tool-call shapes, normalised to
/// `tool_call` / `tool_result`.
fn content_items(message: &Map<String, Value>) -> Vec<&Map<String, Value>> {
    match message.get("content") {
        Some(Value::Array(parts)) => parts.iter().filter_map(Value::as_object).collect(),
        _ => Vec::new(),
    }
}

fn item_kind(item: &Map<String, Value>) -> &str {
    match item.get("type").and_then(Value::as_str).unwrap_or("") {
        "function_call" | "openapi_call" | "tool_call" => "tool_call",
        "function_call_output" | "openapi_call_output" | "tool_result" => "tool_result",
        other => other,
    }
}

/// Whether the last message is the assistant's, and ends with a tool call (an intermediate
/// response: the agent has not answered yet).
pub fn is_intermediate(response: &Value) -> bool {
    let Some(messages) = messages(response) else {
        return false;
    };
    let Some(last) = messages.last() else {
        return false;
    };
    role(last) == "assistant"
        && content_items(last).last().is_some_and(|item| {
            matches!(
                item.get("type").and_then(Value::as_str),
                Some("function_call" | "mcp_approval_request")
            )
        })
}

/// The conversation so far as `User turn i:` / `Agent turn i:` blocks (each line indented two
/// spaces), with the system prompt first when `with_system` and tool lines when `with_tools`.
pub fn conversation(query: &Value, with_system: bool, with_tools: bool) -> String {
    let Some(messages) = messages(query) else {
        return text(query);
    };
    let mut out = String::new();
    if with_system {
        let system: Vec<String> = messages
            .iter()
            .filter(|message| role(message) == "system")
            .flat_map(|message| message_texts(message))
            .collect();
        if !system.is_empty() {
            out.push_str("SYSTEM_PROMPT:\n");
            out.push_str(&indent(&system.join("\n")));
            out.push_str("\n\n");
        }
    }
    let mut user_turn = 0;
    let mut agent_turn = 0;
    let mut agent_lines: Vec<String> = Vec::new();
    let flush_agent = |out: &mut String, lines: &mut Vec<String>, turn: &mut usize| {
        if !lines.is_empty() {
            *turn += 1;
            out.push_str(&format!("Agent turn {turn}:\n{}\n\n", indent(&lines.join("\n"))));
            lines.clear();
        }
    };
    for message in &messages {
        match role(message) {
            "user" => {
                flush_agent(&mut out, &mut agent_lines, &mut agent_turn);
                user_turn += 1;
                out.push_str(&format!(
                    "User turn {user_turn}:\n{}\n\n",
                    indent(&message_texts(message).join("\n"))
                ));
            }
            "assistant" | "tool" => agent_lines.extend(agent_message_lines(message, with_tools)),
            _ => {}
        }
    }
    flush_agent(&mut out, &mut agent_lines, &mut agent_turn);
    out.trim_end().to_owned()
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("  {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn agent_message_lines(message: &Map<String, Value>, with_tools: bool) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(Value::String(text)) = message.get("content") {
        if role(message) == "assistant" {
            lines.push(text.clone());
        }
        return lines;
    }
    for item in content_items(message) {
        match item_kind(item) {
            "text" | "output_text" if role(message) == "assistant" => {
                if let Some(text) = item.get("text").and_then(Value::as_str) {
                    lines.push(text.to_owned());
                }
            }
            "tool_call" if with_tools => lines.push(tool_call_line(item)),
            "tool_result" if with_tools => lines.push(format!(
                "[TOOL_RESULT] {}",
                text(
                    item.get("tool_result")
                        .or_else(|| item.get("output"))
                        .unwrap_or(&Value::Null)
                )
            )),
            _ => {}
        }
    }
    lines
}

/// `[TOOL_CALL] name(k="v", n=2)`.
fn tool_call_line(item: &Map<String, Value>) -> String {
    let call = item
        .get("tool_call")
        .and_then(Value::as_object)
        .unwrap_or(item);
    let function = call.get("function").and_then(Value::as_object);
    let name = call
        .get("name")
        .or_else(|| function.and_then(|function| function.get("name")))
        .and_then(Value::as_str)
        .unwrap_or("unknown_tool");
    let arguments = call
        .get("arguments")
        .or_else(|| function.and_then(|function| function.get("arguments")));
    let arguments = match arguments {
        Some(Value::String(json)) => crate::json::parse_str(json).ok(),
        other => other.cloned(),
    };
    let rendered: Vec<String> = match &arguments {
        Some(Value::Object(arguments)) => arguments
            .iter()
            .map(|(key, value)| match value {
                Value::String(text) => format!("{key}=\"{text}\""),
                other => format!("{key}={}", compact(other)),
            })
            .collect(),
        _ => Vec::new(),
    };
    format!("[TOOL_CALL] {name}({})", rendered.join(", "))
}

/// The agent's answer: its text and, with `with_tools`, its tool calls and their results.
pub fn agent_response(response: &Value, with_tools: bool) -> String {
    let Some(messages) = messages(response) else {
        return text(response);
    };
    messages
        .iter()
        .flat_map(|message| agent_message_lines(message, with_tools))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Tool definitions as `- name: description (inputs: a, b)` lines.
pub fn tool_definitions(definitions: &Value) -> String {
    let list: Vec<&Value> = match definitions {
        Value::Array(list) => list.iter().collect(),
        Value::Object(_) => vec![definitions],
        other => return text(other),
    };
    let mut out = String::from("TOOL_DEFINITIONS:");
    for definition in list {
        let function = definition.get("function").unwrap_or(definition);
        let name = function.get("name").and_then(Value::as_str).unwrap_or("unnamed");
        let description = function
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim();
        let inputs: Vec<&str> = function
            .get("parameters")
            .and_then(|parameters| parameters.get("properties"))
            .and_then(Value::as_object)
            .map(|properties| properties.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let inputs = if inputs.is_empty() {
            "no parameters".to_owned()
        } else {
            format!("inputs: {}", inputs.join(", "))
        };
        out.push_str(&format!("\n- {name}: {description} ({inputs})"));
    }
    out
}

/// The tool calls in a response (message list) or a `tool_calls` value.
pub fn tool_calls(value: &Value) -> Vec<&Map<String, Value>> {
    if let Some(messages) = messages(value) {
        return messages
            .iter()
            .filter(|message| role(message) == "assistant")
            .flat_map(|message| content_items(message))
            .filter(|item| item_kind(item) == "tool_call")
            .collect();
    }
    match value {
        Value::Array(list) => list
            .iter()
            .filter_map(Value::as_object)
            .filter(|item| item_kind(item) == "tool_call" || item.contains_key("name"))
            .collect(),
        Value::Object(item) => vec![item],
        _ => Vec::new(),
    }
}

/// Tool calls as `[TOOL_CALL] …` lines.
pub fn tool_call_lines(calls: &[&Map<String, Value>]) -> String {
    calls
        .iter()
        .map(|call| tool_call_line(call))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A value as text: strings as they are, message lists as a conversation, other JSON compact.
pub fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => compact(other),
    }
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Whether a value carries nothing to judge (absent, `null`, blank text, an empty list).
pub fn is_blank(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => true,
        Some(Value::String(text)) => text.trim().is_empty(),
        Some(Value::Array(list)) => list.is_empty(),
        Some(Value::Object(map)) => map.is_empty(),
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn agent_run() -> Value {
        json!([
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
            {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Paris", "days": 2}}]},
            {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp": 21}}]},
            {"role": "assistant", "content": [{"type": "text", "text": "It is 21 °C."}]}
        ])
    }

    #[test]
    fn agent_answers_show_text_and_tool_lines() {
        assert_eq!(
            agent_response(&agent_run(), true),
            "[TOOL_CALL] get_weather(city=\"Paris\", days=2)\n[TOOL_RESULT] {\"temp\":21}\nIt is 21 °C."
        );
        assert_eq!(agent_response(&agent_run(), false), "It is 21 °C.");
        assert_eq!(agent_response(&json!("plain"), true), "plain");
    }

    #[test]
    fn conversations_are_numbered_turns() {
        let query = json!([
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello!"},
            {"role": "user", "content": [{"type": "text", "text": "Line 1\nLine 2"}]}
        ]);
        assert_eq!(
            conversation(&query, true, false),
            "SYSTEM_PROMPT:\n  Be brief.\n\nUser turn 1:\n  Hi\n\nAgent turn 1:\n  Hello!\n\nUser turn 2:\n  Line 1\n  Line 2"
        );
        assert!(!conversation(&query, false, false).contains("SYSTEM_PROMPT"));
    }

    #[test]
    fn tool_definitions_list_names_and_inputs() {
        let definitions = json!([
            {"name": "get_weather", "description": " Weather. ", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}},
            {"type": "function", "function": {"name": "now", "description": "Time"}}
        ]);
        assert_eq!(
            tool_definitions(&definitions),
            "TOOL_DEFINITIONS:\n- get_weather: Weather. (inputs: city, days)\n- now: Time (no parameters)"
        );
    }

    #[test]
    fn intermediate_responses_and_tool_calls_are_recognised() {
        let intermediate = json!([{"role": "assistant", "content": [{"type": "function_call", "name": "f", "arguments": "{}"}]}]);
        assert!(is_intermediate(&intermediate));
        assert!(!is_intermediate(&agent_run()));
        assert_eq!(tool_calls(&agent_run()).len(), 1);
        assert_eq!(
            tool_call_lines(&tool_calls(&intermediate)),
            "[TOOL_CALL] f()"
        );
        assert!(is_blank(Some(&json!("  "))) && is_blank(None) && !is_blank(Some(&json!(0))));
    }
}
