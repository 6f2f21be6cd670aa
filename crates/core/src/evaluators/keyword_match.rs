//! keyword_match evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `KeywordMatch`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "KeywordMatch",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response"],
    needs_response: true,
    m365_reports_score: true,
    options: &[],
    pass_rule: "all (or any) keywords found",
    build: not_implemented,
};
