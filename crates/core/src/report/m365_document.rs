//! Writes a run's outcomes back into the M365 eval document they came from: per item and turn
//! `scores`, `status` and `error`, per thread `summary`, and `metadata.evaluatedAt`.
//!
//! Everything the user wrote (including `response`) keeps its value and key order; only the output
//! fields of the items and turns the report covers are replaced. Shapes follow the document's own
//! `schemaVersion`, which is never changed. This module decides no verdicts and does no IO.

use serde_json::{Map, Number, Value};

use crate::evaluators;
use crate::outcome::{EvalResult, Verdict};
use crate::status::{self, ItemStatus};

use super::{CaseOutcome, RunReport};

/// Caller-supplied values the document needs but the core cannot know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentOptions {
    /// RFC 3339 time of the run, written to `metadata.evaluatedAt`; `None` leaves it untouched.
    pub evaluated_at: Option<String>,
}

/// Message of the item-level error when the item has no captured response to score.
pub const NO_RESPONSE_MESSAGE: &str =
    "Agent request failed: no captured agent response to score (response is missing or empty).";

/// Returns `document` with the outcomes of `report` written in; anything that is not an object
/// with an `items` array comes back unchanged.
///
/// An outcome with `turn: None` lands on `items[index]`, one with `turn: Some(t)` on
/// `items[index].turns[t]`; outcomes pointing nowhere (out of range, a turn on a single-turn item,
/// or an item-level outcome on a thread, which the schema gives no status) are left out.
pub fn write(document: &Value, report: &RunReport, options: &DocumentOptions) -> Value {
    write_owned(document.clone(), report, options)
}

/// [`write`] into a document the caller no longer needs, without copying it.
pub fn write_owned(document: Value, report: &RunReport, options: &DocumentOptions) -> Value {
    let mut output = document;
    let Some(root) = output.as_object_mut() else {
        return output;
    };
    let with_codes = writes_error_codes(root);
    let Some(Value::Array(items)) = root.get_mut("items") else {
        return output;
    };
    for outcome in &report.items {
        if let Some(item) = items.get_mut(outcome.index) {
            write_outcome(item, outcome, with_codes);
        }
    }
    for index in thread_indices(report) {
        if let Some(Value::Object(thread)) = items.get_mut(index) {
            write_thread_summary(thread);
        }
    }
    write_root(root, options);
    output
}

/// Writes the outcomes of one item (every outcome of `item`, as [`crate::engine::DocumentScorer`]
/// gives them) into the item, with the thread summary of a thread.
pub fn write_item(item: &mut Value, outcomes: &[CaseOutcome], with_codes: bool) {
    for outcome in outcomes {
        write_outcome(item, outcome, with_codes);
    }
    if outcomes.iter().any(|outcome| outcome.turn.is_some()) {
        if let Value::Object(thread) = item {
            write_thread_summary(thread);
        }
    }
}

/// Writes the document-level output fields (`metadata.evaluatedAt`) into the document's root.
pub fn write_root(root: &mut Map<String, Value>, options: &DocumentOptions) {
    if let Some(evaluated_at) = &options.evaluated_at {
        set_evaluated_at(root, evaluated_at);
    }
}

/// Whether errored scores carry a `code` in this document (its `schemaVersion` is at least 1.9).
pub fn writes_error_codes(root: &Map<String, Value>) -> bool {
    declares_at_least(root.get("schemaVersion"), 1, 9)
}

fn write_outcome(item: &mut Value, outcome: &CaseOutcome, with_codes: bool) {
    if let Some(target) = case_target(item, outcome) {
        write_case(target, outcome, with_codes);
    }
}

/// The M365 score object for one result, or `None` for a skipped result (the schema has no shape
/// for it). `with_code` adds the ErroredScore `code` (schema ≥ 1.9).
pub fn score_entry(result: &EvalResult, with_code: bool) -> Option<Value> {
    match result.result {
        Verdict::Skipped => None,
        Verdict::Error => Some(errored_score(result, with_code)),
        Verdict::Pass | Verdict::Fail => Some(valid_score(result)),
    }
}

/// The item-level `error` object for an outcome, if its status calls for one.
pub fn error_object(outcome: &CaseOutcome) -> Option<Value> {
    let (code, message) = match outcome.status? {
        ItemStatus::Partial => {
            let ran = outcome
                .results
                .iter()
                .filter(|result| result.result != Verdict::Skipped)
                .count();
            let failed = outcome
                .results
                .iter()
                .filter(|result| result.result == Verdict::Error)
                .count();
            (
                "evaluatorsFailed",
                format!("Agent response obtained. {failed} of {ran} evaluators failed to run."),
            )
        }
        ItemStatus::Error => match outcome.problem.as_deref().map(str::trim) {
            Some("") => (
                "evaluatorsFailed",
                "Item could not be evaluated.".to_owned(),
            ),
            Some(problem) => (
                "evaluatorsFailed",
                format!("Item could not be evaluated: {problem}"),
            ),
            None => ("agentRequestFailed", NO_RESPONSE_MESSAGE.to_owned()),
        },
        ItemStatus::Pass | ItemStatus::Fail => return None,
    };
    let mut error = Map::new();
    error.insert("code".to_owned(), Value::from(code));
    error.insert("message".to_owned(), Value::from(message));
    Some(Value::Object(error))
}

fn case_target<'a>(
    item: &'a mut Value,
    outcome: &CaseOutcome,
) -> Option<&'a mut Map<String, Value>> {
    let item = item.as_object_mut()?;
    match outcome.turn {
        None if item.contains_key("turns") => None,
        None => Some(item),
        Some(turn) => item
            .get_mut("turns")?
            .as_array_mut()?
            .get_mut(turn)?
            .as_object_mut(),
    }
}

fn write_case(target: &mut Map<String, Value>, outcome: &CaseOutcome, with_codes: bool) {
    let scores: Map<String, Value> = outcome
        .results
        .iter()
        .filter_map(|result| {
            score_entry(result, with_codes)
                .map(|entry| (evaluators::score_key(&result.evaluator), entry))
        })
        .collect();
    target.insert("scores".to_owned(), Value::Object(scores));
    replace_or_remove(
        target,
        "status",
        outcome.status.map(|status| Value::from(status.as_str())),
    );
    replace_or_remove(target, "error", error_object(outcome));
}

/// Inserts `value` under `key` (keeping the key's position if present) or removes a stale one.
fn replace_or_remove(target: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    match value {
        Some(value) => {
            target.insert(key.to_owned(), value);
        }
        None => {
            target.shift_remove(key);
        }
    }
}

fn valid_score(result: &EvalResult) -> Value {
    let mut entry = Map::new();
    let reports_score = match evaluators::find(&result.evaluator) {
        Some(spec) => spec.m365_reports_score,
        None => true,
    };
    if reports_score {
        if let Some(score) = result.score.and_then(Number::from_f64) {
            entry.insert("score".to_owned(), Value::Number(score));
        }
    }
    entry.insert("result".to_owned(), Value::from(result.result.as_str()));
    if let Some(threshold) = result.threshold.and_then(threshold_number) {
        entry.insert("threshold".to_owned(), Value::Number(threshold));
    }
    if let Some(reason) = &result.reason {
        entry.insert("reason".to_owned(), Value::from(reason.as_str()));
    }
    for (key, value) in &result.details {
        if !entry.contains_key(key) {
            entry.insert(key.clone(), value.clone());
        }
    }
    Value::Object(entry)
}

fn errored_score(result: &EvalResult, with_code: bool) -> Value {
    let (code, message) = match &result.error {
        Some(error) => (error.code.as_str(), error.message.as_str()),
        None => ("evaluatorError", result.reason.as_deref().unwrap_or("")),
    };
    let message = if message.trim().is_empty() {
        format!("Evaluator failed ({code}).")
    } else {
        message.to_owned()
    };
    let mut entry = Map::new();
    entry.insert("result".to_owned(), Value::from("error"));
    entry.insert("error".to_owned(), Value::from(message));
    if with_code {
        entry.insert("code".to_owned(), Value::from(code));
    }
    Value::Object(entry)
}

/// Whole thresholds are written as integers, as the official examples do (`"threshold": 3`) and as
/// CitationScore requires; fractional ones stay numbers.
fn threshold_number(threshold: f64) -> Option<Number> {
    const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0;
    if threshold.fract() == 0.0 && threshold.abs() <= EXACT_INTEGER_LIMIT {
        Some(Number::from(threshold as i64))
    } else {
        Number::from_f64(threshold)
    }
}

/// Indices of the items the report addresses turn by turn, in first-seen order.
fn thread_indices(report: &RunReport) -> Vec<usize> {
    let mut indices: Vec<usize> = Vec::new();
    for outcome in report.items.iter().filter(|outcome| outcome.turn.is_some()) {
        if !indices.contains(&outcome.index) {
            indices.push(outcome.index);
        }
    }
    indices
}

/// Recomputes the thread summary from its turns' written `status`. Turns without a status are not
/// counted, so the four counts always add up to `turns_total`; with no status at all the summary
/// is removed (the schema requires `overall_status`).
fn write_thread_summary(thread: &mut Map<String, Value>) {
    let statuses: Vec<ItemStatus> = match thread.get("turns") {
        Some(Value::Array(turns)) => turns
            .iter()
            .filter_map(|turn| turn.get("status").and_then(Value::as_str))
            .filter_map(parse_status)
            .collect(),
        _ => return,
    };
    let Some(overall) = status::thread_status(statuses.iter().copied().map(Some)) else {
        thread.shift_remove("summary");
        return;
    };
    let count = |wanted: ItemStatus| statuses.iter().filter(|s| **s == wanted).count();
    let mut summary = Map::new();
    summary.insert("turns_total".to_owned(), Value::from(statuses.len()));
    summary.insert(
        "turns_passed".to_owned(),
        Value::from(count(ItemStatus::Pass)),
    );
    summary.insert(
        "turns_failed".to_owned(),
        Value::from(count(ItemStatus::Fail)),
    );
    summary.insert(
        "turns_partial".to_owned(),
        Value::from(count(ItemStatus::Partial)),
    );
    summary.insert(
        "turns_errored".to_owned(),
        Value::from(count(ItemStatus::Error)),
    );
    summary.insert("overall_status".to_owned(), Value::from(overall.as_str()));
    thread.insert("summary".to_owned(), Value::Object(summary));
}

fn parse_status(text: &str) -> Option<ItemStatus> {
    match text {
        "pass" => Some(ItemStatus::Pass),
        "fail" => Some(ItemStatus::Fail),
        "partial" => Some(ItemStatus::Partial),
        "error" => Some(ItemStatus::Error),
        _ => None,
    }
}

/// Sets `metadata.evaluatedAt`, creating `metadata` right after `schemaVersion` when absent. A
/// `metadata` that is not an object is the user's data and is left alone.
fn set_evaluated_at(root: &mut Map<String, Value>, evaluated_at: &str) {
    match root.get_mut("metadata") {
        Some(Value::Object(metadata)) => {
            metadata.insert("evaluatedAt".to_owned(), Value::from(evaluated_at));
        }
        Some(_) => {}
        None => {
            let mut metadata = Map::new();
            metadata.insert("evaluatedAt".to_owned(), Value::from(evaluated_at));
            let position = root
                .keys()
                .position(|key| key == "schemaVersion")
                .map_or(0, |found| found + 1);
            root.shift_insert(position, "metadata".to_owned(), Value::Object(metadata));
        }
    }
}

/// Whether the document's `schemaVersion` (`major.minor.patch`) is at least `major.minor`. An
/// absent or unreadable version counts as older, so no field newer than 1.8 is written.
fn declares_at_least(version: Option<&Value>, major: u64, minor: u64) -> bool {
    let Some(text) = version.and_then(Value::as_str) else {
        return false;
    };
    let mut parts = text.split('.').map(str::parse::<u64>);
    match (parts.next(), parts.next()) {
        (Some(Ok(found_major)), Some(Ok(found_minor))) => {
            (found_major, found_minor) >= (major, minor)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_version_comparison() {
        let at_least_1_9 = |text: &str| declares_at_least(Some(&Value::from(text)), 1, 9);
        assert!(!at_least_1_9("1.8.0"));
        assert!(at_least_1_9("1.9.0"));
        assert!(at_least_1_9("1.10.2"));
        assert!(at_least_1_9("2.0.0"));
        assert!(!at_least_1_9("1"));
        assert!(!at_least_1_9("one.nine"));
        assert!(!declares_at_least(Some(&Value::from(19)), 1, 9));
        assert!(!declares_at_least(None, 1, 9));
    }

    #[test]
    fn whole_thresholds_are_integers() {
        assert_eq!(threshold_number(3.0), Some(Number::from(3)));
        assert_eq!(threshold_number(0.5), Number::from_f64(0.5));
        assert_eq!(threshold_number(1e300), Number::from_f64(1e300));
        assert_eq!(threshold_number(f64::NAN), None);
    }

    #[test]
    fn errored_score_without_an_error_or_message_still_has_one() {
        let mut result = EvalResult::verdict("Relevance", false);
        result.result = Verdict::Error;
        assert_eq!(
            score_entry(&result, true),
            Some(
                serde_json::json!({"result": "error", "error": "Evaluator failed (evaluatorError).", "code": "evaluatorError"})
            )
        );
    }
}
