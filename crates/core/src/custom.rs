//! Custom evaluators supplied by the caller (JS functions in the wasm package): name checks, and
//! validation of what a custom evaluator returned, so its result is checked like any other.
//!
//! A custom evaluator returns a number (a score), a boolean (a verdict), or an object
//! `{score?, result?, reason?, details?}`. A score passes at `score >= threshold`, where the
//! threshold is the `threshold` option (default 1, the M365 rule for code-only custom evaluators);
//! a returned `result` or `threshold` is ignored when a score is given, as in the M365 CLI.

use crate::json::{Map, Value};

use crate::details::Details;
use crate::evaluators;
use crate::options::{json_type_name, ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult, Verdict};

/// Default pass threshold of a custom evaluator's score.
pub const DEFAULT_THRESHOLD: f64 = 1.0;

/// Why a custom evaluator call gave no value to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CustomFailure {
    /// It threw, or could not be called: the message.
    Threw(String),
    /// It returned a value JSON cannot carry, as its language writes it (`undefined`, `NaN`).
    Unrepresentable(String),
}

/// What a custom evaluator call produced: its return value, or why there is none.
pub type CustomReturn = Result<Value, CustomFailure>;

/// Checks that `name` can be registered as a custom evaluator: an identifier
/// (`^[a-zA-Z][a-zA-Z0-9_]*$`) that is not a built-in name in any letter case.
///
/// # Errors
/// Says which rule the name breaks.
pub fn check_name(name: &str) -> Result<(), ConfigError> {
    let mut chars = name.chars();
    let identifier = chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && chars.all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    if !identifier {
        return Err(ConfigError::new(format!(
            "custom evaluator name \"{name}\" must start with a letter and contain only letters, digits and _"
        )));
    }
    if let Some(builtin) = evaluators::catalog().find(|spec| spec.name.eq_ignore_ascii_case(name)) {
        return Err(ConfigError::new(format!(
            "custom evaluator name \"{name}\" collides with the built-in evaluator \"{}\"",
            builtin.name
        )));
    }
    Ok(())
}

/// The threshold a custom evaluator's options set.
///
/// # Errors
/// When `threshold` is present but not a finite number.
pub fn threshold(options: &Map<String, Value>) -> Result<f64, ConfigError> {
    Options::new(options).number_in("threshold", DEFAULT_THRESHOLD, f64::MIN, f64::MAX)
}

/// Turns what custom evaluator `label` returned into a result.
pub fn validate(label: &str, threshold: f64, returned: CustomReturn) -> EvalResult {
    let invalid = |what: String| {
        EvalResult::error(
            label,
            ErrorCode::InvalidEvaluatorResult,
            format!("custom evaluator '{label}' returned {what}; expected a finite number (score), a boolean (verdict), or an object {{score?, result?: \"pass\"|\"fail\", reason?, details?}} with a score or a result"),
        )
    };
    let value = match returned {
        Ok(value) => value,
        Err(CustomFailure::Threw(message)) => {
            return EvalResult::error(
                label,
                ErrorCode::EvaluatorError,
                format!("custom evaluator '{label}' threw: {message}"),
            )
        }
        Err(CustomFailure::Unrepresentable(what)) => return invalid(what),
    };
    match value {
        Value::Bool(passed) => EvalResult::verdict(label, passed),
        Value::Number(number) => match number.as_f64().filter(|score| score.is_finite()) {
            Some(score) => EvalResult::scored(label, score >= threshold, score, threshold),
            None => invalid(format!("the number {number}")),
        },
        Value::Object(object) => {
            let reason = match object.get("reason") {
                None | Some(Value::Null) => None,
                Some(Value::String(reason)) => Some(reason.clone()),
                Some(other) => {
                    return invalid(format!("a reason that is {}", json_type_name(other)))
                }
            };
            let details = match object.get("details") {
                None | Some(Value::Null) => Details::new(),
                Some(Value::Object(details)) => Details::from(details.clone()),
                Some(other) => {
                    return invalid(format!("details that are {}", json_type_name(other)))
                }
            };
            let verdict = match object.get("result").and_then(Value::as_str) {
                Some("pass") => Some(Verdict::Pass),
                Some("fail") => Some(Verdict::Fail),
                _ => None,
            };
            let mut result = match (object.get("score"), verdict) {
                (Some(score), _) => match score.as_f64().filter(|score| score.is_finite()) {
                    Some(score) => EvalResult::scored(label, score >= threshold, score, threshold),
                    None => return invalid(format!("a score that is {score}")),
                },
                (None, Some(verdict)) => EvalResult::verdict(label, verdict == Verdict::Pass),
                (None, None) => {
                    return invalid("an object with neither a score nor a result".to_owned())
                }
            };
            result.reason = reason;
            result.details = details;
            result
        }
        other => invalid(json_type_name(&other).to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn numbers_are_scores_against_the_threshold() {
        let pass = validate("mine", 0.5, Ok(json!(0.7)));
        assert_eq!(
            (pass.result, pass.score, pass.threshold),
            (Verdict::Pass, Some(0.7), Some(0.5))
        );
        assert_eq!(validate("mine", 1.0, Ok(json!(0.7))).result, Verdict::Fail);
    }

    #[test]
    fn booleans_and_result_objects_are_verdicts() {
        assert_eq!(validate("mine", 1.0, Ok(json!(true))).result, Verdict::Pass);
        let fail = validate(
            "mine",
            1.0,
            Ok(json!({"result": "fail", "reason": "too short"})),
        );
        assert_eq!(
            (fail.result, fail.reason.as_deref(), fail.score),
            (Verdict::Fail, Some("too short"), None)
        );
    }

    #[test]
    fn a_returned_result_is_ignored_when_a_score_is_given() {
        let result = validate(
            "mine",
            3.0,
            Ok(json!({"score": 2, "result": "pass", "details": {"k": 1}})),
        );
        assert_eq!(result.result, Verdict::Fail);
        assert_eq!(result.details.get("k"), Some(&json!(1)));
    }

    #[test]
    fn anything_else_is_an_invalid_result() {
        for value in [
            json!("yes"),
            json!(null),
            json!([1]),
            json!({"reason": "r"}),
            json!({"score": "3"}),
            json!({"reason": 5}),
        ] {
            let result = validate("mine", 1.0, Ok(value.clone()));
            assert_eq!(result.result, Verdict::Error, "{value}");
            assert_eq!(
                result.error.map(|e| e.code),
                Some(ErrorCode::InvalidEvaluatorResult)
            );
        }
    }

    #[test]
    fn a_value_json_cannot_carry_is_an_invalid_result_named_as_returned() {
        let result = validate(
            "mine",
            1.0,
            Err(CustomFailure::Unrepresentable("undefined".into())),
        );
        let error = result.error.expect("error");
        assert_eq!(error.code, ErrorCode::InvalidEvaluatorResult);
        assert!(
            error
                .message
                .starts_with("custom evaluator 'mine' returned undefined; expected"),
            "{}",
            error.message
        );
    }

    #[test]
    fn a_throw_is_an_evaluator_error() {
        let result = validate("mine", 1.0, Err(CustomFailure::Threw("boom".into())));
        let error = result.error.expect("error");
        assert_eq!(error.code, ErrorCode::EvaluatorError);
        assert!(error.message.contains("boom"));
    }

    #[test]
    fn names_must_be_identifiers_distinct_from_built_ins() {
        assert!(check_name("forbidden_terms").is_ok());
        assert!(check_name("1bad").is_err());
        assert!(check_name("partialmatch").is_err());
        assert!(check_name("").is_err());
    }
}
