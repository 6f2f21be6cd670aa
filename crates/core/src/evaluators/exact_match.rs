//! exact_match evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `ExactMatch`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "ExactMatch",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "expected_response"],
    needs_response: true,
    m365_reports_score: false,
    options: &[],
    pass_rule: "match after trimming Unicode whitespace; case-insensitive unless case_sensitive",
    build: not_implemented,
};
