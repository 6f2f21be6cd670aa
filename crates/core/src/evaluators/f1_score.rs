//! f1_score evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `builtin.f1_score`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.f1_score",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "ground_truth"],
    needs_response: false,
    m365_reports_score: true,
    options: &[],
    pass_rule: "token F1 >= threshold (0.5)",
    build: not_implemented,
};

