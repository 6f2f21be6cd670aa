//! The metrics of each evaluator both runs have, over the paired units: a `pass_rate`
//! (boolean) and, where the evaluator gives numbers, a `score` (ordinal for integer judge scales,
//! continuous otherwise), each with its test, intervals and effect as the reference decides them;
//! and the paired items with both verdicts. A pair whose result is error, skipped or not
//! applicable on either side is left out of that metric and counted as excluded.

use std::collections::HashSet;

use super::model::{
    Direction, Effect, Flips, ItemVerdict, Metric, MetricName, MetricType, PairedItem, Strength,
    Test, Verdicts,
};
use super::pairing::{key_text, Pairs};
use super::runs::{Run, Unit, UnitResult};
use super::stats;
use crate::evaluators::{self, EvaluatorKind};
use crate::outcome::Verdict;

/// The fewest pairs a test is read for (fewer: `too_few_samples`).
pub const SAMPLE_SIZE_THRESHOLD: usize = 10;
/// The p-value at or below which an effect is significant.
pub const SIGNIFICANT: f64 = 0.05;
/// The p-value at or below which an effect is strong.
pub const STRONG: f64 = 0.001;

/// The evaluators both runs have results of, in the baseline's first-seen order.
pub fn shared_evaluators(baseline: &Run, candidate: &Run) -> Vec<String> {
    let in_candidate: HashSet<&str> = candidate
        .units
        .iter()
        .flat_map(|unit| &unit.results)
        .map(|result| result.evaluator.as_str())
        .collect();
    let mut seen = HashSet::new();
    let mut shared = Vec::new();
    for result in baseline.units.iter().flat_map(|unit| &unit.results) {
        let name = result.evaluator.as_str();
        if in_candidate.contains(name) && seen.insert(name) {
            shared.push(name.to_owned());
        }
    }
    shared
}

/// The metrics of `evaluator` over the pairs; `direction` is its desired direction.
pub fn evaluator_metrics(
    baseline: &Run,
    candidate: &Run,
    pairs: &Pairs,
    evaluator: &str,
    direction: Direction,
) -> Vec<Metric> {
    let results: Vec<(Option<&UnitResult>, Option<&UnitResult>)> = pairs
        .matched
        .iter()
        .map(|&(b, c)| {
            (
                baseline
                    .units
                    .get(b)
                    .and_then(|unit| result_of(unit, evaluator)),
                candidate
                    .units
                    .get(c)
                    .and_then(|unit| result_of(unit, evaluator)),
            )
        })
        .collect();
    let verdicts: Vec<(bool, bool)> = results
        .iter()
        .filter_map(|(b, c)| Some((passed(b.as_ref()?)?, passed(c.as_ref()?)?)))
        .collect();
    let mut metrics = vec![pass_rate(
        evaluator,
        direction,
        &verdicts,
        pairs.matched.len(),
    )];
    let has_scores = results
        .iter()
        .any(|(b, c)| [b, c].iter().any(|r| r.is_some_and(|r| r.score.is_some())));
    if has_scores {
        let scores: Vec<(f64, f64)> = results
            .iter()
            .filter_map(|(b, c)| Some((b.as_ref()?.score?, c.as_ref()?.score?)))
            .collect();
        metrics.push(score(evaluator, direction, &scores, pairs.matched.len()));
    }
    metrics
}

fn result_of<'a>(unit: &'a Unit, evaluator: &str) -> Option<&'a UnitResult> {
    unit.results
        .iter()
        .find(|result| result.evaluator == evaluator)
}

/// Pass or fail; `None` for error and skipped results.
fn passed(result: &UnitResult) -> Option<bool> {
    match result.result {
        Verdict::Pass => Some(true),
        Verdict::Fail => Some(false),
        Verdict::Error | Verdict::Skipped => None,
    }
}

fn pass_rate(
    evaluator: &str,
    direction: Direction,
    verdicts: &[(bool, bool)],
    matched: usize,
) -> Metric {
    let n = verdicts.len();
    let baseline_passes = verdicts.iter().filter(|(b, _)| *b).count() as u64;
    let candidate_passes = verdicts.iter().filter(|(_, c)| *c).count() as u64;
    let pass_to_fail = verdicts.iter().filter(|(b, c)| *b && !*c).count() as u64;
    let fail_to_pass = verdicts.iter().filter(|(b, c)| !*b && *c).count() as u64;
    let differences: Vec<f64> = verdicts
        .iter()
        .map(|(b, c)| f64::from(u8::from(*c)) - f64::from(u8::from(*b)))
        .collect();
    let mean = |passes: u64| (n > 0).then(|| passes as f64 / n as f64);
    let interval = |passes: u64| stats::wilson_cc(passes, n as u64).map(|(lo, hi)| [lo, hi]);
    finish(Metric {
        evaluator: evaluator.to_owned(),
        metric: MetricName::PassRate,
        kind: MetricType::Boolean,
        direction,
        n,
        excluded: matched - n,
        baseline_mean: mean(baseline_passes),
        candidate_mean: mean(candidate_passes),
        delta: None,
        baseline_ci: interval(baseline_passes),
        candidate_ci: interval(candidate_passes),
        p_value: Some(stats::mcnemar_mid_p(pass_to_fail, fail_to_pass)),
        test: Test::McnemarMidP,
        effect: Effect::ZeroSamples,
        strength: None,
        flips: Some(Flips {
            pass_to_fail,
            fail_to_pass,
        }),
        detectable_delta: stats::detectable_delta(&differences),
    })
}

fn score(evaluator: &str, direction: Direction, scores: &[(f64, f64)], matched: usize) -> Metric {
    let n = scores.len();
    let kind = score_type(evaluator, scores);
    let baseline: Vec<f64> = scores.iter().map(|(b, _)| *b).collect();
    let candidate: Vec<f64> = scores.iter().map(|(_, c)| *c).collect();
    let differences: Vec<f64> = scores.iter().map(|(b, c)| c - b).collect();
    let mean = |values: &[f64]| (n > 0).then(|| values.iter().sum::<f64>() / n as f64);
    let (test, p_value, baseline_ci, candidate_ci) = match kind {
        MetricType::Ordinal => {
            let rounded: Vec<f64> = differences.iter().map(|d| d.round_ties_even()).collect();
            (
                Test::WilcoxonPratt,
                stats::wilcoxon_pratt(&rounded),
                None,
                None,
            )
        }
        _ => {
            let interval = |values: &[f64]| stats::mean_interval(values).map(|(lo, hi)| [lo, hi]);
            (
                Test::PairedT,
                stats::paired_t(&differences),
                interval(&baseline),
                interval(&candidate),
            )
        }
    };
    finish(Metric {
        evaluator: evaluator.to_owned(),
        metric: MetricName::Score,
        kind,
        direction,
        n,
        excluded: matched - n,
        baseline_mean: mean(&baseline),
        candidate_mean: mean(&candidate),
        delta: None,
        baseline_ci,
        candidate_ci,
        p_value: Some(p_value).filter(|p| !p.is_nan()),
        test,
        effect: Effect::ZeroSamples,
        strength: None,
        flips: None,
        detectable_delta: stats::detectable_delta(&differences),
    })
}

/// Ordinal for the built-in judges (the 1–5 scale, the binary 0/1 one; a thread's mean is
/// compared by its rounded differences, as the reference rounds them) and for an evaluator
/// agenteval does not know whose scores are all integers from 1 to 10 (a Likert scale);
/// continuous for everything else (F1, ROUGE, BLEU, similarity scores, rubric 0–1, counts).
fn score_type(evaluator: &str, scores: &[(f64, f64)]) -> MetricType {
    let mut values = scores.iter().flat_map(|(b, c)| [*b, *c]);
    let ordinal = match evaluators::find(evaluators::from_score_key(evaluator)) {
        Some(spec) => spec.kind == EvaluatorKind::Judge,
        None => {
            !scores.is_empty()
                && values.all(|value| value.fract() == 0.0 && (1.0..=10.0).contains(&value))
        }
    };
    if ordinal {
        MetricType::Ordinal
    } else {
        MetricType::Continuous
    }
}

/// The delta, effect and strength of a metric whose means and p-value are set.
fn finish(mut metric: Metric) -> Metric {
    if let (Some(baseline), Some(candidate)) = (metric.baseline_mean, metric.candidate_mean) {
        metric.delta = Some(candidate - baseline);
    }
    metric.effect = effect(&metric);
    metric.strength = match (metric.effect, metric.p_value) {
        (Effect::Improved | Effect::Degraded | Effect::Changed, Some(p)) if p <= STRONG => {
            Some(Strength::Strong)
        }
        (Effect::Improved | Effect::Degraded | Effect::Changed, _) => Some(Strength::Weak),
        _ => None,
    };
    metric
}

/// The reference's treatment effect.
fn effect(metric: &Metric) -> Effect {
    if metric.n == 0 {
        return Effect::ZeroSamples;
    }
    if metric.n < SAMPLE_SIZE_THRESHOLD {
        return Effect::TooFewSamples;
    }
    if metric.p_value.filter(|p| *p <= SIGNIFICANT).is_none() {
        return Effect::Inconclusive;
    }
    let delta = metric.delta.unwrap_or(0.0);
    match metric.direction {
        Direction::Neutral => Effect::Changed,
        Direction::Increase if delta > 0.0 => Effect::Improved,
        Direction::Decrease if delta < 0.0 => Effect::Improved,
        _ => Effect::Degraded,
    }
}

/// The paired items, in the baseline's order.
pub fn paired_items(baseline: &Run, candidate: &Run, pairs: &Pairs) -> Vec<PairedItem> {
    pairs
        .matched
        .iter()
        .filter_map(|&(b, c)| {
            let (b, c) = (baseline.units.get(b)?, candidate.units.get(c)?);
            let baseline = verdicts(b);
            let candidate = verdicts(c);
            let changed = differs(&baseline, &candidate) || differs(&candidate, &baseline);
            Some(PairedItem {
                key: key_text(b, pairs.key).into_owned(),
                baseline_index: b.index,
                candidate_index: c.index,
                turns: b.turns.max(c.turns),
                baseline,
                candidate,
                changed,
            })
        })
        .collect()
}

/// Whether an evaluator of `one` has another verdict or score in `other`, an evaluator that is
/// absent counting as skipped (a scored document writes no skipped result that a run report
/// lists).
fn differs(one: &Verdicts, other: &Verdicts) -> bool {
    let skipped = ItemVerdict {
        result: Verdict::Skipped,
        score: None,
    };
    one.0.iter().any(|(name, verdict)| {
        let theirs = other
            .0
            .iter()
            .find(|(other_name, _)| other_name == name)
            .map_or(skipped, |(_, theirs)| *theirs);
        theirs != *verdict
    })
}

fn verdicts(unit: &Unit) -> Verdicts {
    Verdicts(
        unit.results
            .iter()
            .map(|result| {
                (
                    result.evaluator.clone(),
                    ItemVerdict {
                        result: result.result,
                        score: result.score,
                    },
                )
            })
            .collect(),
    )
}
