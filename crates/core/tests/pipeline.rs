//! The whole path on real datasets: load → score → write. Every written M365 document validates
//! against the official 1.8.0 schema (documents declaring ≤ 1.8) and against our extended schema
//! (all), checked with the `jsonschema` crate; the demo's run report is snapshotted.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::{Path, PathBuf};

use agenteval_core::dataset::{self, Dataset};
use agenteval_core::json::Value;
use agenteval_core::scored::m365_document::{self, DocumentOptions};
use agenteval_core::{engine, report, schema, scored};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&serde_json::Value::from(schema.clone()))
        .unwrap_or_else(|e| panic!("schema: {e}"))
}

fn errors(validator: &jsonschema::Validator, document: &Value) -> Vec<String> {
    validator
        .iter_errors(&serde_json::Value::from(document.clone()))
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect()
}

fn datasets() -> Vec<PathBuf> {
    let fixtures = root().join("tests/fixtures/m365-copilot-eval");
    let mut paths = vec![root().join("examples/m365-demo.json")];
    for dir in [
        fixtures.join("schema/v1/examples/valid"),
        fixtures.join("samples"),
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .collect();
        found.sort();
        paths.extend(found);
    }
    paths
}

fn declared_minor(document: &Value) -> u64 {
    document["schemaVersion"]
        .as_str()
        .and_then(|version| version.split('.').nth(1))
        .and_then(|minor| minor.parse().ok())
        .unwrap_or(u64::MAX)
}

#[test]
fn written_documents_validate_against_the_schemas() {
    let official: Value = serde_json::from_str(
        &std::fs::read_to_string(
            root().join("tests/fixtures/m365-copilot-eval/schema/v1/eval-document.schema.json"),
        )
        .expect("official schema"),
    )
    .expect("schema is JSON");
    let official = validator(&official);
    let extended = validator(&serde_json::from_str(schema::SCHEMA_JSON).expect("schema is JSON"));
    let options = DocumentOptions {
        evaluated_at: Some("2026-11-29T12:00:00Z".to_owned()),
    };
    for path in datasets() {
        let bytes = std::fs::read(&path).expect("readable");
        let loaded =
            dataset::load(&bytes, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let Dataset::M365(document) = &loaded.dataset else {
            panic!("{} is not an M365 dataset", path.display());
        };
        let run = engine::score(&loaded.dataset);
        assert!(!run.items.is_empty(), "{}", path.display());
        let written = m365_document::write(&document.document, &run, &options);
        assert_eq!(written["metadata"]["evaluatedAt"], "2026-11-29T12:00:00Z");
        assert_eq!(
            errors(&extended, &written),
            Vec::<String>::new(),
            "{}",
            path.display()
        );
        if declared_minor(&written) <= 8 {
            assert_eq!(
                errors(&official, &written),
                Vec::<String>::new(),
                "{}",
                path.display()
            );
        }
        assert_eq!(schema::validate(&written), Vec::new(), "{}", path.display());
    }
}

#[test]
fn demo_run_report_snapshot() {
    let bytes = std::fs::read(root().join("examples/m365-demo.json")).expect("demo");
    let loaded = dataset::load(&bytes, None).expect("demo loads");
    let run = engine::score(&loaded.dataset);
    let value: Value = serde_json::from_str(&report::to_json(&run)).expect("report is JSON");
    insta::assert_json_snapshot!(value);
}

#[test]
fn foundry_demo_rows_snapshot() {
    let config: Value = serde_json::from_slice(
        &std::fs::read(root().join("examples/foundry-config.json")).expect("config"),
    )
    .expect("config is JSON");
    let bytes = std::fs::read(root().join("examples/foundry-demo.jsonl")).expect("rows");
    let loaded = dataset::load(&bytes, Some(&config)).expect("rows load");
    let Dataset::Foundry(rows) = &loaded.dataset else {
        panic!("expected Foundry rows");
    };
    let run = engine::score(&loaded.dataset);
    let written: Vec<Value> = rows
        .rows
        .iter()
        .zip(&run.items)
        .map(|(row, outcome)| {
            Value::Object(scored::foundry_rows::row(
                row.row.as_ref().expect("valid row"),
                outcome,
            ))
        })
        .collect();
    insta::assert_json_snapshot!(written);
}
