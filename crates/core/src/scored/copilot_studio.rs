//! A Copilot Studio test set written back in the shape of the Evaluate tab's results export,
//! with agenteval's verdicts (`--format copilot`).
//!
//! Columns: `question`, `expectedResponse`, `actualResponse`, then per test method N
//! `testMethodType_N`, `result_N`, `passingScore_N`, `explanation_N`, `score_N`, then the input's
//! other columns in their order. N runs over the input's methods (and 1 when a row names none: it
//! gets the default, GeneralQuality). `result_N` is `Pass`, `Fail`, `Skipped` or `Error`;
//! `passingScore_N` the threshold applied as the input gave it (empty where none applies);
//! `explanation_N` the reason (the error message for errors; for a row that could not be read,
//! its problem); `score_N` the score, where the method has one. A run with reviews adds
//! `review_N` (the reviewer's `Pass` or `Fail`, beside `result_N`) and `reviewComment_N` to each
//! method's group, and `needsReview` (`true`/`false`) and `reviewComment` after the methods.
//!
//! RFC 4180, lines ending in CRLF; fields with a comma, quote, CR or LF are quoted. Every cell
//! that comes from the data or quotes it (the dataset's own cells, column names, `explanation_N`)
//! gets the CSV writer's formula guard: one starting with `=`, `+`, `-`, `@`, a tab or a CR is
//! written with a leading `'`, so a spreadsheet shows it as text instead of running it. Such a
//! cell reads back with its `'`, and writing the file again gives the same bytes. No IO.

use crate::dataset::copilot_studio::methods::{self, RowMethod};
use crate::dataset::copilot_studio::{CopilotStudioSet, Row};
use crate::outcome::{EvalResult, Verdict};
use crate::review::ReviewVerdict;

use crate::report::{csv, format, CaseOutcome, RunReport};

/// `set` with the results of `report` (its entries in row order), as CSV text.
pub fn write(set: &CopilotStudioSet, report: &RunReport) -> String {
    let numbers = method_numbers(set);
    let reviewed = report.items.iter().any(|outcome| outcome.review.is_some());
    let columns = &set.columns;
    let mut output = String::new();
    let mut header: Vec<String> = ["question", "expectedResponse", "actualResponse"]
        .iter()
        .map(|name| (*name).to_owned())
        .collect();
    for number in &numbers {
        for name in [
            "testMethodType_",
            "result_",
            "passingScore_",
            "explanation_",
            "score_",
        ] {
            header.push(format!("{name}{number}"));
        }
        if reviewed {
            header.extend(REVIEW_METHOD_COLUMNS.map(|name| format!("{name}{number}")));
        }
    }
    if reviewed {
        header.extend(REVIEW_ROW_COLUMNS.map(str::to_owned));
    }
    header.extend(
        columns
            .other
            .iter()
            .map(|&column| csv::text_cell(columns.names.get(column).map_or("", String::as_str))),
    );
    push_line(&mut output, &header);
    let mut outcomes = vec![None; set.rows.len()];
    for outcome in &report.items {
        if let Some(slot) = outcomes.get_mut(outcome.index) {
            *slot = Some(outcome);
        }
    }
    for (position, row) in set.rows.iter().enumerate() {
        let outcome = outcomes.get(position).copied().flatten();
        let mut cells = vec![
            csv::text_cell(row.field(columns.question)),
            csv::text_cell(row.optional(columns.expected_response).unwrap_or("")),
            csv::text_cell(row.optional(columns.actual_response).unwrap_or("")),
        ];
        let row_methods = match &row.problem {
            Some(_) => Vec::new(),
            None => methods::row_methods(columns, row),
        };
        let review = outcome.and_then(|outcome| outcome.review.as_deref());
        for number in &numbers {
            cells.extend(method_cells(set, row, &row_methods, outcome, *number));
            if reviewed {
                let method = row_methods.iter().find(|method| method.number == *number);
                let entry = method
                    .zip(review)
                    .and_then(|(method, review)| review.override_of(&method.label));
                cells.push(entry.map_or_else(String::new, |entry| {
                    review_verdict(entry.verdict).to_owned()
                }));
                cells.push(csv::text_cell(entry.map_or("", |entry| &entry.comment)));
            }
        }
        if reviewed {
            cells.push(if review.is_some_and(|review| review.needs_review) {
                "true".to_owned()
            } else {
                "false".to_owned()
            });
            cells.push(csv::text_cell(
                review
                    .and_then(|review| review.comment.as_deref())
                    .unwrap_or(""),
            ));
        }
        cells.extend(
            columns
                .other
                .iter()
                .map(|&column| csv::text_cell(row.field(column))),
        );
        push_line(&mut output, &cells);
    }
    output
}

/// N of every method column group to write: the input's, or 1 alone when it has none.
fn method_numbers(set: &CopilotStudioSet) -> Vec<u32> {
    let mut numbers: Vec<u32> = set
        .columns
        .methods
        .iter()
        .map(|method| method.number)
        .collect();
    if !numbers.contains(&1)
        && set.rows.iter().any(|row| {
            row.problem.is_none()
                && methods::row_methods(&set.columns, row)
                    .iter()
                    .any(|method| method.number == 1)
        })
    {
        numbers.insert(0, 1);
    }
    if numbers.is_empty() {
        numbers.push(1);
    }
    numbers
}

fn method_cells(
    set: &CopilotStudioSet,
    row: &Row,
    row_methods: &[RowMethod],
    outcome: Option<&CaseOutcome>,
    number: u32,
) -> [String; 5] {
    if let Some(problem) = &row.problem {
        let method_type = set
            .columns
            .methods
            .iter()
            .find(|method| method.number == number)
            .map_or("", |method| row.field(method.method_type));
        return [
            csv::text_cell(method_type),
            "Error".to_owned(),
            String::new(),
            csv::text_cell(problem),
            String::new(),
        ];
    }
    let Some(method) = row_methods.iter().find(|method| method.number == number) else {
        return Default::default();
    };
    let result = outcome.and_then(|outcome| {
        outcome
            .results
            .iter()
            .find(|result| result.evaluator == method.label)
    });
    let passing_score = set
        .columns
        .methods
        .iter()
        .find(|columns| columns.number == number)
        .and_then(|columns| row.optional(columns.passing_score))
        .unwrap_or("");
    let applies = result.is_some_and(|result| result.threshold.is_some());
    [
        csv::text_cell(&method.name),
        result.map_or_else(String::new, |result| verdict(result).to_owned()),
        if applies {
            csv::text_cell(passing_score.trim())
        } else {
            String::new()
        },
        csv::text_cell(result.map_or("", explanation)),
        csv::quote(&format::optional_number(
            result.and_then(|result| result.score),
        )),
    ]
}

/// The columns of a method's review, per method N, in a run with reviews.
const REVIEW_METHOD_COLUMNS: [&str; 2] = ["review_", "reviewComment_"];

/// The columns of a row's review, after the methods, in a run with reviews.
const REVIEW_ROW_COLUMNS: [&str; 2] = ["needsReview", "reviewComment"];

fn review_verdict(verdict: ReviewVerdict) -> &'static str {
    match verdict {
        ReviewVerdict::Pass => "Pass",
        ReviewVerdict::Fail => "Fail",
    }
}

fn verdict(result: &EvalResult) -> &'static str {
    match result.result {
        Verdict::Pass => "Pass",
        Verdict::Fail => "Fail",
        Verdict::Skipped => "Skipped",
        Verdict::Error => "Error",
    }
}

fn explanation(result: &EvalResult) -> &str {
    match (&result.error, &result.reason) {
        (Some(error), _) => error.message.as_str(),
        (None, Some(reason)) => reason.as_str(),
        (None, None) => "",
    }
}

fn push_line(output: &mut String, cells: &[String]) {
    output.push_str(&cells.join(","));
    output.push_str("\r\n");
}
