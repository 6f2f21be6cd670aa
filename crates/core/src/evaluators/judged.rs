//! LLM-judged evaluators. Without a judge they are recognised and reported `skipped` with the
//! reason "no judge configured": never dropped, never given a made-up score. With one, each
//! standard judge ([`catalog`]) turns an item into a [`JudgeCall`], or into a result reached
//! without a call; the judged evaluators of later issues (composites, rubrics, Copilot Studio's)
//! say they are not available yet.

mod catalog;
mod prompt;
pub mod render;

use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::judge::{JudgeCall, JudgeRequest, Reading, Scale};
use crate::options::{ConfigError, Options};
use crate::outcome::EvalResult;

pub use catalog::{judge_for, Judge};

/// The reason every judged evaluator carries while no judge is configured.
pub const NO_JUDGE_REASON: &str = "no judge configured";

/// The reason the judged evaluators agenteval does not run yet carry when a judge is configured.
pub const NOT_AVAILABLE_REASON: &str =
    "this judged evaluator is not available yet in agenteval (only the standard judges are)";

const MODEL_OPTIONS: [OptionSpec; 2] = [
    OptionSpec {
        name: "deployment_name",
        kind: "string",
        default: "the judge's",
        description: "the deployment or model this evaluator's calls go to (Foundry)",
    },
    OptionSpec {
        name: "model",
        kind: "string",
        default: "the judge's",
        description: "the same as deployment_name",
    },
];

const LIKERT_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "threshold",
        kind: "number 1..5",
        default: "3",
        description: "minimum judge score (1-5) that passes",
    },
    MODEL_OPTIONS[0],
    MODEL_OPTIONS[1],
];

const BINARY_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "threshold",
        kind: "number 0..1",
        default: "1",
        description: "accepted for compatibility; a binary judge passes at 1",
    },
    MODEL_OPTIONS[0],
    MODEL_OPTIONS[1],
];

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
        build: build_unavailable,
    }
}

/// A standard judge's entry: `name` resolves to a [`Judge`] in [`catalog`].
const fn standard(
    name: &'static str,
    inputs: &'static [&'static str],
    options: &'static [OptionSpec],
    pass_rule: &'static str,
) -> EvaluatorSpec {
    EvaluatorSpec {
        build: build_standard,
        ..judged(name, inputs, options, pass_rule)
    }
}

const QR: &[&str] = &["query", "response"];
const LIKERT: &str = "judge score 1-5 >= threshold (3)";
const BINARY: &str = "judge score 0/1; passes at 1";

/// Every LLM-judged evaluator, under its M365 / Copilot Studio name and its Foundry id.
pub static SPECS: [EvaluatorSpec; 35] = [
    standard("Relevance", QR, LIKERT_OPTIONS, LIKERT),
    standard("Coherence", QR, LIKERT_OPTIONS, LIKERT),
    standard(
        "Groundedness",
        &["query", "response", "context"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "Similarity",
        &["query", "response", "expected_response"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard("Fluency", &["response"], LIKERT_OPTIONS, LIKERT),
    standard("Retrieval", &["query", "context"], LIKERT_OPTIONS, LIKERT),
    standard(
        "ResponseCompleteness",
        &["response", "ground_truth"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard("IntentResolution", QR, LIKERT_OPTIONS, LIKERT),
    standard(
        "ToolCallAccuracy",
        &["query", "response", "tool_definitions"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard("TaskAdherence", QR, BINARY_OPTIONS, BINARY),
    standard("TaskCompletion", QR, BINARY_OPTIONS, BINARY),
    standard(
        "ToolSelection",
        &["query", "response", "tool_definitions"],
        BINARY_OPTIONS,
        BINARY,
    ),
    standard(
        "ToolInputAccuracy",
        &["query", "response", "tool_definitions"],
        BINARY_OPTIONS,
        BINARY,
    ),
    standard(
        "ToolOutputUtilization",
        &["query", "response", "tool_definitions"],
        BINARY_OPTIONS,
        BINARY,
    ),
    standard("ToolCallSuccess", &["response"], BINARY_OPTIONS, BINARY),
    judged(
        "output_quality",
        QR,
        BINARY_OPTIONS,
        "every applicable member dimension passes",
    ),
    judged(
        "tool_use_quality",
        QR,
        BINARY_OPTIONS,
        "every applicable member dimension passes",
    ),
    judged(
        "Rubric",
        QR,
        RUBRIC_OPTIONS,
        "weighted score >= threshold (0.5)",
    ),
    judged(
        "GeneralQuality",
        QR,
        BINARY_OPTIONS,
        "relevance, groundedness, completeness and no abstention all hold",
    ),
    judged(
        "CompareMeaning",
        &["response", "expected_response"],
        PERCENT_OPTIONS,
        "score 0-100 >= threshold (50)",
    ),
    standard("builtin.relevance", QR, LIKERT_OPTIONS, LIKERT),
    standard("builtin.coherence", QR, LIKERT_OPTIONS, LIKERT),
    standard(
        "builtin.groundedness",
        &["query", "response", "context"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "builtin.similarity",
        &["query", "response", "ground_truth"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard("builtin.fluency", &["response"], LIKERT_OPTIONS, LIKERT),
    standard(
        "builtin.retrieval",
        &["query", "context"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "builtin.response_completeness",
        &["response", "ground_truth"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard("builtin.intent_resolution", QR, LIKERT_OPTIONS, LIKERT),
    standard(
        "builtin.tool_call_accuracy",
        &["query", "response", "tool_definitions"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard("builtin.task_adherence", QR, BINARY_OPTIONS, BINARY),
    standard("builtin.task_completion", QR, BINARY_OPTIONS, BINARY),
    standard(
        "builtin.tool_selection",
        &["query", "response", "tool_definitions"],
        BINARY_OPTIONS,
        BINARY,
    ),
    standard(
        "builtin.tool_input_accuracy",
        &["query", "response", "tool_definitions"],
        BINARY_OPTIONS,
        BINARY,
    ),
    standard(
        "builtin.tool_output_utilization",
        &["query", "response", "tool_definitions"],
        BINARY_OPTIONS,
        BINARY,
    ),
    standard(
        "builtin.tool_call_success",
        &["response"],
        BINARY_OPTIONS,
        BINARY,
    ),
];

/// A judged evaluator agenteval does not run yet.
struct Unavailable {
    label: String,
}

impl Evaluator for Unavailable {
    fn evaluate(&self, _inputs: &Inputs<'_>) -> EvalResult {
        EvalResult::skipped(&self.label, NO_JUDGE_REASON)
    }

    fn judge(&self, _inputs: &Inputs<'_>) -> Option<Result<JudgeCall, Box<EvalResult>>> {
        Some(Err(Box::new(EvalResult::skipped(
            &self.label,
            NOT_AVAILABLE_REASON,
        ))))
    }
}

fn build_unavailable(
    label: &str,
    _options: Options<'_>,
) -> Result<Box<dyn Evaluator>, ConfigError> {
    Ok(Box::new(Unavailable {
        label: label.to_owned(),
    }))
}

/// A standard judge, configured.
struct Standard {
    label: String,
    judge: &'static Judge,
    threshold: f64,
    model: Option<String>,
}

impl Evaluator for Standard {
    fn evaluate(&self, _inputs: &Inputs<'_>) -> EvalResult {
        EvalResult::skipped(&self.label, NO_JUDGE_REASON)
    }

    fn judge(&self, inputs: &Inputs<'_>) -> Option<Result<JudgeCall, Box<EvalResult>>> {
        let prompt = &self.judge.prompt;
        Some(match (self.judge.prepare)(inputs, self.judge.class) {
            Ok(sections) => Ok(JudgeCall {
                label: self.label.clone(),
                request: JudgeRequest {
                    prompt: prompt.id,
                    model: self.model.clone(),
                    messages: prompt.messages(&sections),
                    params: prompt.params,
                },
                reading: Reading {
                    scale: prompt.scale,
                    threshold: self.threshold,
                    extra: self.judge.extra,
                },
            }),
            Err(mut early) => {
                early.evaluator.clone_from(&self.label);
                if early.error.is_none() {
                    early.threshold = Some(self.threshold);
                }
                Err(early)
            }
        })
    }
}

/// Builds the standard judge called `label` (M365 documents, where the label is the name).
fn build_standard(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    build_standard_named(label, label, options)
}

/// Builds the judged evaluator `spec` under `label` (a Foundry criterion's name differs from
/// its evaluator's).
///
/// # Errors
/// As [`build_standard_named`].
pub fn build(
    spec: &EvaluatorSpec,
    label: &str,
    options: Options<'_>,
) -> Result<Box<dyn Evaluator>, ConfigError> {
    if judge_for(spec.name).is_some() {
        build_standard_named(spec.name, label, options)
    } else {
        (spec.build)(label, options)
    }
}

/// Builds the standard judge called `name` (an M365 name or a Foundry id) under `label`.
///
/// # Errors
/// Unknown options, a threshold off the scale, or a model that is not a string.
pub fn build_standard_named(
    name: &str,
    label: &str,
    options: Options<'_>,
) -> Result<Box<dyn Evaluator>, ConfigError> {
    let judge = judge_for(name)
        .ok_or_else(|| ConfigError::new(format!("'{name}' is not a standard judge")))?;
    options.deny_unknown(&[
        "threshold",
        "deployment_name",
        "model",
        "is_reasoning_model",
    ])?;
    let threshold = match judge.prompt.scale {
        Scale::Likert => options.number_in("threshold", 3.0, 1.0, 5.0)?,
        Scale::Binary => {
            options.number_in("threshold", 1.0, 0.0, 1.0)?;
            1.0
        }
    };
    options.bool("is_reasoning_model", false)?;
    let model = match options.string("deployment_name")? {
        Some(model) => Some(model),
        None => options.string("model")?,
    };
    Ok(Box::new(Standard {
        label: label.to_owned(),
        judge,
        threshold,
        model: model.map(str::to_owned),
    }))
}
