//! Reading `diagnostics.tool_calls` (schema 1.11): the selected functions and the executions with
//! their HTTP status.
//!
//! `null` (or absent) evidence is unavailable, which makes a verdict impossible; `[]` is an
//! authoritative observation of nothing. Entries whose `plugin_name` or `function_name` is `null`
//! were observed but are incomplete: they may or may not be a given tool.

use crate::json::Value;

use super::super::retrieval_query::evidence::{
    as_object, diagnostics_object, int_at, str_at, Malformed,
};

/// A tool identity as observed; `None` parts are unknown.
#[derive(Debug, Clone, Copy)]
pub(super) struct Observed<'a> {
    pub(super) plugin: Option<&'a str>,
    pub(super) function: Option<&'a str>,
}

impl Observed<'_> {
    /// The identity when both parts are known.
    pub(super) fn complete(&self) -> Option<(&str, &str)> {
        self.plugin.zip(self.function)
    }

    /// Whether this entry may be `plugin/function` (unknown parts match anything).
    pub(super) fn could_be(&self, plugin: &str, function: &str) -> bool {
        !matches!(self.plugin, Some(known) if known != plugin)
            && !matches!(self.function, Some(known) if known != function)
    }
}

/// One observed execution.
#[derive(Debug, Clone, Copy)]
pub(super) struct ObservedExecution<'a> {
    pub(super) tool: Observed<'a>,
    /// HTTP status; `None` when unknown.
    pub(super) status: Option<i64>,
}

/// What the evidence field holds.
pub(super) enum Evidence<T> {
    /// The observed entries (possibly none).
    Observed(Vec<T>),
    /// No evidence; the message says why.
    Unavailable(String),
}

/// `diagnostics.tool_calls.selected_functions`.
pub(super) fn selected_functions(
    diagnostics: Option<&Value>,
) -> Result<Evidence<Observed<'_>>, Malformed> {
    read(diagnostics, "selected_functions", |entry, path| {
        let object = as_object(entry, || path.to_owned())?;
        identity(object, path)
    })
}

/// `diagnostics.tool_calls.executions`.
pub(super) fn executions(
    diagnostics: Option<&Value>,
) -> Result<Evidence<ObservedExecution<'_>>, Malformed> {
    read(diagnostics, "executions", |entry, path| {
        let object = as_object(entry, || path.to_owned())?;
        Ok(ObservedExecution {
            tool: identity(object, path)?,
            status: int_at(object, "response_status", || {
                format!("{path}.response_status")
            })?,
        })
    })
}

fn identity<'a>(
    object: &'a crate::json::Map<String, Value>,
    path: &str,
) -> Result<Observed<'a>, Malformed> {
    Ok(Observed {
        plugin: str_at(object, "plugin_name", || format!("{path}.plugin_name"))?,
        function: str_at(object, "function_name", || format!("{path}.function_name"))?,
    })
}

fn read<'a, T>(
    diagnostics: Option<&'a Value>,
    key: &str,
    entry: impl Fn(&'a Value, &str) -> Result<T, Malformed>,
) -> Result<Evidence<T>, Malformed> {
    let Some(diagnostics) = diagnostics_object(diagnostics)? else {
        return Ok(unavailable("the item has no diagnostics"));
    };
    let tool_calls = match diagnostics.get("tool_calls") {
        None | Some(Value::Null) => return Ok(unavailable("diagnostics.tool_calls is absent")),
        Some(value) => as_object(value, || "diagnostics.tool_calls".to_owned())?,
    };
    let path = format!("diagnostics.tool_calls.{key}");
    let entries = match tool_calls.get(key) {
        None | Some(Value::Null) => {
            let mut why = format!("{path} is null");
            if let Some(Value::String(error)) = tool_calls.get("evidence_error") {
                why.push_str(": ");
                why.push_str(error);
            }
            return Ok(unavailable(&why));
        }
        Some(Value::Array(entries)) => entries,
        Some(other) => {
            return Err(Malformed {
                path,
                expected: "an array or null",
                found: crate::options::json_type_name(other),
            })
        }
    };
    entries
        .iter()
        .enumerate()
        .map(|(index, value)| entry(value, &format!("{path}[{index}]")))
        .collect::<Result<Vec<T>, Malformed>>()
        .map(Evidence::Observed)
}

fn unavailable<T>(why: &str) -> Evidence<T> {
    Evidence::Unavailable(format!("Tool-call evidence is unavailable: {why}"))
}
