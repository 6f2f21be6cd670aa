//! Copilot Studio test sets: the CSV a test set is imported from (`question`, `expectedResponse`)
//! and the Evaluate tab's results export (`question`, `expectedResponse`, `actualResponse`, then
//! per test method N: `testMethodType_N`, `result_N`, `passingScore_N`, `explanation_N`; agenteval's
//! own export adds `score_N`). Recognised by a header row with a `question` column, never by the
//! file name.
//!
//! The header decides the columns; a header problem (no `question`, a column twice, a
//! `result_N` without its `testMethodType_N`) rejects the input. A record that cannot be read
//! (see [`csv`]), has another number of fields than the header, or has no question becomes an
//! entry of its own with that problem; the other rows are read and scored. The portal's limits
//! (100 questions, 1,000 characters each) are warnings. What each test method does is in
//! [`methods`].

use crate::diagnostic::{Diagnostic, InputError};
use crate::json::{Map, Value};

pub mod csv;
pub mod methods;
#[cfg(test)]
mod tests;

/// The most questions a test set takes in the Copilot Studio portal.
pub const PORTAL_MAX_QUESTIONS: usize = 100;
/// The most characters a question takes in the Copilot Studio portal.
pub const PORTAL_MAX_QUESTION_CHARS: usize = 1_000;

/// The columns of one test method N.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MethodColumns {
    /// N, as written in the column names.
    pub number: u32,
    /// 0-based position of `testMethodType_N`.
    pub method_type: usize,
    /// 0-based positions of `result_N`, `passingScore_N`, `explanation_N` and `score_N`, when present.
    pub result: Option<usize>,
    /// See `result`.
    pub passing_score: Option<usize>,
    /// See `result`.
    pub explanation: Option<usize>,
    /// See `result`.
    pub score: Option<usize>,
}

/// What the header row says each column holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Columns {
    /// The header's names, as written.
    pub names: Vec<String>,
    /// 0-based position of `question`.
    pub question: usize,
    /// 0-based position of `expectedResponse`, when present.
    pub expected_response: Option<usize>,
    /// 0-based position of `actualResponse`, when present.
    pub actual_response: Option<usize>,
    /// The test methods' columns, by N ascending.
    pub methods: Vec<MethodColumns>,
    /// Columns agenteval does not read, kept on writing back.
    pub other: Vec<usize>,
}

/// One data row: its fields, or the problem that makes it unusable.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// 1-based record number, the header being row 1 (as a spreadsheet numbers them).
    pub number: usize,
    /// 1-based line of the text where the row starts.
    pub line: usize,
    /// The fields, one per header column; for an unusable row, the fields that could be read.
    pub fields: Vec<String>,
    /// Why the row cannot be scored, naming its row and column.
    pub problem: Option<String>,
}

impl CopilotStudioSet {
    /// Data row `index` (0-based) as an object of its columns, named as in the header (for a
    /// row that could not be read, the columns read before the problem).
    pub fn row_object(&self, index: usize) -> Option<Map<String, Value>> {
        let row = self.rows.get(index)?;
        let mut object = Map::with_capacity(row.fields.len());
        for (name, field) in self.columns.names.iter().zip(&row.fields) {
            object.insert(name.trim().to_owned(), Value::from(field.as_str()));
        }
        Some(object)
    }
}

impl Row {
    /// Field `column` (0-based), or `""`.
    pub fn field(&self, column: usize) -> &str {
        self.fields.get(column).map_or("", String::as_str)
    }

    /// Field `column` when the column exists.
    pub fn optional(&self, column: Option<usize>) -> Option<&str> {
        column.map(|column| self.field(column))
    }
}

/// A Copilot Studio test set or results export, read.
#[derive(Debug, Clone, PartialEq)]
pub struct CopilotStudioSet {
    /// The header's columns.
    pub columns: Columns,
    /// The data rows, in order.
    pub rows: Vec<Row>,
}

pub use super::looks_like_copilot_studio;

/// Reads a test set or results export (BOM already stripped).
///
/// # Errors
/// When the text is not UTF-8 or its header row is unusable: each problem names the header's
/// column and what was expected. Problems of one row are in that row ([`Row::problem`]) and in
/// the returned diagnostics; warnings (the portal's limits, unknown columns) only there.
pub fn read(bytes: &[u8]) -> Result<(CopilotStudioSet, Vec<Diagnostic>), InputError> {
    let text = std::str::from_utf8(bytes).map_err(|error| {
        let (line, column) = position_of(bytes, error.valid_up_to());
        InputError::one(Diagnostic::at_line(
            line,
            column,
            "the CSV is not valid UTF-8; expected UTF-8 text (with or without a BOM)",
        ))
    })?;
    let mut records = csv::records(text).into_iter();
    let header = match records.next() {
        Some(Ok(header)) => header,
        Some(Err(bad)) => {
            return Err(InputError::one(Diagnostic::at_line(
                bad.at.0,
                bad.at.1,
                format!("header row, column {}: {}", bad.field, bad.message),
            )))
        }
        None => {
            return Err(InputError::one(Diagnostic::whole(
                "the CSV has no header row; expected question,expectedResponse[,actualResponse,testMethodType_1,…]",
            )))
        }
    };
    let mut diagnostics = Vec::new();
    let columns = columns(&header, &mut diagnostics)?;
    let rows: Vec<Row> = records
        .enumerate()
        .map(|(position, record)| row(&columns, position + 2, record, &mut diagnostics))
        .collect();
    if rows.is_empty() {
        return Err(InputError::one(Diagnostic::whole(
            "the CSV has a header row but no questions; expected a row per question after the header",
        )));
    }
    if rows.len() > PORTAL_MAX_QUESTIONS {
        diagnostics.push(
            Diagnostic::whole(format!(
                "{} questions; the Copilot Studio portal takes at most {PORTAL_MAX_QUESTIONS} per test set (all are scored here)",
                rows.len()
            ))
            .warning(),
        );
    }
    Ok((CopilotStudioSet { columns, rows }, diagnostics))
}

/// The 1-based line and character column of byte offset `at`.
fn position_of(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = bytes.get(..at).unwrap_or(bytes);
    let line_start = before
        .iter()
        .rposition(|byte| *byte == b'\n')
        .map_or(0, |newline| newline + 1);
    let line = before.iter().filter(|byte| **byte == b'\n').count() + 1;
    let column = String::from_utf8_lossy(before.get(line_start..).unwrap_or(&[]))
        .chars()
        .count()
        + 1;
    (line, column)
}

/// The kinds of per-method column, by name prefix.
const METHOD_PREFIXES: [&str; 5] = [
    "testMethodType_",
    "result_",
    "passingScore_",
    "explanation_",
    "score_",
];

fn columns(header: &csv::Record, diagnostics: &mut Vec<Diagnostic>) -> Result<Columns, InputError> {
    let mut problems = Vec::new();
    let mut columns = Columns {
        names: header.fields.clone(),
        ..Columns::default()
    };
    let mut question = None;
    let mut per_method: Vec<(u32, usize, usize)> = Vec::new();
    let mut seen = std::collections::HashSet::with_capacity(header.fields.len());
    let mut unknown = Vec::new();
    for (position, raw) in header.fields.iter().enumerate() {
        let name = raw.trim();
        let at = |message: String| {
            Diagnostic::at_line(
                header.line,
                1,
                format!("header row, column {} ({name}): {message}", position + 1),
            )
        };
        if !seen.insert(name) {
            problems.push(at(
                "the column appears twice; expected each column once".to_owned()
            ));
            continue;
        }
        match name {
            "question" => question = Some(position),
            "expectedResponse" => columns.expected_response = Some(position),
            "actualResponse" => columns.actual_response = Some(position),
            _ => match method_column(name) {
                Some(Ok((kind, number))) => per_method.push((number, kind, position)),
                Some(Err(message)) => problems.push(at(message)),
                None => {
                    unknown.push(position);
                    columns.other.push(position);
                }
            },
        }
    }
    diagnostics.extend(unknown_columns(header, &unknown));
    for &(number, kind, position) in &per_method {
        if kind == 0 {
            columns.methods.push(MethodColumns {
                number,
                method_type: position,
                ..MethodColumns::default()
            });
        }
    }
    columns.methods.sort_by_key(|method| method.number);
    for (number, kind, position) in per_method {
        let found = columns
            .methods
            .binary_search_by_key(&number, |method| method.number)
            .ok()
            .and_then(|at| columns.methods.get_mut(at));
        let Some(method) = found else {
            let name = header.fields.get(position).map_or("", |name| name.trim());
            problems.push(Diagnostic::at_line(
                header.line,
                1,
                format!("header row, column {} ({name}): there is no testMethodType_{number} column; expected testMethodType_{number} beside its result_{number}, passingScore_{number} and explanation_{number}", position + 1),
            ));
            continue;
        };
        match kind {
            1 => method.result = Some(position),
            2 => method.passing_score = Some(position),
            3 => method.explanation = Some(position),
            4 => method.score = Some(position),
            _ => {}
        }
    }
    match question {
        Some(question) => columns.question = question,
        None => problems.push(Diagnostic::at_line(
            header.line,
            1,
            format!(
                "header row: no question column (the header is {}); expected question,expectedResponse[,actualResponse,testMethodType_1,result_1,passingScore_1,explanation_1,…]",
                header.fields.join(",")
            ),
        )),
    }
    if problems.is_empty() {
        Ok(columns)
    } else {
        Err(InputError {
            diagnostics: problems,
        })
    }
}

/// What an unknown column's warning expects instead.
const UNKNOWN_COLUMN: &str = "kept as it is and not read (expected question, expectedResponse, \
     actualResponse, testMethodType_N, result_N, passingScore_N, explanation_N or score_N)";

/// The warnings for the unknown columns at `positions`: one each for up to three, else one that
/// counts them and names the first three.
fn unknown_columns(header: &csv::Record, positions: &[usize]) -> Vec<Diagnostic> {
    let name = |position: usize| header.fields.get(position).map_or("", |name| name.trim());
    if positions.len() <= 3 {
        return positions
            .iter()
            .map(|&position| {
                Diagnostic::at_line(
                    header.line,
                    1,
                    format!(
                        "header row, column {} ({}): an unknown column; it is {UNKNOWN_COLUMN}",
                        position + 1,
                        name(position)
                    ),
                )
                .warning()
            })
            .collect();
    }
    let first: Vec<&str> = positions
        .iter()
        .take(3)
        .map(|&position| name(position))
        .collect();
    vec![Diagnostic::at_line(
        header.line,
        1,
        format!(
            "header row: {} unknown columns: {}, …; they are {UNKNOWN_COLUMN}",
            positions.len(),
            first.join(", ")
        ),
    )
    .warning()]
}

/// `testMethodType_3` → `(0, 3)`; `None` for a name of no method column; an error for a method
/// column whose N is not a positive whole number.
fn method_column(name: &str) -> Option<Result<(usize, u32), String>> {
    METHOD_PREFIXES
        .iter()
        .enumerate()
        .find_map(|(kind, prefix)| Some((kind, name.strip_prefix(prefix)?)))
        .map(|(kind, number)| match number.parse::<u32>() {
            Ok(number) if number > 0 => Ok((kind, number)),
            _ => Err(format!(
                "expected a test method number (1, 2, …) after the underscore, got \"{number}\""
            )),
        })
}

fn row(
    columns: &Columns,
    number: usize,
    record: Result<csv::Record, csv::BadRecord>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Row {
    let width = columns.names.len();
    let record = match record {
        Ok(record) => record,
        Err(bad) => {
            let message = format!(
                "row {number}, column {}{}: {}",
                bad.field,
                column_name(columns, bad.field),
                bad.message
            );
            diagnostics.push(Diagnostic::at_line(bad.at.0, bad.at.1, message.clone()));
            return Row {
                number,
                line: bad.line,
                fields: bad.fields,
                problem: Some(message),
            };
        }
    };
    let mut row = Row {
        number,
        line: record.line,
        fields: record.fields,
        problem: None,
    };
    let problem = if row.fields.len() < width {
        let column = row.fields.len() + 1;
        Some(format!(
            "row {number}, column {column}{}: missing; the row has {} fields, expected {width} as the header has (a ragged row)",
            column_name(columns, column),
            row.fields.len()
        ))
    } else if row.fields.len() > width {
        Some(format!(
            "row {number}, column {}: a field past the header's {width} columns; the row has {} fields, expected {width} (a ragged row)",
            width + 1,
            row.fields.len()
        ))
    } else if row.field(columns.question).trim().is_empty() {
        Some(format!(
            "row {number}, column {} (question): empty; expected the question the agent was asked",
            columns.question + 1
        ))
    } else {
        None
    };
    if let Some(message) = problem {
        diagnostics.push(Diagnostic::at_line(row.line, 1, message.clone()));
        row.problem = Some(message);
        return row;
    }
    let question_chars = row.field(columns.question).chars().count();
    if question_chars > PORTAL_MAX_QUESTION_CHARS {
        diagnostics.push(
            Diagnostic::at_line(
                row.line,
                1,
                format!(
                    "row {number}, column {} (question): {question_chars} characters; the Copilot Studio portal takes at most {PORTAL_MAX_QUESTION_CHARS} (scored here all the same)",
                    columns.question + 1
                ),
            )
            .warning(),
        );
    }
    for method in &columns.methods {
        if let Some(Err(message)) = methods::passing_score(&row, method) {
            diagnostics.push(Diagnostic::at_line(row.line, 1, message));
        }
    }
    row
}

/// ` (name)` of 1-based column `field`, or nothing past the header's width.
fn column_name(columns: &Columns, field: usize) -> String {
    field
        .checked_sub(1)
        .and_then(|position| columns.names.get(position))
        .map(|name| format!(" ({})", name.trim()))
        .unwrap_or_default()
}
