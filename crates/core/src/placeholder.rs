//! Placeholders in Foundry-style templates (`{{sample.output_text}}`, `{{item.a.b}}`,
//! `{{response}}`, `{{FIELD}}`…): a template's text split into literal pieces and placeholders,
//! and where each placeholder's data comes from. Shared by the custom judge templates and the
//! deterministic graders (`string_check`, `text_similarity`); reading the data for one item is
//! theirs, since each shows or compares it differently.

use crate::options::ConfigError;

/// Where a placeholder's data comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Source {
    /// `{{response}}`, `{{sample.output_text}}`, `{{sample.output_items}}`.
    Response,
    /// `{{prompt}}` or `{{query}}`.
    Query,
    /// `{{expected_response}}` or `{{ground_truth}}`.
    Expected,
    /// `{{context}}`.
    Context,
    /// `{{item.a.b}}` or `{{a.b}}`: a field of the item or row.
    Field(Vec<String>),
}

/// One piece of a template: literal text or a placeholder.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Piece {
    /// Literal text.
    Text(String),
    /// A placeholder: as written between the braces (trimmed), and where its data comes from.
    Slot {
        /// The placeholder as written (`item.answer`).
        written: String,
        /// Where its data comes from.
        source: Source,
    },
}

/// `text` split into literal text and placeholders; `at` (a JSON pointer) prefixes errors.
///
/// # Errors
/// A placeholder left open, or one that names no data.
pub(crate) fn pieces(text: &str, at: &str) -> Result<Vec<Piece>, ConfigError> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let after = rest.get(start + 2..).unwrap_or_default();
        let Some(end) = after.find("}}") else {
            return Err(ConfigError::new(format!(
                "{at}: a placeholder opened with {{{{ is not closed with }}}}"
            )));
        };
        let written = after.get(..end).unwrap_or_default().trim();
        let source = source(written).ok_or_else(|| {
            ConfigError::new(format!(
                "{at}: {{{{{written}}}}} is not a placeholder; expected {{{{prompt}}}}, \
                 {{{{response}}}}, {{{{expected_response}}}}, {{{{context}}}}, {{{{item.FIELD}}}} \
                 or {{{{FIELD}}}} (letters, digits, _ and . only)"
            ))
        })?;
        if start > 0 {
            pieces.push(Piece::Text(
                rest.get(..start).unwrap_or_default().to_owned(),
            ));
        }
        pieces.push(Piece::Slot {
            written: written.to_owned(),
            source,
        });
        rest = after.get(end + 2..).unwrap_or_default();
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest.to_owned()));
    }
    Ok(pieces)
}

/// Where the placeholder `written` takes its data from; `None` when it is no placeholder.
pub(crate) fn source(written: &str) -> Option<Source> {
    let segments: Vec<&str> = written.split('.').collect();
    let well_formed = segments.iter().all(|segment| {
        !segment.is_empty()
            && segment
                .chars()
                .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '-')
    });
    if !well_formed {
        return None;
    }
    Some(match segments.as_slice() {
        ["response"] | ["sample", "output_text" | "output_items"] => Source::Response,
        ["prompt" | "query"] => Source::Query,
        ["expected_response" | "ground_truth"] => Source::Expected,
        ["context"] => Source::Context,
        ["item", path @ ..] if !path.is_empty() => {
            Source::Field(path.iter().map(|segment| (*segment).to_owned()).collect())
        }
        path => Source::Field(path.iter().map(|segment| (*segment).to_owned()).collect()),
    })
}
