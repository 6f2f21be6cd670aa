//! Scored Foundry rows read back: JSON Lines (a `testing_criteria` config line skipped) or a JSON
//! array of rows, each row the input row plus, per criterion `k`, azure-ai-evaluation's flat keys
//! (as `agenteval score --format foundry` writes them): `k_result` (`pass`, `fail`, `error`,
//! `not_applicable`) with `k_score` (else `k`) and, for errors, `k_error_code` and `k_reason`.
//! A criterion is a `k` whose `k_result` holds one of those words beside `k`, `k_score`,
//! `k_passed` or `k_status`, so an input column that merely ends in `_result` is no criterion.
//! The item's id is its `id` column, its prompt its `query` (a conversation's JSON text). A line
//! that is not a JSON object becomes an `error` entry naming its line.

use crate::dataset::foundry::{is_config_line, FoundryRow};
use crate::diagnostic::Diagnostic;
use crate::json::{Map, Value};
use crate::outcome::{EvalResult, Verdict};
use crate::report::{CaseOutcome, Dialect};
use crate::scored::ReadError;

use super::{entry, field, stored_result, text, unreadable, Form, Identity, Input};

/// The rows of `value` when it holds scored Foundry rows: an array of rows of which one has a
/// criterion, or one such row.
pub fn scored_rows(value: &Value) -> Option<&[Value]> {
    match value {
        Value::Array(rows)
            if rows.iter().all(Value::is_object)
                && rows
                    .iter()
                    .any(|row| row.as_object().is_some_and(has_criteria)) =>
        {
            Some(rows)
        }
        Value::Object(row) if has_criteria(row) => Some(std::slice::from_ref(value)),
        _ => None,
    }
}

/// Reads `rows` (see [`scored_rows`]).
pub fn read_rows(rows: &[Value], key: Option<&str>) -> Input {
    let (entries, identities) = rows
        .iter()
        .enumerate()
        .map(|(index, row)| match row.as_object() {
            Some(fields) => read_row(index, fields, key),
            None => (
                unreadable(
                    index,
                    format!("at /{index}: expected a JSON object (a row)"),
                ),
                Identity::default(),
            ),
        })
        .unzip();
    Input {
        form: Form::FoundryRows,
        dialect: Dialect::Foundry,
        entries,
        identities,
    }
}

/// Reads JSON Lines of scored Foundry rows.
///
/// # Errors
/// [`ReadError::NotScored`] when no row carries a criterion's result keys.
pub fn read_jsonl(bytes: &[u8], key: Option<&str>) -> Result<Input, ReadError> {
    let mut entries = Vec::new();
    let mut identities = Vec::new();
    let mut scored = false;
    let lines = bytes
        .split(|byte| *byte == b'\n')
        .enumerate()
        .filter(|(_, line)| !line.trim_ascii().is_empty());
    for (number, line) in lines {
        let parsed = FoundryRow::parse_line(line.trim_ascii(), number + 1);
        let index = entries.len();
        match parsed.row {
            Ok(row)
                if row.contains_key("testing_criteria")
                    && is_config_line(&Value::Object(row.clone())) =>
            {
                continue
            }
            Ok(row) => {
                scored |= has_criteria(&row);
                let (outcome, identity) = read_row(index, &row, key);
                entries.push(outcome);
                identities.push(identity);
            }
            Err(problem) => {
                entries.push(unreadable(index, problem.describe()));
                identities.push(Identity::default());
            }
        }
    }
    if !scored {
        return Err(ReadError::NotScored(Diagnostic::whole(
            "the dataset carries no scores (it is Foundry rows, and no row has a criterion's \
             `<name>_result` beside `<name>_score` or `<name>_status`); expected scored rows \
             as `agenteval score --format foundry` writes them; score the dataset first",
        )));
    }
    Ok(Input {
        form: Form::FoundryRows,
        dialect: Dialect::Foundry,
        entries,
        identities,
    })
}

fn read_row(index: usize, row: &Map<String, Value>, key: Option<&str>) -> (CaseOutcome, Identity) {
    let results = criteria(row).map(|name| read_result(row, name)).collect();
    let identity = Identity {
        id: match key {
            Some(key) => field(&Value::Object(row.clone()), key),
            None => row.get("id").and_then(text),
        },
        prompt: match row.get("query") {
            Some(Value::String(query)) => query.clone(),
            Some(other) => serde_json::to_string(other).unwrap_or_default(),
            None => String::new(),
        },
        turns: 0,
    };
    (entry(index, results), identity)
}

fn read_result(row: &Map<String, Value>, name: &str) -> EvalResult {
    let own = |suffix: &str| row.get(&format!("{name}_{suffix}"));
    let verdict = match own("result").and_then(Value::as_str) {
        Some("pass") => Verdict::Pass,
        Some("fail") => Verdict::Fail,
        Some("error") => Verdict::Error,
        _ => Verdict::Skipped,
    };
    let score = own("score")
        .and_then(Value::as_f64)
        .or_else(|| row.get(name).and_then(Value::as_f64));
    let error = (verdict == Verdict::Error).then(|| {
        (
            own("error_code")
                .and_then(Value::as_str)
                .unwrap_or_default(),
            own("reason")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        )
    });
    stored_result(name, verdict, score, error)
}

/// The criteria of `row`, in its column order.
fn criteria(row: &Map<String, Value>) -> impl Iterator<Item = &str> {
    row.iter().filter_map(|(column, value)| {
        let name = column.strip_suffix("_result")?;
        let verdict = value.as_str()?;
        let is_verdict = ["pass", "fail", "error", "not_applicable"].contains(&verdict);
        let beside = ["", "_score", "_passed", "_status"]
            .iter()
            .any(|suffix| row.contains_key(&format!("{name}{suffix}")));
        (is_verdict && beside && !name.is_empty()).then_some(name)
    })
}

fn has_criteria(row: &Map<String, Value>) -> bool {
    criteria(row).next().is_some()
}
