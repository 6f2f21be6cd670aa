//! agenteval's run report read back (`agenteval score --format report`, the package's
//! `evaluate()` report): `dialect`, then per entry its item `index`, `turn` and `results` (each
//! `evaluator`, `result`, `score`, `error.code`). The report carries neither ids nor prompts, so
//! its items are known by their index alone. An entry whose results cannot be read becomes an
//! `error` entry naming its JSON pointer; a result whose verdict cannot be read, an `error`
//! result with code `invalidStoredResult`.

use crate::json::Value;
use crate::outcome::{ErrorCode, EvalResult, Verdict};
use crate::report::{CaseOutcome, Dialect};
use crate::schema::got;
use crate::scored::ReadError;

use super::{entry, invalid, stored_result, unreadable, Form, Input};

/// An object whose `tool.name` is `agenteval`, with `dialect` and `items`.
pub fn is_run_report(value: &Value) -> bool {
    value
        .get("tool")
        .and_then(|tool| tool.get("name"))
        .and_then(Value::as_str)
        == Some("agenteval")
        && value.get("dialect").is_some()
        && value.get("items").is_some()
}

/// The entries of a run report.
///
/// # Errors
/// [`ReadError::Invalid`] when `dialect` names no dialect, `items` is not an array, or an entry
/// has no item `index` (at their JSON pointers).
pub fn read(value: Value) -> Result<Input, ReadError> {
    let dialect = value
        .get("dialect")
        .and_then(Value::as_str)
        .and_then(|name| {
            Dialect::ALL
                .into_iter()
                .find(|known| known.as_str() == name)
        })
        .ok_or_else(|| {
            invalid(
                "/dialect",
                format!(
                    "expected \"m365\", \"foundry\" or \"copilot_studio\", {}",
                    value.get("dialect").map_or_else(String::new, got)
                ),
            )
        })?;
    let Some(Value::Array(items)) = value.get("items") else {
        return Err(invalid(
            "/items",
            format!(
                "expected the array of the report's entries, {}",
                value.get("items").map_or_else(String::new, got)
            ),
        ));
    };
    let entries = items
        .iter()
        .enumerate()
        .map(|(place, item)| read_entry(place, item))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Input {
        form: Form::RunReport,
        dialect,
        entries,
        identities: Vec::new(),
    })
}

fn read_entry(place: usize, item: &Value) -> Result<CaseOutcome, ReadError> {
    let pointer = format!("/items/{place}");
    let index = item
        .get("index")
        .and_then(Value::as_u64)
        .and_then(|index| usize::try_from(index).ok())
        .ok_or_else(|| {
            invalid(
                &format!("{pointer}/index"),
                format!(
                    "expected the entry's item index (an integer of 0 or more), {}",
                    item.get("index")
                        .map_or_else(|| "got nothing".to_owned(), got)
                ),
            )
        })?;
    let turn = item
        .get("turn")
        .and_then(Value::as_u64)
        .and_then(|turn| usize::try_from(turn).ok());
    let mut outcome = match item.get("results") {
        Some(Value::Array(results)) => entry(
            index,
            results
                .iter()
                .enumerate()
                .map(|(number, result)| read_result(result, &format!("{pointer}/results/{number}")))
                .collect(),
        ),
        other => unreadable(
            index,
            format!(
                "at {pointer}/results: expected the array of the entry's results, {}",
                other.map_or_else(|| "got nothing".to_owned(), got)
            ),
        ),
    };
    outcome.turn = turn;
    Ok(outcome)
}

fn read_result(result: &Value, pointer: &str) -> EvalResult {
    let evaluator = result
        .get("evaluator")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let verdict = result
        .get("result")
        .and_then(Value::as_str)
        .and_then(|name| {
            Verdict::ALL
                .into_iter()
                .find(|known| known.as_str() == name)
        });
    let Some(verdict) = verdict else {
        return EvalResult::error(
            evaluator,
            ErrorCode::InvalidStoredResult,
            format!(
                "at {pointer}/result: expected \"pass\", \"fail\", \"error\" or \"skipped\", {}",
                result
                    .get("result")
                    .map_or_else(|| "got nothing".to_owned(), got)
            ),
        );
    };
    let error = result.get("error").map(|error| {
        (
            error
                .get("code")
                .and_then(Value::as_str)
                .unwrap_or_default(),
            error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        )
    });
    stored_result(
        evaluator,
        verdict,
        result.get("score").and_then(Value::as_f64),
        error,
    )
}
