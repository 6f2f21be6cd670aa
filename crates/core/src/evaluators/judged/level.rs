//! `evaluation_level`, where Foundry's agent-evaluator page says it applies (the composites
//! `output_quality` and `tool_use_quality`, and the Rubric judge): `turn` judges the agent's
//! response to the last user turn, its tool calls included, with the earlier messages shown only
//! as context; `conversation` judges the whole interaction. Without the option the input's shape
//! decides, as the page says: `query` and `response` → turn, `messages` alone → conversation.
//! Owns the option, the default, what the judge is shown at each level and the line of the
//! system message that says which it is.

use super::prompt::Section;
use super::shown::{shown_conversation, shown_response};
use crate::inputs::Inputs;
use crate::json::{Map, Value};
use crate::options::{ConfigError, Options};

/// What a judged verdict rates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    /// The agent's response to the last user turn.
    Turn,
    /// The whole interaction.
    Conversation,
}

impl Level {
    /// The `evaluation_level` option, when given.
    ///
    /// # Errors
    /// A value other than `"turn"` and `"conversation"`.
    pub(super) fn option(options: &Options<'_>) -> Result<Option<Level>, ConfigError> {
        match options.get("evaluation_level") {
            None => Ok(None),
            Some(value) => match value.as_str() {
                Some("turn") => Ok(Some(Level::Turn)),
                Some("conversation") => Ok(Some(Level::Conversation)),
                _ => Err(ConfigError::new(format!(
                    "option `evaluation_level` must be \"turn\" or \"conversation\", got {value}"
                ))),
            },
        }
    }

    /// The configured level, else the one the inputs' shape gives.
    pub(super) fn of(configured: Option<Level>, inputs: &Inputs<'_>) -> Level {
        configured.unwrap_or(
            if inputs.get("response").is_none() && inputs.get("messages").is_some() {
                Level::Conversation
            } else {
                Level::Turn
            },
        )
    }

    /// Its name, as `details.evaluation_level` reports it.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Level::Turn => "turn",
            Level::Conversation => "conversation",
        }
    }

    /// The system message's line saying what to judge.
    pub(super) fn instruction(self) -> &'static str {
        match self {
            Level::Turn => {
                "Evaluation level: turn. Judge only the agent's response to the last user turn \
                 (RESPONSE, its tool calls included); EARLIER_MESSAGES, when given, are context \
                 for it and are not judged."
            }
            Level::Conversation => {
                "Evaluation level: conversation. Judge the whole interaction (CONVERSATION): every \
                 user turn and every response of the agent, its tool calls included."
            }
        }
    }

    /// What the judge is shown of the interaction at this level: for a turn the earlier messages
    /// (when there are any), the last user turn and the agent's response to it; for a
    /// conversation the whole of it.
    pub(super) fn sections(self, inputs: &Inputs<'_>, with_tools: bool) -> Vec<Section> {
        let messages = interaction(inputs);
        match self {
            Level::Conversation => vec![Section::new(
                "CONVERSATION",
                shown_conversation(Some(&Value::Array(messages)), true, with_tools),
            )],
            Level::Turn => {
                let last_user = messages.iter().rposition(is_user);
                let (before, turn) = messages.split_at(last_user.unwrap_or(0));
                let (user, response) = match turn.split_first() {
                    Some((user, rest)) if last_user.is_some() => (Some(user), rest),
                    _ => (None, turn),
                };
                let mut sections = Vec::with_capacity(3);
                if !before.is_empty() {
                    sections.push(Section::new(
                        "EARLIER_MESSAGES",
                        shown_conversation(Some(&Value::Array(before.to_vec())), true, with_tools),
                    ));
                }
                if let Some(user) = user {
                    sections.push(Section::new(
                        "USER_TURN",
                        shown_conversation(Some(&Value::Array(vec![user.clone()])), false, false),
                    ));
                }
                sections.push(Section::new(
                    "RESPONSE",
                    shown_response(Some(&Value::Array(response.to_vec())), with_tools),
                ));
                sections
            }
        }
    }
}

/// The interaction as one message list: the query (a message list, or text as a user message)
/// then the response (a message list, or text as an assistant message); `messages` when there is
/// no response.
fn interaction(inputs: &Inputs<'_>) -> Vec<Value> {
    let Some(response) = inputs.get("response") else {
        return inputs
            .get("messages")
            .map(|messages| as_messages(messages, "user"))
            .unwrap_or_default();
    };
    let query = inputs.get("query").or_else(|| inputs.get("prompt"));
    let mut messages = query
        .map(|query| as_messages(query, "user"))
        .unwrap_or_default();
    messages.extend(as_messages(response, "assistant"));
    messages
}

/// A message list as it is; any other value as one message of `role`.
fn as_messages(value: &Value, role: &str) -> Vec<Value> {
    match value {
        Value::Array(items) if items.iter().all(Value::is_object) => items.clone(),
        other => {
            let mut message = Map::new();
            message.insert("role".to_owned(), Value::from(role));
            let content = match other {
                Value::String(_) => other.clone(),
                _ => Value::from(other.to_string()),
            };
            message.insert("content".to_owned(), content);
            vec![Value::Object(message)]
        }
    }
}

fn is_user(message: &Value) -> bool {
    message.get("role").and_then(Value::as_str) == Some("user")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn shown(sections: &[Section]) -> Vec<(String, String)> {
        sections
            .iter()
            .map(|section| (section.name.to_owned(), section.text.clone()))
            .collect()
    }

    #[test]
    fn the_shape_decides_without_the_option_and_the_option_wins() {
        let text = json!("hi");
        let list = json!([{"role": "user", "content": "hi"}]);
        let turn = Inputs::new().with("query", &text).with("response", &text);
        let whole = Inputs::new().with("messages", &list);
        assert_eq!(Level::of(None, &turn), Level::Turn);
        assert_eq!(Level::of(None, &whole), Level::Conversation);
        assert_eq!(Level::of(Some(Level::Turn), &whole), Level::Turn);
        assert_eq!(
            Level::of(Some(Level::Conversation), &turn),
            Level::Conversation
        );
        let bad = json!({"evaluation_level": "item"});
        let error = Level::option(&Options::new(bad.as_object().unwrap())).unwrap_err();
        assert!(
            error.to_string().contains("\"turn\" or \"conversation\""),
            "{error}"
        );
    }

    #[test]
    fn a_turn_shows_the_last_user_turn_and_its_response_and_a_conversation_all_of_it() {
        let messages = json!([
            {"role": "system", "content": "You book flights."},
            {"role": "user", "content": "Find flights to Paris."},
            {"role": "assistant", "content": "AF123 and AF456."},
            {"role": "user", "content": "Book the first."},
            {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "book", "arguments": {"flight": "AF123"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": "booked"}]},
            {"role": "assistant", "content": "Booked AF123."}
        ]);
        let inputs = Inputs::new().with("messages", &messages);
        let turn = shown(&Level::Turn.sections(&inputs, true));
        let names: Vec<&str> = turn.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["EARLIER_MESSAGES", "USER_TURN", "RESPONSE"]);
        assert!(
            turn[0].1.contains("Find flights to Paris."),
            "{}",
            turn[0].1
        );
        assert!(!turn[0].1.contains("Book the first."), "{}", turn[0].1);
        assert!(turn[1].1.contains("Book the first."), "{}", turn[1].1);
        assert!(turn[2].1.contains("book"), "{}", turn[2].1);
        assert!(turn[2].1.contains("Booked AF123."), "{}", turn[2].1);
        assert!(!turn[2].1.contains("AF456"), "{}", turn[2].1);
        let whole = shown(&Level::Conversation.sections(&inputs, true));
        assert_eq!(whole.len(), 1);
        assert_eq!(whole[0].0, "CONVERSATION");
        for said in [
            "Find flights to Paris.",
            "AF456",
            "Book the first.",
            "Booked AF123.",
        ] {
            assert!(whole[0].1.contains(said), "{said}: {}", whole[0].1);
        }
        assert_ne!(
            turn, whole,
            "each level shows the judge something different"
        );
    }

    #[test]
    fn text_query_and_response_are_one_turn() {
        let query = json!("Capital of France?");
        let response = json!("Paris.");
        let inputs = Inputs::new()
            .with("query", &query)
            .with("response", &response);
        let turn = shown(&Level::Turn.sections(&inputs, true));
        let names: Vec<&str> = turn.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["USER_TURN", "RESPONSE"]);
        assert!(turn[0].1.contains("Capital of France?"));
        assert!(turn[1].1.contains("Paris."));
    }
}
