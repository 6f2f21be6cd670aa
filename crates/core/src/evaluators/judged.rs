//! LLM-judged evaluators. Without a judge they are recognised and reported `skipped` with the
//! reason "no judge configured": never dropped, never given a made-up score. With one, each
//! standard judge ([`catalog`]) turns an item into a [`JudgeCall`], or into a result reached
//! without a call; the Rubric judge ([`rubric`]) rates a configured rubric's dimensions in one
//! call, and the composites ([`composite`]) their members; Copilot Studio's GeneralQuality and
//! CompareMeaning test methods have their prompts in [`copilot_studio`] (a CSV's rows call them,
//! and so do those names in an M365 document).

mod catalog;
mod composite;
mod convert;
pub mod copilot_studio;
mod early;
pub(crate) mod entailment;
mod groundedness;
mod level;
mod limited_support;
mod prompt;
mod quality;
pub mod render;
mod retrieval_context;
mod rubric;
pub mod rubric_generation;
mod shown;
mod standard;
pub mod template;
mod tools;
mod validate;

use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::json::Value;
use crate::judge::{combine_turns, JudgeCall, JudgeRequest, Reading, Scale, TurnCall};
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};

pub use catalog::{judge_at, judge_for, key_for, JudgeKey};
pub use standard::Judge;

/// The reason every judged evaluator carries while no judge is configured.
pub const NO_JUDGE_REASON: &str = "no judge configured";

/// The reason the judged evaluators agenteval does not run yet carry when a judge is configured.
pub const NOT_AVAILABLE_REASON: &str =
    "this judged evaluator is not available yet in agenteval (the standard judges, Rubric and the composites are)";

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
        kind: "number",
        default: "1",
        description: "accepted for compatibility; a binary judge passes at 1 and reports 1",
    },
    MODEL_OPTIONS[0],
    MODEL_OPTIONS[1],
];

/// The options of the Foundry ids whose reference constructor takes no `threshold`
/// (ToolInputAccuracy, ToolOutputUtilization, ToolCallSuccess).
const BINARY_FIXED_OPTIONS: &[OptionSpec] = &[MODEL_OPTIONS[0], MODEL_OPTIONS[1]];

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
    MODEL_OPTIONS[0],
    MODEL_OPTIONS[1],
];

const COMPOSITE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "threshold",
        kind: "number",
        default: "1",
        description: "accepted for compatibility; a composite passes at 1 and reports 1",
    },
    OptionSpec {
        name: "evaluation_level",
        kind: "\"turn\" | \"conversation\"",
        default: "from the inputs",
        description: "accepted (Foundry); the judge sees what the inputs give",
    },
    MODEL_OPTIONS[0],
    MODEL_OPTIONS[1],
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
const AGENT_INPUTS: &[&str] = &["query", "response", "tool_definitions"];
const TOOL_CALL_INPUTS: &[&str] = &["query", "response", "tool_calls", "tool_definitions"];
const LIKERT: &str = "judge score 1-5 >= threshold (3)";
const COMPOSITE: &str =
    "every applicable member passes (1-5 members at 3 or more, 0/1 members at 1), in one call";
const BINARY: &str = "judge score 0/1; passes at 1";

/// The constructors of the Rubric, the composites and Copilot Studio's judged test methods.
const RUBRIC_BUILD: super::BuildFn = rubric::build;
const OUTPUT_QUALITY_BUILD: super::BuildFn = composite::build_output_quality;
const GENERAL_QUALITY_BUILD: super::BuildFn = copilot_studio::build_general_quality;
const COMPARE_MEANING_BUILD: super::BuildFn = copilot_studio::build_compare_meaning;
const TOOL_USE_QUALITY_BUILD: super::BuildFn = composite::build_tool_use_quality;

/// Every LLM-judged evaluator, under its M365 / Copilot Studio name and its Foundry id.
pub static SPECS: [EvaluatorSpec; 37] = [
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
    EvaluatorSpec {
        build: OUTPUT_QUALITY_BUILD,
        ..judged("output_quality", QR, COMPOSITE_OPTIONS, COMPOSITE)
    },
    EvaluatorSpec {
        build: TOOL_USE_QUALITY_BUILD,
        ..judged(
            "tool_use_quality",
            TOOL_CALL_INPUTS,
            COMPOSITE_OPTIONS,
            COMPOSITE,
        )
    },
    EvaluatorSpec {
        build: RUBRIC_BUILD,
        ..judged(
            crate::evaluators::RUBRIC,
            &["query", "response", "ground_truth", "context", "messages"],
            RUBRIC_OPTIONS,
            "weighted score sum(w*s)/(5*sum(w)) over the applicable dimensions >= threshold (0.5)",
        )
    },
    EvaluatorSpec {
        build: GENERAL_QUALITY_BUILD,
        ..judged(
            "GeneralQuality",
            QR,
            BINARY_OPTIONS,
            "relevance, groundedness, completeness and no abstention all hold",
        )
    },
    EvaluatorSpec {
        build: COMPARE_MEANING_BUILD,
        ..judged(
            "CompareMeaning",
            &["response", "expected_response"],
            PERCENT_OPTIONS,
            "score 0-100 >= threshold (50)",
        )
    },
    standard(
        "builtin.relevance",
        &["query", "response", "messages"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard("builtin.coherence", QR, LIKERT_OPTIONS, LIKERT),
    standard(
        "builtin.groundedness",
        &["query", "response", "context", "tool_definitions"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "builtin.similarity",
        &["query", "response", "ground_truth", "messages"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "builtin.fluency",
        &["response", "messages"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "builtin.retrieval",
        &["query", "context", "messages"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "builtin.response_completeness",
        &["response", "ground_truth", "messages"],
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "builtin.intent_resolution",
        AGENT_INPUTS,
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "builtin.tool_call_accuracy",
        TOOL_CALL_INPUTS,
        LIKERT_OPTIONS,
        LIKERT,
    ),
    standard(
        "builtin.task_adherence",
        AGENT_INPUTS,
        BINARY_OPTIONS,
        BINARY,
    ),
    standard(
        "builtin.task_completion",
        AGENT_INPUTS,
        BINARY_OPTIONS,
        BINARY,
    ),
    standard(
        "builtin.tool_selection",
        TOOL_CALL_INPUTS,
        BINARY_OPTIONS,
        BINARY,
    ),
    standard(
        "builtin.tool_input_accuracy",
        AGENT_INPUTS,
        BINARY_FIXED_OPTIONS,
        BINARY,
    ),
    standard(
        "builtin.tool_output_utilization",
        AGENT_INPUTS,
        BINARY_FIXED_OPTIONS,
        BINARY,
    ),
    standard(
        "builtin.tool_call_success",
        &["response", "tool_definitions"],
        BINARY_FIXED_OPTIONS,
        BINARY,
    ),
    EvaluatorSpec {
        build: OUTPUT_QUALITY_BUILD,
        ..judged(
            "builtin.output_quality",
            &[
                "query",
                "response",
                "context",
                "tool_definitions",
                "messages",
            ],
            COMPOSITE_OPTIONS,
            COMPOSITE,
        )
    },
    EvaluatorSpec {
        build: TOOL_USE_QUALITY_BUILD,
        ..judged(
            "builtin.tool_use_quality",
            &["query", "response", "tool_definitions", "messages"],
            COMPOSITE_OPTIONS,
            COMPOSITE,
        )
    },
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
/// The model a criterion names (`deployment_name`, else `model`; none: the endpoint's) and
/// whether it is a reasoning model (`is_reasoning_model`).
#[derive(Debug, Clone, Default)]
pub(crate) struct CriterionModel {
    pub(crate) name: Option<String>,
    pub(crate) reasoning: bool,
}

impl CriterionModel {
    /// Reads the criterion's options.
    ///
    /// # Errors
    /// A model name that is not text, or an `is_reasoning_model` that is not a boolean.
    pub(crate) fn read(options: &Options<'_>) -> Result<Self, ConfigError> {
        let name = match options.string("deployment_name")? {
            Some(model) => Some(model),
            None => options.string("model")?,
        };
        Ok(CriterionModel {
            name: name.map(str::to_owned),
            reasoning: options.bool("is_reasoning_model", false)?,
        })
    }
}

struct Standard {
    label: String,
    key: JudgeKey,
    threshold: f64,
    model: CriterionModel,
    /// Built from a Foundry id (`builtin.groundedness`) rather than an M365 name.
    foundry: bool,
}

impl Evaluator for Standard {
    fn evaluate(&self, _inputs: &Inputs<'_>) -> EvalResult {
        EvalResult::skipped(&self.label, NO_JUDGE_REASON)
    }

    fn judge(&self, inputs: &Inputs<'_>) -> Option<Result<JudgeCall, Box<EvalResult>>> {
        let judge = judge_at(self.key.index)?;
        let retrieved;
        let mut grounded;
        let mut inputs = inputs;
        if !self.foundry && judge.class == "GroundednessEvaluator" && !has_context(inputs) {
            let Some(context) = retrieval_context::retrieval_context(inputs.get("diagnostics"))
            else {
                return Some(Err(Box::new(EvalResult::error(
                    &self.label,
                    ErrorCode::EvaluatorConfigurationError,
                    GROUNDEDNESS_WITHOUT_CONTEXT,
                ))));
            };
            retrieved = Value::String(context);
            grounded = inputs.clone();
            grounded.set("context", &retrieved);
            inputs = &grounded;
        }
        let turns = match (judge.prepare)(inputs, judge) {
            Ok(turns) => turns,
            Err(early) => return Some(Err(self.early(*early))),
        };
        let mut turns: Vec<TurnCall> = turns
            .into_iter()
            .map(|turn| match turn {
                Ok(sections) => TurnCall::Judged(self.request(judge, &sections)),
                Err(early) => TurnCall::Early(self.early(*early)),
            })
            .collect();
        let notes = limited_support::concerns(judge.class)
            .then(|| limited_support::note(inputs))
            .flatten()
            .into_iter()
            .collect::<Vec<_>>();
        if turns.len() <= 1 {
            return Some(match turns.pop() {
                Some(TurnCall::Judged(request)) => Ok(self.call(judge, request, Vec::new(), notes)),
                Some(TurnCall::Early(early)) => Err(early),
                None => Err(Box::new(combine_turns(&self.label, Vec::new()))),
            });
        }
        let first = turns.iter().find_map(|turn| match turn {
            TurnCall::Judged(request) => Some(request.clone()),
            TurnCall::Early(_) => None,
        });
        Some(match first {
            Some(request) => Ok(self.call(judge, request, turns, notes)),
            None => {
                let results = turns
                    .into_iter()
                    .filter_map(|turn| match turn {
                        TurnCall::Early(result) => Some(*result),
                        TurnCall::Judged(_) => None,
                    })
                    .collect();
                Err(Box::new(combine_turns(&self.label, results)))
            }
        })
    }
}

/// The error of M365's Groundedness on an item without a context.
pub const GROUNDEDNESS_WITHOUT_CONTEXT: &str =
    "Groundedness needs the item's 'context' or the extracts of its retrieval hits (diagnostics.retrieval_executions) to judge the response against, and this item has neither";

/// Whether an item gives a context. Without one, M365's Groundedness grounds on the extracts of
/// the item's retrieval hits (`retrieval_context`), as the evaluator reference describes; Foundry's
/// `builtin.groundedness` follows the reference instead (the response's `file_search` results, or
/// the response itself for text): judging a response against itself would pass it blindly.
fn has_context(inputs: &Inputs<'_>) -> bool {
    render::truthy(inputs.get("context")) || inputs.get("conversation").is_some()
}

impl Standard {
    fn call(
        &self,
        judge: &Judge,
        request: JudgeRequest,
        turns: Vec<TurnCall>,
        notes: Vec<(&'static str, Value)>,
    ) -> JudgeCall {
        JudgeCall {
            label: self.label.clone(),
            request,
            reading: Reading {
                scale: judge.prompt.scale,
                threshold: self.threshold,
                extra: judge.extra,
                dimensions: None,
            },
            turns,
            notes,
        }
    }

    fn request(&self, judge: &Judge, sections: &[prompt::Section]) -> JudgeRequest {
        let prompt = &judge.prompt;
        JudgeRequest {
            operation: crate::judge::Operation::Chat,
            prompt: prompt.id,
            model: self.model.name.clone(),
            reasoning: self.model.reasoning,
            messages: prompt.messages(sections),
            params: prompt.params,
        }
    }

    /// A result reached without a call, labelled; not-applicable ones carry the threshold.
    fn early(&self, mut early: EvalResult) -> Box<EvalResult> {
        early.evaluator.clone_from(&self.label);
        if early.error.is_none() {
            early.threshold = Some(self.threshold);
        }
        Box::new(early)
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
    if key_for(spec.name).is_some() {
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
    let key = key_for(name)
        .ok_or_else(|| ConfigError::new(format!("'{name}' is not a standard judge")))?;
    let fixed = key.rejects_threshold && name.starts_with("builtin.");
    if fixed && options.map().contains_key("threshold") {
        return Err(ConfigError::new(format!(
            "option `threshold` is not accepted by {name}: it passes at a score of 1 (the \
             reference's constructor refuses it too)"
        )));
    }
    let allowed: &[&str] = if fixed {
        &["deployment_name", "model", "is_reasoning_model"]
    } else {
        &[
            "threshold",
            "deployment_name",
            "model",
            "is_reasoning_model",
        ]
    };
    options.deny_unknown(allowed)?;
    let given = options.map().get("threshold");
    let threshold = match key.scale {
        Scale::Likert if given == Some(&Value::Null) => {
            return Err(ConfigError::new(
                "option `threshold` must be a number between 1 and 5, got null",
            ))
        }
        Scale::Likert => options.number_in("threshold", 3.0, 1.0, 5.0)?,
        Scale::Binary => {
            if let Some(value) = options.get("threshold") {
                if !value.as_f64().is_some_and(f64::is_finite) {
                    return Err(ConfigError::new(format!(
                        "option `threshold` must be a number, got {value}"
                    )));
                }
            }
            1.0
        }
    };
    Ok(Box::new(Standard {
        label: label.to_owned(),
        key,
        threshold,
        model: CriterionModel::read(&options)?,
        foundry: name.starts_with("builtin."),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::outcome::Verdict;

    fn built(name: &str, options: Value) -> Result<Box<dyn Evaluator>, ConfigError> {
        let spec = crate::evaluators::find(name).unwrap();
        build(spec, name, Options::new(options.as_object().unwrap()))
    }

    #[test]
    fn binary_judges_accept_a_threshold_and_apply_one_except_where_the_reference_refuses_it() {
        let query = json!("Capital of France?");
        let response = json!("Paris.");
        let inputs = Inputs::new()
            .with("query", &query)
            .with("response", &response);
        let adherence = built("builtin.task_adherence", json!({"threshold": 3})).unwrap();
        let call = adherence.judge(&inputs).unwrap().unwrap();
        assert_eq!(call.reading.threshold, 1.0);
        for name in [
            "builtin.tool_input_accuracy",
            "builtin.tool_output_utilization",
            "builtin.tool_call_success",
        ] {
            assert!(built(name, json!({"threshold": 1})).is_err(), "{name}");
        }
        assert!(built("ToolCallSuccess", json!({"threshold": 1})).is_ok());
        assert!(built("builtin.relevance", json!({"threshold": null})).is_err());
        assert!(built("builtin.relevance", json!({"threshold": "3"})).is_err());
    }

    #[test]
    fn a_reasoning_criterion_is_sent_as_a_reasoning_model_request() {
        use crate::judge::{Endpoint, EndpointKind};
        let query = json!("Capital of France?");
        let response = json!("Paris.");
        let inputs = Inputs::new()
            .with("query", &query)
            .with("response", &response);
        let endpoint = Endpoint::new(EndpointKind::OpenAi, "http://127.0.0.1:9/v1", "m").unwrap();
        let body = |options: Value| -> Value {
            let judge = built("builtin.relevance", options).unwrap();
            let call = judge.judge(&inputs).unwrap().unwrap();
            serde_json::from_str(&call.request.body(&endpoint)).unwrap()
        };
        let reasoning = body(json!({"is_reasoning_model": true, "deployment_name": "o3-mini"}));
        assert_eq!(reasoning["model"], "o3-mini");
        assert!(
            reasoning.get("max_completion_tokens").is_some(),
            "{reasoning}"
        );
        assert!(reasoning.get("temperature").is_none(), "{reasoning}");
        assert!(reasoning.get("max_tokens").is_none(), "{reasoning}");
        let plain = body(json!({"is_reasoning_model": false}));
        assert!(plain.get("temperature").is_some(), "{plain}");
        assert!(plain.get("max_completion_tokens").is_none(), "{plain}");
        let spec = crate::evaluators::find("builtin.output_quality").unwrap();
        let options = json!({"is_reasoning_model": true});
        let composite =
            (spec.build)("output_quality", Options::new(options.as_object().unwrap())).unwrap();
        let call = composite.judge(&inputs).unwrap().unwrap();
        let sent: Value = serde_json::from_str(&call.request.body(&endpoint)).unwrap();
        assert!(sent.get("max_completion_tokens").is_some(), "{sent}");
        assert!(sent.get("temperature").is_none(), "{sent}");
        assert!(built("builtin.relevance", json!({"is_reasoning_model": "yes"})).is_err());
    }

    #[test]
    fn m365_groundedness_needs_a_context() {
        let query = json!("Capital of France?");
        let response = json!("Paris.");
        let inputs = Inputs::new()
            .with("query", &query)
            .with("response", &response);
        let m365 = built("Groundedness", json!({})).unwrap();
        let early = m365.judge(&inputs).unwrap().unwrap_err();
        assert_eq!(early.result, Verdict::Error);
        assert_eq!(
            early.error.map(|error| error.message).as_deref(),
            Some(GROUNDEDNESS_WITHOUT_CONTEXT)
        );
        let foundry = built("builtin.groundedness", json!({})).unwrap();
        assert!(
            foundry.judge(&inputs).unwrap().is_ok(),
            "the reference judges the response against itself"
        );
    }

    #[test]
    fn m365_groundedness_without_context_grounds_on_the_retrieved_extracts() {
        let query = json!("Capital of France?");
        let response = json!("Paris.");
        let diagnostics = json!({"retrieval_executions": [{"capability": "Web", "retrievalHits": [
            {"rank": 1, "webUrl": "https://atlas/fr", "extracts": [{"text": "Paris is the capital of France"}]}
        ]}]});
        let inputs = Inputs::new()
            .with("query", &query)
            .with("response", &response)
            .with("diagnostics", &diagnostics);
        let m365 = built("Groundedness", json!({})).unwrap();
        let call = m365.judge(&inputs).unwrap().unwrap();
        let sent = format!("{:?}", call.request.messages);
        assert!(sent.contains("[rank 1] https://atlas/fr"), "{sent}");
        assert!(sent.contains("Paris is the capital of France"), "{sent}");
        let context = json!("Given context.");
        let given = inputs.clone().with("context", &context);
        let sent = format!(
            "{:?}",
            m365.judge(&given).unwrap().unwrap().request.messages
        );
        assert!(
            sent.contains("Given context.") && !sent.contains("atlas"),
            "{sent}"
        );
    }
}
