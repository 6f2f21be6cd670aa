//! `validate()`: reads a dataset of any dialect and returns every problem found, without scoring.

use agenteval_core::diagnostic::Severity;
use agenteval_core::engine::Session;
use agenteval_core::json::Value;
use agenteval_core::Diagnostic;
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::convert::{self, Source};
use crate::error::ApiError;
use crate::types::Validation;

/// Parses and validates a dataset (text, bytes or a parsed value; any dialect) and returns the
/// problems found. Problems in the dataset are data, never exceptions: only a wrong argument throws.
#[wasm_bindgen(js_name = validate, unchecked_return_type = "Validation")]
pub fn validate_dataset(
    #[wasm_bindgen(unchecked_param_type = "DatasetInput")] dataset: JsValue,
    options: Option<crate::types::ValidateOptionsArg>,
) -> Result<JsValue, JsValue> {
    let (source, config) = convert::dataset_and_config(&dataset, options)?;
    let validation = validation(source, config.as_ref());
    boundary::to_js(&validation)
}

/// What `validate` reports for `source`.
pub fn validation(source: Source, config: Option<&Value>) -> Validation {
    match source.load("dataset", config) {
        Ok(loaded) => {
            let items =
                Session::borrowed(&loaded.dataset, agenteval_core::engine::Customs::default())
                    .total();
            let diagnostics = errors_first(loaded.diagnostics);
            Validation {
                valid: !diagnostics.iter().any(is_error),
                dialect: Some(loaded.dataset.dialect()),
                items,
                diagnostics,
            }
        }
        Err(ApiError { diagnostics, .. }) => Validation {
            valid: false,
            dialect: None,
            items: 0,
            diagnostics: errors_first(diagnostics),
        },
    }
}

fn is_error(diagnostic: &Diagnostic) -> bool {
    diagnostic.severity == Severity::Error
}

/// `diagnostics` with the errors first, each group in its original order (a partition, not a
/// sort: it adds no sorting code to the module).
pub fn errors_first(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let (mut errors, others): (Vec<_>, Vec<_>) = diagnostics.into_iter().partition(is_error);
    errors.extend(others);
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenteval_core::json;
    use agenteval_core::{Dialect, Location};

    #[test]
    fn errors_come_first_each_group_in_its_order() {
        let diagnostics = vec![
            Diagnostic::whole("w1").warning(),
            Diagnostic::whole("e1"),
            Diagnostic::whole("w2").warning(),
            Diagnostic::whole("e2"),
        ];
        let messages: Vec<String> = errors_first(diagnostics)
            .into_iter()
            .map(|diagnostic| diagnostic.message)
            .collect();
        assert_eq!(messages, ["e1", "e2", "w1", "w2"]);
    }

    #[test]
    fn a_valid_document_counts_items_and_turns() {
        let document = json!({"schemaVersion": "1.6.0", "items": [
            {"prompt": "p", "response": "r"},
            {"turns": [{"prompt": "a", "response": "b"}, {"prompt": "c", "response": "d"}]}
        ]});
        let report = validation(Source::Value(document), None);
        assert!(report.valid, "{report:?}");
        assert_eq!(report.dialect, Some(Dialect::M365));
        assert_eq!(report.items, 3);
    }

    #[test]
    fn a_rejected_input_lists_its_problems_with_locations() {
        let report = validation(
            Source::Bytes(b"{\"schemaVersion\": \"1.6.0\",\n \"items\": ]".to_vec()),
            None,
        );
        assert!(!report.valid);
        assert_eq!(report.dialect, None);
        assert!(matches!(
            report.diagnostics.first().map(|d| &d.location),
            Some(Location::LineColumn { line: 2, .. })
        ));
    }

    #[test]
    fn row_level_problems_keep_the_dataset_but_make_it_invalid() {
        let rows = b"{\"query\": \"q\", \"response\": \"r\"}\n{\"query\": \n{\"query\": \"q\"}\n";
        let config = json!({"testing_criteria": [{"type": "azure_ai_evaluator", "name": "f1",
            "evaluator_name": "builtin.f1_score"}]});
        let report = validation(Source::Bytes(rows.to_vec()), Some(&config));
        assert!(!report.valid, "{report:?}");
        assert_eq!(report.dialect, Some(Dialect::Foundry));
        assert_eq!(report.items, 3);
        assert!(
            matches!(
                report.diagnostics.first().map(|d| &d.location),
                Some(Location::LineColumn { line: 2, .. })
            ),
            "{report:?}"
        );
    }
}
