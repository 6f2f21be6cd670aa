//! Whether a dataset carries the agent's responses: a test set of prompts and expected answers
//! only (the seed pages' examples, a Copilot Studio import set) is valid, but every entry would
//! score as `emptyAgentResponse`, so reading it warns once, at the first entry without one.
//! Foundry rows are left out: their criteria's data mappings say where a response is read from.

use crate::diagnostic::Diagnostic;
use crate::json::{Map, Value};

use super::copilot_studio::CopilotStudioSet;
use super::m365::EvalDocument;
use super::Dataset;

const WHAT_TO_DO: &str =
    "score them after collecting responses with agenteval run --target TARGET.json";

/// The warning for `dataset`'s entries without a response, if any lack one.
pub fn missing_responses(dataset: &Dataset) -> Option<Diagnostic> {
    match dataset {
        Dataset::M365(document) => m365(document),
        Dataset::CopilotStudio(set) => copilot_studio(set),
        Dataset::Foundry(_) => None,
    }
}

/// Whether an entry has a response; one of the wrong type is the schema's error, not a missing
/// response.
fn has_response(fields: &Map<String, Value>) -> bool {
    match fields.get("response") {
        None | Some(Value::Null) => false,
        Some(Value::String(response)) => !response.trim().is_empty(),
        Some(_) => true,
    }
}

fn m365(document: &EvalDocument) -> Option<Diagnostic> {
    let mut tally = ResponseTally::default();
    for (index, item) in document.items().iter().enumerate() {
        tally.add_item(index, item);
    }
    tally.warning()
}

/// The entries of an M365 document without a response, counted item by item (so a document read
/// one item at a time warns as one read whole does).
#[derive(Debug, Default, Clone)]
pub struct ResponseTally {
    entries: usize,
    missing: usize,
    threads: bool,
    first_missing: Option<String>,
}

impl ResponseTally {
    /// Counts `items[index]`: the item, or each of its turns (the entries [`EvalDocument::cases`]
    /// yields).
    pub fn add_item(&mut self, index: usize, item: &Value) {
        let Some(fields) = item.as_object() else {
            return;
        };
        match fields.get("turns") {
            Some(Value::Array(turns)) => {
                self.threads = true;
                for (turn, fields) in turns.iter().enumerate() {
                    if let Some(fields) = fields.as_object() {
                        self.add_entry(fields, || format!("/items/{index}/turns/{turn}/response"));
                    }
                }
            }
            Some(_) => {}
            None => self.add_entry(fields, || format!("/items/{index}/response")),
        }
    }

    fn add_entry(&mut self, fields: &Map<String, Value>, pointer: impl FnOnce() -> String) {
        self.entries += 1;
        if !has_response(fields) {
            self.missing += 1;
            self.first_missing.get_or_insert_with(pointer);
        }
    }

    /// The warning, at the first entry without a response, when some lack one.
    pub fn warning(&self) -> Option<Diagnostic> {
        let pointer = self.first_missing.clone()?;
        let entries = if self.threads {
            "entries (items and turns)"
        } else {
            "items"
        };
        let message = format!(
            "{} of {} {entries} have no response: {WHAT_TO_DO}",
            self.missing, self.entries
        );
        Some(Diagnostic::at_pointer(pointer, message).warning())
    }
}

fn copilot_studio(set: &CopilotStudioSet) -> Option<Diagnostic> {
    let rows = set.rows.len();
    let Some(column) = set.columns.actual_response else {
        return (rows > 0).then(|| {
            Diagnostic::at_line(
                1,
                1,
                format!(
                    "no actualResponse column: {rows} of {rows} rows have no response; {WHAT_TO_DO}"
                ),
            )
            .warning()
        });
    };
    let mut empty = set.rows.iter().filter(|row| {
        row.problem.is_none()
            && row
                .fields
                .get(column)
                .is_none_or(|response| response.trim().is_empty())
    });
    let first = empty.next()?;
    let missing = 1 + empty.count();
    Some(
        Diagnostic::at_line(
            first.line,
            1,
            format!("{missing} of {rows} rows have an empty actualResponse: {WHAT_TO_DO}"),
        )
        .warning(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::load;
    use crate::diagnostic::{Location, Severity};

    fn warning(text: &str) -> Option<(Location, String)> {
        let loaded = load(text.as_bytes(), None).unwrap();
        let found = missing_responses(&loaded.dataset)?;
        assert_eq!(found.severity, Severity::Warning);
        Some((found.location, found.message))
    }

    #[test]
    fn an_m365_test_set_without_responses_is_named_at_its_first_entry() {
        let (location, message) = warning(
            r#"{"schemaVersion": "1.6.0", "items": [
                {"prompt": "a", "response": "yes"},
                {"prompt": "b", "expected_response": "x"},
                {"prompt": "c", "response": "  "},
                {"prompt": "d", "response": 4}]}"#,
        )
        .unwrap();
        assert_eq!(
            location,
            Location::Pointer {
                pointer: "/items/1/response".into(),
                line: None
            }
        );
        assert!(
            message.starts_with("2 of 4 items have no response: "),
            "{message}"
        );
        let (location, message) = warning(
            r#"{"schemaVersion": "1.6.0", "items": [
                {"prompt": "a", "response": "yes"},
                {"turns": [{"prompt": "b", "response": "r"}, {"prompt": "c"}]}]}"#,
        )
        .unwrap();
        assert!(
            matches!(location, Location::Pointer { ref pointer, .. } if pointer == "/items/1/turns/1/response")
        );
        assert!(message.starts_with("1 of 3 entries (items and turns) have no response"));
        assert_eq!(
            warning(r#"{"schemaVersion": "1.6.0", "items": [{"prompt": "a", "response": "r"}]}"#),
            None
        );
    }

    #[test]
    fn a_copilot_studio_import_set_has_no_actual_response_column() {
        let (location, message) =
            warning("question,expectedResponse\nWhat is PTO?,Paid time off\nHow?,Ask HR\n")
                .unwrap();
        assert_eq!(location, Location::LineColumn { line: 1, column: 1 });
        assert!(message.starts_with("no actualResponse column: 2 of 2 rows have no response"));
        let (location, message) =
            warning("question,expectedResponse,actualResponse\nA?,a,yes\nB?,b,\nC?,c, \n").unwrap();
        assert_eq!(location, Location::LineColumn { line: 3, column: 1 });
        assert!(message.starts_with("2 of 3 rows have an empty actualResponse"));
        assert_eq!(
            warning("question,expectedResponse,actualResponse\nA?,a,yes\n"),
            None
        );
    }
}
