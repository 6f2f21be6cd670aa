//! The M365 score objects built from the deterministic M365 evaluators' results validate against the
//! official schema's score `$defs` (ToolCallEvaluatorScoreValid, added in schema 1.11, is written
//! out here because the copied schema is 1.8).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use agenteval_core::evaluators::find;
use agenteval_core::json;
use agenteval_core::json::{Map, Value};
use agenteval_core::{EvalResult, Inputs, Options, Verdict};

const SCHEMA: &str =
    include_str!("../../../tests/fixtures/m365-copilot-eval/schema/v1/eval-document.schema.json");

/// The generic M365 score object: `{score?, result, threshold?, reason?, ...details}`.
fn score_object(name: &str, result: &EvalResult) -> Value {
    let spec = find(name).expect("built-in");
    let mut object = Map::new();
    if spec.m365_reports_score {
        if let Some(score) = result.score {
            object.insert("score".into(), json!(score));
        }
    }
    object.insert("result".into(), json!(result.result.as_str()));
    if let Some(threshold) = result.threshold {
        object.insert("threshold".into(), json!(threshold));
    }
    if let Some(reason) = &result.reason {
        object.insert("reason".into(), json!(reason));
    }
    object.extend(result.details.to_map());
    Value::Object(object)
}

fn validator(definition: &str) -> jsonschema::Validator {
    let schema: serde_json::Value = serde_json::from_str(SCHEMA).expect("schema parses");
    let mut defs = schema["$defs"].clone();
    defs["ToolCallEvaluatorScoreValid"] = serde_json::json!({
        "type": "object",
        "required": ["score", "result", "threshold", "reason"],
        "properties": {
            "score": {"type": "number", "enum": [0, 1]},
            "result": {"type": "string", "enum": ["pass", "fail"]},
            "threshold": {"type": "number", "const": 1.0},
            "reason": {"type": "string", "minLength": 1}
        },
        "oneOf": [
            {"properties": {"result": {"const": "pass"}, "score": {"const": 1.0}}},
            {"properties": {"result": {"const": "fail"}, "score": {"const": 0.0}}}
        ]
    });
    let wrapper = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": defs,
        "$ref": format!("#/$defs/{definition}")
    });
    jsonschema::validator_for(&wrapper).expect("valid schema")
}

fn evaluate(name: &str, options: Value, inputs: &[(&str, Value)]) -> EvalResult {
    let spec = find(name).expect("built-in");
    let map = options.as_object().cloned().unwrap_or_default();
    let evaluator = (spec.build)(name, Options::new(&map)).expect("valid options");
    let mut item = Inputs::new();
    for (key, value) in inputs {
        item.set(key, value);
    }
    evaluator.evaluate(&item)
}

fn assert_valid(definition: &str, name: &str, result: &EvalResult) {
    assert!(
        matches!(result.result, Verdict::Pass | Verdict::Fail),
        "{result:?}"
    );
    let object = score_object(name, result);
    let validator = validator(definition);
    let errors: Vec<String> = validator
        .iter_errors(&serde_json::Value::from(object.clone()))
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{definition}: {object} → {errors:?}");
}

#[test]
fn exact_match_shape() {
    for (response, expected) in [("4", " 4 "), ("5", "4")] {
        let result = evaluate(
            "ExactMatch",
            json!({}),
            &[
                ("response", json!(response)),
                ("expected_response", json!(expected)),
            ],
        );
        assert_valid("ExactMatchScoreValid", "ExactMatch", &result);
    }
}

#[test]
fn citations_shape() {
    let response = "A [1](https://a.example) b \u{E200}cite\u{E202}turn1search1\u{E201} c [2]";
    for format in ["oai_unicode", "bracket", "markdown", "mixed", "auto"] {
        for threshold in [1, 5] {
            let result = evaluate(
                "Citations",
                json!({"citation_format": format, "threshold": threshold}),
                &[("response", json!(response))],
            );
            assert_valid("CitationScoreValid", "Citations", &result);
        }
    }
}

#[test]
fn retrieval_shapes() {
    let diagnostics = json!({"retrieval_executions": [{
        "capability": "OneDriveAndSharePoint",
        "queries": [{"queryString": "mortgage joint check"}],
        "retrievalHits": [
            {"rank": 1, "webUrl": "https://a", "extracts": [{"text": "joint check over $10,000"}]},
            {"rank": 2, "webUrl": null, "extracts": [{"text": "other"}]}
        ]
    }]});
    let inputs = [("diagnostics", diagnostics)];
    for options in [
        json!({"capability": "OneDriveAndSharePoint", "selector": "mortgage", "includes": ["joint"]}),
        json!({"capability": "OneDriveAndSharePoint", "selector": "mortgage", "excludes": ["joint"]}),
        json!({"capability": "Email", "selector": "mortgage"}),
    ] {
        let result = evaluate("RetrievalQuery", options, &inputs);
        assert_valid("RetrievalQueryScoreValid", "RetrievalQuery", &result);
    }
    for options in [
        json!({"capability": "OneDriveAndSharePoint", "expected_items": [{"retrievalExtract_contains": "joint check"}]}),
        json!({"capability": "OneDriveAndSharePoint", "min_expected_count": 3,
               "expected_items": [{"retrievalExtract_contains": "joint check"}, {"retrievalExtract_contains": "other"}, {"retrievalExtract_contains": "absent"}]}),
        json!({"capability": "Email", "min_expected_count": 1}),
    ] {
        let result = evaluate("RetrievalResult", options, &inputs);
        assert_valid("RetrievalResultScoreValid", "RetrievalResult", &result);
    }
}

#[test]
fn tool_call_shapes() {
    let diagnostics = json!({"tool_calls": {
        "selected_functions": [{"plugin_name": "p", "function_name": "f"}],
        "executions": [{"plugin_name": "p", "function_name": "f", "response_status": 200}]
    }});
    let inputs = [("diagnostics", diagnostics)];
    for function in ["f", "g"] {
        let options = json!({"calls": [{"tool": {"plugin_name": "p", "function_name": function}}]});
        for name in ["ToolCallSelection", "ToolCallExecution"] {
            let result = evaluate(name, options.clone(), &inputs);
            assert_valid("ToolCallEvaluatorScoreValid", name, &result);
        }
    }
}

#[test]
fn the_validator_rejects_bad_shapes() {
    let citations = validator("CitationScoreValid");
    let bad_index =
        json!({"count": 1, "result": "pass", "threshold": 1, "citations": [{"index": 0}]});
    assert!(!citations.is_valid(&serde_json::Value::from(bad_index)));
    let tool_calls = validator("ToolCallEvaluatorScoreValid");
    let mismatched = json!({"score": 0.0, "result": "pass", "threshold": 1.0, "reason": "x"});
    assert!(!tool_calls.is_valid(&serde_json::Value::from(mismatched)));
}
