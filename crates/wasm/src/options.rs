//! Reading the caller's option objects field by field, so that a wrong type or a misspelt key is
//! refused with an error naming the field (`options.onProgress: expected a function`).

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::error::ApiError;

/// An options argument, checked to be an object (or absent) with only known keys.
pub struct OptionsObject {
    object: Option<Object>,
    name: &'static str,
}

impl OptionsObject {
    /// Checks `value` (`undefined` and `null` mean no options) against the `allowed` keys.
    ///
    /// # Errors
    /// `invalidArgument` when `value` is not a plain object or has a key not in `allowed`.
    pub fn read(
        value: Option<impl Into<JsValue>>,
        name: &'static str,
        allowed: &[&str],
    ) -> Result<Self, ApiError> {
        let value: JsValue = value.map_or(JsValue::UNDEFINED, Into::into);
        if value.is_undefined() || value.is_null() {
            return Ok(OptionsObject { object: None, name });
        }
        if !value.is_object() || value.is_function() || js_sys::Array::is_array(&value) {
            return Err(ApiError::argument(name, "an options object"));
        }
        let object: Object = value.unchecked_into();
        for key in Object::keys(&object).iter() {
            let key = key.as_string().unwrap_or_default();
            if !allowed.contains(&key.as_str()) {
                return Err(ApiError::new(
                    crate::error::ErrorCode::InvalidArgument,
                    format!(
                        "{name}.{key}: unknown option; the options are {}",
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(OptionsObject {
            object: Some(object),
            name,
        })
    }

    /// The object itself (`undefined` when no options were given).
    pub fn value(&self) -> JsValue {
        self.object
            .as_ref()
            .map_or(JsValue::UNDEFINED, |object| object.clone().into())
    }

    /// The full name of field `key`, for messages.
    pub fn field(&self, key: &str) -> String {
        format!("{}.{key}", self.name)
    }

    /// The raw value of `key` (`undefined` when absent).
    pub fn get(&self, key: &str) -> JsValue {
        self.object
            .as_ref()
            .and_then(|object| Reflect::get(object, &key.into()).ok())
            .unwrap_or(JsValue::UNDEFINED)
    }

    /// An optional string field.
    ///
    /// # Errors
    /// When present and not a string.
    pub fn string(&self, key: &str) -> Result<Option<String>, ApiError> {
        let value = self.get(key);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        value
            .as_string()
            .map(Some)
            .ok_or_else(|| ApiError::argument(&self.field(key), "a string"))
    }

    /// An optional function field.
    ///
    /// # Errors
    /// When present and not a function.
    pub fn function(&self, key: &str) -> Result<Option<js_sys::Function>, ApiError> {
        let value = self.get(key);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        value
            .dyn_into::<js_sys::Function>()
            .map(Some)
            .map_err(|_| ApiError::argument(&self.field(key), "a function"))
    }

    /// An optional positive finite number field.
    ///
    /// # Errors
    /// When present and not a positive finite number.
    pub fn positive_number(&self, key: &str) -> Result<Option<f64>, ApiError> {
        let value = self.get(key);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        match value.as_f64() {
            Some(number) if number.is_finite() && number > 0.0 => Ok(Some(number)),
            _ => Err(ApiError::argument(
                &self.field(key),
                "a positive number of milliseconds",
            )),
        }
    }

    /// An optional `AbortSignal` field (anything with a boolean `aborted` and `addEventListener`).
    ///
    /// # Errors
    /// When present and not an `AbortSignal`.
    pub fn signal(&self, key: &str) -> Result<(), ApiError> {
        let value = self.get(key);
        if value.is_undefined() || value.is_null() {
            return Ok(());
        }
        let looks_like_signal = value.is_object()
            && Reflect::get(&value, &"aborted".into())
                .is_ok_and(|aborted| aborted.as_bool().is_some())
            && Reflect::get(&value, &"addEventListener".into()).is_ok_and(|add| add.is_function());
        if looks_like_signal {
            Ok(())
        } else {
            Err(ApiError::argument(&self.field(key), "an AbortSignal"))
        }
    }

    /// An optional object of custom evaluators by name: each entry's name and value (a function,
    /// or a judge template object); `[]` when absent.
    ///
    /// # Errors
    /// When present and not a plain object.
    pub fn entries(&self, key: &str) -> Result<Vec<(String, JsValue)>, ApiError> {
        let value = self.get(key);
        if value.is_undefined() || value.is_null() {
            return Ok(Vec::new());
        }
        let Some(object) = value.dyn_ref::<Object>().filter(|_| !value.is_function()) else {
            return Err(ApiError::argument(
                &self.field(key),
                "an object mapping evaluator names to functions",
            ));
        };
        Ok(Object::keys(object)
            .iter()
            .map(|name| {
                let name = name.as_string().unwrap_or_default();
                let entry =
                    Reflect::get(object, &name.as_str().into()).unwrap_or(JsValue::UNDEFINED);
                (name, entry)
            })
            .collect())
    }
}
