//! The `Citations` evaluator (M365): counts the unique citation ids in the response and passes when
//! the count reaches `threshold`.
//!
//! Formats: `oai_unicode` (default), `bracket`, `markdown`, `mixed` (the union, ordered by position)
//! and `auto` (the first of oai_unicode, markdown, bracket that finds any). The output lists the
//! citations in first-appearance order. Scanners live in [`scan`]; see the reference notes §4.3.

mod scan;

use crate::json::{Map, Value};

use self::scan::{Marker, Scanner};
use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::EvalResult;
use crate::sorting;

/// Catalog entry for `Citations`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "Citations",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response"],
    needs_response: true,
    m365_reports_score: false,
    options: &[
        OptionSpec {
            name: "threshold",
            kind: "integer >=1",
            default: "1",
            description: "minimum number of unique citation ids",
        },
        OptionSpec {
            name: "citation_format",
            kind: "\"oai_unicode\" | \"bracket\" | \"markdown\" | \"mixed\" | \"auto\"",
            default: "\"oai_unicode\"",
            description: "which citation markers to count (case-insensitive)",
        },
    ],
    pass_rule: "unique citation count >= threshold (1)",
    build,
};

/// How many ids the reason lists before eliding the rest.
const REASON_ID_LIMIT: usize = 10;
/// Above this many markers, de-duplication uses a hash map instead of a linear scan.
const LINEAR_DEDUP_LIMIT: usize = 32;

/// A citation marker format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    OaiUnicode,
    Bracket,
    Markdown,
    Mixed,
    Auto,
}

impl Format {
    const ALL: [Format; 5] = [
        Format::OaiUnicode,
        Format::Bracket,
        Format::Markdown,
        Format::Mixed,
        Format::Auto,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Format::OaiUnicode => "oai_unicode",
            Format::Bracket => "bracket",
            Format::Markdown => "markdown",
            Format::Mixed => "mixed",
            Format::Auto => "auto",
        }
    }

    fn parse(text: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|format| format.as_str().eq_ignore_ascii_case(text))
    }
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["threshold", "citation_format"])?;
    let threshold = options.integer_at_least("threshold", 1, 1)?;
    let format = match options.string("citation_format")? {
        None => Format::OaiUnicode,
        Some(text) => Format::parse(text).ok_or_else(|| {
            ConfigError::new(format!(
                "option `citation_format` must be one of oai_unicode, bracket, markdown, mixed, auto; got \"{text}\""
            ))
        })?,
    };
    Ok(Box::new(Citations {
        label: label.to_owned(),
        threshold: usize::try_from(threshold).unwrap_or(usize::MAX),
        format,
    }))
}

struct Citations {
    label: String,
    threshold: usize,
    format: Format,
}

impl Evaluator for Citations {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let response = match inputs.response(&self.label) {
            Ok(response) => response,
            Err(missing) => return *missing,
        };
        let (format, markers) = find_markers(response, self.format);
        let citations = unique(markers);
        let count = citations.len();
        let passed = count >= self.threshold;
        EvalResult::scored(&self.label, passed, count as f64, self.threshold as f64)
            .with_reason(self.reason(format, &citations))
            .with_detail("count", count)
            .with_detail("format", format.as_str())
            .with_detail("citations", citation_objects(&citations))
    }
}

impl Citations {
    fn reason(&self, format: Format, citations: &[Marker<'_>]) -> String {
        let count = citations.len();
        let mut reason = String::with_capacity(64);
        if count == 0 {
            reason.push_str("No citations found (");
            reason.push_str(format.as_str());
            reason.push(')');
        } else {
            reason.push_str("Found ");
            reason.push_str(&count.to_string());
            reason.push_str(if count == 1 {
                " unique citation ("
            } else {
                " unique citations ("
            });
            reason.push_str(format.as_str());
            reason.push_str("): ");
            for (position, marker) in citations.iter().take(REASON_ID_LIMIT).enumerate() {
                if position > 0 {
                    reason.push_str(", ");
                }
                reason.push_str(marker.id);
            }
            if count > REASON_ID_LIMIT {
                reason.push_str(", …");
            }
        }
        if count < self.threshold {
            reason.push_str(&format!("; at least {} required", self.threshold));
        }
        reason
    }
}

/// The markers of `format` in text order, and the format actually used (for `auto`, the one that
/// found markers; `auto` itself when none did).
fn find_markers(text: &str, format: Format) -> (Format, Vec<Marker<'_>>) {
    let mut markers = Vec::new();
    match format {
        Format::OaiUnicode => scan::oai_unicode(text, &mut markers),
        Format::Bracket => scan::bracket(text, &mut markers),
        Format::Markdown => scan::markdown(text, &mut markers),
        Format::Mixed => {
            scan::oai_unicode(text, &mut markers);
            scan::markdown(text, &mut markers);
            scan::bracket(text, &mut markers);
            sorting::sort_stable_by_key(&mut markers, |marker| marker.position);
        }
        Format::Auto => {
            let scanners: [(Format, Scanner); 3] = [
                (Format::OaiUnicode, scan::oai_unicode),
                (Format::Markdown, scan::markdown),
                (Format::Bracket, scan::bracket),
            ];
            for (candidate, scanner) in scanners {
                scanner(text, &mut markers);
                if !markers.is_empty() {
                    return (candidate, markers);
                }
            }
        }
    }
    (format, markers)
}

/// One marker per id, in first-appearance order; a later markdown occurrence supplies the source
/// when the first occurrence had none.
fn unique(markers: Vec<Marker<'_>>) -> Vec<Marker<'_>> {
    let mut unique: Vec<Marker<'_>> = Vec::with_capacity(markers.len());
    let mut index: Option<std::collections::HashMap<&str, usize>> =
        (markers.len() > LINEAR_DEDUP_LIMIT).then(std::collections::HashMap::new);
    for marker in markers {
        let existing = match &index {
            Some(map) => map.get(marker.id).copied(),
            None => unique.iter().position(|seen| seen.id == marker.id),
        };
        match existing.and_then(|position| unique.get_mut(position)) {
            Some(seen) => {
                if seen.source.is_none() {
                    seen.source = marker.source;
                }
            }
            None => {
                if let Some(map) = &mut index {
                    map.insert(marker.id, unique.len());
                }
                unique.push(marker);
            }
        }
    }
    unique
}

/// Schema `Citation` objects: `{index (1-based), text, source?}`.
fn citation_objects(citations: &[Marker<'_>]) -> Value {
    Value::Array(
        citations
            .iter()
            .enumerate()
            .map(|(position, marker)| {
                let mut object = Map::with_capacity(3);
                object.insert("index".to_owned(), Value::from(position + 1));
                object.insert("text".to_owned(), Value::from(marker.id));
                if let Some(source) = marker.source {
                    object.insert("source".to_owned(), Value::from(source));
                }
                Value::Object(object)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests;
