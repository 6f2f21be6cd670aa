//! The streaming document path against the whole path: for every document the whole path reads
//! as a current-form M365 document and the strict JSON reader accepts, streaming gives the same
//! bytes, run report, summary and diagnostics; for every other input (a repeated key or an
//! over-long string among them) it declines, so the caller reads it whole.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod documents;

use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::dataset::{self, Dataset, EvalDocument};
use agenteval_core::report::RunReport;
use agenteval_core::scored::m365_document::{self, DocumentOptions};
use agenteval_core::{engine, json, stream, Diagnostic};

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
    for (name, text) in documents::files()
        .into_iter()
        .chain(documents::written_by_hand())
    {
        let whole = dataset::load(text.as_bytes(), None)
            .ok()
            .and_then(|loaded| match loaded.dataset {
                Dataset::M365(document) if !document.legacy => Some((document, loaded.diagnostics)),
                _ => None,
            });
        let outline = DocumentOutline::read(&text);
        let Some((document, diagnostics)) = whole.filter(|_| json::is_acceptable(&text)) else {
            assert!(
                outline.is_none(),
                "{name}: streamed, but it is not a current-form document the strict reader accepts"
            );
            continue;
        };
        let outline = outline.unwrap_or_else(|| panic!("{name}: not streamed"));
        let (expected, report) = scored_whole(document, &options);
        let reported = stream::score_report(&text, outline.clone());
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
        "by hand #3",
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
            && !name.ends_with("#2")
            && !name.ends_with("#3")),
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
    let text = documents::support::m365_document(1_500);
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
