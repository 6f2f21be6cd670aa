//! Tool-call extraction from the response messages, as the reference's
//! `_parse_tools_from_response` and `_extract_tool_names_and_params_from_response` do it.
//!
//! Where the reference crashes with a raw Python error (unhashable `tool_call_id`, a matched tool
//! result without `tool_result`) we return our own message instead.
//!
//! A named deviation: content items of type `function_call` (the Responses API's name, which the
//! Foundry evaluator page shows) count as tool calls beside the reference's `tool_call`, their id
//! read from `tool_call_id` or else `call_id`.

use std::borrow::Cow;

use super::strip_name;
use agenteval_python::json::{DecodeError, PyValue};
use agenteval_python::view::{Kind, Py, PyDict, PyList};

/// One tool call: stripped name and its arguments.
#[derive(Debug)]
pub(super) struct ToolCall<'a> {
    pub(super) name: Cow<'a, str>,
    pub(super) arguments: Arguments<'a>,
}

/// A tool call's arguments as the reference reads them.
#[derive(Debug)]
pub(super) enum Arguments<'a> {
    /// No dict of arguments.
    None,
    /// A dict in the response.
    Dict(PyDict<'a>),
    /// A string holding a JSON dict.
    Decoded(PyValue<'static>),
}

impl Arguments<'_> {
    /// The argument dict, if any.
    pub(super) fn dict(&self) -> Option<PyDict<'_>> {
        match self {
            Arguments::None => None,
            Arguments::Dict(dict) => Some(*dict),
            Arguments::Decoded(value) => Py::Tree(value).as_dict(),
        }
    }
}

/// A hashable Python scalar, normalised so that `==` is Python's (`1 == 1.0 == True`).
#[derive(Debug, PartialEq)]
enum Key<'a> {
    None,
    Int(i128),
    BigInt(String),
    Float(f64),
    Str(&'a str),
}

fn key(value: Py<'_>) -> Option<Key<'_>> {
    Some(match value.kind() {
        Kind::None => Key::None,
        Kind::Bool(flag) => Key::Int(i128::from(flag)),
        Kind::Int(int) => int
            .as_i128()
            .map_or_else(|| Key::BigInt(int.digits().into_owned()), Key::Int),
        Kind::Float(float) if float.is_finite() && float.fract() == 0.0 && float.abs() < 1e38 => {
            Key::Int(float as i128)
        }
        Kind::Float(float) => Key::Float(float),
        Kind::Str(text) => Key::Str(text),
        Kind::List(_) | Kind::Dict(_) => return None,
    })
}

fn is_str(value: Option<Py<'_>>, expected: &str) -> bool {
    value.is_some_and(|value| value.is_str(expected))
}

/// Whether a content item's `type` makes it a tool call: the reference's `tool_call`, or the
/// Responses API's `function_call`.
fn is_tool_call(kind: Option<Py<'_>>) -> bool {
    is_str(kind, "tool_call") || is_str(kind, "function_call")
}

/// The tool calls of assistant messages, in order.
///
/// # Errors
/// The reference's "Failed to parse tool call arguments as JSON.", or our message where the
/// reference crashes.
pub(super) fn tool_calls(messages: PyList<'_>) -> Result<Vec<ToolCall<'_>>, String> {
    let mut calls: Vec<(usize, usize, Py<'_>)> = Vec::with_capacity(messages.len());
    let mut results: Vec<(Key<'_>, Py<'_>)> = Vec::with_capacity(messages.len());
    for (index, message) in messages.iter().enumerate() {
        let role = message.get("role");
        let content = message.get("content").and_then(Py::as_list);
        if is_str(role, "assistant") {
            if let Some(items) = content {
                for (item_index, item) in items.iter().enumerate() {
                    if item.is_dict() && is_tool_call(item.get("type")) {
                        calls.push((index, item_index, item));
                    }
                }
            }
        } else if is_str(role, "tool") {
            let Some(id) = message.get("tool_call_id").filter(|id| id.is_truthy()) else {
                continue;
            };
            let Some(items) = content else {
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
                    id.type_name()
                ));
            };
            match results.iter_mut().find(|(existing, _)| *existing == id) {
                Some(entry) => entry.1 = first,
                None => results.push((id, first)),
            }
        }
    }
    for (index, item_index, call) in &calls {
        let id = call.get("tool_call_id").or_else(|| call.get("call_id"));
        let Some(id) = id.map_or(Some(Key::None), key) else {
            return Err(format!(
                "'tool_call_id' of the tool call in action {index}, content {item_index} must be a string, number or null, got {}.",
                id.map_or("NoneType", Py::type_name)
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

fn tool_call(index: usize, item_index: usize, call: Py<'_>) -> Result<ToolCall<'_>, String> {
    let name = call.get("name");
    let Some(name) = name.map_or(Some("None".into()), Py::scalar_str) else {
        return Err(format!(
            "The 'name' of the tool call in action {index}, content {item_index} must be a string, number, boolean or null, got {}.",
            name.map_or("NoneType", Py::type_name)
        ));
    };
    let arguments = call.get("arguments");
    let arguments = match arguments.map(Py::kind) {
        Some(Kind::Dict(dict)) => Arguments::Dict(dict),
        Some(Kind::Str(text)) => match PyValue::parse(text) {
            Ok(decoded @ PyValue::Dict(_)) => Arguments::Decoded(decoded),
            Ok(_) => Arguments::None,
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
        _ => Arguments::None,
    };
    Ok(ToolCall {
        name: strip_name(name),
        arguments,
    })
}
