//! `builtin.f1_score`: azure-ai-evaluation's `F1ScoreEvaluator` (token F1 of `response` against
//! `ground_truth`, pass when `f1 >= threshold`). The normalisation lives in [`crate::text::f1`].

use crate::json::Value;

use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{json_type_name, ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::f1;
use crate::text::pynum::PyNum;

/// Catalog entry for `builtin.f1_score`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.f1_score",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "ground_truth"],
    needs_response: false,
    m365_reports_score: true,
    options: &[OptionSpec {
        name: "threshold",
        kind: "number",
        default: "0.5",
        description: "pass when the F1 score is at least this value",
    }],
    pass_rule: "token F1 >= threshold (0.5)",
    build,
};

const MISSING_INPUTS: &str =
    "F1ScoreEvaluator: Either 'conversation' or individual inputs must be provided.";

struct F1Score {
    label: String,
    threshold: f64,
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["threshold"])?;
    let threshold = reference_threshold(options, "threshold", 0.5)?;
    Ok(Box::new(F1Score {
        label: label.to_owned(),
        threshold,
    }))
}

/// A threshold the reference compares with `>=`: any JSON number. `null`, booleans and other types
/// are rejected (the reference raises a raw `TypeError` for most of them at scoring time).
pub(crate) fn reference_threshold(
    options: Options<'_>,
    key: &str,
    default: f64,
) -> Result<f64, ConfigError> {
    match options.map().get(key) {
        None => Ok(default),
        Some(value) => match PyNum::from_json(value) {
            Some(number) => Ok(number.to_f64()),
            None => Err(ConfigError::new(format!(
                "option `{key}` must be a number, got {}",
                json_type_name(value)
            ))),
        },
    }
}

/// The string input `name`, or a message naming it (the reference crashes with
/// `AttributeError: … has no attribute 'lower'` on non-strings).
pub(crate) fn text_input<'a>(inputs: &Inputs<'a>, name: &str) -> Result<Option<&'a str>, String> {
    inputs
        .get(name)
        .map(|value| as_text(name, value))
        .transpose()
}

fn as_text<'a>(name: &str, value: &'a Value) -> Result<&'a str, String> {
    value
        .as_str()
        .ok_or_else(|| format!("`{name}` must be a string, got {}", json_type_name(value)))
}

/// Both text inputs of F1-style evaluators; `missing` is the reference's message when one is absent.
/// As in the reference, absence is checked before either input's type.
pub(crate) fn text_pair<'a>(
    inputs: &Inputs<'a>,
    missing: &str,
) -> Result<(&'a str, &'a str), String> {
    let (Some(response), Some(ground_truth)) = (inputs.get("response"), inputs.get("ground_truth"))
    else {
        return Err(missing.to_owned());
    };
    Ok((
        as_text("response", response)?,
        as_text("ground_truth", ground_truth)?,
    ))
}

impl Evaluator for F1Score {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        match text_pair(inputs, MISSING_INPUTS) {
            Ok((response, ground_truth)) => {
                let score = f1::f1_score(response, ground_truth, true);
                EvalResult::scored(&self.label, score >= self.threshold, score, self.threshold)
            }
            Err(message) => EvalResult::error(&self.label, ErrorCode::EvaluatorError, message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::json::Map;

    fn run(options: Value, response: Value, ground_truth: Value) -> EvalResult {
        let map: Map<String, Value> = crate::json::from_value(options).unwrap_or_default();
        let evaluator = build("f1", Options::new(&map)).unwrap();
        let inputs = Inputs::new()
            .with("response", &response)
            .with("ground_truth", &ground_truth);
        evaluator.evaluate(&inputs)
    }

    #[test]
    fn scores_and_applies_threshold() {
        let result = run(json!({}), json!("The cat sat"), json!("a cat sat down"));
        assert_eq!(result.score, Some(0.8));
        assert_eq!(result.threshold, Some(0.5));
        assert_eq!(result.result.as_str(), "pass");
        let strict = run(
            json!({"threshold": 0.9}),
            json!("The cat sat"),
            json!("cat sat down"),
        );
        assert_eq!(strict.result.as_str(), "fail");
        assert!(strict.details.is_empty() && strict.reason.is_none());
    }

    #[test]
    fn missing_and_non_string_inputs_are_errors() {
        let missing = run(json!({}), json!("x"), Value::Null);
        assert_eq!(
            missing.error.map(|e| e.message).as_deref(),
            Some(MISSING_INPUTS)
        );
        let number = run(json!({}), json!(5), json!("x"));
        assert_eq!(
            number.error.map(|e| e.message).as_deref(),
            Some("`response` must be a string, got a number")
        );
        let number_and_missing = run(json!({}), json!(5), Value::Null);
        assert_eq!(
            number_and_missing.error.map(|e| e.message).as_deref(),
            Some(MISSING_INPUTS),
            "absence is reported before the other input's type, as the reference does"
        );
    }

    #[test]
    fn bad_threshold_is_a_config_error() {
        for bad in [
            json!({"threshold": "0.5"}),
            json!({"threshold": null}),
            json!({"threshold": true}),
            json!({"x": 1}),
        ] {
            let map: Map<String, Value> = crate::json::from_value(bad).unwrap_or_default();
            assert!(build("f1", Options::new(&map)).is_err());
        }
    }

    #[test]
    fn snapshot_result() {
        let result = run(
            json!({"threshold": 0.75}),
            json!("Paris is the capital"),
            json!("The capital is Paris."),
        );
        insta::assert_json_snapshot!(result);
    }
}
