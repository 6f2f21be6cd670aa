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
//! counterpart (the reference raises), so it names itself. No IO.

use crate::json::{Map, Number, Value};

use crate::outcome::{EvalResult, Verdict};

use super::CaseOutcome;

/// The output row for one Foundry input row: `input_row` unchanged, then the keys of every result
/// of `outcome` in evaluation order. A criterion key that collides with an input column replaces it.
pub fn row(input_row: &Map<String, Value>, outcome: &CaseOutcome) -> Map<String, Value> {
    let mut output = input_row.clone();
    for result in &outcome.results {
        for (key, value) in result_columns(result) {
            output.insert(key, value);
        }
    }
    output
}

/// The flat keys of one result, in the reference's order.
pub fn result_columns(result: &EvalResult) -> Vec<(String, Value)> {
    let name = &result.evaluator;
    let score = number_or_null(result.score);
    let passed = match result.result {
        Verdict::Pass => Value::Bool(true),
        Verdict::Fail => Value::Bool(false),
        Verdict::Error | Verdict::Skipped => Value::Null,
    };
    let (verdict, status) = match result.result {
        Verdict::Pass => ("pass", "completed"),
        Verdict::Fail => ("fail", "completed"),
        Verdict::Error => ("error", "error"),
        Verdict::Skipped => ("not_applicable", "skipped"),
    };
    let reason = match (&result.error, &result.reason) {
        (Some(error), _) => Value::from(error.message.as_str()),
        (None, Some(reason)) => Value::from(reason.as_str()),
        (None, None) => Value::Null,
    };
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

fn number_or_null(value: Option<f64>) -> Value {
    value
        .and_then(Number::from_f64)
        .map_or(Value::Null, Value::Number)
}
