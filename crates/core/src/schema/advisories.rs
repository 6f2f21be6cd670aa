//! Warnings for what agenteval accepts where the official schema would refuse it (see
//! `CHANGES.md`): a `RetrievalResult` without `capability` searches every retrieval execution.

use crate::diagnostic::Diagnostic;
use crate::json::{Map, Value};

/// The warning on a `RetrievalResult` without `capability`.
pub const NO_CAPABILITY: &str = "no capability: all retrieval executions were searched";

/// The advisories of a whole document: its `default_evaluators` and every item's.
pub fn document_advisories(document: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    check_evaluators(
        document.get("default_evaluators"),
        "/default_evaluators",
        &mut found,
    );
    if let Some(items) = document.get("items").and_then(Value::as_array) {
        for (index, item) in items.iter().enumerate() {
            found.extend(item_advisories(item, index));
        }
    }
    found
}

/// The advisories of `items[index]`: its evaluators and those of its turns.
pub fn item_advisories(item: &Value, index: usize) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let at = format!("/items/{index}");
    check_evaluators(
        item.get("evaluators"),
        &format!("{at}/evaluators"),
        &mut found,
    );
    if let Some(turns) = item.get("turns").and_then(Value::as_array) {
        for (turn, fields) in turns.iter().enumerate() {
            let pointer = format!("{at}/turns/{turn}/evaluators");
            check_evaluators(fields.get("evaluators"), &pointer, &mut found);
        }
    }
    found
}

fn check_evaluators(evaluators: Option<&Value>, pointer: &str, found: &mut Vec<Diagnostic>) {
    let options = evaluators
        .and_then(Value::as_object)
        .and_then(|evaluators| evaluators.get("RetrievalResult"))
        .and_then(Value::as_object);
    if options.is_some_and(lacks_capability) {
        found.push(
            Diagnostic::at_pointer(format!("{pointer}/RetrievalResult"), NO_CAPABILITY).warning(),
        );
    }
}

fn lacks_capability(options: &Map<String, Value>) -> bool {
    !options.contains_key("capability")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn a_retrieval_result_without_capability_is_warned_about_wherever_it_is_configured() {
        let document = json!({
            "default_evaluators": {"RetrievalResult": {"min_expected_count": 1}},
            "items": [
                {"prompt": "p", "evaluators": {"RetrievalResult": {"min_expected_count": 1}}},
                {"prompt": "p", "evaluators": {"RetrievalResult": {"capability": "Email", "min_expected_count": 1}}},
                {"turns": [{"prompt": "p"}, {"prompt": "q", "evaluators": {"RetrievalResult": {"min_expected_count": 2}}}]}
            ]
        });
        let pointers: Vec<String> = document_advisories(&document)
            .into_iter()
            .map(|diagnostic| {
                assert_eq!(diagnostic.severity, crate::diagnostic::Severity::Warning);
                assert_eq!(diagnostic.message, NO_CAPABILITY);
                match diagnostic.location {
                    crate::diagnostic::Location::Pointer { pointer, .. } => pointer,
                    other => panic!("{other:?}"),
                }
            })
            .collect();
        assert_eq!(
            pointers,
            [
                "/default_evaluators/RetrievalResult",
                "/items/0/evaluators/RetrievalResult",
                "/items/2/turns/1/evaluators/RetrievalResult"
            ]
        );
    }
}
