//! Self-contained HTML report: status counts, the per-evaluator aggregate table, the review counts
//! (when any entry has a review) and one card per item or turn (evaluator | result | score |
//! threshold | reason, and a review column beside them on a reviewed entry, with its notes).
//!
//! Inline CSS only: no scripts, no external resources, and a Content-Security-Policy that forbids
//! both. Every piece of dataset, agent or evaluator text is HTML-escaped, since it is untrusted.
//! No IO.

use crate::outcome::EvalResult;
use crate::review::Review;

use super::format;
use super::{CaseOutcome, RunReport};

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem;color:#1f2328;background:#fff}\
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}\
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;vertical-align:top}\
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}\
.card{border:1px solid #d0d7de;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}\
.card h3{font-size:1rem;margin:.2rem 0 .5rem}\
.pass{color:#1a7f37;font-weight:600}.fail{color:#cf222e;font-weight:600}\
.partial,.error{color:#9a6700;font-weight:600}.skipped,.none{color:#656d76}\
.problem{color:#cf222e}.review{color:#8250df}td.reason{white-space:pre-wrap}pre{white-space:pre-wrap;margin:.3rem 0;font-size:.85em}";

/// The report as a standalone HTML page titled `title`.
pub fn write(report: &RunReport, title: &str) -> String {
    let title = escape(title);
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
    );
    page.push_str(&status_table(report));
    page.push_str(&aggregate_table(report));
    page.push_str(&judge_tables(report));
    if let Some(counts) = report.summary.review.describe() {
        page.push_str(&format!(
            "<h2>Review</h2>\n<p class=\"review\">{}</p>\n",
            escape(&counts)
        ));
    }
    page.push_str("<h2>Items</h2>\n");
    for outcome in &report.items {
        page.push_str(&card(outcome));
    }
    page.push_str(&format!(
        "<footer><p class=\"none\">{} {}</p></footer>\n</body>\n</html>\n",
        escape(report.tool.name),
        escape(report.tool.version)
    ));
    page
}

fn status_table(report: &RunReport) -> String {
    let summary = &report.summary;
    format!(
        "<table>\n<tr><th>Items</th><th>Pass</th><th>Fail</th><th>Partial</th><th>Error</th></tr>\n\
<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n</table>\n",
        summary.items, summary.pass, summary.fail, summary.partial, summary.error
    )
}

fn aggregate_table(report: &RunReport) -> String {
    let mut table = String::from(
        "<h2>Evaluators</h2>\n<table>\n<tr><th>Evaluator</th><th>Pass</th><th>Fail</th><th>Error</th><th>Skipped</th><th>Pass rate</th><th>Mean</th><th>Min</th><th>Max</th></tr>\n",
    );
    for (name, tally) in report.summary.per_evaluator() {
        table.push_str(&format!("<tr><td>{}</td>", escape(name)));
        for cell in format::tally_cells(tally) {
            table.push_str(&format!("<td class=\"num\">{cell}</td>"));
        }
        table.push_str("</tr>\n");
    }
    table.push_str("</table>\n");
    table
}

/// The judge's figures and each judged evaluator's tokens; empty without a judge.
fn judge_tables(report: &RunReport) -> String {
    let Some(rows) = format::judge_rows(report) else {
        return String::new();
    };
    let mut tables = String::from("<h2>Judge</h2>\n<table>\n");
    for (label, value) in rows {
        tables.push_str(&format!(
            "<tr><th>{}</th><td>{}</td></tr>\n",
            escape(label),
            escape(&value)
        ));
    }
    tables.push_str("</table>\n");
    let tokens = format::token_rows(report);
    if !tokens.is_empty() {
        tables.push_str("<table>\n<tr><th>Evaluator</th><th>Prompt tokens</th><th>Completion tokens</th><th>Total tokens</th></tr>\n");
        for (name, counts) in tokens {
            tables.push_str(&format!("<tr><td>{}</td>", escape(name)));
            for count in counts {
                tables.push_str(&format!("<td class=\"num\">{count}</td>"));
            }
            tables.push_str("</tr>\n");
        }
        tables.push_str("</table>\n");
    }
    tables
}

fn card(outcome: &CaseOutcome) -> String {
    let (status_class, status_text) = match outcome.status {
        Some(status) => (status.as_str(), status.as_str()),
        None => ("none", "no status"),
    };
    let mut card = format!(
        "<section class=\"card\">\n<h3>{} — <span class=\"{}\">{}</span></h3>\n",
        format::case_label(outcome.index, outcome.turn),
        status_class,
        status_text
    );
    if let Some(problem) = &outcome.problem {
        card.push_str(&format!(
            "<p class=\"problem\">Item could not be evaluated: {}</p>\n",
            escape(problem)
        ));
    }
    let review = outcome.review.as_deref();
    for note in review.map(format::review_notes).unwrap_or_default() {
        card.push_str(&format!("<p class=\"review\">{}</p>\n", escape(&note)));
    }
    if !outcome.results.is_empty() {
        card.push_str("<table>\n<tr><th>Evaluator</th><th>Result</th><th>Score</th><th>Threshold</th><th>Reason</th>");
        if review.is_some() {
            card.push_str("<th>Review</th>");
        }
        card.push_str("</tr>\n");
        for result in &outcome.results {
            let review = review.map(|review| review_cell(result, review));
            card.push_str(&result_row(result, review.as_deref().unwrap_or("")));
        }
        card.push_str("</table>\n");
    }
    card.push_str("</section>\n");
    card
}

/// A result's row of a card's table, `after` (more cells) at its end.
fn result_row(result: &EvalResult, after: &str) -> String {
    let verdict = result.result.as_str();
    let reason = match &result.error {
        Some(error) => format!(
            "<code>{}</code> {}",
            escape(error.code.as_str()),
            escape(&error.message)
        ),
        None => escape(result.reason.as_deref().unwrap_or("")),
    };
    let details = if result.details.is_empty() {
        String::new()
    } else {
        let json = serde_json::to_string_pretty(&result.details).unwrap_or_default();
        format!(
            "<details><summary>details</summary><pre>{}</pre></details>",
            escape(&json)
        )
    };
    format!(
        "<tr><td>{}</td><td class=\"{verdict}\">{verdict}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"reason\">{reason}{details}</td>{after}</tr>\n",
        escape(&result.evaluator),
        format::optional_number(result.score),
        format::optional_number(result.threshold),
    )
}

/// The reviewer's verdict on `result`, with who, when and why; empty when it has none.
fn review_cell(result: &EvalResult, review: &Review) -> String {
    match review.override_of(&result.evaluator) {
        Some(entry) => {
            let verdict = entry.verdict.as_str();
            let by: Vec<&str> = [entry.reviewer.as_deref(), entry.at.as_deref()]
                .into_iter()
                .flatten()
                .collect();
            let by = if by.is_empty() {
                String::new()
            } else {
                format!(" ({})", escape(&by.join(", ")))
            };
            format!(
                "<td class=\"reason\"><span class=\"{verdict}\">{verdict}</span>{by}: {}</td>",
                escape(&entry.comment)
            )
        }
        None => "<td></td>".to_owned(),
    }
}

/// HTML-escapes untrusted text for element content and quoted attributes; control characters
/// other than tab and line breaks are dropped.
pub(crate) fn escape(raw: &str) -> String {
    let mut escaped = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            '\t' | '\n' | '\r' => escaped.push(c),
            c if c.is_control() => {}
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::ErrorCode;
    use crate::status::ItemStatus;

    #[test]
    fn status_classes_cover_every_status() {
        for status in [
            ItemStatus::Pass,
            ItemStatus::Fail,
            ItemStatus::Partial,
            ItemStatus::Error,
        ] {
            assert!(STYLE.contains(&format!(".{}", status.as_str())));
        }
        let error = EvalResult::error("X", ErrorCode::EvaluatorError, "m");
        assert!(result_row(&error, "").contains("class=\"error\""));
    }
}
