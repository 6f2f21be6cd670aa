//! Size and speed: a 100 000-item document parses about as fast as with plain serde_json and
//! validates in a small multiple of the time a bare walk over it takes; a problem deep in it is
//! still found. Timings are CPU time, asserted only in optimised builds
//! (`cargo test --release -p agenteval-core --test schema_performance -- --nocapture`).

use std::time::{Duration, Instant};

use agenteval_core::{json, schema};
use serde_json::{json, Value};

/// 100 000 items in optimised builds; fewer in debug builds, which only check correctness.
const ITEMS: usize = if cfg!(debug_assertions) {
    5_000
} else {
    100_000
};

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

/// Time this thread has spent on a CPU (Linux), so that a busy machine does not skew timings.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Runs `run`, returning its result and its CPU time (wall time where CPU time is unavailable).
fn timed<T>(label: &str, run: impl FnOnce() -> T) -> (T, Duration) {
    let (cpu_start, wall_start) = (cpu_time(), Instant::now());
    let result = run();
    let wall = wall_start.elapsed();
    let elapsed = match (cpu_start, cpu_time()) {
        (Some(start), Some(end)) => end.saturating_sub(start),
        _ => wall,
    };
    eprintln!("{label}: {elapsed:?} (wall {wall:?})");
    (result, elapsed)
}

/// The smallest of `runs` timings of `run`.
fn fastest<T>(label: &str, runs: usize, mut run: impl FnMut() -> T) -> (T, Duration) {
    let (mut result, mut best) = timed(label, &mut run);
    for _ in 1..runs {
        let (next, elapsed) = timed(label, &mut run);
        result = next;
        best = best.min(elapsed);
    }
    (result, best)
}

/// Visits every value and key once: the floor for any validator.
fn walk(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(walk).sum::<usize>(),
        Value::Object(object) => {
            1 + object
                .iter()
                .map(|(key, value)| key.len() + walk(value))
                .sum::<usize>()
        }
        _ => 1,
    }
}

#[test]
fn large_documents_parse_and_validate_fast() {
    let mut document = large_document();
    let text = document.to_string();
    eprintln!("document: {} bytes, {ITEMS} items", text.len());

    let (parsed, _) = timed("json::parse", || json::parse(text.as_bytes()));
    assert_eq!(parsed.as_ref().ok(), Some(&document));
    drop(parsed);
    // Alternate, dropping each result, so neither parser pays for the other's memory.
    let mut ours = Duration::MAX;
    let mut serde = Duration::MAX;
    for _ in 0..2 {
        ours = ours.min(timed("json::parse", || json::parse(text.as_bytes()).is_ok()).1);
        serde = serde.min(
            timed("serde_json", || {
                serde_json::from_str::<Value>(&text).is_ok()
            })
            .1,
        );
    }

    let (values, floor) = fastest("walk", 3, || walk(&document));
    assert!(values > ITEMS);
    let (diagnostics, validation) = fastest("schema::validate", 3, || schema::validate(&document));
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.first());
    let schema_value = json::parse_str(schema::SCHEMA_JSON).unwrap_or_default();
    let reference = jsonschema::validator_for(&schema_value).unwrap_or_else(|e| panic!("{e}"));
    let (valid, _) = fastest("jsonschema is_valid (reference)", 3, || {
        reference.is_valid(&document)
    });
    assert!(valid);

    let broken = ITEMS - 2;
    if let Some(score) = document.pointer_mut(&format!("/items/{broken}/scores/partialMatch/score"))
    {
        *score = json!(2);
    }
    let (diagnostics, _) = timed("schema::validate with one error", || {
        schema::validate(&document)
    });
    let found: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        found,
        [format!("<input>: error: at /items/{broken}/scores/partialMatch/score: expected a number between 0 and 1, got 2")]
    );

    if !cfg!(debug_assertions) {
        assert!(
            validation < floor * 3,
            "validation took {validation:?}; a bare walk {floor:?}"
        );
        assert!(
            ours < serde * 2,
            "parse took {ours:?}, serde_json {serde:?}"
        );
    }
}
