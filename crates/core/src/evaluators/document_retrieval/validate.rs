//! The reference's `_validate_eval_input` checks with its messages, plus our messages where the
//! reference crashes (non-object items, a ground truth that is not an array).

use crate::json::Value;

use crate::inputs::Inputs;
use crate::options::json_type_name;
use crate::text::pynum::PyNum;

const MISSING_INPUTS: &str =
    "DocumentRetrievalEvaluator: Either 'conversation' or individual inputs must be provided.";
const MAX_ITEMS: usize = 10_000;

/// A validated ground-truth judgement.
#[derive(Debug)]
pub(super) struct Qrel<'a> {
    pub(super) id: &'a Value,
    pub(super) label: i128,
}

/// A validated retrieved document.
#[derive(Debug)]
pub(super) struct Retrieved<'a> {
    pub(super) id: &'a Value,
    pub(super) score: PyNum,
}

fn is_falsy(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(flag) => !flag,
        Value::Number(number) => number.as_f64() == Some(0.0),
        Value::String(text) => text.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
    }
}

fn field<'a>(item: &'a Value, key: &str) -> Option<&'a Value> {
    item.get(key).filter(|value| !value.is_null())
}

/// Validates both inputs in the reference's order.
///
/// # Errors
/// The reference's message, or ours where the reference crashes.
pub(super) fn inputs<'a>(
    inputs: &Inputs<'a>,
    label_min: i128,
    label_max: i128,
) -> Result<(Vec<Qrel<'a>>, Vec<Retrieved<'a>>), String> {
    let (Some(ground_truth), Some(retrieved)) = (
        inputs.get("retrieval_ground_truth"),
        inputs.get("retrieved_documents"),
    ) else {
        return Err(MISSING_INPUTS.to_owned());
    };
    if is_falsy(ground_truth) {
        return Err("'retrieval_ground_truth' parameter must contain at least one item. \
                    Check your data input to be sure that each input record has ground truth defined."
            .to_owned());
    }
    let Value::Array(judgements) = ground_truth else {
        return Err(format!(
            "'retrieval_ground_truth' must be an array of objects, got {}.",
            json_type_name(ground_truth)
        ));
    };
    let mut qrels = Vec::with_capacity(judgements.len());
    for (index, qrel) in judgements.iter().enumerate() {
        if !qrel.is_object() {
            return Err(format!(
                "Item {index} of 'retrieval_ground_truth' must be an object, got {}.",
                json_type_name(qrel)
            ));
        }
        let (Some(id), Some(label)) = (
            field(qrel, "document_id"),
            field(qrel, "query_relevance_label"),
        ) else {
            return Err(
                "Invalid input data was found in the retrieval ground truth. \
                        Ensure that all items in the 'retrieval_ground_truth' array contain \
                        'document_id' and 'query_relevance_label' properties."
                    .to_owned(),
            );
        };
        let label = match label {
            Value::Number(number) if !number.is_f64() => match PyNum::from_number(number) {
                PyNum::Int(int) => int,
                PyNum::Float(_) => {
                    return Err("Query relevance labels must be integer values.".to_owned())
                }
            },
            _ => return Err("Query relevance labels must be integer values.".to_owned()),
        };
        if label < label_min {
            return Err("A query relevance label less than the configured minimum value was detected in the evaluation input data. \
                        Check the range of ground truth label values in the input data and set the value of ground_truth_label_min to \
                        the appropriate value for your data."
                .to_owned());
        }
        if label > label_max {
            return Err("A query relevance label greater than the configured maximum value was detected in the evaluation input data. \
                        Check the range of ground truth label values in the input data and set the value of ground_truth_label_max to \
                        the appropriate value for your data."
                .to_owned());
        }
        qrels.push(Qrel { id, label });
    }
    let mut results = Vec::new();
    if let Value::Array(documents) = retrieved {
        for (index, document) in documents.iter().enumerate() {
            if !document.is_object() {
                return Err(format!(
                    "Item {index} of 'retrieved_documents' must be an object, got {}.",
                    json_type_name(document)
                ));
            }
            let (Some(id), Some(score)) = (
                field(document, "document_id"),
                field(document, "relevance_score"),
            ) else {
                return Err("Invalid input data was found in the retrieved documents. \
                            Ensure that all items in the 'retrieved_documents' array contain \
                            'document_id' and 'relevance_score' properties."
                    .to_owned());
            };
            let score = match score {
                Value::Bool(flag) => PyNum::Int(i128::from(*flag)),
                other => PyNum::from_json(other).ok_or_else(|| {
                    "Retrieved document relevance score must be a numerical value.".to_owned()
                })?,
            };
            results.push(Retrieved { id, score });
        }
    }
    if qrels.len() > MAX_ITEMS || results.len() > MAX_ITEMS {
        return Err("'retrieval_ground_truth' and 'retrieved_documents' inputs should contain no more than 10000 items.".to_owned());
    }
    Ok((qrels, results))
}
