//! `scoreDocument()`: scores an M365 eval document item by item and resolves to the scored
//! document, the CLI's default output, byte for byte. Large documents are never held as a tree:
//! each item is parsed, scored, written and dropped before the next (the core's `stream`), and the
//! driver in `js/drive.js` yields to the event loop between slices of items. The output leaves
//! the module in chunks of whole items as it grows, so the module's memory stays near the size of
//! the input; the driver joins them into a string or, with `output: "bytes"`, a `Uint8Array`.
//! Inputs the streaming path declines (legacy forms, invalid documents, parsed objects) are read
//! whole instead, which reports their problems exactly as `score` does.

use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::dataset::Dataset;
use agenteval_core::report::m365_document::{self, DocumentOptions};
use agenteval_core::stream::{DocumentStream, Streamed};
use agenteval_core::{engine, Diagnostic, Summary};
use wasm_bindgen::prelude::*;

use crate::convert::{self, Source};
use crate::error::ApiError;
use crate::options::OptionsObject;

#[wasm_bindgen(module = "/js/drive.js")]
extern "C" {
    /// Runs `run` to the end and resolves to the scored document in the form `options.output`
    /// asks for, with the summary and diagnostics.
    #[wasm_bindgen(js_name = driveDocument)]
    fn drive_document(run: DocumentRun, options: JsValue) -> js_sys::Promise;
}

/// Output gathered before it is copied out of the module as one chunk.
const CHUNK_BYTES: usize = 4 << 20;

/// Scores an M365 eval document (text or bytes; a parsed object is accepted and read whole) and
/// resolves to the scored document with the run's summary and diagnostics. `options.evaluatedAt`
/// fills `metadata.evaluatedAt`; `options.output` is `"string"` (default) or `"bytes"` (UTF-8 in
/// a `Uint8Array`); `options.onProgress` receives the items done; `options.signal` cancels.
/// Custom evaluators are not run here: use `evaluate()` and `render("document")`. Rejects with
/// `invalidDataset` when the input is unusable as a whole, and `invalidArgument` for Foundry rows,
/// which have no scored document. Declared (overloaded on `options.output`) in [`crate::types`].
#[wasm_bindgen(js_name = scoreDocument, skip_typescript)]
pub fn score_document(dataset: JsValue, options: JsValue) -> js_sys::Promise {
    match prepare(&dataset, options) {
        Ok((run, options)) => drive_document(run, options),
        Err(error) => js_sys::Promise::reject(&error.into()),
    }
}

fn prepare(dataset: &JsValue, options: JsValue) -> Result<(DocumentRun, JsValue), ApiError> {
    let options = OptionsObject::read(
        Some(options),
        "options",
        &["evaluatedAt", "output", "signal", "onProgress", "sliceMs"],
    )?;
    if let Some(output) = options.string("output")? {
        if output != "string" && output != "bytes" {
            return Err(ApiError::argument(
                &options.field("output"),
                format!("\"string\" or \"bytes\", got {output:?}"),
            ));
        }
    }
    options.signal("signal")?;
    options.function("onProgress")?;
    if !options.get("sliceMs").is_undefined() {
        options.positive_number("sliceMs")?;
    }
    let document_options = DocumentOptions {
        evaluated_at: options.string("evaluatedAt")?,
    };
    let source = convert::dataset_source(dataset, "dataset")?;
    let streamable = match source {
        Source::Bytes(bytes) => match String::from_utf8(bytes) {
            Ok(text) => match DocumentOutline::read(&text) {
                Some(outline) => Ok((text, outline)),
                None => Err(Source::Bytes(text.into_bytes())),
            },
            Err(error) => Err(Source::Bytes(error.into_bytes())),
        },
        value @ Source::Value(_) => Err(value),
    };
    let state = match streamable {
        Ok((text, outline)) => State::Streaming {
            stream: Box::new(DocumentStream::new(outline, &document_options)),
            text,
        },
        Err(source) => whole(source, &document_options)?,
    };
    Ok((
        DocumentRun {
            state,
            output: Vec::new(),
            chunks: js_sys::Array::new(),
        },
        options.value(),
    ))
}

/// Reads, scores and writes a document the streaming path declined, in one go.
fn whole(source: Source, options: &DocumentOptions) -> Result<State, ApiError> {
    let loaded = source.load("dataset", None)?;
    let Dataset::M365(document) = &loaded.dataset else {
        return Err(ApiError::argument(
            "dataset",
            "an M365 eval document (Foundry rows have no scored document: use evaluate() and render(\"foundry\"))",
        ));
    };
    let report = engine::score(&loaded.dataset);
    let scored = m365_document::write(&document.document, &report, options);
    let text = serde_json::to_string_pretty(&scored).unwrap_or_default();
    Ok(State::Written {
        text,
        streamed: Streamed {
            summary: report.summary,
            diagnostics: loaded.diagnostics,
        },
    })
}

enum State {
    Streaming {
        text: String,
        stream: Box<DocumentStream>,
    },
    Written {
        text: String,
        streamed: Streamed,
    },
}

/// A `scoreDocument` run, stepped by the driver one item at a time.
#[wasm_bindgen(js_name = DocumentRun, skip_typescript)]
pub struct DocumentRun {
    state: State,
    /// Output not yet copied out.
    output: Vec<u8>,
    /// Output copied out, as `Uint8Array`s each ending with a whole item.
    chunks: js_sys::Array,
}

#[wasm_bindgen(js_class = DocumentRun)]
impl DocumentRun {
    /// Number of items.
    pub fn total(&self) -> usize {
        match &self.state {
            State::Streaming { stream, .. } => stream.total(),
            State::Written { .. } => 0,
        }
    }

    /// Number of items written.
    pub fn done(&self) -> usize {
        match &self.state {
            State::Streaming { stream, .. } => stream.done(),
            State::Written { .. } => 0,
        }
    }

    /// Scores and writes the next item; `false` once the document is complete.
    ///
    /// # Errors
    /// Never in practice: the items were checked when the document was read.
    #[wasm_bindgen(js_name = next)]
    pub fn write_next(&mut self) -> Result<bool, JsValue> {
        let State::Streaming { text, stream } = &mut self.state else {
            return Ok(false);
        };
        let more = stream
            .write_next(text, &mut self.output)
            .map_err(|error| JsValue::from(js_sys::Error::new(&error.to_string())))?;
        if self.output.len() >= CHUNK_BYTES {
            flush(&mut self.output, &self.chunks);
        }
        Ok(more)
    }

    /// The scored document as UTF-8 chunks (`chunks`, ending with a newline as the CLI writes
    /// it), the summary and the diagnostics.
    ///
    /// # Errors
    /// When a value cannot be written (never for these types).
    pub fn finish(self) -> Result<JsValue, JsValue> {
        let DocumentRun {
            state,
            mut output,
            chunks,
        } = self;
        let streamed = match state {
            State::Streaming { stream, .. } => stream.finish(),
            State::Written { text, streamed } => {
                output = text.into_bytes();
                streamed
            }
        };
        output.push(b'\n');
        flush(&mut output, &chunks);
        scored(&chunks, &streamed.summary, &streamed.diagnostics)
    }
}

/// Copies `output` out of the module as one more chunk and empties it.
fn flush(output: &mut Vec<u8>, chunks: &js_sys::Array) {
    chunks.push(&js_sys::Uint8Array::from(output.as_slice()));
    output.clear();
}

fn scored(
    chunks: &js_sys::Array,
    summary: &Summary,
    diagnostics: &[Diagnostic],
) -> Result<JsValue, JsValue> {
    let object = js_sys::Object::new();
    js_sys::Reflect::set(&object, &"chunks".into(), chunks)?;
    js_sys::Reflect::set(&object, &"summary".into(), &convert::to_js(summary)?)?;
    js_sys::Reflect::set(
        &object,
        &"diagnostics".into(),
        &convert::to_js(&crate::validate::errors_first(diagnostics.to_vec()))?,
    )?;
    Ok(object.into())
}
