//! `readReport()`: opens a dataset that already carries scores (a scored M365 eval document, or
//! runevals results JSON) as its run report, without scoring it again. The reading is the core's
//! (`agenteval_core::scored::read`); this module only converts.

use agenteval_core::scored::{self, ReadError};
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::convert::{self, Source};
use crate::error::{ApiError, ErrorCode};

/// The run report a scored dataset carries (text, bytes or a parsed value): a scored M365 eval
/// document (what `score` writes as `document`) or the older runevals results JSON
/// (`individual_results`). Verdicts, scores and error codes are taken as stored; the summary is
/// computed as a run computes it. Rejects with an `Error` whose `code` is `notScored` when the
/// dataset carries no scores (score it instead), `invalidDataset` when it cannot be read, or
/// `invalidArgument` for an argument that is not a dataset.
#[wasm_bindgen(js_name = readReport, unchecked_return_type = "Promise<RunReport>")]
pub fn read_report(
    #[wasm_bindgen(unchecked_param_type = "DatasetInput")] dataset: JsValue,
) -> js_sys::Promise {
    match report_of(&dataset) {
        Ok(report) => js_sys::Promise::resolve(&report),
        Err(error) => js_sys::Promise::reject(&error),
    }
}

fn report_of(dataset: &JsValue) -> Result<JsValue, JsValue> {
    let read = match convert::dataset_source(dataset, "dataset")? {
        Source::Bytes(bytes) => scored::read_report(&bytes),
        Source::Value(value) => scored::read_report_value(value),
    };
    boundary::to_js(&read.map_err(api_error)?)
}

/// The M365 eval document that scores runevals results (text, bytes or a parsed value) again, as
/// JSON text: each result's prompt, response and expected response with the evaluators and
/// thresholds it was scored with; its name is `name` (default `results`) + `, scored again`.
/// `undefined` when `dataset` is not runevals results.
#[wasm_bindgen(js_name = rescoreDataset, unchecked_return_type = "string | undefined")]
pub fn rescore_dataset(
    #[wasm_bindgen(unchecked_param_type = "DatasetInput")] dataset: JsValue,
    name: Option<String>,
) -> Result<JsValue, JsValue> {
    let value = match convert::dataset_source(&dataset, "dataset")? {
        Source::Bytes(bytes) => match agenteval_core::json::parse_dataset(&bytes) {
            Ok(value) => value,
            Err(_) => return Ok(JsValue::UNDEFINED),
        },
        Source::Value(value) => value,
    };
    let name = name.as_deref().unwrap_or("results");
    Ok(scored::read::runevals::rescore_document(&value, name)
        .map_or(JsValue::UNDEFINED, |document| {
            JsValue::from_str(&document.to_string())
        }))
}

/// The error thrown for a dataset the core could not open as a report.
pub fn api_error(error: ReadError) -> ApiError {
    match error {
        ReadError::NotScored(diagnostic) => ApiError {
            code: ErrorCode::NotScored,
            message: format!("dataset: {}", diagnostic.describe()),
            diagnostics: vec![diagnostic],
        },
        ReadError::Invalid(error) => ApiError::input(ErrorCode::InvalidDataset, "dataset", error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dataset_without_scores_is_not_scored_and_a_broken_one_invalid() {
        let unscored =
            scored::read_report(br#"{"schemaVersion": "1.6.0", "items": [{"prompt": "p"}]}"#);
        let error = api_error(unscored.expect_err("no scores"));
        assert_eq!(error.code.as_str(), "notScored");
        assert!(
            error
                .message
                .starts_with("dataset: at /items: the dataset carries no scores"),
            "{error}"
        );
        assert_eq!(error.diagnostics.len(), 1);
        let broken = api_error(scored::read_report(b"{\"items\": [").expect_err("syntax"));
        assert_eq!(broken.code, ErrorCode::InvalidDataset);
        assert!(
            broken.message.starts_with("dataset: line 1, column"),
            "{broken}"
        );
    }
}
