//! Errors thrown to JavaScript: real `Error` objects with a machine-readable `code` and a message
//! naming the argument or field concerned. Per-item evaluator failures are never errors: they are
//! result data.

use agenteval_core::{Diagnostic, InputError};

/// Why a call was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// An argument or option has the wrong type or value.
    InvalidArgument,
    /// The dataset is not usable as a whole (syntax error, unknown dialect, bad `schemaVersion`…).
    InvalidDataset,
    /// The Foundry evaluation config is invalid.
    InvalidConfig,
    /// The item given to `scoreItem` is invalid.
    InvalidItem,
    /// The report given to `render` does not have the run report's shape.
    InvalidReport,
    /// The dataset given to `readReport` carries no scores: score it instead.
    NotScored,
    /// METEOR's WordNet table, which the run needs, could not be loaded.
    WordnetUnavailable,
    /// The runs given to `compare` cannot be paired (different dialects, an item without the
    /// key field).
    NotComparable,
    /// The judge call of `generateRubric` failed or was cancelled.
    JudgeFailed,
    /// The judge's reply to `generateRubric` is no rubric the Rubric judge accepts.
    RubricUnusable,
}

impl ErrorCode {
    /// The camelCase code set on the JavaScript `Error`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "invalidArgument",
            ErrorCode::InvalidDataset => "invalidDataset",
            ErrorCode::InvalidConfig => "invalidConfig",
            ErrorCode::InvalidItem => "invalidItem",
            ErrorCode::InvalidReport => "invalidReport",
            ErrorCode::NotScored => "notScored",
            ErrorCode::WordnetUnavailable => "wordnetUnavailable",
            ErrorCode::NotComparable => "notComparable",
            ErrorCode::JudgeFailed => "judgeFailed",
            ErrorCode::RubricUnusable => "rubricUnusable",
        }
    }
}

/// A refused call: its code, message, and the input problems behind it, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// Machine-readable reason.
    pub code: ErrorCode,
    /// What is wrong, naming the argument or field.
    pub message: String,
    /// The problems found in the input, for `invalidDataset`, `invalidConfig`, `invalidItem` and
    /// `notScored`.
    pub diagnostics: Vec<Diagnostic>,
}

impl ApiError {
    /// An error without diagnostics.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
            diagnostics: Vec::new(),
        }
    }

    /// `invalidArgument` naming `field`.
    pub fn argument(field: &str, expected: impl std::fmt::Display) -> Self {
        ApiError::new(
            ErrorCode::InvalidArgument,
            format!("{field}: expected {expected}"),
        )
    }

    /// An input rejected by the core, prefixed with what was being read (`dataset`, `options.config`).
    pub fn input(code: ErrorCode, what: &str, error: InputError) -> Self {
        let details: Vec<String> = error
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == agenteval_core::Severity::Error)
            .map(Diagnostic::describe)
            .collect();
        ApiError {
            code,
            message: format!("{what}: {}", details.join("; ")),
            diagnostics: error.diagnostics,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code.as_str())
    }
}

impl From<ApiError> for wasm_bindgen::JsValue {
    /// A `js_sys::Error` with `code`, and `diagnostics` when there are any.
    fn from(error: ApiError) -> Self {
        let object = js_sys::Error::new(&error.message);
        object.set_name("AgentEvalError");
        let set = |key: &str, value: &wasm_bindgen::JsValue| {
            let _ = js_sys::Reflect::set(&object, &key.into(), value);
        };
        set("code", &error.code.as_str().into());
        if !error.diagnostics.is_empty() {
            set(
                "diagnostics",
                &crate::boundary::to_js(&error.diagnostics).unwrap_or(wasm_bindgen::JsValue::NULL),
            );
        }
        object.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_list_every_error_and_keep_diagnostics() {
        let error = InputError {
            diagnostics: vec![
                Diagnostic::at_pointer("/items/0/prompt", "expected a string"),
                Diagnostic::at_line(3, 7, "unexpected end").warning(),
            ],
        };
        let api = ApiError::input(ErrorCode::InvalidDataset, "dataset", error);
        assert_eq!(
            api.message,
            "dataset: at /items/0/prompt: expected a string"
        );
        assert_eq!(api.diagnostics.len(), 2);
        assert_eq!(api.to_string(), format!("{} (invalidDataset)", api.message));
    }

    #[test]
    fn argument_errors_name_the_field() {
        let api = ApiError::argument("options.format", "one of report, csv");
        assert_eq!(api.code.as_str(), "invalidArgument");
        assert_eq!(api.message, "options.format: expected one of report, csv");
    }
}
