//! Tests of `Citations`: unique ids in first-appearance order, each citation format and `auto`,
//! the hashed de-duplication of many markers, thresholds and option checks.

use crate::json;
use crate::json::Value;

use super::SPEC;
use crate::inputs::Inputs;
use crate::options::Options;
use crate::outcome::{ErrorCode, EvalResult, Verdict};

fn run(options: Value, response: &str) -> EvalResult {
    let map = options.as_object().cloned().unwrap_or_default();
    let evaluator = (SPEC.build)("Citations", Options::new(&map)).expect("valid options");
    let response = Value::from(response);
    evaluator.evaluate(&Inputs::new().with("response", &response))
}

fn oai(ids: &[&str]) -> String {
    let mut marker = String::from("\u{E200}cite");
    for id in ids {
        marker.push('\u{E202}');
        marker.push_str(id);
    }
    marker.push('\u{E201}');
    marker
}

fn texts(result: &EvalResult) -> Vec<String> {
    result.details["citations"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| item["text"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn counts_unique_ids_not_occurrences() {
    let response = oai(&["turn1search1"]).repeat(6);
    let result = run(json!({}), &response);
    assert_eq!(result.details["count"], json!(1));
    assert_eq!(result.result, Verdict::Pass);
    assert_eq!(result.score, Some(1.0));
    assert_eq!(result.threshold, Some(1.0));
}

#[test]
fn first_appearance_order() {
    let response = format!(
        "a{} b{} c{} d{}",
        oai(&["turn1search5"]),
        oai(&["turn1search4", "turn1search5"]),
        oai(&["turn1search4"]),
        oai(&["turn1search5"])
    );
    let result = run(json!({"threshold": 2}), &response);
    assert_eq!(result.details["count"], json!(2));
    assert_eq!(texts(&result), ["turn1search5", "turn1search4"]);
    assert_eq!(result.result, Verdict::Pass);
    insta::assert_json_snapshot!(result);
}

#[test]
fn below_threshold_fails() {
    let result = run(json!({"threshold": 3}), &format!("x{}", oai(&["a", "b"])));
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(result.threshold, Some(3.0));
    assert_eq!(
        result.reason.as_deref(),
        Some("Found 2 unique citations (oai_unicode): a, b; at least 3 required")
    );
}

#[test]
fn no_citations_fails_with_default_threshold() {
    let result = run(json!({}), "No sources [1] here");
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(result.details["count"], json!(0));
    assert_eq!(result.details["format"], json!("oai_unicode"));
    assert_eq!(result.details["citations"], json!([]));
    insta::assert_json_snapshot!(result);
}

#[test]
fn bracket_format() {
    let result = run(
        json!({"citation_format": "bracket"}),
        "Graph is an API [1][2]. Use it [1]. Link [3](https://x.example).",
    );
    assert_eq!(texts(&result), ["1", "2"]);
    assert_eq!(result.details["format"], json!("bracket"));
    assert_eq!(
        result.details["citations"][0],
        json!({"index": 1, "text": "1"})
    );
}

#[test]
fn markdown_format_carries_sources() {
    let result = run(
        json!({"citation_format": "markdown"}),
        "See [1](https://learn.example/graph#overview) and [2](https://learn.example/api) and again [1](https://learn.example/graph#other).",
    );
    assert_eq!(result.details["count"], json!(2));
    insta::assert_json_snapshot!(result);
}

#[test]
fn mixed_is_the_union_in_text_order() {
    let response = format!(
        "First [2](https://b.example) then {} then [1] then [2]",
        oai(&["turn1search1"])
    );
    let result = run(json!({"citation_format": "mixed"}), &response);
    assert_eq!(texts(&result), ["2", "turn1search1", "1"]);
    assert_eq!(result.details["format"], json!("mixed"));
    assert_eq!(
        result.details["citations"][0]["source"],
        json!("https://b.example")
    );
}

#[test]
fn mixed_takes_the_source_from_a_later_markdown_occurrence() {
    let result = run(
        json!({"citation_format": "mixed"}),
        "Claim [1]. Source: [1](https://a.example).",
    );
    assert_eq!(
        result.details["citations"],
        json!([{"index": 1, "text": "1", "source": "https://a.example"}])
    );
}

#[test]
fn auto_prefers_oai_then_markdown_then_bracket() {
    let all = format!("[1] [2](https://b.example) {}", oai(&["t1"]));
    let result = run(json!({"citation_format": "auto"}), &all);
    assert_eq!(result.details["format"], json!("oai_unicode"));
    assert_eq!(texts(&result), ["t1"]);

    let result = run(
        json!({"citation_format": "AUTO"}),
        "[1] [2](https://b.example)",
    );
    assert_eq!(result.details["format"], json!("markdown"));
    assert_eq!(texts(&result), ["2"]);

    let result = run(json!({"citation_format": "auto"}), "[1] and [3]");
    assert_eq!(result.details["format"], json!("bracket"));
    assert_eq!(texts(&result), ["1", "3"]);

    let result = run(json!({"citation_format": "auto"}), "plain text");
    assert_eq!(result.details["format"], json!("auto"));
    assert_eq!(result.result, Verdict::Fail);
}

#[test]
fn many_citations_use_the_hash_index_and_keep_order() {
    let response: String = (0..100)
        .rev()
        .chain(0..100)
        .map(|n| format!("[{n}] "))
        .collect();
    let result = run(
        json!({"citation_format": "bracket", "threshold": 100}),
        &response,
    );
    assert_eq!(result.details["count"], json!(100));
    assert_eq!(texts(&result).first().map(String::as_str), Some("99"));
    assert_eq!(result.result, Verdict::Pass);
    assert!(result.reason.unwrap_or_default().ends_with(", …"));
}

#[test]
fn missing_response_does_not_panic() {
    let map = crate::json::Map::new();
    let evaluator = (SPEC.build)("Citations", Options::new(&map)).expect("valid options");
    let result = evaluator.evaluate(&Inputs::new());
    assert_eq!(
        result.error.map(|e| e.code),
        Some(ErrorCode::EmptyAgentResponse)
    );
}

#[test]
fn options_are_validated() {
    let reject = |options: Value| {
        let map = options.as_object().cloned().unwrap_or_default();
        (SPEC.build)("Citations", Options::new(&map))
            .err()
            .map(|e| e.message)
    };
    assert!(reject(json!({"threshold": 0})).is_some_and(|m| m.contains("threshold")));
    assert!(reject(json!({"threshold": 1.5})).is_some_and(|m| m.contains("threshold")));
    assert!(reject(json!({"citation_format": "footnote"}))
        .is_some_and(|m| m.contains("citation_format")));
    assert!(reject(json!({"case_sensitive": true})).is_some_and(|m| m.contains("unknown option")));
    assert!(reject(json!({"threshold": 2.0, "citation_format": "Mixed"})).is_none());
}
