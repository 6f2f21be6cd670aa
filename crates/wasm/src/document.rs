//! `scoreDocument()`: scores an M365 eval document item by item and resolves to the scored
//! document, the CLI's default output, byte for byte. Large documents are never held as a tree:
//! each item is parsed, scored, written and dropped before the next (the core's `stream`), and the
//! driver in `js/drive.js` yields to the event loop between slices of items. Inputs the streaming
//! path declines (legacy forms, invalid documents, parsed objects) are read whole instead, which
//! reports their problems exactly as `score` does.

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
    /// Runs `run` to the end and resolves to its `finish()`.
    #[wasm_bindgen(js_name = driveDocument)]
    fn drive_document(run: DocumentRun, options: JsValue) -> js_sys::Promise;
}

/// Scores an M365 eval document (text or bytes; a parsed object is accepted and read whole) and
/// resolves to the scored document with the run's summary and diagnostics. `options.evaluatedAt`
/// fills `metadata.evaluatedAt`; `options.onProgress` receives the items done; `options.signal`
/// cancels. Custom evaluators are not run here: use `evaluate()` and `render("document")`.
/// Rejects with `invalidDataset` when the input is unusable as a whole, and `invalidArgument` for
/// Foundry rows, which have no scored document.
#[wasm_bindgen(js_name = scoreDocument, unchecked_return_type = "Promise<ScoredDocument>")]
pub fn score_document(
    #[wasm_bindgen(unchecked_param_type = "DatasetInput")] dataset: JsValue,
    options: Option<crate::types::ScoreDocumentOptionsArg>,
) -> js_sys::Promise {
    match prepare(&dataset, options) {
        Ok((run, options)) => drive_document(run, options),
        Err(error) => js_sys::Promise::reject(&error.into()),
    }
}

fn prepare(
    dataset: &JsValue,
    options: Option<crate::types::ScoreDocumentOptionsArg>,
) -> Result<(DocumentRun, JsValue), ApiError> {
    let options = OptionsObject::read(
        options,
        "options",
        &["evaluatedAt", "signal", "onProgress", "sliceMs"],
    )?;
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
    output: Vec<u8>,
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
        match &mut self.state {
            State::Streaming { text, stream } => stream
                .write_next(text, &mut self.output)
                .map_err(|error| JsValue::from(js_sys::Error::new(&error.to_string()))),
            State::Written { .. } => Ok(false),
        }
    }

    /// The scored document (ending with a newline, as the CLI writes it), the summary and the
    /// diagnostics.
    ///
    /// # Errors
    /// When a value cannot be written (never for these types).
    pub fn finish(self) -> Result<JsValue, JsValue> {
        let (document, streamed) = match self.state {
            State::Streaming { stream, .. } => (
                String::from_utf8(self.output).unwrap_or_default(),
                stream.finish(),
            ),
            State::Written { text, streamed } => (text, streamed),
        };
        scored(document + "\n", &streamed.summary, &streamed.diagnostics)
    }
}

fn scored(
    document: String,
    summary: &Summary,
    diagnostics: &[Diagnostic],
) -> Result<JsValue, JsValue> {
    let object = js_sys::Object::new();
    js_sys::Reflect::set(&object, &"document".into(), &document.into())?;
    js_sys::Reflect::set(&object, &"summary".into(), &convert::to_js(summary)?)?;
    js_sys::Reflect::set(
        &object,
        &"diagnostics".into(),
        &convert::to_js(&crate::validate::errors_first(diagnostics.to_vec()))?,
    )?;
    Ok(object.into())
}
