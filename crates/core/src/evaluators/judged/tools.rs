//! The preparations of the tool judges (ToolCallAccuracy, ToolSelection, ToolInputAccuracy,
//! ToolOutputUtilization, ToolCallSuccess): the tool calls judged (the response's, else the
//! item's `tool_calls`), the definitions they need, the built-in tools' own included
//! (`_extract_needed_tool_definitions`), and the not-applicable results where there are no calls
//! or a called tool has no definition.

use super::convert::{arg, convert, tool_calls_of, turns, Hoist, TOOL_CALL_SUCCESS, TOOL_OUTPUT};
use super::early::{not_applicable, not_intermediate, rejected, Early};
use super::prompt::Section;
use super::render;
use super::shown::{shown_conversation, shown_response};
use super::standard::{Judge, Turn};
use super::validate::{
    check_definitions, check_tool_calls_inputs, conversation_or_query_response, Checks,
    NO_TOOL_CALLS, UNSUPPORTED_TOOLS,
};
use crate::inputs::Inputs;
use crate::json::Value;

const DEFINITIONS_MISSING: &str = "Tool definitions for all tool calls must be provided.";

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

/// The one turn of a tool judge: the conversation, the calls as shown (`calls`) and the
/// definitions they need, in full.
fn judged_calls(inputs: &Inputs<'_>, calls: String, tools: &ToolUse) -> Vec<Turn> {
    vec![Ok(vec![
        Section::new(
            "CONVERSATION",
            shown_conversation(inputs.get("query"), true, true),
        ),
        Section::new("TOOL_CALLS", calls),
        Section::new(
            "TOOL_DEFINITIONS",
            render::definitions_json(&tools.definitions),
        ),
    ])]
}

pub(super) fn tool_call_accuracy(inputs: &Inputs<'_>, _judge: &Judge) -> Result<Vec<Turn>, Early> {
    check_tool_calls_inputs(inputs)?;
    let tools = match calls_and_definitions(
        inputs,
        "Tool definitions input is required but not provided",
    ) {
        Ok(tools) => tools,
        Err(early) => return Ok(vec![Err(early)]),
    };
    Ok(judged_calls(
        inputs,
        render::call_list(&tools.calls),
        &tools,
    ))
}

pub(super) fn tool_selection(inputs: &Inputs<'_>, _judge: &Judge) -> Result<Vec<Turn>, Early> {
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
    Ok(judged_calls(inputs, names, &tools))
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

pub(super) fn tool_input_accuracy(inputs: &Inputs<'_>, _judge: &Judge) -> Result<Vec<Turn>, Early> {
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
    Ok(judged_calls(inputs, calls, &tools))
}

pub(super) fn tool_output_utilization(
    inputs: &Inputs<'_>,
    judge: &Judge,
) -> Result<Vec<Turn>, Early> {
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

pub(super) fn tool_call_success(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
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

#[cfg(test)]
mod tests {
    use super::super::catalog::testing::{message, prepare};
    use crate::json;

    #[test]
    fn tool_inputs_the_reference_accepts_are_judged() {
        let one_call = json!({
            "query": "q", "response": "r",
            "tool_calls": {"type": "tool_call", "name": "f", "arguments": {}, "tool_call_id": "1"},
            "tool_definitions": [{"name": "f", "parameters": {}}]
        });
        assert_eq!(message(prepare("tool_call_accuracy", &one_call)), "1 turns");
    }

    #[test]
    fn conversations_follow_the_reference_for_each_tool_judge() {
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
    }
}
