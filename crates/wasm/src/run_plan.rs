//! `plan()`: the core's run plan for a dataset (`agenteval_core::plan`), so that hosts ask
//! instead of deciding: its dialect and layout, where a Foundry config comes from, the output
//! formats that apply, what the run needs (a judge, embeddings, WordNet) and its counts.

use agenteval_core::plan::{self, Layout, Plan};
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::convert::{self, Source};
use crate::error::ApiError;

/// What the core decides about `dataset` (text, bytes or a parsed value) before scoring it, with
/// `options.config` as the Foundry config when given.
#[wasm_bindgen(js_name = plan, unchecked_return_type = "Plan")]
pub fn plan_dataset(
    #[wasm_bindgen(unchecked_param_type = "DatasetInput")] dataset: JsValue,
    options: Option<crate::types::ValidateOptionsArg>,
) -> Result<JsValue, JsValue> {
    let (source, config) = convert::dataset_and_config(&dataset, options)?;
    boundary::to_js(&planned(source, config.as_ref())?)
}

/// The plan of `source`.
///
/// # Errors
/// `invalidConfig` or `invalidDataset`, as `score` would fail on the same input.
pub fn planned(
    source: Source,
    config: Option<&agenteval_core::json::Value>,
) -> Result<Plan, ApiError> {
    let layout = match &source {
        Source::Bytes(bytes) => plan::layout(bytes, config.is_some()),
        Source::Value(_) => Layout::Document,
    };
    let loaded = source.load("dataset", config)?;
    Ok(plan::plan(&loaded, layout, config.is_some()))
}
