//! Size and speed: a 100 000-item document parses and validates quickly, and a problem deep in it
//! is still found. Timings are asserted only in optimised builds
//! (`cargo test --release -p agenteval-core --test schema_performance -- --nocapture`).

use std::time::{Duration, Instant};

use agenteval_core::{json, schema};
use serde_json::{json, Value};

const ITEMS: usize = 100_000;

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

fn timed<T>(label: &str, run: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let result = run();
    let elapsed = start.elapsed();
    eprintln!("{label}: {elapsed:?}");
    (result, elapsed)
}

#[test]
fn large_documents_parse_and_validate_fast() {
    let mut document = large_document();
    let text = document.to_string();
    eprintln!("document: {} bytes", text.len());

    let (parsed, ours) = timed("json::parse", || json::parse(text.as_bytes()));
    let (reference, serde) = timed("serde_json::from_str", || {
        serde_json::from_str::<Value>(&text)
    });
    assert_eq!(parsed.ok(), reference.ok());

    let (diagnostics, validation) = timed("schema::validate", || schema::validate(&document));
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.first());

    if let Some(score) = document.pointer_mut("/items/99998/scores/partialMatch/score") {
        *score = json!(2);
    }
    let (diagnostics, _) = timed("schema::validate with one error", || {
        schema::validate(&document)
    });
    let found: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        found,
        ["<input>: error: at /items/99998/scores/partialMatch/score: expected a number between 0 and 1, got 2"]
    );

    if !cfg!(debug_assertions) {
        assert!(
            validation < Duration::from_millis(100),
            "validation took {validation:?}"
        );
        assert!(
            ours < serde * 3,
            "parse took {ours:?}, serde_json {serde:?}"
        );
    }
}
