//! Reading the caller's inputs: datasets and configs given as text, bytes or parsed values (the
//! latter through `JSON.stringify`, [`boundary::json_text`]).

use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::dataset::{self, Loaded};
use agenteval_core::json;
use agenteval_core::json::Value;
use agenteval_core::Diagnostic;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::boundary::json_text;
use crate::error::{ApiError, ErrorCode};

#[wasm_bindgen(module = "/js/text.js")]
extern "C" {
    /// Encodes `text` from its UTF-16 unit `from` as UTF-8 into the `capacity` bytes at `address`
    /// of the module's `memory`; returns `[units read, bytes written]`.
    #[wasm_bindgen(js_name = encodeInto)]
    fn encode_into(
        text: &JsValue,
        from: usize,
        memory: JsValue,
        address: usize,
        capacity: usize,
    ) -> js_sys::Array;
}

/// The UTF-8 of the string `text`, encoded straight into a buffer of the module: first into room
/// for its UTF-16 length and an eighth (enough unless much of it is outside ASCII), then, when
/// that was not enough, into room for the worst case of what is left.
fn string_bytes(text: &JsValue) -> Vec<u8> {
    let units = text.unchecked_ref::<js_sys::JsString>().length() as usize;
    let mut bytes = vec![0; units + units / 8];
    let (mut read, mut written) = (0, 0);
    while read < units {
        let spare = bytes.get_mut(written..).unwrap_or_default();
        let counts = encode_into(
            text,
            read,
            wasm_bindgen::memory(),
            spare.as_mut_ptr().addr(),
            spare.len(),
        );
        let count = |index| counts.get(index).as_f64().unwrap_or(0.0) as usize;
        let units_read = count(0);
        read += units_read;
        written += count(1).min(spare.len());
        if units_read == 0 {
            break;
        }
        bytes.resize(written + (units - read.min(units)) * 3, 0);
    }
    bytes.truncate(written);
    bytes
}

/// A dataset as it arrived: text or bytes to parse, or a value already parsed by the caller.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// UTF-8 text (from a string, `Uint8Array` or `ArrayBuffer`).
    Bytes(Vec<u8>),
    /// A parsed JSON value.
    Value(Value),
}

impl Source {
    /// Reads the dataset; `config` is a Foundry evaluation config, validated first when given.
    ///
    /// # Errors
    /// `invalidConfig` for a bad config, `invalidDataset` when the dataset is unusable as a whole.
    pub fn load(self, what: &str, config: Option<&Value>) -> Result<Loaded, ApiError> {
        check_config(config)?;
        let loaded = match self {
            Source::Bytes(bytes) => dataset::load(&bytes, config),
            Source::Value(value) => dataset::load_value(value, config),
        };
        loaded.map_err(|error| ApiError::input(ErrorCode::InvalidDataset, what, error))
    }

    /// The text of a current-form M365 document and its outline, to be read one item at a time;
    /// any other source is given back unchanged.
    ///
    /// # Errors
    /// The source itself, when it is not such a document's text.
    pub fn outlined(self) -> Result<(String, DocumentOutline), Source> {
        let Source::Bytes(bytes) = self else {
            return Err(self);
        };
        let text = String::from_utf8(bytes).map_err(|error| Source::Bytes(error.into_bytes()))?;
        match DocumentOutline::read(&text) {
            Some(outline) => Ok((text, outline)),
            None => Err(Source::Bytes(text.into_bytes())),
        }
    }
}

/// Checks a Foundry config given with a dataset.
///
/// # Errors
/// `invalidConfig` naming `options.config`.
pub fn check_config(config: Option<&Value>) -> Result<(), ApiError> {
    if let Some(config) = config {
        dataset::FoundryConfig::from_value(config)
            .map_err(|error| ApiError::input(ErrorCode::InvalidConfig, "options.config", error))?;
    }
    Ok(())
}

/// Reads a dataset argument: a string, a `Uint8Array`, an `ArrayBuffer`, or a parsed value. A
/// parsed value is read as `dataset::load` reads text (`json::parse_dataset`): a string past the
/// input limit is left for validation, which confines it to its item.
///
/// # Errors
/// `invalidArgument` naming `field` for `undefined`, `null`, or values that are not JSON.
pub fn dataset_source(value: &JsValue, field: &str) -> Result<Source, ApiError> {
    if value.is_string() {
        return Ok(Source::Bytes(string_bytes(value)));
    }
    let emptied = |buffer: &js_sys::ArrayBuffer| {
        (buffer.byte_length() == 0).then(|| {
            ApiError::argument(
                field,
                "bytes to read; this buffer holds none (it is empty, or detached: transferred to \
                 a worker or another owner)",
            )
        })
    };
    if let Some(bytes) = value.dyn_ref::<js_sys::Uint8Array>() {
        if let Some(error) = emptied(&bytes.buffer()) {
            return Err(error);
        }
        return Ok(Source::Bytes(bytes.to_vec()));
    }
    if let Some(buffer) = value.dyn_ref::<js_sys::ArrayBuffer>() {
        if let Some(error) = emptied(buffer) {
            return Err(error);
        }
        return Ok(Source::Bytes(js_sys::Uint8Array::new(buffer).to_vec()));
    }
    if value.is_undefined() || value.is_null() {
        return Err(ApiError::argument(
            field,
            "a dataset: JSON or JSON Lines text, a Uint8Array, an ArrayBuffer, or a parsed JSON value",
        ));
    }
    read_json(value, field, json::parse_dataset).map(Source::Value)
}

/// A parsed JSON value given by the caller, read through `JSON.stringify` (so `toJSON` methods
/// apply and `undefined` members are left out, as in any JSON API).
///
/// # Errors
/// `invalidArgument` naming `field` when the value cannot be written as JSON.
pub fn json_value(value: &JsValue, field: &str) -> Result<Value, ApiError> {
    read_json(value, field, json::parse)
}

/// A value given by the caller, read through `JSON.stringify` and `parse`.
fn read_json(
    value: &JsValue,
    field: &str,
    parse: impl FnOnce(&[u8]) -> Result<Value, Diagnostic>,
) -> Result<Value, ApiError> {
    let text = json_text(value).ok_or_else(|| {
        ApiError::argument(
            field,
            "a JSON value (no functions, symbols, BigInts or cycles)",
        )
    })?;
    parse(text.as_bytes()).map_err(|diagnostic| {
        ApiError::new(
            ErrorCode::InvalidArgument,
            format!("{field}: {}", diagnostic.message),
        )
    })
}

/// An optional Foundry config: JSON text or an object; `undefined` and `null` mean none.
///
/// # Errors
/// `invalidConfig` for text that is not JSON, `invalidArgument` for other types.
pub fn config_value(value: &JsValue, field: &str) -> Result<Option<Value>, ApiError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if let Some(text) = value.as_string() {
        return json::parse(text.as_bytes())
            .map(Some)
            .map_err(|diagnostic| {
                ApiError::new(
                    ErrorCode::InvalidConfig,
                    format!("{field}: {}", diagnostic.describe()),
                )
            });
    }
    if !value.is_object() {
        return Err(ApiError::argument(
            field,
            "a Foundry evaluation config {\"testing_criteria\": [...]}, as JSON text or an object",
        ));
    }
    json_value(value, field).map(Some)
}

/// The dataset and the optional `options.config` of a call that takes nothing else (`validate`,
/// `plan`).
///
/// # Errors
/// `invalidArgument` for an unknown option or a dataset of the wrong type, `invalidConfig` for a
/// config that is not JSON.
pub fn dataset_and_config(
    dataset: &JsValue,
    options: Option<crate::types::ValidateOptionsArg>,
) -> Result<(Source, Option<Value>), ApiError> {
    let options = crate::options::OptionsObject::read(options, "options", &["config"])?;
    let source = dataset_source(dataset, "dataset")?;
    let config = config_value(&options.get("config"), "options.config")?;
    Ok((source, config))
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenteval_core::json;

    #[test]
    fn a_bad_config_is_reported_before_the_dataset() {
        let dataset = Source::Bytes(b"{\"query\": \"q\", \"response\": \"r\"}".to_vec());
        let error = dataset
            .load("dataset", Some(&json!({"testing_criteria": "nope"})))
            .expect_err("config is invalid");
        assert_eq!(error.code, ErrorCode::InvalidConfig);
        assert!(error.message.starts_with("options.config: "), "{error}");
    }

    #[test]
    fn an_unusable_dataset_is_an_invalid_dataset_error() {
        let error = Source::Bytes(b"{\"items\": 3".to_vec())
            .load("dataset", None)
            .expect_err("syntax error");
        assert_eq!(error.code, ErrorCode::InvalidDataset);
        assert!(error.message.starts_with("dataset: line 1"), "{error}");
        assert!(!error.diagnostics.is_empty());
    }

    #[test]
    fn parsed_values_and_text_load_the_same_dataset() {
        let document =
            json!({"schemaVersion": "1.6.0", "items": [{"prompt": "p", "response": "r"}]});
        let from_text = Source::Bytes(document.to_string().into_bytes())
            .load("dataset", None)
            .expect("valid");
        let from_value = Source::Value(document)
            .load("dataset", None)
            .expect("valid");
        assert_eq!(
            from_text.dataset.dialect(),
            from_value.dataset.dialect(),
            "same dialect"
        );
        assert_eq!(from_text.diagnostics, from_value.diagnostics);
    }
}
