//! Reading a custom judge's reply (spec §2, custom evaluators from a prompt template; Foundry's
//! `score_model` and `label_model` graders): a score on the template's own range, passing at its
//! threshold, or one of its labels, passing when it is a passing label. A reply without a score on
//! the range or a known label is no verdict (`judgeOutputUnparseable`), never a score. Rendering
//! the template is the evaluator's (`evaluators/judged/template.rs`), not this module's.

use crate::json::Value;
use crate::judge::reply::JudgeReply;
use crate::judge::verdict::{score_on_range, ReadsReply};
use crate::outcome::{ErrorCode, EvalResult};

/// How a custom judge grades.
#[derive(Debug, Clone, PartialEq)]
pub enum Grading {
    /// A score from `low` to `high`, passing at `score >= threshold`.
    Range {
        /// Lowest score.
        low: f64,
        /// Highest score.
        high: f64,
        /// Lowest passing score.
        threshold: f64,
    },
    /// One label of `labels`; passes when it is one of `passing`. The score is 1 for a passing
    /// label and 0 for another.
    Labels {
        /// Every label the judge may answer.
        labels: Vec<String>,
        /// The labels that pass (a non-empty subset of `labels`).
        passing: Vec<String>,
    },
}

impl Grading {
    /// The threshold results report: the configured one, or 1 for labels.
    pub fn threshold(&self) -> f64 {
        match self {
            Grading::Range { threshold, .. } => *threshold,
            Grading::Labels { .. } => 1.0,
        }
    }

    /// The result `label` gets from `reply`.
    pub fn result(&self, label: &str, reply: &JudgeReply) -> EvalResult {
        let unparseable =
            |message: String| EvalResult::error(label, ErrorCode::JudgeOutputUnparseable, message);
        let reason = reply.reason.clone().unwrap_or_default();
        let mut result = match self {
            Grading::Range {
                low,
                high,
                threshold,
            } => match score_on_range(reply.score.as_ref(), *low, *high) {
                Ok(score) => EvalResult::scored(label, score >= *threshold, score, *threshold)
                    .with_reason(reason),
                Err(message) => return unparseable(message),
            },
            Grading::Labels { labels, passing } => match chosen_label(reply, labels) {
                Ok(chosen) => {
                    let passed = passing.iter().any(|known| known == chosen);
                    let mut result =
                        EvalResult::scored(label, passed, if passed { 1.0 } else { 0.0 }, 1.0)
                            .with_reason(reason);
                    result.details.insert("label", chosen);
                    result
                }
                Err(message) => return unparseable(message),
            },
        };
        for (key, value) in &reply.properties {
            result.details.insert(key.clone(), value.clone());
        }
        result
    }
}

/// The label of `labels` the reply's `label` member names: exactly, or else in another letter
/// case when only one label matches that way.
fn chosen_label<'a>(reply: &JudgeReply, labels: &'a [String]) -> Result<&'a str, String> {
    let Some(member) = reply.object.get("label") else {
        return Err("the judge's reply has no label".to_owned());
    };
    let Some(text) = member.as_str().map(str::trim) else {
        return Err(format!("the judge's label {member} is not text"));
    };
    if let Some(exact) = labels.iter().find(|known| *known == text) {
        return Ok(exact);
    }
    let mut folded = labels
        .iter()
        .filter(|known| known.to_lowercase() == text.to_lowercase());
    match (folded.next(), folded.next()) {
        (Some(only), None) => Ok(only),
        _ => Err(format!(
            "the judge's label {} is not one of the labels {}",
            Value::from(text),
            Value::Array(
                labels
                    .iter()
                    .map(|known| Value::from(known.as_str()))
                    .collect()
            )
        )),
    }
}

impl ReadsReply for Grading {
    fn read_reply(&self, label: &str, _threshold: f64, reply: &JudgeReply) -> EvalResult {
        self.result(label, reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::reply::read_verdict;
    use crate::outcome::Verdict;

    fn read(grading: &Grading, content: &str) -> EvalResult {
        let reply = read_verdict(content).expect("a JSON reply");
        grading.result("Politeness", &reply)
    }

    fn code(result: &EvalResult) -> Option<ErrorCode> {
        result.error.as_ref().map(|error| error.code)
    }

    #[test]
    fn range_scores_pass_at_the_threshold_and_off_range_scores_are_no_verdict() {
        let grading = Grading::Range {
            low: 0.0,
            high: 10.0,
            threshold: 7.0,
        };
        let pass = read(&grading, r#"{"score": 7, "reason": "polite"}"#);
        assert_eq!(
            (pass.result, pass.score, pass.threshold),
            (Verdict::Pass, Some(7.0), Some(7.0))
        );
        assert_eq!(pass.reason.as_deref(), Some("polite"));
        let fail = read(&grading, r#"{"score": "6.5"}"#);
        assert_eq!((fail.result, fail.score), (Verdict::Fail, Some(6.5)));
        for bad in [
            r#"{"score": 11}"#,
            r#"{"score": -1}"#,
            r#"{"score": null}"#,
            r#"{"reason": "no score"}"#,
            r#"{"score": true}"#,
        ] {
            assert_eq!(
                code(&read(&grading, bad)),
                Some(ErrorCode::JudgeOutputUnparseable),
                "{bad}"
            );
        }
    }

    #[test]
    fn labels_pass_when_passing_and_unknown_labels_are_no_verdict() {
        let grading = Grading::Labels {
            labels: vec!["positive".into(), "neutral".into(), "negative".into()],
            passing: vec!["positive".into(), "neutral".into()],
        };
        let pass = read(&grading, r#"{"label": "neutral", "reason": "calm"}"#);
        assert_eq!(
            (pass.result, pass.score, pass.threshold),
            (Verdict::Pass, Some(1.0), Some(1.0))
        );
        assert_eq!(pass.details.get("label"), Some(&Value::from("neutral")));
        let fail = read(&grading, r#"{"label": " Negative "}"#);
        assert_eq!((fail.result, fail.score), (Verdict::Fail, Some(0.0)));
        assert_eq!(fail.details.get("label"), Some(&Value::from("negative")));
        for bad in [
            r#"{"label": "angry"}"#,
            r#"{"label": 3}"#,
            r#"{"score": 1}"#,
        ] {
            let result = read(&grading, bad);
            assert_eq!(
                code(&result),
                Some(ErrorCode::JudgeOutputUnparseable),
                "{bad}"
            );
        }
        let ambiguous = Grading::Labels {
            labels: vec!["Yes".into(), "yes".into()],
            passing: vec!["Yes".into()],
        };
        assert_eq!(
            code(&read(&ambiguous, r#"{"label": "YES"}"#)),
            Some(ErrorCode::JudgeOutputUnparseable)
        );
        assert_eq!(
            read(&ambiguous, r#"{"label": "yes"}"#).result,
            Verdict::Fail
        );
    }
}
