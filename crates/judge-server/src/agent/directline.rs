//! The demo agent over Direct Line 3.0, as Copilot Studio and Bot Framework agents speak it: the
//! token endpoint, starting a conversation, posting activities and polling them with
//! watermarks. A reply is released over time — a typing indicator, then each part of the answer
//! ~100 ms apart (another typing indicator between parts) — each part a bot `message` with
//! `replyToId` and its citations as schema.org `Claim`s in `entities`.

use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use super::knowledge::{self, Answer};
use super::turn::Turn;
use crate::http::{Outcome, Request, Response};
use crate::memory::Conversation;
use crate::state::Shared;

/// The secret Direct Line clients use when the server has no key (with one, the key is the
/// secret).
pub(crate) const DEMO_SECRET: &str = "demo-directline-secret";
/// How long tokens and conversations last, in seconds.
const EXPIRES_IN: u64 = 3600;
/// The time between two parts of a reply.
const PART_GAP: Duration = Duration::from_millis(100);
/// How long after a typing indicator the part it announces comes.
const TYPING_LEAD: Duration = Duration::from_millis(50);

/// `GET /agent/directline/token`: a token for a new conversation, as Copilot Studio's token
/// endpoint answers.
pub(crate) fn token(shared: &Shared) -> Outcome {
    let conversation_id = new_conversation_id(shared);
    let token = new_token(shared);
    shared
        .memory
        .issue_token(token.clone(), conversation_id.clone());
    Outcome::Send(Response::json(
        200,
        &json!({"token": token, "expires_in": EXPIRES_IN, "conversationId": conversation_id}),
    ))
}

/// `POST {endpoint}/conversations`: starts a conversation with the secret or a token from the
/// token endpoint (that token's conversation); a conversation's own token gets it back.
pub(crate) fn start(shared: &Shared, request: &Request) -> Outcome {
    let Some(bearer) = request.bearer() else {
        return unauthorized(shared, "Authorization: Bearer SECRET or TOKEN is missing");
    };
    let (id, token, status) = if bearer == secret(shared) {
        (new_conversation_id(shared), new_token(shared), 201)
    } else if let Some(id) = shared.memory.redeem_token(bearer) {
        (id, bearer.to_string(), 201)
    } else if let Some(id) = shared.memory.conversation_of_token(bearer) {
        let live = shared
            .memory
            .with_conversation(&id, |conversation| is_live(conversation, Instant::now()));
        if live != Some(true) {
            return expired();
        }
        (id, bearer.to_string(), 200)
    } else {
        return unauthorized(shared, "the secret or token is not valid");
    };
    if status == 201 {
        let conversation = Conversation {
            token: token.clone(),
            expires_at: Instant::now() + Duration::from_secs(EXPIRES_IN),
            expired: false,
            activities: Vec::new(),
            topic: None,
            sequence: 0,
        };
        shared.memory.start_conversation(id.clone(), conversation);
    }
    Outcome::Send(Response::json(
        status,
        &json!({"conversationId": id, "token": token, "expires_in": EXPIRES_IN, "streamUrl": null}),
    ))
}

/// `POST {endpoint}/conversations/{id}/activities`: takes an activity; a `message` gets the
/// agent's reply, released over time.
pub(crate) fn post(shared: &Shared, request: &Request, id: &str) -> Outcome {
    if let Some(refusal) = check_access(shared, request, id) {
        return refusal;
    }
    let activity = match serde_json::from_slice::<Value>(&request.body) {
        Ok(Value::Object(activity)) => activity,
        _ => return bad_argument("the body must be a JSON activity object"),
    };
    let kind = activity.get("type").and_then(Value::as_str);
    let text = activity.get("text").and_then(Value::as_str);
    let turn = match (kind, text) {
        (None, _) => return bad_argument("the activity has no `type`"),
        (Some("message"), None) => {
            return bad_argument("a `message` activity needs its `text` as a string")
        }
        (Some("message"), Some(text)) => match Turn::read(shared, "directline", text) {
            Ok(turn) => Some(turn),
            Err(mistake) => return bad_argument(&mistake),
        },
        (Some(_), _) => None,
    };
    if let Some(fault) = turn.as_ref().and_then(|turn| turn.http_fault(shared)) {
        return fault;
    }
    if turn.as_ref().is_some_and(Turn::expires) {
        shared
            .memory
            .with_conversation(id, |conversation| conversation.expired = true);
        return expired();
    }
    let posted = shared.memory.with_conversation(id, |conversation| {
        let now = Instant::now();
        let posted_id = conversation.next_activity_id(id);
        let echo = echo(activity.clone(), &posted_id, id);
        let shown = conversation
            .last_release()
            .map_or(now, |last| last.max(now));
        conversation.activities.push((shown, echo));
        if let Some(turn) = &turn {
            let answer = knowledge::answer(&turn.prompt, conversation.topic);
            conversation.topic = answer.topic;
            schedule_reply(
                conversation,
                id,
                &posted_id,
                &activity,
                &answer,
                now + turn.latency,
            );
        }
        posted_id
    });
    let Some(posted_id) = posted else {
        return not_found(id);
    };
    let response = Response::json(200, &json!({"id": posted_id}));
    match &turn {
        Some(turn) => turn.deliver(response),
        None => Outcome::Send(response),
    }
}

/// `GET {endpoint}/conversations/{id}/activities?watermark=W`: the activities released since
/// watermark W (all of them without one), and the new watermark.
pub(crate) fn poll(shared: &Shared, request: &Request, id: &str) -> Outcome {
    if let Some(refusal) = check_access(shared, request, id) {
        return refusal;
    }
    let watermark = match request.query("watermark").filter(|value| !value.is_empty()) {
        None => 0,
        Some(value) => match value.parse::<usize>() {
            Ok(watermark) => watermark,
            Err(_) => {
                return bad_argument(&format!(
                    "watermark `{value}` is not one this conversation gave out"
                ))
            }
        },
    };
    let page = shared.memory.with_conversation(id, |conversation| {
        let released = conversation.released(Instant::now());
        let activities: Vec<Value> = conversation
            .activities
            .get(watermark.min(released)..released)
            .unwrap_or_default()
            .iter()
            .map(|(_, activity)| activity.clone())
            .collect();
        json!({"activities": activities, "watermark": released.to_string()})
    });
    match page {
        Some(page) => Outcome::Send(Response::json(200, &page)),
        None => not_found(id),
    }
}

/// The refusal of a request to conversation `id`, if any: unknown (404), without its token or
/// the secret (401), expired (403).
fn check_access(shared: &Shared, request: &Request, id: &str) -> Option<Outcome> {
    let secret = secret(shared);
    let state = shared.memory.with_conversation(id, |conversation| {
        let allowed = request
            .bearer()
            .is_some_and(|bearer| bearer == conversation.token || bearer == secret);
        (allowed, is_live(conversation, Instant::now()))
    });
    match state {
        None => Some(not_found(id)),
        Some((false, _)) => Some(unauthorized(
            shared,
            "Authorization: Bearer must carry this conversation's token or the secret",
        )),
        Some((true, false)) => Some(expired()),
        Some((true, true)) => None,
    }
}

fn is_live(conversation: &Conversation, now: Instant) -> bool {
    !conversation.expired && now < conversation.expires_at
}

/// Appends the reply to `answer` after the activity `posted_id`, released from `from` on.
fn schedule_reply(
    conversation: &mut Conversation,
    id: &str,
    posted_id: &str,
    posted: &Map<String, Value>,
    answer: &Answer,
    from: Instant,
) {
    let locale = posted
        .get("locale")
        .and_then(Value::as_str)
        .unwrap_or("en-US");
    let mut release = conversation
        .last_release()
        .map_or(from, |last| last.max(from));
    for (index, part) in answer.parts.iter().enumerate() {
        let typing_id = conversation.next_activity_id(id);
        let typing = json!({
            "type": "typing", "id": typing_id, "channelId": "directline",
            "from": bot(), "conversation": {"id": id}, "replyToId": posted_id,
        });
        conversation.activities.push((release, typing));
        release += if index == 0 { PART_GAP } else { TYPING_LEAD };
        let message_id = conversation.next_activity_id(id);
        let mut message = json!({
            "type": "message", "id": message_id, "channelId": "directline",
            "from": bot(), "conversation": {"id": id}, "locale": locale,
            "replyToId": posted_id, "text": part, "textFormat": "markdown",
        });
        let claims = citations(part, answer);
        if let (false, Some(fields)) = (claims.is_empty(), message.as_object_mut()) {
            let entity = json!({
                "type": "https://schema.org/Message", "@type": "Message",
                "@context": "https://schema.org", "@id": "",
                "additionalType": ["AIGeneratedContent"], "citation": claims,
            });
            fields.insert("entities".into(), json!([entity]));
        }
        conversation.activities.push((release, message));
        release += PART_GAP - TYPING_LEAD;
    }
}

/// The schema.org `Claim`s of the sources `part` cites with `[N]`.
fn citations(part: &str, answer: &Answer) -> Vec<Value> {
    answer
        .sources
        .iter()
        .enumerate()
        .filter(|(index, _)| part.contains(&format!("[{}]", index + 1)))
        .map(|(index, source)| {
            json!({
                "@type": "Claim", "position": index + 1,
                "appearance": {
                    "@type": "DigitalDocument", "name": source.title,
                    "url": source.url, "abstract": source.extract,
                },
            })
        })
        .collect()
}

/// The posted activity as the conversation shows it: with its id, channel and conversation,
/// and `from.role` `user`.
fn echo(mut activity: Map<String, Value>, activity_id: &str, id: &str) -> Value {
    activity.insert("id".into(), json!(activity_id));
    activity.insert("channelId".into(), json!("directline"));
    activity.insert("conversation".into(), json!({"id": id}));
    let mut from = match activity.remove("from") {
        Some(Value::Object(from)) => from,
        _ => Map::new(),
    };
    from.entry("id").or_insert_with(|| json!("user"));
    from.insert("role".into(), json!("user"));
    activity.insert("from".into(), Value::Object(from));
    Value::Object(activity)
}

fn bot() -> Value {
    json!({"id": "demo-agent", "name": "Demo agent", "role": "bot"})
}

fn secret(shared: &Shared) -> &str {
    shared.config.key.as_deref().unwrap_or(DEMO_SECRET)
}

fn new_conversation_id(shared: &Shared) -> String {
    format!("{}-demo", shared.memory.fresh_id(shared.config.seed))
}

fn new_token(shared: &Shared) -> String {
    format!(
        "dl.{}{}",
        shared.memory.fresh_id(shared.config.seed),
        shared.memory.fresh_id(shared.config.seed)
    )
}

fn error(status: u16, code: &str, message: &str) -> Outcome {
    Outcome::Send(Response::json(
        status,
        &json!({"error": {"code": code, "message": message}}),
    ))
}

fn bad_argument(message: &str) -> Outcome {
    error(400, "BadArgument", message)
}

fn not_found(id: &str) -> Outcome {
    error(404, "BadArgument", &format!("Conversation {id} not found"))
}

fn expired() -> Outcome {
    error(403, "TokenExpired", "Token expired")
}

fn unauthorized(shared: &Shared, message: &str) -> Outcome {
    shared.recorder.update(|stats| stats.unauthorized += 1);
    error(401, "Unauthorized", message)
}
