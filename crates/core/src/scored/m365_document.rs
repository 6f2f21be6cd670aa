//! Writes a run's outcomes back into the M365 eval document they came from: per item and turn
//! `scores`, `status` and `error`, per thread `summary`, and `metadata.evaluatedAt`; an entry's
//! review goes to its `extensions.review`.
//!
//! Everything the user wrote (including `response`) keeps its value and key order; only the output
//! fields of the items and turns the report covers are replaced. Shapes follow the document's own
//! `schemaVersion`, which is never changed. This module decides no verdicts and does no IO.

use std::io;

use crate::json::{Map, Number, Value};

use crate::evaluators;
use crate::outcome::{ErrorCode, EvalResult, Verdict};
use crate::review::Review;
use crate::status::{self, ItemStatus};

use crate::report::pretty::ObjectWriter;
use crate::report::{CaseOutcome, RunReport};

/// Caller-supplied values the document needs but the core cannot know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentOptions {
    /// RFC 3339 time of the run, written to `metadata.evaluatedAt`; `None` leaves it untouched.
    pub evaluated_at: Option<String>,
}

/// Message of the item-level error when the item has no captured response to score.
pub const NO_RESPONSE_MESSAGE: &str =
    "Agent request failed: no captured agent response to score (response is missing or empty).";

/// The member of an item's or turn's `extensions` that holds its review.
pub const REVIEW_EXTENSION: &str = "review";

/// Start of the item-level error message of an item or turn that could not be evaluated (an
/// outcome with a problem): `Item could not be evaluated: {problem}`, or with a full stop alone.
pub const ITEM_PROBLEM_MESSAGE: &str = "Item could not be evaluated";

/// Returns `document` with the outcomes of `report` written in; anything that is not an object
/// with an `items` array comes back unchanged.
///
/// An outcome with `turn: None` lands on `items[index]`, one with `turn: Some(t)` on
/// `items[index].turns[t]`. The outcome of a thread that could not be evaluated (an item-level
/// outcome with a problem; the schema gives a thread no status of its own) lands on each of its
/// turns, so that its summary says `error`. Other outcomes pointing nowhere (out of range, a turn
/// on a single-turn item, any other item-level outcome on a thread) are left out.
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
    for index in scored_indices(report) {
        if let Some(Value::Object(thread)) = items.get_mut(index) {
            if thread.contains_key("turns") {
                write_thread_summary(thread);
            }
        }
    }
    write_root(root, options);
    output
}

/// Writes the outcomes of one item (every outcome of `item`, as the engine's document scorer
/// gives them) into the item, with the thread summary of a thread.
pub fn write_item(item: &mut Value, outcomes: &[CaseOutcome], with_codes: bool) {
    for outcome in outcomes {
        write_outcome(item, outcome, with_codes);
    }
    if let Value::Object(thread) = item {
        if !outcomes.is_empty() && thread.contains_key("turns") {
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
    } else if outcome.turn.is_none() && outcome.problem.is_some() {
        let turns = item
            .get_mut("turns")
            .and_then(Value::as_array_mut)
            .map_or(&mut [][..], Vec::as_mut_slice);
        for turn in turns.iter_mut().filter_map(Value::as_object_mut) {
            write_case(turn, outcome, with_codes);
        }
    }
}

/// The M365 score object for one result, or `None` for a skipped result (the schema has no shape
/// for it). `with_code` adds the ErroredScore `code` (schema ≥ 1.9).
pub fn score_entry(result: &EvalResult, with_code: bool) -> Option<Value> {
    let mut entry = Map::new();
    let written =
        write_score_fields(result, with_code, &mut entry).unwrap_or_else(|never| match never {});
    written.then_some(Value::Object(entry))
}

/// Where [`write_score_fields`] puts the members of a score object.
trait ScoreSink {
    type Error;
    fn number(&mut self, key: &str, number: &Number) -> Result<(), Self::Error>;
    fn text(&mut self, key: &str, text: &str) -> Result<(), Self::Error>;
    fn detail(&mut self, key: &str, value: &Value) -> Result<(), Self::Error>;
}

impl ScoreSink for Map<String, Value> {
    type Error = std::convert::Infallible;

    fn number(&mut self, key: &str, number: &Number) -> Result<(), Self::Error> {
        self.insert(key.to_owned(), Value::Number(number.clone()));
        Ok(())
    }

    fn text(&mut self, key: &str, text: &str) -> Result<(), Self::Error> {
        self.insert(key.to_owned(), Value::from(text));
        Ok(())
    }

    fn detail(&mut self, key: &str, value: &Value) -> Result<(), Self::Error> {
        self.insert(key.to_owned(), value.clone());
        Ok(())
    }
}

impl ScoreSink for ObjectWriter<'_> {
    type Error = io::Error;

    fn number(&mut self, key: &str, number: &Number) -> io::Result<()> {
        ObjectWriter::number(self, key, number)
    }

    fn text(&mut self, key: &str, text: &str) -> io::Result<()> {
        ObjectWriter::text(self, key, text)
    }

    fn detail(&mut self, key: &str, value: &Value) -> io::Result<()> {
        ObjectWriter::value(self, key, value)
    }
}

/// Writes the members of [`score_entry`]'s object into `sink`, in order, with distinct keys.
/// `false` for a skipped result, which has no score object.
fn write_score_fields<S: ScoreSink>(
    result: &EvalResult,
    with_code: bool,
    sink: &mut S,
) -> Result<bool, S::Error> {
    match result.result {
        Verdict::Skipped => return Ok(false),
        Verdict::Error => write_errored_fields(result, with_code, sink)?,
        Verdict::Pass | Verdict::Fail => write_valid_fields(result, sink)?,
    }
    Ok(true)
}

/// The most scored results an item may have for [`write_scored_item`] to write it; an item with
/// more takes the general path.
const MOST_SCORES_WRITTEN_DIRECTLY: usize = 16;

/// Writes a single-turn item with its scores, `status` and `error` into `buffer` at `depth`,
/// byte for byte as [`write_item`] then [`super::pretty::write_value`] would, without building the
/// output values. Writes nothing and returns `false` when the item is not that simple case (a
/// thread, output fields already present, two results sharing a score key, or more than
/// [`MOST_SCORES_WRITTEN_DIRECTLY`] scored results). With
/// `item_without_escapes` the caller vouches that no key or string of `item` holds a byte JSON
/// escapes, and they are copied without being looked at.
///
/// # Errors
/// As [`super::pretty::write_value`].
pub fn write_scored_item(
    buffer: &mut Vec<u8>,
    item: &Value,
    outcomes: &[CaseOutcome],
    with_codes: bool,
    depth: usize,
    item_without_escapes: bool,
) -> io::Result<bool> {
    let (Some(members), [outcome]) = (item.as_object(), outcomes) else {
        return Ok(false);
    };
    let has_output_fields = ["turns", "scores", "status", "error"]
        .iter()
        .any(|key| members.get(key).is_some());
    if outcome.turn.is_some() || outcome.review.is_some() || has_output_fields {
        return Ok(false);
    }
    let mut keys = [""; MOST_SCORES_WRITTEN_DIRECTLY];
    for (count, result) in scored_results(outcome).enumerate() {
        let key = evaluators::score_key(&result.evaluator);
        if keys.get(..count).unwrap_or_default().contains(&key) {
            return Ok(false);
        }
        let Some(slot) = keys.get_mut(count) else {
            return Ok(false);
        };
        *slot = key;
    }
    let mut object = ObjectWriter::open(buffer, depth);
    for (key, value) in members {
        if item_without_escapes {
            object.value_without_escapes(key, value)?;
        } else {
            object.value(key, value)?;
        }
    }
    let mut scores = object.object("scores")?;
    for (key, result) in keys.iter().zip(scored_results(outcome)) {
        let mut entry = scores.object(key)?;
        write_score_fields(result, with_codes, &mut entry)?;
        entry.close();
    }
    scores.close();
    if let Some(status) = outcome.status {
        object.text("status", status.as_str())?;
    }
    if let Some(error) = error_object(outcome) {
        object.value("error", &error)?;
    }
    object.close();
    Ok(true)
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
            Some("") => ("evaluatorsFailed", format!("{ITEM_PROBLEM_MESSAGE}.")),
            Some(problem) => (
                "evaluatorsFailed",
                format!("{ITEM_PROBLEM_MESSAGE}: {problem}"),
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
                .map(|entry| (evaluators::score_key(&result.evaluator).to_owned(), entry))
        })
        .collect();
    target.insert("scores".to_owned(), Value::Object(scores));
    replace_or_remove(
        target,
        "status",
        outcome.status.map(|status| Value::from(status.as_str())),
    );
    replace_or_remove(target, "error", error_object(outcome));
    if let Some(review) = &outcome.review {
        write_review(target, review);
    }
}

/// Puts `review` under `extensions.review` (the schema's extension point of items and turns),
/// keeping the other extensions; an `extensions` that is not an object is left as it is.
fn write_review(target: &mut Map<String, Value>, review: &Review) {
    if !target.contains_key("extensions") {
        target.insert("extensions".to_owned(), Value::Object(Map::new()));
    }
    if let Some(Value::Object(extensions)) = target.get_mut("extensions") {
        extensions.insert(REVIEW_EXTENSION.to_owned(), review.to_value());
    }
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

/// [`write_score_fields`] for a pass or fail: `score`, `result`, `threshold`, `reason`, then the
/// details whose keys are not among those.
fn write_valid_fields<S: ScoreSink>(result: &EvalResult, sink: &mut S) -> Result<(), S::Error> {
    let reports_score =
        !matches!(evaluators::find(&result.evaluator), Some(spec) if !spec.m365_reports_score);
    let score = result
        .score
        .and_then(Number::from_f64)
        .filter(|_| reports_score);
    let threshold = result.threshold.and_then(threshold_number);
    if let Some(score) = &score {
        sink.number("score", score)?;
    }
    sink.text("result", result.result.as_str())?;
    if let Some(threshold) = &threshold {
        sink.number("threshold", threshold)?;
    }
    if let Some(reason) = &result.reason {
        sink.text("reason", reason)?;
    }
    let written = |key: &str| match key {
        "score" => score.is_some(),
        "result" => true,
        "threshold" => threshold.is_some(),
        "reason" => result.reason.is_some(),
        _ => false,
    };
    for (key, value) in result.details.iter() {
        if !written(key) {
            sink.detail(key, value)?;
        }
    }
    Ok(())
}

/// [`write_score_fields`] for an error: `result`, `error` and, with `with_code`, `code`.
fn write_errored_fields<S: ScoreSink>(
    result: &EvalResult,
    with_code: bool,
    sink: &mut S,
) -> Result<(), S::Error> {
    let (code, message) = match &result.error {
        Some(error) => (error.code, error.message.as_str()),
        None => (
            ErrorCode::EvaluatorError,
            result.reason.as_deref().unwrap_or(""),
        ),
    };
    let code = code.as_str();
    sink.text("result", "error")?;
    if message.trim().is_empty() {
        sink.text("error", &format!("Evaluator failed ({code})."))?;
    } else {
        sink.text("error", message)?;
    }
    let schema_code = result
        .error
        .as_ref()
        .is_none_or(|error| error.code.in_m365_schema());
    if with_code && schema_code {
        sink.text("code", code)?;
    }
    Ok(())
}

/// The results of `outcome` that have a score object (all but the skipped), in order.
fn scored_results(outcome: &CaseOutcome) -> impl Iterator<Item = &EvalResult> {
    outcome
        .results
        .iter()
        .filter(|result| result.result != Verdict::Skipped)
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
/// The items `report` has outcomes for, in order; an item's outcomes are consecutive in a report,
/// so each item comes once.
fn scored_indices(report: &RunReport) -> Vec<usize> {
    let mut indices: Vec<usize> = report.items.iter().map(|outcome| outcome.index).collect();
    indices.dedup();
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
                crate::json!({"result": "error", "error": "Evaluator failed (evaluatorError).", "code": "evaluatorError"})
            )
        );
    }

    #[test]
    fn a_code_outside_the_schema_is_left_out_of_the_errored_score() {
        let result = EvalResult::error("Relevance", ErrorCode::InvalidStoredResult, "at /x: bad");
        assert_eq!(
            score_entry(&result, true),
            Some(crate::json!({"result": "error", "error": "at /x: bad"}))
        );
    }

    fn outcome(results: Vec<EvalResult>) -> CaseOutcome {
        CaseOutcome {
            index: 0,
            turn: None,
            status: status::item_status(&results, true),
            results,
            problem: None,
            review: None,
        }
    }

    fn written_directly(item: &Value, outcome: &CaseOutcome) -> Option<String> {
        let write = |without_escapes| {
            let mut buffer = Vec::new();
            let outcomes = std::slice::from_ref(outcome);
            let written =
                write_scored_item(&mut buffer, item, outcomes, true, 2, without_escapes).unwrap();
            assert_eq!(written, !buffer.is_empty());
            written.then(|| String::from_utf8(buffer).unwrap())
        };
        let checked = write(false);
        if !item.to_string().contains('\\') {
            assert_eq!(write(true), checked, "unchecked copy of {item}");
        }
        checked
    }

    fn written_as_values(item: &Value, outcome: &CaseOutcome) -> String {
        let mut item = item.clone();
        write_item(&mut item, std::slice::from_ref(outcome), true);
        let mut buffer = Vec::new();
        crate::report::pretty::write_value(&mut buffer, &item, 2).unwrap();
        String::from_utf8(buffer).unwrap()
    }

    #[test]
    fn simple_items_are_written_directly_as_the_value_path_writes_them() {
        let item = crate::json!({"prompt": "p \"q\"", "response": "r\n", "context": {}});
        let results = vec![
            EvalResult::scored("PartialMatch", false, 0.25, 0.5).with_reason("Match score: 0.250"),
            EvalResult::verdict("ExactMatch", true)
                .with_detail("match", true)
                .with_detail("reason", "shadowed by the reason field"),
            EvalResult::error("Citations", crate::outcome::ErrorCode::EvaluatorError, ""),
            EvalResult::skipped("Relevance", "no judge configured"),
        ];
        let outcome = outcome(results);
        let direct = written_directly(&item, &outcome).expect("a simple item");
        assert_eq!(direct, written_as_values(&item, &outcome));
        assert!(direct.contains("\"error\": {"), "{direct}");
    }

    #[test]
    fn other_items_are_left_to_the_value_path() {
        let simple = crate::json!({"prompt": "p", "response": "r"});
        let shared_key = outcome(vec![
            EvalResult::verdict("ExactMatch", true),
            EvalResult::verdict("exactMatch", false),
        ]);
        assert_eq!(written_directly(&simple, &shared_key), None);
        let plain = outcome(vec![EvalResult::verdict("ExactMatch", true)]);
        for key in ["turns", "scores", "status", "error"] {
            let mut item = simple.clone();
            if let Some(members) = item.as_object_mut() {
                members.insert(key.to_owned(), Value::Null);
            }
            assert_eq!(written_directly(&item, &plain), None, "{key}");
        }
        assert!(written_directly(&simple, &plain).is_some());
        let unescaped = crate::json!({"prompt": "p", "context": {"a": [1, "b", null]}});
        assert!(written_directly(&unescaped, &plain).is_some());
        assert_eq!(written_directly(&Value::from("text"), &plain), None);
    }

    #[test]
    fn items_with_up_to_the_most_scores_are_written_directly() {
        let item = crate::json!({"prompt": "p", "response": "r"});
        let results = |count: usize| {
            let mut results = vec![EvalResult::skipped("ExactMatch", "not applicable")];
            results.extend((0..count).map(|index| {
                EvalResult::scored(&format!("custom{index}"), index % 2 == 0, 0.5, 0.5)
                    .with_detail("index", index)
            }));
            results.push(EvalResult::verdict("exactMatch", true));
            outcome(results)
        };
        let most = results(MOST_SCORES_WRITTEN_DIRECTLY - 1);
        let direct = written_directly(&item, &most).expect("within the limit");
        assert_eq!(direct, written_as_values(&item, &most));
        assert_eq!(
            direct.matches("\"result\": ").count(),
            MOST_SCORES_WRITTEN_DIRECTLY,
            "{direct}"
        );
        assert_eq!(
            written_directly(&item, &results(MOST_SCORES_WRITTEN_DIRECTLY)),
            None
        );
    }
}
