//! M365 Copilot eval documents (schema v1, 1.0.0 to 1.11.x): validation against the schema, the
//! split between document-level and item-level problems, and iteration over items and turns.

use serde_json::{Map, Value};

use super::legacy::{self, ItemsLocation, Upgrade};
use crate::diagnostic::{Diagnostic, InputError, Location, Severity};
use crate::schema;

/// A `major.minor.patch` schema version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct SchemaVersion {
    /// Major (always 1).
    pub major: u32,
    /// Minor.
    pub minor: u32,
    /// Patch.
    pub patch: u32,
}

impl SchemaVersion {
    /// Parses `1.9.0`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let mut parts = text.split('.').map(|part| part.parse::<u32>().ok());
        let version = SchemaVersion {
            major: parts.next()??,
            minor: parts.next()??,
            patch: parts.next()??,
        };
        parts.next().is_none().then_some(version)
    }

    /// True when this version is at least `major.minor`.
    pub fn at_least(self, major: u32, minor: u32) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

/// A validated eval document.
#[derive(Debug, Clone)]
pub struct EvalDocument {
    /// The document (legacy forms upgraded); outputs are written from it.
    pub document: Value,
    /// The declared (or upgraded-to) schema version.
    pub version: SchemaVersion,
    /// Whether the input was a legacy form.
    pub legacy: bool,
    /// Items that failed validation: index and the problems, joined.
    pub item_problems: Vec<(usize, String)>,
}

/// One single-turn item or one turn of a thread.
#[derive(Debug, Clone, Copy)]
pub struct Case<'a> {
    /// 0-based item index.
    pub index: usize,
    /// 0-based turn index for threads.
    pub turn: Option<usize>,
    /// The item or turn object.
    pub fields: &'a Map<String, Value>,
}

impl EvalDocument {
    /// Validates a parsed document (upgrading a legacy form first).
    ///
    /// # Errors
    /// When the document is invalid as a whole: not an object, bad or unsupported `schemaVersion`,
    /// `items` missing, empty or not an array, bad `default_evaluators` or `metadata`. The error
    /// lists every problem found, item-level ones included.
    pub fn from_value(value: Value) -> Result<(Self, Vec<Diagnostic>), InputError> {
        let (document, location, mut diagnostics, legacy) = match legacy::upgrade(value)? {
            Upgrade::Upgraded {
                document,
                location,
                warning,
            } => (Value::Object(document), location, vec![warning], true),
            Upgrade::NotLegacy(value @ Value::Object(_)) => {
                (value, ItemsLocation::Items, Vec::new(), false)
            }
            Upgrade::NotLegacy(other) => {
                return Err(InputError::one(Diagnostic::whole(format!(
                    "expected an M365 eval document (a JSON object with `schemaVersion` and `items`), a legacy array of items, or Foundry rows; got {}",
                    crate::options::json_type_name(&other)
                ))))
            }
        };
        let mut item_messages: Vec<(usize, Vec<String>)> = Vec::new();
        let mut document_level = false;
        for mut diagnostic in schema::validate(&document) {
            if let Location::Pointer { pointer, .. } = &mut diagnostic.location {
                let index = item_index(pointer);
                *pointer = location.user_pointer(pointer);
                match index {
                    Some(index) => {
                        push_problem(&mut item_messages, index, &diagnostic.message, pointer)
                    }
                    None => document_level |= diagnostic.severity == Severity::Error,
                }
            } else {
                document_level |= diagnostic.severity == Severity::Error;
            }
            diagnostics.push(diagnostic);
        }
        let version = document
            .get("schemaVersion")
            .and_then(Value::as_str)
            .and_then(SchemaVersion::parse);
        let version = match version {
            Some(version) if !document_level => version,
            _ => {
                if !document_level {
                    diagnostics.push(Diagnostic::at_pointer(
                        "/schemaVersion",
                        "expected a version like \"1.6.0\"",
                    ));
                }
                diagnostics.sort_by_key(|diagnostic| diagnostic.severity != Severity::Error);
                return Err(InputError { diagnostics });
            }
        };
        let item_problems = item_messages
            .into_iter()
            .map(|(index, messages)| (index, messages.join("; ")))
            .collect();
        Ok((
            EvalDocument {
                document,
                version,
                legacy,
                item_problems,
            },
            diagnostics,
        ))
    }

    /// The `items` array.
    pub fn items(&self) -> &[Value] {
        self.document
            .get("items")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// The root `default_evaluators`, when given.
    pub fn default_evaluators(&self) -> Option<&Map<String, Value>> {
        self.document
            .get("default_evaluators")
            .and_then(Value::as_object)
    }

    /// The problem that makes item `index` unusable, if any.
    pub fn item_problem(&self, index: usize) -> Option<&str> {
        self.item_problems
            .iter()
            .find(|(problem_index, _)| *problem_index == index)
            .map(|(_, message)| message.as_str())
    }

    /// Every single-turn item and every thread turn, in document order. Items that are not
    /// objects, or threads whose `turns` is not an array, yield nothing (they carry a problem).
    pub fn cases(&self) -> impl Iterator<Item = Case<'_>> {
        self.items()
            .iter()
            .enumerate()
            .filter_map(|(index, item)| item.as_object().map(|item| (index, item)))
            .flat_map(|(index, item)| {
                let turns = item.get("turns").and_then(Value::as_array);
                let single = turns.is_none().then_some(Case {
                    index,
                    turn: None,
                    fields: item,
                });
                let threaded =
                    turns
                        .into_iter()
                        .flatten()
                        .enumerate()
                        .filter_map(move |(turn, value)| {
                            value.as_object().map(|fields| Case {
                                index,
                                turn: Some(turn),
                                fields,
                            })
                        });
                single.into_iter().chain(threaded)
            })
    }
}

/// `Some(n)` when `pointer` is `/items/n` or inside it.
fn item_index(pointer: &str) -> Option<usize> {
    let rest = pointer.strip_prefix("/items/")?;
    rest.split('/').next()?.parse().ok()
}

fn push_problem(
    problems: &mut Vec<(usize, Vec<String>)>,
    index: usize,
    message: &str,
    pointer: &str,
) {
    let text = format!("{pointer}: {message}");
    match problems
        .iter_mut()
        .find(|(problem_index, _)| *problem_index == index)
    {
        Some((_, messages)) => messages.push(text),
        None => problems.push((index, vec![text])),
    }
}
