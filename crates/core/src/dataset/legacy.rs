//! The M365 legacy inputs, upgraded in memory to a v1 document (the user's file is never
//! rewritten): a bare array of items, an object with `items` but no `schemaVersion`, and an object
//! with `prompts` (item objects, or strings paired with `expected_responses`).

use crate::json::{Map, Value};

use crate::diagnostic::{Diagnostic, InputError};

/// The schema version a legacy document is upgraded to.
pub const UPGRADE_VERSION: &str = "1.11.0";

/// Where the items sat in the user's file, so pointers into the upgraded document can be mapped back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemsLocation {
    /// `/items` (a v1 document, or a legacy object with `items`).
    Items,
    /// The root array (`/0/...`).
    Root,
    /// `/prompts`.
    Prompts,
}

impl ItemsLocation {
    /// Maps a pointer into the upgraded document back to the user's file.
    pub fn user_pointer(self, pointer: &str) -> String {
        let Some(rest) = pointer.strip_prefix("/items") else {
            return pointer.to_owned();
        };
        match self {
            ItemsLocation::Items => pointer.to_owned(),
            ItemsLocation::Root => rest.to_owned(),
            ItemsLocation::Prompts => format!("/prompts{rest}"),
        }
    }
}

/// What [`upgrade`] made of a value.
#[derive(Debug)]
pub enum Upgrade {
    /// A legacy form, now a v1 document object.
    Upgraded {
        /// The upgraded document.
        document: Map<String, Value>,
        /// Where the items were in the user's file.
        location: ItemsLocation,
        /// Says what was upgraded.
        warning: Diagnostic,
    },
    /// Not a legacy form; the value is handed back unchanged.
    NotLegacy(Value),
}

/// Upgrades a legacy input to a v1 document object, with a warning saying what was done.
///
/// # Errors
/// When the legacy form is recognised but malformed (e.g. `prompts` and `expected_responses` of
/// different lengths).
pub fn upgrade(value: Value) -> Result<Upgrade, InputError> {
    let upgraded = |document, location, what: &str| Upgrade::Upgraded {
        document,
        location,
        warning: warning(what),
    };
    match value {
        Value::Array(items) => Ok(upgraded(
            document(Map::new(), Value::Array(items)),
            ItemsLocation::Root,
            "a bare array of items is the legacy form",
        )),
        Value::Object(mut root) if !root.contains_key("schemaVersion") => {
            if root.contains_key("items") {
                let items = root.shift_remove("items").unwrap_or(Value::Null);
                return Ok(upgraded(
                    document(root, items),
                    ItemsLocation::Items,
                    "a document without `schemaVersion` is the legacy form",
                ));
            }
            match root.shift_remove("prompts") {
                Some(prompts) => {
                    let expected = root.shift_remove("expected_responses");
                    let items = prompt_items(prompts, expected)?;
                    Ok(upgraded(
                        document(root, items),
                        ItemsLocation::Prompts,
                        "a `prompts` object is the legacy form",
                    ))
                }
                None => Ok(Upgrade::NotLegacy(Value::Object(root))),
            }
        }
        other => Ok(Upgrade::NotLegacy(other)),
    }
}

fn warning(what: &str) -> Diagnostic {
    Diagnostic::whole(format!(
        "{what}; it was upgraded in memory to schemaVersion {UPGRADE_VERSION} (the file is not changed)"
    ))
    .warning()
}

fn document(mut rest: Map<String, Value>, items: Value) -> Map<String, Value> {
    let mut document = Map::new();
    if let Some(schema) = rest.shift_remove("$schema") {
        document.insert("$schema".to_owned(), schema);
    }
    document.insert(
        "schemaVersion".to_owned(),
        Value::String(UPGRADE_VERSION.to_owned()),
    );
    document.extend(rest);
    document.insert("items".to_owned(), items);
    document
}

fn prompt_items(prompts: Value, expected: Option<Value>) -> Result<Value, InputError> {
    let Value::Array(prompts) = prompts else {
        return Err(InputError::one(Diagnostic::at_pointer(
            "/prompts",
            "expected an array of prompts",
        )));
    };
    if !prompts.iter().all(Value::is_string) {
        return Ok(Value::Array(prompts));
    }
    let expected = match expected {
        None => Vec::new(),
        Some(Value::Array(expected)) if expected.len() == prompts.len() => expected,
        Some(Value::Array(expected)) => {
            return Err(InputError::one(Diagnostic::at_pointer(
                "/expected_responses",
                format!(
                    "expected {} expected responses, one per prompt, got {}",
                    prompts.len(),
                    expected.len()
                ),
            )))
        }
        Some(_) => {
            return Err(InputError::one(Diagnostic::at_pointer(
                "/expected_responses",
                "expected an array of strings, one per prompt",
            )))
        }
    };
    let mut expected = expected.into_iter();
    Ok(Value::Array(
        prompts
            .into_iter()
            .map(|prompt| {
                let mut item = Map::new();
                item.insert("prompt".to_owned(), prompt);
                if let Some(answer) = expected.next() {
                    item.insert("expected_response".to_owned(), answer);
                }
                Value::Object(item)
            })
            .collect(),
    ))
}
