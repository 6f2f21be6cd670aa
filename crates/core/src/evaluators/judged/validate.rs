//! The reference's input validators (`_common/_validators/`), with their messages word for word:
//! a conversation or a query and response (`ConversationValidator`), a `messages` list
//! (`MessagesOrQueryResponseInputValidator`), tool definitions (`ToolDefinitionsValidator`) and
//! tool calls (`ToolCallsValidator`); each message and content item is [`message`]'s to check. It
//! only accepts or rejects; what a judge makes of accepted inputs is the preparations'.

mod message;

use self::message::{check_message_list, field_problem, tool_call_item_problem, Kind, Problem};
use super::early::{rejected, unsupported_input, Early};
use super::render;
use crate::inputs::Inputs;
use crate::json::Value;
use crate::text::python;

/// The reference's message where an item has no tool calls (its validators' too).
pub(super) const NO_TOOL_CALLS: &str = "No tool calls found in response or provided tool_calls.";

/// Tools most validators reject when asked to (`ConversationValidator.UNSUPPORTED_TOOLS`).
pub(super) const UNSUPPORTED_TOOLS: &[&str] = &[
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
pub(super) struct Checks {
    /// Whether a query is required (and validated) besides the response.
    pub(super) requires_query: bool,
    /// Tool names rejected in assistant messages (none: no check).
    pub(super) unsupported: &'static [&'static str],
    /// The evaluator its messages name (`ErrorTarget`).
    pub(super) target: &'static str,
}

impl Checks {
    /// The checks without a tool check.
    pub(super) const fn plain(requires_query: bool) -> Self {
        Checks {
            requires_query,
            unsupported: &[],
            target: "",
        }
    }
}

fn early(problem: Problem) -> Early {
    rejected(problem.message)
}

/// `ConversationValidator.validate_eval_input`: a conversation when one is given, else the query
/// (when required) and the response.
pub(super) fn conversation_or_query_response(
    inputs: &Inputs<'_>,
    checks: Checks,
) -> Result<(), Early> {
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
pub(super) fn messages_or_conversation(inputs: &Inputs<'_>, checks: Checks) -> Result<(), Early> {
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
pub(super) fn check_definitions(inputs: &Inputs<'_>, optional: bool) -> Result<(), Early> {
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
pub(super) fn check_tool_calls_inputs(inputs: &Inputs<'_>) -> Result<(), Early> {
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
    use super::super::catalog::testing::{message, prepare};
    use crate::json;

    #[test]
    fn definition_checks_word_their_messages_as_the_reference() {
        let openapi = json!({"query": "q", "response": "r", "tool_definitions": [{"type": "openapi", "functions": [{"name": "a"}]}]});
        assert_eq!(
            message(prepare("intent_resolution", &openapi)),
            "Each tool definitions must contain a 'parameters' field."
        );
    }
}
