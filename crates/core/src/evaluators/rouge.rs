//! rouge evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `builtin.rouge_score`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.rouge_score",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "ground_truth"],
    needs_response: false,
    m365_reports_score: true,
    options: &[],
    pass_rule: "ROUGE F1 >= f1_score_threshold (0.5)",
    build: not_implemented,
};

