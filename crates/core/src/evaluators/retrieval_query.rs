//! retrieval_query evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `RetrievalQuery`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "RetrievalQuery",
    kind: EvaluatorKind::Deterministic,
    inputs: &["diagnostics"],
    needs_response: false,
    m365_reports_score: true,
    options: &[],
    pass_rule: "a matching query exists with every include and no exclude",
    build: not_implemented,
};
