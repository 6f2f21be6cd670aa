//! Which unit of the baseline is which unit of the candidate: by id when every unit of both runs
//! carries one (or by the field the caller names, which every unit must then carry), else by
//! prompt; a key that repeats pairs its occurrences in order (the first with the first). The
//! units left over are the only-in-baseline and only-in-candidate ones. Never by position, but
//! for a run report, which carries neither ids nor prompts: its items pair by the item index the
//! report gives them, and the comparison says so.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

use super::runs::{Run, Unit};

/// What the units were paired by.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PairingKey {
    /// Ids (`extensions.id`, a thread's `conversation_id` or `name`, or the field named).
    Id,
    /// Prompt text.
    Prompt,
    /// The item's index in its dataset: a run report's only identity.
    Index,
}

/// The pairs, as indexes into each run's units, and what was left over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairs {
    /// The key used.
    pub key: PairingKey,
    /// (baseline unit, candidate unit), in the baseline's order.
    pub matched: Vec<(usize, usize)>,
    /// Baseline units with no partner, in order.
    pub only_baseline: Vec<usize>,
    /// Candidate units with no partner, in order.
    pub only_candidate: Vec<usize>,
}

/// Why two runs cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// The runs are of different dialects.
    #[error("{baseline} is {baseline_dialect} ({baseline_form}) and {candidate} is {candidate_dialect} ({candidate_form}): the dialects differ; only runs of the same dialect can be compared")]
    Dialects {
        /// The baseline's name.
        baseline: String,
        /// Its dialect.
        baseline_dialect: &'static str,
        /// What kind of file it is.
        baseline_form: &'static str,
        /// The candidate's name.
        candidate: String,
        /// Its dialect.
        candidate_dialect: &'static str,
        /// What kind of file it is.
        candidate_form: &'static str,
    },
    /// A key field was named and a unit does not carry it.
    #[error("{run}: item {index} has no `{field}` (nor `extensions.{field}`) to pair by")]
    MissingKey {
        /// The run's name.
        run: String,
        /// The unit's item index.
        index: usize,
        /// The field named.
        field: String,
    },
}

/// Pairs the units of `baseline` and `candidate`; `field` is the key field the caller named (the
/// runs were read with it).
///
/// # Errors
/// [`PairingError::Dialects`] when the runs' dialects differ; [`PairingError::MissingKey`] when
/// `field` is given and a unit carries no such field.
pub fn pair(baseline: &Run, candidate: &Run, field: Option<&str>) -> Result<Pairs, PairingError> {
    if baseline.dialect != candidate.dialect {
        return Err(PairingError::Dialects {
            baseline: baseline.name.clone(),
            baseline_dialect: baseline.dialect.as_str(),
            baseline_form: baseline.form.as_str(),
            candidate: candidate.name.clone(),
            candidate_dialect: candidate.dialect.as_str(),
            candidate_form: candidate.form.as_str(),
        });
    }
    if let Some(field) = field {
        for run in [baseline, candidate] {
            if let Some(unit) = run.units.iter().find(|unit| unit.id.is_none()) {
                return Err(PairingError::MissingKey {
                    run: run.name.clone(),
                    index: unit.index,
                    field: field.to_owned(),
                });
            }
        }
    }
    let every_unit_has_an_id = [baseline, candidate]
        .iter()
        .all(|run| run.units.iter().all(|unit| unit.id.is_some()));
    let identified = [baseline, candidate]
        .iter()
        .all(|run| run.form.identifies_items());
    let key = if every_unit_has_an_id {
        PairingKey::Id
    } else if identified {
        PairingKey::Prompt
    } else {
        PairingKey::Index
    };
    let mut waiting: HashMap<Cow<str>, VecDeque<usize>> = HashMap::new();
    for (place, unit) in candidate.units.iter().enumerate() {
        waiting
            .entry(key_text(unit, key))
            .or_default()
            .push_back(place);
    }
    let mut matched = Vec::with_capacity(baseline.units.len().min(candidate.units.len()));
    let mut only_baseline = Vec::new();
    let mut taken = vec![false; candidate.units.len()];
    for (place, unit) in baseline.units.iter().enumerate() {
        match waiting
            .get_mut(&key_text(unit, key))
            .and_then(VecDeque::pop_front)
        {
            Some(partner) => {
                if let Some(slot) = taken.get_mut(partner) {
                    *slot = true;
                }
                matched.push((place, partner));
            }
            None => only_baseline.push(place),
        }
    }
    let only_candidate = taken
        .iter()
        .enumerate()
        .filter(|(_, taken)| !**taken)
        .map(|(place, _)| place)
        .collect();
    Ok(Pairs {
        key,
        matched,
        only_baseline,
        only_candidate,
    })
}

/// The text `unit` is paired by under `key`.
pub fn key_text(unit: &Unit, key: PairingKey) -> Cow<'_, str> {
    match key {
        PairingKey::Id => Cow::Borrowed(unit.id.as_deref().unwrap_or_default()),
        PairingKey::Prompt => Cow::Borrowed(&unit.prompt),
        PairingKey::Index => Cow::Owned(unit.index.to_string()),
    }
}
