//! The streaming path for M365 eval documents: each item is parsed, scored, written into the
//! scored document and dropped before the next, so a large document is never held as a tree.
//!
//! The output is byte for byte what reading the document whole, scoring it and writing it with
//! [`m365_document::write_owned`] and `serde_json::to_writer_pretty` gives. The caller supplies
//! the sink; the core still opens no file.

use std::io::{self, Write};

use crate::dataset::m365::DocumentOutline;
use crate::engine::DocumentScorer;
use crate::report::m365_document::{self, DocumentOptions};
use crate::report::pretty;
use crate::report::Summary;
use crate::Diagnostic;

/// What a streamed run found.
#[derive(Debug, Clone, PartialEq)]
pub struct Streamed {
    /// The run's counts.
    pub summary: Summary,
    /// Warnings and item-level errors, as reading the document whole reports them.
    pub diagnostics: Vec<Diagnostic>,
}

/// Scores every item of `outline` and writes the scored document to `out`.
///
/// # Errors
/// Whatever `out` returns.
pub fn write_scored(
    outline: &DocumentOutline<'_>,
    options: &DocumentOptions,
    out: &mut dyn Write,
) -> io::Result<Streamed> {
    let mut root = outline.members.clone();
    m365_document::write_root(&mut root, options);
    let with_codes = m365_document::writes_error_codes(&root);
    let scorer = DocumentScorer::new(outline.default_evaluators());
    let mut streamed = Streamed {
        summary: Summary::default(),
        diagnostics: outline.diagnostics.clone(),
    };
    let mut scratch = Vec::new();
    out.write_all(b"{")?;
    for (position, (key, value)) in root.iter().enumerate() {
        pretty::begin_entry(out, 1, position == 0)?;
        serde_json::to_writer(&mut *out, key)?;
        out.write_all(b": ")?;
        if key == "items" {
            write_items(
                outline,
                &scorer,
                with_codes,
                &mut streamed,
                out,
                &mut scratch,
            )?;
        } else {
            pretty::write_nested(out, value, 1, &mut scratch)?;
        }
    }
    pretty::end_container(out, 0, b'}')?;
    Ok(streamed)
}

fn write_items(
    outline: &DocumentOutline<'_>,
    scorer: &DocumentScorer,
    with_codes: bool,
    streamed: &mut Streamed,
    out: &mut dyn Write,
    scratch: &mut Vec<u8>,
) -> io::Result<()> {
    if outline.items.is_empty() {
        return out.write_all(b"[]");
    }
    out.write_all(b"[")?;
    for index in 0..outline.items.len() {
        let mut item = outline
            .item(index)
            .map_err(|diagnostic| io::Error::other(diagnostic.message))?;
        let outcomes = scorer.score_item(index, &item.value, item.problem.as_deref());
        m365_document::write_item(&mut item.value, &outcomes, with_codes);
        for outcome in &outcomes {
            streamed.summary.add(outcome);
        }
        streamed.diagnostics.append(&mut item.diagnostics);
        let item = item.value;
        pretty::begin_entry(out, 2, index == 0)?;
        pretty::write_nested(out, &item, 2, scratch)?;
    }
    pretty::end_container(out, 1, b']')
}
