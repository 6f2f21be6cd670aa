//! Tool-call extraction from the response messages, as the reference's
//! `_parse_tools_from_response` and `_extract_tool_names_and_params_from_response` do it.
//!
//! Where the reference crashes with a raw Python error (unhashable `tool_call_id`, a matched tool
//! result without `tool_result`) we return our own message instead.

use std::borrow::Cow;

use super::pyjson::{DecodeError, PyValue};
use super::strip;

/// One tool call: stripped name and its argument dict.
#[derive(Debug)]
pub(super) struct ToolCall<'a> {
    pub(super) name: String,
    pub(super) params: Vec<(Cow<'a, str>, PyValue<'a>)>,
}

/// A hashable Python scalar, normalised so that `==` is Python's (`1 == 1.0 == True`).
#[derive(Debug, PartialEq)]
enum Key {
    None,
    Int(i128),
    BigInt(String),
    Float(f64),
    Str(String),
}

fn key(value: &PyValue<'_>) -> Option<Key> {
    Some(match value {
        PyValue::None => Key::None,
        PyValue::Bool(flag) => Key::Int(i128::from(*flag)),
        PyValue::Int(digits) => digits
            .parse::<i128>()
            .map_or_else(|_| Key::BigInt(digits.to_string()), Key::Int),
        PyValue::Float(float)
            if float.is_finite() && float.fract() == 0.0 && float.abs() < 1e38 =>
        {
            Key::Int(*float as i128)
        }
        PyValue::Float(float) => Key::Float(*float),
        PyValue::Str(text) => Key::Str(text.to_string()),
        PyValue::List(_) | PyValue::Dict(_) => return None,
    })
}

fn is_str(value: Option<&PyValue<'_>>, expected: &str) -> bool {
    matches!(value, Some(PyValue::Str(text)) if text == expected)
}

/// The tool calls of assistant messages, in order.
///
/// # Errors
/// The reference's "Failed to parse tool call arguments as JSON.", or our message where the
/// reference crashes.
pub(super) fn tool_calls<'a>(messages: &[PyValue<'a>]) -> Result<Vec<ToolCall<'a>>, String> {
    let mut calls: Vec<(usize, usize, &PyValue<'a>)> = Vec::new();
    let mut results: Vec<(Key, &PyValue<'a>)> = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let role = message.get("role");
        let content = message.get("content");
        if is_str(role, "assistant") {
            if let Some(PyValue::List(items)) = content {
                for (item_index, item) in items.iter().enumerate() {
                    if matches!(item, PyValue::Dict(_)) && is_str(item.get("type"), "tool_call") {
                        calls.push((index, item_index, item));
                    }
                }
            }
        } else if is_str(role, "tool") {
            let Some(id) = message.get("tool_call_id").filter(|id| id.is_truthy()) else {
                continue;
            };
            let Some(PyValue::List(items)) = content else {
                continue;
            };
            let Some(first) = items
                .first()
                .filter(|first| is_str(first.get("type"), "tool_result"))
            else {
                continue;
            };
            let Some(id) = key(id) else {
                return Err(format!(
                    "'tool_call_id' of the tool message at index {index} must be a string, number or null, got {}.",
                    message.get("tool_call_id").map_or("NoneType", PyValue::type_name)
                ));
            };
            match results.iter_mut().find(|(existing, _)| *existing == id) {
                Some(entry) => entry.1 = first,
                None => results.push((id, first)),
            }
        }
    }
    for (index, item_index, call) in &calls {
        let id = call.get("tool_call_id").unwrap_or(&PyValue::None);
        let Some(id) = key(id) else {
            return Err(format!(
                "'tool_call_id' of the tool call in action {index}, content {item_index} must be a string, number or null, got {}.",
                id.type_name()
            ));
        };
        let unmatched_result = results
            .iter()
            .find(|(existing, _)| *existing == id)
            .is_some_and(|(_, result)| result.get("tool_result").is_none());
        if unmatched_result {
            return Err(format!(
                "The tool result answering the tool call in action {index}, content {item_index} has no 'tool_result' field."
            ));
        }
    }
    calls
        .into_iter()
        .map(|(index, item_index, call)| tool_call(index, item_index, call))
        .collect()
}

fn tool_call<'a>(
    index: usize,
    item_index: usize,
    call: &PyValue<'a>,
) -> Result<ToolCall<'a>, String> {
    let name = call.get("name").unwrap_or(&PyValue::None);
    let Some(name) = name.scalar_str() else {
        return Err(format!(
            "The 'name' of the tool call in action {index}, content {item_index} must be a string, number, boolean or null, got {}.",
            name.type_name()
        ));
    };
    let params = match call.get("arguments") {
        Some(PyValue::Dict(entries)) => entries.clone(),
        Some(PyValue::Str(text)) => match PyValue::parse(text) {
            Ok(PyValue::Dict(entries)) => entries,
            Ok(_) => Vec::new(),
            Err(DecodeError::Invalid) => {
                return Err("Failed to parse tool call arguments as JSON.".to_owned())
            }
            Err(DecodeError::TooDeep) => {
                return Err(format!(
                    "The arguments of the tool call in action {index}, content {item_index} are nested too deeply."
                ))
            }
            Err(DecodeError::LoneSurrogate) => {
                return Err(format!(
                    "The arguments of the tool call in action {index}, content {item_index} contain a lone UTF-16 surrogate escape, which is not supported."
                ))
            }
        },
        _ => Vec::new(),
    };
    Ok(ToolCall {
        name: strip(&name),
        params,
    })
}
