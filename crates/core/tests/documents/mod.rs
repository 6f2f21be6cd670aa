//! M365 documents the tests that compare reading a document item by item with reading it whole
//! go through: the example, the official fixtures, documents written by hand for the edges, and a
//! generated one.

#[path = "../../benches/support/mod.rs"]
pub mod support;

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The example, and the official valid and invalid examples and samples, as `(path, text)`.
pub fn files() -> Vec<(String, String)> {
    let fixtures = root().join("tests/fixtures/m365-copilot-eval");
    let mut paths = vec![root().join("examples/m365-demo.json")];
    for dir in [
        fixtures.join("schema/v1/examples/valid"),
        fixtures.join("schema/v1/examples/invalid"),
        fixtures.join("samples"),
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        found.sort();
        paths.extend(found);
    }
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path.display().to_string(), text)
        })
        .collect()
}

/// Documents that exercise the edges, streamed or not, as `(name, text)`, and a generated one.
pub fn written_by_hand() -> Vec<(String, String)> {
    let documents = [
        // Threads, item-level plans, an unknown evaluator, a bad item, metadata after items.
        r#"{"schemaVersion": "1.11.0",
            "default_evaluators": {"ExactMatch": {}, "PartialMatch": {"threshold": 0.4}},
            "items": [
              {"prompt": "p1", "response": "Paris", "expected_response": "Paris"},
              {"prompt": "p2", "response": "", "expected_response": "x"},
              {"prompt": "p3", "response": "a b", "expected_response": "a c",
               "evaluators": {"Citatons": {}}, "evaluators_mode": "extend"},
              {"prompt": 7},
              {"turns": [
                {"prompt": "t1", "response": "yes", "expected_response": "yes"},
                {"prompt": "t2", "response": "no", "expected_response": "yes",
                 "evaluators": {"KeywordMatch": {"keywords": ["no"]}}, "evaluators_mode": "replace"}
              ], "summary": {"turns_total": 0}},
              {"prompt": "p4", "response": "r", "expected_response": "r", "status": "error",
               "error": {"code": "agentTimeout", "message": "stale"}}
            ],
            "metadata": {"owner": "qa"}}"#,
        // Version 1.8: errored scores carry no code; no metadata at all.
        r#"{"items": [{"prompt": "p", "response": "r", "expected_response": "r",
             "evaluators": {"Relevance": {}, "Citations": {"citation_format": "nope"}}}],
            "schemaVersion": "1.8.0"}"#,
        // Items written directly and items that need the value path: a score key two results
        // share, a skipped judge, errored scores with codes, text that needs escaping, empty
        // objects and arrays, output fields already present; an item without any backslash, whose
        // strings are copied unchecked.
        r#"{"schemaVersion": "1.11.0",
            "default_evaluators": {"ExactMatch": {}, "Coherence": {}},
            "items": [
              {"prompt": "q \"1\"\n\ttab", "response": "é \u0001 日本 \u20ac", "expected_response": "é",
               "context": {}, "tags": []},
              {"prompt": "café 日本 </b> & ' ", "response": "ok", "expected_response": "ok",
               "context": {"a/b": [" ", 1.5e300, -0, true]}},
              {"prompt": "p", "response": "r", "expected_response": "r",
               "evaluators": {"exactMatch": {}}, "evaluators_mode": "extend"},
              {"prompt": "p", "response": "r", "expected_response": "r",
               "evaluators": {"PartialMatch": {"threshold": 2}}, "evaluators_mode": "replace"},
              {"prompt": "p", "response": "r", "expected_response": "r", "scores": {}},
              {"prompt": "p", "response": "r", "expected_response": "r", "status": "pass"},
              {"prompt": "p", "response": "r",
               "evaluators": {"Relevance": {}}, "evaluators_mode": "replace"}
            ]}"#,
        // A thread that cannot be evaluated (its second turn is invalid) beside a good item.
        r#"{"schemaVersion": "1.11.0", "items": [
              {"turns": [{"prompt": "t", "response": "a", "expected_response": "a", "status": "pass"},
                         {"prompt": 7}], "summary": {"overall_status": "pass"}},
              {"prompt": "p", "response": "r", "expected_response": "r",
               "evaluators": {"ExactMatch": {}}}
            ]}"#,
        // Legacy forms, Foundry rows, broken documents and a repeated key are not streamed.
        r#"[{"prompt": "p", "response": "r"}]"#,
        r#"{"items": [{"prompt": "p"}]}"#,
        r#"{"schemaVersion": "1.11.0", "items": []}"#,
        r#"{"schemaVersion": "1.11.0", "items": [{"prompt": "p", "prompt": "q"}]}"#,
        r#"{"schemaVersion": "1.11.0", "default_evaluators": 3, "items": [{"prompt": "p"}]}"#,
        r#"{"schemaVersion": "1.99.0", "items": [{"prompt": "p"}]}"#,
        r#"{"schemaVersion": "1.11.0", "items": [{"prompt": "p"}]"#,
        r#"{"testing_criteria": [], "data": [], "schemaVersion": "1.0.0", "items": [{"prompt": "p"}]}"#,
    ];
    let mut all: Vec<(String, String)> = documents
        .iter()
        .enumerate()
        .map(|(index, text)| (format!("by hand #{index}"), (*text).to_owned()))
        .collect();
    all.push(("generated".to_owned(), support::m365_document(200)));
    all
}
