//! The scored files a comparison reads, told apart by their content (never their name), each
//! read into the run report's entries and the identity of every item (its id and prompt):
//!
//! | form | recognised by | id | prompt |
//! |---|---|---|---|
//! | scored M365 document | `items` whose items or turns carry `scores` or `status` | `extensions.id` (a thread's `conversation_id` or `name`) | `prompt` (a thread's, one per line) |
//! | runevals results | `individual_results` | — | `prompt` |
//! | agenteval run report | `tool.name` `agenteval` beside `dialect` and `items` ([`run_report`]) | — | — |
//! | scored Foundry rows | JSON Lines or an array of rows with a criterion's flat keys ([`foundry_rows`]) | `id` | `query` |
//! | Copilot Studio export | a CSV header with `question` and a `result_N` column ([`copilot_studio`]) | — | `question` |
//!
//! A field named by the caller (`--key`) is the id instead: an item's own member, or its
//! `extensions`' (a row's column). M365 documents and runevals results are read by
//! `scored::read_report`; the other forms here. No IO.

pub mod copilot_studio;
pub mod foundry_rows;
pub mod run_report;

use crate::diagnostic::{Diagnostic, InputError};
use crate::json::{self, Value};
use crate::outcome::{ErrorCode, EvalResult, Verdict};
use crate::report::{CaseOutcome, Dialect};
use crate::scored::{self, ReadError};
use crate::status::{self, ItemStatus};

/// What kind of scored file a run was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// An M365 eval document with its results written in.
    M365Document,
    /// The results JSON of older runevals releases.
    Runevals,
    /// `agenteval score --format report`'s JSON.
    RunReport,
    /// Foundry rows with azure-ai-evaluation's flat result keys.
    FoundryRows,
    /// A Copilot Studio results export (CSV).
    CopilotStudioExport,
}

impl Form {
    /// Its name in messages (`scored M365 document`).
    pub fn as_str(self) -> &'static str {
        match self {
            Form::M365Document => "scored M365 document",
            Form::Runevals => "runevals results",
            Form::RunReport => "agenteval run report",
            Form::FoundryRows => "scored Foundry rows",
            Form::CopilotStudioExport => "Copilot Studio results export",
        }
    }

    /// Whether its items carry an id or a prompt to be paired by (a run report carries neither:
    /// its entries name only the item's index).
    pub fn identifies_items(self) -> bool {
        self != Form::RunReport
    }
}

/// The identity of one item: its id, its prompt and its turns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identity {
    /// The `key` field when one was named, else the form's own id, when the item has one.
    pub id: Option<String>,
    /// Its prompt (a thread's, one per line); empty when it has none.
    pub prompt: String,
    /// Its turns, for a thread; 0 for a single-turn item.
    pub turns: usize,
}

/// A scored file, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// What it was.
    pub form: Form,
    /// The dialect of its items.
    pub dialect: Dialect,
    /// Its entries (items and thread turns), in input order.
    pub entries: Vec<CaseOutcome>,
    /// The identity of each item, by item index.
    pub identities: Vec<Identity>,
}

/// Reads `bytes` (UTF-8, a leading byte-order mark skipped), a scored file of any form above,
/// its ids taken from `key` when it is given.
///
/// # Errors
/// [`ReadError::NotScored`] when the input carries no results; [`ReadError::Invalid`] when it
/// cannot be read (its problem located by line and column, or JSON pointer).
pub fn read(bytes: &[u8], key: Option<&str>) -> Result<Input, ReadError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if crate::dataset::looks_like_copilot_studio(bytes) {
        return copilot_studio::read(bytes, key);
    }
    match json::parse_dataset(bytes) {
        Ok(value) => read_value(value, key),
        Err(_) if crate::dataset::looks_like_jsonl(bytes) => foundry_rows::read_jsonl(bytes, key),
        Err(_) => Err(scored::read_report(bytes).err().unwrap_or_else(|| {
            ReadError::Invalid(InputError::one(Diagnostic::whole(
                "the input could not be read as JSON",
            )))
        })),
    }
}

/// [`read`] over an already-parsed JSON value.
///
/// # Errors
/// As [`read`].
pub fn read_value(value: Value, key: Option<&str>) -> Result<Input, ReadError> {
    if run_report::is_run_report(&value) {
        return run_report::read(value);
    }
    if let Some(rows) = foundry_rows::scored_rows(&value) {
        return Ok(foundry_rows::read_rows(rows, key));
    }
    let (form, identities) = stored_identities(&value, key);
    let report = scored::read_report_value(value)?;
    Ok(Input {
        form,
        dialect: report.dialect,
        entries: report.items,
        identities,
    })
}

/// What kind of file `value` (read by `scored::read_report`) is and the identity of its items.
fn stored_identities(value: &Value, key: Option<&str>) -> (Form, Vec<Identity>) {
    if let Some(entries) = value.get("individual_results").and_then(Value::as_array) {
        let identities = entries
            .iter()
            .map(|entry| Identity {
                id: key.and_then(|key| field(entry, key)),
                prompt: entry.get("prompt").and_then(text).unwrap_or_default(),
                turns: 0,
            })
            .collect();
        return (Form::Runevals, identities);
    }
    let items = value
        .get("items")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let identities = items.iter().map(|item| item_identity(item, key)).collect();
    (Form::M365Document, identities)
}

fn item_identity(item: &Value, key: Option<&str>) -> Identity {
    let turns = item.get("turns").and_then(Value::as_array);
    let id = match key {
        Some(key) => field(item, key),
        None => extension(item, "id").or_else(|| {
            turns.and_then(|_| {
                ["conversation_id", "name"]
                    .iter()
                    .find_map(|name| item.get(*name).and_then(text))
            })
        }),
    };
    let prompt = match turns {
        Some(turns) => turns
            .iter()
            .map(|turn| turn.get("prompt").and_then(text).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n"),
        None => item.get("prompt").and_then(text).unwrap_or_default(),
    };
    Identity {
        id,
        prompt,
        turns: turns.map_or(0, Vec::len),
    }
}

/// `key` of `object` as text: its own member, else the member of its `extensions`.
pub fn field(object: &Value, key: &str) -> Option<String> {
    object
        .get(key)
        .and_then(text)
        .or_else(|| extension(object, key))
}

/// `key` of `object`'s `extensions`, as text.
fn extension(object: &Value, key: &str) -> Option<String> {
    object.get("extensions")?.get(key).and_then(text)
}

/// A string, or a number's text; nothing else identifies an item.
pub fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// A stored verdict read back: its evaluator, verdict and score (an error with the stored code,
/// `evaluatorError` when there is none or it is unknown).
pub fn stored_result(
    evaluator: &str,
    verdict: Verdict,
    score: Option<f64>,
    error: Option<(&str, String)>,
) -> EvalResult {
    let mut result = match verdict {
        Verdict::Error => {
            let (code, message) = error.unwrap_or(("", String::new()));
            let code = ErrorCode::ALL
                .into_iter()
                .find(|known| known.as_str() == code)
                .unwrap_or(ErrorCode::EvaluatorError);
            EvalResult::error(evaluator, code, message)
        }
        Verdict::Skipped => EvalResult::skipped(evaluator, ""),
        Verdict::Pass | Verdict::Fail => EvalResult::verdict(evaluator, verdict == Verdict::Pass),
    };
    result.reason = None;
    result.score = score.filter(|score| score.is_finite());
    result
}

/// The entry of item `index` with `results` (its status as a run derives it).
pub fn entry(index: usize, results: Vec<EvalResult>) -> CaseOutcome {
    CaseOutcome {
        index,
        turn: None,
        status: status::item_status(&results, true),
        results,
        problem: None,
        review: None,
    }
}

/// The entry of an item that could not be read: status `error`, `problem` saying where and why.
pub fn unreadable(index: usize, problem: String) -> CaseOutcome {
    CaseOutcome {
        index,
        turn: None,
        status: Some(ItemStatus::Error),
        results: Vec::new(),
        problem: Some(problem),
        review: None,
    }
}

/// The [`ReadError::Invalid`] of the value at `pointer`.
pub fn invalid(pointer: &str, message: String) -> ReadError {
    ReadError::Invalid(InputError::one(Diagnostic::at_pointer(pointer, message)))
}

#[cfg(test)]
mod tests;
