//! The `KeywordMatch` evaluator (Copilot Studio "keyword match"): which of the configured keywords
//! occur in the response, as substrings, ignoring case unless `case_sensitive`.
//!
//! Score = share of keywords found. `mode: "all"` passes when every keyword is found (threshold
//! 1.0); `mode: "any"` passes when at least one is (threshold 1/n, so `score >= threshold` holds
//! exactly when the item passes).

use crate::json::Value;

use super::retrieval_query::fold::{Haystack, Term};
use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::EvalResult;
use crate::text::phrase::{push_all, push_count, push_quoted_list};

/// Catalog entry for `KeywordMatch`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "KeywordMatch",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response"],
    needs_response: true,
    m365_reports_score: true,
    options: &[
        OptionSpec {
            name: "keywords",
            kind: "array of strings",
            default: "required",
            description: "keywords to look for in the response (substring match)",
        },
        OptionSpec {
            name: "mode",
            kind: "\"all\" | \"any\"",
            default: "\"all\"",
            description:
                "all: every keyword must occur (threshold 1.0); any: at least one (threshold 1/n)",
        },
        OptionSpec {
            name: "case_sensitive",
            kind: "boolean",
            default: "false",
            description: "compare letter case too",
        },
    ],
    pass_rule: "all (or any) keywords found",
    build,
};

/// Whether every keyword or just one must occur.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    All,
    Any,
}

impl Mode {
    fn as_str(self) -> &'static str {
        match self {
            Mode::All => "all",
            Mode::Any => "any",
        }
    }
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["keywords", "mode", "case_sensitive"])?;
    let keywords = options.string_list("keywords")?;
    if keywords.is_empty() {
        return Err(ConfigError::new(
            "option `keywords` is required and must be a non-empty array of non-empty strings",
        ));
    }
    let mode = match options.string("mode")? {
        None => Mode::All,
        Some(text) if text.eq_ignore_ascii_case("all") => Mode::All,
        Some(text) if text.eq_ignore_ascii_case("any") => Mode::Any,
        Some(other) => {
            return Err(ConfigError::new(format!(
                "option `mode` must be \"all\" or \"any\", got \"{other}\""
            )))
        }
    };
    Ok(Box::new(KeywordMatch {
        label: label.to_owned(),
        keywords: keywords.into_iter().map(Term::new).collect(),
        mode,
        case_sensitive: options.bool("case_sensitive", false)?,
    }))
}

struct KeywordMatch {
    label: String,
    keywords: Vec<Term>,
    mode: Mode,
    case_sensitive: bool,
}

impl Evaluator for KeywordMatch {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let response = match inputs.response(&self.label) {
            Ok(response) => response,
            Err(missing) => return *missing,
        };
        let (found, missing) = self.partition(response);
        let total = self.keywords.len();
        let (passed, threshold) = match self.mode {
            Mode::All => (missing.is_empty(), 1.0),
            Mode::Any => (!found.is_empty(), 1.0 / total as f64),
        };
        let score = found.len() as f64 / total as f64;
        EvalResult::scored(&self.label, passed, score, threshold)
            .with_reason(self.reason(&found, &missing))
            .with_detail("mode", self.mode.as_str())
            .with_detail("matched_keywords", strings(&found))
            .with_detail("missing_keywords", strings(&missing))
    }
}

impl KeywordMatch {
    /// The keywords found in `response` and those not found, in configured order.
    fn partition(&self, response: &str) -> (Vec<&str>, Vec<&str>) {
        let haystack = (!self.case_sensitive).then(|| Haystack::new(response));
        self.keywords.iter().fold(
            (Vec::new(), Vec::new()),
            |(mut found, mut missing), keyword| {
                let present = match &haystack {
                    Some(haystack) => haystack.contains(&keyword.folded),
                    None => response.contains(keyword.original.as_str()),
                };
                if present {
                    found.push(keyword.original.as_str());
                } else {
                    missing.push(keyword.original.as_str());
                }
                (found, missing)
            },
        )
    }

    fn reason(&self, found: &[&str], missing: &[&str]) -> String {
        let mut reason = String::with_capacity(64);
        if missing.is_empty() {
            reason.push_str("All keywords found: ");
            push_quoted_list(&mut reason, found);
            return reason;
        }
        if found.is_empty() {
            reason.push_str("No keyword found");
        } else {
            push_count(&mut reason, found.len());
            reason.push_str(" of ");
            push_count(&mut reason, self.keywords.len());
            push_all(
                &mut reason,
                &[" keywords found (mode ", self.mode.as_str(), ")"],
            );
        }
        reason.push_str("; missing: ");
        push_quoted_list(&mut reason, missing);
        reason
    }
}

fn strings(texts: &[&str]) -> Value {
    Value::Array(texts.iter().map(|text| Value::from(*text)).collect())
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;
    use crate::outcome::{ErrorCode, Verdict};

    fn run(options: Value, response: &str) -> EvalResult {
        let map = options.as_object().cloned().unwrap_or_default();
        let evaluator = (SPEC.build)("KeywordMatch", Options::new(&map)).expect("valid options");
        let response = Value::from(response);
        evaluator.evaluate(&Inputs::new().with("response", &response))
    }

    #[test]
    fn all_mode_needs_every_keyword() {
        let options = json!({"keywords": ["refund", "30 days", "receipt"]});
        let result = run(options.clone(), "Refunds are possible within 30 DAYS.");
        assert_eq!(result.result, Verdict::Fail);
        assert_eq!(result.score, Some(2.0 / 3.0));
        assert_eq!(result.threshold, Some(1.0));
        assert_eq!(result.details["missing_keywords"], json!(["receipt"]));
        insta::assert_json_snapshot!(result);
        let result = run(options, "Bring the receipt: refund within 30 days.");
        assert_eq!(result.result, Verdict::Pass);
        assert_eq!(result.score, Some(1.0));
    }

    #[test]
    fn any_mode_needs_one_keyword_and_reports_its_threshold() {
        let options =
            json!({"keywords": ["refund", "exchange", "credit", "voucher"], "mode": "any"});
        let result = run(options.clone(), "We offer an exchange.");
        assert_eq!(result.result, Verdict::Pass);
        assert_eq!(result.score, Some(0.25));
        assert_eq!(result.threshold, Some(0.25));
        insta::assert_json_snapshot!(result);
        let result = run(options, "No luck.");
        assert_eq!(result.result, Verdict::Fail);
        assert_eq!(result.score, Some(0.0));
        assert_eq!(
            result.reason.as_deref(),
            Some("No keyword found; missing: 'refund', 'exchange', 'credit', 'voucher'")
        );
    }

    #[test]
    fn score_never_disagrees_with_threshold() {
        for found in 0..=7 {
            let keywords: Vec<String> = (0..7).map(|n| format!("k{n}x")).collect();
            let response: String = keywords
                .iter()
                .take(found)
                .cloned()
                .collect::<Vec<_>>()
                .join(" ");
            for mode in ["all", "any"] {
                let result = run(json!({"keywords": keywords, "mode": mode}), &response);
                let (score, threshold) = (
                    result.score.unwrap_or(-1.0),
                    result.threshold.unwrap_or(2.0),
                );
                assert_eq!(
                    result.result == Verdict::Pass,
                    score >= threshold,
                    "{mode} {found}"
                );
            }
        }
    }

    #[test]
    fn case_sensitivity() {
        assert_eq!(
            run(json!({"keywords": ["ÉTÉ"]}), "en été").result,
            Verdict::Pass
        );
        let result = run(
            json!({"keywords": ["Contoso"], "case_sensitive": true}),
            "contoso",
        );
        assert_eq!(result.result, Verdict::Fail);
        let result = run(
            json!({"keywords": ["Contoso"], "case_sensitive": true}),
            "Contoso Ltd",
        );
        assert_eq!(result.result, Verdict::Pass);
    }

    #[test]
    fn options_are_validated() {
        let reject = |options: Value| {
            let map = options.as_object().cloned().unwrap_or_default();
            (SPEC.build)("KeywordMatch", Options::new(&map))
                .err()
                .map(|e| e.message)
        };
        assert!(reject(json!({})).is_some_and(|m| m.contains("keywords")));
        assert!(reject(json!({"keywords": []})).is_some_and(|m| m.contains("keywords")));
        assert!(reject(json!({"keywords": [""]})).is_some_and(|m| m.contains("keywords")));
        assert!(
            reject(json!({"keywords": ["a"], "mode": "most"})).is_some_and(|m| m.contains("mode"))
        );
        assert!(reject(json!({"keywords": ["a"], "threshold": 0.5}))
            .is_some_and(|m| m.contains("unknown option")));
        assert!(reject(json!({"keywords": ["a"], "mode": "ANY"})).is_none());
    }

    #[test]
    fn missing_response_does_not_panic() {
        let map = json!({"keywords": ["a"]})
            .as_object()
            .cloned()
            .unwrap_or_default();
        let evaluator = (SPEC.build)("KeywordMatch", Options::new(&map)).expect("valid options");
        let result = evaluator.evaluate(&Inputs::new());
        assert_eq!(
            result.error.map(|e| e.code),
            Some(ErrorCode::EmptyAgentResponse)
        );
    }
}
