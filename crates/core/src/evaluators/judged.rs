//! LLM-judged evaluators. Until a judge endpoint is configured they are recognised and reported
//! `skipped` with the reason "no judge configured": never dropped, never given a made-up score.

use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::EvalResult;

/// The reason every judged evaluator carries while no judge is configured.
pub const NO_JUDGE_REASON: &str = "no judge configured";

const LIKERT_OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "threshold",
    kind: "number 1..5",
    default: "3",
    description: "minimum judge score (1-5) that passes",
}];

const BINARY_OPTIONS: &[OptionSpec] = &[];

const RUBRIC_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "dimensions",
        kind: "array of {id, description, weight, always_applicable?}",
        default: "required",
        description: "rubric dimensions the judge scores 1-5",
    },
    OptionSpec {
        name: "threshold",
        kind: "number 0..1",
        default: "0.5",
        description: "minimum weighted score that passes",
    },
];

const PERCENT_OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "threshold",
    kind: "number 0..100",
    default: "50",
    description: "minimum score (0-100) that passes",
}];

const fn judged(
    name: &'static str,
    inputs: &'static [&'static str],
    options: &'static [OptionSpec],
    pass_rule: &'static str,
) -> EvaluatorSpec {
    EvaluatorSpec {
        name,
        kind: EvaluatorKind::Judge,
        inputs,
        needs_response: true,
        m365_reports_score: true,
        options,
        pass_rule,
        build: build_unjudged,
    }
}

const QR: &[&str] = &["query", "response"];
const LIKERT: &str = "judge score 1-5 >= threshold (3)";
const BINARY: &str = "judge score 0/1; passes at 1";

/// Every LLM-judged evaluator, under its M365 / Copilot Studio name and its Foundry id.
pub static SPECS: [EvaluatorSpec; 34] = [
    judged("Relevance", QR, LIKERT_OPTIONS, LIKERT),
    judged("Coherence", QR, LIKERT_OPTIONS, LIKERT),
    judged("Groundedness", &["query", "response", "context"], LIKERT_OPTIONS, LIKERT),
    judged("Similarity", &["query", "response", "expected_response"], LIKERT_OPTIONS, LIKERT),
    judged("Fluency", &["response"], LIKERT_OPTIONS, LIKERT),
    judged("Retrieval", &["query", "context"], LIKERT_OPTIONS, LIKERT),
    judged("ResponseCompleteness", &["response", "ground_truth"], LIKERT_OPTIONS, LIKERT),
    judged("IntentResolution", QR, LIKERT_OPTIONS, LIKERT),
    judged("ToolCallAccuracy", &["query", "response", "tool_definitions"], LIKERT_OPTIONS, LIKERT),
    judged("TaskAdherence", QR, BINARY_OPTIONS, BINARY),
    judged("TaskCompletion", QR, BINARY_OPTIONS, BINARY),
    judged("ToolSelection", &["query", "response", "tool_definitions"], BINARY_OPTIONS, BINARY),
    judged("ToolInputAccuracy", &["query", "response", "tool_definitions"], BINARY_OPTIONS, BINARY),
    judged("ToolOutputUtilization", &["query", "response", "tool_definitions"], BINARY_OPTIONS, BINARY),
    judged("ToolCallSuccess", &["response"], BINARY_OPTIONS, BINARY),
    judged("output_quality", QR, BINARY_OPTIONS, "every applicable member dimension passes"),
    judged("tool_use_quality", QR, BINARY_OPTIONS, "every applicable member dimension passes"),
    judged("Rubric", QR, RUBRIC_OPTIONS, "weighted score >= threshold (0.5)"),
    judged("GeneralQuality", QR, BINARY_OPTIONS, "relevance, groundedness, completeness and no abstention all hold"),
    judged("CompareMeaning", &["response", "expected_response"], PERCENT_OPTIONS, "score 0-100 >= threshold (50)"),
    judged("builtin.relevance", QR, LIKERT_OPTIONS, LIKERT),
    judged("builtin.coherence", QR, LIKERT_OPTIONS, LIKERT),
    judged("builtin.groundedness", &["query", "response", "context"], LIKERT_OPTIONS, LIKERT),
    judged("builtin.similarity", &["query", "response", "ground_truth"], LIKERT_OPTIONS, LIKERT),
    judged("builtin.fluency", &["response"], LIKERT_OPTIONS, LIKERT),
    judged("builtin.retrieval", &["query", "context"], LIKERT_OPTIONS, LIKERT),
    judged("builtin.response_completeness", &["response", "ground_truth"], LIKERT_OPTIONS, LIKERT),
    judged("builtin.intent_resolution", QR, LIKERT_OPTIONS, LIKERT),
    judged("builtin.tool_call_accuracy", &["query", "response", "tool_definitions"], LIKERT_OPTIONS, LIKERT),
    judged("builtin.task_adherence", QR, BINARY_OPTIONS, BINARY),
    judged("builtin.task_completion", QR, BINARY_OPTIONS, BINARY),
    judged("builtin.tool_selection", &["query", "response", "tool_definitions"], BINARY_OPTIONS, BINARY),
    judged("builtin.tool_input_accuracy", &["query", "response", "tool_definitions"], BINARY_OPTIONS, BINARY),
    judged("builtin.tool_output_utilization", &["query", "response", "tool_definitions"], BINARY_OPTIONS, BINARY),
];

struct Unjudged {
    label: String,
}

impl Evaluator for Unjudged {
    fn evaluate(&self, _inputs: &Inputs<'_>) -> EvalResult {
        EvalResult::skipped(&self.label, NO_JUDGE_REASON)
    }
}

fn build_unjudged(label: &str, _options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    Ok(Box::new(Unjudged {
        label: label.to_owned(),
    }))
}
