//! retrieval_result evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `RetrievalResult`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "RetrievalResult",
    kind: EvaluatorKind::Deterministic,
    inputs: &["diagnostics"],
    needs_response: false,
    m365_reports_score: true,
    options: &[],
    pass_rule: "every expected item matched within max_rank and the count check holds",
    build: not_implemented,
};
