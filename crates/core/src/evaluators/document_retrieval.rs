//! `builtin.document_retrieval`: azure-ai-evaluation's `DocumentRetrievalEvaluator` (NDCG@3,
//! XDCG@3, fidelity, top-1/top-3 relevance, holes) with its validation messages.
//!
//! Deliberate differences from the reference: fidelity weights follow numeric label order (the
//! reference sorts labels as text, mis-weighting labels ≥ 10 and negative ones), and booleans are
//! not relevance labels (the reference accepts `true` and then crashes computing fidelity). Inputs
//! on which the reference crashes with a raw Python error are rejected with our own message.

mod metrics;
mod validate;

use crate::json::Value;

use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::details::Details;
use crate::inputs::Inputs;
use crate::options::{json_type_name, ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::pynum::PyNum;

/// Catalog entry for `builtin.document_retrieval`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.document_retrieval",
    kind: EvaluatorKind::Deterministic,
    inputs: &["retrieval_ground_truth", "retrieved_documents"],
    needs_response: false,
    m365_reports_score: true,
    options: &OPTIONS,
    pass_rule: "ndcg@3 >= ndcg_threshold (0.5)",
    build,
};

const fn option(
    name: &'static str,
    kind: &'static str,
    default: &'static str,
    description: &'static str,
) -> OptionSpec {
    OptionSpec {
        name,
        kind,
        default,
        description,
    }
}

const OPTIONS: [OptionSpec; 9] = [
    option(
        "ground_truth_label_min",
        "integer",
        "0",
        "lowest relevance label in the ground truth",
    ),
    option(
        "ground_truth_label_max",
        "integer (> min)",
        "4",
        "highest relevance label in the ground truth",
    ),
    option(
        "ndcg_threshold",
        "number",
        "0.5",
        "pass threshold for NDCG@3 (decides the verdict)",
    ),
    option(
        "xdcg_threshold",
        "number",
        "50.0",
        "pass threshold for XDCG@3",
    ),
    option(
        "fidelity_threshold",
        "number",
        "0.5",
        "pass threshold for fidelity",
    ),
    option(
        "top1_relevance_threshold",
        "number",
        "50.0",
        "pass threshold for the top document's label",
    ),
    option(
        "top3_max_relevance_threshold",
        "number",
        "50.0",
        "pass threshold for the best label in the top 3",
    ),
    option(
        "total_retrieved_documents_threshold",
        "number",
        "50",
        "pass threshold for the number of retrieved documents",
    ),
    option(
        "total_ground_truth_documents_threshold",
        "number",
        "50",
        "pass threshold for the number of labelled documents",
    ),
];

/// The seven metrics with a configurable `>=` threshold, in output order, with their defaults.
const THRESHOLD_METRICS: [(&str, &str, PyNum); 7] = [
    ("ndcg@3", "ndcg_threshold", PyNum::Float(0.5)),
    ("xdcg@3", "xdcg_threshold", PyNum::Float(50.0)),
    ("fidelity", "fidelity_threshold", PyNum::Float(0.5)),
    (
        "top1_relevance",
        "top1_relevance_threshold",
        PyNum::Float(50.0),
    ),
    (
        "top3_max_relevance",
        "top3_max_relevance_threshold",
        PyNum::Float(50.0),
    ),
    (
        "total_retrieved_documents",
        "total_retrieved_documents_threshold",
        PyNum::Int(50),
    ),
    (
        "total_ground_truth_documents",
        "total_ground_truth_documents_threshold",
        PyNum::Int(50),
    ),
];

struct DocumentRetrieval {
    label: String,
    label_min: i128,
    label_max: i128,
    thresholds: [PyNum; 7],
}

fn label_bound(
    options: Options<'_>,
    key: &str,
    default: i128,
    which: &str,
) -> Result<i128, ConfigError> {
    match options.map().get(key) {
        None => Ok(default),
        Some(Value::Number(number)) if !number.is_f64() => match PyNum::from_number(number) {
            PyNum::Int(int) => Ok(int),
            PyNum::Float(_) => Err(ConfigError::new(format!(
                "The ground truth label {which} must be an integer value."
            ))),
        },
        Some(_) => Err(ConfigError::new(format!(
            "The ground truth label {which} must be an integer value."
        ))),
    }
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    let allowed: Vec<&str> = OPTIONS.iter().map(|option| option.name).collect();
    options.deny_unknown(&allowed)?;
    let label_min = label_bound(options, "ground_truth_label_min", 0, "minimum")?;
    let label_max = label_bound(options, "ground_truth_label_max", 4, "maximum")?;
    if label_min >= label_max {
        return Err(ConfigError::new(
            "The ground truth label maximum must be strictly greater than the ground truth label minimum.",
        ));
    }
    let mut thresholds = [PyNum::Int(0); 7];
    for (slot, (_, key, default)) in thresholds.iter_mut().zip(THRESHOLD_METRICS) {
        *slot = match options.map().get(key) {
            None => default,
            Some(value) => PyNum::from_json(value).ok_or_else(|| {
                ConfigError::new(format!(
                    "option `{key}` must be a number, got {}",
                    json_type_name(value)
                ))
            })?,
        };
    }
    Ok(Box::new(DocumentRetrieval {
        label: label.to_owned(),
        label_min,
        label_max,
        thresholds,
    }))
}

fn verdict(passed: bool) -> &'static str {
    if passed {
        "pass"
    } else {
        "fail"
    }
}

impl DocumentRetrieval {
    fn score(&self, inputs: &Inputs<'_>) -> Result<EvalResult, String> {
        let (qrels, retrieved) = validate::inputs(inputs, self.label_min, self.label_max)?;
        let values = metrics::compute(&qrels, &retrieved, self.label_min, self.label_max)?;
        let mut details = Details::new();
        for (name, value) in values.named() {
            details.insert(name.to_owned(), value.to_json());
        }
        for (name, value) in values.named() {
            let (threshold, passed, higher_is_better) = match THRESHOLD_METRICS
                .iter()
                .position(|(metric, _, _)| *metric == name)
            {
                Some(index) => {
                    let threshold = self.thresholds.get(index).copied().unwrap_or(PyNum::Int(0));
                    (threshold, value.py_ge(threshold), true)
                }
                None => (PyNum::Int(0), PyNum::Int(0).py_ge(value), false),
            };
            details.insert(format!("{name}_result"), Value::from(verdict(passed)));
            details.insert(format!("{name}_passed"), Value::from(passed));
            details.insert(format!("{name}_threshold"), threshold.to_json());
            details.insert(
                format!("{name}_higher_is_better"),
                Value::from(higher_is_better),
            );
        }
        let ndcg = values.ndcg.to_f64();
        let threshold = self.thresholds[0];
        let passed = PyNum::Float(ndcg).py_ge(threshold);
        let mut result = EvalResult::scored(&self.label, passed, ndcg, threshold.to_f64());
        result.details = details;
        Ok(result)
    }
}

impl Evaluator for DocumentRetrieval {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        self.score(inputs).unwrap_or_else(|message| {
            EvalResult::error(&self.label, ErrorCode::EvaluatorError, message)
        })
    }
}

#[cfg(test)]
mod tests;
