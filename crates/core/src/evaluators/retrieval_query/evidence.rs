//! Typed reading of an item's `diagnostics` (retrieval executions and tool-call evidence), with
//! errors that name the offending field.
//!
//! Absent and `null` fields read as "not given"; a field of the wrong JSON type is [`Malformed`],
//! which the evaluators turn into an `evaluatorError` result.

use crate::json::{Map, Value};

use super::fold::eq_folded;
use crate::options::json_type_name;
use crate::outcome::{ErrorCode, EvalResult};

/// A diagnostics field has the wrong JSON type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Malformed {
    /// Where, e.g. `diagnostics.retrieval_executions[0].queries`.
    pub(crate) path: String,
    /// What the schema expects there, e.g. `an array`.
    pub(crate) expected: &'static str,
    /// What was found.
    pub(crate) found: &'static str,
}

impl Malformed {
    fn new(path: String, expected: &'static str, found: &Value) -> Self {
        Malformed {
            path,
            expected,
            found: json_type_name(found),
        }
    }

    /// The `evaluatorError` result reporting this problem.
    pub(crate) fn into_result(self, label: &str) -> EvalResult {
        EvalResult::error(
            label,
            ErrorCode::EvaluatorError,
            format!(
                "{} must be {}, got {}",
                self.path, self.expected, self.found
            ),
        )
    }
}

/// `value` as an object.
pub(crate) fn as_object(
    value: &Value,
    path: impl FnOnce() -> String,
) -> Result<&Map<String, Value>, Malformed> {
    value
        .as_object()
        .ok_or_else(|| Malformed::new(path(), "an object", value))
}

/// The array at `key`; absent or `null` reads as empty.
pub(crate) fn array_at<'a>(
    object: &'a Map<String, Value>,
    key: &str,
    path: impl FnOnce() -> String,
) -> Result<&'a [Value], Malformed> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(Malformed::new(path(), "an array", other)),
    }
}

/// The string at `key`, or `None` when absent or `null`.
pub(crate) fn str_at<'a>(
    object: &'a Map<String, Value>,
    key: &str,
    path: impl FnOnce() -> String,
) -> Result<Option<&'a str>, Malformed> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(other) => Err(Malformed::new(path(), "a string or null", other)),
    }
}

/// The integer at `key`, or `None` when absent or `null` (`3.0` reads as 3).
pub(crate) fn int_at(
    object: &Map<String, Value>,
    key: &str,
    path: impl FnOnce() -> String,
) -> Result<Option<i64>, Malformed> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => crate::options::integer_value(value)
            .map(Some)
            .ok_or_else(|| Malformed::new(path(), "an integer or null", value)),
    }
}

/// The item's `diagnostics` object, if given.
pub(crate) fn diagnostics_object(
    diagnostics: Option<&Value>,
) -> Result<Option<&Map<String, Value>>, Malformed> {
    diagnostics
        .map(|value| as_object(value, || "diagnostics".to_owned()))
        .transpose()
}

/// One retrieval execution scoped to the configured capability, with its position for error paths.
pub(crate) struct ScopedExecution<'a> {
    /// Index in `diagnostics.retrieval_executions`.
    pub(crate) index: usize,
    /// The execution object.
    pub(crate) execution: &'a Map<String, Value>,
}

/// The executions in `diagnostics.retrieval_executions` whose `capability` equals
/// `folded_capability` ignoring case (executions with a `null` capability never match), or every
/// execution when `folded_capability` is `None`. `Ok(None)` when the item has no retrieval data
/// at all (no `diagnostics` or no `retrieval_executions`).
pub(crate) fn scoped_executions<'a>(
    diagnostics: Option<&'a Value>,
    folded_capability: Option<&str>,
) -> Result<Option<Vec<ScopedExecution<'a>>>, Malformed> {
    let Some(diagnostics) = diagnostics_object(diagnostics)? else {
        return Ok(None);
    };
    let executions = match diagnostics.get("retrieval_executions") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(Malformed::new(
                "diagnostics.retrieval_executions".to_owned(),
                "an array",
                other,
            ))
        }
    };
    let mut scoped = Vec::new();
    for (index, value) in executions.iter().enumerate() {
        let execution = as_object(value, || execution_path(index, ""))?;
        let capability = str_at(execution, "capability", || {
            execution_path(index, ".capability")
        })?;
        let in_scope = match folded_capability {
            None => true,
            Some(wanted) => capability.is_some_and(|name| eq_folded(name, wanted)),
        };
        if in_scope {
            scoped.push(ScopedExecution { index, execution });
        }
    }
    Ok(Some(scoped))
}

/// `diagnostics.retrieval_executions[index]` followed by `suffix`.
pub(crate) fn execution_path(index: usize, suffix: &str) -> String {
    format!("diagnostics.retrieval_executions[{index}]{suffix}")
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;

    #[test]
    fn absent_retrieval_data_is_none() {
        assert!(matches!(scoped_executions(None, Some("email")), Ok(None)));
        let empty = json!({});
        assert!(matches!(
            scoped_executions(Some(&empty), Some("email")),
            Ok(None)
        ));
        let null = json!({"retrieval_executions": null});
        assert!(matches!(
            scoped_executions(Some(&null), Some("email")),
            Ok(None)
        ));
    }

    #[test]
    fn scopes_by_capability_ignoring_case() {
        let diagnostics = json!({"retrieval_executions": [
            {"capability": "Email"},
            {"capability": null},
            {"capability": "OneDriveAndSharePoint"},
            {"capability": "EMAIL"}
        ]});
        let scoped = scoped_executions(Some(&diagnostics), Some("email"))
            .ok()
            .flatten()
            .unwrap_or_default();
        let indices: Vec<usize> = scoped.iter().map(|s| s.index).collect();
        assert_eq!(indices, vec![0, 3]);
    }

    #[test]
    fn wrong_types_name_the_field() {
        let diagnostics = json!({"retrieval_executions": [{"capability": 3}]});
        let error = scoped_executions(Some(&diagnostics), Some("email")).err();
        assert_eq!(
            error,
            Some(Malformed {
                path: "diagnostics.retrieval_executions[0].capability".to_owned(),
                expected: "a string or null",
                found: "a number",
            })
        );
        let not_object = json!("text");
        let error = scoped_executions(Some(&not_object), Some("email")).err();
        assert_eq!(error.map(|e| e.path), Some("diagnostics".to_owned()));
    }
}
