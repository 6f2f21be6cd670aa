//! M365 `PartialMatch`: token F1 of `response` against `expected_response`, using exactly the
//! normalisation of azure-ai-evaluation's F1 (see [`crate::text::f1`]), so that with
//! `case_sensitive: false` the score equals `builtin.f1_score` bit for bit. An empty or missing
//! `response` is handled by the engine (`emptyAgentResponse`), not here.

use super::f1_score::text_input;
use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::{decimal, f1, phrase};

/// Catalog entry for `PartialMatch`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "PartialMatch",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "expected_response"],
    needs_response: true,
    m365_reports_score: true,
    options: &[
        OptionSpec {
            name: "threshold",
            kind: "number 0..1",
            default: "0.5",
            description: "pass when the token F1 score is at least this value",
        },
        OptionSpec {
            name: "case_sensitive",
            kind: "boolean",
            default: "false",
            description: "compare tokens without lower-casing them first",
        },
    ],
    pass_rule: "token F1 >= threshold (0.5)",
    build,
};

struct PartialMatch {
    label: String,
    threshold: f64,
    /// `reason`'s text for a failed item, after the score.
    below_threshold: String,
    case_sensitive: bool,
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["threshold", "case_sensitive"])?;
    let threshold = options.number_in("threshold", 0.5, 0.0, 1.0)?;
    Ok(Box::new(PartialMatch {
        label: label.to_owned(),
        threshold,
        below_threshold: format!(" (below threshold {})", decimal::python_repr(threshold)),
        case_sensitive: options.bool("case_sensitive", false)?,
    }))
}

impl PartialMatch {
    /// `Match score: 0.667`, plus ` (below threshold 0.5)` when the item failed.
    fn reason(&self, score: f64, passed: bool) -> String {
        let below_threshold = if passed { "" } else { &self.below_threshold };
        phrase::concat(&["Match score: ", &decimal::fixed(score, 3), below_threshold])
    }
}

impl Evaluator for PartialMatch {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let response = match text_input(inputs, "response") {
            Ok(text) => text.unwrap_or_default(),
            Err(message) => {
                return EvalResult::error(&self.label, ErrorCode::EvaluatorError, message)
            }
        };
        let expected = match inputs.str("expected_response") {
            Some(expected) => expected,
            None => {
                return EvalResult::error(
                    &self.label,
                    ErrorCode::EvaluatorConfigurationError,
                    "PartialMatch needs the item's `expected_response` (a string)",
                )
            }
        };
        let score = f1::f1_score(response, expected, !self.case_sensitive);
        let passed = score >= self.threshold;
        EvalResult::scored(&self.label, passed, score, self.threshold)
            .with_reason(self.reason(score, passed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::json::{Map, Value};

    fn run(options: Value, response: &str, expected: Option<&str>) -> EvalResult {
        let map: Map<String, Value> = crate::json::from_value(options).unwrap_or_default();
        let evaluator = build("PartialMatch", Options::new(&map)).unwrap();
        let response = json!(response);
        let expected = expected.map_or(Value::Null, |text| json!(text));
        let inputs = Inputs::new()
            .with("response", &response)
            .with("expected_response", &expected);
        evaluator.evaluate(&inputs)
    }

    #[test]
    fn reason_has_three_decimals_and_threshold_on_fail() {
        let pass = run(json!({}), "the cat sat", Some("cat sat on mat"));
        assert_eq!(pass.reason.as_deref(), Some("Match score: 0.667"));
        assert_eq!(pass.result.as_str(), "pass");
        let fail = run(
            json!({"threshold": 0.7}),
            "the cat sat",
            Some("cat sat on mat"),
        );
        assert_eq!(
            fail.reason.as_deref(),
            Some("Match score: 0.667 (below threshold 0.7)")
        );
        let one = run(json!({"threshold": 1}), "x", Some("y"));
        assert_eq!(
            one.reason.as_deref(),
            Some("Match score: 0.000 (below threshold 1.0)")
        );
    }

    #[test]
    fn rounds_ties_like_python() {
        let evaluator = PartialMatch {
            label: "PartialMatch".to_owned(),
            threshold: 0.5,
            below_threshold: " (below threshold 0.5)".to_owned(),
            case_sensitive: false,
        };
        let reason = |score, passed| evaluator.reason(score, passed);
        assert_eq!(
            reason(0.0625, false),
            "Match score: 0.062 (below threshold 0.5)"
        );
        assert_eq!(
            reason(0.1875, false),
            "Match score: 0.188 (below threshold 0.5)"
        );
    }

    #[test]
    fn equals_f1_score_unless_case_sensitive() {
        let text = ("The Quick, brown FOX!", "quick brown fox jumps");
        let insensitive = run(json!({}), text.0, Some(text.1));
        assert_eq!(insensitive.score, Some(f1::f1_score(text.0, text.1, true)));
        let sensitive = run(json!({"case_sensitive": true}), text.0, Some(text.1));
        assert_eq!(sensitive.score, Some(0.25));
    }

    #[test]
    fn missing_expected_response_is_a_configuration_error() {
        let result = run(json!({}), "x", None);
        let error = result.error.unwrap();
        assert_eq!(error.code, ErrorCode::EvaluatorConfigurationError);
        assert!(error.message.contains("expected_response"));
    }

    #[test]
    fn threshold_out_of_range_is_rejected() {
        let map: Map<String, Value> = crate::json::from_value(json!({"threshold": 1.5})).unwrap();
        assert!(build("PartialMatch", Options::new(&map)).is_err());
    }

    #[test]
    fn snapshot_failing_result() {
        insta::assert_json_snapshot!(run(
            json!({"threshold": 0.8}),
            "Seattle, WA",
            Some("The city is Seattle")
        ));
    }
}
