//! Typed reading of an evaluator's options object, with errors that name the option and what was
//! expected. Shared by every evaluator so that option errors read the same everywhere.

use crate::json::{Map, Value};
use crate::text::decimal;
use thiserror::Error;

/// An evaluator's options are unusable; the message names the option and what was expected.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{message}")]
pub struct ConfigError {
    /// Human-readable description naming the option.
    pub message: String,
}

impl ConfigError {
    /// A configuration error with this exact message.
    pub fn new(message: impl Into<String>) -> Self {
        ConfigError {
            message: message.into(),
        }
    }
}

/// Describes a JSON value's type for error messages (`a string`, `an array`…).
pub fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A borrowed options object (`{"threshold": 0.7, "case_sensitive": true}`).
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    map: &'a Map<String, Value>,
}

static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

impl<'a> Options<'a> {
    /// Wraps an options object.
    pub fn new(map: &'a Map<String, Value>) -> Self {
        Options { map }
    }

    /// No options at all.
    pub fn empty() -> Options<'static> {
        Options {
            map: EMPTY.get_or_init(Map::new),
        }
    }

    /// The raw options object.
    pub fn map(&self) -> &'a Map<String, Value> {
        self.map
    }

    /// The raw value of `key`, if present and not `null`.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|value| !value.is_null())
    }

    /// Rejects any option not in `allowed`.
    ///
    /// # Errors
    /// Names the first unknown option and lists the allowed ones.
    pub fn deny_unknown(&self, allowed: &[&str]) -> Result<(), ConfigError> {
        match self.map.keys().find(|key| !allowed.contains(&key.as_str())) {
            Some(key) => Err(ConfigError::new(format!(
                "unknown option `{key}`; expected one of: {}",
                allowed.join(", ")
            ))),
            None => Ok(()),
        }
    }

    /// A finite number option within `[min, max]`, or `default` when absent.
    ///
    /// # Errors
    /// When the value is not a finite number or is out of range.
    pub fn number_in(
        &self,
        key: &str,
        default: f64,
        min: f64,
        max: f64,
    ) -> Result<f64, ConfigError> {
        let Some(value) = self.get(key) else {
            return Ok(default);
        };
        match value.as_f64() {
            Some(number) if number.is_finite() && number >= min && number <= max => Ok(number),
            _ => Err(ConfigError::new(format!(
                "option `{key}` must be a number between {} and {}, got {value}",
                decimal::plain(min),
                decimal::plain(max)
            ))),
        }
    }

    /// An integer option of at least `min`, or `default` when absent.
    ///
    /// # Errors
    /// When the value is not an integer or is below `min`.
    pub fn integer_at_least(&self, key: &str, default: i64, min: i64) -> Result<i64, ConfigError> {
        let Some(value) = self.get(key) else {
            return Ok(default);
        };
        match integer_value(value) {
            Some(number) if number >= min => Ok(number),
            _ => Err(ConfigError::new(format!(
                "option `{key}` must be an integer of at least {min}, got {value}"
            ))),
        }
    }

    /// A boolean option, or `default` when absent.
    ///
    /// # Errors
    /// When the value is not a boolean.
    pub fn bool(&self, key: &str, default: bool) -> Result<bool, ConfigError> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(flag)) => Ok(*flag),
            Some(other) => Err(ConfigError::new(format!(
                "option `{key}` must be true or false, got {other}"
            ))),
        }
    }

    /// An optional string option.
    ///
    /// # Errors
    /// When the value is present but not a string.
    pub fn string(&self, key: &str) -> Result<Option<&'a str>, ConfigError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(ConfigError::new(format!(
                "option `{key}` must be a string, got {}",
                json_type_name(other)
            ))),
        }
    }

    /// A required non-empty string option.
    ///
    /// # Errors
    /// When the option is absent, not a string, or empty.
    pub fn required_string(&self, key: &str) -> Result<&'a str, ConfigError> {
        match self.string(key)? {
            Some(text) if !text.is_empty() => Ok(text),
            _ => Err(ConfigError::new(format!(
                "option `{key}` is required and must be a non-empty string"
            ))),
        }
    }

    /// An optional list of non-empty strings (empty list when absent).
    ///
    /// # Errors
    /// When the value is not an array of non-empty strings.
    pub fn string_list(&self, key: &str) -> Result<Vec<&'a str>, ConfigError> {
        let Some(value) = self.get(key) else {
            return Ok(Vec::new());
        };
        let invalid = || {
            ConfigError::new(format!(
                "option `{key}` must be an array of non-empty strings, got {value}"
            ))
        };
        let items = value.as_array().ok_or_else(invalid)?;
        items
            .iter()
            .map(|item| {
                item.as_str()
                    .filter(|text| !text.is_empty())
                    .ok_or_else(invalid)
            })
            .collect()
    }
}

/// An integer JSON value (`3` or `3.0`), if it is one.
pub fn integer_value(value: &Value) -> Option<i64> {
    if let Some(number) = value.as_i64() {
        return Some(number);
    }
    value
        .as_f64()
        .filter(|number| number.fract() == 0.0 && number.abs() < 9.0e15)
        .map(|number| number as i64)
}
