//! The tools Foundry's agent-evaluator page says its tool and groundedness judges support only in
//! part (Azure AI Search, Bing Grounding, Bing Custom Search, SharePoint Grounding, Code
//! Interpreter, Fabric Data Agent, Web Search): a verdict of one of those judges on a
//! conversation that calls them carries a warning saying so. Which judges: tool_call_accuracy,
//! tool_input_accuracy, tool_output_utilization, tool_call_success and groundedness, and the
//! composites that rate them.

use crate::inputs::Inputs;
use crate::json::Value;

/// The tools' names as the agent's messages carry them (a `tool_call`'s `name`, or a built-in
/// call's `type`, with or without `_call`).
const TOOLS: [&str; 8] = [
    "azure_ai_search",
    "bing_grounding",
    "bing_custom_search",
    "sharepoint_grounding",
    "code_interpreter",
    "fabric_dataagent",
    "web_search",
    "web_search_preview",
];

/// The judges the page names, by the reference's class.
const JUDGES: [&str; 5] = [
    "ToolCallAccuracyEvaluator",
    "_ToolInputAccuracyEvaluator",
    "_ToolOutputUtilizationEvaluator",
    "_ToolCallSuccessEvaluator",
    "GroundednessEvaluator",
];

/// Whether the judge of reference class `class` is one the warning concerns.
pub(super) fn concerns(class: &str) -> bool {
    JUDGES.contains(&class)
}

/// The `warning` a verdict on `inputs` carries, when the conversation calls any of the tools.
pub(super) fn note(inputs: &Inputs<'_>) -> Option<(&'static str, Value)> {
    warning(inputs).map(|warning| ("warning", Value::from(warning)))
}

/// The warning for a verdict on `inputs`, when the conversation calls any of the tools.
fn warning(inputs: &Inputs<'_>) -> Option<String> {
    let mut called: Vec<&'static str> = Vec::new();
    for field in ["query", "response", "messages", "actions", "tool_calls"] {
        if let Some(value) = inputs.get(field) {
            collect(value, &mut called);
        }
    }
    if called.is_empty() {
        return None;
    }
    Some(format!(
        "limited support: the conversation calls {}, which Foundry's tool and groundedness judges \
         support only in part; read this verdict with care",
        called.join(", ")
    ))
}

/// Adds every tool of [`TOOLS`] that `value` calls to `called`, once, in the order met.
fn collect(value: &Value, called: &mut Vec<&'static str>) {
    match value {
        Value::Array(items) => items.iter().for_each(|item| collect(item, called)),
        Value::Object(object) => {
            let kind = object.get("type").and_then(Value::as_str).unwrap_or("");
            let named = match kind {
                "tool_call" | "function_call" => object.get("name").and_then(Value::as_str),
                "function" => object
                    .get("function")
                    .and_then(|function| function.get("name"))
                    .and_then(Value::as_str),
                other => Some(other.strip_suffix("_call").unwrap_or(other)),
            };
            if let Some(tool) = named.and_then(|name| TOOLS.iter().find(|tool| **tool == name)) {
                if !called.contains(tool) {
                    called.push(tool);
                }
            }
            object.values().for_each(|inner| collect(inner, called));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn the_tools_are_found_as_tool_calls_and_as_built_in_calls_once_each() {
        let response = json!([
            {"role": "assistant", "content": [{"type": "tool_call", "name": "bing_grounding", "arguments": {}}]},
            {"role": "assistant", "content": [{"type": "tool_call", "name": "bing_grounding", "arguments": {}}]},
            {"role": "assistant", "content": [{"type": "code_interpreter_call", "id": "c1"}]},
            {"role": "assistant", "content": [{"type": "tool_call", "name": "get_weather", "arguments": {}}]}
        ]);
        let inputs = Inputs::new().with("response", &response);
        assert_eq!(
            warning(&inputs).as_deref(),
            Some(
                "limited support: the conversation calls bing_grounding, code_interpreter, which \
                 Foundry's tool and groundedness judges support only in part; read this verdict \
                 with care"
            )
        );
        let own_tools = json!([{"role": "assistant", "content": [{"type": "tool_call", "name": "get_weather", "arguments": {}}]}]);
        assert_eq!(warning(&Inputs::new().with("response", &own_tools)), None);
        let text = json!("I searched with bing_grounding.");
        assert_eq!(warning(&Inputs::new().with("response", &text)), None);
    }
}
