//! Reading a composite judge's reply (spec §2, Foundry's `output_quality` and `tool_use_quality`):
//! one reply rates every member dimension on its own scale (1–5, or 0/1) and says which apply.
//! The composite passes only when every applicable member passes (1–5 members at `score >=
//! threshold`, 0/1 members at 1); members that do not apply are omitted; when none applies the
//! composite is not applicable. The reply is checked as a rubric's ([`Rubric::ratings`]): a member
//! rated twice, not at all, or off its scale is no verdict. The prompt is the evaluator's.

use super::super::rubric::reading::{Rating, Rubric};
use crate::json::{Map, Value};
use crate::judge::reply::JudgeReply;
use crate::judge::verdict::{ReadsReply, Scale};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::decimal;

/// A composite: its members (as dimensions with their scales) and the 1–5 members' threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct Composite {
    /// The members the judge rates, in order.
    pub members: Rubric,
    /// The threshold of the members scored 1–5.
    pub threshold: f64,
}

/// One member's verdict.
struct Component<'r> {
    rating: &'r Rating,
    scale: Scale,
    /// `None` when the member does not apply.
    passed: Option<bool>,
}

impl Composite {
    /// The result `label` gets from `reply`: score 1 and `pass` when every applicable member
    /// passes, else 0 and `fail` (threshold 1); `skipped` when none applies;
    /// `judgeOutputUnparseable` when the reply does not rate the members. Each member's score,
    /// verdict, threshold and reason go into `details.components` and, shortened, the reason.
    pub fn result(&self, label: &str, reply: &JudgeReply) -> EvalResult {
        let ratings = match self.members.ratings(reply) {
            Ok(ratings) => ratings,
            Err(message) => {
                return EvalResult::error(label, ErrorCode::JudgeOutputUnparseable, message)
            }
        };
        let components: Vec<Component<'_>> = ratings
            .iter()
            .zip(&self.members.dimensions)
            .map(|(rating, member)| Component {
                rating,
                scale: member.scale,
                passed: rating.score.map(|score| match member.scale {
                    Scale::Likert => score >= self.threshold,
                    Scale::Binary => score == 1.0,
                }),
            })
            .collect();
        let applicable: Vec<&Component<'_>> = components
            .iter()
            .filter(|component| component.passed.is_some())
            .collect();
        let mut result = if applicable.is_empty() {
            let overall = reply.reason.as_deref().map(str::trim).unwrap_or_default();
            let why = if overall.is_empty() {
                "none of its components applies"
            } else {
                overall
            };
            let mut skipped = EvalResult::skipped(label, format!("Not applicable: {why}"));
            skipped.threshold = Some(1.0);
            skipped
        } else {
            let failed: Vec<String> = applicable
                .iter()
                .filter(|component| component.passed == Some(false))
                .map(|component| self.shown_verdict(component))
                .collect();
            let passed = failed.is_empty();
            let verdict = if passed {
                "Every applicable component passed.".to_owned()
            } else {
                format!("Failed: {}.", failed.join(", "))
            };
            let score = if passed { 1.0 } else { 0.0 };
            EvalResult::scored(label, passed, score, 1.0)
                .with_reason(format!("{verdict} {}", summary(&components)))
        };
        result.details.insert(
            "components",
            Value::Array(
                components
                    .iter()
                    .map(|component| self.component_value(component))
                    .collect(),
            ),
        );
        result
    }

    /// The threshold a member passes at.
    fn threshold_of(&self, scale: Scale) -> f64 {
        match scale {
            Scale::Likert => self.threshold,
            Scale::Binary => 1.0,
        }
    }

    /// `groundedness (2, threshold 3)`.
    fn shown_verdict(&self, component: &Component<'_>) -> String {
        format!(
            "{} ({}, threshold {})",
            component.rating.id,
            component
                .rating
                .score
                .map(decimal::plain)
                .unwrap_or_default(),
            decimal::plain(self.threshold_of(component.scale))
        )
    }

    fn component_value(&self, component: &Component<'_>) -> Value {
        let rating = component.rating;
        let mut entry = Map::new();
        entry.insert("id".into(), Value::from(rating.id.as_str()));
        entry.insert(
            "score".into(),
            rating.score.map_or(Value::Null, Value::from),
        );
        let result = match component.passed {
            Some(true) => "pass",
            Some(false) => "fail",
            None => "not_applicable",
        };
        entry.insert("result".into(), Value::from(result));
        entry.insert(
            "threshold".into(),
            Value::from(self.threshold_of(component.scale)),
        );
        entry.insert(
            "reason".into(),
            rating.reason.as_deref().map_or(Value::Null, Value::from),
        );
        Value::Object(entry)
    }
}

/// `Components: fluency 4 (pass): reason; groundedness not applicable.`
fn summary(components: &[Component<'_>]) -> String {
    let parts: Vec<String> = components
        .iter()
        .map(|component| {
            let rating = component.rating;
            let head = match (rating.score, component.passed) {
                (Some(score), Some(passed)) => format!(
                    "{} {} ({})",
                    rating.id,
                    decimal::plain(score),
                    if passed { "pass" } else { "fail" }
                ),
                _ => format!("{} not applicable", rating.id),
            };
            match rating.reason.as_deref().filter(|reason| !reason.is_empty()) {
                Some(reason) => format!("{head}: {}", reason.trim_end_matches('.')),
                None => head,
            }
        })
        .collect();
    format!("Components: {}.", parts.join("; "))
}

impl ReadsReply for Composite {
    fn read_reply(&self, label: &str, _threshold: f64, reply: &JudgeReply) -> EvalResult {
        self.result(label, reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluators::judged::rubric::reading::Dimension;
    use crate::judge::reply::read_verdict;
    use crate::outcome::Verdict;

    fn output_quality() -> Composite {
        let member = |id: &str, scale| Dimension {
            id: id.to_owned(),
            weight: 1.0,
            always_applicable: false,
            scale,
            category: None,
        };
        Composite {
            members: Rubric {
                dimensions: vec![
                    member("fluency", Scale::Likert),
                    member("task_adherence", Scale::Binary),
                    member("groundedness", Scale::Likert),
                ],
            },
            threshold: 3.0,
        }
    }

    fn judged(content: &str) -> EvalResult {
        output_quality().result("output_quality", &read_verdict(content).unwrap())
    }

    #[test]
    fn passes_only_when_every_applicable_member_passes() {
        let pass = judged(
            r#"{"dimensions": [{"id": "fluency", "score": 3}, {"id": "task_adherence", "score": 1}, {"id": "groundedness", "applicable": false}]}"#,
        );
        assert_eq!(
            (pass.result, pass.score, pass.threshold),
            (Verdict::Pass, Some(1.0), Some(1.0))
        );
        assert!(pass
            .reason
            .as_deref()
            .unwrap()
            .starts_with("Every applicable component passed. Components: fluency 3 (pass); task_adherence 1 (pass); groundedness not applicable."));
        assert_eq!(
            pass.details.get("components").unwrap()[2],
            crate::json!({"id": "groundedness", "score": null, "result": "not_applicable", "threshold": 3.0, "reason": null})
        );
        let fail = judged(
            r#"{"dimensions": [{"id": "fluency", "score": 5}, {"id": "task_adherence", "score": 1}, {"id": "groundedness", "score": 2, "reason": "Invents a date."}]}"#,
        );
        assert_eq!((fail.result, fail.score), (Verdict::Fail, Some(0.0)));
        assert!(fail
            .reason
            .as_deref()
            .unwrap()
            .starts_with("Failed: groundedness (2, threshold 3). "));
        let binary_fail = judged(
            r#"{"dimensions": [{"id": "fluency", "score": 5}, {"id": "task_adherence", "score": 0}, {"id": "groundedness", "score": 5}]}"#,
        );
        assert_eq!(binary_fail.result, Verdict::Fail);
    }

    #[test]
    fn no_applicable_member_is_not_applicable_and_bad_ratings_are_errors() {
        let none = judged(
            r#"{"dimensions": [{"id": "fluency", "applicable": false}, {"id": "task_adherence", "applicable": false}, {"id": "groundedness", "applicable": false}]}"#,
        );
        assert_eq!(none.result, Verdict::Skipped);
        assert_eq!(
            none.reason.as_deref(),
            Some("Not applicable: none of its components applies")
        );
        for content in [
            r#"{"dimensions": [{"id": "fluency", "score": 5}, {"id": "task_adherence", "score": 3}, {"id": "groundedness", "score": 5}]}"#,
            r#"{"dimensions": [{"id": "fluency", "score": 0}, {"id": "task_adherence", "score": 1}, {"id": "groundedness", "score": 5}]}"#,
            r#"{"dimensions": [{"id": "fluency", "score": 4}, {"id": "task_adherence", "score": 1}]}"#,
            r#"{"score": 1}"#,
        ] {
            let result = judged(content);
            assert_eq!(
                result.error.map(|error| error.code),
                Some(ErrorCode::JudgeOutputUnparseable),
                "{content}"
            );
        }
    }
}
