//! tool_calls evaluator (being written).

use super::{not_implemented, EvaluatorKind, EvaluatorSpec};

/// Catalog entry for `ToolCallSelection`.
pub const SELECTION_SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "ToolCallSelection",
    kind: EvaluatorKind::Deterministic,
    inputs: &["diagnostics"],
    needs_response: false,
    m365_reports_score: true,
    options: &[],
    pass_rule: "every expected tool was selected (and no others unless allow_additional_calls)",
    build: not_implemented,
};

/// Catalog entry for `ToolCallExecution`.
pub const EXECUTION_SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "ToolCallExecution",
    kind: EvaluatorKind::Deterministic,
    inputs: &["diagnostics"],
    needs_response: false,
    m365_reports_score: true,
    options: &[],
    pass_rule: "every expected call executed successfully (2xx)",
    build: not_implemented,
};
