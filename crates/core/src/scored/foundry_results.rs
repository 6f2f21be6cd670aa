//! Foundry's result objects (`--format foundry-results`): one JSON line per row,
//! `{"datasource_item": ROW, "results": [RESULT…]}`, each result in the shape the Foundry
//! agent-evaluator pages show: `type`, `name`, `metric`, `label`, `score`, `reason`, `threshold`,
//! `passed`, with `details` when the evaluator reports any (task navigation's precision, recall
//! and F1) and `error_code` on an error.
//!
//! `type` is the criterion's: `azure_ai_evaluator` for `builtin.*` evaluators, else the grader's
//! (`string_check`, `text_similarity`, `score_model`, `label_model`). `metric` is the evaluator's
//! name without `builtin.` (a grader's metric is its criterion name). `label` is `pass`, `fail`,
//! `error` or `not_applicable`, the flat rows' `_result`; `passed` is `true`/`false`, `null` for
//! the last two. A composite (`output_quality`, `tool_use_quality`) is followed by one result per
//! member (same `name`, the member's id as `metric`). A row that could not be read keeps its
//! error row (`row_line`, `row_text`, `row_error`) as `datasource_item`, with no results; a
//! reviewed row carries its `review` beside them.

use crate::dataset::foundry::{Criterion, FoundryDataset, FoundryRow};
use crate::json::{Map, Value};
use crate::outcome::EvalResult;
use crate::report::{CaseOutcome, RunReport};

use super::foundry_rows::{
    jsonl_line, number_or_null, output_row, passed, reason, verdict_words, REVIEW_KEY,
};

/// The graders whose criterion `type` is their own name.
const GRADERS: [&str; 4] = [
    "string_check",
    "text_similarity",
    "score_model",
    "label_model",
];

/// The result line of `row` (scored as `outcome` under `criteria`).
pub fn line(row: &FoundryRow, criteria: &[Criterion], outcome: &CaseOutcome) -> Map<String, Value> {
    let mut line = Map::new();
    let item = match &row.row {
        Ok(fields) => Value::Object(fields.clone()),
        Err(_) => Value::Object(output_row(row, outcome)),
    };
    line.insert("datasource_item".to_owned(), item);
    let results = if row.row.is_ok() {
        outcome
            .results
            .iter()
            .flat_map(|result| result_objects(result, criteria))
            .map(Value::Object)
            .collect()
    } else {
        Vec::new()
    };
    line.insert("results".to_owned(), Value::Array(results));
    if let Some(review) = &outcome.review {
        line.insert(REVIEW_KEY.to_owned(), review.to_value());
    }
    line
}

/// Every row's result line, as JSON Lines.
pub fn write(dataset: &FoundryDataset, report: &RunReport) -> String {
    dataset
        .rows
        .iter()
        .zip(&report.items)
        .map(|(row, outcome)| jsonl_line(&line(row, &dataset.config.criteria, outcome)))
        .collect()
}

/// The result object of `result`, then one per member of a composite.
fn result_objects(result: &EvalResult, criteria: &[Criterion]) -> Vec<Map<String, Value>> {
    let evaluator = criteria
        .iter()
        .find(|criterion| criterion.name == result.evaluator)
        .map_or("", |criterion| criterion.evaluator_name.as_str());
    let kind = if GRADERS.contains(&evaluator) {
        evaluator
    } else {
        "azure_ai_evaluator"
    };
    let metric = match evaluator.strip_prefix("builtin.") {
        Some(metric) => metric,
        None => result.evaluator.as_str(),
    };
    let mut main = Map::new();
    main.insert("type".to_owned(), Value::from(kind));
    main.insert("name".to_owned(), Value::from(result.evaluator.as_str()));
    main.insert("metric".to_owned(), Value::from(metric));
    main.insert(
        "label".to_owned(),
        Value::from(verdict_words(result.result).0),
    );
    main.insert("score".to_owned(), number_or_null(result.score));
    main.insert("reason".to_owned(), reason(result));
    main.insert("threshold".to_owned(), number_or_null(result.threshold));
    main.insert("passed".to_owned(), passed(result.result));
    if !result.details.is_empty() {
        main.insert("details".to_owned(), Value::Object(result.details.to_map()));
    }
    if let Some(error) = &result.error {
        main.insert("error_code".to_owned(), Value::from(error.code.as_str()));
    }
    let members = result
        .details
        .get("components")
        .and_then(Value::as_array)
        .map(|components| {
            components
                .iter()
                .filter_map(|component| member_object(kind, &result.evaluator, component))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    std::iter::once(main).chain(members).collect()
}

/// A composite member's result object, from its `details.components` entry.
fn member_object(kind: &str, name: &str, component: &Value) -> Option<Map<String, Value>> {
    let id = component.get("id")?.as_str()?;
    let label = component.get("result").and_then(Value::as_str)?;
    let mut object = Map::new();
    object.insert("type".to_owned(), Value::from(kind));
    object.insert("name".to_owned(), Value::from(name));
    object.insert("metric".to_owned(), Value::from(id));
    object.insert("label".to_owned(), Value::from(label));
    for field in ["score", "reason", "threshold"] {
        object.insert(
            field.to_owned(),
            component.get(field).cloned().unwrap_or(Value::Null),
        );
    }
    let passed = match label {
        "pass" => Value::Bool(true),
        "fail" => Value::Bool(false),
        _ => Value::Null,
    };
    object.insert("passed".to_owned(), passed);
    Some(object)
}
