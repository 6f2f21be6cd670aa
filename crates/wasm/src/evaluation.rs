//! `Evaluation`: what `evaluate()` resolves to. It keeps the scored dataset and the report in the
//! module, so each output format is written from them directly, without reading the report back
//! from JavaScript objects or parsing the dataset again. Its memory is released by `free()`.

use agenteval_core::dataset::Dataset;
use agenteval_core::RunReport;
use wasm_bindgen::prelude::*;

use crate::options::OptionsObject;
use crate::render::{self, Settings};

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
    /// result keys), `csv`, `junit`, `md` or `html`.
    #[wasm_bindgen(js_name = render)]
    pub fn render_format(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Format")] format: JsValue,
        options: Option<crate::types::OutputOptionsArg>,
    ) -> Result<String, JsValue> {
        let options = OptionsObject::read(options, "options", &["evaluatedAt", "title"])?;
        let format = render::read_format(&format)?;
        let settings = Settings::read(&options)?;
        Ok(
            render::render(&self.report, format, Some(&self.dataset), &settings).map_err(
                |dialect| {
                    crate::error::ApiError::argument(
                        "format",
                        format!(
                            "a format of the scored dataset: `{}` writes into {dialect}",
                            format.as_str()
                        ),
                    )
                },
            )?,
        )
    }
}
