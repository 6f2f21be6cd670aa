//! Foundry output rows: the input row plus azure-ai-evaluation's flat keys per criterion.
//!
//! For each result, with `k` the criterion name, the keys follow the reference's order: `<k>`,
//! `<k>_score`, `<k>_passed`, `<k>_result`, `<k>_reason`, `<k>_status`, `<k>_threshold`,
//! `<k>_properties`, then (errors only) `<k>_error_code`. Verdict vocabulary:
//!
//! | result  | `_result`        | `_status`   | `_passed` | `_reason`           |
//! |---------|------------------|-------------|-----------|---------------------|
//! | pass    | `pass`           | `completed` | `true`    | the reason          |
//! | fail    | `fail`           | `completed` | `false`   | the reason          |
//! | error   | `error`          | `error`     | `null`    | the error message   |
//! | skipped | `not_applicable` | `skipped`   | `null`    | why it did not run  |
//!
//! The skipped shape is the reference's not-applicable shape; the error shape has no reference
//! counterpart (the reference raises), so it names itself. A row that could not be read at all
//! becomes an error row ([`output_row`]). A reviewed row ends with `review`, its review object
//! (`needs_review`, `comment`, `overrides`), beside the criteria's own keys. No IO.

use crate::dataset::foundry::FoundryRow;
use crate::json::{Map, Number, Value};

use crate::outcome::{EvalResult, Verdict};

use crate::report::CaseOutcome;

/// The output row for one Foundry input row: `input_row` unchanged, then the keys of every result
/// of `outcome` in evaluation order. A criterion key that collides with an input column replaces it.
pub fn row(input_row: &Map<String, Value>, outcome: &CaseOutcome) -> Map<String, Value> {
    let mut output = input_row.clone();
    for result in &outcome.results {
        for (key, value) in result_columns(result) {
            output.insert(key, value);
        }
    }
    if let Some(review) = &outcome.review {
        output.insert(REVIEW_KEY.to_owned(), review.to_value());
    }
    output
}

/// The key of a reviewed row's review (the object every format writes).
pub const REVIEW_KEY: &str = "review";

/// The output row for `input`, whatever it is: [`row`] for a usable row; for an unusable one (a
/// JSONL line that is not a JSON object), an error row that keeps where it was, what it said and
/// why it could not be read: `row_line` (its 1-based JSONL line, or `null`), `row_text` (its text,
/// clipped) and `row_error` (the problem, with its line and column or JSON pointer).
pub fn output_row(input: &FoundryRow, outcome: &CaseOutcome) -> Map<String, Value> {
    match &input.row {
        Ok(fields) => row(fields, outcome),
        Err(problem) => {
            let mut output = Map::new();
            output.insert(
                "row_line".to_owned(),
                input
                    .line
                    .map_or(Value::Null, |line| Value::from(line as u64)),
            );
            output.insert(
                "row_text".to_owned(),
                input.text.as_deref().map_or(Value::Null, Value::from),
            );
            output.insert("row_error".to_owned(), Value::from(problem.describe()));
            output
        }
    }
}

/// The flat keys of one result, in the reference's order.
pub fn result_columns(result: &EvalResult) -> Vec<(String, Value)> {
    let name = &result.evaluator;
    let score = number_or_null(result.score);
    let passed = passed(result.result);
    let (verdict, status) = verdict_words(result.result);
    let reason = reason(result);
    let properties = if result.details.is_empty() {
        Value::Null
    } else {
        Value::Object(result.details.to_map())
    };
    let mut columns = vec![
        (name.clone(), score.clone()),
        (format!("{name}_score"), score),
        (format!("{name}_passed"), passed),
        (format!("{name}_result"), Value::from(verdict)),
        (format!("{name}_reason"), reason),
        (format!("{name}_status"), Value::from(status)),
        (
            format!("{name}_threshold"),
            number_or_null(result.threshold),
        ),
        (format!("{name}_properties"), properties),
    ];
    if let Some(error) = &result.error {
        columns.push((
            format!("{name}_error_code"),
            Value::from(error.code.as_str()),
        ));
    }
    columns
}

/// One JSONL line (compact JSON and a trailing `\n`).
pub fn jsonl_line(row: &Map<String, Value>) -> String {
    let mut line = serde_json::to_string(row).unwrap_or_else(|_| String::from("{}"));
    line.push('\n');
    line
}

/// A verdict's `_result` word (`pass`, `fail`, `error`, `not_applicable`) and `_status` word.
pub(super) fn verdict_words(verdict: Verdict) -> (&'static str, &'static str) {
    match verdict {
        Verdict::Pass => ("pass", "completed"),
        Verdict::Fail => ("fail", "completed"),
        Verdict::Error => ("error", "error"),
        Verdict::Skipped => ("not_applicable", "skipped"),
    }
}

/// `_passed`: `true` or `false` for a verdict, `null` for an error or a skip.
pub(super) fn passed(verdict: Verdict) -> Value {
    match verdict {
        Verdict::Pass => Value::Bool(true),
        Verdict::Fail => Value::Bool(false),
        Verdict::Error | Verdict::Skipped => Value::Null,
    }
}

/// `_reason`: the error's message, else the reason, else `null`.
pub(super) fn reason(result: &EvalResult) -> Value {
    match (&result.error, &result.reason) {
        (Some(error), _) => Value::from(error.message.as_str()),
        (None, Some(reason)) => Value::from(reason.as_str()),
        (None, None) => Value::Null,
    }
}

pub(super) fn number_or_null(value: Option<f64>) -> Value {
    value
        .and_then(Number::from_f64)
        .map_or(Value::Null, Value::Number)
}
