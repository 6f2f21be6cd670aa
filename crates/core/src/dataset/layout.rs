//! How an input's text is laid out, decided from its first two non-empty lines: one JSON value,
//! JSON Lines or CSV. The one rule every host uses, through the run plan and `load`.

use crate::json::{self, Map, Value};

/// How an input's text is laid out.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// One JSON value (an M365 document, a JSON array of rows, `{testing_criteria, data}`).
    Document,
    /// JSON Lines: one Foundry row (or the config) per line.
    Lines,
    /// A CSV test set.
    Csv,
}

/// Whether a text whose first two non-empty lines are `first` and `second` is JSON Lines: the
/// first line is a complete JSON object and either the second starts with `{`, or there is no
/// second and a config was given (a one-row file is Foundry rows then, whatever its fields,
/// unless it is an M365 document: `schemaVersion`, `items` or `prompts`). The one rule for every host.
pub fn is_json_lines(first: &[u8], second: Option<&[u8]>, config_given: bool) -> bool {
    let first = first.trim_ascii();
    if !first.starts_with(b"{") {
        return false;
    }
    match second.map(<[u8]>::trim_ascii) {
        Some(second) => second.starts_with(b"{") && json::parse(first).is_ok(),
        None => {
            config_given
                && matches!(json::parse(first), Ok(Value::Object(ref object)) if !is_m365_document(object))
        }
    }
}

/// An object with the keys only an M365 eval document (or its legacy object forms) has at its
/// root.
pub fn is_m365_document(object: &Map<String, Value>) -> bool {
    ["schemaVersion", "items", "prompts"]
        .iter()
        .any(|key| object.contains_key(key))
}

/// The first two non-empty lines of `bytes` (a byte-order mark skipped).
pub fn first_lines(bytes: &[u8]) -> (Option<&[u8]>, Option<&[u8]>) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut lines = bytes
        .split(|byte| *byte == b'\n')
        .filter(|line| !line.trim_ascii().is_empty());
    (lines.next(), lines.next())
}

/// The layout of a whole text.
pub fn layout(bytes: &[u8], config_given: bool) -> Layout {
    let (first, second) = first_lines(bytes);
    let Some(first) = first else {
        return Layout::Document;
    };
    if is_json_lines(first, second, config_given) {
        return Layout::Lines;
    }
    let starts_like_json = matches!(first.trim_ascii().first(), Some(b'{' | b'['));
    if !starts_like_json && super::looks_like_copilot_studio(bytes) {
        return Layout::Csv;
    }
    Layout::Document
}
