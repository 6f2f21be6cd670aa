//! A large document (5 000 items, threads and output fields mixed in) parses to the same value as
//! with serde_json, validates without problems, and one problem deep inside it is still found with
//! its pointer. Speed is measured by the `document_100k` criterion benchmarks, not here.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use agenteval_core::json::Value;
use agenteval_core::{json, schema};

const ITEMS: usize = 5_000;

fn large_document() -> Value {
    let items: Vec<Value> = (0..ITEMS)
        .map(|index| {
            if index % 10 == 9 {
                json!({"name": format!("thread {index}"), "turns": [
                    {"prompt": "first question", "response": "an answer", "status": "pass"},
                    {"prompt": "second question", "evaluators": {"ExactMatch": {}}}
                ]})
            } else {
                json!({
                    "prompt": format!("question number {index}"),
                    "expected_response": "an expected answer with a few words",
                    "response": "an actual answer with a few words",
                    "evaluators": {"PartialMatch": {"threshold": 0.5}, "Citations": {"citation_format": "bracket"}},
                    "scores": {
                        "partialMatch": {"score": 0.8, "result": "pass", "threshold": 0.5, "reason": "Match score: 0.8"},
                        "relevance": {"result": "error", "error": "no judge configured"}
                    },
                    "status": "partial"
                })
            }
        })
        .collect();
    json!({
        "schemaVersion": "1.9.0",
        "metadata": {"name": "large", "createdAt": "2026-05-01T12:00:00Z"},
        "default_evaluators": {"Relevance": {}, "Coherence": {"threshold": 4}},
        "items": items
    })
}

#[test]
fn a_large_document_parses_validates_and_reports_a_deep_problem() {
    let mut document = large_document();
    let text = document.to_string();
    let parsed = json::parse(text.as_bytes()).expect("parses");
    assert_eq!(parsed, document);
    assert_eq!(schema::validate(&document), Vec::new());

    let broken = ITEMS - 2;
    if let Some(score) = document.pointer_mut(&format!("/items/{broken}/scores/partialMatch/score"))
    {
        *score = json!(2);
    }
    let found: Vec<String> = schema::validate(&document)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        found,
        [format!("<input>: error: at /items/{broken}/scores/partialMatch/score: expected a number between 0 and 1, got 2")]
    );
}
