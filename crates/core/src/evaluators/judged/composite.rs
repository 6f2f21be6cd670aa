//! The composite judges `output_quality` and `tool_use_quality` (spec §2; Foundry's
//! `builtin.output_quality` and `builtin.tool_use_quality`): one call rates every member
//! dimension on its own scale, and the composite passes only when every applicable member passes
//! (`reading`). Members, after azure-ai-evaluation's `_EvaluatorMetricMapping`:
//! output_quality → fluency, coherence, intent_resolution, task_adherence, groundedness,
//! task_completion; tool_use_quality → tool_call_accuracy, tool_call_success,
//! tool_input_accuracy, tool_output_utilization, tool_selection.
//!
//! Decided without a call: an intermediate response, and for tool_use_quality a response without
//! tool calls, are not applicable. Groundedness is a member only when there is something to be
//! grounded in (a context, or tool results in the response); otherwise it is omitted, as a member
//! that does not apply.

use std::sync::Arc;

use super::level::Level;
use super::prompt::{fence, Section};
use super::shown::shown_context;
use super::{convert, early, render, CriterionModel, NO_JUDGE_REASON};
use crate::evaluators::Evaluator;
use crate::inputs::Inputs;
use crate::json::Value;
pub mod reading;

use self::reading::Composite;
use super::rubric::reading::{Dimension, Rubric};
use crate::judge::{
    ChatMessage, Extra, JudgeCall, JudgeRequest, ModelParams, PromptId, Reading, Scale,
};
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};

/// One member: its id, scale and what it asks.
struct Member {
    id: &'static str,
    scale: Scale,
    asks: &'static str,
}

const fn member(id: &'static str, scale: Scale, asks: &'static str) -> Member {
    Member { id, scale, asks }
}

const OUTPUT_QUALITY: [Member; 6] = [
    member("fluency", Scale::Likert, "Is the response well written: grammatical, readable, with varied and precise wording?"),
    member("coherence", Scale::Likert, "Does the response hang together logically and answer the query in an orderly way?"),
    member("intent_resolution", Scale::Likert, "Did the agent identify what the user wanted and resolve it?"),
    member("task_adherence", Scale::Binary, "Does the response follow the task and the system instructions, without violating any rule or constraint (1), or not (0)?"),
    member("groundedness", Scale::Likert, "Is every claim of the response supported by the context or the tool results, with nothing invented?"),
    member("task_completion", Scale::Binary, "Did the agent complete the user's task end to end (1), or not (0)?"),
];

const TOOL_USE_QUALITY: [Member; 5] = [
    member("tool_call_accuracy", Scale::Likert, "Are the tool calls relevant, with correct parameters, and efficient, with no unneeded or missing call?"),
    member("tool_call_success", Scale::Binary, "Did every tool call succeed, with no error or failed result (1), or not (0)?"),
    member("tool_input_accuracy", Scale::Binary, "Are all parameters passed to the tools correct, grounded in the conversation and matching the definitions (1), or not (0)?"),
    member("tool_output_utilization", Scale::Binary, "Does the response use the tool results correctly, without ignoring or misrepresenting them (1), or not (0)?"),
    member("tool_selection", Scale::Binary, "Did the agent choose the right tools for the task, no unneeded and no missing one (1), or not (0)?"),
];

/// The threshold of the members scored 1–5 (the standard judges' default).
pub const MEMBER_THRESHOLD: f64 = 3.0;

/// Which composite.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    OutputQuality,
    ToolUseQuality,
}

impl Kind {
    fn members(self) -> &'static [Member] {
        match self {
            Kind::OutputQuality => &OUTPUT_QUALITY,
            Kind::ToolUseQuality => &TOOL_USE_QUALITY,
        }
    }

    fn prompt(self) -> PromptId {
        let name = match self {
            Kind::OutputQuality => "output_quality",
            Kind::ToolUseQuality => "tool_use_quality",
        };
        PromptId { name, version: 2 }
    }

    fn task(self) -> &'static str {
        match self {
            Kind::OutputQuality => {
                "Rate the quality of the agent's response and how well it accomplished the user's task"
            }
            Kind::ToolUseQuality => {
                "Rate the agent's use of tools, from choosing them to using what they returned"
            }
        }
    }
}

/// A configured composite.
struct CompositeJudge {
    label: String,
    kind: Kind,
    model: CriterionModel,
    /// `evaluation_level`; `None`: the inputs' shape decides.
    level: Option<Level>,
}

/// Builds `output_quality` (M365 name or `builtin.output_quality`).
///
/// # Errors
/// As [`build`].
pub(super) fn build_output_quality(
    label: &str,
    options: Options<'_>,
) -> Result<Box<dyn Evaluator>, ConfigError> {
    build(Kind::OutputQuality, label, options)
}

/// Builds `tool_use_quality` (M365 name or `builtin.tool_use_quality`).
///
/// # Errors
/// As [`build`].
pub(super) fn build_tool_use_quality(
    label: &str,
    options: Options<'_>,
) -> Result<Box<dyn Evaluator>, ConfigError> {
    build(Kind::ToolUseQuality, label, options)
}

/// `threshold` is accepted as for the binary judges (the schema's `BinaryJudgeOptions`): a
/// composite passes at 1 and reports 1; its 1–5 members pass at [`MEMBER_THRESHOLD`].
///
/// # Errors
/// An unknown option, a `threshold` that is not a number, a model that is not text, or an
/// `evaluation_level` other than `turn` and `conversation`.
fn build(kind: Kind, label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&[
        "threshold",
        "deployment_name",
        "model",
        "evaluation_level",
        "is_reasoning_model",
    ])?;
    if let Some(value) = options.get("threshold") {
        if !value.as_f64().is_some_and(f64::is_finite) {
            return Err(ConfigError::new(format!(
                "option `threshold` must be a number, got {value}"
            )));
        }
    }
    Ok(Box::new(CompositeJudge {
        label: label.to_owned(),
        kind,
        model: CriterionModel::read(&options)?,
        level: Level::option(&options)?,
    }))
}

impl Evaluator for CompositeJudge {
    fn evaluate(&self, _inputs: &Inputs<'_>) -> EvalResult {
        EvalResult::skipped(&self.label, NO_JUDGE_REASON)
    }

    fn judge(&self, inputs: &Inputs<'_>) -> Option<Result<JudgeCall, Box<EvalResult>>> {
        Some(self.call(inputs))
    }
}

impl CompositeJudge {
    fn labelled(&self, mut result: EvalResult) -> Box<EvalResult> {
        result.evaluator.clone_from(&self.label);
        if result.error.is_none() {
            result.threshold = Some(1.0);
        }
        Box::new(result)
    }

    fn call(&self, inputs: &Inputs<'_>) -> Result<JudgeCall, Box<EvalResult>> {
        let messages = inputs.get("messages");
        let response = inputs.get("response").or(messages).ok_or_else(|| {
            self.labelled(EvalResult::error(
                "",
                ErrorCode::EmptyAgentResponse,
                "the agent response is missing",
            ))
        })?;
        early::not_intermediate(Some(response)).map_err(|early| self.labelled(*early))?;
        let tool_calls = convert::parse_tool_calls(response).unwrap_or_default();
        if self.kind == Kind::ToolUseQuality && tool_calls.is_empty() {
            return Err(self.labelled(EvalResult::skipped(
                "",
                "Not applicable: the response makes no tool call",
            )));
        }
        let context = inputs
            .get("context")
            .filter(|context| render::truthy(Some(context)));
        let tool_results = tool_calls
            .iter()
            .any(|call| call.contains_key("tool_result"));
        let members: Vec<&Member> = self
            .kind
            .members()
            .iter()
            .filter(|member| member.id != "groundedness" || context.is_some() || tool_results)
            .collect();
        let level = Level::of(self.level, inputs);
        let mut sections = level.sections(inputs, true);
        if let Some(definitions) = inputs.get("tool_definitions") {
            sections.push(Section::new(
                "TOOL_DEFINITIONS",
                render::definitions_summary(definitions),
            ));
        }
        if let Some(context) = context {
            sections.push(Section::new("CONTEXT", shown_context(context)));
        }
        let composite = Composite {
            members: Rubric {
                dimensions: members
                    .iter()
                    .map(|member| Dimension {
                        id: member.id.to_owned(),
                        weight: 1.0,
                        always_applicable: false,
                        scale: member.scale,
                        category: None,
                    })
                    .collect(),
            },
            threshold: MEMBER_THRESHOLD,
        };
        Ok(JudgeCall {
            label: self.label.clone(),
            request: JudgeRequest {
                operation: crate::judge::Operation::Chat,
                prompt: self.kind.prompt(),
                model: self.model.name.clone(),
                reasoning: self.model.reasoning,
                messages: self.messages(&members, &sections, level),
                params: ModelParams {
                    temperature: 0.0,
                    max_tokens: 1500,
                    seed: None,
                },
            },
            reading: Reading {
                scale: Scale::Binary,
                threshold: 1.0,
                extra: Extra::None,
                dimensions: Some(Arc::new(composite) as _),
            },
            turns: Vec::new(),
            notes: super::limited_support::note(inputs)
                .into_iter()
                .chain([("evaluation_level", Value::from(level.as_str()))])
                .collect(),
        })
    }

    fn messages(
        &self,
        members: &[&Member],
        sections: &[Section],
        level: Level,
    ) -> Vec<ChatMessage> {
        let fenced = fence(sections);
        let threshold = crate::text::decimal::plain(MEMBER_THRESHOLD);
        let listed: Vec<String> = members
            .iter()
            .map(|member| {
                let scale = match member.scale {
                    Scale::Likert => format!("1 to 5, passes at {threshold} or more"),
                    Scale::Binary => "0 or 1, passes at 1".to_owned(),
                };
                format!("- {} ({scale}): {}", member.id, member.asks)
            })
            .collect();
        let ids = Value::Array(
            members
                .iter()
                .map(|member| Value::from(member.id))
                .collect(),
        );
        let scales: crate::json::Map<String, Value> = members
            .iter()
            .map(|member| {
                let (low, high) = member.scale.bounds();
                (
                    member.id.to_owned(),
                    Value::Array(vec![Value::from(low as i64), Value::from(high as i64)]),
                )
            })
            .collect();
        let system = format!(
            "You are an impartial evaluator of an AI agent's output.\n\n\
             Task: {task}. Rate each dimension below on its own scale, judging only what it asks, \
             with a one-sentence reason; a dimension the data gives nothing to judge does not \
             apply.\n{level}\n\n\
             Dimensions (id, scale, what it asks):\n{listed}\n\n\
             Dimension ids: {ids}\n\
             Dimension scales: {scales}\n\n\
             {instruction}\n\n\
             Reply with one JSON object and nothing else, rating every dimension exactly once, in \
             the order above:\n\
             {{\"reason\": \"<one or two sentences on the overall verdict>\", \"dimensions\": \
             [{{\"id\": \"<dimension id>\", \"applicable\": true, \"score\": <integer on the \
             dimension's scale>, \"reason\": \"<one sentence>\"}}], \"status\": \"completed\"}}\n\
             For a dimension that does not apply, write \"applicable\": false and \"score\": null.\n\
             If the data this task needs is empty, reply {{\"reason\": \"<what is missing>\", \
             \"dimensions\": [], \"status\": \"skipped\"}}.\n\n\
             Prompt: agenteval {label}",
            task = self.kind.task(),
            level = level.instruction(),
            listed = listed.join("\n"),
            scales = Value::Object(scales),
            instruction = fenced.instruction,
            label = self.kind.prompt().label(),
        );
        fenced.messages(system)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Role;
    use crate::outcome::Verdict;

    fn prepared(kind: Kind, inputs: &Inputs<'_>) -> Result<JudgeCall, Box<EvalResult>> {
        let options = crate::json!({});
        build(kind, "c", Options::new(options.as_object().unwrap()))
            .unwrap()
            .judge(inputs)
            .unwrap()
    }

    fn members(call: &JudgeCall) -> Vec<String> {
        match call.reading.family::<Composite>() {
            Some(composite) => composite
                .members
                .dimensions
                .iter()
                .map(|dimension| dimension.id.clone())
                .collect(),
            None => Vec::new(),
        }
    }

    #[test]
    fn output_quality_rates_its_members_in_one_call_and_groundedness_needs_a_ground() {
        let query = crate::json!("Capital of France?");
        let response = crate::json!("Paris.");
        let context = crate::json!("Paris is the capital of France.");
        let bare = Inputs::new()
            .with("query", &query)
            .with("response", &response);
        let call = prepared(Kind::OutputQuality, &bare).unwrap();
        assert_eq!(
            members(&call),
            [
                "fluency",
                "coherence",
                "intent_resolution",
                "task_adherence",
                "task_completion"
            ]
        );
        let grounded = bare.clone().with("context", &context);
        let call = prepared(Kind::OutputQuality, &grounded).unwrap();
        assert_eq!(members(&call).len(), 6);
        assert_eq!(call.request.prompt.label(), "output_quality/v2");
        let system = &call.request.messages[0];
        assert_eq!(system.role, Role::System);
        assert!(system
            .content
            .contains("- task_adherence (0 or 1, passes at 1): "));
        assert!(system
            .content
            .contains("- fluency (1 to 5, passes at 3 or more): "));
        assert!(system
            .content
            .contains(r#"Dimension scales: {"fluency":[1,5],"#));
        assert!(call.request.messages[1].content.contains("<<<CONTEXT "));
    }

    #[test]
    fn tool_use_quality_needs_tool_calls() {
        let response = crate::json!("Paris.");
        let inputs = Inputs::new().with("response", &response);
        let early = prepared(Kind::ToolUseQuality, &inputs).unwrap_err();
        assert_eq!(early.result, Verdict::Skipped);
        assert_eq!(early.evaluator, "c");
        let calls = crate::json!([
            {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp": 21}}]},
            {"role": "assistant", "content": [{"type": "text", "text": "21 degrees."}]}
        ]);
        let inputs = Inputs::new().with("response", &calls);
        let call = prepared(Kind::ToolUseQuality, &inputs).unwrap();
        assert_eq!(members(&call).len(), 5);
        assert!(call.request.messages[1].content.starts_with("<<<RESPONSE "));
    }

    #[test]
    fn the_evaluation_level_changes_what_the_judge_is_shown_and_is_reported() {
        let messages = crate::json!([
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": "Sunny."},
            {"role": "user", "content": "And in Rome?"},
            {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Rome"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp": 25}}]},
            {"role": "assistant", "content": "25 degrees in Rome."}
        ]);
        let inputs = Inputs::new().with("messages", &messages);
        let with_level = |level: Option<&str>| {
            let options = match level {
                Some(level) => crate::json!({"evaluation_level": level}),
                None => crate::json!({}),
            };
            build(
                Kind::ToolUseQuality,
                "c",
                Options::new(options.as_object().unwrap()),
            )
            .unwrap()
            .judge(&inputs)
            .unwrap()
            .unwrap()
        };
        let by_shape = with_level(None);
        let conversation = with_level(Some("conversation"));
        let turn = with_level(Some("turn"));
        assert_eq!(
            by_shape.request.messages, conversation.request.messages,
            "messages alone: the conversation"
        );
        assert!(conversation.request.messages[0]
            .content
            .contains("Evaluation level: conversation."));
        assert!(conversation.request.messages[1]
            .content
            .starts_with("<<<CONVERSATION "));
        assert!(turn.request.messages[0]
            .content
            .contains("Evaluation level: turn."));
        let shown = &turn.request.messages[1].content;
        assert!(shown.starts_with("<<<EARLIER_MESSAGES "), "{shown}");
        assert!(shown.contains("<<<USER_TURN "), "{shown}");
        assert!(shown.contains("<<<RESPONSE "), "{shown}");
        assert_ne!(turn.request.messages, conversation.request.messages);
        let level = |call: &JudgeCall| {
            call.notes
                .iter()
                .find(|(key, _)| *key == "evaluation_level")
                .map(|(_, value)| value.clone())
        };
        assert_eq!(level(&turn), Some(Value::from("turn")));
        assert_eq!(level(&conversation), Some(Value::from("conversation")));
        let bad = crate::json!({"evaluation_level": "item"});
        assert!(build(
            Kind::OutputQuality,
            "c",
            Options::new(bad.as_object().unwrap())
        )
        .is_err());
    }

    #[test]
    fn options_are_checked() {
        for options in [
            crate::json!({"threshold": "1"}),
            crate::json!({"evaluation_level": "item"}),
            crate::json!({"treshold": 3}),
        ] {
            assert!(
                build(
                    Kind::OutputQuality,
                    "c",
                    Options::new(options.as_object().unwrap())
                )
                .is_err(),
                "{options}"
            );
        }
    }
}
