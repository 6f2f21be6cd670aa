//! Comparing two scored runs of one dataset, as Microsoft's agent-evaluation analysis compares
//! them (microsoft/ai-agent-evals, `analysis/analysis.py`): items paired by id or prompt (never by
//! position), threads as one sample each, per evaluator a pass-rate and a score metric with the
//! paired test of its kind, per-run 95 % intervals, the effect (improved, degraded, changed,
//! inconclusive, too few samples) and its strength, flips and the detectable difference; written
//! as JSON, Markdown or HTML. One implementation for the CLI's `compare`, the package's
//! `compare()` and the page. No IO.
//!
//! Layers: `stats` (numbers only), `inputs` (the scored files of every dialect read back) and
//! `runs` (an input as units) at the bottom; `pairing` over runs; `model` the report's types; `metrics` builds them;
//! `render` writes them; this module joins them.

pub mod inputs;
pub mod metrics;
pub mod model;
pub mod pairing;
pub mod render;
pub mod runs;
pub mod stats;

pub use model::{
    Comparison, Direction, Effect, FailOn, Flips, ItemVerdict, Metric, MetricName, MetricType,
    PairedItem, PairingSummary, RunInfo, Side, Strength, Test, Unmatched, Verdicts,
};
pub use pairing::{PairingError, PairingKey};
pub use render::{render, write, Format};
pub use runs::Run;

use crate::scored::ReadError;

/// What a comparison can be told.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompareOptions {
    /// The field to pair by (an item's own, or its `extensions`'), instead of `extensions.id`
    /// or the prompt.
    pub key: Option<String>,
    /// Desired directions of evaluators that are not `increase` (custom evaluators).
    pub directions: Vec<(String, Direction)>,
}

/// Why two files could not be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// A file could not be read as a scored run.
    #[error("{name}: {error}")]
    Read {
        /// Its name.
        name: String,
        /// Why.
        error: Box<ReadError>,
    },
    /// The runs cannot be paired.
    #[error("{0}")]
    Pairing(#[from] PairingError),
}

/// Compares two scored files, each given as (name, bytes).
///
/// # Errors
/// [`CompareError::Read`] when a file is no scored run; [`CompareError::Pairing`] when the runs
/// are of different dialects or an item lacks the key field named.
pub fn compare(
    baseline: (&str, &[u8]),
    candidate: (&str, &[u8]),
    options: &CompareOptions,
) -> Result<Comparison, CompareError> {
    let read = |(name, bytes): (&str, &[u8])| {
        runs::read(name, bytes, options.key.as_deref()).map_err(|error| CompareError::Read {
            name: name.to_owned(),
            error: Box::new(error),
        })
    };
    let baseline = read(baseline)?;
    let candidate = read(candidate)?;
    Ok(compare_runs(&baseline, &candidate, options)?)
}

/// Compares two runs already read.
///
/// # Errors
/// As [`pairing::pair`].
pub fn compare_runs(
    baseline: &Run,
    candidate: &Run,
    options: &CompareOptions,
) -> Result<Comparison, PairingError> {
    let pairs = pairing::pair(baseline, candidate, options.key.as_deref())?;
    let direction = |evaluator: &str| {
        options
            .directions
            .iter()
            .find(|(name, _)| name == evaluator)
            .map_or(Direction::Increase, |(_, direction)| *direction)
    };
    let metrics = metrics::shared_evaluators(baseline, candidate)
        .iter()
        .flat_map(|evaluator| {
            metrics::evaluator_metrics(baseline, candidate, &pairs, evaluator, direction(evaluator))
        })
        .collect();
    let unmatched = [
        (Side::Baseline, baseline, &pairs.only_baseline),
        (Side::Candidate, candidate, &pairs.only_candidate),
    ]
    .into_iter()
    .flat_map(|(side, run, places)| {
        places.iter().filter_map(move |&place| {
            let unit = run.units.get(place)?;
            Some(Unmatched {
                run: side,
                index: unit.index,
                key: pairing::key_text(unit, pairs.key).into_owned(),
            })
        })
    })
    .collect();
    let threads = pairs
        .matched
        .iter()
        .filter(|(b, c)| {
            [baseline.units.get(*b), candidate.units.get(*c)]
                .iter()
                .any(|unit| unit.is_some_and(|unit| unit.turns > 0))
        })
        .count();
    let items = metrics::paired_items(baseline, candidate, &pairs);
    let info = |run: &Run| RunInfo {
        name: run.name.clone(),
        dialect: run.dialect,
        items: run.units.len(),
    };
    Ok(Comparison {
        baseline: info(baseline),
        candidate: info(candidate),
        pairing: PairingSummary {
            key: pairs.key,
            field: options.key.clone(),
            matched: pairs.matched.len(),
            only_baseline: pairs.only_baseline.len(),
            only_candidate: pairs.only_candidate.len(),
            threads,
            unmatched,
        },
        metrics,
        items,
    })
}

#[cfg(test)]
mod tests;
