use super::csv::{records, BadRecord, Record};
use super::*;
use crate::dataset::{load, Dataset};
use crate::diagnostic::{Location, Severity};

fn fields(record: &Result<Record, BadRecord>) -> Vec<&str> {
    match record {
        Ok(record) => record.fields.iter().map(String::as_str).collect(),
        Err(bad) => panic!("expected a record, got {bad:?}"),
    }
}

fn set(text: &str) -> (CopilotStudioSet, Vec<Diagnostic>) {
    match load(text.as_bytes(), None) {
        Ok(loaded) => match loaded.dataset {
            Dataset::CopilotStudio(set) => (set, loaded.diagnostics),
            other => panic!("expected a Copilot Studio set, got {:?}", other.dialect()),
        },
        Err(error) => panic!("expected a set, got {:?}", error.diagnostics),
    }
}

fn rejected(text: &str) -> Vec<String> {
    match load(text.as_bytes(), None) {
        Ok(loaded) => panic!("expected an error, got {:?}", loaded.diagnostics),
        Err(error) => error
            .diagnostics
            .into_iter()
            .map(|diagnostic| diagnostic.describe())
            .collect(),
    }
}

#[test]
fn crlf_and_lf_read_the_same() {
    let lf = records("a,b\nc,d\n");
    let crlf = records("a,b\r\nc,d\r\n");
    assert_eq!(lf, crlf);
    assert_eq!(fields(&lf[1]), ["c", "d"]);
    assert_eq!(fields(&records("a,b\r\nc,d")[1]), ["c", "d"]);
}

#[test]
fn quoted_fields_hold_commas_quotes_and_line_breaks() {
    let read = records("q,e\n\"a, \"\"b\"\"\r\nc\",\"\"\nnext,\"x\"\n");
    assert_eq!(fields(&read[1]), ["a, \"b\"\r\nc", ""]);
    assert_eq!(fields(&read[2]), ["next", "x"]);
    let Ok(next) = &read[2] else {
        panic!("expected a record")
    };
    assert_eq!(next.line, 4);
}

#[test]
fn empty_lines_are_skipped_and_empty_fields_kept() {
    let read = records("a,b\n\n,\n\r\nc,\n");
    assert_eq!(read.len(), 3);
    assert_eq!(fields(&read[1]), ["", ""]);
    assert_eq!(fields(&read[2]), ["c", ""]);
}

#[test]
fn an_unbalanced_quote_loses_only_its_row() {
    let read = records("a,b\n\"open,b\nc,d\n");
    let Err(bad) = &read[1] else {
        panic!("expected a bad record")
    };
    assert_eq!((bad.line, bad.field, bad.at), (2, 1, (2, 1)));
    assert!(
        bad.message.starts_with("unbalanced quote"),
        "{}",
        bad.message
    );
    assert_eq!(fields(&read[2]), ["c", "d"]);
}

#[test]
fn a_quote_paired_across_rows_is_caught_and_the_rows_after_it_kept() {
    let read = records("a,b\nx,\"open\ny,z\n\"w\"v,u\nlast,1\n");
    let Err(bad) = &read[1] else {
        panic!("expected a bad record")
    };
    assert_eq!(bad.field, 2);
    assert!(
        bad.message
            .contains("text after its closing quote (line 4, column 2)"),
        "{}",
        bad.message
    );
    assert_eq!(bad.at, (2, 3));
    assert_eq!(fields(&read[2]), ["y", "z"]);
    assert!(read[3].is_err());
    assert_eq!(fields(&read[4]), ["last", "1"]);
}

#[test]
fn a_quote_inside_an_unquoted_field_names_its_column() {
    let read = records("a,b\nx,y\"z\nok,1\n");
    let Err(bad) = &read[1] else {
        panic!("expected a bad record")
    };
    assert_eq!((bad.field, bad.at), (2, (2, 4)));
    assert_eq!(fields(&read[2]), ["ok", "1"]);
}

#[test]
fn sniffed_from_the_header_with_or_without_a_bom() {
    let (plain, _) = set("question,expectedResponse\nq,e\n");
    let (bom, _) = set("\u{feff}question,expectedResponse\r\nq,e\r\n");
    assert_eq!(plain, bom);
    assert_eq!(plain.rows[0].fields, ["q", "e"]);
    assert!(!looks_like_copilot_studio(b"prompt,response\n"));
}

#[test]
fn header_problems_name_their_column() {
    let twice = rejected("question,question\nq,q\n");
    assert_eq!(
        twice,
        ["line 1, column 1: header row, column 2 (question): the column appears twice; expected each column once"]
    );
    let orphan = rejected("question,result_2\nq,Pass\n");
    assert!(orphan[0].contains("column 2 (result_2): there is no testMethodType_2 column"));
    let number = rejected("question,testMethodType_x\nq,ExactMatch\n");
    assert!(number[0].contains("column 2 (testMethodType_x): expected a test method number"));
    let empty = rejected("question,expectedResponse\n");
    assert!(empty[0].contains("no questions"));
}

#[test]
fn every_bad_row_is_an_entry_naming_row_and_column_and_no_other_row_is_lost() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/copilot-studio/bad.csv"
    ))
    .unwrap_or_default();
    let (set, diagnostics) = set(&text);
    let problems: Vec<Option<&str>> = set.rows.iter().map(|row| row.problem.as_deref()).collect();
    assert_eq!(problems.len(), 8);
    assert_eq!(problems[0], None);
    assert!(problems[1].is_some_and(
        |p| p.starts_with("row 3, column 2 (expectedResponse): the quoted field that starts here has text after its closing quote (line 7, column 4)")
    ));
    assert_eq!(problems[2], None);
    assert_eq!(problems[3], Some("row 5, column 3 (actualResponse): missing; the row has 2 fields, expected 4 as the header has (a ragged row)"));
    assert_eq!(problems[4], Some("row 6, column 5: a field past the header's 4 columns; the row has 5 fields, expected 4 (a ragged row)"));
    assert!(problems[5].is_some_and(
        |p| p.starts_with("row 7, column 1 (question): a quote inside an unquoted field")
    ));
    assert_eq!(
        problems[6],
        Some("row 8, column 1 (question): empty; expected the question the agent was asked")
    );
    assert_eq!(set.rows.last().map(|row| row.field(0)), Some("Eighth"));
    let errors = diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .count();
    assert_eq!(errors, 5);
}

#[test]
fn portal_limits_are_warnings() {
    let long = "x".repeat(PORTAL_MAX_QUESTION_CHARS + 1);
    let mut text = format!("question\n{long}\n");
    for index in 0..PORTAL_MAX_QUESTIONS {
        text.push_str(&format!("q{index}\n"));
    }
    let (set, diagnostics) = set(&text);
    assert_eq!(set.rows.len(), PORTAL_MAX_QUESTIONS + 1);
    assert!(diagnostics.iter().all(|d| d.severity == Severity::Warning));
    assert_eq!(diagnostics.len(), 3);
    assert!(diagnostics[2]
        .message
        .starts_with("no actualResponse column"));
    assert!(diagnostics[0].message.contains("1001 characters"));
    assert!(matches!(
        diagnostics[0].location,
        Location::LineColumn { line: 2, .. }
    ));
    assert!(diagnostics[1].message.contains("101 questions"));
}

#[test]
fn a_row_as_an_object_of_its_columns() {
    let (set, _) = set("question, expectedResponse\nq,e\nr\n");
    let first = set.row_object(0).unwrap_or_default();
    let names: Vec<&str> = first.keys().map(String::as_str).collect();
    assert_eq!(names, ["question", "expectedResponse"]);
    assert_eq!(
        first
            .get("expectedResponse")
            .and_then(|value| value.as_str()),
        Some("e")
    );
    assert_eq!(set.row_object(1).map(|object| object.len()), Some(1));
    assert_eq!(set.row_object(2), None);
}

#[test]
fn many_unknown_columns_are_counted_in_one_warning() {
    let extra: Vec<String> = (0..40_000).map(|n| format!("c{n}")).collect();
    let text = format!(
        "question,expectedResponse,{}\nq,a,{}\n",
        extra.join(","),
        vec!["x"; extra.len()].join(",")
    );
    let (wide, diagnostics) = set(&text);
    assert_eq!(wide.columns.other.len(), 40_000);
    let warnings: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|diagnostic| {
            diagnostic.severity == Severity::Warning
                && !diagnostic.message.starts_with("no actualResponse column")
        })
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .message
            .starts_with("header row: 40000 unknown columns: c0, c1, c2, …; they are kept"),
        "{}",
        warnings[0].message
    );
    let (_, few) = set("question,expectedResponse,actualResponse,notes\nq,a,r,n\n");
    assert_eq!(few.len(), 1);
    assert!(
        few[0]
            .message
            .contains("column 4 (notes): an unknown column"),
        "{}",
        few[0].message
    );
    let duplicated = rejected("question,question,expectedResponse\nq,q,a\n");
    assert!(
        duplicated
            .iter()
            .any(|message| message.contains("the column appears twice")),
        "{duplicated:?}"
    );
}

#[test]
fn keywords_split_on_commas_semicolons_and_line_breaks() {
    assert_eq!(methods::keywords("a, b;c\nd ,, "), ["a", "b", "c", "d"]);
}
