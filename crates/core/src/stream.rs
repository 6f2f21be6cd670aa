//! The streaming path for M365 eval documents: each item is parsed, scored, written into the
//! scored document (or recorded in the run report) and dropped before the next, so a large
//! document is never held as a tree.
//!
//! The output is byte for byte what reading the document whole, scoring it and writing it with
//! [`m365_document::write_owned`] and `serde_json::to_writer_pretty` gives. [`DocumentStream`]
//! appends one item per step to the caller's buffer, so callers can report progress, yield or
//! cancel between items; [`write_scored`] runs it to the end into any writer. [`score_report`]
//! gives the run report [`crate::engine::score`] gives for the document read whole. The core
//! still opens no file.

use std::io::{self, Write};

use crate::json::{Map, Value};

use crate::dataset::m365::DocumentOutline;
use crate::dataset::ResponseTally;
use crate::engine::{DocumentScorer, Session};
use crate::report::pretty;
use crate::report::{RunReport, Summary};
use crate::scored::m365_document::{self, DocumentOptions};
use crate::Diagnostic;

/// What a streamed run found.
#[derive(Debug, Clone, PartialEq)]
pub struct Streamed {
    /// The run's counts.
    pub summary: Summary,
    /// Warnings and item-level errors, as reading the document whole reports them.
    pub diagnostics: Vec<Diagnostic>,
}

/// Scores every item of `outline` (read from `text`) and writes the scored document to `out`, in
/// writes of about [`CHUNK_BYTES`] each.
///
/// # Errors
/// Whatever `out` returns.
pub fn write_scored(
    text: &str,
    outline: DocumentOutline,
    options: &DocumentOptions,
    out: &mut dyn Write,
) -> io::Result<Streamed> {
    let mut stream = DocumentStream::new(outline, options);
    let mut chunk = Vec::with_capacity(CHUNK_BYTES + CHUNK_BYTES / 8);
    while stream.append_next(text, &mut chunk)? {
        if chunk.len() >= CHUNK_BYTES {
            out.write_all(&chunk)?;
            chunk.clear();
        }
    }
    out.write_all(&chunk)?;
    Ok(stream.finish())
}

/// Scores every item of `outline` (read from `text`) into a run report, one item's tree at a
/// time (a [`Session::outlined`] run to the end): the report [`crate::engine::score`] gives for
/// the document read whole, with the diagnostics reading it whole reports.
pub fn score_report(text: &str, outline: DocumentOutline) -> StreamedReport {
    let mut session = Session::outlined(text, outline, crate::engine::Customs::default());
    while session.step().is_some() {}
    let diagnostics = session.diagnostics().to_vec();
    StreamedReport {
        report: session.finish(),
        diagnostics,
    }
}

/// What [`score_report`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamedReport {
    /// The run report.
    pub report: RunReport,
    /// Warnings and item-level errors, as reading the document whole reports them.
    pub diagnostics: Vec<Diagnostic>,
}

/// The size of [`write_scored`]'s writes: large enough that a buffered writer passes them through
/// without copying them.
pub const CHUNK_BYTES: usize = 1 << 20;

/// A scored document being written, one item per [`DocumentStream::append_next`].
pub struct DocumentStream {
    outline: DocumentOutline,
    root: Map<String, Value>,
    scorer: DocumentScorer,
    with_codes: bool,
    next_item: usize,
    started: bool,
    streamed: Streamed,
    /// The last item's value, rebuilt into by the next item.
    spare_item: Value,
    responses: ResponseTally,
}

impl DocumentStream {
    /// A stream over `outline`'s items; `options` fill the document-level output fields.
    pub fn new(outline: DocumentOutline, options: &DocumentOptions) -> Self {
        let mut root = outline.members.clone();
        m365_document::write_root(&mut root, options);
        DocumentStream {
            with_codes: m365_document::writes_error_codes(&root),
            scorer: DocumentScorer::new(outline.default_evaluators()),
            streamed: Streamed {
                summary: Summary::default(),
                diagnostics: outline.diagnostics.clone(),
            },
            outline,
            root,
            next_item: 0,
            started: false,
            spare_item: Value::Null,
            responses: ResponseTally::default(),
        }
    }

    /// Number of items.
    pub fn total(&self) -> usize {
        self.outline.item_count()
    }

    /// Number of items written.
    pub fn done(&self) -> usize {
        self.next_item
    }

    /// Appends the next item of `text` (the text the outline was read from) to `buffer`, with the
    /// members before it on the first call and those after it on the last. `false` once
    /// everything is written.
    ///
    /// # Errors
    /// The item's problem when `text` is not the outline's text.
    pub fn append_next(&mut self, text: &str, buffer: &mut Vec<u8>) -> io::Result<bool> {
        let total = self.total();
        if !self.started {
            self.started = true;
            buffer.push(b'{');
            self.write_members(buffer, Side::BeforeItems)?;
            if total == 0 {
                buffer.extend_from_slice(b"[]");
                return self.write_end(buffer);
            }
            buffer.push(b'[');
        } else if self.next_item >= total {
            return Ok(false);
        }
        let index = self.next_item;
        self.next_item += 1;
        let mut item = self
            .outline
            .item_reusing(text, index, std::mem::take(&mut self.spare_item))
            .map_err(|diagnostic| io::Error::other(diagnostic.message))?;
        let outcomes = self
            .scorer
            .score_item(index, &item.value, item.problem.as_deref());
        for outcome in &outcomes {
            self.streamed.summary.add(outcome);
        }
        self.streamed.diagnostics.append(&mut item.diagnostics);
        self.responses.add_item(index, &item.value);
        if self.next_item == total {
            self.streamed.diagnostics.extend(self.responses.warning());
        }
        pretty::push_entry_start(buffer, 2, index == 0);
        let written = m365_document::write_scored_item(
            buffer,
            &item.value,
            &outcomes,
            self.with_codes,
            2,
            item.without_escapes,
        )?;
        if !written {
            m365_document::write_item(&mut item.value, &outcomes, self.with_codes);
            pretty::write_value(buffer, &item.value, 2)?;
        }
        self.spare_item = item.value;
        if self.next_item == total {
            pretty::push_end(buffer, 1, b']');
            return self.write_end(buffer);
        }
        Ok(true)
    }

    /// The run's counts and diagnostics.
    pub fn finish(self) -> Streamed {
        self.streamed
    }

    fn write_end(&self, buffer: &mut Vec<u8>) -> io::Result<bool> {
        self.write_members(buffer, Side::AfterItems)?;
        pretty::push_end(buffer, 0, b'}');
        Ok(false)
    }

    /// Writes the root members on one side of `items`; before it, also `"items": `.
    fn write_members(&self, buffer: &mut Vec<u8>, side: Side) -> io::Result<()> {
        let items_at = self
            .root
            .keys()
            .position(|key| key == "items")
            .unwrap_or(self.root.len());
        for (position, (key, value)) in self.root.iter().enumerate() {
            let wanted = match side {
                Side::BeforeItems => position <= items_at,
                Side::AfterItems => position > items_at,
            };
            if !wanted {
                continue;
            }
            pretty::push_entry_start(buffer, 1, position == 0);
            serde_json::to_writer(&mut *buffer, key)?;
            buffer.extend_from_slice(b": ");
            if position != items_at {
                pretty::write_value(buffer, value, 1)?;
            }
        }
        Ok(())
    }
}

#[derive(Clone, Copy)]
enum Side {
    BeforeItems,
    AfterItems,
}
