//! document_retrieval evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `builtin.document_retrieval`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.document_retrieval",
    kind: EvaluatorKind::Deterministic,
    inputs: &["retrieval_ground_truth", "retrieved_documents"],
    needs_response: false,
    m365_reports_score: true,
    options: &[],
    pass_rule: "ndcg@3 >= ndcg_threshold (0.5)",
    build: not_implemented,
};

