//! Markdown summary: the run's status counts, a per-evaluator table, and the items that did not
//! pass with their reasons.
//!
//! Dataset and agent text is untrusted: cells escape `|`, `\`, `` ` ``, `*` and the HTML-significant
//! `<`, `>`, `&` (Markdown renderers pass raw HTML through), and fold line breaks into one space.
//! No IO.

use crate::outcome::Verdict;
use crate::status::ItemStatus;

use super::format;
use super::{CaseOutcome, RunReport};

/// The report as a Markdown document.
pub fn write(report: &RunReport) -> String {
    let summary = &report.summary;
    let mut output = String::from("# agenteval results\n\n");
    output.push_str("| items | pass | fail | partial | error |\n|---:|---:|---:|---:|---:|\n");
    output.push_str(&format!(
        "| {} | {} | {} | {} | {} |\n\n",
        summary.items, summary.pass, summary.fail, summary.partial, summary.error
    ));
    output.push_str("## Evaluators\n\n");
    if summary.per_evaluator().is_empty() {
        output.push_str("No evaluator ran.\n");
    } else {
        output.push_str(
            "| evaluator | pass | fail | error | skipped | pass rate | mean | min | max |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        );
        for (name, tally) in summary.per_evaluator() {
            output.push_str(&format!(
                "| {} | {} |\n",
                cell(name),
                format::tally_cells(tally).join(" | ")
            ));
        }
    }
    output.push_str(&judge_section(report));
    let problems: Vec<&CaseOutcome> = report
        .items
        .iter()
        .filter(|outcome| {
            matches!(
                outcome.status,
                Some(ItemStatus::Fail | ItemStatus::Partial | ItemStatus::Error)
            ) || outcome.problem.is_some()
        })
        .collect();
    output.push_str("\n## Items that did not pass\n\n");
    if problems.is_empty() {
        output.push_str("None.\n");
    }
    for outcome in problems {
        output.push_str(&item_section(outcome));
    }
    output
}

/// The judge's figures and each judged evaluator's tokens; empty without a judge.
fn judge_section(report: &RunReport) -> String {
    let Some(rows) = format::judge_rows(report) else {
        return String::new();
    };
    let mut section = String::from("\n## Judge\n\n| | |\n|---|---|\n");
    for (label, value) in rows {
        section.push_str(&format!("| {label} | {} |\n", cell(&value)));
    }
    let tokens = format::token_rows(report);
    if !tokens.is_empty() {
        section.push_str(
            "\n| evaluator | prompt tokens | completion tokens | total tokens |\n|---|---:|---:|---:|\n",
        );
        for (name, [prompt, completion, total]) in tokens {
            section.push_str(&format!(
                "| {} | {prompt} | {completion} | {total} |\n",
                cell(name)
            ));
        }
    }
    section
}

fn item_section(outcome: &CaseOutcome) -> String {
    let status = outcome.status.map_or("no status", ItemStatus::as_str);
    let mut section = format!(
        "- **{}** — {}\n",
        format::case_label(outcome.index, outcome.turn),
        status
    );
    if let Some(problem) = &outcome.problem {
        section.push_str(&format!("  - item problem: {}\n", cell(problem)));
    }
    for result in &outcome.results {
        let line = match result.result {
            Verdict::Pass | Verdict::Skipped => continue,
            Verdict::Fail => {
                let mut line = format!("  - {}: fail", cell(&result.evaluator));
                if let Some(score) = result.score {
                    line.push_str(&format!(" (score {}", format::rounded(score)));
                    if let Some(threshold) = result.threshold {
                        line.push_str(&format!(", threshold {}", format::rounded(threshold)));
                    }
                    line.push(')');
                }
                if let Some(reason) = &result.reason {
                    line.push_str(&format!(" — {}", cell(reason)));
                }
                line
            }
            Verdict::Error => match &result.error {
                Some(error) => format!(
                    "  - {}: error `{}` — {}",
                    cell(&result.evaluator),
                    error.code.as_str(),
                    cell(&error.message)
                ),
                None => format!("  - {}: error", cell(&result.evaluator)),
            },
        };
        section.push_str(&line);
        section.push('\n');
    }
    section
}

/// Untrusted text made safe for a table cell or list line.
fn cell(raw: &str) -> String {
    let mut escaped = String::with_capacity(raw.len());
    let mut previous_was_break = false;
    for c in raw.chars() {
        let is_break = c == '\n' || c == '\r';
        match c {
            '\n' | '\r' if previous_was_break => {}
            '\n' | '\r' => escaped.push(' '),
            '|' => escaped.push_str("\\|"),
            '\\' => escaped.push_str("\\\\"),
            '`' => escaped.push_str("\\`"),
            '*' => escaped.push_str("\\*"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '&' => escaped.push_str("&amp;"),
            _ => escaped.push(c),
        }
        previous_was_break = is_break;
    }
    escaped
}
