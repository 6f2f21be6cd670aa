//! Tests of `builtin.document_retrieval`: the ranking metrics, unlabelled documents, fidelity
//! weights, the reference's validation messages and crashes, and a snapshot of a result.

use crate::json;

use super::*;

fn evaluator(options: Value) -> Result<Box<dyn Evaluator>, ConfigError> {
    let map: crate::json::Map<String, Value> = crate::json::from_value(options).unwrap();
    build("dr", Options::new(&map))
}

fn run(options: Value, qrels: Value, docs: Value) -> EvalResult {
    evaluator(options).unwrap().evaluate(
        &Inputs::new()
            .with("retrieval_ground_truth", &qrels)
            .with("retrieved_documents", &docs),
    )
}

fn qrels(labels: &[(&str, i64)]) -> Value {
    Value::Array(
        labels
            .iter()
            .map(|(id, label)| json!({"document_id": id, "query_relevance_label": label}))
            .collect(),
    )
}

fn docs(scores: &[(&str, f64)]) -> Value {
    Value::Array(
        scores
            .iter()
            .map(|(id, score)| json!({"document_id": id, "relevance_score": score}))
            .collect(),
    )
}

fn message(result: &EvalResult) -> &str {
    result
        .error
        .as_ref()
        .map_or("", |error| error.message.as_str())
}

#[test]
fn perfect_ranking() {
    let result = run(
        json!({}),
        qrels(&[("a", 3), ("b", 1)]),
        docs(&[("b", 0.2), ("a", 0.9)]),
    );
    assert_eq!(result.score, Some(1.0));
    assert_eq!(result.details["fidelity"], json!(1.0));
    assert_eq!(result.details["top1_relevance"], json!(3));
    assert_eq!(result.details["holes"], json!(0));
    assert_eq!(result.details["holes_ratio"], json!(0.0));
    assert_eq!(result.details["top1_relevance_result"], json!("fail"));
    assert_eq!(
        result.details["total_retrieved_documents_threshold"],
        json!(50)
    );
}

#[test]
fn unlabelled_documents_are_holes_and_label_zero() {
    let result = run(
        json!({}),
        qrels(&[("a", 2)]),
        docs(&[("x", 0.9), ("a", 0.5), ("x", 0.1)]),
    );
    assert_eq!(result.details["holes"], json!(1));
    assert_eq!(result.details["holes_ratio"], json!(1.0 / 3.0));
    // The duplicate `x` keeps its last score (0.1), so `a` ranks first.
    assert_eq!(result.score, Some(1.0));
    let second = run(
        json!({}),
        qrels(&[("a", 2)]),
        docs(&[("x", 0.9), ("a", 0.5)]),
    );
    assert_eq!(second.score, Some((3.0 / 1.584_962_500_721_156) / 3.0));
}

#[test]
fn no_relevant_result_gives_integer_zeros() {
    let result = run(json!({}), qrels(&[("a", 2)]), docs(&[("x", 0.9)]));
    assert_eq!(result.details["ndcg@3"], json!(0));
    assert_eq!(result.score, Some(0.0));
    let empty = run(json!({}), qrels(&[("a", 2)]), json!("not a list"));
    assert_eq!(empty.details["ndcg@3"], json!(0.0));
    assert_eq!(empty.details["holes"], json!(0));
}

#[test]
fn fidelity_weights_follow_numeric_label_order() {
    let options = json!({"ground_truth_label_max": 12});
    let result = run(options, qrels(&[("a", 10), ("b", 2)]), docs(&[("a", 1.0)]));
    let weight = |label: i32| 2f64.powi(label + 1) - 1.0;
    assert_eq!(
        result.details["fidelity"],
        json!(weight(10) / (weight(2) + weight(10)))
    );
}

#[test]
fn fidelity_is_nan_without_weighted_labels() {
    let result = run(
        json!({"ground_truth_label_min": -2}),
        qrels(&[("a", -1), ("b", -2)]),
        docs(&[("a", 1.0)]),
    );
    assert_eq!(result.details["fidelity"], Value::Null);
    assert_eq!(result.details["fidelity_passed"], json!(false));
}

#[test]
fn validation_messages() {
    let cases = [
        (json!([]), json!([]), "'retrieval_ground_truth' parameter must contain at least one item. Check your data input to be sure that each input record has ground truth defined."),
        (json!([{"document_id": "a"}]), json!([]), "Invalid input data was found in the retrieval ground truth. Ensure that all items in the 'retrieval_ground_truth' array contain 'document_id' and 'query_relevance_label' properties."),
        (json!([{"document_id": "a", "query_relevance_label": 2.0}]), json!([]), "Query relevance labels must be integer values."),
        (json!([{"document_id": "a", "query_relevance_label": true}]), json!([]), "Query relevance labels must be integer values."),
        (qrels(&[("a", 5)]), json!([]), "A query relevance label greater than the configured maximum value was detected in the evaluation input data. Check the range of ground truth label values in the input data and set the value of ground_truth_label_max to the appropriate value for your data."),
        (qrels(&[("a", 1)]), json!([{"document_id": "a", "relevance_score": "high"}]), "Retrieved document relevance score must be a numerical value."),
    ];
    for (qrels, docs, expected) in cases {
        assert_eq!(message(&run(json!({}), qrels, docs)), expected);
    }
    let missing = evaluator(json!({})).unwrap().evaluate(&Inputs::new());
    assert_eq!(
        message(&missing),
        "DocumentRetrievalEvaluator: Either 'conversation' or individual inputs must be provided."
    );
}

#[test]
fn reference_crashes_become_errors() {
    assert!(message(&run(json!({}), json!(["a"]), json!([]))).contains("must be an object"));
    assert!(message(&run(
        json!({}),
        json!([{"document_id": ["a"], "query_relevance_label": 1}]),
        docs(&[("a", 1.0)])
    ))
    .contains("document_id"));
    let negative = json!({"ground_truth_label_min": -3, "ground_truth_label_max": -1});
    assert!(message(&run(
        negative,
        qrels(&[("a", -1)]),
        docs(&[("a", 1.0), ("x", 0.5)])
    ))
    .contains("Fidelity"));
}

#[test]
fn config_messages() {
    let error = |options| evaluator(options).err().map(|e| e.message);
    assert_eq!(error(json!({"ground_truth_label_min": 4})).as_deref(), Some("The ground truth label maximum must be strictly greater than the ground truth label minimum."));
    assert_eq!(
        error(json!({"ground_truth_label_min": 1.0})).as_deref(),
        Some("The ground truth label minimum must be an integer value.")
    );
    assert!(error(json!({"ndcg_threshold": null})).is_some());
}

#[test]
fn snapshot_result() {
    insta::assert_json_snapshot!(run(
        json!({}),
        qrels(&[("a", 4), ("b", 2), ("c", 0)]),
        docs(&[("c", 3.0), ("a", 2.0), ("d", 1.0)])
    ));
}
