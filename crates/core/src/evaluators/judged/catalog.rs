//! The standard judges, as a table: for each, the reference's class name (for its messages), its
//! prompt (task, rating scale, properties, parameters, version), what it derives from the reply,
//! whether its Foundry id refuses a threshold, and which preparation turns an item into its calls
//! (`quality`, `groundedness`, `tools`), after azure-ai-evaluation 1.18.10 (reference notes §3.4).
//! What each preparation decides before any call is its module's; how a reply becomes a result
//! is `judge::verdict`'s.

use super::groundedness::groundedness;
use super::prompt::{PromptSpec, AGENT_PARAMS, LIKERT_PARAMS};
use super::quality::{
    coherence, fluency, intent_resolution, relevance, response_completeness, retrieval, similarity,
    task_adherence, task_completion,
};
use super::standard::Judge;
use super::tools::{
    tool_call_accuracy, tool_call_success, tool_input_accuracy, tool_output_utilization,
    tool_selection,
};
use crate::judge::{Extra, ModelParams, PromptId, Scale};

const fn spec(
    name: &'static str,
    scale: Scale,
    task: &'static str,
    rubric: &'static str,
    properties: &'static str,
    params: ModelParams,
) -> PromptSpec {
    PromptSpec {
        id: PromptId { name, version: 1 },
        scale,
        task,
        rubric,
        properties,
        params,
    }
}

/// The judge behind each M365 name and Foundry id.
pub fn judge_for(name: &str) -> Option<&'static Judge> {
    JUDGES.get(key_for(name)?.index)
}

/// What building a standard judge needs of it, without its prompt and preparation: its place in
/// the catalog, its scale, and whether its Foundry id refuses a `threshold` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JudgeKey {
    /// Its place in the catalog.
    pub index: usize,
    /// The scale of its score.
    pub scale: Scale,
    /// Whether its Foundry id refuses a `threshold` option.
    pub rejects_threshold: bool,
}

/// The standard judge called `name` (an M365 name or a Foundry id).
pub fn key_for(name: &str) -> Option<JudgeKey> {
    let id = name.strip_prefix("builtin.").unwrap_or(name);
    let index = match id {
        "Relevance" | "relevance" => 0,
        "Coherence" | "coherence" => 1,
        "Fluency" | "fluency" => 2,
        "Groundedness" | "groundedness" => 3,
        "Similarity" | "similarity" => 4,
        "Retrieval" | "retrieval" => 5,
        "ResponseCompleteness" | "response_completeness" => 6,
        "IntentResolution" | "intent_resolution" => 7,
        "ToolCallAccuracy" | "tool_call_accuracy" => 8,
        "TaskAdherence" | "task_adherence" => 9,
        "TaskCompletion" | "task_completion" => 10,
        "ToolSelection" | "tool_selection" => 11,
        "ToolInputAccuracy" | "tool_input_accuracy" => 12,
        "ToolOutputUtilization" | "tool_output_utilization" => 13,
        "ToolCallSuccess" | "tool_call_success" => 14,
        _ => return None,
    };
    Some(JudgeKey {
        index,
        scale: if index <= LAST_LIKERT {
            Scale::Likert
        } else {
            Scale::Binary
        },
        rejects_threshold: index >= FIRST_FIXED_THRESHOLD,
    })
}

/// The Likert judges come first in the catalog, then the binary ones.
const LAST_LIKERT: usize = 8;
/// The judges from this place on refuse a `threshold` option under their Foundry ids.
const FIRST_FIXED_THRESHOLD: usize = 12;

/// The judge at `index` of the catalog.
pub fn judge_at(index: usize) -> Option<&'static Judge> {
    JUDGES.get(index)
}

static JUDGES: [Judge; 15] = [
    Judge {
        class: "RelevanceEvaluator",
        prompt: spec(
            "relevance",
            Scale::Likert,
            "Rate how well the RESPONSE addresses the user's QUERY (the last user turn, in the \
             context of the conversation): whether it answers what was asked, accurately and \
             completely, without drifting off topic.",
            "1: irrelevant: unrelated to the query\n2: related but does not answer it\n3: answers \
             it partly, or with gaps\n4: answers it fully and accurately\n5: answers it fully, \
             accurately and with useful insight",
            "",
            LIKERT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: relevance,
    },
    Judge {
        class: "CoherenceEvaluator",
        prompt: spec(
            "coherence",
            Scale::Likert,
            "Rate the coherence of the RESPONSE to the QUERY: whether its ideas are logically \
             organised and connected, so that it reads as a clear whole that addresses the query.",
            "1: incoherent: disjointed words or ideas\n2: poorly coherent: fragmented, hard to \
             follow\n3: partially coherent: some gaps or abrupt shifts\n4: coherent: logical and \
             easy to follow\n5: highly coherent: seamless, well-structured reasoning",
            "",
            LIKERT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: coherence,
    },
    Judge {
        class: "FluencyEvaluator",
        prompt: spec(
            "fluency",
            Scale::Likert,
            "Rate the fluency of the RESPONSE as written language: grammar, vocabulary, sentence \
             structure and readability, regardless of whether it is correct.",
            "1: emergent: barely intelligible\n2: basic: frequent errors\n3: competent: clear \
             with minor errors\n4: proficient: well-formed and varied\n5: exceptional: polished \
             and sophisticated",
            "",
            LIKERT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: fluency,
    },
    Judge {
        class: "GroundednessEvaluator",
        prompt: spec(
            "groundedness",
            Scale::Likert,
            "Rate how well the RESPONSE is grounded in the CONTEXT: whether every claim it makes is \
             supported by the context, without fabricated or contradicting content (answer the \
             QUERY's intent where one is given).",
            "1: ungrounded: unrelated to the context\n2: contradicts the context, or mostly \
             unsupported\n3: partly supported, with unsupported claims\n4: supported but \
             incomplete\n5: fully grounded and complete",
            "",
            LIKERT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: groundedness,
    },
    Judge {
        class: "SimilarityEvaluator",
        prompt: spec(
            "similarity",
            Scale::Likert,
            "Rate how similar in meaning the RESPONSE is to the EXPECTED_RESPONSE, as answers to \
             the QUERY: the same facts and conclusions count, wording does not.",
            "1: not at all similar\n2: mostly different\n3: somewhat similar\n4: mostly the same \
             meaning\n5: completely equivalent",
            "",
            LIKERT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: similarity,
    },
    Judge {
        class: "RetrievalEvaluator",
        prompt: spec(
            "retrieval",
            Scale::Likert,
            "Rate the retrieved CONTEXT for the QUERY: whether the most relevant chunks were \
             retrieved and ranked first, with little irrelevant material.",
            "1: irrelevant context\n2: partly relevant, poorly ranked\n3: relevant but \
             incomplete or noisy\n4: relevant and well ranked, minor gaps\n5: highly relevant, \
             complete and well ranked",
            "",
            LIKERT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: retrieval,
    },
    Judge {
        class: "ResponseCompletenessEvaluator",
        prompt: spec(
            "response_completeness",
            Scale::Likert,
            "Rate how completely the RESPONSE covers the statements of the EXPECTED_RESPONSE (the \
             ground truth): every claim of the ground truth that the response contains counts.",
            "1: fully incomplete: none of it\n2: barely complete: a small part\n3: moderately \
             complete: about half\n4: mostly complete: most of it\n5: fully complete: all of it",
            "",
            ModelParams {
                seed: Some(123),
                ..LIKERT_PARAMS
            },
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: response_completeness,
    },
    Judge {
        class: "IntentResolutionEvaluator",
        prompt: spec(
            "intent_resolution",
            Scale::Likert,
            "Rate whether the agent's RESPONSE resolved the user's intent expressed in the \
             CONVERSATION: identified what the user wanted and delivered it.",
            "1: response unrelated to the intent\n2: intent understood but not resolved\n3: \
             partly resolved\n4: resolved with minor gaps\n5: fully resolved",
            "",
            LIKERT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: intent_resolution,
    },
    Judge {
        class: "ToolCallAccuracyEvaluator",
        prompt: spec(
            "tool_call_accuracy",
            Scale::Likert,
            "Rate the agent's TOOL_CALLS for the CONVERSATION, given the TOOL_DEFINITIONS: whether \
             the right tools were called, with correct parameters grounded in the conversation, \
             without excess or missing calls.",
            "1: irrelevant tools called\n2: relevant tools, mostly wrong parameters\n3: relevant \
             tools, some wrong parameters or missing calls\n4: correct, with unneeded extra \
             calls\n5: every needed call correct, nothing excess",
            "{\"tool_calls_success_level\": <1-5>, \"excess_tool_calls\": {\"total\": <n>}, \"missing_tool_calls\": {\"total\": <n>}}",
            ModelParams {
                max_tokens: 5000,
                ..LIKERT_PARAMS
            },
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: tool_call_accuracy,
    },
    Judge {
        class: "TaskAdherenceEvaluator",
        prompt: spec(
            "task_adherence",
            Scale::Binary,
            "Decide whether the agent's RESPONSE (with its tool calls) adheres to the task set in \
             the CONVERSATION, including the system prompt's rules and procedures. Score 0 only for \
             a material failure: the goal not met, a rule broken or a required step skipped; when \
             unsure, score 1.",
            "0: a material failure of goal, rules or procedure\n1: adheres to the task",
            "",
            AGENT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: task_adherence,
    },
    Judge {
        class: "_TaskCompletionEvaluator",
        prompt: spec(
            "task_completion",
            Scale::Binary,
            "Decide whether the agent completed the task the user set in the CONVERSATION: the \
             RESPONSE delivers a complete, usable outcome, not a partial one or a plan.",
            "0: the task is not completed\n1: the task is completed",
            "{\"task_requirements\": \"<text>\", \"delivered_outcome\": \"<text>\", \"completion_gaps\": \"<text>\"}",
            AGENT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: false,
        prepare: task_completion,
    },
    Judge {
        class: "_ToolSelectionEvaluator",
        prompt: spec(
            "tool_selection",
            Scale::Binary,
            "Decide whether the agent selected every tool the CONVERSATION needed, from the \
             TOOL_DEFINITIONS, as listed in TOOL_CALLS (extra redundant tools are allowed).",
            "0: a needed tool was not selected, or a wrong one was\n1: all needed tools were selected",
            "{\"correct_tool_selections\": <n>, \"wrong_tool_selections\": <n>}",
            ModelParams {
                max_tokens: 3000,
                ..AGENT_PARAMS
            },
        ),
        extra: Extra::ToolSelectionAccuracy,
        rejects_threshold: false,
        prepare: tool_selection,
    },
    Judge {
        class: "_ToolInputAccuracyEvaluator",
        prompt: spec(
            "tool_input_accuracy",
            Scale::Binary,
            "Decide whether every parameter of the agent's TOOL_CALLS is correct: grounded in the \
             CONVERSATION, of the type and format the TOOL_DEFINITIONS require, with every required \
             parameter and no unexpected one.",
            "0: any parameter is wrong, missing or unexpected\n1: all parameters are correct",
            "{\"correct_parameters_passed\": <n>, \"total_parameters_passed\": <n>}",
            ModelParams {
                max_tokens: 1000,
                ..AGENT_PARAMS
            },
        ),
        extra: Extra::ParameterExtractionAccuracy,
        rejects_threshold: true,
        prepare: tool_input_accuracy,
    },
    Judge {
        class: "_ToolOutputUtilizationEvaluator",
        prompt: spec(
            "tool_output_utilization",
            Scale::Binary,
            "Decide whether the agent's RESPONSE uses the outputs of its tool calls faithfully: no \
             fabricated values, no contradiction of or mismatch with what the tools returned.",
            "0: a tool output is misused, contradicted or fabricated\n1: tool outputs are used faithfully",
            "{\"faulty_details\": [\"<text>\"]}",
            AGENT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: true,
        prepare: tool_output_utilization,
    },
    Judge {
        class: "_ToolCallSuccessEvaluator",
        prompt: spec(
            "tool_call_success",
            Scale::Binary,
            "Decide whether every tool call in TOOL_CALLS succeeded technically: look only at the \
             tool results for errors, exceptions, time-outs or empty failures, not at whether the \
             answer is right.",
            "0: any tool call failed\n1: every tool call succeeded",
            "{\"failed_tools\": \"<comma-separated names, or empty>\"}",
            AGENT_PARAMS,
        ),
        extra: Extra::None,
        rejects_threshold: true,
        prepare: tool_call_success,
    },
];

/// What the standard judges make of an item, for the preparations' tests.
#[cfg(test)]
pub(super) mod testing {
    use super::judge_for;
    use crate::evaluators::judged::early::Early;
    use crate::evaluators::judged::standard::Turn;
    use crate::inputs::Inputs;
    use crate::json::Value;

    /// What `builtin.<key>` makes of `inputs`: the sections of each call, or the result reached
    /// without one (the reference's outcome for the same inputs is noted at each case).
    pub fn prepare(key: &str, inputs: &Value) -> Result<Vec<Turn>, Early> {
        let judge = judge_for(key).unwrap();
        let mut named = Inputs::new();
        for (name, value) in inputs.as_object().unwrap() {
            named.set(name, value);
        }
        (judge.prepare)(&named, judge)
    }

    /// The message (or reason) of the one result reached without a call, else `"<n> turns"`.
    pub fn message(outcome: Result<Vec<Turn>, Early>) -> String {
        let outcome = match outcome {
            Ok(mut turns) if turns.len() == 1 && turns[0].is_err() => {
                turns.remove(0).map(|_| Vec::new())
            }
            other => other,
        };
        match outcome {
            Err(early) => early
                .error
                .map(|error| error.message)
                .or(early.reason)
                .unwrap_or_default(),
            Ok(turns) => format!("{} turns", turns.len()),
        }
    }
}

#[cfg(test)]
mod key_tests {
    #[test]
    fn keys_agree_with_the_catalog() {
        for judge in super::JUDGES.iter() {
            let key = super::key_for(judge.prompt.id.name).unwrap();
            assert_eq!(super::JUDGES[key.index].class, judge.class);
            assert_eq!(key.scale, judge.prompt.scale, "{}", judge.class);
            assert_eq!(
                key.rejects_threshold, judge.rejects_threshold,
                "{}",
                judge.class
            );
        }
    }
}
