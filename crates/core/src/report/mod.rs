//! The run report: per item/turn outcomes and the summary, and the writers of the formats every
//! dialect shares (JSON, CSV, JUnit, Markdown, HTML). A dialect's own scored file is `scored`'s.
//!
//! Writers take finished outcomes and return text or JSON values; they never decide verdicts.

use serde::Serialize;

use crate::outcome::{EvalResult, Usage, Verdict};
use crate::review::{Review, ReviewSummary};
use crate::status::ItemStatus;

pub mod csv;
pub(crate) mod format;
pub mod html;
mod json;
pub mod junit;
pub mod markdown;
pub(crate) mod pretty;
pub mod reviews;

pub use json::{to_json, write_json};

/// The input dialect a run read.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// M365 Copilot eval document (v1, or a legacy form upgraded in memory).
    M365,
    /// Azure AI Foundry JSONL rows with `testing_criteria`.
    Foundry,
    /// Copilot Studio CSV test set.
    CopilotStudio,
}

impl Dialect {
    /// Every dialect, in the order of the variants.
    pub const ALL: [Dialect; 3] = [Dialect::M365, Dialect::Foundry, Dialect::CopilotStudio];

    /// The snake_case name used in the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::M365 => "m365",
            Dialect::Foundry => "foundry",
            Dialect::CopilotStudio => "copilot_studio",
        }
    }
}

/// Name and version of the tool that produced a report.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolInfo {
    /// Always `agenteval`.
    pub name: &'static str,
    /// The core crate's version.
    pub version: &'static str,
}

impl Default for ToolInfo {
    fn default() -> Self {
        ToolInfo {
            name: "agenteval",
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// What happened to one single-turn item or one turn of a thread.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseOutcome {
    /// 0-based index of the item (M365) or row (Foundry).
    pub index: usize,
    /// 0-based turn index for threads; `None` for single-turn items.
    pub turn: Option<usize>,
    /// Derived status; `None` when every evaluator was skipped.
    pub status: Option<ItemStatus>,
    /// One result per resolved evaluator, in resolution order.
    pub results: Vec<EvalResult>,
    /// Why the item itself could not be scored (invalid item), if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub problem: Option<String>,
    /// A reviewer's review of the entry, beside its results (which it never changes).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub review: Option<Box<Review>>,
}

/// Per-evaluator tallies across a run.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct EvaluatorSummary {
    /// Pass verdicts.
    pub pass: usize,
    /// Fail verdicts.
    pub fail: usize,
    /// Errored results.
    pub error: usize,
    /// Skipped results.
    pub skipped: usize,
    /// pass / (pass + fail); `None` when there were no verdicts.
    pub pass_rate: Option<f64>,
    /// Mean score over results that have one.
    pub mean: Option<f64>,
    /// Lowest score.
    pub min: Option<f64>,
    /// Highest score.
    pub max: Option<f64>,
    /// Judge tokens of its results (judged evaluators only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub usage: Option<Usage>,
    #[serde(skip)]
    score_sum: f64,
    #[serde(skip)]
    score_count: usize,
}

impl EvaluatorSummary {
    fn add(&mut self, result: &EvalResult) {
        match result.result {
            Verdict::Pass => self.pass += 1,
            Verdict::Fail => self.fail += 1,
            Verdict::Error => self.error += 1,
            Verdict::Skipped => self.skipped += 1,
        }
        if let Some(usage) = result.usage {
            self.usage.get_or_insert_with(Usage::default).add(usage);
        }
        let verdicts = self.pass + self.fail;
        self.pass_rate = (verdicts > 0).then(|| self.pass as f64 / verdicts as f64);
        if let Some(score) = result.score.filter(|score| score.is_finite()) {
            self.score_sum += score;
            self.score_count += 1;
            self.mean = Some(self.score_sum / self.score_count as f64);
            self.min = Some(self.min.map_or(score, |min| min.min(score)));
            self.max = Some(self.max.map_or(score, |max| max.max(score)));
        }
    }
}

/// Run-wide counts, built incrementally so streaming runs need not keep every outcome.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Number of report entries (single-turn items plus thread turns).
    pub items: usize,
    /// Entries with status pass.
    pub pass: usize,
    /// Entries with status fail.
    pub fail: usize,
    /// Entries with status partial.
    pub partial: usize,
    /// Entries with status error.
    pub error: usize,
    /// Tallies per evaluator name, in first-seen order (serialized as an object).
    #[serde(rename = "evaluators", serialize_with = "serialize_tallies")]
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "{ [evaluator: string]: EvaluatorSummary }")
    )]
    per_evaluator: Vec<(String, EvaluatorSummary)>,
    /// Review counts, when any entry has a review.
    #[serde(skip_serializing_if = "ReviewSummary::is_empty")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub review: ReviewSummary,
}

impl Summary {
    /// Counts one outcome.
    pub fn add(&mut self, outcome: &CaseOutcome) {
        self.items += 1;
        match outcome.status {
            Some(ItemStatus::Pass) => self.pass += 1,
            Some(ItemStatus::Fail) => self.fail += 1,
            Some(ItemStatus::Partial) => self.partial += 1,
            Some(ItemStatus::Error) => self.error += 1,
            None => {}
        }
        if let Some(review) = &outcome.review {
            self.review.add(review, &outcome.results);
        }
        for (place, result) in outcome.results.iter().enumerate() {
            let is_here = |(name, _): &(String, EvaluatorSummary)| *name == result.evaluator;
            let existing = match self.per_evaluator.get(place) {
                Some(entry) if is_here(entry) => Some(place),
                _ => self.per_evaluator.iter().position(is_here),
            };
            let entry = match existing {
                Some(position) => self.per_evaluator.get_mut(position),
                None => Some(
                    self.per_evaluator
                        .push_mut((result.evaluator.clone(), EvaluatorSummary::default())),
                ),
            };
            if let Some((_, tally)) = entry {
                tally.add(result);
            }
        }
    }

    /// Tallies per evaluator, in first-seen order.
    pub fn per_evaluator(&self) -> &[(String, EvaluatorSummary)] {
        &self.per_evaluator
    }

    /// True when every entry with a status passed (the CLI's exit code 0).
    pub fn all_passed(&self) -> bool {
        self.fail == 0 && self.partial == 0 && self.error == 0
    }
}

fn serialize_tallies<S: serde::Serializer>(
    tallies: &[(String, EvaluatorSummary)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(tallies.iter().map(|(name, tally)| (name, tally)))
}

/// The run report (every dialect).
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// Tool name and version.
    pub tool: ToolInfo,
    /// The dialect read.
    pub dialect: Dialect,
    /// Run-wide counts.
    pub summary: Summary,
    /// One entry per single-turn item or thread turn, in input order.
    pub items: Vec<CaseOutcome>,
    /// The judge's figures, when a judge was configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub judge: Option<JudgeRun>,
}

/// What a run's judge calls cost and how they went.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct JudgeRun {
    /// The endpoint's kind (`azure`, `azure-v1`, `openai`).
    pub endpoint: String,
    /// The default model or deployment.
    pub model: String,
    /// Calls that needed the judge (answered from the cache or sent).
    pub calls: u64,
    /// Calls answered from the cache.
    pub cache_hits: u64,
    /// Calls sent to the endpoint.
    pub cache_misses: u64,
    /// HTTP requests sent, retries included.
    pub requests: u64,
    /// Requests retried.
    pub retries: u64,
    /// 429 answers.
    pub rate_limited: u64,
    /// Calls that ended in an error: no answer, or an answer that gave no verdict.
    pub failures: u64,
    /// Most requests in flight at once.
    pub peak_in_flight: u64,
    /// Tokens of the calls sent (cache hits cost none).
    pub usage: Usage,
    /// Whether the run was cancelled.
    pub cancelled: bool,
    /// Entries whose judge calls the cancelled run did not make or finish.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub not_reached: Vec<EntryRef>,
    /// Requests sent per model or deployment, when any went elsewhere than [`JudgeRun::model`]
    /// (a dataset's own config can name deployments).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub deployments: std::collections::BTreeMap<String, u64>,
}

impl JudgeRun {
    /// `gpt-4o 3, other 2`: the requests each deployment was sent.
    pub fn deployments_text(&self) -> String {
        self.deployments
            .iter()
            .map(|(name, requests)| format!("{name} {requests}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// An entry of a run: an item, or one turn of a thread.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EntryRef {
    /// 0-based item index.
    pub index: usize,
    /// 0-based turn, for thread turns.
    pub turn: Option<usize>,
}

impl RunReport {
    /// An empty report for `dialect`.
    pub fn new(dialect: Dialect) -> Self {
        RunReport {
            tool: ToolInfo::default(),
            dialect,
            summary: Summary::default(),
            items: Vec::new(),
            judge: None,
        }
    }

    /// Adds one outcome to the items and the summary, and returns it as stored.
    pub fn push(&mut self, outcome: CaseOutcome) -> &CaseOutcome {
        self.summary.add(&outcome);
        self.items.push_mut(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(results: &[(&str, bool)]) -> CaseOutcome {
        CaseOutcome {
            index: 0,
            turn: None,
            status: Some(ItemStatus::Pass),
            results: results
                .iter()
                .map(|&(name, passed)| EvalResult::verdict(name, passed))
                .collect(),
            problem: None,
            review: None,
        }
    }

    #[test]
    fn tallies_follow_names_in_first_seen_order_whatever_the_order_of_results() {
        let mut summary = Summary::default();
        summary.add(&outcome(&[("A", true), ("B", false)]));
        summary.add(&outcome(&[("B", true), ("C", true), ("A", false)]));
        summary.add(&outcome(&[("C", false)]));
        summary.add(&outcome(&[("A", true), ("B", true), ("C", true)]));
        let tallies: Vec<(&str, usize, usize)> = summary
            .per_evaluator()
            .iter()
            .map(|(name, tally)| (name.as_str(), tally.pass, tally.fail))
            .collect();
        assert_eq!(tallies, [("A", 2, 1), ("B", 2, 1), ("C", 2, 1)]);
        assert_eq!(summary.items, 4);
    }
}
