//! A human review of one report entry: whether it needs review, a comment, and the reviewer's own
//! pass/fail verdict on any of its results (an override), each with a comment. A review sits beside
//! the entry's results and never changes them: the original verdicts, the entry's status and the
//! run's counts stay as the evaluators gave them, and [`ReviewSummary`] counts where the reviewer
//! and the evaluators disagree.
//!
//! Reading a review from JSON checks its shape and that each override names a result of the entry,
//! once; every problem is located by a JSON pointer relative to the review. Above `outcome`, below
//! `report`; no IO.

use serde::Serialize;

use crate::diagnostic::push_pointer;
use crate::json::{Map, Value};
use crate::outcome::{EvalResult, Verdict};
use crate::schema::got;

/// The members a review object may have.
const REVIEW_MEMBERS: [&str; 4] = ["needs_review", "comment", "overrides", "problems"];

/// The members an override object may have.
const OVERRIDE_MEMBERS: [&str; 5] = ["evaluator", "verdict", "comment", "reviewer", "at"];

/// The verdict a reviewer gives a result.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewVerdict {
    /// The reviewer judges that the entry meets the evaluator's pass rule.
    Pass,
    /// The reviewer judges that it does not.
    Fail,
}

impl ReviewVerdict {
    /// `pass` or `fail`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewVerdict::Pass => "pass",
            ReviewVerdict::Fail => "fail",
        }
    }

    /// Whether the evaluator's `verdict` is another one than this.
    pub fn differs_from(self, verdict: Verdict) -> bool {
        !matches!(
            (self, verdict),
            (ReviewVerdict::Pass, Verdict::Pass) | (ReviewVerdict::Fail, Verdict::Fail)
        )
    }
}

/// A reviewer's verdict on one evaluator's result.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Override {
    /// The evaluator whose result is reviewed, as the entry's result names it.
    pub evaluator: String,
    /// The reviewer's verdict.
    pub verdict: ReviewVerdict,
    /// Why (never empty).
    pub comment: String,
    /// Who reviewed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub reviewer: Option<String>,
    /// When (RFC 3339, as the reviewer's tool wrote it).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub at: Option<String>,
}

/// The review of one report entry.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Review {
    /// Marked for a (further) look.
    pub needs_review: bool,
    /// The reviewer's comment on the entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub comment: Option<String>,
    /// The reviewer's verdicts, at most one per evaluator.
    pub overrides: Vec<Override>,
    /// What could not be read of a stored review (its valid parts are kept, and the entry is
    /// marked as needing review).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub problems: Vec<String>,
}

impl Review {
    /// Whether the review says nothing: not marked, no comment, no override, no problem.
    pub fn is_empty(&self) -> bool {
        !self.needs_review
            && self.comment.is_none()
            && self.overrides.is_empty()
            && self.problems.is_empty()
    }

    /// The reviewer's verdict on `evaluator`'s result, if any.
    pub fn override_of(&self, evaluator: &str) -> Option<&Override> {
        self.overrides
            .iter()
            .find(|entry| entry.evaluator == evaluator)
    }

    /// The review as the JSON object every format writes.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("needs_review".to_owned(), Value::Bool(self.needs_review));
        if let Some(comment) = &self.comment {
            object.insert("comment".to_owned(), Value::from(comment.as_str()));
        }
        let overrides = self.overrides.iter().map(override_value).collect();
        object.insert("overrides".to_owned(), Value::Array(overrides));
        if !self.problems.is_empty() {
            let problems = self.problems.iter().map(|p| Value::from(p.as_str()));
            object.insert("problems".to_owned(), Value::Array(problems.collect()));
        }
        Value::Object(object)
    }
}

fn override_value(entry: &Override) -> Value {
    let mut object = Map::new();
    object.insert(
        "evaluator".to_owned(),
        Value::from(entry.evaluator.as_str()),
    );
    object.insert("verdict".to_owned(), Value::from(entry.verdict.as_str()));
    object.insert("comment".to_owned(), Value::from(entry.comment.as_str()));
    for (key, value) in [("reviewer", &entry.reviewer), ("at", &entry.at)] {
        if let Some(value) = value {
            object.insert(key.to_owned(), Value::from(value.as_str()));
        }
    }
    Value::Object(object)
}

/// One thing wrong with review data: where, as a JSON pointer relative to the review object, and
/// what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewProblem {
    /// JSON pointer relative to the review (`""` for the review itself).
    pub pointer: String,
    /// What is wrong and what was expected.
    pub message: String,
}

impl ReviewProblem {
    fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        ReviewProblem {
            pointer: pointer.into(),
            message: message.into(),
        }
    }

    /// `at {base}{pointer}: {message}`.
    pub fn describe(&self, base: &str) -> String {
        format!("at {base}{}: {}", self.pointer, self.message)
    }
}

/// Reads the review `value` of an entry whose results are `results`.
///
/// # Errors
/// Every problem found: a member of the wrong type or unknown, a verdict other than `pass` or
/// `fail`, a missing or empty override comment, an override of an evaluator the entry has no
/// result of, or a second override of one.
pub fn read(value: &Value, results: &[EvalResult]) -> Result<Review, Vec<ReviewProblem>> {
    let (review, problems) = read_parts(value, results);
    if problems.is_empty() {
        Ok(review)
    } else {
        Err(problems)
    }
}

/// Reads a review stored in a file (at `pointer` in it) leniently: the parts that can be read are
/// kept, each problem is recorded in [`Review::problems`] with its pointer, and a review with
/// problems is marked as needing review. `None` for a review that says nothing.
pub fn read_stored(value: &Value, results: &[EvalResult], pointer: &str) -> Option<Review> {
    let (mut review, problems) = read_parts(value, results);
    if !problems.is_empty() {
        review.needs_review = true;
        review.problems = problems
            .iter()
            .map(|problem| problem.describe(pointer))
            .collect();
    }
    (!review.is_empty()).then_some(review)
}

/// The review in `value` as far as it can be read, and what could not be.
fn read_parts(value: &Value, results: &[EvalResult]) -> (Review, Vec<ReviewProblem>) {
    let mut review = Review::default();
    let mut problems = Vec::new();
    let Some(members) = value.as_object() else {
        problems.push(ReviewProblem::new(
            "",
            format!(
                "expected a review object {{needs_review, comment, overrides}}, {}",
                got(value)
            ),
        ));
        return (review, problems);
    };
    unknown_members(members, &REVIEW_MEMBERS, "", "a review", &mut problems);
    match members.get("needs_review") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(flag)) => review.needs_review = *flag,
        Some(other) => problems.push(ReviewProblem::new(
            "/needs_review",
            format!("expected true or false, {}", got(other)),
        )),
    }
    review.comment = optional_text(members, "comment", "", &mut problems);
    match members.get("overrides") {
        None | Some(Value::Null) => {}
        Some(Value::Array(entries)) => {
            for (position, entry) in entries.iter().enumerate() {
                let pointer = format!("/overrides/{position}");
                if let Some(entry) = read_override(entry, &pointer, results, &mut problems) {
                    if review.override_of(&entry.evaluator).is_some() {
                        problems.push(ReviewProblem::new(
                            format!("{pointer}/evaluator"),
                            format!(
                                "a second override of `{}`: expected one per evaluator",
                                entry.evaluator
                            ),
                        ));
                    } else {
                        review.overrides.push(entry);
                    }
                }
            }
        }
        Some(other) => problems.push(ReviewProblem::new(
            "/overrides",
            format!("expected an array of overrides, {}", got(other)),
        )),
    }
    match members.get("problems") {
        None | Some(Value::Null) => {}
        Some(Value::Array(stored)) if stored.iter().all(Value::is_string) => {
            review.problems = stored
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
        }
        Some(other) => problems.push(ReviewProblem::new(
            "/problems",
            format!("expected an array of strings, {}", got(other)),
        )),
    }
    (review, problems)
}

fn read_override(
    value: &Value,
    pointer: &str,
    results: &[EvalResult],
    problems: &mut Vec<ReviewProblem>,
) -> Option<Override> {
    let Some(members) = value.as_object() else {
        problems.push(ReviewProblem::new(
            pointer,
            format!(
                "expected an override object {{evaluator, verdict, comment}}, {}",
                got(value)
            ),
        ));
        return None;
    };
    let before = problems.len();
    unknown_members(members, &OVERRIDE_MEMBERS, pointer, "an override", problems);
    let evaluator = required_text(members, "evaluator", pointer, problems);
    if let Some(name) = &evaluator {
        if !results.iter().any(|result| result.evaluator == *name) {
            let names: Vec<&str> = results.iter().map(|r| r.evaluator.as_str()).collect();
            let has = if names.is_empty() {
                "it has no results".to_owned()
            } else {
                format!("it has {}", names.join(", "))
            };
            problems.push(ReviewProblem::new(
                format!("{pointer}/evaluator"),
                format!("the entry has no result of `{name}` to override ({has})"),
            ));
        }
    }
    let verdict = match members.get("verdict") {
        Some(Value::String(text)) if text == "pass" => Some(ReviewVerdict::Pass),
        Some(Value::String(text)) if text == "fail" => Some(ReviewVerdict::Fail),
        Some(other) => {
            problems.push(ReviewProblem::new(
                format!("{pointer}/verdict"),
                format!("expected \"pass\" or \"fail\", {}", got(other)),
            ));
            None
        }
        None => {
            problems.push(ReviewProblem::new(
                pointer,
                "missing `verdict`: expected \"pass\" or \"fail\"",
            ));
            None
        }
    };
    let comment = required_text(members, "comment", pointer, problems);
    if comment
        .as_deref()
        .is_some_and(|text| text.trim().is_empty())
    {
        problems.push(ReviewProblem::new(
            format!("{pointer}/comment"),
            "expected a comment saying why the verdict is overridden, got an empty one",
        ));
    }
    let reviewer = optional_text(members, "reviewer", pointer, problems);
    let at = optional_text(members, "at", pointer, problems);
    if problems.len() > before {
        return None;
    }
    Some(Override {
        evaluator: evaluator?,
        verdict: verdict?,
        comment: comment?,
        reviewer,
        at,
    })
}

fn unknown_members(
    members: &Map<String, Value>,
    known: &[&str],
    pointer: &str,
    what: &str,
    problems: &mut Vec<ReviewProblem>,
) {
    for key in members.keys().filter(|key| !known.contains(&key.as_str())) {
        problems.push(ReviewProblem::new(
            push_pointer(pointer, key),
            format!(
                "unknown member of {what}: expected one of {}",
                known.join(", ")
            ),
        ));
    }
}

fn required_text(
    members: &Map<String, Value>,
    key: &str,
    pointer: &str,
    problems: &mut Vec<ReviewProblem>,
) -> Option<String> {
    if members.get(key).is_none() {
        problems.push(ReviewProblem::new(
            pointer,
            format!("missing `{key}`: expected a string"),
        ));
        return None;
    }
    optional_text(members, key, pointer, problems)
}

fn optional_text(
    members: &Map<String, Value>,
    key: &str,
    pointer: &str,
    problems: &mut Vec<ReviewProblem>,
) -> Option<String> {
    match members.get(key)? {
        Value::Null => None,
        Value::String(text) => Some(text.clone()),
        other => {
            problems.push(ReviewProblem::new(
                push_pointer(pointer, key),
                format!("expected a string, {}", got(other)),
            ));
            None
        }
    }
}

/// A run's review counts.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ReviewSummary {
    /// Entries with a review.
    pub entries: usize,
    /// Entries marked as needing review.
    pub needs_review: usize,
    /// Verdicts a reviewer ruled on (overrides, agreeing or not).
    pub reviewed: usize,
    /// Overrides whose verdict differs from the evaluator's.
    pub overridden: usize,
}

impl ReviewSummary {
    /// Counts the review of an entry whose results are `results`.
    pub fn add(&mut self, review: &Review, results: &[EvalResult]) {
        self.entries += 1;
        self.needs_review += usize::from(review.needs_review);
        self.reviewed += review.overrides.len();
        self.overridden += review
            .overrides
            .iter()
            .filter(|entry| {
                results
                    .iter()
                    .find(|result| result.evaluator == entry.evaluator)
                    .is_none_or(|result| entry.verdict.differs_from(result.result))
            })
            .count();
    }

    /// Whether no entry was reviewed.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The counts in words: `3 verdicts overridden: evaluators and reviewer disagree on 3 of 41
    /// reviewed; 2 entries need review`; `None` when no entry was reviewed.
    pub fn describe(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let mut parts = Vec::new();
        if self.reviewed > 0 {
            parts.push(format!(
                "{} overridden: evaluators and reviewer disagree on {} of {} reviewed",
                plural(self.overridden, "verdict", "verdicts"),
                self.overridden,
                self.reviewed
            ));
        }
        if self.needs_review > 0 {
            parts.push(format!(
                "{} {} review",
                plural(self.needs_review, "entry", "entries"),
                if self.needs_review == 1 {
                    "needs"
                } else {
                    "need"
                }
            ));
        }
        if parts.is_empty() {
            parts.push(format!(
                "{} reviewed, no verdict overridden",
                plural(self.entries, "entry", "entries")
            ));
        }
        Some(parts.join("; "))
    }
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::outcome::ErrorCode;

    fn results() -> Vec<EvalResult> {
        vec![
            EvalResult::verdict("Relevance", false),
            EvalResult::verdict("ExactMatch", true),
            EvalResult::error("Coherence", ErrorCode::JudgeTimeout, "timed out"),
        ]
    }

    #[test]
    fn a_review_reads_and_writes_back_the_same_object() {
        let value = json!({
            "needs_review": true,
            "comment": "check the sources",
            "overrides": [
                {"evaluator": "Relevance", "verdict": "pass", "comment": "answers it", "reviewer": "ana", "at": "2026-12-06T03:00:00Z"},
                {"evaluator": "ExactMatch", "verdict": "pass", "comment": "agreed"}
            ]
        });
        let review = read(&value, &results()).unwrap();
        assert!(review.needs_review);
        assert_eq!(review.overrides.len(), 2);
        assert_eq!(
            review.override_of("Relevance").unwrap().verdict,
            ReviewVerdict::Pass
        );
        assert_eq!(review.to_value(), value);
        assert_eq!(json::to_value(&review).unwrap(), value);
    }

    #[test]
    fn every_problem_is_located_and_says_what_was_expected() {
        let value = json!({
            "needs_review": "yes",
            "colour": 1,
            "overrides": [
                {"evaluator": "Relevance", "verdict": "maybe", "comment": "x"},
                {"evaluator": "Fluency", "verdict": "pass", "comment": "x"},
                {"evaluator": "ExactMatch", "verdict": "fail"},
                {"evaluator": "Coherence", "verdict": "pass", "comment": "  "},
                {"evaluator": "Relevance", "verdict": "pass", "comment": "ok"},
                {"evaluator": "Relevance", "verdict": "fail", "comment": "again"},
                7
            ]
        });
        let problems: Vec<String> = read(&value, &results())
            .unwrap_err()
            .iter()
            .map(|problem| problem.describe("/items/3/extensions/review"))
            .collect();
        assert_eq!(
            problems,
            [
                "at /items/3/extensions/review/colour: unknown member of a review: expected one of needs_review, comment, overrides, problems",
                "at /items/3/extensions/review/needs_review: expected true or false, got \"yes\"",
                "at /items/3/extensions/review/overrides/0/verdict: expected \"pass\" or \"fail\", got \"maybe\"",
                "at /items/3/extensions/review/overrides/1/evaluator: the entry has no result of `Fluency` to override (it has Relevance, ExactMatch, Coherence)",
                "at /items/3/extensions/review/overrides/2: missing `comment`: expected a string",
                "at /items/3/extensions/review/overrides/3/comment: expected a comment saying why the verdict is overridden, got an empty one",
                "at /items/3/extensions/review/overrides/5/evaluator: a second override of `Relevance`: expected one per evaluator",
                "at /items/3/extensions/review/overrides/6: expected an override object {evaluator, verdict, comment}, got an integer (7)",
            ]
        );
        let not_object = read(&json!([1]), &results()).unwrap_err();
        assert_eq!(not_object[0].pointer, "");
    }

    #[test]
    fn a_stored_review_keeps_its_valid_parts_and_asks_for_review() {
        let value = json!({
            "overrides": [
                {"evaluator": "Relevance", "verdict": "pass", "comment": "fine"},
                {"evaluator": "ExactMatch", "verdict": "no", "comment": "x"}
            ]
        });
        let review = read_stored(&value, &results(), "/items/0/extensions/review").unwrap();
        assert!(review.needs_review);
        assert_eq!(review.overrides.len(), 1);
        assert_eq!(
            review.problems,
            ["at /items/0/extensions/review/overrides/1/verdict: expected \"pass\" or \"fail\", got \"no\""]
        );
        let again = read(&review.to_value(), &results()).unwrap();
        assert_eq!(again, review);
        assert_eq!(read_stored(&json!({}), &results(), ""), None);
        assert_eq!(
            read_stored(
                &json!({"needs_review": false, "overrides": []}),
                &results(),
                ""
            ),
            None
        );
    }

    #[test]
    fn the_summary_counts_disagreements_among_the_verdicts_reviewed() {
        let mut summary = ReviewSummary::default();
        assert_eq!(summary.describe(), None);
        let review = read(
            &json!({"needs_review": true, "overrides": [
                {"evaluator": "Relevance", "verdict": "pass", "comment": "answers it"},
                {"evaluator": "ExactMatch", "verdict": "pass", "comment": "agreed"},
                {"evaluator": "Coherence", "verdict": "fail", "comment": "judge down, reads badly"}
            ]}),
            &results(),
        )
        .unwrap();
        summary.add(&review, &results());
        assert_eq!(
            summary,
            ReviewSummary {
                entries: 1,
                needs_review: 1,
                reviewed: 3,
                overridden: 2
            }
        );
        assert_eq!(
            summary.describe().unwrap(),
            "2 verdicts overridden: evaluators and reviewer disagree on 2 of 3 reviewed; 1 entry needs review"
        );
        let mut comment_only = ReviewSummary::default();
        comment_only.add(
            &Review {
                comment: Some("fine".to_owned()),
                ..Review::default()
            },
            &results(),
        );
        assert_eq!(
            comment_only.describe().unwrap(),
            "1 entry reviewed, no verdict overridden"
        );
    }
}
