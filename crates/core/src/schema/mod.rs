//! Validation of M365 eval documents against the official v1 JSON Schema (being written).

use serde_json::Value;

use crate::diagnostic::Diagnostic;

/// Validates an eval document; every problem found is returned with its JSON pointer.
pub fn validate(_document: &Value) -> Vec<Diagnostic> {
    Vec::new()
}
