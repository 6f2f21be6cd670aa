//! partial_match evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `PartialMatch`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "PartialMatch",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "expected_response"],
    needs_response: true,
    m365_reports_score: true,
    options: &[],
    pass_rule: "token F1 >= threshold (0.5)",
    build: not_implemented,
};

