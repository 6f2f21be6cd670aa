//! The streaming document path against the whole path: for every document the whole path reads
//! as a current-form M365 document, streaming gives the same bytes, run report, summary and
//! diagnostics; for every other input it declines, so the caller reads it whole.

#[path = "../benches/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};

use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::dataset::{self, Dataset, EvalDocument};
use agenteval_core::report::m365_document::{self, DocumentOptions};
use agenteval_core::report::RunReport;
use agenteval_core::{engine, stream, Diagnostic};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files() -> Vec<(String, String)> {
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

fn written_by_hand() -> Vec<(String, String)> {
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
        // Legacy forms, Foundry rows and broken documents are not streamed.
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

/// The document scored and written by the whole path, with its run report.
fn scored_whole(document: EvalDocument, options: &DocumentOptions) -> (String, RunReport) {
    let report = engine::score(&Dataset::M365(document.clone()));
    let written = m365_document::write_owned(document.document, &report, options);
    (serde_json::to_string_pretty(&written).unwrap(), report)
}

fn rendered(diagnostics: &[Diagnostic]) -> Vec<String> {
    let mut lines: Vec<String> = diagnostics
        .iter()
        .map(|diagnostic| diagnostic.to_string())
        .collect();
    lines.sort();
    lines
}

#[test]
fn streaming_writes_and_reports_what_the_whole_path_does_and_declines_the_rest() {
    let options = DocumentOptions {
        evaluated_at: Some("2026-11-29T12:00:00Z".to_owned()),
    };
    let mut streamed = Vec::new();
    for (name, text) in files().into_iter().chain(written_by_hand()) {
        let whole = dataset::load(text.as_bytes(), None)
            .ok()
            .and_then(|loaded| match loaded.dataset {
                Dataset::M365(document) if !document.legacy => Some((document, loaded.diagnostics)),
                _ => None,
            });
        let outline = DocumentOutline::read(&text);
        let Some((document, diagnostics)) = whole else {
            assert!(
                outline.is_none(),
                "{name}: streamed, but read whole it is not a current-form document"
            );
            continue;
        };
        let outline = outline.unwrap_or_else(|| panic!("{name}: not streamed"));
        let (expected, report) = scored_whole(document, &options);
        let reported = stream::score_report(&text, &outline).unwrap();
        assert_eq!(reported.report, report, "{name}");
        assert_eq!(
            rendered(&reported.diagnostics),
            rendered(&diagnostics),
            "{name}"
        );
        let mut written = Vec::new();
        let run = stream::write_scored(&text, outline, &options, &mut written).unwrap();
        assert_eq!(String::from_utf8(written).unwrap(), expected, "{name}");
        assert_eq!(run.summary, report.summary, "{name}");
        assert_eq!(rendered(&run.diagnostics), rendered(&diagnostics), "{name}");
        streamed.push(name);
    }
    for name in [
        "m365-demo.json",
        "by hand #0",
        "by hand #1",
        "by hand #2",
        "generated",
    ] {
        assert!(
            streamed.iter().any(|streamed| streamed.ends_with(name)),
            "{name} not streamed: {streamed:?}"
        );
    }
    assert!(
        !streamed.iter().any(|name| name.starts_with("by hand #")
            && !name.ends_with("#0")
            && !name.ends_with("#1")
            && !name.ends_with("#2")),
        "{streamed:?}"
    );
    assert!(
        streamed.len() >= 10,
        "only {} documents streamed",
        streamed.len()
    );
}

/// Records the size of every write it is given.
struct RecordingWriter {
    bytes: Vec<u8>,
    write_sizes: Vec<usize>,
}

impl std::io::Write for RecordingWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        self.write_sizes.push(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_large_document_reaches_the_writer_in_whole_chunks_with_the_same_bytes() {
    let text = support::m365_document(1_500);
    let loaded = dataset::load(text.as_bytes(), None).unwrap();
    let Dataset::M365(document) = loaded.dataset else {
        panic!("not an M365 document");
    };
    let options = DocumentOptions::default();
    let (expected, _) = scored_whole(document, &options);
    let mut writer = RecordingWriter {
        bytes: Vec::new(),
        write_sizes: Vec::new(),
    };
    let outline = DocumentOutline::read(&text).expect("streamed");
    stream::write_scored(&text, outline, &options, &mut writer).unwrap();
    assert!(
        writer.bytes == expected.as_bytes(),
        "streamed bytes differ from the whole path"
    );
    let (last, earlier) = writer.write_sizes.split_last().unwrap();
    assert!(earlier.len() >= 2, "{:?}", writer.write_sizes);
    assert!(
        earlier.iter().all(|&size| size >= stream::CHUNK_BYTES),
        "{:?}",
        writer.write_sizes
    );
    assert!(*last > 0, "{:?}", writer.write_sizes);
}
