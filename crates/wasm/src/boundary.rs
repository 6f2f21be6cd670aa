//! Values crossing the boundary as JSON text: outputs are written by `serde_json` and read by the
//! engine's `JSON.parse` (plain objects, so results survive `JSON.stringify`, IndexedDB and
//! `postMessage` unchanged); inputs are read through `JSON.stringify`.

use serde::Serialize;
use wasm_bindgen::JsValue;

/// `value` as a JavaScript value: plain objects and arrays, numbers as numbers, `null` for `None`.
///
/// # Errors
/// When the value cannot be written as JSON (never for the package's types).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|error| JsValue::from(js_sys::Error::new(&error.to_string())))?;
    js_sys::JSON::parse(&text)
}

/// The JSON text of a JavaScript value (`JSON.stringify`: `toJSON` methods apply, `undefined`
/// members are left out); `None` for values JSON cannot represent (functions, symbols, BigInts,
/// cycles).
pub fn json_text(value: &JsValue) -> Option<String> {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|text| text.as_string())
}
