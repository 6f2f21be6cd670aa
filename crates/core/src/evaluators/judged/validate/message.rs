//! The reference's validation of a message list (`_conversation_validator.py`,
//! `_validate_input_messages_list` and below): each message's role and content, each content
//! item's type and fields by role, and the tools a validator refuses in assistant messages; with
//! the field checks the tool-definition and tool-call validators share. Its messages are the
//! reference's, word for word.

use super::super::render;
use super::Checks;
use crate::json::{Map, Value};
use crate::text::python;

/// A rejected input, and whether it was missing (the reference's `MISSING_FIELD` category).
pub(super) struct Problem {
    pub(super) message: String,
    pub(super) missing: bool,
}

fn problem(message: impl Into<String>) -> Problem {
    Problem {
        message: message.into(),
        missing: false,
    }
}

/// `_validate_input_messages_list`.
pub(super) fn check_message_list(
    value: Option<&Value>,
    name: &str,
    checks: Checks,
) -> Result<(), Problem> {
    let missing = |message: String| Problem {
        message,
        missing: true,
    };
    let list = match value {
        None => {
            return Err(missing(format!(
                "{name} is a required input and cannot be None."
            )))
        }
        Some(Value::String(text)) if text.is_empty() => {
            return Err(missing(format!("{name} string cannot be empty.")));
        }
        Some(Value::String(_)) => return Ok(()),
        Some(Value::Array(list)) => list,
        Some(_) => {
            return Err(problem(format!(
                "{name} must be a string or a list of messages."
            )))
        }
    };
    if list.is_empty() {
        return Err(missing(format!("{name} list cannot be empty.")));
    }
    if !list.iter().all(Value::is_object) {
        return Err(problem(format!(
            "Each message in the {} list must be a dictionary.",
            name.to_lowercase()
        )));
    }
    for message in list.iter().filter_map(Value::as_object) {
        check_message(message, checks).map_err(problem)?;
    }
    Ok(())
}

/// `_validate_message_dict`.
fn check_message(message: &Map<String, Value>, checks: Checks) -> Result<(), String> {
    let Some(role) = message.get("role") else {
        return Err("Each message must contain a 'role' field.".to_owned());
    };
    let Some(content) = message.get("content") else {
        return Err("Each message must contain a 'content' field.".to_owned());
    };
    let items = match content {
        Value::String(text) if text.is_empty() => {
            return Err("The 'content' field can't be empty.".to_owned());
        }
        Value::String(_) => None,
        Value::Array(items)
            if items
                .iter()
                .all(|item| item.as_object().is_some_and(|item| !item.is_empty())) =>
        {
            Some(items)
        }
        _ => {
            return Err(
                "The 'content' field must be a string or a list of dictionaries messages."
                    .to_owned(),
            )
        }
    };
    if let Some(items) = items {
        if items.is_empty() {
            return Err("The 'content' field can't be empty.".to_owned());
        }
        if !items.iter().all(|item| item.get("type").is_some()) {
            return Err(
                "Each content item in the 'content' list must contain a 'type' field.".to_owned(),
            );
        }
    }
    let items: Vec<&Map<String, Value>> = items
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    match role.as_str() {
        Some(role @ ("user" | "system" | "developer")) => user_items_problem(&items, role),
        Some("assistant") => assistant_items_problem(&items, checks),
        Some("tool") => tool_message_problem(message, content, &items),
        _ => Ok(()),
    }
}

fn type_of(item: &Map<String, Value>) -> &Value {
    item.get("type").unwrap_or(&Value::Null)
}

fn user_items_problem(items: &[&Map<String, Value>], role: &str) -> Result<(), String> {
    for item in items {
        let kind = type_of(item);
        if !matches!(kind.as_str(), Some("text" | "input_text")) {
            return Err(format!(
                "Invalid content type '{}' for message with role '{role}'. Must be 'text' or 'input_text'.",
                render::py_str(kind)
            ));
        }
        text_item_problem(item, role)?;
    }
    Ok(())
}

fn text_item_problem(item: &Map<String, Value>, role: &str) -> Result<(), String> {
    match item.get("text") {
        None => Err(format!(
            "Each content item must contain a 'text' field for message with role '{role}'."
        )),
        Some(Value::String(_)) => Ok(()),
        Some(_) => Err("The 'text' field must be a string in content items.".to_owned()),
    }
}

fn assistant_items_problem(items: &[&Map<String, Value>], checks: Checks) -> Result<(), String> {
    const KINDS: [&str; 6] = [
        "text",
        "output_text",
        "tool_call",
        "function_call",
        "mcp_approval_request",
        "openapi_call",
    ];
    for item in items {
        let kind = type_of(item);
        let Some(kind) = kind.as_str().filter(|kind| KINDS.contains(kind)) else {
            return Err(format!(
                "Invalid content type '{}' for message with role 'assistant'. Must be one of ['text', 'output_text', 'tool_call', 'function_call', 'mcp_approval_request', 'openapi_call'].",
                render::py_str(kind)
            ));
        };
        match kind {
            // NOTE: the reference formats the role enum itself here, `MessageRole.ASSISTANT`
            // (`_conversation_validator.py`, `_validate_text_content_item`).
            "text" | "output_text" => text_item_problem(item, "MessageRole.ASSISTANT")?,
            "tool_call" | "function_call" | "openapi_call" => {
                if let Some(problem) = tool_call_item_problem(item) {
                    return Err(problem);
                }
            }
            _ => {}
        }
        if !checks.unsupported.is_empty() && matches!(kind, "tool_call" | "openapi_call") {
            let name = if kind == "openapi_call" {
                "openapi_call".to_owned()
            } else {
                item.get("name")
                    .and_then(Value::as_str)
                    .map(python::lower)
                    .unwrap_or_default()
            };
            if checks.unsupported.contains(&name.as_str()) {
                return Err(format!(
                    "{name} tool call is currently not supported for {} evaluator.",
                    checks.target
                ));
            }
        }
    }
    Ok(())
}

/// `_validate_tool_call_content_item`.
pub(super) fn tool_call_item_problem(item: &Map<String, Value>) -> Option<String> {
    const KINDS: [&str; 4] = [
        "tool_call",
        "function_call",
        "openapi_call",
        "mcp_approval_request",
    ];
    let kind = item.get("type").and_then(Value::as_str);
    let Some(kind) = kind.filter(|kind| KINDS.contains(kind)) else {
        return Some("The content item must be of type ['tool_call', 'function_call', 'openapi_call', 'mcp_approval_request'] in tool_call content item.".to_owned());
    };
    if kind == "mcp_approval_request" {
        return None;
    }
    field_problem(item, "name", Kind::Text, "tool_call content items")
        .or_else(|| field_problem(item, "arguments", Kind::Object, "tool_call content items"))
        .or_else(|| field_problem(item, "tool_call_id", Kind::Text, "tool_call content items"))
}

fn tool_message_problem(
    message: &Map<String, Value>,
    content: &Value,
    items: &[&Map<String, Value>],
) -> Result<(), String> {
    if !content.is_array() {
        return Err(
            "The 'content' field must be a list of dictionaries messages for role 'tool'."
                .to_owned(),
        );
    }
    if let Some(problem) = field_problem(
        message,
        "tool_call_id",
        Kind::Text,
        "content items for role 'tool'",
    ) {
        return Err(problem);
    }
    const KINDS: [&str; 4] = [
        "tool_result",
        "function_call_output",
        "mcp_approval_response",
        "openapi_call_output",
    ];
    for item in items {
        let kind = type_of(item);
        let Some(kind) = kind.as_str().filter(|kind| KINDS.contains(kind)) else {
            return Err(format!(
                "Invalid content type '{}' for message with role 'tool'. Must be one of ['tool_result', 'function_call_output', 'mcp_approval_response', 'openapi_call_output'].",
                render::py_str(kind)
            ));
        };
        if kind != "mcp_approval_response" && !item.contains_key(kind) {
            return Err(format!(
                "Each content items for role 'tool' must contain a '{kind}' field."
            ));
        }
    }
    Ok(())
}

/// What a field must hold.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Text,
    Object,
}

/// `_validate_string_field` / `_validate_dict_field`.
pub(super) fn field_problem(
    item: &Map<String, Value>,
    field: &str,
    kind: Kind,
    context: &str,
) -> Option<String> {
    let Some(value) = item.get(field) else {
        return Some(format!("Each {context} must contain a '{field}' field."));
    };
    match (kind, value) {
        (Kind::Text, Value::String(_)) | (Kind::Object, Value::Object(_)) => None,
        (Kind::Text, _) => Some(format!(
            "The '{field}' field must be a string in {context}."
        )),
        (Kind::Object, _) => Some(format!(
            "The '{field}' field must be a dictionary in {context}."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::catalog::testing::{message, prepare};
    use crate::json;

    #[test]
    fn message_checks_word_their_messages_as_the_reference() {
        let text_without_text = json!({"query": "q", "response": [{"role": "assistant", "content": [{"type": "text"}]}]});
        assert_eq!(
            message(prepare("coherence", &text_without_text)),
            "Each content item must contain a 'text' field for message with role 'MessageRole.ASSISTANT'."
        );
        let image = json!({"conversation": {"messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x/a.png"}}]},
            {"role": "assistant", "content": "A cat."}
        ]}});
        assert_eq!(
            message(prepare("relevance", &image)),
            "Invalid content type 'image_url' for message with role 'user'. Must be 'text' or 'input_text'."
        );
    }
}
