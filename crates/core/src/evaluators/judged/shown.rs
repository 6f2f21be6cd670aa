//! What a judge is shown of an evaluation's inputs, section by section: nothing for an absent
//! input, a conversation and an agent's answer as `render` formats them, a context one source per
//! paragraph. Which sections a judge gets is its preparation's.

use super::render;
use crate::json::Value;

/// A query or conversation ([`render::conversation`]).
pub(super) fn shown_conversation(
    query: Option<&Value>,
    with_system: bool,
    with_tools: bool,
) -> String {
    query.map_or_else(String::new, |query| {
        render::conversation(query, with_system, with_tools)
    })
}

/// The agent's answer ([`render::agent_response`]).
pub(super) fn shown_response(response: Option<&Value>, with_tools: bool) -> String {
    response.map_or_else(String::new, |response| {
        render::agent_response(response, with_tools)
    })
}

/// Any other value, readably ([`render::readable`]).
pub(super) fn shown_text(value: Option<&Value>) -> String {
    value.map(render::readable).unwrap_or_default()
}

/// A context: text as it is, a conversation's contexts (`global_context`, `query_context`,
/// `response_context`) one per paragraph, other JSON as JSON.
pub(super) fn shown_context(context: &Value) -> String {
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
