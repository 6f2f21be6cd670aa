//! CSV output: one row per single-turn item or thread turn.
//!
//! Columns: `index`, `turn` (empty for single-turn items), `status`, `problem`, then one group per
//! evaluator in first-seen order across the run: `<name>.result`, `<name>.score`,
//! `<name>.threshold`, `<name>.reason`, `<name>.error_code`. An evaluator that did not run on a row
//! leaves its group empty. `<name>.reason` holds the error message for errors.
//!
//! A run with reviews has more columns: `needs_review` (`true`/`false`) and `review_comment` after
//! `problem`, and at the end of each evaluator's group `<name>.review` (the reviewer's `pass` or
//! `fail`, beside the evaluator's own `<name>.result`), `<name>.review_comment`,
//! `<name>.reviewer` and `<name>.reviewed_at`. A run without reviews has none of these columns.
//!
//! RFC 4180: fields with a comma, quote, CR or LF are quoted (quotes doubled); lines end in CRLF.
//! Dataset and agent text is untrusted, so every text cell that starts with `=`, `+`, `-`, `@`,
//! tab or CR gets a leading `'` to stop spreadsheets from running it as a formula (OWASP "CSV
//! injection"). Numbers written by agenteval are not altered. No IO.

use crate::outcome::EvalResult;
use crate::review::Override;

use super::format;
use super::RunReport;

const COLUMNS_PER_EVALUATOR: [&str; 5] = ["result", "score", "threshold", "reason", "error_code"];

/// The columns of an evaluator's review, in a run with reviews.
const REVIEW_COLUMNS_PER_EVALUATOR: [&str; 4] =
    ["review", "review_comment", "reviewer", "reviewed_at"];

/// The report as CSV text.
pub fn write(report: &RunReport) -> String {
    let names = evaluator_names(report);
    let reviewed = report.items.iter().any(|outcome| outcome.review.is_some());
    let mut output = String::new();
    let mut header: Vec<String> = ["index", "turn", "status", "problem"]
        .iter()
        .map(|column| text_cell(column))
        .collect();
    if reviewed {
        header.extend(["needs_review", "review_comment"].map(text_cell));
    }
    for name in &names {
        for column in COLUMNS_PER_EVALUATOR {
            header.push(text_cell(&format!("{name}.{column}")));
        }
        if reviewed {
            for column in REVIEW_COLUMNS_PER_EVALUATOR {
                header.push(text_cell(&format!("{name}.{column}")));
            }
        }
    }
    push_line(&mut output, &header);
    for outcome in &report.items {
        let mut cells = vec![
            outcome.index.to_string(),
            outcome
                .turn
                .map(|turn| turn.to_string())
                .unwrap_or_default(),
            text_cell(outcome.status.map_or("", |status| status.as_str())),
            text_cell(outcome.problem.as_deref().unwrap_or("")),
        ];
        let review = outcome.review.as_deref();
        if reviewed {
            cells.push(review.is_some_and(|review| review.needs_review).to_string());
            cells.push(text_cell(
                review
                    .and_then(|review| review.comment.as_deref())
                    .unwrap_or(""),
            ));
        }
        for name in &names {
            match outcome
                .results
                .iter()
                .find(|result| result.evaluator == *name)
            {
                Some(result) => cells.extend(result_cells(result)),
                None => cells.extend(vec![String::new(); COLUMNS_PER_EVALUATOR.len()]),
            }
            if reviewed {
                cells.extend(override_cells(
                    review.and_then(|review| review.override_of(name)),
                ));
            }
        }
        push_line(&mut output, &cells);
    }
    output
}

/// Evaluator names in first-seen order across the run.
fn evaluator_names(report: &RunReport) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for result in report.items.iter().flat_map(|outcome| &outcome.results) {
        if !names.contains(&result.evaluator) {
            names.push(result.evaluator.clone());
        }
    }
    names
}

fn result_cells(result: &EvalResult) -> [String; 5] {
    let reason = match (&result.error, &result.reason) {
        (Some(error), _) => error.message.as_str(),
        (None, Some(reason)) => reason.as_str(),
        (None, None) => "",
    };
    [
        text_cell(result.result.as_str()),
        quote(&format::optional_number(result.score)),
        quote(&format::optional_number(result.threshold)),
        text_cell(reason),
        text_cell(
            result
                .error
                .as_ref()
                .map_or("", |error| error.code.as_str()),
        ),
    ]
}

fn override_cells(entry: Option<&Override>) -> [String; 4] {
    let Some(entry) = entry else {
        return Default::default();
    };
    [
        text_cell(entry.verdict.as_str()),
        text_cell(&entry.comment),
        text_cell(entry.reviewer.as_deref().unwrap_or("")),
        text_cell(entry.at.as_deref().unwrap_or("")),
    ]
}

fn push_line(output: &mut String, cells: &[String]) {
    output.push_str(&cells.join(","));
    output.push_str("\r\n");
}

/// An untrusted text cell: formula triggers neutralised, then quoted as needed.
pub(crate) fn text_cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        quote(&format!("'{text}"))
    } else {
        quote(text)
    }
}

/// RFC 4180 quoting.
pub(crate) fn quote(text: &str) -> String {
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_triggers_get_a_quote_prefix() {
        for (raw, cell) in [
            ("=1+1", "'=1+1"),
            ("+1", "'+1"),
            ("-1", "'-1"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "\"'\rx\""),
            ("a=b", "a=b"),
            ("", ""),
        ] {
            assert_eq!(text_cell(raw), cell, "{raw:?}");
        }
    }

    #[test]
    fn rfc_4180_quoting() {
        assert_eq!(quote("plain"), "plain");
        assert_eq!(quote("a,b"), "\"a,b\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quote("two\nlines"), "\"two\nlines\"");
    }
}
