//! `Evaluation`: what `evaluate()` resolves to. It keeps the scored dataset and the report in the
//! module, so each output format is written from them directly, without reading the report back
//! from JavaScript objects or parsing the dataset again. Its memory is released by `free()`.

use agenteval_core::dataset::Dataset;
use agenteval_core::json::Value;
use agenteval_core::scored::m365_document;
use agenteval_core::RunReport;
use wasm_bindgen::prelude::*;

use crate::options::OptionsObject;
use crate::render::{self, Settings};
use crate::types::Format;

/// A scored dataset: the run report, and every output format of the CLI written from the dataset
/// and report the module keeps. Holds the dataset's memory until `free()` is called (or the
/// object is declared with `using`); a freed evaluation can no longer be used.
#[wasm_bindgen]
pub struct Evaluation {
    object: JsValue,
    report: RunReport,
    dataset: Dataset,
}

impl Evaluation {
    /// An evaluation of `dataset` whose report is `report`, and `object` as JavaScript sees it.
    pub fn new(object: JsValue, report: RunReport, dataset: Dataset) -> Self {
        Evaluation {
            object,
            report,
            dataset,
        }
    }
}

#[wasm_bindgen]
impl Evaluation {
    /// The run report: the object `score` resolves to (the same object on every read).
    #[wasm_bindgen(getter, unchecked_return_type = "RunReport")]
    pub fn report(&self) -> JsValue {
        self.object.clone()
    }

    /// Writes the run in `format`, exactly as `agenteval score --format` does: `document` (M365
    /// input: the scored eval document), `report`, `foundry` (Foundry input: the rows with flat
    /// result keys), `csv`, `junit`, `md` or `html`; with `options.reviews`, the reviews beside
    /// the verdicts (as `applyReviews` sets them; the run kept is not changed).
    #[wasm_bindgen(js_name = render)]
    pub fn render_format(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Format")] format: JsValue,
        options: Option<crate::types::OutputOptionsArg>,
    ) -> Result<String, JsValue> {
        let options =
            OptionsObject::read(options, "options", &["evaluatedAt", "title", "reviews"])?;
        let format = render::read_format(&format)?;
        let settings = Settings::read(&options)?;
        let reviewed = crate::review::with_option(&self.report, &options)?;
        let report = reviewed.as_ref().unwrap_or(&self.report);
        if let (Format::Document, Dataset::M365(document)) = (format, &mut self.dataset) {
            return Ok(match reviewed {
                Some(_) => reviewed_document(&document.document, report, &settings),
                None => scored_document(&mut document.document, report, &settings),
            });
        }
        Ok(
            render::render(report, format, Some(&self.dataset), &settings)
                .map_err(|dialect| foreign_format(format, dialect))?,
        )
    }

    /// The row of a Copilot Studio test set behind entry `position`, as an object of its columns
    /// (see `RowsEvaluation.input`), for an item view of a judged run; `undefined` for the other
    /// dialects, whose text the caller reads as JSON.
    ///
    /// # Errors
    /// `invalidArgument` when there is no entry at `position`.
    #[wasm_bindgen(unchecked_return_type = "JsonObject | undefined")]
    pub fn input(&self, position: f64) -> Result<JsValue, JsValue> {
        row_input(Some(&self.dataset), position, self.report.items.len())
    }
}

/// The Copilot Studio row behind entry `position` of a run of `entries` entries over `dataset`,
/// as an object of its columns; `undefined` for other dialects (or no dataset kept).
///
/// # Errors
/// `invalidArgument` when there is no entry at `position`.
pub fn row_input(
    dataset: Option<&Dataset>,
    position: f64,
    entries: usize,
) -> Result<JsValue, JsValue> {
    let row = (position.fract() == 0.0 && position >= 0.0)
        .then_some(position as usize)
        .filter(|index| *index < entries)
        .ok_or_else(|| {
            crate::error::ApiError::argument(
                "position",
                format!("an entry position from 0 to {}", entries.saturating_sub(1)),
            )
        })?;
    match dataset {
        Some(Dataset::CopilotStudio(set)) => match set.row_object(row) {
            Some(object) => crate::boundary::to_js(&Value::Object(object)),
            None => Ok(JsValue::UNDEFINED),
        },
        _ => Ok(JsValue::UNDEFINED),
    }
}

/// The error for `format` when it writes into `dialect`, which the scored dataset is not.
pub fn foreign_format(format: Format, dialect: &str) -> crate::error::ApiError {
    crate::error::ApiError::argument(
        "format",
        format!(
            "a format of the scored dataset: `{}` writes into {dialect}",
            format.name()
        ),
    )
}

/// The scored document's text with a reviewed report: written into a copy of `document`, since a
/// review adds to the user's `extensions`, which writing the kept document again would not undo.
pub fn reviewed_document(document: &Value, report: &RunReport, settings: &Settings) -> String {
    let options = m365_document::DocumentOptions {
        evaluated_at: settings.evaluated_at.clone(),
    };
    let scored = m365_document::write(document, report, &options);
    serde_json::to_string_pretty(&scored).unwrap_or_default() + "\n"
}

/// The scored document's text, written into `document` itself instead of a copy: writing the same
/// report again gives the same document, so only `metadata` (which `evaluatedAt` may change) is put
/// back as it was afterwards.
pub fn scored_document(document: &mut Value, report: &RunReport, settings: &Settings) -> String {
    let metadata = document.get("metadata").cloned();
    let options = m365_document::DocumentOptions {
        evaluated_at: settings.evaluated_at.clone(),
    };
    let scored = m365_document::write_owned(std::mem::take(document), report, &options);
    let text = serde_json::to_string_pretty(&scored).unwrap_or_default() + "\n";
    *document = scored;
    if let Value::Object(root) = document {
        match metadata {
            Some(metadata) => {
                root.insert("metadata".to_owned(), metadata);
            }
            None => {
                root.shift_remove("metadata");
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::Source;
    use agenteval_core::json;

    fn settings(evaluated_at: Option<&str>) -> Settings {
        Settings {
            title: render::DEFAULT_TITLE.to_owned(),
            evaluated_at: evaluated_at.map(str::to_owned),
        }
    }

    /// Rendering into the kept document, again and again, writes what a fresh copy would give.
    #[test]
    fn the_kept_document_renders_like_a_fresh_copy_every_time() {
        let path = format!(
            "{}/../../examples/m365-demo.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).expect("the example exists");
        let mut documents = vec![json!({"schemaVersion": "1.11.0", "items": [
            {"prompt": "p", "response": "r", "expected_response": "r", "status": "fail",
             "scores": {"stale": {}}, "error": {"message": "old"}},
            {"turns": [{"prompt": "a", "response": "", "expected_response": "b"}]}
        ], "default_evaluators": {"ExactMatch": {}}})];
        documents.push(serde_json::from_slice(&bytes).expect("JSON"));
        for (position, original) in documents.into_iter().enumerate() {
            let loaded = Source::Value(original.clone())
                .load("dataset", None)
                .expect("valid");
            let report = agenteval_core::engine::score(&loaded.dataset);
            let Dataset::M365(kept) = loaded.dataset else {
                panic!("an M365 document");
            };
            let mut kept = kept.document;
            for evaluated_at in [
                Some("2026-01-02T03:04:05Z"),
                None,
                Some("2027-01-01T00:00:00Z"),
                None,
            ] {
                let settings = settings(evaluated_at);
                let fresh = m365_document::write(
                    &original,
                    &report,
                    &m365_document::DocumentOptions {
                        evaluated_at: settings.evaluated_at.clone(),
                    },
                );
                let expected = serde_json::to_string_pretty(&fresh).expect("JSON") + "\n";
                assert_eq!(
                    scored_document(&mut kept, &report, &settings),
                    expected,
                    "document {position}, evaluatedAt {evaluated_at:?}"
                );
            }
        }
    }
}
