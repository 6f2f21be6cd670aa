//! The streaming path for M365 eval documents: each item is parsed, scored, written into the
//! scored document and dropped before the next, so a large document is never held as a tree.
//!
//! The output is byte for byte what reading the document whole, scoring it and writing it with
//! [`m365_document::write_owned`] and `serde_json::to_writer_pretty` gives. [`DocumentStream`]
//! writes one item per step, so callers can report progress, yield or cancel between items. The
//! caller supplies the sink; the core still opens no file.

use std::io::{self, Write};

use serde_json::{Map, Value};

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

/// Scores every item of `outline` (read from `text`) and writes the scored document to `out`.
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
    while stream.write_next(text, out)? {}
    Ok(stream.finish())
}

/// A scored document being written, one item per [`DocumentStream::write_next`].
pub struct DocumentStream {
    outline: DocumentOutline,
    root: Map<String, Value>,
    scorer: DocumentScorer,
    with_codes: bool,
    next_item: usize,
    started: bool,
    streamed: Streamed,
    scratch: Vec<u8>,
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
            scratch: Vec::new(),
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

    /// Writes the next item of `text` (the text the outline was read from), with the members
    /// before it on the first call and those after it on the last. `false` once everything is
    /// written.
    ///
    /// # Errors
    /// Whatever `out` returns, or the item's problem when `text` is not the outline's text.
    pub fn write_next(&mut self, text: &str, out: &mut dyn Write) -> io::Result<bool> {
        let total = self.total();
        if !self.started {
            self.started = true;
            out.write_all(b"{")?;
            self.write_members(out, Side::BeforeItems)?;
            if total == 0 {
                out.write_all(b"[]")?;
                return self.write_end(out);
            }
            out.write_all(b"[")?;
        } else if self.next_item >= total {
            return Ok(false);
        }
        let index = self.next_item;
        self.next_item += 1;
        let mut item = self
            .outline
            .item(text, index)
            .map_err(|diagnostic| io::Error::other(diagnostic.message))?;
        let outcomes = self
            .scorer
            .score_item(index, &item.value, item.problem.as_deref());
        for outcome in &outcomes {
            self.streamed.summary.add(outcome);
        }
        self.streamed.diagnostics.append(&mut item.diagnostics);
        pretty::begin_entry(out, 2, index == 0)?;
        self.scratch.clear();
        let written = m365_document::write_scored_item(
            &mut self.scratch,
            &item.value,
            &outcomes,
            self.with_codes,
            2,
            item.without_escapes,
        )?;
        if written {
            out.write_all(&self.scratch)?;
        } else {
            m365_document::write_item(&mut item.value, &outcomes, self.with_codes);
            pretty::write_nested(out, &item.value, 2, &mut self.scratch)?;
        }
        if self.next_item == total {
            pretty::end_container(out, 1, b']')?;
            return self.write_end(out);
        }
        Ok(true)
    }

    /// The run's counts and diagnostics.
    pub fn finish(self) -> Streamed {
        self.streamed
    }

    fn write_end(&mut self, out: &mut dyn Write) -> io::Result<bool> {
        self.write_members(out, Side::AfterItems)?;
        pretty::end_container(out, 0, b'}')?;
        Ok(false)
    }

    /// Writes the root members on one side of `items`; before it, also `"items": `.
    fn write_members(&mut self, out: &mut dyn Write, side: Side) -> io::Result<()> {
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
            pretty::begin_entry(out, 1, position == 0)?;
            serde_json::to_writer(&mut *out, key)?;
            out.write_all(b": ")?;
            if position != items_at {
                pretty::write_nested(out, value, 1, &mut self.scratch)?;
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
