//! Opening a dataset that already carries its results as a run report, without scoring it again:
//! an M365 eval document with its output fields filled in (as `agenteval score --format document`
//! writes it, or any tool writing the schema's `scores`, `status` and `error`), and the results
//! JSON older runevals releases wrote (`individual_results` + `aggregate_statistics`).
//!
//! The dialect is recognised from the content, never from a name. Verdicts, scores, thresholds,
//! reasons, details and error codes are taken as stored; the summary is the one a fresh run
//! computes ([`RunReport::push`]). What the two readers map, field by field, is in [`m365`] and
//! [`runevals`]. A stored result that cannot be read becomes an `error` result with code
//! `invalidStoredResult`, naming its JSON pointer and what was expected, with the stored value in
//! its details under `stored`; an item or turn that cannot be read becomes an entry with status
//! `error` and a `problem` saying where and why. The other items are always kept. Input that
//! carries no results at all is refused with [`ReadError::NotScored`], so that the caller scores
//! it instead.
//!
//! It decides no verdict. The only status it derives is that of an entry that stores none (M365
//! rules, [`crate::status::item_status`]). No IO.

pub mod m365;
pub mod runevals;

use crate::dataset;
use crate::diagnostic::{Diagnostic, InputError};
use crate::json::{self, Value};
use crate::outcome::{ErrorCode, EvalResult};
use crate::schema::{self, got};
use crate::status::ItemStatus;

use crate::report::{CaseOutcome, Dialect, RunReport};

/// What the readers look for, closing the message of [`ReadError::NotScored`].
const LOOKED_FOR: &str = "expected an M365 eval document whose items or turns carry `scores` or \
`status` (as `agenteval score --format document` writes it), or runevals results JSON \
(`individual_results`); score the dataset instead";

/// Why a dataset could not be opened as a report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The input is a dataset that carries no results (an unscored document, Foundry rows…):
    /// the caller should score it.
    #[error("{}", .0.describe())]
    NotScored(Diagnostic),
    /// The input cannot be read: not JSON, or its results are not where they belong.
    #[error("{0}")]
    Invalid(InputError),
}

impl ReadError {
    /// The problems found, as diagnostics.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            ReadError::NotScored(diagnostic) => std::slice::from_ref(diagnostic),
            ReadError::Invalid(error) => &error.diagnostics,
        }
    }
}

/// The run report a scored dataset carries, read from its text (UTF-8, a leading byte-order mark
/// skipped): a scored M365 eval document or runevals results JSON.
///
/// # Errors
/// [`ReadError::NotScored`] when the input is a dataset without results (an unscored M365
/// document, a legacy prompt list, Foundry rows, JSON Lines), naming what was looked for;
/// [`ReadError::Invalid`] for empty input, a JSON syntax error (at its line and column), or
/// `items`/`individual_results` that are not arrays (at their JSON pointer).
pub fn read_report(bytes: &[u8]) -> Result<RunReport, ReadError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ReadError::Invalid(InputError::one(Diagnostic::whole(
            format!("the input is empty; {LOOKED_FOR}"),
        ))));
    }
    match json::parse_dataset(bytes) {
        Ok(value) => read_report_value(value),
        Err(_) if dataset::looks_like_jsonl(bytes) => Err(not_scored(
            Diagnostic::whole(""),
            "it is JSON Lines (Foundry rows)",
        )),
        Err(syntax_error) => Err(ReadError::Invalid(InputError::one(syntax_error))),
    }
}

/// [`read_report`] over an already-parsed value.
///
/// # Errors
/// As [`read_report`].
pub fn read_report_value(mut value: Value) -> Result<RunReport, ReadError> {
    schema::drop_repeated_keys(&mut value);
    let Value::Object(mut root) = value else {
        let found = if dataset::is_foundry_rows(&value) {
            "it is Foundry rows".to_owned()
        } else if value.as_array().is_some_and(|rows| is_prompt_list(rows)) {
            "it is a legacy M365 prompt list".to_owned()
        } else {
            got(&value)
        };
        return Err(not_scored(Diagnostic::whole(""), found));
    };
    if let Some(results) = root.shift_remove("individual_results") {
        return match results {
            Value::Array(entries) => Ok(report(runevals::read(entries))),
            other => Err(invalid(
                "/individual_results",
                format!("expected the array of runevals results, {}", got(&other)),
            )),
        };
    }
    match root.shift_remove("items") {
        Some(Value::Array(items)) if m365::is_scored(&items) => Ok(report(m365::read(items))),
        Some(Value::Array(_)) => Err(not_scored(
            Diagnostic::at_pointer("/items", ""),
            "no item or turn has `scores` or `status`",
        )),
        Some(other) => Err(invalid(
            "/items",
            format!("expected the array of items, {}", got(&other)),
        )),
        None => Err(not_scored(
            Diagnostic::whole(""),
            describe_object(&Value::Object(root)),
        )),
    }
}

/// The report of `outcomes`, its summary computed as a run computes it.
fn report(outcomes: Vec<CaseOutcome>) -> RunReport {
    let mut report = RunReport::new(Dialect::M365);
    report.items.reserve_exact(outcomes.len());
    for outcome in outcomes {
        report.push(outcome);
    }
    report
}

/// What an object without `items` or `individual_results` is, for [`ReadError::NotScored`].
fn describe_object(root: &Value) -> &'static str {
    if root.get("prompts").is_some() {
        "it is a legacy M365 prompt list (`prompts`)"
    } else if dataset::is_foundry_rows(root) {
        "it is Foundry rows"
    } else {
        "it is an object without `items` or `individual_results`"
    }
}

/// An array of objects with a `prompt`: the legacy M365 form.
fn is_prompt_list(rows: &[Value]) -> bool {
    !rows.is_empty()
        && rows.iter().all(|row| {
            row.as_object()
                .is_some_and(|fields| fields.contains_key("prompt"))
        })
}

fn not_scored(mut diagnostic: Diagnostic, found: impl std::fmt::Display) -> ReadError {
    diagnostic.message = format!("the dataset carries no scores ({found}); {LOOKED_FOR}");
    ReadError::NotScored(diagnostic)
}

fn invalid(pointer: &str, message: String) -> ReadError {
    ReadError::Invalid(InputError::one(Diagnostic::at_pointer(pointer, message)))
}

/// An entry for an item or turn that could not be read: status `error`, no results.
fn unreadable(index: usize, turn: Option<usize>, problem: String) -> CaseOutcome {
    CaseOutcome {
        index,
        turn,
        status: Some(ItemStatus::Error),
        results: Vec::new(),
        problem: Some(problem),
        review: None,
    }
}

/// The `invalidStoredResult` error of a stored result that cannot be read: `at {pointer}:
/// {expected}`, the stored value kept in the details under `stored`.
fn invalid_result(evaluator: &str, pointer: &str, expected: &str, stored: Value) -> EvalResult {
    EvalResult::error(
        evaluator,
        ErrorCode::InvalidStoredResult,
        format!("at {pointer}: {expected}"),
    )
    .with_detail("stored", stored)
}

/// Whether `result` is an [`invalid_result`].
fn is_invalid(result: &EvalResult) -> bool {
    result
        .error
        .as_ref()
        .is_some_and(|error| error.code == ErrorCode::InvalidStoredResult)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Location;
    use crate::outcome::Verdict;
    use crate::test_rng::XorShift;

    fn not_scored_message(text: &str) -> String {
        match read_report(text.as_bytes()) {
            Err(ReadError::NotScored(diagnostic)) => diagnostic.describe(),
            other => panic!("{text}: expected NotScored, got {other:?}"),
        }
    }

    #[test]
    fn datasets_without_results_are_not_scored_and_the_message_says_what_was_looked_for() {
        let unscored = r#"{"schemaVersion": "1.6.0", "items": [{"prompt": "p", "response": "r"},
            {"turns": [{"prompt": "t"}]}]}"#;
        let message = not_scored_message(unscored);
        assert!(
            message.starts_with("at /items: the dataset carries no scores (no item or turn has `scores` or `status`); expected an M365 eval document"),
            "{message}"
        );
        assert!(message.contains("`individual_results`"), "{message}");
        assert!(message.ends_with("score the dataset instead"), "{message}");
        for (text, found) in [
            (
                "{\"query\": \"q\", \"response\": \"r\"}\n{\"query\": \"q2\", \"response\": \"r\"}\n",
                "(it is JSON Lines (Foundry rows))",
            ),
            (
                r#"[{"query": "q", "response": "r"}]"#,
                "(it is Foundry rows)",
            ),
            (
                r#"{"testing_criteria": [], "data": [{"query": "q"}]}"#,
                "(it is Foundry rows)",
            ),
            (
                r#"[{"prompt": "p", "expected_response": "e"}]"#,
                "(it is a legacy M365 prompt list)",
            ),
            (
                r#"{"prompts": [{"prompt": "p"}]}"#,
                "(it is a legacy M365 prompt list (`prompts`))",
            ),
            (
                r#"{"name": "x"}"#,
                "(it is an object without `items` or `individual_results`)",
            ),
            ("42", "(got an integer (42))"),
            (r#"{"schemaVersion": "1.0.0", "items": []}"#, "(no item"),
        ] {
            let message = not_scored_message(text);
            assert!(message.contains(found), "{text}: {message}");
        }
    }

    #[test]
    fn unreadable_input_is_invalid_at_its_place() {
        let located = |text: &str| match read_report(text.as_bytes()) {
            Err(ReadError::Invalid(error)) => error.diagnostics[0].clone(),
            other => panic!("{text}: expected Invalid, got {other:?}"),
        };
        let syntax = located("{\"items\": [1,");
        assert!(
            matches!(syntax.location, Location::LineColumn { line: 1, .. }),
            "{syntax:?}"
        );
        let items = located(r#"{"items": {"a": 1}}"#);
        assert_eq!(
            items.describe(),
            "at /items: expected the array of items, got an object"
        );
        let results = located(r#"{"individual_results": "none", "aggregate_statistics": {}}"#);
        assert_eq!(
            results.describe(),
            "at /individual_results: expected the array of runevals results, got \"none\""
        );
        assert!(located("  \n").message.starts_with("the input is empty"));
    }

    #[test]
    fn a_byte_order_mark_and_repeated_keys_are_read_as_the_scorer_reads_them() {
        let text = "\u{feff}{\"schemaVersion\": \"1.9.0\", \"items\": [{\"prompt\": \"p\", \"response\": \"r\",
            \"scores\": {\"partialMatch\": {\"score\": 0.2, \"result\": \"fail\", \"threshold\": 0.5},
                         \"partialMatch\": {\"score\": 0.9, \"result\": \"pass\", \"threshold\": 0.5}},
            \"status\": \"pass\"}]}";
        let report = read_report(text.as_bytes()).unwrap();
        let results = &report.items[0].results;
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].result, Verdict::Pass);
        assert_eq!(results[0].score, Some(0.9));
    }

    /// Texts close to the readers' inputs, with random bytes changed, cut or repeated.
    fn mutations(seed: u64, texts: &[&str], count: usize) -> Vec<Vec<u8>> {
        let mut rng = XorShift::new(seed);
        let alphabet = b"{}[]\":,0123456789.-eE ntfaluesr\\/x";
        (0..count)
            .map(|_| {
                let mut bytes = texts[rng.below(texts.len())].as_bytes().to_vec();
                for _ in 0..1 + rng.below(4) {
                    let at = rng.below(bytes.len().max(1));
                    match rng.below(3) {
                        0 => {
                            if let Some(byte) = bytes.get_mut(at) {
                                *byte = alphabet[rng.below(alphabet.len())];
                            }
                        }
                        1 => bytes.truncate(at),
                        _ => {
                            let end = (at + rng.below(40)).min(bytes.len());
                            let copy = bytes[at..end].to_vec();
                            bytes.splice(at..at, copy);
                        }
                    }
                }
                bytes
            })
            .collect()
    }

    #[test]
    fn no_input_makes_it_panic_and_every_item_is_kept() {
        let texts = [
            r#"{"schemaVersion": "1.11.0", "items": [
                {"prompt": "p", "response": "r", "scores": {"exactMatch": {"match": true, "result": "pass"},
                 "citations": {"count": 2, "result": "pass", "threshold": 1, "format": "bracket"},
                 "relevance": {"result": "error", "error": "judge down", "code": "judgeTimeout"}},
                 "status": "partial", "error": {"code": "evaluatorsFailed", "message": "m"},
                 "extensions": {"review": {"needs_review": true, "comment": "c", "overrides": [
                    {"evaluator": "ExactMatch", "verdict": "fail", "comment": "no", "reviewer": "r", "at": "2026-01-01T00:00:00Z"}]}}},
                {"turns": [{"prompt": "t", "response": "", "scores": {}, "status": "error",
                  "error": {"code": "agentRequestFailed", "message": "Agent request failed"}}],
                 "summary": {"overall_status": "error"}}]}"#,
            r#"{"individual_results": [{"prompt": "p", "response": "r", "expected_response": "e",
                "results": {"relevance_score": "{\"relevance\": 4.0, \"relevance_result\": \"pass\", \"threshold\": 3, \"result\": \"pass\"}",
                            "citations_score": {"score": 0, "result": "fail", "threshold": 1, "reason": "none"},
                            "tool_call_accuracy_score": "{\"tool_call_accuracy\": \"not applicable\", \"details\": {}}"}}],
                "aggregate_statistics": {}}"#,
        ];
        for bytes in mutations(0x5eed_cafe, &texts, 3000) {
            if let Ok(report) = read_report(&bytes) {
                let entries = report.items.len();
                assert_eq!(report.summary.items, entries);
                let reviewed = report
                    .items
                    .iter()
                    .filter(|entry| entry.review.is_some())
                    .count();
                assert_eq!(report.summary.review.entries, reviewed);
                let indices: Vec<usize> = report.items.iter().map(|entry| entry.index).collect();
                assert!(
                    indices.windows(2).all(|pair| pair[0] <= pair[1]),
                    "{indices:?}"
                );
            }
        }
    }
}
