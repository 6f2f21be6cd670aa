//! Groundedness's preparation: the reference's checks (with the tools whose results it cannot
//! read), a context given or a conversation's, and without either the agent path, which takes
//! the context from the response itself (text) or from its `file_search` results, dropped from
//! the response shown (`_get_context_from_agent_response`). M365's requirement of a context is
//! the configured evaluator's, not this module's.

use super::convert::{arg, convert, parse_tool_calls, turns, EvalInput, Hoist, GROUNDEDNESS};
use super::early::{not_applicable, not_intermediate, rejected, Early};
use super::prompt::Section;
use super::render;
use super::shown::{shown_context, shown_conversation, shown_response};
use super::standard::{Judge, Turn};
use super::validate::{conversation_or_query_response, Checks};
use crate::inputs::Inputs;
use crate::json::{Map, Value};

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

pub(super) fn groundedness(inputs: &Inputs<'_>, judge: &Judge) -> Result<Vec<Turn>, Early> {
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
        if !is_file_search(&call) {
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
                for part in render::content_objects(entry)? {
                    let text = part.get("text");
                    if let Some(text) = text.filter(|text| render::truthy(Some(text))) {
                        lines.push(format!("{file}:\n- {}---\n\n", render::py_str(text)));
                    }
                }
            }
        }
    }
    Some(lines)
}

fn is_file_search(call: &Map<String, Value>) -> bool {
    matches!(call.get("name"), Some(Value::String(name)) if name == "file_search")
}

/// The response without the tool messages that answered `file_search` calls.
fn without_file_search_results(response: &Value) -> Value {
    let ids: Vec<Value> = parse_tool_calls(response)
        .unwrap_or_default()
        .iter()
        .filter(|call| is_file_search(call))
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

#[cfg(test)]
mod tests {
    use super::super::catalog::testing::prepare;
    use crate::json;

    #[test]
    fn agent_inputs_without_file_search_results_have_no_context() {
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
