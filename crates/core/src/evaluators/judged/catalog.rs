//! The standard judges: for each, its prompt (task, rating scale, parameters, version), the
//! inputs it reads and how they are shown to the judge, and everything it decides before any
//! call, after azure-ai-evaluation 1.18.10 (reference notes §3.4): the reference's validators and
//! their messages, which inputs are required, a `conversation` (or `messages`) split into turns,
//! and the not-applicable results (an intermediate response, no usable context, no tool calls,
//! missing definitions). How a reply becomes a result is `judge::verdict`'s.

use super::prompt::{PromptSpec, Section, AGENT_PARAMS, LIKERT_PARAMS};
use super::render;
use crate::inputs::Inputs;
use crate::json::{Map, Value};
use crate::judge::{Extra, ModelParams, PromptId, Scale};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::python;

/// Why a judge needs no call for an item or turn: a result reached at once.
pub type Early = Box<EvalResult>;

/// One judged turn: the data sections of its call, or its result reached without one.
pub type Turn = Result<Vec<Section>, Early>;

/// An item's turns (one, or one per turn of a conversation), or the result reached before any.
pub type Prepare = fn(&Inputs<'_>, &Judge) -> Result<Vec<Turn>, Early>;

/// One standard judge.
#[derive(Debug, Clone, Copy)]
pub struct Judge {
    /// The reference's class name, for its messages (`RelevanceEvaluator`).
    pub class: &'static str,
    /// Its prompt.
    pub prompt: PromptSpec,
    /// What it derives from the reply's properties.
    pub extra: Extra,
    /// Whether its Foundry id refuses a `threshold` option (the reference's constructor fails on
    /// one).
    pub rejects_threshold: bool,
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

// --- the judges -------------------------------------------------------------------------------

const INTERMEDIATE: &str =
    "Intermediate response. Please provide the agent's final response for evaluation.";
const NO_TOOL_CALLS: &str = "No tool calls found in response or provided tool_calls.";
const DEFINITIONS_MISSING: &str = "Tool definitions for all tool calls must be provided.";

/// The reference's `eval_input` of one evaluation: named values, `null` for "given as None".
type EvalInput = Map<String, Value>;

fn arg<'a>(input: &'a EvalInput, name: &str) -> Option<&'a Value> {
    input.get(name).filter(|value| !value.is_null())
}

fn turns(inputs: Vec<EvalInput>, turn: impl Fn(&EvalInput) -> Turn) -> Vec<Turn> {
    inputs.iter().map(turn).collect()
}

fn relevance(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    messages_or_conversation(inputs, Checks::plain(true))?;
    let converted = convert(inputs, judge.class, &QUERY_RESPONSE, Hoist::Messages)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![
            Section::new(
                "QUERY",
                shown_conversation(arg(input, "query"), false, false),
            ),
            Section::new("RESPONSE", shown_response(response, false)),
        ])
    }))
}

fn coherence(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    conversation_or_query_response(inputs, Checks::plain(true))?;
    let converted = convert(inputs, judge.class, &QUERY_RESPONSE, Hoist::No)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![
            Section::new(
                "QUERY",
                shown_conversation(arg(input, "query"), false, false),
            ),
            Section::new("RESPONSE", shown_response(response, false)),
        ])
    }))
}

fn fluency(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    messages_or_conversation(inputs, Checks::plain(false))?;
    let converted = convert(inputs, judge.class, &RESPONSE_ONLY, Hoist::Messages)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![Section::new(
            "RESPONSE",
            shown_response(response, false),
        )])
    }))
}

/// Tools whose results Groundedness cannot read as context.
const GROUNDEDNESS_UNSUPPORTED: &[&str] = &[
    "bing_custom_search",
    "bing_grounding",
    "browser_automation",
    "code_interpreter_call",
    "computer_call",
    "openapi_call",
    "web_search",
    "azure_ai_search",
    "azure_fabric",
    "sharepoint_grounding",
];

/// The reference's marker for "no context" in agent inputs.
const NO_CONTEXT: &str = "<>";

fn groundedness(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    let checks = Checks {
        requires_query: render::truthy(inputs.get("query")),
        unsupported: GROUNDEDNESS_UNSUPPORTED,
        target: "GroundednessEvaluator",
    };
    conversation_or_query_response(inputs, checks)?;
    let converted =
        if render::truthy(inputs.get("context")) || render::truthy(inputs.get("conversation")) {
            convert(inputs, judge.class, &GROUNDEDNESS, Hoist::No)?
        } else {
            vec![agent_groundedness(inputs, judge.class)?]
        };
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        let context = match arg(input, "context") {
            Some(Value::String(text)) if text == NO_CONTEXT => {
                "(none given: the tool results in the RESPONSE are its sources)".to_owned()
            }
            Some(context) => shown_context(context),
            None => String::new(),
        };
        let mut sections = vec![Section::new("CONTEXT", context)];
        if let Some(query) = arg(input, "query") {
            sections.push(Section::new(
                "QUERY",
                shown_conversation(Some(query), false, false),
            ));
        }
        sections.push(Section::new("RESPONSE", shown_response(response, true)));
        Ok(sections)
    }))
}

/// Groundedness without a context: a query and a response are required, and the context comes
/// from the response itself (text), or from its `file_search` results (message lists).
fn agent_groundedness(inputs: &Inputs<'_>, class: &str) -> Result<EvalInput, Early> {
    let given = |name: &str| inputs.get(name).filter(|value| render::truthy(Some(value)));
    let (Some(query), Some(response)) = (given("query"), given("response")) else {
        return Err(rejected(format!(
            "{class}: Either 'conversation' or individual inputs must be provided. For Agent \
             groundedness 'query' and 'response' are required."
        )));
    };
    let mut input = EvalInput::new();
    input.insert("query".to_owned(), query.clone());
    if let Value::String(_) = response {
        input.insert("response".to_owned(), response.clone());
        input.insert("context".to_owned(), response.clone());
        return Ok(input);
    }
    let context = file_search_context(response);
    let single = |value: &Value| match value {
        Value::String(_) => true,
        Value::Array(list) => list.len() == 1,
        _ => false,
    };
    let has_context = context != NO_CONTEXT;
    if !has_context && single(response) && single(query) {
        return Err(not_applicable(&format!(
            "{class}: No valid context provided or could be extracted from the query or response. \
             Please either provide valid context or pass the full items list for 'response' and \
             'query' to extract context from tool calls."
        )));
    }
    let response = if has_context {
        without_file_search_results(response)
    } else {
        response.clone()
    };
    input.insert("response".to_owned(), response);
    input.insert("context".to_owned(), Value::from(context));
    Ok(input)
}

/// `_get_context_from_agent_response`: `"<file>:\n- <text>---\n\n"` per text of each
/// `file_search` result, joined by `\n`; the marker `<>` when there is none, or where the
/// reference's extraction fails on the shape of a result.
fn file_search_context(response: &Value) -> String {
    file_search_lines(response)
        .filter(|lines| !lines.is_empty())
        .map_or_else(|| NO_CONTEXT.to_owned(), |lines| lines.join("\n"))
}

fn file_search_lines(response: &Value) -> Option<Vec<String>> {
    let mut lines = Vec::new();
    for call in parse_tool_calls(response).ok()? {
        if !matches!(call.get("name"), Some(Value::String(name)) if name == "file_search") {
            continue;
        }
        let results: &[Value] = match call.get("tool_result") {
            None => &[],
            Some(Value::Array(results)) => results,
            Some(Value::Object(map)) if map.is_empty() => &[],
            Some(Value::String(text)) if text.is_empty() => &[],
            Some(_) => return None,
        };
        for result in results {
            let entries: Vec<&Map<String, Value>> = match result {
                Value::Array(list) => list.iter().map(Value::as_object).collect::<Option<_>>()?,
                other => vec![other.as_object()?],
            };
            for entry in entries {
                let file = entry
                    .get("file_name")
                    .map_or_else(|| "Unknown file name".to_owned(), render::py_str);
                let parts: &[Value] = match entry.get("content") {
                    None => &[],
                    Some(Value::Array(parts)) => parts,
                    Some(Value::Object(map)) if map.is_empty() => &[],
                    Some(Value::String(text)) if text.is_empty() => &[],
                    Some(_) => return None,
                };
                for part in parts {
                    let text = part.as_object()?.get("text");
                    if let Some(text) = text.filter(|text| render::truthy(Some(text))) {
                        lines.push(format!("{file}:\n- {}---\n\n", render::py_str(text)));
                    }
                }
            }
        }
    }
    Some(lines)
}

/// The response without the tool messages that answered `file_search` calls.
fn without_file_search_results(response: &Value) -> Value {
    let ids: Vec<Value> = parse_tool_calls(response)
        .unwrap_or_default()
        .iter()
        .filter(
            |call| matches!(call.get("name"), Some(Value::String(name)) if name == "file_search"),
        )
        .map(|call| call.get("tool_call_id").cloned().unwrap_or(Value::Null))
        .collect();
    let Value::Array(list) = response else {
        return response.clone();
    };
    Value::Array(
        list.iter()
            .filter(|message| {
                !(message.get("role").and_then(Value::as_str) == Some("tool")
                    && ids.contains(message.get("tool_call_id").unwrap_or(&Value::Null)))
            })
            .cloned()
            .collect(),
    )
}

fn similarity(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    let truth = ground_truth(inputs);
    let converted = if inputs.get("conversation").is_some() || inputs.get("messages").is_some() {
        convert(inputs, judge.class, &SIMILARITY, Hoist::Messages)?
    } else {
        for (name, value) in [
            ("query", inputs.get("query")),
            ("response", inputs.get("response")),
            ("ground_truth", truth),
        ] {
            if value.is_none() {
                return Err(rejected(format!(
                    "Either 'conversation' or individual inputs must be provided. '{name}' is missing."
                )));
            }
        }
        convert(inputs, judge.class, &SIMILARITY, Hoist::No)?
    };
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![
            Section::new(
                "QUERY",
                shown_conversation(arg(input, "query"), false, false),
            ),
            Section::new("EXPECTED_RESPONSE", shown_text(arg(input, "ground_truth"))),
            Section::new("RESPONSE", shown_response(response, false)),
        ])
    }))
}

fn retrieval(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    let converted = convert(inputs, judge.class, &RETRIEVAL, Hoist::Messages)?;
    Ok(turns(converted, |input| {
        Ok(vec![
            Section::new(
                "QUERY",
                shown_conversation(arg(input, "query"), false, false),
            ),
            Section::new(
                "CONTEXT",
                arg(input, "context").map(shown_context).unwrap_or_default(),
            ),
        ])
    }))
}

fn response_completeness(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    let converted = convert(inputs, judge.class, &COMPLETENESS, Hoist::Messages)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![
            Section::new("EXPECTED_RESPONSE", shown_text(arg(input, "ground_truth"))),
            Section::new("RESPONSE", shown_response(response, false)),
        ])
    }))
}

fn intent_resolution(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    conversation_or_query_response(inputs, Checks::plain(true))?;
    check_definitions(inputs, true)?;
    let converted = convert(inputs, judge.class, &AGENT, Hoist::No)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![
            Section::new(
                "CONVERSATION",
                shown_conversation(arg(input, "query"), false, false),
            ),
            Section::new("RESPONSE", shown_response(response, false)),
        ])
    }))
}

fn task_adherence(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    conversation_or_query_response(inputs, Checks::plain(true))?;
    check_definitions(inputs, true)?;
    let converted = convert(inputs, judge.class, &AGENT, Hoist::No)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        Ok(vec![
            Section::new(
                "CONVERSATION",
                shown_conversation(arg(input, "query"), true, false),
            ),
            Section::new("RESPONSE", shown_response(response, true)),
        ])
    }))
}

fn task_completion(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    conversation_or_query_response(inputs, Checks::plain(true))?;
    check_definitions(inputs, true)?;
    let converted = convert(inputs, judge.class, &AGENT, Hoist::No)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        let mut sections = vec![
            Section::new(
                "CONVERSATION",
                shown_conversation(arg(input, "query"), true, false),
            ),
            Section::new("RESPONSE", shown_response(response, true)),
        ];
        if let Some(definitions) =
            arg(input, "tool_definitions").filter(|d| render::truthy(Some(d)))
        {
            sections.push(Section::new(
                "TOOL_DEFINITIONS",
                render::definitions_summary(definitions),
            ));
        }
        Ok(sections)
    }))
}

/// The tool calls, and the definitions they need, of the three tool judges; the not-applicable
/// result where there are none, or a called tool has no definition.
struct ToolUse {
    calls: Value,
    definitions: Value,
}

/// `_convert_kwargs_to_eval_input` of ToolCallAccuracy and ToolSelection: the calls of the
/// response (`tool_call` items only), else `tool_calls`, else a text response.
fn calls_and_definitions(inputs: &Inputs<'_>, no_definitions: &str) -> Result<ToolUse, Early> {
    let response = inputs.get("response").filter(|r| render::truthy(Some(r)));
    let mut calls = inputs.get("tool_calls").cloned();
    if let Some(response) = response {
        let parsed = tool_calls_of(response)?;
        if !parsed.is_empty() {
            calls = Some(Value::Array(
                parsed.into_iter().map(Value::Object).collect(),
            ));
        }
    }
    let calls = match calls.filter(|calls| render::truthy(Some(calls))) {
        Some(calls) => calls,
        None => match response {
            Some(text @ Value::String(_)) => text.clone(),
            _ => return Err(not_applicable(NO_TOOL_CALLS)),
        },
    };
    needed_definitions(inputs, calls, no_definitions)
}

fn needed_definitions(
    inputs: &Inputs<'_>,
    calls: Value,
    no_definitions: &str,
) -> Result<ToolUse, Early> {
    let calls = match calls {
        list @ (Value::Array(_) | Value::String(_)) => list,
        other => Value::Array(vec![other]),
    };
    let definitions = match inputs.get("tool_definitions") {
        Some(list @ (Value::Array(_) | Value::String(_))) => list.clone(),
        Some(other) if render::truthy(Some(other)) => Value::Array(vec![other.clone()]),
        _ => Value::Array(Vec::new()),
    };
    let needed = match (&calls, &definitions) {
        (Value::Array(calls), Value::Array(definitions)) => {
            match definitions_for(calls, definitions) {
                Ok(needed) => Value::Array(needed),
                Err(()) if definitions.is_empty() => {
                    return Err(not_applicable(no_definitions));
                }
                Err(()) => return Err(not_applicable(DEFINITIONS_MISSING)),
            }
        }
        _ => definitions,
    };
    if !render::truthy(Some(&needed)) {
        return Err(not_applicable(no_definitions));
    }
    Ok(ToolUse {
        calls,
        definitions: needed,
    })
}

/// `_extract_needed_tool_definitions`: the user's definitions plus those of the built-in tools
/// called; `Err` when a called tool has none (or a call is not a named `tool_call`).
fn definitions_for(calls: &[Value], definitions: &[Value]) -> Result<Vec<Value>, ()> {
    let mut needed: Vec<Value> = definitions.to_vec();
    for call in calls {
        if call.get("type").and_then(Value::as_str) == Some("tool_call") {
            if let Some(built_in) = call
                .get("name")
                .and_then(Value::as_str)
                .and_then(built_in_definition)
            {
                if !needed.contains(&built_in) {
                    needed.push(built_in);
                }
            }
        }
    }
    let mut expanded: Vec<&Value> = Vec::new();
    for tool in &needed {
        let functions = tool
            .get("functions")
            .filter(|_| tool.get("type").and_then(Value::as_str) == Some("openapi"))
            .filter(|functions| render::truthy(Some(functions)));
        match functions {
            Some(Value::Array(functions)) => expanded.extend(functions),
            _ => expanded.push(tool),
        }
    }
    for call in calls {
        let Some(call) = call.as_object() else {
            return Err(());
        };
        if call.get("type").and_then(Value::as_str) != Some("tool_call") {
            return Err(());
        }
        let name = call
            .get("name")
            .filter(|name| render::truthy(Some(name)))
            .ok_or(())?;
        if name.as_str().and_then(built_in_definition).is_some() {
            continue;
        }
        if !expanded.iter().any(|tool| tool.get("name") == Some(name)) {
            return Err(());
        }
    }
    Ok(needed)
}

/// The reference's definitions of the built-in tools (`_converters/_models.py`).
fn built_in_definition(name: &str) -> Option<Value> {
    let (description, parameters) = match name {
        "code_interpreter" => (
            "Use code interpreter to read and interpret information from datasets, generate code, and create graphs and charts using your data. Supports up to 20 files.",
            crate::json!({"type": "object", "properties": {}}),
        ),
        "bing_grounding" => (
            "Enhance model output with web data.",
            crate::json!({"type": "object", "properties": {"requesturl": {"type": "string", "description": "URL used in Bing Search API."}}}),
        ),
        "bing_custom_search" => (
            "Enables agents to retrieve content from a curated subset of websites, enhancing relevance and reducing noise from public web searches.",
            crate::json!({"type": "object", "properties": {"requesturl": {"type": "string", "description": "URL used in Bing Search API."}}}),
        ),
        "file_search" => (
            "Search for data across uploaded files. A single call can return multiple results/files in the 'results' field.",
            crate::json!({"type": "object", "properties": {"ranking_options": {"type": "object", "properties": {"ranker": {"type": "string", "description": "Ranking algorithm to use."}, "score_threshold": {"type": "number", "description": "Threshold for search results."}}, "description": "Ranking options for search results."}}}),
        ),
        "azure_ai_search" => (
            "Search an Azure AI Search index for relevant data.",
            crate::json!({"type": "object", "properties": {"input": {"type": "string", "description": "Search terms to use."}}}),
        ),
        "sharepoint_grounding" => (
            "Allows agents to access and retrieve relevant content from Microsoft SharePoint document libraries, grounding responses in organizational knowledge.",
            crate::json!({"type": "object", "properties": {"input": {"type": "string", "description": "A natural language query to search SharePoint content."}}}),
        ),
        "fabric_dataagent" => (
            "Connect to Microsoft Fabric data agents to retrieve data across different data sources.",
            crate::json!({"type": "object", "properties": {"input": {"type": "string", "description": "Search terms to use."}}}),
        ),
        _ => return None,
    };
    Some(
        crate::json!({"type": name, "description": description, "name": name, "parameters": parameters}),
    )
}

fn tool_call_accuracy(inputs: &Inputs<'_>, _judge: &Judge) -> Result<Vec<Turn>, Early> {
    check_tool_calls_inputs(inputs)?;
    let tools = match calls_and_definitions(
        inputs,
        "Tool definitions input is required but not provided",
    ) {
        Ok(tools) => tools,
        Err(early) => return Ok(vec![Err(early)]),
    };
    Ok(vec![Ok(vec![
        Section::new(
            "CONVERSATION",
            shown_conversation(inputs.get("query"), true, true),
        ),
        Section::new("TOOL_CALLS", render::call_list(&tools.calls)),
        Section::new(
            "TOOL_DEFINITIONS",
            render::definitions_json(&tools.definitions),
        ),
    ])])
}

fn tool_selection(inputs: &Inputs<'_>, _judge: &Judge) -> Result<Vec<Turn>, Early> {
    check_tool_calls_inputs(inputs)?;
    let tools = match calls_and_definitions(inputs, "Tool definitions must be provided.") {
        Ok(tools) => tools,
        Err(early) => return Ok(vec![Err(early)]),
    };
    let names = match &tools.calls {
        Value::Array(calls) => calls
            .iter()
            .filter_map(called_name)
            .collect::<Vec<_>>()
            .join("\n"),
        other => render::readable(other),
    };
    Ok(vec![Ok(vec![
        Section::new(
            "CONVERSATION",
            shown_conversation(inputs.get("query"), true, true),
        ),
        Section::new("TOOL_CALLS", names),
        Section::new(
            "TOOL_DEFINITIONS",
            render::definitions_json(&tools.definitions),
        ),
    ])])
}

/// `_extract_tool_names_from_calls` for one call.
fn called_name(call: &Value) -> Option<String> {
    let call = call.as_object()?;
    let truthy_text = |value: Option<&Value>| {
        value
            .filter(|v| render::truthy(Some(v)))
            .map(render::py_str)
    };
    if call.get("type").and_then(Value::as_str) == Some("tool_call") {
        return truthy_text(call.get("name"));
    }
    truthy_text(
        call.get("function")
            .and_then(|function| function.get("name")),
    )
    .or_else(|| truthy_text(call.get("name")))
}

fn tool_input_accuracy(inputs: &Inputs<'_>, _judge: &Judge) -> Result<Vec<Turn>, Early> {
    conversation_or_query_response(inputs, Checks::plain(true))?;
    check_definitions(inputs, false)?;
    let Some(response) = inputs.get("response").filter(|r| render::truthy(Some(r))) else {
        return Ok(vec![Err(not_applicable(
            "Response parameter is required to extract tool calls.",
        ))]);
    };
    let parsed = tool_calls_of(response)?;
    let calls = if !parsed.is_empty() {
        Value::Array(parsed.into_iter().map(Value::Object).collect())
    } else if response.is_string() {
        response.clone()
    } else {
        return Ok(vec![Err(not_applicable(NO_TOOL_CALLS))]);
    };
    let tools = match needed_definitions(inputs, calls, "Tool definitions must be provided.") {
        Ok(tools) => tools,
        Err(early) => return Ok(vec![Err(early)]),
    };
    if inputs.get("query").is_none() {
        return Err(rejected(
            "Query is a required input to the Tool Input Accuracy evaluator.",
        ));
    }
    let calls = match &tools.calls {
        Value::String(text) => text.clone(),
        _ => render::agent_response(response, true),
    };
    Ok(vec![Ok(vec![
        Section::new(
            "CONVERSATION",
            shown_conversation(inputs.get("query"), true, true),
        ),
        Section::new("TOOL_CALLS", calls),
        Section::new(
            "TOOL_DEFINITIONS",
            render::definitions_json(&tools.definitions),
        ),
    ])])
}

fn tool_output_utilization(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    let checks = Checks {
        requires_query: true,
        unsupported: UNSUPPORTED_TOOLS,
        target: "ToolOutputUtilizationEvaluator",
    };
    conversation_or_query_response(inputs, checks)?;
    check_definitions(inputs, false)?;
    let converted = convert(inputs, judge.class, &TOOL_OUTPUT, Hoist::No)?;
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        let query = arg(input, "query").map(render::preprocess);
        let response = response.map(render::preprocess);
        let definitions = match arg(input, "tool_definitions") {
            Some(text @ Value::String(_)) => text.clone(),
            Some(definitions) => match (&query, &response) {
                (Some(query @ Value::Array(_)), Some(response @ Value::Array(_))) => {
                    render::used_tool_definitions(definitions, &[query, response])
                }
                _ => definitions.clone(),
            },
            None => Value::Null,
        };
        Ok(vec![
            Section::new(
                "CONVERSATION",
                shown_conversation(query.as_ref(), true, true),
            ),
            Section::new("RESPONSE", shown_response(response.as_ref(), true)),
            Section::new(
                "TOOL_DEFINITIONS",
                render::definitions_summary(&definitions),
            ),
        ])
    }))
}

fn tool_call_success(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
    let checks = Checks {
        requires_query: false,
        unsupported: UNSUPPORTED_TOOLS,
        target: "_ToolCallSuccessEvaluator",
    };
    conversation_or_query_response(inputs, checks)?;
    check_definitions(inputs, true)?;
    let converted = convert(inputs, judge.class, &TOOL_CALL_SUCCESS, Hoist::No)?;
    if inputs.get("conversation").is_some() {
        // NOTE: a conversation's turns carry no `tool_definitions`, which this evaluator's
        // prompty requires (`_tool_call_success/tool_call_success.prompty`).
        return Err(rejected("Missing required inputs: ['tool_definitions']"));
    }
    Ok(turns(converted, |input| {
        let response = arg(input, "response");
        not_intermediate(response)?;
        let (calls, definitions) = match response {
            None => {
                return Err(rejected(
                    "response cannot be None or empty for the Tool Call Success evaluator.",
                ))
            }
            Some(Value::Array(list)) if list.is_empty() => {
                return Err(rejected(
                    "response cannot be None or empty for the Tool Call Success evaluator.",
                ));
            }
            Some(list @ Value::Array(_)) => {
                let messages = render::preprocess(list);
                let calls = render::tool_call_results(&messages)
                    .unwrap_or_else(|| render::readable(&messages));
                let definitions =
                    arg(input, "tool_definitions").map(|definitions| match definitions {
                        Value::String(_) => definitions.clone(),
                        _ => render::used_tool_definitions(definitions, &[&messages]),
                    });
                (calls, definitions)
            }
            Some(Value::String(text)) => (text.clone(), arg(input, "tool_definitions").cloned()),
            Some(_) => {
                return Err(rejected(
                    "response must be either a list of messages or a string.",
                ))
            }
        };
        let mut sections = vec![Section::new("TOOL_CALLS", calls)];
        if let Some(definitions) = definitions {
            sections.push(Section::new(
                "TOOL_DEFINITIONS",
                render::definitions_summary(&definitions),
            ));
        }
        Ok(sections)
    }))
}

// --- what the judge is shown ------------------------------------------------------------------

fn shown_conversation(query: Option<&Value>, with_system: bool, with_tools: bool) -> String {
    query.map_or_else(String::new, |query| {
        render::conversation(query, with_system, with_tools)
    })
}

fn shown_response(response: Option<&Value>, with_tools: bool) -> String {
    response.map_or_else(String::new, |response| {
        render::agent_response(response, with_tools)
    })
}

fn shown_text(value: Option<&Value>) -> String {
    value.map(render::readable).unwrap_or_default()
}

/// A context: text as it is, a conversation's contexts (`global_context`, `query_context`,
/// `response_context`) one per paragraph, other JSON as JSON.
fn shown_context(context: &Value) -> String {
    match context {
        Value::Object(map) if map.is_empty() => "(none given)".to_owned(),
        Value::Object(map) if map.keys().all(|key| key.ends_with("_context")) => map
            .iter()
            .map(|(key, value)| format!("{}:\n{}", key.replace('_', " "), render::readable(value)))
            .collect::<Vec<_>>()
            .join("\n\n"),
        Value::Array(list) if list.iter().all(Value::is_string) => list
            .iter()
            .map(render::py_str)
            .collect::<Vec<_>>()
            .join("\n\n"),
        other => render::readable(other),
    }
}

// --- results reached without a call -----------------------------------------------------------

/// An input the reference rejects, with its message (without `(UserError) `).
fn rejected(message: impl Into<String>) -> Early {
    Box::new(EvalResult::error("", ErrorCode::EvaluatorError, message))
}

fn not_applicable(why: &str) -> Early {
    Box::new(EvalResult::skipped("", format!("Not applicable: {why}")))
}

/// An input the reference fails on (a raw Python error) that agenteval does not judge either.
fn unsupported_input(message: impl Into<String>) -> Early {
    Box::new(EvalResult::error(
        "",
        ErrorCode::EvaluatorConfigurationError,
        message,
    ))
}

fn not_intermediate(response: Option<&Value>) -> Result<(), Early> {
    if response.is_some_and(render::is_intermediate) {
        return Err(not_applicable(INTERMEDIATE));
    }
    Ok(())
}

/// `ground_truth`, or an M365 item's `expected_response`.
fn ground_truth<'a>(inputs: &Inputs<'a>) -> Option<&'a Value> {
    inputs
        .get("ground_truth")
        .or_else(|| inputs.get("expected_response"))
}

// --- from the item's inputs to the evaluations (`_convert_kwargs_to_eval_input`) --------------

/// How the reference's base `_convert_kwargs_to_eval_input` reads an evaluator's inputs: the
/// input names of each of its `__call__` overloads (those without `conversation`), and which of
/// them are optional.
struct Signature {
    overloads: &'static [&'static [&'static str]],
    optional: &'static [&'static str],
}

const QUERY_RESPONSE: Signature = Signature {
    overloads: &[&["query", "response"]],
    optional: &[],
};
const RESPONSE_ONLY: Signature = Signature {
    overloads: &[&["response"]],
    optional: &[],
};
const GROUNDEDNESS: Signature = Signature {
    overloads: &[
        &["response", "context", "query"],
        &["query", "response", "tool_definitions"],
    ],
    optional: &["query"],
};
const SIMILARITY: Signature = Signature {
    overloads: &[&["query", "response", "ground_truth"]],
    optional: &[],
};
const RETRIEVAL: Signature = Signature {
    overloads: &[&["query", "context"]],
    optional: &[],
};
const COMPLETENESS: Signature = Signature {
    overloads: &[&["ground_truth", "response"]],
    optional: &[],
};
const AGENT: Signature = Signature {
    overloads: &[&["query", "response", "tool_definitions"]],
    optional: &["tool_definitions"],
};
const TOOL_OUTPUT: Signature = Signature {
    overloads: &[&["query", "response", "tool_definitions"]],
    optional: &[],
};
const TOOL_CALL_SUCCESS: Signature = Signature {
    overloads: &[&["response", "tool_definitions"]],
    optional: &["tool_definitions"],
};

/// Whether the evaluator promotes a `messages` input to a conversation
/// (`hoist_messages_to_conversation`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hoist {
    Messages,
    No,
}

impl Signature {
    fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for name in self.overloads.iter().flat_map(|overload| overload.iter()) {
            if !names.contains(name) {
                names.push(name);
            }
        }
        names
    }

    /// `_get_matching_overload_inputs`: the overload all of whose inputs are given (the largest),
    /// else the one sharing most inputs with those given.
    fn matching(&self, given: &[&str]) -> &'static [&'static str] {
        let mut best: Option<(&'static [&'static str], usize)> = None;
        for overload in self.overloads {
            let larger = match best {
                None => true,
                Some((_, size)) => overload.len() > size,
            };
            if larger && overload.iter().all(|name| given.contains(name)) {
                best = Some((overload, overload.len()));
            }
        }
        if let Some((overload, _)) = best {
            return overload;
        }
        let mut best_overlap: Option<(&'static [&'static str], usize)> = None;
        for overload in self.overloads {
            let overlap = overload.iter().filter(|name| given.contains(name)).count();
            let larger = match best_overlap {
                None => true,
                Some((_, size)) => overlap > size,
            };
            if larger {
                best_overlap = Some((overload, overlap));
            }
        }
        best_overlap.map_or(&[], |(overload, _)| overload)
    }
}

/// The evaluations the reference makes of an item: one from its named inputs, or one per turn of
/// its `conversation` (or of its `messages`, for the evaluators that promote them).
fn convert(
    inputs: &Inputs<'_>,
    class: &str,
    signature: &Signature,
    hoist: Hoist,
) -> Result<Vec<EvalInput>, Early> {
    let mut conversation = inputs.get("conversation").cloned();
    let mut taken: Vec<&str> = Vec::new();
    if hoist == Hoist::Messages && conversation.is_none() {
        if let Some(messages) = inputs.get("messages") {
            conversation = Some(promoted_messages(inputs, messages));
            taken.extend(["context", "tool_definitions", "ground_truth"]);
        }
    }
    let value_of = |name: &str| -> Option<&Value> {
        if taken.contains(&name) {
            return None;
        }
        match name {
            "ground_truth" => ground_truth(inputs),
            _ => inputs.get(name),
        }
    };
    let names = signature.names();
    if let Some(conversation) = conversation {
        if names.iter().any(|name| render::truthy(value_of(name))) {
            return Err(rejected(format!(
                "{class}: Cannot provide both 'conversation' and individual inputs at the same time."
            )));
        }
        return conversation_turns(&conversation, class, &names);
    }
    let given: Vec<&str> = names
        .iter()
        .copied()
        .filter(|name| value_of(name).is_some())
        .collect();
    let matching = signature.matching(&given);
    let complete = matching
        .iter()
        .filter(|name| !signature.optional.contains(name))
        .all(|name| given.contains(name));
    if matching.is_empty() || !complete {
        return Err(rejected(format!(
            "{class}: Either 'conversation' or individual inputs must be provided."
        )));
    }
    let mut input = EvalInput::new();
    for name in names {
        input.insert(
            name.to_owned(),
            value_of(name).cloned().unwrap_or(Value::Null),
        );
    }
    Ok(vec![input])
}

/// `hoist_messages_to_conversation`: `{messages, context?, tool_definitions?}`, the item's
/// `ground_truth` written on each assistant message without one.
fn promoted_messages(inputs: &Inputs<'_>, messages: &Value) -> Value {
    let mut conversation = Map::new();
    let messages = match (messages, ground_truth(inputs)) {
        (Value::Array(list), Some(truth)) => Value::Array(
            list.iter()
                .map(|message| match message {
                    Value::Object(map)
                        if map.get("role").and_then(Value::as_str) == Some("assistant")
                            && !map.contains_key("ground_truth") =>
                    {
                        let mut map = map.clone();
                        map.insert("ground_truth".to_owned(), truth.clone());
                        Value::Object(map)
                    }
                    other => other.clone(),
                })
                .collect(),
        ),
        (other, _) => other.clone(),
    };
    conversation.insert("messages".to_owned(), messages);
    for name in ["context", "tool_definitions"] {
        if let Some(value) = inputs.get(name) {
            conversation.insert(name.to_owned(), value.clone());
        }
    }
    Value::Object(conversation)
}

/// `_derive_conversation_converter`: one evaluation per user message paired (in order) with an
/// assistant message, reading the inputs the evaluator takes.
fn conversation_turns(
    conversation: &Value,
    class: &str,
    names: &[&str],
) -> Result<Vec<EvalInput>, Early> {
    let broken = || {
        unsupported_input(format!(
            "{class}: the conversation must be an object whose 'messages' is a list of message \
             objects, each with a 'role' (the reference fails on this input)"
        ))
    };
    let messages = conversation
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(broken)?;
    if is_multi_modal(messages) {
        return Err(multi_modal(messages, class));
    }
    let mut queries = Vec::new();
    let mut responses = Vec::new();
    for message in messages {
        let message = message
            .as_object()
            .filter(|m| m.contains_key("role"))
            .ok_or_else(broken)?;
        match message.get("role").and_then(Value::as_str) {
            Some("user") => queries.push(message),
            Some("assistant") => responses.push(message),
            _ => {}
        }
    }
    let include = |name: &str| names.contains(&name);
    let global = conversation
        .get("context")
        .filter(|c| render::truthy(Some(c)));
    let turns: Vec<EvalInput> = queries
        .iter()
        .zip(&responses)
        .map(|(query, response)| {
            let mut input = EvalInput::new();
            let text = |message: &Map<String, Value>| {
                message
                    .get("content")
                    .cloned()
                    .unwrap_or_else(|| Value::from(""))
            };
            if include("query") {
                input.insert("query".to_owned(), text(query));
            }
            if include("response") {
                input.insert("response".to_owned(), text(response));
            }
            if include("context") {
                let mut context = Map::new();
                if let Some(global) = global {
                    context.insert("global_context".to_owned(), global.clone());
                }
                let own = |message: &Map<String, Value>| {
                    message
                        .get("context")
                        .filter(|c| render::truthy(Some(c)))
                        .cloned()
                };
                if let Some(own) = own(query).filter(|_| include("query")) {
                    context.insert("query_context".to_owned(), own);
                }
                if let Some(own) = own(response).filter(|_| include("response")) {
                    context.insert("response_context".to_owned(), own);
                }
                input.insert("context".to_owned(), Value::Object(context));
            }
            if include("ground_truth") {
                let truth = response.get("ground_truth").cloned();
                input.insert(
                    "ground_truth".to_owned(),
                    truth.unwrap_or_else(|| Value::from("")),
                );
            }
            input
        })
        .collect();
    if turns.is_empty() {
        return Err(unsupported_input(format!(
            "{class}: the conversation has no user message answered by an assistant message, so \
             there is nothing to evaluate"
        )));
    }
    Ok(turns)
}

/// `_is_multi_modal_conversation`: a content item `{"type": "image_url", "image_url": {"url"…}}`.
fn is_multi_modal(messages: &[Value]) -> bool {
    messages.iter().any(|message| {
        message
            .get("content")
            .and_then(Value::as_array)
            .is_some_and(|items| {
                items.iter().any(|item| {
                    item.get("type").and_then(Value::as_str) == Some("image_url")
                        && item
                            .get("image_url")
                            .and_then(Value::as_object)
                            .is_some_and(|image| image.contains_key("url"))
                })
            })
    })
}

/// What the reference says of a conversation with images (its multi-modal path, which these
/// evaluators do not judge).
fn multi_modal(messages: &[Value], class: &str) -> Early {
    let count = |role: &str| {
        messages
            .iter()
            .filter(|message| message.get("role").and_then(Value::as_str) == Some(role))
            .count()
    };
    let (users, assistants) = (count("user"), count("assistant"));
    if users != assistants {
        return rejected("Mismatched number of user and assistant messages.");
    }
    if assistants > 1 {
        return rejected("Conversation can have only one assistant message.");
    }
    if class == "ResponseCompletenessEvaluator" {
        return rejected(
            "Both ground_truth and response must be provided as input to the completeness evaluator.",
        );
    }
    rejected("Only text conversation inputs are supported.")
}

/// `_parse_tools_from_response`: the `tool_call` items of the assistant messages, each with the
/// `tool_result` of the tool message answering it (the first content item, a `tool_result`).
///
/// # Errors
/// Where the reference fails: a message that is not an object, or a call answered by a
/// `tool_result` item without a `tool_result` member.
fn parse_tool_calls(response: &Value) -> Result<Vec<Map<String, Value>>, String> {
    let Value::Array(messages) = response else {
        return Ok(Vec::new());
    };
    let mut calls = Vec::new();
    let mut results: Vec<(&Value, Option<&Value>)> = Vec::new();
    for message in messages {
        if !message.is_object() {
            return Err("a response message is not an object".to_owned());
        }
        let role = message.get("role").and_then(Value::as_str);
        if role == Some("assistant") {
            for item in message
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if item.get("type").and_then(Value::as_str) == Some("tool_call") {
                    if let Some(item) = item.as_object() {
                        calls.push(item.clone());
                    }
                }
            }
        } else if role == Some("tool") {
            let Some(id) = message
                .get("tool_call_id")
                .filter(|id| render::truthy(Some(id)))
            else {
                continue;
            };
            let first = message
                .get("content")
                .and_then(Value::as_array)
                .and_then(|items| items.first());
            if let Some(first) =
                first.filter(|item| item.get("type").and_then(Value::as_str) == Some("tool_result"))
            {
                let result = first.get("tool_result");
                match results.iter_mut().find(|(known, _)| *known == id) {
                    Some(entry) => entry.1 = result,
                    None => results.push((id, result)),
                }
            }
        }
    }
    for call in &mut calls {
        let id = call.get("tool_call_id").cloned().unwrap_or(Value::Null);
        if let Some((_, result)) = results.iter().find(|(known, _)| **known == id) {
            let result = result.ok_or_else(|| {
                format!(
                    "the tool message answering call '{}' has a 'tool_result' item without a \
                     'tool_result' member",
                    render::py_str(&id)
                )
            })?;
            call.insert("tool_result".to_owned(), result.clone());
        }
    }
    Ok(calls)
}

/// [`parse_tool_calls`] for the tool judges, which do not catch the reference's failure.
fn tool_calls_of(response: &Value) -> Result<Vec<Map<String, Value>>, Early> {
    parse_tool_calls(response)
        .map_err(|why| unsupported_input(format!("{why} (the reference fails on it)")))
}

// --- the reference's validators (`_common/_validators/`) --------------------------------------

/// Tools most validators reject when asked to (`ConversationValidator.UNSUPPORTED_TOOLS`).
const UNSUPPORTED_TOOLS: &[&str] = &[
    "bing_custom_search",
    "bing_grounding",
    "browser_automation",
    "code_interpreter_call",
    "computer_call",
    "openapi_call",
    "web_search",
];

/// A `ConversationValidator`'s settings.
#[derive(Clone, Copy)]
struct Checks {
    requires_query: bool,
    /// Tool names rejected in assistant messages (none: no check).
    unsupported: &'static [&'static str],
    /// The evaluator its messages name (`ErrorTarget`).
    target: &'static str,
}

impl Checks {
    const fn plain(requires_query: bool) -> Self {
        Checks {
            requires_query,
            unsupported: &[],
            target: "",
        }
    }
}

/// A rejected input, and whether it was missing (the reference's `MISSING_FIELD` category).
struct Problem {
    message: String,
    missing: bool,
}

fn problem(message: impl Into<String>) -> Problem {
    Problem {
        message: message.into(),
        missing: false,
    }
}

fn early(problem: Problem) -> Early {
    rejected(problem.message)
}

/// `ConversationValidator.validate_eval_input`: a conversation when one is given, else the query
/// (when required) and the response.
fn conversation_or_query_response(inputs: &Inputs<'_>, checks: Checks) -> Result<(), Early> {
    if let Some(conversation) = inputs
        .get("conversation")
        .filter(|c| render::truthy(Some(c)))
    {
        let Value::Object(conversation) = conversation else {
            return Err(rejected("Conversation must be a dictionary."));
        };
        let messages = match conversation.get("messages") {
            None => {
                return Err(rejected(
                    "Each Conversation must contain a 'messages' field.",
                ))
            }
            Some(list @ Value::Array(_)) => list,
            Some(_) => {
                return Err(rejected(
                    "The 'messages' field must be a list in Conversation.",
                ))
            }
        };
        return check_message_list(Some(messages), "Conversation messages", checks).map_err(early);
    }
    if checks.requires_query {
        check_message_list(inputs.get("query"), "Query", checks).map_err(early)?;
    }
    check_message_list(inputs.get("response"), "Response", checks).map_err(early)
}

/// `MessagesOrQueryResponseInputValidator`: a `messages` list when one is given, else as
/// [`conversation_or_query_response`].
fn messages_or_conversation(inputs: &Inputs<'_>, checks: Checks) -> Result<(), Early> {
    let Some(messages) = inputs.get("messages") else {
        return conversation_or_query_response(inputs, checks);
    };
    let Value::Array(messages) = messages else {
        return Err(rejected(
            "messages must be provided as a list of message dictionaries.",
        ));
    };
    if messages.is_empty() {
        return Err(rejected("messages list must not be empty."));
    }
    let mut roles: Vec<&str> = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let Value::Object(message) = message else {
            return Err(rejected(format!(
                "Each item in 'messages' must be a dictionary, but item at index {index} is {}.",
                type_name(message)
            )));
        };
        let role = match message.get("role") {
            None | Some(Value::Null) => {
                return Err(rejected(format!("Each message must contain a 'role' key, but message at index {index} is missing it.")));
            }
            Some(role) => role,
        };
        const ROLES: [&str; 5] = ["assistant", "developer", "system", "tool", "user"];
        match role.as_str().filter(|role| ROLES.contains(role)) {
            Some(role) => roles.push(role),
            None if role.is_array() || role.is_object() => {
                return Err(unsupported_input(format!(
                    "messages: the role at message index {index} is not text (the reference fails on it)"
                )));
            }
            None => {
                return Err(rejected(format!(
                    "Invalid role '{}' at message index {index}. Must be one of: ['assistant', 'developer', 'system', 'tool', 'user'].",
                    render::py_str(role)
                )));
            }
        }
    }
    for role in ["user", "assistant"] {
        if !roles.contains(&role) {
            return Err(rejected(format!(
                "messages must contain at least one message with role '{role}'."
            )));
        }
    }
    Ok(())
}

/// `ToolDefinitionsValidator._validate_tool_definitions`.
fn check_definitions(inputs: &Inputs<'_>, optional: bool) -> Result<(), Early> {
    tool_definitions_problem(inputs.get("tool_definitions"), optional)
        .map_or(Ok(()), |message| Err(rejected(message)))
}

fn tool_definitions_problem(definitions: Option<&Value>, optional: bool) -> Option<String> {
    let definitions = match definitions {
        Some(definitions) if render::truthy(Some(definitions)) => definitions,
        _ if optional => return None,
        _ => return Some("Tool definitions input is required but not provided.".to_owned()),
    };
    let list = match definitions {
        Value::String(_) => return None,
        Value::Array(list) => list,
        _ => {
            return Some("Tool definitions must be provided as a list of dictionaries.".to_owned())
        }
    };
    for definition in list {
        let Value::Object(definition) = definition else {
            return Some("Each tool definition must be a dictionary.".to_owned());
        };
        if definition.get("type").and_then(Value::as_str) == Some("openapi") {
            let functions = match definition.get("functions") {
                None => {
                    return Some(
                        "Each openapi tool definition must contain a 'functions' field.".to_owned(),
                    )
                }
                Some(Value::Array(functions)) => functions,
                Some(_) => {
                    return Some(
                        "The 'functions' field must be a list in openapi tool definition."
                            .to_owned(),
                    )
                }
            };
            for function in functions {
                if let Some(problem) = tool_definition_problem(function) {
                    return Some(problem);
                }
            }
        } else if let Some(problem) = tool_definition_problem(&Value::Object(definition.clone())) {
            return Some(problem);
        }
    }
    None
}

fn tool_definition_problem(definition: &Value) -> Option<String> {
    let Value::Object(definition) = definition else {
        return Some("Each tool definition must be a dictionary.".to_owned());
    };
    field_problem(definition, "name", Kind::Text, "tool definitions")
        .or_else(|| field_problem(definition, "parameters", Kind::Object, "tool definitions"))
}

/// `ToolCallsValidator.validate_eval_input`: the query, the definitions (required), then the
/// response and `tool_calls`, of which one must be valid.
fn check_tool_calls_inputs(inputs: &Inputs<'_>) -> Result<(), Early> {
    check_message_list(inputs.get("query"), "Query", Checks::plain(true)).map_err(early)?;
    check_definitions(inputs, false)?;
    let response = check_message_list(inputs.get("response"), "Response", Checks::plain(true));
    let calls = tool_calls_problem(inputs.get("tool_calls"));
    match (response, calls) {
        (Err(response), Some(calls)) => Err(rejected(if response.missing {
            calls
        } else {
            response.message
        })),
        _ => Ok(()),
    }
}

fn tool_calls_problem(calls: Option<&Value>) -> Option<String> {
    let calls = match calls {
        Some(calls) if render::truthy(Some(calls)) => calls,
        _ => return Some(NO_TOOL_CALLS.to_owned()),
    };
    let list = match calls {
        Value::String(_) => return None,
        Value::Array(list) => list,
        _ => return Some("Tool calls must be provided as a list of dictionaries.".to_owned()),
    };
    for call in list {
        let Value::Object(call) = call.clone() else {
            return Some("Each tool call must be a dictionary.".to_owned());
        };
        if call.is_empty() {
            return Some("Each tool call must be a dictionary.".to_owned());
        }
        if let Some(problem) = tool_call_item_problem(&call) {
            return Some(problem);
        }
    }
    None
}

/// `_validate_input_messages_list`.
fn check_message_list(value: Option<&Value>, name: &str, checks: Checks) -> Result<(), Problem> {
    let missing = |message: String| Problem {
        message,
        missing: true,
    };
    let list = match value {
        None => {
            return Err(missing(format!(
                "{name} is a required input and cannot be None."
            )))
        }
        Some(Value::String(text)) if text.is_empty() => {
            return Err(missing(format!("{name} string cannot be empty.")));
        }
        Some(Value::String(_)) => return Ok(()),
        Some(Value::Array(list)) => list,
        Some(_) => {
            return Err(problem(format!(
                "{name} must be a string or a list of messages."
            )))
        }
    };
    if list.is_empty() {
        return Err(missing(format!("{name} list cannot be empty.")));
    }
    if !list.iter().all(Value::is_object) {
        return Err(problem(format!(
            "Each message in the {} list must be a dictionary.",
            name.to_lowercase()
        )));
    }
    for message in list.iter().filter_map(Value::as_object) {
        check_message(message, checks).map_err(problem)?;
    }
    Ok(())
}

/// `_validate_message_dict`.
fn check_message(message: &Map<String, Value>, checks: Checks) -> Result<(), String> {
    let Some(role) = message.get("role") else {
        return Err("Each message must contain a 'role' field.".to_owned());
    };
    let Some(content) = message.get("content") else {
        return Err("Each message must contain a 'content' field.".to_owned());
    };
    let items = match content {
        Value::String(text) if text.is_empty() => {
            return Err("The 'content' field can't be empty.".to_owned());
        }
        Value::String(_) => None,
        Value::Array(items)
            if items
                .iter()
                .all(|item| item.as_object().is_some_and(|item| !item.is_empty())) =>
        {
            Some(items)
        }
        _ => {
            return Err(
                "The 'content' field must be a string or a list of dictionaries messages."
                    .to_owned(),
            )
        }
    };
    if let Some(items) = items {
        if items.is_empty() {
            return Err("The 'content' field can't be empty.".to_owned());
        }
        if !items.iter().all(|item| item.get("type").is_some()) {
            return Err(
                "Each content item in the 'content' list must contain a 'type' field.".to_owned(),
            );
        }
    }
    let items: Vec<&Map<String, Value>> = items
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    match role.as_str() {
        Some(role @ ("user" | "system" | "developer")) => user_items_problem(&items, role),
        Some("assistant") => assistant_items_problem(&items, checks),
        Some("tool") => tool_message_problem(message, content, &items),
        _ => Ok(()),
    }
}

fn type_of(item: &Map<String, Value>) -> &Value {
    item.get("type").unwrap_or(&Value::Null)
}

fn user_items_problem(items: &[&Map<String, Value>], role: &str) -> Result<(), String> {
    for item in items {
        let kind = type_of(item);
        if !matches!(kind.as_str(), Some("text" | "input_text")) {
            return Err(format!(
                "Invalid content type '{}' for message with role '{role}'. Must be 'text' or 'input_text'.",
                render::py_str(kind)
            ));
        }
        text_item_problem(item, role)?;
    }
    Ok(())
}

fn text_item_problem(item: &Map<String, Value>, role: &str) -> Result<(), String> {
    match item.get("text") {
        None => Err(format!(
            "Each content item must contain a 'text' field for message with role '{role}'."
        )),
        Some(Value::String(_)) => Ok(()),
        Some(_) => Err("The 'text' field must be a string in content items.".to_owned()),
    }
}

fn assistant_items_problem(items: &[&Map<String, Value>], checks: Checks) -> Result<(), String> {
    const KINDS: [&str; 6] = [
        "text",
        "output_text",
        "tool_call",
        "function_call",
        "mcp_approval_request",
        "openapi_call",
    ];
    for item in items {
        let kind = type_of(item);
        let Some(kind) = kind.as_str().filter(|kind| KINDS.contains(kind)) else {
            return Err(format!(
                "Invalid content type '{}' for message with role 'assistant'. Must be one of ['text', 'output_text', 'tool_call', 'function_call', 'mcp_approval_request', 'openapi_call'].",
                render::py_str(kind)
            ));
        };
        match kind {
            // NOTE: the reference formats the role enum itself here, `MessageRole.ASSISTANT`
            // (`_conversation_validator.py`, `_validate_text_content_item`).
            "text" | "output_text" => text_item_problem(item, "MessageRole.ASSISTANT")?,
            "tool_call" | "function_call" | "openapi_call" => {
                if let Some(problem) = tool_call_item_problem(item) {
                    return Err(problem);
                }
            }
            _ => {}
        }
        if !checks.unsupported.is_empty() && matches!(kind, "tool_call" | "openapi_call") {
            let name = if kind == "openapi_call" {
                "openapi_call".to_owned()
            } else {
                item.get("name")
                    .and_then(Value::as_str)
                    .map(python::lower)
                    .unwrap_or_default()
            };
            if checks.unsupported.contains(&name.as_str()) {
                return Err(format!(
                    "{name} tool call is currently not supported for {} evaluator.",
                    checks.target
                ));
            }
        }
    }
    Ok(())
}

/// `_validate_tool_call_content_item`.
fn tool_call_item_problem(item: &Map<String, Value>) -> Option<String> {
    const KINDS: [&str; 4] = [
        "tool_call",
        "function_call",
        "openapi_call",
        "mcp_approval_request",
    ];
    let kind = item.get("type").and_then(Value::as_str);
    let Some(kind) = kind.filter(|kind| KINDS.contains(kind)) else {
        return Some("The content item must be of type ['tool_call', 'function_call', 'openapi_call', 'mcp_approval_request'] in tool_call content item.".to_owned());
    };
    if kind == "mcp_approval_request" {
        return None;
    }
    field_problem(item, "name", Kind::Text, "tool_call content items")
        .or_else(|| field_problem(item, "arguments", Kind::Object, "tool_call content items"))
        .or_else(|| field_problem(item, "tool_call_id", Kind::Text, "tool_call content items"))
}

fn tool_message_problem(
    message: &Map<String, Value>,
    content: &Value,
    items: &[&Map<String, Value>],
) -> Result<(), String> {
    if !content.is_array() {
        return Err(
            "The 'content' field must be a list of dictionaries messages for role 'tool'."
                .to_owned(),
        );
    }
    if let Some(problem) = field_problem(
        message,
        "tool_call_id",
        Kind::Text,
        "content items for role 'tool'",
    ) {
        return Err(problem);
    }
    const KINDS: [&str; 4] = [
        "tool_result",
        "function_call_output",
        "mcp_approval_response",
        "openapi_call_output",
    ];
    for item in items {
        let kind = type_of(item);
        let Some(kind) = kind.as_str().filter(|kind| KINDS.contains(kind)) else {
            return Err(format!(
                "Invalid content type '{}' for message with role 'tool'. Must be one of ['tool_result', 'function_call_output', 'mcp_approval_response', 'openapi_call_output'].",
                render::py_str(kind)
            ));
        };
        if kind != "mcp_approval_response" && !item.contains_key(kind) {
            return Err(format!(
                "Each content items for role 'tool' must contain a '{kind}' field."
            ));
        }
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum Kind {
    Text,
    Object,
}

/// `_validate_string_field` / `_validate_dict_field`.
fn field_problem(
    item: &Map<String, Value>,
    field: &str,
    kind: Kind,
    context: &str,
) -> Option<String> {
    let Some(value) = item.get(field) else {
        return Some(format!("Each {context} must contain a '{field}' field."));
    };
    match (kind, value) {
        (Kind::Text, Value::String(_)) | (Kind::Object, Value::Object(_)) => None,
        (Kind::Text, _) => Some(format!(
            "The '{field}' field must be a string in {context}."
        )),
        (Kind::Object, _) => Some(format!(
            "The '{field}' field must be a dictionary in {context}."
        )),
    }
}

/// Python's `type(x).__name__`.
fn type_name(value: &Value) -> &'static str {
    let class = python::class_name(value);
    class
        .strip_prefix("<class '")
        .and_then(|name| name.strip_suffix("'>"))
        .unwrap_or(class)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    /// What `builtin.<key>` makes of `inputs`: the sections of each call, or the result reached
    /// without one (the reference's outcome for the same inputs is noted at each case).
    fn prepare(key: &str, inputs: &Value) -> Result<Vec<Turn>, Early> {
        let judge = judge_for(key).unwrap();
        let mut named = Inputs::new();
        for (name, value) in inputs.as_object().unwrap() {
            named.set(name, value);
        }
        (judge.prepare)(&named, judge)
    }

    fn message(outcome: Result<Vec<Turn>, Early>) -> String {
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

    #[test]
    fn conversations_are_split_into_answered_turns() {
        let three = json!({"conversation": {"messages": [
            {"role": "user", "content": "a"}, {"role": "assistant", "content": "b"},
            {"role": "user", "content": "c"}, {"role": "assistant", "content": "d"},
            {"role": "user", "content": "e"}, {"role": "assistant", "content": "f"},
            {"role": "user", "content": "unanswered"}
        ]}});
        let turns = prepare("relevance", &three).unwrap();
        assert_eq!(turns.len(), 3);
        let last = turns[2].as_ref().unwrap();
        assert_eq!((last[0].text.as_str(), last[1].text.as_str()), ("e", "f"));
        // The reference returns an empty result here; agenteval says why there is none.
        let unanswered = json!({"conversation": {"messages": [{"role": "user", "content": "hi"}]}});
        let early = prepare("similarity", &unanswered).unwrap_err();
        assert_eq!(
            early.error.map(|error| error.code),
            Some(ErrorCode::EvaluatorConfigurationError)
        );
    }

    #[test]
    fn conversation_edge_cases_follow_the_reference() {
        let image = json!({"conversation": {"messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x/a.png"}}]},
            {"role": "assistant", "content": "A cat."}
        ]}});
        assert_eq!(
            message(prepare("similarity", &image)),
            "Only text conversation inputs are supported."
        );
        assert_eq!(
            message(prepare("response_completeness", &image)),
            "Both ground_truth and response must be provided as input to the completeness evaluator."
        );
        assert_eq!(
            message(prepare("relevance", &image)),
            "Invalid content type 'image_url' for message with role 'user'. Must be 'text' or 'input_text'."
        );
        let chat =
            json!([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]);
        let definitions = json!([{"name": "f", "parameters": {}}]);
        let with_definitions =
            json!({"conversation": {"messages": chat}, "tool_definitions": definitions});
        assert_eq!(
            message(prepare("tool_input_accuracy", &with_definitions)),
            "Not applicable: Response parameter is required to extract tool calls."
        );
        assert_eq!(
            message(prepare("tool_output_utilization", &with_definitions)),
            "_ToolOutputUtilizationEvaluator: Cannot provide both 'conversation' and individual inputs at the same time."
        );
        assert_eq!(
            message(prepare(
                "tool_call_success",
                &json!({"conversation": {"messages": chat}})
            )),
            "Missing required inputs: ['tool_definitions']"
        );
        // The reference crashes on these; agenteval says what it expected.
        let broken = prepare(
            "similarity",
            &json!({"messages": "hi", "ground_truth": "x"}),
        )
        .unwrap_err();
        assert_eq!(
            broken.error.map(|error| error.code),
            Some(ErrorCode::EvaluatorConfigurationError)
        );
    }

    #[test]
    fn validators_word_their_messages_as_the_reference() {
        let text_without_text = json!({"query": "q", "response": [{"role": "assistant", "content": [{"type": "text"}]}]});
        assert_eq!(
            message(prepare("coherence", &text_without_text)),
            "Each content item must contain a 'text' field for message with role 'MessageRole.ASSISTANT'."
        );
        let openapi = json!({"query": "q", "response": "r", "tool_definitions": [{"type": "openapi", "functions": [{"name": "a"}]}]});
        assert_eq!(
            message(prepare("intent_resolution", &openapi)),
            "Each tool definitions must contain a 'parameters' field."
        );
    }

    #[test]
    fn tool_inputs_the_reference_accepts_are_judged() {
        let one_call = json!({
            "query": "q", "response": "r",
            "tool_calls": {"type": "tool_call", "name": "f", "arguments": {}, "tool_call_id": "1"},
            "tool_definitions": [{"name": "f", "parameters": {}}]
        });
        assert_eq!(message(prepare("tool_call_accuracy", &one_call)), "1 turns");
        let long_query = json!({
            "query": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}, {"role": "user", "content": "q2"}],
            "response": [{"role": "assistant", "content": [{"type": "text", "text": "x"}]}]
        });
        let turns = prepare("groundedness", &long_query).unwrap();
        assert!(turns[0].as_ref().unwrap()[0]
            .text
            .starts_with("(none given"));
    }
}
