//! Validation of M365 eval documents against the v1 JSON Schema: the official 1.8.0 file extended
//! with later schema versions and agenteval's built-in evaluators (see `CHANGES.md`), plus the
//! supported `schemaVersion` range (1.0.0 to 1.11.x), and warnings where agenteval accepts what
//! the official schema refuses (`advisories`).
//!
//! The schema is embedded, compiled once, and applied with a small draft 2020-12 validator
//! (`validator`) that reports every problem with its JSON pointer. Documents without
//! `schemaVersion` (legacy inputs) are recognised by `dataset`, not here.

mod advisories;
mod annotations;
mod compile;
mod format;
mod limits;
mod message;
mod path;
mod pattern;
mod plausible;
mod validator;
mod values;

pub use limits::limit_problems;
pub(crate) use limits::{drop_repeated_keys, is_repeated_key};
pub use message::got;

use std::sync::OnceLock;

use crate::json::Value;

use crate::diagnostic::Diagnostic;

/// The eval-document schema agenteval validates against (JSON text).
pub const SCHEMA_JSON: &str = include_str!("eval-document.schema.json");

/// [`SCHEMA_JSON`] without annotations or whitespace, as the build script writes it: what the
/// validator compiles, so the annotations stay out of the binary.
const COMPACT_SCHEMA_JSON: &str =
    include_str!(concat!(env!("OUT_DIR"), "/eval-document.compact.json"));

/// Highest `schemaVersion` minor version supported (1.11.x).
pub const MAX_MINOR_VERSION: u64 = 11;

fn compile_failure(error: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::whole(format!(
        "internal error: the embedded schema does not compile: {error}"
    ))]
}

fn diagnostics(failures: Vec<validator::Failure>) -> Vec<Diagnostic> {
    failures
        .into_iter()
        .map(|failure| Diagnostic::at_pointer(failure.pointer, failure.message))
        .collect()
}

/// Validates an eval document; every problem found is returned with its JSON pointer, strings
/// longer than the input limit and repeated keys among them ([`limit_problems`]).
pub fn validate(document: &Value) -> Vec<Diagnostic> {
    let compiled = match compiled() {
        Ok(compiled) => compiled,
        Err(error) => return compile_failure(error),
    };
    let mut diagnostics = diagnostics(validator::Validator::new(compiled).validate(document));
    diagnostics.extend(limit_problems(document));
    diagnostics.extend(advisories::document_advisories(document));
    if let Some(problem) = document
        .get("schemaVersion")
        .and_then(Value::as_str)
        .and_then(unsupported_version)
    {
        diagnostics.push(Diagnostic::at_pointer("/schemaVersion", problem));
    }
    diagnostics
}

/// Validates one element of a document's `items` array, as [`validate`] would at `/items/{index}`.
/// With [`validate`] of the document with `items` emptied, this lets a document be validated one
/// item at a time.
pub fn validate_item(item: &Value, index: usize) -> Vec<Diagnostic> {
    let mut found = match compiled() {
        Ok(compiled) => diagnostics(validator::Validator::new(compiled).validate_item(item, index)),
        Err(error) => compile_failure(error),
    };
    found.extend(advisories::item_advisories(item, index));
    found
}

fn compiled() -> Result<&'static compile::Compiled, &'static str> {
    static COMPILED: OnceLock<Result<compile::Compiled, String>> = OnceLock::new();
    COMPILED
        .get_or_init(|| {
            serde_json::from_str(COMPACT_SCHEMA_JSON)
                .map_err(|error| error.to_string())
                .and_then(|schema| compile::compile(&schema))
        })
        .as_ref()
        .map_err(String::as_str)
}

/// Why a well-formed `1.minor.patch` version is not supported, if it is not.
fn unsupported_version(version: &str) -> Option<String> {
    let mut parts = version.split('.');
    let (Some("1"), Some(minor), Some(patch), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    let is_number = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    if !is_number(minor) || !is_number(patch) {
        return None;
    }
    let newer = minor
        .parse::<u64>()
        .map_or(true, |minor| minor > MAX_MINOR_VERSION);
    newer.then(|| {
        format!(
            "unsupported schema version {version:?}; expected 1.0.0 to 1.{MAX_MINOR_VERSION}.x \
             (this document is newer than agenteval supports)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Location;
    use crate::json;

    fn messages(document: &Value) -> Vec<String> {
        validate(document)
            .into_iter()
            .map(|diagnostic| match diagnostic.location {
                Location::Pointer { pointer, .. } => format!("{pointer}: {}", diagnostic.message),
                other => format!("{other:?}: {}", diagnostic.message),
            })
            .collect()
    }

    #[test]
    fn the_compact_schema_compiles_to_the_same_validator_as_the_annotated_one() {
        let compile_text = |text: &str| {
            let schema: Value = serde_json::from_str(text).unwrap();
            format!("{:?}", compile::compile(&schema).unwrap())
        };
        assert!(COMPACT_SCHEMA_JSON.len() * 2 < SCHEMA_JSON.len());
        assert!(!COMPACT_SCHEMA_JSON.contains("\"description\":\"How"));
        assert!(COMPACT_SCHEMA_JSON.contains("\"description\":{"));
        assert_eq!(compile_text(COMPACT_SCHEMA_JSON), compile_text(SCHEMA_JSON));
    }

    #[test]
    fn items_validate_alone_as_within_the_document() {
        let items = json!([
            {"prompt": "ok"},
            {"prompt": 3, "extra": true},
            {"turns": [{"prompt": "t", "status": "maybe"}]},
            "not an item"
        ]);
        let document = json!({"schemaVersion": "1.11.0", "items": items});
        let whole = messages(&document);
        let alone: Vec<String> = items
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .flat_map(|(index, item)| validate_item(item, index))
            .map(|diagnostic| match diagnostic.location {
                Location::Pointer { pointer, .. } => format!("{pointer}: {}", diagnostic.message),
                other => format!("{other:?}: {}", diagnostic.message),
            })
            .collect();
        assert_eq!(alone, whole);
        assert!(whole.len() >= 3, "{whole:?}");
    }

    #[test]
    fn embedded_schema_compiles() {
        assert!(compiled().is_ok(), "{:?}", compiled().err());
    }

    #[test]
    fn accepts_a_minimal_document() {
        let document = json!({"schemaVersion": "1.11.3", "items": [{"prompt": "hi"}]});
        assert_eq!(messages(&document), Vec::<String>::new());
    }

    #[test]
    fn rejects_versions_above_1_11() {
        for version in ["1.12.0", "1.99999999999999999999999.0"] {
            let document = json!({"schemaVersion": version, "items": [{"prompt": "hi"}]});
            assert_eq!(
                messages(&document),
                [format!(
                    "/schemaVersion: unsupported schema version {version:?}; expected 1.0.0 to \
                     1.11.x (this document is newer than agenteval supports)"
                )]
            );
        }
        let malformed = json!({"schemaVersion": "2.0.0", "items": [{"prompt": "hi"}]});
        assert_eq!(
            messages(&malformed),
            ["/schemaVersion: expected a string matching ^1\\.\\d+\\.\\d+$ (a version like \"1.6.0\"), got \"2.0.0\""]
        );
    }

    #[test]
    fn built_in_names_use_their_own_options() {
        let document = json!({
            "schemaVersion": "1.11.0",
            "default_evaluators": {
                "Fluency": {"threshold": 6},
                "KeywordMatch": {"keywords": [], "mode": "some"},
                "TaskAdherence": {"threshold": 1},
                "Rubric": {"dimensions": [{"id": "a", "description": "b", "weight": 1}]},
                "MyCheck": {"threshold": 0.7, "options": {"x": 1}}
            },
            "items": [{"prompt": "hi", "evaluators": {"RetrievalResult": {
                "capability": "Email", "min_expected_count": 1, "match": "fuzzy"}}}]
        });
        assert_eq!(
            messages(&document),
            [
                "/default_evaluators/Fluency/threshold: expected a number between 1 and 5, got 6",
                "/default_evaluators/KeywordMatch/keywords: expected at least 1 item, got 0",
                "/default_evaluators/KeywordMatch/mode: expected one of \"all\", \"any\", got \"some\"",
                "/items/0/evaluators/RetrievalResult/match: expected one of \"substring\", \"entailment\", got \"fuzzy\"",
            ]
        );
    }

    #[test]
    fn later_schema_fields_are_accepted() {
        let document = json!({
            "schemaVersion": "1.11.0",
            "default_allowed_tools": ["contoso_get-claim"],
            "items": [
                {"prompt": "p", "tags": ["a"], "allowed_tools": [], "allowed_tools_mode": "replace",
                 "evaluators": {"ToolCallSelection": {"calls": [{"tool": {"plugin_name": "c", "function_name": "f"}}]}},
                 "diagnostics": {"tool_calls": {"selected_functions": null, "executions": [
                     {"plugin_name": "c", "function_name": "f", "response_status": 200}]}},
                 "scores": {
                     "toolCallSelection": {"result": "error", "error": "no evidence", "code": "toolCallEvidenceIndeterminate"},
                     "toolCallExecution": {"score": 1, "result": "pass", "threshold": 1.0, "reason": "ok"},
                     "keywordMatch": {"score": 0.5, "result": "fail", "threshold": 1, "keywords_found": ["a"], "keywords_missing": ["b"]}
                 },
                 "status": "error", "error": {"code": "agentTimeout", "message": "timed out"}},
                {"turns": [{"prompt": "t", "tags": []}], "tags": ["thread"]}
            ]
        });
        assert_eq!(messages(&document), Vec::<String>::new());
    }

    #[test]
    fn tool_call_score_must_pair_result_and_score() {
        let document = json!({
            "schemaVersion": "1.11.0",
            "items": [{"prompt": "p", "scores": {
                "toolCallSelection": {"score": 1, "result": "fail", "threshold": 1, "reason": "x"},
                "toolCallExecution": {"score": 1, "result": "pass", "threshold": 0.5, "reason": ""}
            }}]
        });
        assert_eq!(
            messages(&document),
            [
                "/items/0/scores/toolCallSelection/result: expected \"pass\", got \"fail\"",
                "/items/0/scores/toolCallExecution/threshold: expected 1, got a number (0.5)",
                "/items/0/scores/toolCallExecution/reason: expected a non-empty string",
            ]
        );
    }

    #[test]
    fn errored_score_codes_and_error_object_codes_are_closed_lists() {
        let document = json!({
            "schemaVersion": "1.9.0",
            "items": [{"prompt": "p",
                "scores": {"relevance": {"result": "error", "error": "x", "code": "oops"}},
                "error": {"code": "somethingElse", "message": "m"}}]
        });
        let found = messages(&document);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0]
            .starts_with("/items/0/scores/relevance/code: expected one of \"emptyAgentResponse\""));
        assert!(found[1].starts_with("/items/0/error/code: expected one of \"agentRequestFailed\""));
    }

    #[test]
    fn formats_are_checked_lightly() {
        let document = json!({
            "$schema": "not a uri",
            "schemaVersion": "1.0.0",
            "metadata": {"createdAt": "2026-05-01T12:00:00Z", "evaluatedAt": "yesterday"},
            "items": [{"prompt": "p"}]
        });
        assert_eq!(
            messages(&document),
            [
                "/$schema: expected an absolute URI such as \"https://example.com/schema.json\", got \"not a uri\"",
                "/metadata/evaluatedAt: expected an RFC 3339 date-time such as \"2026-05-01T12:30:00Z\", got \"yesterday\"",
            ]
        );
    }
}
