//! `applyReviews()`: a run report with a reviewer's reviews set on its entries and its summary
//! counted again; and the `reviews` option of `Evaluation.render` and `RowsEvaluation.render`. The checking and the counting are the core's (`report::reviews::apply`); this
//! module only converts, and keeps the members of the report the core does not read back (`tool`,
//! `judge`) as they were given.

use agenteval_core::json::{self, Value};
use agenteval_core::report::reviews;
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::error::{ApiError, ErrorCode};
use crate::render;

/// `report` with `reviews` (an array of `{index, turn, review}`) set on the entries they name: a
/// review beside the entry's results, which never change, and the review counts in
/// `summary.review`. A `review` that is `null` or says nothing removes the entry's review. Throws
/// `invalidReport` for a report that does not have the run report's shape, and `invalidArgument`
/// naming every wrong review by its place (`reviews: at /0/review/overrides/1/verdict: expected
/// "pass" or "fail", got "maybe"`), in which case none is applied.
#[wasm_bindgen(js_name = applyReviews, unchecked_return_type = "RunReport")]
pub fn apply_reviews(
    #[wasm_bindgen(unchecked_param_type = "RunReport")] report: JsValue,
    #[wasm_bindgen(unchecked_param_type = "EntryReview[]")] reviews: JsValue,
) -> Result<JsValue, JsValue> {
    let mut core = render::read_report(&report)?;
    let reviews = boundary::json_text(&reviews)
        .and_then(|text| json::parse(text.as_bytes()).ok())
        .ok_or_else(|| {
            ApiError::argument("reviews", "an array of {index, turn, review} objects")
        })?;
    apply(&mut core, &reviews)?;
    let given = boundary::json_text(&report)
        .and_then(|text| json::parse(text.as_bytes()).ok())
        .unwrap_or(Value::Null);
    boundary::to_js(&merged(given, &core))
}

/// `report` with the `reviews` option of a `render` method applied, when the option is given.
///
/// # Errors
/// `invalidArgument` for an option that is no array of reviews, or a wrong review.
pub fn with_option(
    report: &agenteval_core::RunReport,
    options: &crate::options::OptionsObject,
) -> Result<Option<agenteval_core::RunReport>, ApiError> {
    let given = options.get("reviews");
    if given.is_undefined() || given.is_null() {
        return Ok(None);
    }
    let reviews = boundary::json_text(&given)
        .and_then(|text| json::parse(text.as_bytes()).ok())
        .ok_or_else(|| {
            ApiError::argument(
                "options.reviews",
                "an array of {index, turn, review} objects",
            )
        })?;
    let mut reviewed = report.clone();
    apply(&mut reviewed, &reviews).map_err(|error| ApiError {
        message: error.message.replacen("reviews: ", "options.reviews: ", 1),
        ..error
    })?;
    Ok(Some(reviewed))
}

/// Applies `reviews` to `report`, or the `invalidArgument` error listing every problem.
///
/// # Errors
/// As [`reviews::apply`].
pub fn apply(report: &mut agenteval_core::RunReport, reviews: &Value) -> Result<(), ApiError> {
    reviews::apply(report, reviews).map_err(|diagnostics| {
        let details: Vec<String> = diagnostics.iter().map(|d| d.describe()).collect();
        ApiError {
            code: ErrorCode::InvalidArgument,
            message: format!("reviews: {}", details.join("; ")),
            diagnostics,
        }
    })
}

/// The report as given, with the `items` and `summary` of `reviewed`.
fn merged(given: Value, reviewed: &agenteval_core::RunReport) -> Value {
    let written = json::to_value(reviewed).unwrap_or(Value::Null);
    match (given, written) {
        (Value::Object(mut members), Value::Object(mut written)) => {
            for key in ["summary", "items"] {
                if let Some(value) = written.shift_remove(key) {
                    members.insert(key.to_owned(), value);
                }
            }
            Value::Object(members)
        }
        (_, written) => written,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenteval_core::json;

    #[test]
    fn the_judge_figures_and_tool_of_the_given_report_are_kept() {
        let given = json!({
            "tool": {"name": "agenteval", "version": "0.0.1"},
            "dialect": "m365",
            "summary": {"items": 1},
            "items": [{"index": 0, "turn": null, "status": "fail", "results": [
                {"evaluator": "Relevance", "result": "fail", "score": 2, "threshold": 3, "reason": null, "error": null}]}],
            "judge": {"endpoint": "openai", "calls": 1}
        });
        let mut core = crate::report_json::read(given.clone()).unwrap();
        apply(
            &mut core,
            &json!([{"index": 0, "review": {"overrides": [
                {"evaluator": "Relevance", "verdict": "pass", "comment": "fine"}]}}]),
        )
        .unwrap();
        let out = merged(given, &core);
        assert_eq!(out["judge"]["calls"], json!(1));
        assert_eq!(out["tool"]["version"], json!("0.0.1"));
        assert_eq!(out["summary"]["review"]["overridden"], json!(1));
        assert_eq!(out["items"][0]["results"][0]["result"], json!("fail"));
        let error = apply(&mut core, &json!([{"index": 3}])).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidArgument);
        assert_eq!(
            error.message,
            "reviews: at /0: the report has no entry item-3 (it has 1 entry)"
        );
    }
}
