//! citations evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `Citations`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "Citations",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response"],
    needs_response: true,
    m365_reports_score: false,
    options: &[],
    pass_rule: "unique citation count >= threshold (1)",
    build: not_implemented,
};
