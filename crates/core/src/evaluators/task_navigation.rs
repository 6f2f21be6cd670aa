//! task_navigation evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `builtin.task_navigation_efficiency`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.task_navigation_efficiency",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "ground_truth"],
    needs_response: false,
    m365_reports_score: true,
    options: &[],
    pass_rule: "actions match expected_actions under matching_mode",
    build: not_implemented,
};

