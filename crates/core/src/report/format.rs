//! Small text helpers shared by the text writers (CSV, JUnit, Markdown, HTML).

use super::RunReport;

/// A number as the shortest text that reads back to the same value (`1`, `0.5`,
/// `0.6666666666666666`); empty for NaN and infinities.
pub(crate) fn number(value: f64) -> String {
    if value.is_finite() {
        crate::text::decimal::plain(value)
    } else {
        String::new()
    }
}

/// An optional number, empty when absent or not finite.
pub(crate) fn optional_number(value: Option<f64>) -> String {
    value.map(number).unwrap_or_default()
}

/// A share as a percentage with one decimal (`66.7%`).
pub(crate) fn percent(rate: f64) -> String {
    if rate.is_finite() {
        format!("{}%", crate::text::decimal::fixed(rate * 100.0, 1))
    } else {
        String::new()
    }
}

/// A score rounded to three decimals for tables (`0.667`), with trailing zeros kept short.
pub(crate) fn rounded(value: f64) -> String {
    if !value.is_finite() {
        return String::new();
    }
    let text = crate::text::decimal::fixed(value, 3);
    let trimmed = text.trim_end_matches('0').trim_end_matches('.');
    if trimmed == "-0" {
        "0".to_owned()
    } else {
        trimmed.to_owned()
    }
}

/// `item-3` or `item-3.turn-1` (0-based, as in every report).
pub(crate) fn case_label(index: usize, turn: Option<usize>) -> String {
    match turn {
        Some(turn) => format!("item-{index}.turn-{turn}"),
        None => format!("item-{index}"),
    }
}

/// The eight value cells of an evaluator's summary row in the Markdown and HTML tables: pass,
/// fail, error, skipped, pass rate, mean, min, max.
pub(crate) fn tally_cells(tally: &crate::report::EvaluatorSummary) -> [String; 8] {
    [
        tally.pass.to_string(),
        tally.fail.to_string(),
        tally.error.to_string(),
        tally.skipped.to_string(),
        or_dash(tally.pass_rate.map(percent)),
        or_dash(tally.mean.map(rounded)),
        or_dash(tally.min.map(rounded)),
        or_dash(tally.max.map(rounded)),
    ]
}

/// `text`, or an em dash when it is absent or empty (table cells without a value).
pub(crate) fn or_dash(text: Option<String>) -> String {
    match text {
        Some(text) if !text.is_empty() => text,
        _ => "—".to_owned(),
    }
}

/// The judge's run figures as label/value rows (endpoint, calls, cache, retries, failures,
/// tokens; for a cancelled run, the entries not judged); `None` without a judge.
pub(crate) fn judge_rows(report: &RunReport) -> Option<Vec<(&'static str, String)>> {
    let judge = report.judge.as_ref()?;
    let mut rows = vec![
        ("endpoint", format!("{} {}", judge.endpoint, judge.model)),
        ("calls", judge.calls.to_string()),
        ("from the cache", judge.cache_hits.to_string()),
        ("requests", judge.requests.to_string()),
        ("retries", judge.retries.to_string()),
        ("rate-limited", judge.rate_limited.to_string()),
        ("failed", judge.failures.to_string()),
        (
            "tokens (prompt + completion)",
            format!(
                "{} + {} = {}",
                judge.usage.prompt_tokens, judge.usage.completion_tokens, judge.usage.total_tokens
            ),
        ),
    ];
    if !judge.deployments.is_empty() {
        rows.push(("requests per deployment", judge.deployments_text()));
    }
    if judge.cancelled {
        let entries: Vec<String> = judge
            .not_reached
            .iter()
            .map(|entry| case_label(entry.index, entry.turn))
            .collect();
        rows.push(("cancelled; not judged", entries.join(", ")));
    }
    Some(rows)
}

/// Per-evaluator judge tokens: name, prompt, completion, total (evaluators with usage only).
pub(crate) fn token_rows(report: &RunReport) -> Vec<(&str, [u64; 3])> {
    report
        .summary
        .per_evaluator()
        .iter()
        .filter_map(|(name, tally)| {
            let usage = tally.usage?;
            Some((
                name.as_str(),
                [
                    usage.prompt_tokens,
                    usage.completion_tokens,
                    usage.total_tokens,
                ],
            ))
        })
        .collect()
}

/// A reviewer's verdict beside the evaluator's, in words: `fail, reviewer pass (ana,
/// 2026-12-06T03:00:00Z): it answers the question`. `original` is the evaluator's verdict, when the
/// entry has its result.
pub(crate) fn override_text(
    original: Option<crate::outcome::Verdict>,
    entry: &crate::review::Override,
) -> String {
    let mut text = match original {
        Some(verdict) => format!("{}, reviewer {}", verdict.as_str(), entry.verdict.as_str()),
        None => format!("reviewer {}", entry.verdict.as_str()),
    };
    let by: Vec<&str> = [entry.reviewer.as_deref(), entry.at.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if !by.is_empty() {
        text.push_str(&format!(" ({})", by.join(", ")));
    }
    text.push_str(&format!(": {}", entry.comment));
    text
}

/// The lines of an entry's review other than its overrides: `needs review`, the comment, and what
/// could not be read of it.
pub(crate) fn review_notes(review: &crate::review::Review) -> Vec<String> {
    let mut notes = Vec::new();
    if review.needs_review {
        notes.push("needs review".to_owned());
    }
    if let Some(comment) = &review.comment {
        notes.push(format!("comment: {comment}"));
    }
    notes.extend(
        review
            .problems
            .iter()
            .map(|problem| format!("review problem: {problem}")),
    );
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_shares() {
        assert_eq!(number(1.0), "1");
        assert_eq!(number(2.0 / 3.0), "0.6666666666666666");
        assert_eq!(number(f64::NAN), "");
        assert_eq!(optional_number(None), "");
        assert_eq!(percent(2.0 / 3.0), "66.7%");
        assert_eq!(rounded(0.6833333), "0.683");
        assert_eq!(rounded(10.0), "10");
        assert_eq!(rounded(0.5), "0.5");
        assert_eq!(rounded(-0.0001), "0");
        assert_eq!(rounded(f64::INFINITY), "");
        assert_eq!(or_dash(Some(String::new())), "—");
        assert_eq!(case_label(2, Some(1)), "item-2.turn-1");
    }
}
