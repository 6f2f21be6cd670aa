//! The standard judges: for each, its prompt (task, rating scale, parameters, version), the
//! inputs it reads and how they are shown to the judge, and the decisions it takes before any
//! call (missing inputs, an intermediate response, no context, no tool calls), after
//! azure-ai-evaluation 1.18.10's evaluators (reference notes §3.4).

use super::prompt::{PromptSpec, Section, AGENT_PARAMS, LIKERT_PARAMS};
use super::render;
use crate::inputs::Inputs;
use crate::json::Value;
use crate::judge::{Extra, ModelParams, PromptId, Scale};
use crate::outcome::{ErrorCode, EvalResult};

/// Why a judge needs no call for an item: a result reached at once.
pub type Early = Box<EvalResult>;

/// The data sections for one item, or the result reached without a call.
pub type Prepare = fn(&Inputs<'_>, &str) -> Result<Vec<Section>, Early>;

/// One standard judge.
#[derive(Debug, Clone, Copy)]
pub struct Judge {
    /// The reference's class name, for its messages (`RelevanceEvaluator`).
    pub class: &'static str,
    /// Its prompt.
    pub prompt: PromptSpec,
    /// What it derives from the reply's properties.
    pub extra: Extra,
    /// Its inputs.
    pub prepare: Prepare,
}

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
    let id = name.strip_prefix("builtin.").unwrap_or(name);
    let key = match id {
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
    JUDGES.get(key)
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
        prepare: |inputs, class| {
            let (query, response) = query_and_response(inputs, class)?;
            Ok(vec![
                Section::new("QUERY", render::conversation(query, false, false)),
                Section::new("RESPONSE", render::agent_response(response, false)),
            ])
        },
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
        prepare: |inputs, class| {
            let (query, response) = query_and_response(inputs, class)?;
            Ok(vec![
                Section::new("QUERY", render::conversation(query, false, false)),
                Section::new("RESPONSE", render::agent_response(response, false)),
            ])
        },
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
        prepare: |inputs, class| {
            let response = required(inputs, class, "response")?;
            not_intermediate(response)?;
            Ok(vec![Section::new(
                "RESPONSE",
                render::agent_response(response, false),
            )])
        },
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
        prepare: |inputs, class| {
            let response = required(inputs, class, "response")?;
            not_intermediate(response)?;
            let context = match inputs.get("context") {
                Some(context) if !render::is_blank(Some(context)) => render::text(context),
                _ => {
                    let extracted = file_search_context(response);
                    if extracted.is_empty() {
                        if render::messages(response).is_some() {
                            return Err(not_applicable(
                                class,
                                "No valid context provided or could be extracted from the query or response.",
                            ));
                        }
                        return Err(missing(class, "context"));
                    }
                    extracted
                }
            };
            let mut sections = vec![Section::new("CONTEXT", context)];
            if let Some(query) = inputs.get("query") {
                sections.push(Section::new("QUERY", render::conversation(query, false, false)));
            }
            sections.push(Section::new(
                "RESPONSE",
                render::agent_response(response, false),
            ));
            Ok(sections)
        },
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
        prepare: |inputs, class| {
            let query = required(inputs, class, "query")?;
            let response = required(inputs, class, "response")?;
            let expected = expected(inputs, class)?;
            Ok(vec![
                Section::new("QUERY", render::text(query)),
                Section::new("EXPECTED_RESPONSE", render::text(expected)),
                Section::new("RESPONSE", render::text(response)),
            ])
        },
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
        prepare: |inputs, class| {
            let query = required(inputs, class, "query")?;
            let context = required(inputs, class, "context")?;
            Ok(vec![
                Section::new("QUERY", render::conversation(query, false, false)),
                Section::new("CONTEXT", render::text(context)),
            ])
        },
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
        prepare: |inputs, class| {
            let response = required(inputs, class, "response")?;
            let expected = expected(inputs, class)?;
            Ok(vec![
                Section::new("EXPECTED_RESPONSE", render::text(expected)),
                Section::new("RESPONSE", render::agent_response(response, false)),
            ])
        },
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
        prepare: |inputs, class| {
            let (query, response) = query_and_response(inputs, class)?;
            Ok(vec![
                Section::new("CONVERSATION", render::conversation(query, false, false)),
                Section::new("RESPONSE", render::agent_response(response, false)),
            ])
        },
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
        prepare: |inputs, class| {
            let query = required(inputs, class, "query")?;
            let definitions = required(inputs, class, "tool_definitions")?;
            let calls = called_tools(inputs);
            if calls.is_empty() {
                return Err(not_applicable(
                    class,
                    "No tool calls found in response or provided tool_calls.",
                ));
            }
            Ok(vec![
                Section::new("CONVERSATION", render::conversation(query, false, false)),
                Section::new("TOOL_CALLS", calls),
                Section::new("TOOL_DEFINITIONS", render::tool_definitions(definitions)),
            ])
        },
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
        prepare: |inputs, class| {
            let (query, response) = query_and_response(inputs, class)?;
            Ok(vec![
                Section::new("CONVERSATION", render::conversation(query, true, true)),
                Section::new("RESPONSE", render::agent_response(response, true)),
            ])
        },
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
        prepare: |inputs, class| {
            let (query, response) = query_and_response(inputs, class)?;
            let mut sections = vec![
                Section::new("CONVERSATION", render::conversation(query, true, true)),
                Section::new("RESPONSE", render::agent_response(response, true)),
            ];
            if let Some(definitions) = inputs.get("tool_definitions") {
                sections.push(Section::new(
                    "TOOL_DEFINITIONS",
                    render::tool_definitions(definitions),
                ));
            }
            Ok(sections)
        },
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
        prepare: |inputs, class| {
            let query = required(inputs, class, "query")?;
            let definitions = required(inputs, class, "tool_definitions")?;
            let names = called_tool_names(inputs);
            if names.is_empty() {
                return Err(not_applicable(
                    class,
                    "No tool calls found in response or provided tool_calls.",
                ));
            }
            Ok(vec![
                Section::new("CONVERSATION", render::conversation(query, true, true)),
                Section::new("TOOL_CALLS", names.join("\n")),
                Section::new("TOOL_DEFINITIONS", render::tool_definitions(definitions)),
            ])
        },
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
        prepare: |inputs, class| {
            let (query, response) = query_and_response(inputs, class)?;
            let definitions = required(inputs, class, "tool_definitions")?;
            let calls = render::tool_calls(response);
            if calls.is_empty() {
                return Err(not_applicable(
                    class,
                    "No tool calls found in response or provided tool_calls.",
                ));
            }
            Ok(vec![
                Section::new("CONVERSATION", render::conversation(query, true, true)),
                Section::new("TOOL_CALLS", render::agent_response(response, true)),
                Section::new("TOOL_DEFINITIONS", render::tool_definitions(definitions)),
            ])
        },
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
        prepare: |inputs, class| {
            let (query, response) = query_and_response(inputs, class)?;
            let definitions = required(inputs, class, "tool_definitions")?;
            Ok(vec![
                Section::new("CONVERSATION", render::conversation(query, true, true)),
                Section::new("RESPONSE", render::agent_response(response, true)),
                Section::new("TOOL_DEFINITIONS", render::tool_definitions(definitions)),
            ])
        },
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
        prepare: |inputs, class| {
            let response = required(inputs, class, "response")?;
            not_intermediate(response)?;
            let mut sections = vec![Section::new(
                "TOOL_CALLS",
                render::agent_response(response, true),
            )];
            if let Some(definitions) = inputs.get("tool_definitions") {
                sections.push(Section::new(
                    "TOOL_DEFINITIONS",
                    render::tool_definitions(definitions),
                ));
            }
            Ok(sections)
        },
    },
];

/// The reference's message for a missing input.
fn missing(class: &str, name: &str) -> Early {
    Box::new(EvalResult::error(
        "",
        ErrorCode::EvaluatorError,
        format!("{class}: Either 'conversation' or individual inputs must be provided. '{name}' is missing."),
    ))
}

fn not_applicable(_class: &str, why: &str) -> Early {
    Box::new(EvalResult::skipped("", format!("Not applicable: {why}")))
}

fn required<'a>(inputs: &Inputs<'a>, class: &str, name: &str) -> Result<&'a Value, Early> {
    inputs.get(name).ok_or_else(|| missing(class, name))
}

fn expected<'a>(inputs: &Inputs<'a>, class: &str) -> Result<&'a Value, Early> {
    inputs
        .get("ground_truth")
        .or_else(|| inputs.get("expected_response"))
        .ok_or_else(|| missing(class, "ground_truth"))
}

fn not_intermediate(response: &Value) -> Result<(), Early> {
    if render::is_intermediate(response) {
        return Err(not_applicable(
            "",
            "Intermediate response. Please provide the agent's final response for evaluation.",
        ));
    }
    Ok(())
}

fn query_and_response<'a>(
    inputs: &Inputs<'a>,
    class: &str,
) -> Result<(&'a Value, &'a Value), Early> {
    let query = required(inputs, class, "query")?;
    let response = required(inputs, class, "response")?;
    not_intermediate(response)?;
    Ok((query, response))
}

/// The tool calls of the response, else of `tool_calls`, as `[TOOL_CALL]` lines.
fn called_tools(inputs: &Inputs<'_>) -> String {
    let from_response = inputs.get("response").map(render::tool_calls);
    let calls = match from_response {
        Some(calls) if !calls.is_empty() => calls,
        _ => inputs.get("tool_calls").map(render::tool_calls).unwrap_or_default(),
    };
    render::tool_call_lines(&calls)
}

fn called_tool_names(inputs: &Inputs<'_>) -> Vec<String> {
    called_tools(inputs)
        .lines()
        .filter_map(|line| line.strip_prefix("[TOOL_CALL] "))
        .map(|call| call.split('(').next().unwrap_or(call).to_owned())
        .collect()
}

/// Context from `file_search` tool results in an agent response.
fn file_search_context(response: &Value) -> String {
    let Some(messages) = render::messages(response) else {
        return String::new();
    };
    let mut out = String::new();
    for message in messages {
        let Some(Value::Array(items)) = message.get("content") else {
            continue;
        };
        for item in items {
            let results = item
                .get("tool_result")
                .and_then(|result| result.get("file_search"))
                .or_else(|| item.get("file_search"))
                .and_then(|search| search.get("results"))
                .and_then(Value::as_array);
            for hit in results.into_iter().flatten() {
                let name = hit.get("file_name").and_then(Value::as_str).unwrap_or("");
                let text = hit
                    .get("content")
                    .and_then(|content| content.get(0))
                    .and_then(|part| part.get("text"))
                    .or_else(|| hit.get("text"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                out.push_str(&format!("{name}:\n- {text}---\n\n"));
            }
        }
    }
    out
}
