//! Reading datasets: sniffing the dialect from the content and turning the text into a
//! [`Dataset`] plus the problems found (with a warning when entries carry no response,
//! `responses`). Each dialect has its own module.

use crate::json::Value;

use crate::diagnostic::{Diagnostic, InputError, Severity};
use crate::json;
use crate::report::Dialect;

pub mod copilot_studio;
pub mod foundry;
pub mod layout;
mod legacy;
pub mod m365;
mod responses;

pub use responses::ResponseTally;

pub use copilot_studio::CopilotStudioSet;
pub use foundry::{FoundryConfig, FoundryDataset};
pub use m365::EvalDocument;

/// A dataset in one of the supported dialects, ready to score.
#[derive(Debug, Clone)]
pub enum Dataset {
    /// An M365 eval document (legacy forms already upgraded in memory).
    M365(EvalDocument),
    /// Foundry rows with their testing criteria.
    Foundry(FoundryDataset),
    /// A Copilot Studio test set or results export (CSV).
    CopilotStudio(CopilotStudioSet),
}

impl Dataset {
    /// The dialect read.
    pub fn dialect(&self) -> Dialect {
        match self {
            Dataset::M365(_) => Dialect::M365,
            Dataset::Foundry(_) => Dialect::Foundry,
            Dataset::CopilotStudio(_) => Dialect::CopilotStudio,
        }
    }
}

/// A dataset and the problems found while reading it (warnings, and errors confined to one item).
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The dataset.
    pub dataset: Dataset,
    /// Warnings and item-level errors; document-level errors reject the input instead.
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    /// With the warning on entries that carry no response, when some lack one.
    fn with_response_warning(mut self) -> Self {
        self.diagnostics
            .extend(responses::missing_responses(&self.dataset));
        self
    }

    /// True when some item-level error was found.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|diagnostic| diagnostic.severity == Severity::Error)
    }
}

/// Reads a dataset of any dialect. `config` is a Foundry evaluation config
/// (`{"testing_criteria": [...]}`), used when the rows carry none.
///
/// # Errors
/// When the text is not a dataset of any supported dialect, or is invalid as a whole (syntax error,
/// missing or unsupported `schemaVersion`, no items…). Problems confined to one item are reported
/// in [`Loaded::diagnostics`] instead, and that item is scored as an error; a string longer than
/// [`json::MAX_STRING_BYTES`] is one of them when it is inside an item (or a Foundry row).
pub fn load(bytes: &[u8], config: Option<&Value>) -> Result<Loaded, InputError> {
    read_dialect(bytes, config).map(Loaded::with_response_warning)
}

fn read_dialect(bytes: &[u8], config: Option<&Value>) -> Result<Loaded, InputError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(InputError::one(Diagnostic::whole(
            "the input is empty; expected an M365 eval document (JSON), Foundry rows (JSONL) or a Copilot Studio test set (CSV)",
        )));
    }
    if let (Some(first), second) = layout::first_lines(bytes) {
        if layout::is_json_lines(first, second, config.is_some()) {
            return foundry::FoundryDataset::from_jsonl(bytes, config).map(
                |(dataset, diagnostics)| Loaded {
                    dataset: Dataset::Foundry(dataset),
                    diagnostics,
                },
            );
        }
    }
    match json::parse_dataset(bytes) {
        Ok(value) => read_value(value, config),
        Err(_) if looks_like_copilot_studio(bytes) => {
            copilot_studio::read(bytes).map(|(set, diagnostics)| Loaded {
                dataset: Dataset::CopilotStudio(set),
                diagnostics,
            })
        }
        Err(_) if looks_like_jsonl(bytes) => foundry::FoundryDataset::from_jsonl(bytes, config)
            .map(|(dataset, diagnostics)| Loaded {
                dataset: Dataset::Foundry(dataset),
                diagnostics,
            }),
        Err(syntax_error) => Err(InputError::one(syntax_error)),
    }
}

/// Reads an already-parsed dataset value (an M365 document, a legacy array, or Foundry rows).
/// With a `config`, an object that is not an M365 document is one Foundry row, whatever its
/// fields.
///
/// # Errors
/// As [`load`].
pub fn load_value(value: Value, config: Option<&Value>) -> Result<Loaded, InputError> {
    read_value(value, config).map(Loaded::with_response_warning)
}

fn read_value(value: Value, config: Option<&Value>) -> Result<Loaded, InputError> {
    let row_with_config = config.is_some()
        && value
            .as_object()
            .is_some_and(|object| !layout::is_m365_document(object));
    if row_with_config || is_foundry_rows(&value) {
        let (dataset, diagnostics) = foundry::FoundryDataset::from_rows(value, config)?;
        return Ok(Loaded {
            dataset: Dataset::Foundry(dataset),
            diagnostics,
        });
    }
    let (document, diagnostics) = m365::EvalDocument::from_value(value)?;
    Ok(Loaded {
        dataset: Dataset::M365(document),
        diagnostics,
    })
}

/// Whether `bytes` (BOM already stripped) start with a CSV header row naming a `question` column:
/// a Copilot Studio test set or results export.
pub fn looks_like_copilot_studio(bytes: &[u8]) -> bool {
    let first_line = bytes.split(|byte| *byte == b'\n').next().unwrap_or(bytes);
    let Ok(first_line) = std::str::from_utf8(first_line) else {
        return false;
    };
    first_line
        .split(',')
        .any(|name| name.trim().trim_matches('"').trim() == "question")
}

/// Several non-empty lines, each starting with `{`: JSON Lines.
pub(crate) fn looks_like_jsonl(bytes: &[u8]) -> bool {
    let mut lines = bytes
        .split(|byte| *byte == b'\n')
        .map(|line| line.trim_ascii())
        .filter(|line| !line.is_empty());
    let first_is_object = lines.next().is_some_and(|line| line.starts_with(b"{"));
    first_is_object && lines.next().is_some_and(|line| line.starts_with(b"{"))
}

/// Field names that mark a Foundry row.
pub const FOUNDRY_FIELDS: &[&str] = &[
    "query",
    "response",
    "ground_truth",
    "context",
    "messages",
    "actions",
    "expected_actions",
    "tool_definitions",
    "tool_calls",
    "retrieval_ground_truth",
    "retrieved_documents",
];

/// A JSON array of Foundry rows; an object whose rows sit under `data` beside
/// `testing_criteria`; or a single Foundry row (a one-line JSONL file).
pub(crate) fn is_foundry_rows(value: &Value) -> bool {
    match value {
        Value::Array(rows) => !rows.is_empty() && rows.iter().all(is_foundry_row),
        Value::Object(object) => {
            (object.contains_key("testing_criteria")
                && object.get("data").is_some_and(Value::is_array))
                || is_foundry_row(value)
        }
        _ => false,
    }
}

/// An object with Foundry fields and none of the M365 document or item keys.
fn is_foundry_row(value: &Value) -> bool {
    value.as_object().is_some_and(|row| {
        !["prompt", "items", "prompts", "schemaVersion", "turns"]
            .iter()
            .any(|key| row.contains_key(key))
            && FOUNDRY_FIELDS.iter().any(|field| row.contains_key(field))
    })
}
