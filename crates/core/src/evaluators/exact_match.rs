//! The `ExactMatch` evaluator (M365): the response equals `expected_response` after trimming
//! whitespace from both, ignoring letter case unless `case_sensitive`.
//!
//! Mirrors Python's `a.strip() == b.strip()` (with `.lower()` on both sides by default). The M365
//! score shape has no `score` or `threshold`: only `{match, result, reason}`.

use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::python;

/// Catalog entry for `ExactMatch`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "ExactMatch",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "expected_response"],
    needs_response: true,
    m365_reports_score: false,
    options: &[OptionSpec {
        name: "case_sensitive",
        kind: "boolean",
        default: "false",
        description: "compare letter case too (the schema default false wins over the docs page that says true)",
    }],
    pass_rule: "match after trimming Unicode whitespace; case-insensitive unless case_sensitive",
    build,
};

const PASS_REASON: &str = "Exact match found";
const FAIL_REASON: &str = "No exact match: the response differs from expected_response";
const CASE_ONLY_REASON: &str =
    "No exact match: the response differs from expected_response only in letter case (case_sensitive is true)";

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["case_sensitive"])?;
    Ok(Box::new(ExactMatch {
        label: label.to_owned(),
        case_sensitive: options.bool("case_sensitive", false)?,
    }))
}

struct ExactMatch {
    label: String,
    case_sensitive: bool,
}

impl Evaluator for ExactMatch {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let response = match inputs.response(&self.label) {
            Ok(response) => response,
            Err(missing) => return *missing,
        };
        let expected = match inputs.str("expected_response").map(trim) {
            Some(expected) if !expected.is_empty() => expected,
            _ => {
                return EvalResult::error(
                    &self.label,
                    ErrorCode::EvaluatorConfigurationError,
                    "ExactMatch needs a non-empty expected_response",
                )
            }
        };
        let response = trim(response);
        let matched = if self.case_sensitive {
            response == expected
        } else {
            eq_ignore_case(response, expected)
        };
        let reason = if matched {
            PASS_REASON
        } else if self.case_sensitive && eq_ignore_case(response, expected) {
            CASE_ONLY_REASON
        } else {
            FAIL_REASON
        };
        EvalResult::verdict(&self.label, matched)
            .with_reason(reason)
            .with_detail("match", matched)
    }
}

/// Trims what Python's `str.strip()` trims: Unicode whitespace plus the ASCII separators
/// U+001C..U+001F.
fn trim(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// `a.lower() == b.lower()` in Python terms; allocation-free unless a capital sigma, lower-cased
/// by its context, makes whole-string lower-casing necessary.
fn eq_ignore_case(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        a.eq_ignore_ascii_case(b)
    } else if python::has_capital_sigma(a) || python::has_capital_sigma(b) {
        python::lower(a) == python::lower(b)
    } else {
        lowered_chars(a).eq(lowered_chars(b))
    }
}

/// The characters of `python::lower(text)` for a text without a capital sigma.
fn lowered_chars(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().flat_map(|c| {
        let (first, second) = python::lower_one(c);
        std::iter::once(first).chain(second)
    })
}

#[cfg(test)]
mod tests {
    use crate::json;
    use crate::json::Value;

    use super::*;
    use crate::outcome::Verdict;

    fn run(options: Value, response: Option<&str>, expected: Option<&str>) -> EvalResult {
        let map = options.as_object().cloned().unwrap_or_default();
        let evaluator = (SPEC.build)("ExactMatch", Options::new(&map)).expect("valid options");
        let response = response.map(Value::from).unwrap_or(Value::Null);
        let expected = expected.map(Value::from).unwrap_or(Value::Null);
        evaluator.evaluate(
            &Inputs::new()
                .with("response", &response)
                .with("expected_response", &expected),
        )
    }

    #[test]
    fn trims_both_sides() {
        let result = run(json!({}), Some("  4\n"), Some("4"));
        assert_eq!(result.result, Verdict::Pass);
        assert_eq!(result.details["match"], json!(true));
        assert_eq!(result.score, None);
        assert_eq!(result.threshold, None);
        insta::assert_json_snapshot!(result);
    }

    #[test]
    fn trims_unicode_and_python_separator_whitespace() {
        let result = run(
            json!({}),
            Some("\u{3000}\u{a0}Paris\u{2029}\u{1f}"),
            Some("\tParis "),
        );
        assert_eq!(result.result, Verdict::Pass);
    }

    #[test]
    fn case_insensitive_by_default() {
        assert_eq!(
            run(json!({}), Some("PARIS"), Some("paris")).result,
            Verdict::Pass
        );
        assert_eq!(
            run(json!({}), Some("ÉTÉ"), Some("été")).result,
            Verdict::Pass
        );
    }

    #[test]
    fn non_ascii_comparison_lowers_like_whole_strings() {
        for (a, b) in [
            ("\u{E200}cite ÉTÉ", "\u{E200}CITE été"),
            ("İstanbul", "i\u{307}stanbul"),
            ("\u{212A}elvin", "kelvin"),
            ("ΟΔΟΣ", "οδος"),
            ("ΟΔΟΣ", "οδοσ"),
            ("ΣΑ", "σα"),
            ("straße", "STRASSE"),
            ("日本", "日本語"),
        ] {
            assert_eq!(
                eq_ignore_case(a, b),
                python::lower(a) == python::lower(b),
                "{a} / {b}"
            );
        }
    }

    #[test]
    fn case_sensitive_option() {
        let result = run(
            json!({"case_sensitive": true}),
            Some("PARIS"),
            Some("paris"),
        );
        assert_eq!(result.result, Verdict::Fail);
        assert_eq!(result.details["match"], json!(false));
        assert_eq!(result.reason.as_deref(), Some(CASE_ONLY_REASON));
        let result = run(
            json!({"case_sensitive": true}),
            Some("Paris"),
            Some("Paris"),
        );
        assert_eq!(result.result, Verdict::Pass);
    }

    #[test]
    fn equality_not_containment() {
        let result = run(json!({}), Some("The answer is 4"), Some("4"));
        assert_eq!(result.result, Verdict::Fail);
        assert_eq!(result.reason.as_deref(), Some(FAIL_REASON));
        insta::assert_json_snapshot!(result);
    }

    #[test]
    fn inner_whitespace_matters() {
        assert_eq!(
            run(json!({}), Some("a  b"), Some("a b")).result,
            Verdict::Fail
        );
    }

    #[test]
    fn missing_expected_response_is_a_configuration_error() {
        for expected in [None, Some(""), Some("  \n")] {
            let result = run(json!({}), Some("4"), expected);
            assert_eq!(result.result, Verdict::Error);
            assert_eq!(
                result.error.map(|e| e.code),
                Some(ErrorCode::EvaluatorConfigurationError)
            );
        }
    }

    #[test]
    fn missing_response_does_not_panic() {
        let result = run(json!({}), None, Some("4"));
        assert_eq!(
            result.error.map(|e| e.code),
            Some(ErrorCode::EmptyAgentResponse)
        );
        assert_eq!(run(json!({}), Some("   "), Some("4")).result, Verdict::Fail);
    }

    #[test]
    fn options_are_validated() {
        let reject = |options: Value| {
            let map = options.as_object().cloned().unwrap_or_default();
            (SPEC.build)("ExactMatch", Options::new(&map))
                .err()
                .map(|e| e.message)
        };
        assert!(reject(json!({"threshold": 1}))
            .is_some_and(|m| m.contains("unknown option `threshold`")));
        assert!(
            reject(json!({"case_sensitive": "yes"})).is_some_and(|m| m.contains("case_sensitive"))
        );
        assert!(reject(json!({"case_sensitive": null})).is_none());
    }
}
