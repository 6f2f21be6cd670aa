//! M365 Copilot eval documents (schema v1, 1.0.0 to 1.11.x): validation against the schema, the
//! split between document-level and item-level problems, and iteration over items and turns.

use std::ops::Range;

use crate::json::{Map, Value};

use super::legacy::{self, ItemsLocation, Upgrade};
use crate::diagnostic::{Diagnostic, InputError, Location, Severity};
use crate::sorting;
use crate::{json, schema};

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
        let (mut document, location, mut diagnostics, legacy) = match legacy::upgrade(value)? {
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
        let mut triage = Triage::default();
        let mut repeated_keys = false;
        for diagnostic in schema::validate(&document) {
            repeated_keys |= schema::is_repeated_key(&diagnostic);
            triage.add(diagnostic, location, &mut diagnostics);
        }
        if repeated_keys {
            schema::drop_repeated_keys(&mut document);
        }
        let Triaged {
            version,
            item_problems,
            diagnostics,
        } = triage.finish(document.get("schemaVersion"), diagnostics)?;
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

/// An eval document read as an outline: its top-level members parsed and validated, its items
/// kept as raw text to parse, validate, score and write one at a time (see the `stream` module). It
/// accepts exactly the documents [`EvalDocument::from_value`] accepts without upgrading, and
/// reports the same diagnostics.
#[derive(Debug, Clone)]
pub struct DocumentOutline {
    /// The top-level members in order; `items` holds `null` in its place.
    pub members: Map<String, Value>,
    /// Where each item is in the text read.
    items: Vec<Range<usize>>,
    /// The address and length of the text read, which was checked as a whole: its items need no
    /// second check when they are parsed.
    checked_text: (usize, usize),
    /// The declared schema version.
    pub version: SchemaVersion,
    /// Warnings about the document outside its items.
    pub diagnostics: Vec<Diagnostic>,
}

/// One item of a [`DocumentOutline`], parsed and validated.
#[derive(Debug)]
pub struct OutlineItem {
    /// The item.
    pub value: Value,
    /// Its schema problems, joined, when it is unusable.
    pub problem: Option<String>,
    /// The same problems as diagnostics.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether no key or string in the item holds a byte JSON escapes: its text holds no
    /// backslash, and valid JSON strings hold no raw quote or control character.
    pub without_escapes: bool,
}

impl DocumentOutline {
    /// Reads `text` as an outline. `None` when it is not a current-form eval document that
    /// reading it whole would accept: legacy forms, Foundry rows, syntax errors and documents
    /// invalid as a whole are left to [`super::load`], which reports their problems precisely.
    pub fn read(text: &str) -> Option<Self> {
        let outline = json::outline(text, "items")?;
        let members = outline.members;
        let is_foundry = members.contains_key("testing_criteria")
            && members.get("data").is_some_and(Value::is_array);
        if !members.contains_key("schemaVersion") || is_foundry {
            return None;
        }
        let mut shell = members.clone();
        let placeholder = if outline.elements.is_empty() {
            Vec::new()
        } else {
            vec![Value::Null]
        };
        shell.insert("items".to_owned(), Value::Array(placeholder));
        let mut triage = Triage::default();
        let mut diagnostics = Vec::new();
        for diagnostic in schema::validate(&Value::Object(shell)) {
            let in_placeholder = matches!(&diagnostic.location,
                Location::Pointer { pointer, .. } if pointer.starts_with("/items/"));
            if !in_placeholder {
                triage.add(diagnostic, ItemsLocation::Items, &mut diagnostics);
            }
        }
        let triaged = triage
            .finish(members.get("schemaVersion"), diagnostics)
            .ok()?;
        let start = text.as_ptr() as usize;
        let items = outline
            .elements
            .iter()
            .map(|element| {
                let offset = (element.as_ptr() as usize).saturating_sub(start);
                offset..offset + element.len()
            })
            .collect();
        Some(DocumentOutline {
            members,
            items,
            checked_text: (start, text.len()),
            version: triaged.version,
            diagnostics: triaged.diagnostics,
        })
    }

    /// The root `default_evaluators`, when given.
    pub fn default_evaluators(&self) -> Option<&Map<String, Value>> {
        self.members
            .get("default_evaluators")
            .and_then(Value::as_object)
    }

    /// Number of items.
    pub fn item_count(&self) -> usize {
        self.items.len()
    }

    /// Parses and validates item `index` of `text`, the text the outline was read from.
    ///
    /// # Errors
    /// Only for an index past the items or another text (the whole text was checked when the
    /// outline was read). Another text's item is parsed with every check.
    pub fn item(&self, text: &str, index: usize) -> Result<OutlineItem, Diagnostic> {
        self.item_reusing(text, index, Value::Null)
    }

    /// [`DocumentOutline::item`], built into `spare` (the value of an item read before, which is
    /// no longer needed), reusing its strings, arrays and objects where the items share a shape.
    ///
    /// # Errors
    /// As [`DocumentOutline::item`].
    pub fn item_reusing(
        &self,
        text: &str,
        index: usize,
        spare: Value,
    ) -> Result<OutlineItem, Diagnostic> {
        let element = self
            .items
            .get(index)
            .and_then(|range| text.get(range.clone()))
            .ok_or_else(|| Diagnostic::whole(format!("there is no item {index} in this text")))?;
        let mut value = spare;
        let has_escapes = if (text.as_ptr() as usize, text.len()) == self.checked_text {
            json::parse_checked_into(element, &mut value)?
        } else {
            value = json::parse_element(element)?;
            element.contains('\\')
        };
        let mut triage = Triage::default();
        let mut diagnostics = Vec::new();
        for diagnostic in schema::validate_item(&value, index) {
            triage.add(diagnostic, ItemsLocation::Items, &mut diagnostics);
        }
        let problem = triage
            .item_messages
            .into_iter()
            .next()
            .map(|(_, messages)| messages.join("; "));
        Ok(OutlineItem {
            value,
            problem,
            diagnostics,
            without_escapes: !has_escapes,
        })
    }
}

/// Schema problems sorted into those confined to one item and those about the whole document.
#[derive(Debug, Default)]
struct Triage {
    item_messages: Vec<(usize, Vec<String>)>,
    document_level: bool,
}

impl Triage {
    /// Files `diagnostic` (its pointer made to point into the user's file) and keeps it.
    fn add(
        &mut self,
        mut diagnostic: Diagnostic,
        location: ItemsLocation,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        if let Location::Pointer { pointer, .. } = &mut diagnostic.location {
            let index = item_index(pointer);
            *pointer = location.user_pointer(pointer);
            match index {
                Some(index) if diagnostic.severity == Severity::Error => {
                    push_problem(&mut self.item_messages, index, &diagnostic.message, pointer)
                }
                Some(_) => {}
                None => self.document_level |= diagnostic.severity == Severity::Error,
            }
        } else {
            self.document_level |= diagnostic.severity == Severity::Error;
        }
        diagnostics.push(diagnostic);
    }

    /// The document's version and its items' problems, with the diagnostics to report.
    ///
    /// # Errors
    /// Every diagnostic, errors first, when one concerns the document as a whole or the version
    /// is unreadable.
    fn finish(
        self,
        schema_version: Option<&Value>,
        mut diagnostics: Vec<Diagnostic>,
    ) -> Result<Triaged, InputError> {
        let version = schema_version
            .and_then(Value::as_str)
            .and_then(SchemaVersion::parse);
        let version = match version {
            Some(version) if !self.document_level => version,
            _ => {
                if !self.document_level {
                    diagnostics.push(Diagnostic::at_pointer(
                        "/schemaVersion",
                        "expected a version like \"1.6.0\"",
                    ));
                }
                sorting::sort_stable_by_key(&mut diagnostics, |diagnostic| {
                    diagnostic.severity != Severity::Error
                });
                return Err(InputError { diagnostics });
            }
        };
        let item_problems = self
            .item_messages
            .into_iter()
            .map(|(index, messages)| (index, messages.join("; ")))
            .collect();
        Ok(Triaged {
            version,
            item_problems,
            diagnostics,
        })
    }
}

/// What [`Triage::finish`] found in a valid document.
struct Triaged {
    version: SchemaVersion,
    item_problems: Vec<(usize, String)>,
    diagnostics: Vec<Diagnostic>,
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
    let existing = match problems.last_mut() {
        Some(last) if last.0 == index => Some(last),
        _ => problems
            .iter_mut()
            .find(|(problem_index, _)| *problem_index == index),
    };
    match existing {
        Some((_, messages)) => messages.push(text),
        None => problems.push((index, vec![text])),
    }
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;

    #[test]
    fn items_of_the_text_read_skip_the_second_check_and_other_texts_get_every_check() {
        let text = r#"{"schemaVersion": "1.0.0", "items": [{"prompt": "p", "response": "r"}]}"#;
        let outline = DocumentOutline::read(text).unwrap();
        let item = outline.item(text, 0).unwrap();
        assert_eq!(item.value, json!({"prompt": "p", "response": "r"}));
        let duplicate = text.replace(r#""response": "r""#, r#""prompt"  : "r""#);
        assert_eq!(duplicate.len(), text.len());
        let error = outline.item(&duplicate, 0).unwrap_err();
        assert!(error.message.starts_with("duplicate key"), "{error:?}");
        assert!(outline.item(text, 1).is_err());
    }

    #[test]
    fn an_item_read_into_the_last_items_value_is_the_item_read_afresh() {
        let text = r#"{"schemaVersion": "1.0.0", "items": [
            {"prompt": "first", "response": "r", "tags": ["a", "b", "c"], "context": "c"},
            {"prompt": "second", "response": 3, "tags": ["z"]},
            {"prompt": "esc\"aped", "expected_response": "e"},
            {"prompt": "last", "response": "r", "tags": ["a", "b", "c"], "context": "c"}
        ]}"#;
        let outline = DocumentOutline::read(text).unwrap();
        let mut spare = json!({"unrelated": [1, {"deep": "value"}]});
        for index in 0..outline.item_count() {
            let fresh = outline.item(text, index).unwrap();
            let reused = outline.item_reusing(text, index, spare).unwrap();
            assert_eq!(reused.value, fresh.value, "item {index}");
            assert_eq!(reused.problem, fresh.problem, "item {index}");
            assert_eq!(
                reused.without_escapes, fresh.without_escapes,
                "item {index}"
            );
            assert_eq!(reused.diagnostics, fresh.diagnostics, "item {index}");
            spare = reused.value;
        }
    }
}
