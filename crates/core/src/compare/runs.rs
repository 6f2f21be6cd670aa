//! One side of a comparison: a scored file read back by [`inputs`], grouped into units — a
//! single-turn item, or a whole thread, since a thread's turns are not independent samples —
//! each with the keys it can be paired by and one verdict per evaluator. No IO.

use crate::evaluators;
use crate::json::Value;
use crate::outcome::Verdict;
use crate::report::{CaseOutcome, Dialect};
use crate::scored::ReadError;

use super::inputs::{self, Form, Input};

/// A scored run, ready to pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The name the run is shown by (its file name).
    pub name: String,
    /// The dialect its report was read as.
    pub dialect: Dialect,
    /// What kind of file it was.
    pub form: Form,
    /// Its items and threads, in input order.
    pub units: Vec<Unit>,
}

/// A single-turn item or a whole thread.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// 0-based index of the item in its file.
    pub index: usize,
    /// Its turns, for a thread; 0 for a single-turn item.
    pub turns: usize,
    /// Its id: the `--key` field when one was named, else `extensions.id` (a thread's
    /// `conversation_id` or `name` when it has none).
    pub id: Option<String>,
    /// Its prompt; a thread's turns' prompts, one per line.
    pub prompt: String,
    /// One verdict per evaluator, in the order the results name them.
    pub results: Vec<UnitResult>,
}

/// One evaluator's verdict on a unit, the evaluator named as the scored file names it (an M365
/// document's `scores` key: `partialMatch`, `relevance`). A thread's: `error` when any turn errored, else `fail`
/// when any turn failed, `pass` when every turn that ran passed, `skipped` when none ran; its
/// score the mean of the scores of the turns that passed or failed.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitResult {
    /// The evaluator, as the scored file names it.
    pub evaluator: String,
    /// The verdict.
    pub result: Verdict,
    /// The numeric score, when the evaluator gives one.
    pub score: Option<f64>,
}

/// Reads `bytes`, a scored file called `name` (any form [`inputs`] reads), as a run whose units
/// carry ids from `key` (a field of the item, or of its `extensions`) when it is given.
///
/// # Errors
/// As [`inputs::read`]: the input carries no results, or cannot be read.
pub fn read(name: &str, bytes: &[u8], key: Option<&str>) -> Result<Run, ReadError> {
    Ok(from_input(name, inputs::read(bytes, key)?))
}

/// [`read`] over an already-parsed value.
///
/// # Errors
/// As [`inputs::read_value`].
pub fn read_value(name: &str, value: Value, key: Option<&str>) -> Result<Run, ReadError> {
    Ok(from_input(name, inputs::read_value(value, key)?))
}

/// The units of `input`, an entry's index naming its item in the identities.
fn from_input(name: &str, input: Input) -> Run {
    let mut units: Vec<Unit> = Vec::with_capacity(input.identities.len());
    let mut identities = input.identities.into_iter().enumerate().peekable();
    let mut entries = input.entries.iter().peekable();
    while let Some(entry) = entries.next() {
        let mut group = vec![entry];
        while let Some(next) = entries.next_if(|next| next.index == entry.index) {
            group.push(next);
        }
        while identities
            .next_if(|(index, _)| *index < entry.index)
            .is_some()
        {}
        let identity = identities
            .next_if(|(index, _)| *index == entry.index)
            .map(|(_, identity)| identity);
        let threaded = if entry.turn.is_some() { group.len() } else { 0 };
        let (id, prompt, turns) = match identity {
            Some(identity) => (identity.id, identity.prompt, identity.turns),
            None => (None, String::new(), threaded),
        };
        units.push(Unit {
            index: entry.index,
            turns,
            id,
            prompt,
            results: combine(&group, input.dialect),
        });
    }
    Run {
        name: name.to_owned(),
        dialect: input.dialect,
        form: input.form,
        units,
    }
}

/// The verdict per evaluator of a unit's entries (one, or a thread's turns).
pub fn combine(entries: &[&CaseOutcome], dialect: Dialect) -> Vec<UnitResult> {
    let named = |evaluator: &str| match dialect {
        Dialect::M365 => evaluators::score_key(evaluator).to_owned(),
        Dialect::Foundry | Dialect::CopilotStudio => evaluator.to_owned(),
    };
    if let [entry] = entries {
        return entry
            .results
            .iter()
            .map(|result| UnitResult {
                evaluator: named(&result.evaluator),
                result: result.result,
                score: score_of(result.result, result.score),
            })
            .collect();
    }
    let mut combined: Vec<(UnitResult, f64, usize)> = Vec::new();
    for result in entries.iter().flat_map(|entry| &entry.results) {
        let evaluator = named(&result.evaluator);
        let place = match combined
            .iter()
            .position(|(unit, _, _)| unit.evaluator == evaluator)
        {
            Some(place) => place,
            None => {
                combined.push((
                    UnitResult {
                        evaluator,
                        result: Verdict::Skipped,
                        score: None,
                    },
                    0.0,
                    0,
                ));
                combined.len() - 1
            }
        };
        let Some((unit, sum, count)) = combined.get_mut(place) else {
            continue;
        };
        unit.result = match (unit.result, result.result) {
            (Verdict::Error, _) | (_, Verdict::Error) => Verdict::Error,
            (Verdict::Fail, _) | (_, Verdict::Fail) => Verdict::Fail,
            (Verdict::Pass, _) | (_, Verdict::Pass) => Verdict::Pass,
            _ => Verdict::Skipped,
        };
        if let Some(score) = score_of(result.result, result.score) {
            *sum += score;
            *count += 1;
        }
    }
    combined
        .into_iter()
        .map(|(mut unit, sum, count)| {
            unit.score = (count > 0 && unit.result != Verdict::Error).then(|| sum / count as f64);
            unit
        })
        .collect()
}

/// The score of a result that passed or failed, when finite.
fn score_of(result: Verdict, score: Option<f64>) -> Option<f64> {
    matches!(result, Verdict::Pass | Verdict::Fail)
        .then_some(score)
        .flatten()
        .filter(|score| score.is_finite())
}
