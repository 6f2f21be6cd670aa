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
