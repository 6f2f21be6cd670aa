//! The summary table printed to stderr after scoring; names from the data are shown through
//! [`visible`].

use agenteval_core::report::JudgeRun;
use agenteval_core::text::decimal;
use agenteval_core::Summary;

use crate::terminal::visible;

/// Renders the per-evaluator table and the status counts, and the review counts of a reviewed
/// run.
pub fn table(summary: &Summary) -> String {
    let evaluators: Vec<_> = summary
        .per_evaluator()
        .iter()
        .map(|(name, tally)| (visible(name).into_owned(), tally))
        .collect();
    let width = evaluators
        .iter()
        .map(|(name, _)| name.chars().count())
        .chain([9])
        .max()
        .unwrap_or(9);
    let mut out = format!(
        "{:<width$}  {:>6} {:>6} {:>6} {:>7} {:>9} {:>8}\n",
        "evaluator", "pass", "fail", "error", "skipped", "pass rate", "mean"
    );
    for (name, tally) in evaluators {
        let rate = tally.pass_rate.map_or_else(
            || "-".to_owned(),
            |rate| format!("{}%", decimal::fixed(rate * 100.0, 1)),
        );
        let mean = tally
            .mean
            .map_or_else(|| "-".to_owned(), |mean| decimal::fixed(mean, 3));
        out.push_str(&format!(
            "{name:<width$}  {:>6} {:>6} {:>6} {:>7} {rate:>9} {mean:>8}\n",
            tally.pass, tally.fail, tally.error, tally.skipped
        ));
    }
    out.push_str(&format!(
        "items: {}  pass: {}  fail: {}  partial: {}  error: {}\n",
        summary.items, summary.pass, summary.fail, summary.partial, summary.error
    ));
    if let Some(review) = summary.review.describe() {
        out.push_str(&format!("review: {review}\n"));
    }
    out
}

/// One line of the judge's figures: calls, cache hits, retries, tokens; and, for a cancelled run,
/// how many entries it did not reach.
pub fn judge_line(figures: &JudgeRun) -> String {
    let mut line = format!(
        "judge ({} {}): {} calls, {} from cache, {} requests, {} retries, {} rate-limited, {} failed; tokens {} prompt + {} completion = {}\n",
        figures.endpoint,
        visible(&figures.model),
        figures.calls,
        figures.cache_hits,
        figures.requests,
        figures.retries,
        figures.rate_limited,
        figures.failures,
        figures.usage.prompt_tokens,
        figures.usage.completion_tokens,
        figures.usage.total_tokens,
    );
    if !figures.deployments.is_empty() {
        line.push_str(&format!(
            "judge requests per deployment (the dataset names its own): {}\n",
            visible(&figures.deployments_text())
        ));
    }
    if figures.cancelled {
        line.push_str(&format!(
            "cancelled: {} entries were not judged (their judged evaluators are skipped)\n",
            figures.not_reached.len()
        ));
    }
    line
}
