//! The official schema examples and samples through `schema::validate`, with every verdict
//! cross-checked against the `jsonschema` crate on the official 1.8.0 file and on our extended file.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agenteval_core::diagnostic::Location;
use agenteval_core::json::Value;
use agenteval_core::{json, schema};

const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/m365-copilot-eval"
);

fn read(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    json::parse(&bytes).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn json_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(FIXTURES).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
}

fn name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `pointer: message` for every diagnostic; panics on a diagnostic without a pointer.
fn messages(document: &Value) -> Vec<String> {
    schema::validate(document)
        .into_iter()
        .map(|diagnostic| match diagnostic.location {
            Location::Pointer { pointer, .. } => format!("{pointer}: {}", diagnostic.message),
            other => panic!("diagnostic without a pointer: {other:?}"),
        })
        .collect()
}

fn valid_documents() -> Vec<(String, Value)> {
    let mut documents: Vec<(String, Value)> = json_files("schema/v1/examples/valid")
        .iter()
        .map(|path| (format!("valid/{}", name(path)), read(path)))
        .collect();
    documents.extend(
        json_files("samples")
            .iter()
            .map(|path| (format!("samples/{}", name(path)), read(path)))
            .filter(|(_, document)| document.get("schemaVersion").is_some()),
    );
    documents
}

fn invalid_documents() -> Vec<(String, Value)> {
    json_files("schema/v1/examples/invalid")
        .iter()
        .filter(|path| name(path) != "missing-schema-version.json")
        .map(|path| (format!("invalid/{}", name(path)), read(path)))
        .collect()
}

/// Hand-written documents the official 1.8.0 schema and ours both reject.
fn hand_written_invalid() -> Vec<(String, Value)> {
    let turn = json!({"prompt": "next?"});
    vec![
        (
            "deep wrong types".to_owned(),
            json!({"schemaVersion": "1.6.0", "items": [{"prompt": "p",
                "citations": [{"index": "1"}],
                "diagnostics": {"retrieval_executions": [{"retrievalHits": [{"rank": "first", "extracts": [{"text": 3}]}]}]},
                "scores": {"citations": {"count": 1.5, "result": "pass", "threshold": 1}}}]}),
        ),
        (
            "thresholds out of range".to_owned(),
            json!({"schemaVersion": "1.5.0",
                "default_evaluators": {"Relevance": {"threshold": 0}, "PartialMatch": {"threshold": 1.5}, "Citations": {"threshold": 0}},
                "items": [{"prompt": "p", "scores": {"coherence": {"score": 6, "result": "pass", "threshold": 3}}}]}),
        ),
        (
            "unknown evaluator option".to_owned(),
            json!({"schemaVersion": "1.6.0", "items": [{"prompt": "p",
                "evaluators": {"ExactMatch": {"case_sensitve": true}, "MyCheck": {"treshold": 2}}}]}),
        ),
        (
            "more than 20 turns".to_owned(),
            json!({"schemaVersion": "1.2.0", "items": [{"turns": vec![turn; 21]}]}),
        ),
        (
            "prompt and turns in a thread with a bad turn".to_owned(),
            json!({"schemaVersion": "1.2.0", "items": [{"prompt": "p", "turns": [{"prompt": ""}]}]}),
        ),
        (
            "thread summary and status".to_owned(),
            json!({"schemaVersion": "1.4.0", "items": [{"turns": [{"prompt": "p", "status": "ok"}],
                "summary": {"turns_total": 0, "turns_passed": -1, "turns_failed": 0, "turns_partial": 0, "overall_status": "pass"}}]}),
        ),
        (
            "retrieval expected item with webUrl".to_owned(),
            json!({"schemaVersion": "1.5.0", "items": [{"prompt": "p", "evaluators": {"RetrievalResult": {
                "capability": "Email", "max_rank": 0,
                "expected_items": [{"retrievalExtract_contains": "x", "webUrl": "https://contoso.com"}]}}}]}),
        ),
        (
            "items is not an array, root extras are fine".to_owned(),
            json!({"schemaVersion": "1.0.0", "description": "root is open", "items": "all of them"}),
        ),
        (
            "evaluators_mode and metadata types".to_owned(),
            json!({"schemaVersion": "1.1.0", "metadata": {"name": 7, "tags": "a"},
                "items": [{"prompt": "p", "evaluators_mode": "merge", "extensions": []}]}),
        ),
    ]
}

/// Documents using later-schema features: valid for our file, compared with jsonschema on it only.
fn extended_only() -> Vec<(String, Value, bool)> {
    vec![
        (
            "1.11 tool calls".to_owned(),
            json!({"schemaVersion": "1.11.0", "default_allowed_tools": ["a_b"],
                "items": [{"prompt": "p", "tags": ["t"], "allowed_tools_mode": "extend",
                    "evaluators": {"ToolCallExecution": {"calls": [{"id": "c1", "tool": {"plugin_name": "a", "function_name": "b"}}]}},
                    "diagnostics": {"tool_calls": {"selected_functions": [], "executions": null}},
                    "scores": {"toolCallExecution": {"result": "error", "error": "no evidence", "code": "toolCallEvidenceIndeterminate"}}}]}),
            true,
        ),
        (
            "whitespace-only allowed tool".to_owned(),
            json!({"schemaVersion": "1.11.0", "items": [{"prompt": "p", "allowed_tools": ["  "]}]}),
            false,
        ),
        (
            "keyword match".to_owned(),
            json!({"schemaVersion": "1.9.0", "items": [{"prompt": "p",
                "evaluators": {"KeywordMatch": {"keywords": ["a"], "mode": "any", "case_sensitive": true}},
                "scores": {"keywordMatch": {"score": 1, "result": "pass", "threshold": 1, "keywords_found": ["a"]}}}]}),
            true,
        ),
        (
            "keyword match without keywords".to_owned(),
            json!({"schemaVersion": "1.9.0", "items": [{"prompt": "p", "evaluators": {"KeywordMatch": {"mode": "all"}}}]}),
            false,
        ),
        (
            "tool call score pass with score 0".to_owned(),
            json!({"schemaVersion": "1.11.0", "items": [{"prompt": "p",
                "scores": {"toolCallSelection": {"score": 0, "result": "pass", "threshold": 1, "reason": "r"}}}]}),
            false,
        ),
    ]
}

fn jsonschema_validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&serde_json::Value::from(schema.clone()))
        .unwrap_or_else(|error| panic!("schema does not compile: {error}"))
}

fn official_schema() -> Value {
    read(&Path::new(FIXTURES).join("schema/v1/eval-document.schema.json"))
}

fn extended_schema() -> Value {
    json::parse_str(schema::SCHEMA_JSON).unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn valid_examples_and_samples_are_accepted() {
    for (name, document) in valid_documents() {
        assert_eq!(messages(&document), Vec::<String>::new(), "{name}");
    }
}

#[test]
fn invalid_examples_are_rejected_naming_pointer_and_expectation() {
    let mut report = BTreeMap::new();
    for (name, document) in invalid_documents()
        .into_iter()
        .chain(hand_written_invalid())
    {
        let found = messages(&document);
        assert!(!found.is_empty(), "{name} was accepted");
        for message in &found {
            assert!(message.starts_with('/'), "{name}: {message}");
            assert!(
                message.contains("expected")
                    || message.contains("missing required field")
                    || message.contains("not allowed"),
                "{name}: {message}"
            );
        }
        report.insert(name, found);
    }
    insta::assert_json_snapshot!("invalid_documents", report);
}

#[test]
fn missing_schema_version_is_the_only_problem_reported() {
    let path = Path::new(FIXTURES).join("schema/v1/examples/invalid/missing-schema-version.json");
    assert_eq!(
        messages(&read(&path)),
        ["/schemaVersion: missing required field"]
    );
}

#[test]
fn verdicts_match_jsonschema_on_the_official_and_extended_files() {
    let official = jsonschema_validator(&official_schema());
    let extended = jsonschema_validator(&extended_schema());
    let mut documents: Vec<(String, Value, bool)> = Vec::new();
    documents.extend(valid_documents().into_iter().map(|(n, d)| (n, d, true)));
    documents.extend(invalid_documents().into_iter().map(|(n, d)| (n, d, false)));
    documents.extend(
        hand_written_invalid()
            .into_iter()
            .map(|(n, d)| (n, d, false)),
    );
    for (name, document, expected) in &documents {
        let ours = schema::validate(document).is_empty();
        assert_eq!(ours, *expected, "{name}: our verdict");
        assert_eq!(
            official.is_valid(&serde_json::Value::from(document.clone())),
            ours,
            "{name}: official 1.8.0 file"
        );
        assert_eq!(
            extended.is_valid(&serde_json::Value::from(document.clone())),
            ours,
            "{name}: extended file"
        );
    }
    for (name, document, expected) in extended_only() {
        let ours = has_no_error(&document);
        assert_eq!(
            ours,
            expected,
            "{name}: our verdict {:?}",
            messages(&document)
        );
        assert_eq!(
            extended.is_valid(&serde_json::Value::from(document.clone())),
            ours,
            "{name}: extended file"
        );
    }
}

/// Whether our validation finds no error (warnings, where we accept what the official schema
/// refuses, are not verdicts).
fn has_no_error(document: &Value) -> bool {
    schema::validate(document)
        .iter()
        .all(|diagnostic| diagnostic.severity != agenteval_core::diagnostic::Severity::Error)
}

/// Every way of breaking one value in a valid document gets the same verdict from us and from
/// jsonschema on our extended file.
#[test]
fn mutated_documents_match_jsonschema() {
    let extended = jsonschema_validator(&extended_schema());
    let replacements = [
        json!(null),
        json!("x"),
        json!(""),
        json!(0),
        json!(1.5),
        json!(7),
        json!(true),
        json!([]),
        json!({}),
        json!("error"),
    ];
    let mut checked = 0;
    for (name, document) in valid_documents().into_iter().chain(
        extended_only()
            .into_iter()
            .filter(|(_, _, valid)| *valid)
            .map(|(n, d, _)| (n, d)),
    ) {
        for pointer in pointers(&document, "") {
            let mut variants: Vec<Value> = replacements
                .iter()
                .filter_map(|replacement| replaced(&document, &pointer, replacement.clone()))
                .collect();
            variants.extend(removed(&document, &pointer));
            variants.extend(with_unknown_key(&document, &pointer));
            for variant in variants {
                let ours = has_no_error(&variant);
                assert_eq!(
                    extended.is_valid(&serde_json::Value::from(variant.clone())),
                    ours,
                    "{name} at {pointer}: {variant}\nours: {:?}",
                    messages(&variant)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} variants");
}

fn pointers(value: &Value, at: &str) -> Vec<String> {
    let mut found = vec![at.to_owned()];
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                let escaped = key.replace('~', "~0").replace('/', "~1");
                found.extend(pointers(child, &format!("{at}/{escaped}")));
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate().take(3) {
                found.extend(pointers(child, &format!("{at}/{index}")));
            }
        }
        _ => {}
    }
    found
}

fn replaced(document: &Value, pointer: &str, replacement: Value) -> Option<Value> {
    if pointer.is_empty() || pointer == "/schemaVersion" {
        return None;
    }
    let mut copy = document.clone();
    *copy.pointer_mut(pointer)? = replacement;
    Some(copy)
}

fn removed(document: &Value, pointer: &str) -> Option<Value> {
    let (parent, key) = pointer.rsplit_once('/')?;
    let mut copy = document.clone();
    match copy.pointer_mut(parent)? {
        Value::Object(object) => {
            object.shift_remove(&key.replace("~1", "/").replace("~0", "~"))?;
        }
        Value::Array(items) => {
            let index: usize = key.parse().ok()?;
            if index < items.len() {
                items.remove(index);
            }
        }
        _ => return None,
    }
    Some(copy)
}

fn with_unknown_key(document: &Value, pointer: &str) -> Option<Value> {
    let mut copy = document.clone();
    copy.pointer_mut(pointer)?
        .as_object_mut()?
        .insert("zz_unknown".to_owned(), json!(1));
    Some(copy)
}
