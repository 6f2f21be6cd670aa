//! Direct Line 3.0 (Copilot Studio and any Bot Framework agent): start a conversation with the
//! secret or a token from Copilot Studio's token endpoint (then use the conversation's own
//! token), post the prompt as a `message` activity, and poll `activities?watermark=W`. The reply
//! is every bot `message` whose `replyToId` is the posted activity's id, joined in order with a
//! blank line, collected until `quietMs` pass without a new one after the first (typing and
//! event activities are not text). Citations come from the activities' `entities` (schema.org
//! `Claim`s, or a `Message` entity's `citation` list); their markers stay in the text. A post
//! answered 403 or 404 means the conversation expired: it is restarted once for that turn and the
//! reply carries a note.
//!
//! NOTE: the protocol is Bot Framework's REST API
//! (<https://learn.microsoft.com/azure/bot-service/rest-api/bot-framework-rest-direct-line-3-0-api-reference>).

use std::time::Duration;

use serde_json::{json, Value};

use super::target::DirectLineTarget;
use super::wire::{bearer, encode_component, json_request, read_json, text_at, Context};
use super::{AgentError, Citation, Prompt, Reply};
use crate::judge::Method;

/// A conversation in progress.
#[derive(Clone, PartialEq)]
pub struct Conversation {
    /// Its id.
    pub id: String,
    token: String,
    watermark: Option<String>,
}

impl std::fmt::Debug for Conversation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conversation")
            .field("id", &self.id)
            .field("watermark", &self.watermark)
            .finish_non_exhaustive()
    }
}

/// Starts a conversation.
///
/// # Errors
/// The token endpoint or `POST /conversations` failed.
pub async fn start(
    context: &mut Context<'_>,
    target: &DirectLineTarget,
) -> Result<Conversation, AgentError> {
    let credential = match (&target.secret, &target.token_endpoint) {
        (Some(secret), _) => context.secrets.get(secret)?.to_owned(),
        (None, Some(token_endpoint)) => {
            let call = "Direct Line: get a token from the token endpoint";
            let answer = context
                .send_json(
                    call,
                    json_request(Method::Get, token_endpoint.clone(), None, None),
                )
                .await?;
            text_at(&answer, "/token")
                .ok_or_else(|| {
                    AgentError::new("agentError", format!("{call}: the answer has no \"token\""))
                })?
                .to_owned()
        }
        (None, None) => {
            return Err(AgentError::new(
                "agentConfigurationError",
                "Direct Line: neither a secret nor a token endpoint is configured",
            ))
        }
    };
    let call = "Direct Line: start a conversation";
    let answer = context
        .send_json(
            call,
            json_request(
                Method::Post,
                format!("{}/conversations", target.endpoint),
                Some(&json!({})),
                Some(bearer(&credential)),
            ),
        )
        .await?;
    let id = text_at(&answer, "/conversationId").ok_or_else(|| {
        AgentError::new(
            "agentError",
            format!("{call}: the answer has no \"conversationId\""),
        )
    })?;
    let token = text_at(&answer, "/token").unwrap_or(&credential).to_owned();
    if target.token_endpoint.is_some() {
        context.redact.push(credential);
    }
    context.redact.push(token.clone());
    Ok(Conversation {
        id: id.to_owned(),
        token,
        watermark: None,
    })
}

/// Sends one prompt in `conversation` (started when `None`) and collects the reply.
///
/// # Errors
/// A call failed, the conversation expired twice, or no reply came within `timeoutMs`.
pub async fn turn(
    context: &mut Context<'_>,
    target: &DirectLineTarget,
    conversation: &mut Option<Conversation>,
    prompt: &Prompt,
) -> Result<Reply, AgentError> {
    let began = context.clock.now();
    let mut notes = Vec::new();
    let mut current = match conversation.take() {
        Some(current) => current,
        None => start(context, target).await?,
    };
    let posted = match post(context, target, &current, prompt).await? {
        Some(id) => id,
        None => {
            notes.push(format!(
                "the Direct Line conversation {} expired and was restarted for this prompt \
                 (earlier turns are not in the new conversation)",
                current.id
            ));
            current = start(context, target).await?;
            post(context, target, &current, prompt)
                .await?
                .ok_or_else(|| {
                    AgentError::new(
                        "agentConversationExpired",
                        "Direct Line: post the prompt: the restarted conversation expired too",
                    )
                })?
        }
    };
    let mut reply = collect(context, target, &mut current, &posted).await?;
    reply.complete_after = reply.complete_after.map(|at| at.saturating_sub(began));
    *conversation = Some(current);
    reply.notes.splice(0..0, notes);
    Ok(reply)
}

/// Posts the prompt; `None` when the conversation has expired (403 or 404).
async fn post(
    context: &Context<'_>,
    target: &DirectLineTarget,
    conversation: &Conversation,
    prompt: &Prompt,
) -> Result<Option<String>, AgentError> {
    let call = "Direct Line: post the prompt";
    let mut activity = json!({
        "type": "message",
        "from": {"id": target.user_id},
        "text": prompt.text,
    });
    if let (Some(locale), Some(activity)) = (&target.locale, activity.as_object_mut()) {
        activity.insert("locale".into(), json!(locale));
    }
    let response = context
        .send(
            call,
            json_request(
                Method::Post,
                format!(
                    "{}/conversations/{}/activities",
                    target.endpoint,
                    encode_component(&conversation.id)
                ),
                Some(&activity),
                Some(bearer(&conversation.token)),
            ),
        )
        .await?;
    if matches!(response.status, 403 | 404) {
        return Ok(None);
    }
    let answer = read_json(call, &response)?;
    text_at(&answer, "/id")
        .map(|id| Some(id.to_owned()))
        .ok_or_else(|| AgentError::new("agentError", format!("{call}: the answer has no \"id\"")))
}

/// Polls until the reply to `posted` is complete; the reply's `complete_after` is the clock's
/// time when its last message arrived.
async fn collect(
    context: &Context<'_>,
    target: &DirectLineTarget,
    conversation: &mut Conversation,
    posted: &str,
) -> Result<Reply, AgentError> {
    let call = "Direct Line: read the reply";
    let started = context.clock.now();
    let interval = (target.quiet / 4).clamp(Duration::from_millis(25), Duration::from_secs(1));
    let mut messages: Vec<Value> = Vec::new();
    let mut last_new: Option<Duration> = None;
    loop {
        let mut url = format!(
            "{}/conversations/{}/activities",
            target.endpoint,
            encode_component(&conversation.id)
        );
        if let Some(watermark) = &conversation.watermark {
            url.push_str("?watermark=");
            url.push_str(&encode_component(watermark));
        }
        let answer = context
            .send_json(
                call,
                json_request(Method::Get, url, None, Some(bearer(&conversation.token))),
            )
            .await?;
        if let Some(watermark) = answer.get("watermark").and_then(watermark_text) {
            conversation.watermark = Some(watermark);
        }
        let before = messages.len();
        if let Some(activities) = answer.get("activities").and_then(Value::as_array) {
            messages.extend(
                activities
                    .iter()
                    .filter(|activity| is_reply(activity, posted, &target.user_id))
                    .cloned(),
            );
        }
        let now = context.clock.now();
        if messages.len() > before {
            last_new = Some(now);
        }
        if let Some(at) = last_new.filter(|at| now.saturating_sub(*at) >= target.quiet) {
            let mut reply = reply_of(&messages);
            reply.complete_after = Some(at);
            return Ok(reply);
        }
        if now.saturating_sub(started) >= target.timeout {
            if messages.is_empty() {
                return Err(AgentError::new(
                    "agentTimeout",
                    format!(
                        "{call}: no reply within {} ms (timeoutMs)",
                        target.timeout.as_millis()
                    ),
                ));
            }
            let mut reply = reply_of(&messages);
            reply.notes.push(format!(
                "the agent was still answering after {} ms (timeoutMs); the reply may be incomplete",
                target.timeout.as_millis()
            ));
            return Ok(reply);
        }
        context.clock.sleep(interval).await;
    }
}

/// Whether `activity` is a bot message answering `posted`.
fn is_reply(activity: &Value, posted: &str, user_id: &str) -> bool {
    text_at(activity, "/type") == Some("message")
        && text_at(activity, "/replyToId") == Some(posted)
        && text_at(activity, "/from/id") != Some(user_id)
        && text_at(activity, "/from/role") != Some("user")
}

fn watermark_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The reply made of the bot's messages, in order.
fn reply_of(messages: &[Value]) -> Reply {
    let text = messages
        .iter()
        .filter_map(|message| text_at(message, "/text"))
        .filter(|text| !text.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    let citations = messages
        .iter()
        .filter_map(|message| message.get("entities").and_then(Value::as_array))
        .flatten()
        .flat_map(entity_citations)
        .collect();
    Reply {
        text,
        citations,
        ..Reply::default()
    }
}

/// The citations one entity holds: itself when it is a `Claim`, or its `citation` list.
fn entity_citations(entity: &Value) -> Vec<Citation> {
    if let Some(list) = entity.get("citation").and_then(Value::as_array) {
        return list.iter().map(claim).collect();
    }
    let kind = text_at(entity, "/@type")
        .or_else(|| text_at(entity, "/type"))
        .unwrap_or_default();
    if kind.ends_with("Claim") {
        return vec![claim(entity)];
    }
    Vec::new()
}

/// A schema.org `Claim`: its `appearance` (a `DigitalDocument`) or its own fields.
fn claim(claim: &Value) -> Citation {
    let source = claim.get("appearance").unwrap_or(claim);
    let field = |names: &[&str]| {
        names
            .iter()
            .find_map(|name| source.get(*name).or_else(|| claim.get(*name)))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    Citation {
        title: field(&["name", "title"]),
        url: field(&["url"]),
        text: field(&["abstract", "text"]),
    }
}
