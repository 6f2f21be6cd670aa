//! A Copilot Studio results export read back (the Evaluate tab's, or `agenteval score --format
//! copilot`): per row and test method N, `result_N` (`Pass`, `Fail`, `Error`, `Skipped`; empty:
//! the method did not run) and `score_N`, the evaluator named as the scorer labels the method
//! (its name as written, `_N` added when a row repeats it). The item's prompt is its `question`;
//! it has no id column unless the caller names one. A row that cannot be read becomes an `error`
//! entry with its problem; a `result_N` that is none of those words, an `error` result with code
//! `invalidStoredResult` naming its row and column.

use crate::dataset::copilot_studio::methods::row_methods;
use crate::dataset::copilot_studio::{self as dataset, Columns, Row};
use crate::diagnostic::Diagnostic;
use crate::outcome::{ErrorCode, EvalResult, Verdict};
use crate::report::Dialect;
use crate::scored::ReadError;

use super::{entry, stored_result, unreadable, Form, Identity, Input};

/// Reads an export (byte-order mark already stripped).
///
/// # Errors
/// [`ReadError::Invalid`] when the CSV cannot be read (as the test set's reader says);
/// [`ReadError::NotScored`] when it has no `result_N` column (a test set, not an export).
pub fn read(bytes: &[u8], key: Option<&str>) -> Result<Input, ReadError> {
    let (set, _warnings) = dataset::read(bytes).map_err(ReadError::Invalid)?;
    let columns = &set.columns;
    if columns.methods.iter().all(|method| method.result.is_none()) {
        return Err(ReadError::NotScored(Diagnostic::whole(
            "the dataset carries no scores (it is a Copilot Studio test set without `result_N` \
             columns); expected a results export (`question`, then per test method N \
             `testMethodType_N`, `result_N`, `score_N`), as the Evaluate tab or `agenteval \
             score --format copilot` writes it; score the dataset first",
        )));
    }
    let key_column = key.and_then(|key| columns.names.iter().position(|name| name == key));
    let (entries, identities) = set
        .rows
        .iter()
        .enumerate()
        .map(|(index, row)| {
            let identity = Identity {
                id: key_column
                    .map(|column| row.field(column).trim())
                    .filter(|id| !id.is_empty())
                    .map(str::to_owned),
                prompt: row.field(columns.question).to_owned(),
                turns: 0,
            };
            let outcome = match &row.problem {
                Some(problem) => unreadable(index, problem.clone()),
                None => entry(index, row_results(columns, row)),
            };
            (outcome, identity)
        })
        .unzip();
    Ok(Input {
        form: Form::CopilotStudioExport,
        dialect: Dialect::CopilotStudio,
        entries,
        identities,
    })
}

/// The results of `row`'s methods that have a `result_N` column.
fn row_results(columns: &Columns, row: &Row) -> Vec<EvalResult> {
    row_methods(columns, row)
        .into_iter()
        .filter_map(|method| {
            let place = columns
                .methods
                .iter()
                .find(|place| place.number == method.number)?;
            let result_column = place.result?;
            let cell = row.field(result_column).trim();
            let verdict = match cell.to_ascii_lowercase().as_str() {
                "pass" | "passed" => Verdict::Pass,
                "fail" | "failed" => Verdict::Fail,
                "error" => Verdict::Error,
                "skipped" | "" => Verdict::Skipped,
                _ => {
                    return Some(EvalResult::error(
                        &method.label,
                        ErrorCode::InvalidStoredResult,
                        format!(
                            "row {}, column {} (result_{}): expected Pass, Fail, Error or \
                             Skipped, got \"{cell}\"",
                            row.number,
                            result_column + 1,
                            method.number
                        ),
                    ));
                }
            };
            let score = row
                .optional(place.score)
                .and_then(|score| score.trim().parse::<f64>().ok());
            let explanation = row.optional(place.explanation).unwrap_or_default();
            Some(stored_result(
                &method.label,
                verdict,
                score,
                Some(("", explanation.to_owned())),
            ))
        })
        .collect()
}
