//! The comparison report: both runs, how they were paired, one row per metric (its test, its
//! intervals, its effect) and the paired items. Its JSON is the contract the CLI, the package and
//! the page share (`docs/formats.md`, "Comparison"); the types only hold finished numbers.

use serde::Serialize;

use super::pairing::PairingKey;
use crate::outcome::Verdict;
use crate::report::Dialect;

/// Two runs compared.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The run compared against.
    pub baseline: RunInfo,
    /// The run compared.
    pub candidate: RunInfo,
    /// How the items were paired.
    pub pairing: PairingSummary,
    /// One row per metric of every evaluator both runs have.
    pub metrics: Vec<Metric>,
    /// The paired items, in the baseline's order.
    pub items: Vec<PairedItem>,
}

/// One run of a comparison.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunInfo {
    /// Its name (the file name).
    pub name: String,
    /// Its dialect.
    pub dialect: Dialect,
    /// Its units: single-turn items plus threads (a thread counts once).
    pub items: usize,
}

/// How the runs' items were paired.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairingSummary {
    /// `id` or `prompt`.
    pub key: PairingKey,
    /// The field ids were read from, when the caller named one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub field: Option<String>,
    /// Pairs found.
    pub matched: usize,
    /// Baseline items with no partner.
    pub only_baseline: usize,
    /// Candidate items with no partner.
    pub only_candidate: usize,
    /// Paired threads: each is one sample (its turns are not independent).
    pub threads: usize,
    /// The items with no partner, the baseline's first.
    pub unmatched: Vec<Unmatched>,
}

/// Which run.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The baseline.
    Baseline,
    /// The candidate.
    Candidate,
}

/// An item of one run with no partner in the other.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unmatched {
    /// The run it is in.
    pub run: Side,
    /// Its 0-based item index there.
    pub index: usize,
    /// Its key (id or prompt).
    pub key: String,
}

/// Which measure of an evaluator a metric is.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricName {
    /// Pass = 1, fail = 0.
    PassRate,
    /// The numeric score.
    Score,
}

/// The kind of data a metric is, which decides its test and intervals.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricType {
    /// Pass or fail: McNemar's mid-p test, Wilson intervals.
    Boolean,
    /// An integer scale (1–5 judges, other Likert scales): Wilcoxon signed-rank, no interval.
    Ordinal,
    /// Any other number: paired t-test, t intervals.
    Continuous,
}

/// Which way a metric should move.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Higher is better (every built-in metric).
    Increase,
    /// Lower is better.
    Decrease,
    /// Neither: a significant difference is `changed`.
    Neutral,
}

impl Direction {
    /// `increase`, `decrease` or `neutral`.
    pub fn parse(text: &str) -> Option<Direction> {
        match text {
            "increase" => Some(Direction::Increase),
            "decrease" => Some(Direction::Decrease),
            "neutral" => Some(Direction::Neutral),
            _ => None,
        }
    }
}

/// The test a metric's p-value comes from.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Test {
    /// McNemar's mid-p test.
    McnemarMidP,
    /// Wilcoxon signed-rank, Pratt's zeros, normal approximation with tie correction.
    WilcoxonPratt,
    /// Paired t-test.
    PairedT,
}

/// What the comparison concludes about a metric.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// No pair to compare.
    ZeroSamples,
    /// Fewer than 10 pairs.
    TooFewSamples,
    /// p > 0.05.
    Inconclusive,
    /// Significant, in the desired direction.
    Improved,
    /// Significant, against the desired direction.
    Degraded,
    /// Significant, for a neutral metric.
    Changed,
}

/// How significant an effect is.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Strength {
    /// p ≤ 0.001.
    Strong,
    /// 0.001 < p ≤ 0.05.
    Weak,
}

/// Pass/fail changes of a boolean metric.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Flips {
    /// Pairs that passed in the baseline and fail in the candidate.
    pub pass_to_fail: u64,
    /// Pairs that failed in the baseline and pass in the candidate.
    pub fail_to_pass: u64,
}

/// One metric of one evaluator, compared.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metric {
    /// The evaluator, as the scored files name it.
    pub evaluator: String,
    /// `pass_rate` or `score`.
    pub metric: MetricName,
    /// The kind of data.
    #[serde(rename = "type")]
    pub kind: MetricType,
    /// Which way it should move.
    pub direction: Direction,
    /// Pairs compared.
    pub n: usize,
    /// Pairs left out: an error, skipped or not-applicable result (or no score) on either side.
    pub excluded: usize,
    /// The baseline's mean over the pairs compared; null when none.
    pub baseline_mean: Option<f64>,
    /// The candidate's mean over the pairs compared; null when none.
    pub candidate_mean: Option<f64>,
    /// candidate_mean − baseline_mean; null when no pair.
    pub delta: Option<f64>,
    /// The baseline's 95 % interval; null for ordinal scores and too few values.
    pub baseline_ci: Option<[f64; 2]>,
    /// The candidate's 95 % interval; null for ordinal scores and too few values.
    pub candidate_ci: Option<[f64; 2]>,
    /// The two-sided p-value; null when the test is undefined.
    pub p_value: Option<f64>,
    /// The test.
    pub test: Test,
    /// The conclusion.
    pub effect: Effect,
    /// How significant, for `improved`, `degraded` and `changed`.
    pub strength: Option<Strength>,
    /// Pass/fail changes (boolean metrics only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub flips: Option<Flips>,
    /// The smallest mean difference this sample would detect at 80 % power (5 % two-sided);
    /// null with fewer than two pairs or no variation.
    pub detectable_delta: Option<f64>,
}

/// A paired item: its key and both runs' verdicts.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedItem {
    /// The key it was paired by.
    pub key: String,
    /// Its 0-based item index in the baseline.
    pub baseline_index: usize,
    /// Its 0-based item index in the candidate.
    pub candidate_index: usize,
    /// Its turns, for a thread (0 for a single-turn item).
    pub turns: usize,
    /// The baseline's verdict per evaluator.
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "{ [evaluator: string]: ItemVerdict }")
    )]
    pub baseline: Verdicts,
    /// The candidate's verdict per evaluator.
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "{ [evaluator: string]: ItemVerdict }")
    )]
    pub candidate: Verdicts,
    /// Whether any evaluator's verdict or score differs.
    pub changed: bool,
}

/// One run's verdicts on an item, by evaluator (written as an object).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verdicts(pub Vec<(String, ItemVerdict)>);

impl Serialize for Verdicts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, verdict)| (name, verdict)))
    }
}

/// One evaluator's verdict on an item (a thread's: combined over its turns).
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ItemVerdict {
    /// pass, fail, error or skipped.
    pub result: Verdict,
    /// The score, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub score: Option<f64>,
}

/// Which effects fail a CI gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    /// Any degraded metric, weak or strong.
    Degraded,
    /// A strongly degraded metric only.
    StronglyDegraded,
    /// Never.
    Never,
}

impl FailOn {
    /// `degraded`, `strongly-degraded` or `never`.
    pub fn parse(text: &str) -> Option<FailOn> {
        match text {
            "degraded" => Some(FailOn::Degraded),
            "strongly-degraded" => Some(FailOn::StronglyDegraded),
            "never" => Some(FailOn::Never),
            _ => None,
        }
    }
}

impl Comparison {
    /// The metrics that meet `gate`.
    pub fn failing(&self, gate: FailOn) -> impl Iterator<Item = &Metric> {
        self.metrics.iter().filter(move |metric| {
            metric.effect == Effect::Degraded
                && match gate {
                    FailOn::Degraded => true,
                    FailOn::StronglyDegraded => metric.strength == Some(Strength::Strong),
                    FailOn::Never => false,
                }
        })
    }

    /// Whether any metric differs significantly (improved, degraded or changed).
    pub fn any_significant(&self) -> bool {
        self.metrics.iter().any(|metric| metric.strength.is_some())
    }
}
