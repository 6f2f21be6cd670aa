//! METEOR's WordNet table in the package. The table is a separate asset (`wordnet-meteor.bin.gz`)
//! that the host knows how to load: the package's loader (`pkg/load.js`) registers a function
//! with `setWordnetLoader` (kept in `js/wordnet.js`, outside the module's memory, so a reset after
//! a crash keeps it), and a run that needs the table (the core says which runs do:
//! `Session::needs_wordnet`) has it loaded and installed before its first step. This module never
//! decides which runs need it, and never fetches anything itself.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::error::{ApiError, ErrorCode};

#[wasm_bindgen(module = "/js/wordnet.js")]
extern "C" {
    #[wasm_bindgen(js_name = setLoader)]
    fn set_loader(loader: &js_sys::Function);
    #[wasm_bindgen(js_name = hasLoader)]
    fn has_loader() -> bool;
    #[wasm_bindgen(js_name = loadTable)]
    fn load_table() -> js_sys::Promise;
}

/// Registers how this module gets METEOR's WordNet table: `loader()` returns (or resolves to)
/// the ungzipped bytes of `wordnet-meteor.bin.gz` as a `Uint8Array`. Without a loader, METEOR's
/// results are `evaluatorLoadError` errors.
#[wasm_bindgen(js_name = setWordnetLoader, skip_typescript)]
pub fn set_wordnet_loader(loader: &js_sys::Function) {
    set_loader(loader);
}

/// When `needed` and no table is installed yet, a promise that loads the table through the
/// registered loader and installs it; `None` when there is nothing to wait for (not needed,
/// already installed, or no loader registered).
///
/// The promise rejects with code `wordnetUnavailable` when the loader fails or gives bytes that
/// are not the table; the next run that needs it tries again.
pub(crate) fn ensure(needed: bool) -> Option<js_sys::Promise> {
    if !needed || agenteval_core::wordnet::installed().is_some() || !has_loader() {
        return None;
    }
    let loading = JsFuture::from(load_table());
    Some(wasm_bindgen_futures::future_to_promise(async move {
        let bytes = loading
            .await
            .map_err(|error| unavailable(&describe(&error)))?;
        let Some(bytes) = bytes.dyn_ref::<js_sys::Uint8Array>() else {
            return Err(unavailable("the loader gave no Uint8Array").into());
        };
        agenteval_core::wordnet::install(bytes.to_vec())
            .map_err(|problem| unavailable(&format!("wordnet-meteor.bin.gz: {problem}")))?;
        Ok(JsValue::UNDEFINED)
    }))
}

fn unavailable(why: &str) -> ApiError {
    ApiError::new(
        ErrorCode::WordnetUnavailable,
        format!("METEOR's WordNet table could not be loaded: {why}"),
    )
}

/// The message of a thrown value (an `Error`'s, or the value as text).
fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|error| String::from(error.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the loader failed".to_owned())
}
