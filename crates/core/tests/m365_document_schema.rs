//! `m365_document::write` output validates against the official eval-document schema (1.8.0).
//!
//! Each official valid example is stripped of its outputs; outcomes are rebuilt by hand from the
//! scores it carried (or made up when it had none), written back, and validated.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::PathBuf;

use agenteval_core::evaluators;
use agenteval_core::json;
use agenteval_core::json::{Map, Value};
use agenteval_core::scored::m365_document::{self, DocumentOptions};
use agenteval_core::status;
use agenteval_core::{CaseOutcome, Dialect, ErrorCode, EvalResult, ItemStatus, RunReport, Verdict};

fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/m365-copilot-eval/schema/v1")
}

fn read_json(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn validator() -> jsonschema::Validator {
    let schema = read_json(schema_dir().join("eval-document.schema.json"));
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&serde_json::Value::from(schema.clone()))
        .unwrap_or_else(|e| panic!("schema: {e}"))
}

fn schema_errors(validator: &jsonschema::Validator, document: &Value) -> Vec<String> {
    validator
        .iter_errors(&serde_json::Value::from(document.clone()))
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect()
}

fn example_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(schema_dir().join("examples/valid"))
        .unwrap_or_else(|e| panic!("examples: {e}"))
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect();
    names.sort();
    names
}

fn example(name: &str) -> Value {
    read_json(schema_dir().join("examples/valid").join(name))
}

/// The built-in whose score key is `key`, else `key` itself (a custom evaluator).
fn evaluator_name(key: &str) -> String {
    evaluators::catalog()
        .find(|spec| evaluators::score_key(spec.name) == key)
        .map_or_else(|| key.to_owned(), |spec| spec.name.to_owned())
}

/// Rebuilds the result an official score entry describes.
fn result_from_score(key: &str, entry: &Value) -> EvalResult {
    let name = evaluator_name(key);
    if entry["result"] == "error" {
        let message = entry["error"].as_str().unwrap_or("failed");
        return EvalResult::error(&name, ErrorCode::EvaluatorError, message);
    }
    let mut result = EvalResult::verdict(&name, entry["result"] == "pass");
    result.score = entry.get("score").and_then(Value::as_f64);
    result.threshold = entry.get("threshold").and_then(Value::as_f64);
    result.reason = entry
        .get("reason")
        .and_then(Value::as_str)
        .map(str::to_owned);
    for (detail, value) in entry.as_object().into_iter().flatten() {
        if !["score", "result", "threshold", "reason"].contains(&detail.as_str()) {
            result.details.insert(detail.clone(), value.clone());
        }
    }
    result
}

/// Results for a case that carried no scores: alternately a fail and a partial, covering the
/// score-less ExactMatch, Citations' count shape and an ErroredScore.
fn made_up_results(seed: usize) -> Vec<EvalResult> {
    if seed.is_multiple_of(2) {
        vec![
            EvalResult::scored("Relevance", true, 4.0, 3.0).with_reason("On topic."),
            EvalResult::verdict("ExactMatch", false)
                .with_reason("No exact match")
                .with_detail("match", false),
            EvalResult::skipped("Coherence", "needs a judge that is not configured"),
        ]
    } else {
        let mut citations = EvalResult::scored("Citations", true, 1.0, 1.0)
            .with_detail("count", 1)
            .with_detail("format", "bracket")
            .with_detail(
                "citations",
                json!([{"index": 1, "text": "Source", "source": "https://example.com"}]),
            );
        citations.reason = None;
        vec![
            citations,
            EvalResult::scored("PartialMatch", true, 0.75, 0.5).with_reason("Match score: 0.750"),
            EvalResult::error(
                "Coherence",
                ErrorCode::JudgeTimeout,
                "Judge did not answer within 30s",
            ),
        ]
    }
}

/// Removes a case's outputs and returns the outcome that reproduces them.
fn take_case(case: &mut Map<String, Value>, index: usize, turn: Option<usize>) -> CaseOutcome {
    let scores = case.shift_remove("scores");
    let original_status = case.shift_remove("status");
    case.shift_remove("error");
    let results: Vec<EvalResult> = match &scores {
        Some(Value::Object(scores)) => scores
            .iter()
            .map(|(key, entry)| result_from_score(key, entry))
            .collect(),
        _ => made_up_results(index + turn.unwrap_or(0)),
    };
    let has_response = case
        .get("response")
        .and_then(Value::as_str)
        .is_some_and(|response| !response.trim().is_empty())
        || scores.is_none();
    let status = match original_status.as_ref().and_then(Value::as_str) {
        Some("pass") => Some(ItemStatus::Pass),
        Some("fail") => Some(ItemStatus::Fail),
        Some("partial") => Some(ItemStatus::Partial),
        Some("error") => Some(ItemStatus::Error),
        _ => status::item_status(&results, has_response),
    };
    CaseOutcome {
        index,
        turn,
        status,
        results,
        problem: None,
        review: None,
    }
}

/// The example without outputs, and the report that puts them back.
fn strip(document: &Value) -> (Value, RunReport) {
    let mut stripped = document.clone();
    let mut report = RunReport::new(Dialect::M365);
    let items = stripped
        .get_mut("items")
        .and_then(Value::as_array_mut)
        .map(|items| items.iter_mut());
    for (index, item) in items.into_iter().flatten().enumerate() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        item.shift_remove("summary");
        if let Some(Value::Array(turns)) = item.get_mut("turns") {
            for (turn, case) in turns.iter_mut().enumerate() {
                if let Some(case) = case.as_object_mut() {
                    report.push(take_case(case, index, Some(turn)));
                }
            }
        } else {
            report.push(take_case(item, index, None));
        }
    }
    (stripped, report)
}

fn evaluated_at() -> DocumentOptions {
    DocumentOptions {
        evaluated_at: Some("2026-05-01T11:00:00Z".to_owned()),
    }
}

#[test]
fn every_valid_example_still_validates_after_writing() {
    let validator = validator();
    let names = example_names();
    assert!(names.len() >= 9, "examples found: {names:?}");
    for name in names {
        let original = example(&name);
        assert_eq!(
            schema_errors(&validator, &original),
            Vec::<String>::new(),
            "{name} as shipped"
        );
        let (stripped, report) = strip(&original);
        assert!(!report.items.is_empty(), "{name}");
        let written = m365_document::write(&stripped, &report, &evaluated_at());
        assert_eq!(
            schema_errors(&validator, &written),
            Vec::<String>::new(),
            "{name} written"
        );
        assert_eq!(
            written["schemaVersion"], original["schemaVersion"],
            "{name}"
        );
        assert_eq!(
            written["metadata"]["evaluatedAt"], "2026-05-01T11:00:00Z",
            "{name}"
        );
    }
}

#[test]
fn made_up_outcomes_produce_every_score_shape() {
    let (stripped, report) = strip(&example("minimal.json"));
    let written = m365_document::write(&stripped, &report, &evaluated_at());
    let scores = &written["items"][0]["scores"];
    assert_eq!(
        scores["exactMatch"],
        json!({"result": "fail", "reason": "No exact match", "match": false})
    );
    assert!(scores.get("coherence").is_none(), "skipped is left out");
    let mixed = example("mixed-single-and-multi-turn.json");
    let (stripped, report) = strip(&mixed);
    let written = m365_document::write(&stripped, &report, &evaluated_at());
    let text = written.to_string();
    assert!(text.contains("\"citations\":{\"result\":\"pass\",\"threshold\":1,\"count\":1"));
    assert!(text.contains("{\"result\":\"error\",\"error\":\"Judge did not answer within 30s\"}"));
}

/// Writing the outcomes the official output examples describe reproduces them byte for byte,
/// except the item-level error messages of cases without a response, which are agenteval's own.
#[test]
fn official_outputs_round_trip() {
    for name in ["scenarios-with-mixed-errors.json", "multi-turn-output.json"] {
        let mut expected = example(name);
        let (stripped, report) = strip(&expected);
        let options = DocumentOptions {
            evaluated_at: expected["metadata"]["evaluatedAt"]
                .as_str()
                .map(str::to_owned),
        };
        let written = m365_document::write(&stripped, &report, &options);
        let no_response =
            json!({"code": "agentRequestFailed", "message": m365_document::NO_RESPONSE_MESSAGE});
        for item in expected
            .get_mut("items")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let cases: Vec<&mut Value> = match item.get_mut("turns") {
                Some(Value::Array(turns)) => turns.iter_mut().collect(),
                _ => vec![item],
            };
            for case in cases {
                if case["status"] == "error" {
                    if let Some(case) = case.as_object_mut() {
                        case.insert("error".to_owned(), no_response.clone());
                    }
                }
            }
        }
        assert_eq!(
            serde_json::to_string_pretty(&written).unwrap_or_default(),
            serde_json::to_string_pretty(&expected).unwrap_or_default(),
            "{name}"
        );
    }
}

#[test]
fn errored_score_code_is_what_the_1_8_schema_rejects() {
    let validator = validator();
    let mut document = example("scenarios-with-mixed-errors.json");
    let (stripped, report) = strip(&document);
    let below = m365_document::write(&stripped, &report, &evaluated_at());
    assert!(!below.to_string().contains("\"code\":\"evaluatorError\""));
    assert_eq!(schema_errors(&validator, &below), Vec::<String>::new());

    if let Some(root) = document.as_object_mut() {
        root.insert("schemaVersion".to_owned(), json!("1.9.0"));
    }
    let (stripped, report) = strip(&document);
    let from_1_9 = m365_document::write(&stripped, &report, &evaluated_at());
    assert_eq!(
        from_1_9["items"][3]["scores"]["coherence"],
        json!({"result": "error",
               "error": "Evaluator failed: Connection timeout to Azure OpenAI endpoint after 30s",
               "code": "evaluatorError"})
    );
    assert!(
        !schema_errors(&validator, &from_1_9).is_empty(),
        "the 1.8 schema has no ErroredScore.code, so writing it below 1.9 would be invalid"
    );
    assert!(report
        .items
        .iter()
        .flat_map(|outcome| &outcome.results)
        .any(|result| result.result == Verdict::Error));
}

#[test]
fn validator_checks_evaluated_at_format() {
    let validator = validator();
    let (stripped, report) = strip(&example("minimal.json"));
    let options = DocumentOptions {
        evaluated_at: Some("yesterday".to_owned()),
    };
    let written = m365_document::write(&stripped, &report, &options);
    let errors = schema_errors(&validator, &written);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("/metadata/evaluatedAt"), "{errors:?}");
}
