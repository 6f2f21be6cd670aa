//! A chat-completions model as the agent: `POST {endpoint}/chat/completions` with the target's
//! `system` prompt, the conversation so far and the prompt (a Foundry query's messages as they
//! are). The assistant's message is the reply; its `tool_calls` are recorded; the usage is kept.

use serde_json::{json, Value};

use super::target::ChatTarget;
use super::wire::{json_request, optional_key, text_at, Context};
use super::{AgentError, Prompt, Reply, ToolCall};
use crate::judge::{Method, Usage};

/// Sends one prompt; `history` is the conversation's messages so far (the system prompt
/// excluded), extended with this exchange.
///
/// # Errors
/// A call failed or the answer has no message.
pub async fn turn(
    context: &Context<'_>,
    target: &ChatTarget,
    history: &mut Vec<Value>,
    prompt: &Prompt,
) -> Result<Reply, AgentError> {
    let credential = optional_key(context.secrets, target.key.as_ref(), target.key_header)?;
    match &prompt.messages {
        Some(messages) => history.extend(messages.iter().cloned()),
        None => history.push(json!({"role": "user", "content": prompt.text})),
    }
    let mut messages = Vec::with_capacity(history.len() + 1);
    if let Some(system) = &target.system {
        messages.push(json!({"role": "system", "content": system}));
    }
    messages.extend(history.iter().cloned());
    let call = "chat: create a chat completion";
    let answer = context
        .send_json(
            call,
            json_request(
                Method::Post,
                format!("{}/chat/completions", target.endpoint),
                Some(&json!({"model": target.model, "messages": messages})),
                credential,
            ),
        )
        .await?;
    let message = answer.pointer("/choices/0/message").ok_or_else(|| {
        AgentError::new(
            "agentError",
            format!("{call}: the answer has no choices[0].message"),
        )
    })?;
    let text = text_at(message, "/content").unwrap_or_default().to_owned();
    history.push(json!({"role": "assistant", "content": text}));
    let tool_calls = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|calls| {
            calls
                .iter()
                .enumerate()
                .map(|(position, call)| ToolCall {
                    id: text_at(call, "/id")
                        .map_or_else(|| format!("call_{}", position + 1), str::to_owned),
                    name: text_at(call, "/function/name")
                        .unwrap_or_default()
                        .to_owned(),
                    arguments: text_at(call, "/function/arguments")
                        .and_then(|text| serde_json::from_str(text).ok())
                        .unwrap_or(Value::Null),
                    output: None,
                })
                .collect()
        })
        .unwrap_or_default();
    let usage = answer.get("usage").map(|usage| {
        let count = |name: &str| usage.get(name).and_then(Value::as_u64).unwrap_or(0);
        Usage {
            prompt_tokens: count("prompt_tokens"),
            completion_tokens: count("completion_tokens"),
            total_tokens: count("total_tokens"),
        }
    });
    Ok(Reply {
        text,
        tool_calls,
        usage,
        ..Reply::default()
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::testing::{answer, body, conversation, drive};

    #[test]
    fn the_system_prompt_and_the_history_are_sent_with_each_turn() {
        let (records, sent, _) = drive(
            r#"{"kind": "chat", "endpoint": "http://127.0.0.1:9/v1", "model": "small", "system": "You are the HR agent."}"#,
            &[],
            &[conversation(&["one", "two"])],
            |request, _| {
                let turns = body(request)["messages"].as_array().unwrap().len();
                answer(
                    200,
                    json!({"choices": [{"message": {"role": "assistant", "content": format!("reply to {turns} messages"),
                    "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\": 1}"}}]}}],
                    "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}}),
                )
            },
        );
        assert_eq!(
            records[0][0].reply.clone().unwrap().text,
            "reply to 2 messages"
        );
        let second = records[0][1].reply.clone().unwrap();
        assert_eq!(second.text, "reply to 4 messages");
        assert_eq!(second.tool_calls[0].arguments, json!({"q": 1}));
        assert_eq!(second.usage.unwrap().total_tokens, 7);
        let messages = body(&sent[1])["messages"].clone();
        assert_eq!(
            messages[0],
            json!({"role": "system", "content": "You are the HR agent."})
        );
        assert_eq!(
            messages[2],
            json!({"role": "assistant", "content": "reply to 2 messages"})
        );
        assert_eq!(messages[3], json!({"role": "user", "content": "two"}));
        assert_eq!(sent[0].url, "http://127.0.0.1:9/v1/chat/completions");
    }
}
