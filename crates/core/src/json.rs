//! Strict JSON parsing: syntax errors with line and column, duplicate keys, size and depth limits
//! (being hardened; this first version only wraps serde_json).

use serde_json::Value;

use crate::diagnostic::Diagnostic;

/// Parses one JSON text.
///
/// # Errors
/// A diagnostic at the line and column of the first problem.
pub fn parse(bytes: &[u8]) -> Result<Value, Diagnostic> {
    serde_json::from_slice(bytes)
        .map_err(|error| Diagnostic::at_line(error.line(), error.column(), error.to_string()))
}
