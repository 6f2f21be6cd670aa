//! `scoreDocument()`: scores an M365 eval document item by item and resolves to the scored
//! document, the CLI's default output, byte for byte. Large documents are never held as a tree:
//! each item is parsed, scored, written and dropped before the next (the core's `stream`), and the
//! driver in `js/drive.js` takes them in batches sized to its slices of work, yielding to the
//! event loop between slices. The output leaves the module in chunks of whole items as it grows,
//! so the module's memory stays near the size of the input: each chunk is copied straight from
//! the module's memory into one buffer outside it (`DocumentSink` in `js/drive.js`), sized from
//! the output per item so far (only as large as needed when the runtime refuses that projection),
//! which the driver hands out as a `Uint8Array` (`output: "bytes"`) or decodes once into a string;
//! or, when `output` is a `WritableStream`, each chunk is written to it (`StreamSink`), the driver
//! waiting for its backpressure.
//! Inputs the streaming path declines (legacy forms, invalid documents, parsed objects) are read
//! whole instead, which reports their problems exactly as `score` does.

use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::dataset::Dataset;
use agenteval_core::scored::m365_document::{self, DocumentOptions};
use agenteval_core::stream::{DocumentStream, Streamed};
use agenteval_core::{engine, Diagnostic, Summary};
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::convert::{self, Source};
use crate::error::ApiError;
use crate::options::OptionsObject;

#[wasm_bindgen(module = "/js/drive.js")]
extern "C" {
    /// Runs `run` to the end and resolves to the scored document in the form `options.output`
    /// asks for, with the summary and diagnostics.
    #[wasm_bindgen(js_name = driveDocument)]
    fn drive_document(run: DocumentRun, options: JsValue) -> js_sys::Promise;

    /// The scored document's bytes outside the module, gathered chunk by chunk.
    type DocumentSink;

    /// An empty sink that copies chunks out of `memory`, the module's memory: into a buffer, or
    /// into `output` when it is a `WritableStream`.
    #[wasm_bindgen(js_name = documentSink)]
    fn document_sink(memory: JsValue, output: &JsValue) -> DocumentSink;

    /// Copies `length` bytes at `address` of the module's memory after the bytes gathered so far,
    /// making room for `expected` bytes in all when it has to grow.
    #[wasm_bindgen(method)]
    fn append(this: &DocumentSink, address: usize, length: usize, expected: f64);
}

/// Output gathered before it is copied out of the module as one chunk.
const CHUNK_BYTES: usize = 4 << 20;

/// Scores an M365 eval document (text or bytes; a parsed object is accepted and read whole) and
/// resolves to the scored document with the run's summary and diagnostics. `options.evaluatedAt`
/// fills `metadata.evaluatedAt`; `options.output` is `"string"` (default), `"bytes"` (UTF-8 in
/// a `Uint8Array`) or a `WritableStream` that receives the UTF-8 in chunks (and is closed at the
/// end; the promise then resolves without `document`); `options.onProgress` receives the items
/// done; `options.signal` cancels.
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
    let output = options.get("output");
    if output.is_object() {
        if !Reflect::get(&output, &"getWriter".into()).is_ok_and(|get| get.is_function()) {
            return Err(ApiError::argument(
                &options.field("output"),
                "\"string\", \"bytes\" or a WritableStream",
            ));
        }
    } else if let Some(form) = options.string("output")? {
        if form != "string" && form != "bytes" {
            return Err(ApiError::argument(
                &options.field("output"),
                format!("\"string\", \"bytes\" or a WritableStream, got {form:?}"),
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
            output: Output {
                pending: Vec::new(),
                sink: document_sink(wasm_bindgen::memory(), &output),
                copied: 0,
            },
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
    output: Output,
}

/// The scored document on its way out of the module.
struct Output {
    /// Bytes not yet copied out.
    pending: Vec<u8>,
    /// Where the bytes are copied, each chunk ending with a whole item.
    sink: DocumentSink,
    /// Bytes copied out so far.
    copied: usize,
}

impl Output {
    fn written(&self) -> usize {
        self.copied + self.pending.len()
    }

    /// Copies the pending bytes out of the module; `expected` is the estimated size of the
    /// whole document, the room the sink makes when it grows.
    fn flush(&mut self, expected: f64) {
        self.sink
            .append(self.pending.as_ptr().addr(), self.pending.len(), expected);
        self.copied += self.pending.len();
        self.pending.clear();
    }
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

    /// Where the scored document goes: the driver waits for a stream's backpressure.
    #[wasm_bindgen(getter)]
    pub fn sink(&self) -> JsValue {
        JsValue::clone(&self.output.sink)
    }

    /// Number of items written.
    pub fn done(&self) -> usize {
        match &self.state {
            State::Streaming { stream, .. } => stream.done(),
            State::Written { .. } => 0,
        }
    }

    /// Scores and writes up to `count` items (at least one), stopping early after a chunk has
    /// left the module so that the driver can wait for a stream; `false` once the document is
    /// complete. Taking items in batches saves a call across the boundary and a clock reading
    /// per item.
    ///
    /// # Errors
    /// Never in practice: the items were checked when the document was read.
    #[wasm_bindgen(js_name = next)]
    pub fn write_next(&mut self, count: u32) -> Result<bool, JsValue> {
        let State::Streaming { text, stream } = &mut self.state else {
            return Ok(false);
        };
        for _ in 0..count.max(1) {
            let more = stream
                .append_next(text, &mut self.output.pending)
                .map_err(|error| JsValue::from(js_sys::Error::new(&error.to_string())))?;
            if self.output.pending.len() >= CHUNK_BYTES {
                let per_item = self.output.written() as f64 / stream.done().max(1) as f64;
                self.output
                    .flush(per_item * stream.total() as f64 * EXPECTED_MARGIN);
                return Ok(more);
            }
            if !more {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The sink holding the scored document's UTF-8 bytes (`sink`, ending with a newline as the
    /// CLI writes it), the summary and the diagnostics.
    ///
    /// # Errors
    /// When a value cannot be written (never for these types).
    pub fn finish(self) -> Result<JsValue, JsValue> {
        let DocumentRun { state, mut output } = self;
        let streamed = match state {
            State::Streaming { stream, .. } => stream.finish(),
            State::Written { text, streamed } => {
                output.pending = text.into_bytes();
                streamed
            }
        };
        output.pending.push(b'\n');
        output.flush(output.written() as f64);
        scored(&output.sink, &streamed.summary, &streamed.diagnostics)
    }
}

/// The share added to the output size projected from the items written so far, so that the
/// sink rarely grows twice.
const EXPECTED_MARGIN: f64 = 1.05;

fn scored(
    sink: &DocumentSink,
    summary: &Summary,
    diagnostics: &[Diagnostic],
) -> Result<JsValue, JsValue> {
    let object = js_sys::Object::new();
    js_sys::Reflect::set(&object, &"sink".into(), sink)?;
    js_sys::Reflect::set(&object, &"summary".into(), &boundary::to_js(summary)?)?;
    js_sys::Reflect::set(
        &object,
        &"diagnostics".into(),
        &boundary::to_js(&crate::validate::errors_first(diagnostics.to_vec()))?,
    )?;
    Ok(object.into())
}
