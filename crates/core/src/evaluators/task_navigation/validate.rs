//! Input decoding and the reference's `TaskNavigationEfficiencyValidator` checks, with its exact
//! messages (first failure wins: response first, then ground truth).

use crate::json::Value;

use super::{strip, Expected};
use agenteval_python::json::{DecodeError, PyValue, MAX_DEPTH};
use agenteval_python::view::{Py, PyList};

const RESPONSE: &str = "'actions' (also accepted as 'response')";
const GROUND_TRUTH: &str = "'expected_actions' (also accepted as 'ground_truth')";

/// The ground truth after decoding: a plain value, or the reference's Python tuple form.
#[derive(Debug, Clone, Copy)]
pub(super) enum GroundTruth<'a> {
    /// Anything but the tuple form (validated as a list of names).
    Plain(Py<'a>),
    /// `(tool_names, parameters)`.
    Tuple(Py<'a>, Py<'a>),
}

/// Our message for an input that cannot be decoded or rendered.
pub(super) fn decode_error(error: DecodeError) -> String {
    match error {
        DecodeError::TooDeep => format!("input is nested more than {MAX_DEPTH} levels deep"),
        DecodeError::LoneSurrogate => {
            "input JSON contains a lone UTF-16 surrogate escape (e.g. \"\\ud800\"), which is not supported"
                .to_owned()
        }
        DecodeError::Invalid => "input is not valid JSON".to_owned(),
    }
}

/// Holds the value of a string input decoded by `json.loads`; its view borrows from it.
#[derive(Debug, Default)]
pub(super) struct Decoded(Option<PyValue<'static>>);

/// The reference's first step: string inputs are `json.loads`-ed (into `slot`), kept as strings
/// when invalid.
///
/// # Errors
/// Values nested too deeply or holding lone surrogates (the reference crashes or we cannot hold them).
fn decode<'a>(
    value: Option<&'a Value>,
    slot: &'a mut Option<PyValue<'static>>,
) -> Result<Option<Py<'a>>, String> {
    let Some(value) = value else {
        return Ok(None);
    };
    match value {
        Value::String(text) => match PyValue::parse(text) {
            Ok(parsed) => Ok(Some(Py::Tree(slot.insert(parsed)))),
            Err(DecodeError::Invalid) => Ok(Some(Py::Json(value))),
            Err(error) => Err(decode_error(error)),
        },
        other => Ok(Some(Py::Json(other))),
    }
}

impl Decoded {
    /// Decodes the response.
    ///
    /// # Errors
    /// As for any decoded input.
    pub(super) fn response<'a>(
        &'a mut self,
        value: Option<&'a Value>,
    ) -> Result<Option<Py<'a>>, String> {
        decode(value, &mut self.0)
    }

    /// Decodes the ground truth, recognising the tuple form in (non-string) JSON: a two-element
    /// array whose first element is an array, or an object with exactly `tool_names` and
    /// `parameters`.
    ///
    /// # Errors
    /// As for any decoded input.
    pub(super) fn ground_truth<'a>(
        &'a mut self,
        value: Option<&'a Value>,
    ) -> Result<Option<GroundTruth<'a>>, String> {
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
            return Ok(Some(GroundTruth::Tuple(Py::Json(names), Py::Json(params))));
        }
        Ok(decode(value, &mut self.0)?.map(GroundTruth::Plain))
    }
}

/// Validates the response messages.
///
/// # Errors
/// The reference's message for the first problem.
pub(super) fn response(value: Option<Py<'_>>) -> Result<PyList<'_>, String> {
    let Some(value) = value.filter(|value| !value.is_none()) else {
        return Err(format!(
            "{RESPONSE} parameter is required and cannot be None."
        ));
    };
    let Some(messages) = value.as_list() else {
        return Err(format!("{RESPONSE} must be a list of messages."));
    };
    for (index, message) in messages.iter().enumerate() {
        if !message.is_dict() {
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
        let Some(role) = role.as_str() else {
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
        let Some(items) = content.as_list() else {
            return Err(format!(
                "'content' field in assistant action at index {index} must be a list, got {}.",
                content.type_name()
            ));
        };
        for (item_index, item) in items.iter().enumerate() {
            if !item.is_dict() {
                return Err(format!(
                    "Content item at index {item_index} in action {index} must be a dictionary."
                ));
            }
            let is_tool_call = item
                .get("type")
                .is_some_and(|kind| kind.is_str("tool_call"));
            if is_tool_call && item.get("name").is_none() {
                return Err(format!(
                    "Tool call in action {index}, content {item_index} must contain a 'name' field."
                ));
            }
        }
    }
    Ok(messages)
}

fn tuple_ground_truth<'a>(names: Py<'a>, params: Py<'a>) -> Result<Expected<'a>, String> {
    let Some(names) = names.as_list() else {
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
    let Some(by_tool) = params.as_dict() else {
        return Err(format!(
            "Second element of {GROUND_TRUTH} tuple must be a dictionary of parameters."
        ));
    };
    if let Some((tool, other)) = by_tool.iter().find(|(_, params)| !params.is_dict()) {
        return Err(format!(
            "Parameters for tool '{tool}' in {GROUND_TRUTH} must be a dictionary, got {}.",
            other.type_name()
        ));
    }
    Ok(Expected {
        names,
        params: Some(by_tool),
    })
}

fn string_names<'a>(
    names: PyList<'a>,
    message: impl Fn(usize, Py<'_>) -> String,
) -> Result<Vec<&'a str>, String> {
    names
        .iter()
        .enumerate()
        .map(|(index, name)| match name.as_str() {
            Some(name) => Ok(strip(name)),
            None => Err(message(index, name)),
        })
        .collect()
}

/// Validates the expected steps and strips their names.
///
/// # Errors
/// The reference's message for the first problem.
pub(super) fn ground_truth(value: Option<GroundTruth<'_>>) -> Result<Expected<'_>, String> {
    let required = || format!("{GROUND_TRUTH} parameter is required and cannot be None or empty.");
    match value {
        None => Err(required()),
        Some(GroundTruth::Tuple(names, params)) => tuple_ground_truth(names, params),
        Some(GroundTruth::Plain(value)) if !value.is_truthy() => Err(required()),
        Some(GroundTruth::Plain(value)) => match value.as_list() {
            Some(names) => Ok(Expected {
                names: string_names(names, |index, other| {
                    format!(
                        "Expected action at index {index} must be a string (tool name), got {}.",
                        other.type_name()
                    )
                })?,
                params: None,
            }),
            None => Err(format!(
                "{GROUND_TRUTH} must be either a list of tool names or a tuple of \
                 (tool_names_list, parameters_dict)."
            )),
        },
    }
}
