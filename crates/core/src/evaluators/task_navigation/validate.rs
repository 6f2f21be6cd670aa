//! Input decoding and the reference's `TaskNavigationEfficiencyValidator` checks, with its exact
//! messages (first failure wins: response first, then ground truth).

use serde_json::Value;

use std::borrow::Cow;

use super::pyjson::{DecodeError, PyValue, MAX_DEPTH};
use super::{strip, Expected};

const RESPONSE: &str = "'actions' (also accepted as 'response')";
const GROUND_TRUTH: &str = "'expected_actions' (also accepted as 'ground_truth')";

/// The ground truth after decoding: a plain value, or the reference's Python tuple form.
#[derive(Debug)]
pub(super) enum GroundTruth<'a> {
    /// Anything but the tuple form (validated as a list of names).
    Plain(PyValue<'a>),
    /// `(tool_names, parameters)`.
    Tuple(PyValue<'a>, PyValue<'a>),
}

fn decode_error(error: DecodeError) -> String {
    match error {
        DecodeError::TooDeep => format!("input is nested more than {MAX_DEPTH} levels deep"),
        DecodeError::LoneSurrogate => {
            "input JSON contains a lone UTF-16 surrogate escape (e.g. \"\\ud800\"), which is not supported"
                .to_owned()
        }
        DecodeError::Invalid => "input is not valid JSON".to_owned(),
    }
}

/// The reference's first step: string inputs are `json.loads`-ed, kept as strings when invalid.
///
/// # Errors
/// Values nested too deeply or holding lone surrogates (the reference crashes or we cannot hold them).
pub(super) fn decode(value: Option<&Value>) -> Result<Option<PyValue<'_>>, String> {
    let Some(value) = value else {
        return Ok(None);
    };
    let decoded = match value {
        Value::String(text) => match PyValue::parse(text) {
            Err(DecodeError::Invalid) => Ok(PyValue::Str(Cow::Borrowed(text))),
            other => other,
        },
        other => PyValue::from_json(other),
    };
    decoded.map(Some).map_err(decode_error)
}

/// Like [`decode`], recognising the tuple form in (non-string) JSON: a two-element array whose
/// first element is an array, or an object with exactly `tool_names` and `parameters`.
///
/// # Errors
/// As [`decode`].
pub(super) fn decode_ground_truth(
    value: Option<&Value>,
) -> Result<Option<GroundTruth<'_>>, String> {
    let tuple = match value {
        Some(Value::Array(items))
            if items.len() == 2 && items.first().is_some_and(Value::is_array) =>
        {
            items.first().zip(items.get(1))
        }
        Some(Value::Object(map))
            if map.len() == 2
                && map.contains_key("tool_names")
                && map.contains_key("parameters") =>
        {
            map.get("tool_names").zip(map.get("parameters"))
        }
        _ => None,
    };
    if let Some((names, params)) = tuple {
        let names = PyValue::from_json(names).map_err(decode_error)?;
        let params = PyValue::from_json(params).map_err(decode_error)?;
        return Ok(Some(GroundTruth::Tuple(names, params)));
    }
    Ok(decode(value)?.map(GroundTruth::Plain))
}

/// Validates the response messages.
///
/// # Errors
/// The reference's message for the first problem.
pub(super) fn response<'v, 'a>(
    value: Option<&'v PyValue<'a>>,
) -> Result<&'v [PyValue<'a>], String> {
    let Some(value) = value.filter(|value| **value != PyValue::None) else {
        return Err(format!(
            "{RESPONSE} parameter is required and cannot be None."
        ));
    };
    let PyValue::List(messages) = value else {
        return Err(format!("{RESPONSE} must be a list of messages."));
    };
    for (index, message) in messages.iter().enumerate() {
        if !matches!(message, PyValue::Dict(_)) {
            return Err(format!(
                "Action at index {index} must be a dictionary, got {}.",
                message.type_name()
            ));
        }
        let Some(role) = message.get("role") else {
            return Err(format!(
                "Action at index {index} must contain a 'role' field."
            ));
        };
        let PyValue::Str(role) = role else {
            return Err(format!(
                "'role' field in action at index {index} must be a string, got {}.",
                role.type_name()
            ));
        };
        if role != "assistant" {
            continue;
        }
        let Some(content) = message.get("content") else {
            return Err(format!(
                "Assistant action at index {index} must contain a 'content' field."
            ));
        };
        let PyValue::List(items) = content else {
            return Err(format!(
                "'content' field in assistant action at index {index} must be a list, got {}.",
                content.type_name()
            ));
        };
        for (item_index, item) in items.iter().enumerate() {
            if !matches!(item, PyValue::Dict(_)) {
                return Err(format!(
                    "Content item at index {item_index} in action {index} must be a dictionary."
                ));
            }
            let is_tool_call = item.get("type") == Some(&PyValue::Str(Cow::Borrowed("tool_call")));
            if is_tool_call && item.get("name").is_none() {
                return Err(format!(
                    "Tool call in action {index}, content {item_index} must contain a 'name' field."
                ));
            }
        }
    }
    Ok(messages)
}

fn tuple_ground_truth<'a>(
    names: &PyValue<'a>,
    params: &PyValue<'a>,
) -> Result<Expected<'a>, String> {
    let PyValue::List(names) = names else {
        return Err(format!(
            "First element of {GROUND_TRUTH} tuple must be a list of tool names."
        ));
    };
    if names.is_empty() {
        return Err(format!(
            "Tool names list in {GROUND_TRUTH} cannot be empty."
        ));
    }
    let names = string_names(names, |index, other| {
        format!(
            "Tool name at index {index} in {GROUND_TRUTH} must be a string, got {}.",
            other.type_name()
        )
    })?;
    let PyValue::Dict(by_tool) = params else {
        return Err(format!(
            "Second element of {GROUND_TRUTH} tuple must be a dictionary of parameters."
        ));
    };
    if let Some((tool, other)) = by_tool
        .iter()
        .find(|(_, params)| !matches!(params, PyValue::Dict(_)))
    {
        return Err(format!(
            "Parameters for tool '{tool}' in {GROUND_TRUTH} must be a dictionary, got {}.",
            other.type_name()
        ));
    }
    Ok(Expected {
        names,
        params: Some(by_tool.clone()),
    })
}

fn string_names(
    names: &[PyValue<'_>],
    message: impl Fn(usize, &PyValue<'_>) -> String,
) -> Result<Vec<String>, String> {
    names
        .iter()
        .enumerate()
        .map(|(index, name)| match name {
            PyValue::Str(name) => Ok(strip(name)),
            other => Err(message(index, other)),
        })
        .collect()
}

/// Validates the expected steps and strips their names.
///
/// # Errors
/// The reference's message for the first problem.
pub(super) fn ground_truth<'a>(value: Option<&GroundTruth<'a>>) -> Result<Expected<'a>, String> {
    let required = || format!("{GROUND_TRUTH} parameter is required and cannot be None or empty.");
    match value {
        None => Err(required()),
        Some(GroundTruth::Tuple(names, params)) => tuple_ground_truth(names, params),
        Some(GroundTruth::Plain(value)) if !value.is_truthy() => Err(required()),
        Some(GroundTruth::Plain(PyValue::List(names))) => Ok(Expected {
            names: string_names(names, |index, other| {
                format!(
                    "Expected action at index {index} must be a string (tool name), got {}.",
                    other.type_name()
                )
            })?,
            params: None,
        }),
        Some(GroundTruth::Plain(_)) => Err(format!(
            "{GROUND_TRUTH} must be either a list of tool names or a tuple of \
             (tool_names_list, parameters_dict)."
        )),
    }
}
