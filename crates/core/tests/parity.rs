//! Parity with azure-ai-evaluation 1.18.10: replays the generated cases in
//! `tests/fixtures/parity/*.json` (see `tests/parity/generate_cases.py`), or those of another
//! sample (see [`load`]), through the evaluator catalog, offline. Scores must be bit-identical,
//! except where the reference uses ln/exp/log2 (document_retrieval, BLEU), where 1e-12 relative is
//! allowed; messages must match exactly; raw Python crashes and documented deviations must be
//! errors.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::Read;
use std::path::PathBuf;

use agenteval_core::evaluators;
use agenteval_core::json::{Map, Value};
use agenteval_core::{EvalResult, Inputs, Options, Verdict};

/// The committed case files, or those in `AGENTEVAL_PARITY_DIR` (an exploratory sample written by
/// `generate_cases.py --seed-offset N --out DIR`).
fn load(name: &str) -> Value {
    let directory = std::env::var_os("AGENTEVAL_PARITY_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/parity"),
        PathBuf::from,
    );
    let path = directory.join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// How closely floats must agree.
#[derive(Clone, Copy)]
enum Tolerance {
    Exact,
    Relative(f64),
}

fn floats_agree(expected: f64, actual: f64, tolerance: Tolerance) -> bool {
    match tolerance {
        Tolerance::Exact => expected.to_bits() == actual.to_bits(),
        Tolerance::Relative(limit) => {
            expected == actual
                || (expected - actual).abs() <= limit * expected.abs().max(actual.abs())
        }
    }
}

/// Compares a reference property value with ours (`"NaN"` ↔ `null`; ints and floats stay apart).
fn values_agree(expected: &Value, actual: &Value, tolerance: Tolerance) -> bool {
    match (expected, actual) {
        (Value::String(nan), Value::Null) => nan == "NaN",
        (Value::Number(e), Value::Number(a)) => {
            e.is_f64() == a.is_f64()
                && floats_agree(
                    e.as_f64().unwrap_or(f64::NAN),
                    a.as_f64().unwrap_or(f64::NAN),
                    tolerance,
                )
        }
        _ => expected == actual,
    }
}

fn build_and_run(evaluator: &str, case: &Value) -> Result<EvalResult, String> {
    let spec = evaluators::find(evaluator).unwrap_or_else(|| panic!("{evaluator} not in catalog"));
    let empty = Map::new();
    let init = case["init"].as_object().unwrap_or(&empty);
    let configured = (spec.build)(evaluator, Options::new(init)).map_err(|e| e.message)?;
    let mut inputs = Inputs::new();
    for (key, value) in case["inputs"].as_object().unwrap_or(&empty) {
        inputs.set(key, value);
    }
    Ok(configured.evaluate(&inputs))
}

fn error_message(outcome: &Result<EvalResult, String>) -> Option<String> {
    match outcome {
        Err(message) => Some(message.clone()),
        Ok(result) => result.error.as_ref().map(|error| error.message.clone()),
    }
}

fn check_output(
    key: &str,
    output: &Value,
    result: &EvalResult,
    tolerance: Tolerance,
) -> Result<(), String> {
    let number = |suffix: &str| output[format!("{key}{suffix}")].as_f64();
    let score = number("").ok_or("reference has no score")?;
    if !result
        .score
        .is_some_and(|ours| floats_agree(score, ours, tolerance))
    {
        return Err(format!(
            "score: reference {score:?}, ours {:?}",
            result.score
        ));
    }
    let verdict = output[format!("{key}_result")].as_str().unwrap_or_default();
    if result.result.as_str() != verdict {
        return Err(format!(
            "result: reference {verdict}, ours {}",
            result.result.as_str()
        ));
    }
    if result.threshold != number("_threshold") {
        return Err(format!(
            "threshold: reference {:?}, ours {:?}",
            number("_threshold"),
            result.threshold
        ));
    }
    if result.reason.is_some() {
        return Err("reason should be None".to_owned());
    }
    let empty = Map::new();
    let properties = output[format!("{key}_properties")]
        .as_object()
        .unwrap_or(&empty);
    let expected_keys: Vec<&str> = properties.keys().map(String::as_str).collect();
    let actual_keys: Vec<&str> = result.details.iter().map(|(key, _)| key).collect();
    if expected_keys != actual_keys {
        return Err(format!(
            "property keys: reference {expected_keys:?}, ours {actual_keys:?}"
        ));
    }
    for (name, expected) in properties {
        let actual = &result.details[name.as_str()];
        if !values_agree(expected, actual, tolerance) {
            return Err(format!("{name}: reference {expected}, ours {actual}"));
        }
    }
    Ok(())
}

fn check_case(
    evaluator: &str,
    key: &str,
    case: &Value,
    tolerance: Tolerance,
) -> Result<(), String> {
    let outcome = build_and_run(evaluator, case);
    let expected_output = case.get("agenteval_output").or_else(|| case.get("output"));
    if let Some(output) = expected_output {
        return match &outcome {
            Ok(result) if result.result != Verdict::Error => {
                check_output(key, output, result, tolerance)
            }
            _ => Err(format!(
                "expected a score, got error {:?}",
                error_message(&outcome)
            )),
        };
    }
    let ours = error_message(&outcome);
    if let Some(expected) = case.get("error").and_then(Value::as_str) {
        return match ours {
            Some(message) if message == expected => Ok(()),
            other => Err(format!("expected error {expected:?}, got {other:?}")),
        };
    }
    if case.get("crash").is_some() || case.get("deviation").is_some() {
        return match ours {
            Some(message) if !message.is_empty() => Ok(()),
            _ => Err("the reference crashes here (or we deviate): expected an error".to_owned()),
        };
    }
    Err("case has no expectation".to_owned())
}

fn check_file(file: &str, tolerance: Tolerance) -> usize {
    let document = load(file);
    let evaluator = document["evaluator"].as_str().unwrap_or_default();
    let key = document["result_key"].as_str().unwrap_or_default();
    let cases = document["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() > 100, "{file}: too few cases");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            check_case(evaluator, key, case, tolerance)
                .err()
                .map(|why| format!("{}: {why}", case["name"].as_str().unwrap_or("?")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{file}: {} of {} cases differ from the reference:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    cases.len()
}

/// Installs the committed WordNet table, as the CLI does, for METEOR.
fn install_wordnet() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/wordnet-meteor.bin.gz");
    let compressed = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(compressed.as_slice())
        .read_to_end(&mut raw)
        .unwrap();
    agenteval_core::wordnet::install(raw).unwrap();
}

#[test]
fn meteor_score_matches_reference() {
    install_wordnet();
    let count = check_file("meteor_score.json", Tolerance::Relative(1e-12));
    assert!(count > 3000, "meteor_score.json: {count} cases");
}

#[test]
fn f1_score_matches_reference() {
    check_file("f1_score.json", Tolerance::Exact);
}

#[test]
fn rouge_score_matches_reference() {
    check_file("rouge_score.json", Tolerance::Exact);
}

#[test]
fn bleu_score_matches_reference() {
    check_file("bleu_score.json", Tolerance::Relative(1e-12));
}

#[test]
fn gleu_score_matches_reference() {
    check_file("gleu_score.json", Tolerance::Exact);
}

#[test]
fn task_navigation_efficiency_matches_reference() {
    check_file("task_navigation_efficiency.json", Tolerance::Exact);
}

#[test]
fn document_retrieval_matches_reference() {
    check_file("document_retrieval.json", Tolerance::Relative(1e-12));
}

#[test]
fn partial_match_equals_f1_score_bit_for_bit() {
    let document = load("f1_score.json");
    let spec = evaluators::find("PartialMatch").expect("PartialMatch in catalog");
    let partial = (spec.build)("PartialMatch", Options::empty()).expect("default options");
    let mut compared = 0;
    for case in document["cases"].as_array().into_iter().flatten() {
        let (Some(output), true) = (
            case.get("output"),
            case["init"].as_object().is_some_and(Map::is_empty),
        ) else {
            continue;
        };
        let inputs = Inputs::new()
            .with("response", &case["inputs"]["response"])
            .with("expected_response", &case["inputs"]["ground_truth"]);
        let ours = partial.evaluate(&inputs).score.expect("PartialMatch score");
        let reference = output["f1_score"].as_f64().expect("reference score");
        assert_eq!(ours.to_bits(), reference.to_bits(), "{}", case["name"]);
        compared += 1;
    }
    assert!(compared > 400);
}

#[test]
fn document_retrieval_item_limit() {
    let spec = evaluators::find("builtin.document_retrieval").expect("in catalog");
    let evaluator = (spec.build)("dr", Options::empty()).expect("defaults");
    let qrels = agenteval_core::json!([{"document_id": "a", "query_relevance_label": 1}]);
    let doc = |id: usize, score: Value| agenteval_core::json!({"document_id": id, "relevance_score": score});
    let message = |docs: Value| {
        let inputs = Inputs::new()
            .with("retrieval_ground_truth", &qrels)
            .with("retrieved_documents", &docs);
        evaluator.evaluate(&inputs).error.map(|error| error.message)
    };
    let too_many = Value::Array((0..10_001).map(|i| doc(i, Value::from(1))).collect());
    assert_eq!(
        message(too_many).as_deref(),
        Some("'retrieval_ground_truth' and 'retrieved_documents' inputs should contain no more than 10000 items.")
    );
    let mut late_bad: Vec<Value> = (0..10_001).map(|i| doc(i, Value::from(1))).collect();
    late_bad.push(doc(0, Value::from("x")));
    assert_eq!(
        message(Value::Array(late_bad)).as_deref(),
        Some("Retrieved document relevance score must be a numerical value.")
    );
    let limit = Value::Array((0..10_000).map(|i| doc(i, Value::from(1))).collect());
    assert_eq!(message(limit), None);
}

/// The tokenisers of BLEU, GLEU and METEOR against NLTK as the reference calls it
/// (`nltk_tokenize`), and Punkt's sentences of the ASCII texts.
#[test]
fn nltk_tokenize_matches_reference() {
    use agenteval_core::text::nltk;
    let document = load("nltk_tokenize.json");
    let cases = document["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() > 3000, "too few tokeniser cases");
    let strings = |value: &Value| -> Vec<String> {
        value
            .as_array()
            .into_iter()
            .flatten()
            .map(|token| token.as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let mut failures = Vec::new();
    for case in &cases {
        let text = case["text"].as_str().unwrap_or_default();
        let tokens = nltk::nltk_tokenize(text);
        if tokens != strings(&case["tokens"]) {
            failures.push(format!(
                "{text:?}\n  reference {:?}\n  ours      {tokens:?}",
                strings(&case["tokens"])
            ));
        }
        if case.get("sentences").is_some() {
            let sentences: Vec<String> = nltk::sentences(text)
                .into_iter()
                .map(str::to_owned)
                .collect();
            if sentences != strings(&case["sentences"]) {
                failures.push(format!(
                    "{text:?}\n  reference sentences {:?}\n  ours                {sentences:?}",
                    strings(&case["sentences"])
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} texts differ from NLTK:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
