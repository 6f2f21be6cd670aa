//! From an item's inputs to the evaluations the reference makes of it
//! (`_convert_kwargs_to_eval_input`): its named inputs matched against the evaluator's `__call__`
//! overloads, or its `conversation` (or promoted `messages`) split into one evaluation per
//! answered turn; and the tool calls of an agent's response with their results
//! (`_parse_tools_from_response`). It converts only: validating inputs is `validate`'s, showing
//! them `render`'s.

use super::early::{rejected, unsupported_input, Early};
use super::render;
use super::standard::Turn;
use crate::inputs::Inputs;
use crate::json::{Map, Value};

/// The reference's `eval_input` of one evaluation: named values, `null` for "given as None".
pub(super) type EvalInput = Map<String, Value>;

/// The input `name` of an evaluation, unless absent or `null`.
pub(super) fn arg<'a>(input: &'a EvalInput, name: &str) -> Option<&'a Value> {
    input.get(name).filter(|value| !value.is_null())
}

/// Each evaluation of an item as a judged turn.
pub(super) fn turns(inputs: Vec<EvalInput>, turn: impl Fn(&EvalInput) -> Turn) -> Vec<Turn> {
    inputs.iter().map(turn).collect()
}

/// `ground_truth`, or an M365 item's `expected_response`.
pub(super) fn ground_truth<'a>(inputs: &Inputs<'a>) -> Option<&'a Value> {
    inputs
        .get("ground_truth")
        .or_else(|| inputs.get("expected_response"))
}

/// How the reference's base `_convert_kwargs_to_eval_input` reads an evaluator's inputs: the
/// input names of each of its `__call__` overloads (those without `conversation`), and which of
/// them are optional.
pub(super) struct Signature {
    overloads: &'static [&'static [&'static str]],
    optional: &'static [&'static str],
}

pub(super) const QUERY_RESPONSE: Signature = Signature {
    overloads: &[&["query", "response"]],
    optional: &[],
};
pub(super) const RESPONSE_ONLY: Signature = Signature {
    overloads: &[&["response"]],
    optional: &[],
};
pub(super) const GROUNDEDNESS: Signature = Signature {
    overloads: &[
        &["response", "context", "query"],
        &["query", "response", "tool_definitions"],
    ],
    optional: &["query"],
};
pub(super) const SIMILARITY: Signature = Signature {
    overloads: &[&["query", "response", "ground_truth"]],
    optional: &[],
};
pub(super) const RETRIEVAL: Signature = Signature {
    overloads: &[&["query", "context"]],
    optional: &[],
};
pub(super) const COMPLETENESS: Signature = Signature {
    overloads: &[&["ground_truth", "response"]],
    optional: &[],
};
pub(super) const AGENT: Signature = Signature {
    overloads: &[&["query", "response", "tool_definitions"]],
    optional: &["tool_definitions"],
};
pub(super) const TOOL_OUTPUT: Signature = Signature {
    overloads: &[&["query", "response", "tool_definitions"]],
    optional: &[],
};
pub(super) const TOOL_CALL_SUCCESS: Signature = Signature {
    overloads: &[&["response", "tool_definitions"]],
    optional: &["tool_definitions"],
};

/// Whether the evaluator promotes a `messages` input to a conversation
/// (`hoist_messages_to_conversation`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Hoist {
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
pub(super) fn convert(
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
pub(super) fn parse_tool_calls(response: &Value) -> Result<Vec<Map<String, Value>>, String> {
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
pub(super) fn tool_calls_of(response: &Value) -> Result<Vec<Map<String, Value>>, Early> {
    parse_tool_calls(response)
        .map_err(|why| unsupported_input(format!("{why} (the reference fails on it)")))
}

#[cfg(test)]
mod tests {
    use super::super::catalog::testing::{message, prepare};
    use crate::json;
    use crate::outcome::ErrorCode;

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
}
