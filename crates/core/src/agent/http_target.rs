//! A generic JSON endpoint as the agent: the target's URL (its placeholders filled and
//! percent-encoded), method and headers (secrets only as `{{env.NAME}}`), a body template whose
//! strings may hold `{{prompt}}`, `{{conversation_id}}` and `{{item.FIELD}}` (a string that is
//! one placeholder alone takes the field's JSON value), and JSON pointers to the reply's text,
//! citations and tool calls. Placeholders are read with
//! the judge templates' reader (`crate::placeholder`).

use serde_json::{Map, Value};

use super::target::{env_variable, HttpTarget};
use super::wire::{encode_component, json_request, text_at, Context};
use super::{AgentError, Citation, Prompt, Reply, ToolCall};
use crate::placeholder::{self, Piece, Source};

/// What a template's placeholders are filled with.
struct Values<'p> {
    prompt: &'p Prompt,
    conversation_id: &'p str,
}

impl Values<'_> {
    fn value(&self, source: &Source, written: &str) -> Result<Value, AgentError> {
        let missing = || {
            AgentError::new(
                "agentConfigurationError",
                format!("http: the body's {{{{{written}}}}} names nothing this item has"),
            )
        };
        match source {
            Source::Query => Ok(Value::String(self.prompt.text.clone())),
            Source::Field(path) if path.as_slice() == ["conversation_id"] => {
                Ok(Value::String(self.conversation_id.to_owned()))
            }
            Source::Field(path) if path.first().is_some_and(|first| first == "env") => {
                Err(AgentError::new(
                    "agentConfigurationError",
                    format!("http: {{{{{written}}}}}: secrets go in headers only, never the body or the URL"),
                ))
            }
            Source::Field(path) => {
                let (first, rest) = path.split_first().ok_or_else(missing)?;
                let mut value = self.prompt.item.get(first.as_str()).ok_or_else(missing)?;
                for segment in rest {
                    value = value.get(segment.as_str()).ok_or_else(missing)?;
                }
                Ok(value.clone())
            }
            Source::Response | Source::Expected | Source::Context => {
                let field = match source {
                    Source::Response => "response",
                    Source::Expected => "expected_response",
                    _ => "context",
                };
                self.prompt.item.get(field).cloned().ok_or_else(missing)
            }
        }
    }

    fn render(&self, template: &Value) -> Result<Value, AgentError> {
        Ok(match template {
            Value::String(text) => self.render_text(text)?,
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|item| self.render(item))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(object) => {
                let mut rendered = Map::with_capacity(object.len());
                for (key, value) in object {
                    rendered.insert(key.clone(), self.render(value)?);
                }
                Value::Object(rendered)
            }
            other => other.clone(),
        })
    }

    fn render_text(&self, text: &str) -> Result<Value, AgentError> {
        let pieces = placeholder::pieces(text, "http body")
            .map_err(|error| AgentError::new("agentConfigurationError", error.to_string()))?;
        if let [Piece::Slot { written, source }] = pieces.as_slice() {
            return self.value(source, written);
        }
        let mut rendered = String::with_capacity(text.len());
        for piece in &pieces {
            match piece {
                Piece::Text(text) => rendered.push_str(text),
                Piece::Slot { written, source } => match self.value(source, written)? {
                    Value::String(text) => rendered.push_str(&text),
                    other => rendered.push_str(&other.to_string()),
                },
            }
        }
        Ok(Value::String(rendered))
    }
}

impl Values<'_> {
    /// The URL template with its placeholders filled, each value percent-encoded.
    fn render_url(&self, url: &str) -> Result<String, AgentError> {
        let pieces = placeholder::pieces(url, "http url")
            .map_err(|error| AgentError::new("agentConfigurationError", error.to_string()))?;
        let mut rendered = String::with_capacity(url.len());
        for piece in &pieces {
            match piece {
                Piece::Text(text) => rendered.push_str(text),
                Piece::Slot { written, source } => {
                    let value = match self.value(source, written)? {
                        Value::String(text) => text,
                        other => other.to_string(),
                    };
                    rendered.push_str(&encode_component(&value));
                }
            }
        }
        Ok(rendered)
    }
}

/// `template` with its `{{env.NAME}}` placeholders filled from the secrets.
fn header_value(context: &Context<'_>, name: &str, template: &str) -> Result<String, AgentError> {
    let pieces = placeholder::pieces(template, name)
        .map_err(|error| AgentError::new("agentConfigurationError", error.to_string()))?;
    let mut value = String::new();
    for piece in pieces {
        match piece {
            Piece::Text(text) => value.push_str(&text),
            Piece::Slot {
                source: Source::Field(path),
                ..
            } if env_variable(&path).is_some() => {
                let variable = env_variable(&path).unwrap_or_default();
                let secret = context.secrets.named(variable).ok_or_else(|| {
                    AgentError::new(
                        "agentAuthenticationError",
                        format!("http: header {name}: the secret {variable} is not set"),
                    )
                })?;
                value.push_str(secret);
            }
            Piece::Slot { written, .. } => {
                return Err(AgentError::new(
                    "agentConfigurationError",
                    format!(
                    "http: header {name}: {{{{{written}}}}}: headers take only {{{{env.NAME}}}}"
                ),
                ))
            }
        }
    }
    Ok(value)
}

/// Sends one prompt.
///
/// # Errors
/// A template names missing data, the call failed, or the reply has no text at its pointer.
pub async fn turn(
    context: &Context<'_>,
    target: &HttpTarget,
    conversation_id: &str,
    prompt: &Prompt,
) -> Result<Reply, AgentError> {
    let values = Values {
        prompt,
        conversation_id,
    };
    let body = values.render(&target.body)?;
    let mut request = json_request(
        target.method,
        values.render_url(&target.url)?,
        (target.method == crate::judge::Method::Post).then_some(&body),
        None,
    );
    for (name, template) in &target.headers {
        let value = header_value(context, name, template)?;
        request.headers.retain(|(existing, _)| existing != name);
        request.headers.push((name.clone(), value));
    }
    let call = "http: call the agent";
    let answer = context.send_json(call, request).await?;
    let text = text_at(&answer, &target.reply.text).ok_or_else(|| {
        AgentError::new(
            "agentError",
            format!(
                "{call}: the answer has no text at {} (reply.text)",
                target.reply.text
            ),
        )
    })?;
    let list = |pointer: &Option<String>| {
        pointer
            .as_deref()
            .and_then(|pointer| answer.pointer(pointer))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let citations = list(&target.reply.citations)
        .iter()
        .map(|citation| match citation {
            Value::String(url) => Citation {
                url: Some(url.clone()),
                ..Citation::default()
            },
            other => Citation {
                title: text_at(other, "/title").map(str::to_owned),
                url: text_at(other, "/url").map(str::to_owned),
                text: text_at(other, "/text").map(str::to_owned),
            },
        })
        .collect();
    let tool_calls = list(&target.reply.tool_calls)
        .iter()
        .enumerate()
        .map(|(position, call)| ToolCall {
            id: text_at(call, "/id")
                .map_or_else(|| format!("call_{}", position + 1), str::to_owned),
            name: text_at(call, "/name").unwrap_or_default().to_owned(),
            arguments: call.get("arguments").cloned().unwrap_or(Value::Null),
            output: call.get("output").cloned(),
        })
        .collect();
    Ok(Reply {
        text: text.to_owned(),
        citations,
        tool_calls,
        ..Reply::default()
    })
}
