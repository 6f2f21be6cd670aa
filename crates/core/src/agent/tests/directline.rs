//! Direct Line 3.0: one conversation per thread, polling with watermarks, replies joined from
//! several activities with their citations, expiry restarted once, time-outs and token endpoints.

use std::cell::Cell;

use serde_json::json;

use super::{answer, conversation, drive};
use crate::judge::http::HttpRequest;
use crate::judge::testing::Scripted;

const TARGET: &str = r#"{"kind": "directline", "endpoint": "https://dl.test/v3/directline", "secretEnv": "DL_SECRET", "quietMs": 400}"#;

/// A Direct Line service whose bot answers each posted activity `aN` with `parts` messages
/// (after a typing activity), released one poll at a time.
fn service(parts: usize) -> impl Fn(&HttpRequest, usize) -> Option<Scripted> {
    let posted = Cell::new(0);
    let polls = Cell::new(0);
    move |request, _| {
        let url = request.url.as_str();
        if url.ends_with("/conversations") {
            return answer(
                201,
                json!({"conversationId": "conv 1", "token": "conversation-token-123", "expires_in": 1800}),
            );
        }
        if request.method == crate::judge::Method::Post {
            posted.set(posted.get() + 1);
            polls.set(0);
            return answer(200, json!({"id": format!("a{}", posted.get())}));
        }
        let poll = polls.get();
        polls.set(poll + 1);
        let id = format!("a{}", posted.get());
        let activities = match poll {
            0 => json!([
                {"type": "message", "id": "echo", "from": {"id": "agenteval-user", "role": "user"}, "text": "the prompt", "replyToId": null},
                {"type": "typing", "from": {"id": "bot", "role": "bot"}, "replyToId": id},
            ]),
            n if n <= parts => json!([{
                "type": "message",
                "from": {"id": "bot", "role": "bot"},
                "replyToId": id,
                "text": format!("part {n} of turn {} [1]", posted.get()),
                "entities": [{"@type": "Message", "type": "https://schema.org/Message", "citation": [
                    {"@type": "Claim", "position": 1, "appearance": {"@type": "DigitalDocument", "name": "Leave policy", "url": "https://hr.test/leave"}}
                ]}],
            }]),
            _ => {
                json!([{"type": "event", "name": "done", "from": {"id": "bot"}, "replyToId": id}])
            }
        };
        answer(
            200,
            json!({"activities": activities, "watermark": format!("{}", poll + 1)}),
        )
    }
}

#[test]
fn a_thread_is_one_conversation_its_replies_joined_in_order() {
    let (records, sent, _) = drive(
        TARGET,
        &[("DL_SECRET", "dl-secret-value-0123")],
        &[conversation(&["first", "second"])],
        service(2),
    );
    let replies: Vec<_> = records[0]
        .iter()
        .map(|record| record.reply.clone().unwrap())
        .collect();
    assert_eq!(
        replies[0].text,
        "part 1 of turn 1 [1]\n\npart 2 of turn 1 [1]"
    );
    assert_eq!(
        replies[1].text,
        "part 1 of turn 2 [1]\n\npart 2 of turn 2 [1]"
    );
    assert_eq!(replies[0].citations.len(), 2);
    assert_eq!(
        replies[0].citations[0].url.as_deref(),
        Some("https://hr.test/leave")
    );
    assert_eq!(
        replies[0].citations[0].title.as_deref(),
        Some("Leave policy")
    );
    let started = sent
        .iter()
        .filter(|request| request.url.ends_with("/conversations"))
        .count();
    assert_eq!(started, 1, "one conversation for the whole thread");
    assert!(sent[0]
        .headers
        .contains(&("authorization".into(), "Bearer dl-secret-value-0123".into())));
    let post = sent
        .iter()
        .find(|request| request.url.ends_with("/activities"))
        .unwrap();
    assert_eq!(
        post.url,
        "https://dl.test/v3/directline/conversations/conv%201/activities"
    );
    assert!(post.headers.contains(&(
        "authorization".into(),
        "Bearer conversation-token-123".into()
    )));
    assert_eq!(super::body(post)["text"], "first");
    let polls: Vec<&str> = sent
        .iter()
        .filter(|request| request.method == crate::judge::Method::Get)
        .map(|request| request.url.as_str())
        .collect();
    assert!(polls[1].ends_with("/activities?watermark=1"), "{polls:?}");
}

#[test]
fn an_expired_conversation_is_restarted_once_and_noted() {
    let inner = service(1);
    let posts = Cell::new(0);
    let (records, sent, _) = drive(
        TARGET,
        &[("DL_SECRET", "dl-secret-value-0123")],
        &[conversation(&["hello"])],
        move |request, attempt| {
            if request.url.ends_with("/activities") && request.method == crate::judge::Method::Post
            {
                posts.set(posts.get() + 1);
                if posts.get() == 1 {
                    return answer(
                        403,
                        json!({"error": {"code": "TokenExpired", "message": "expired"}}),
                    );
                }
            }
            inner(request, attempt)
        },
    );
    let reply = records[0][0].reply.clone().unwrap();
    assert_eq!(reply.text, "part 1 of turn 1 [1]");
    assert!(
        reply.notes[0].contains("expired and was restarted"),
        "{:?}",
        reply.notes
    );
    let started = sent
        .iter()
        .filter(|request| request.url.ends_with("/conversations"))
        .count();
    assert_eq!(started, 2);
}

#[test]
fn a_second_expiry_is_an_error_and_no_reply_is_a_time_out() {
    let (records, _, _) = drive(
        TARGET,
        &[("DL_SECRET", "dl-secret-value-0123")],
        &[conversation(&["hello"])],
        |request, _| {
            if request.url.ends_with("/conversations") {
                return answer(
                    201,
                    json!({"conversationId": "c", "token": "t-123456789012"}),
                );
            }
            answer(404, json!({}))
        },
    );
    let error = records[0][0].reply.clone().unwrap_err();
    assert_eq!(error.code, "agentConversationExpired");
    let (records, _, _) = drive(
        r#"{"kind": "directline", "endpoint": "https://dl.test/v3/directline", "secretEnv": "DL_SECRET", "timeoutMs": 2000}"#,
        &[("DL_SECRET", "dl-secret-value-0123")],
        &[conversation(&["hello"])],
        service(0),
    );
    let error = records[0][0].reply.clone().unwrap_err();
    assert_eq!(error.code, "agentTimeout");
    assert!(
        error.message.contains("no reply within 2000 ms"),
        "{}",
        error.message
    );
}

#[test]
fn a_token_endpoint_replaces_the_secret_and_tokens_are_redacted() {
    let (records, sent, _) = drive(
        r#"{"kind": "directline", "endpoint": "https://dl.test/v3/directline", "tokenEndpoint": "https://cs.test/token", "quietMs": 400}"#,
        &[],
        &[conversation(&["hello"])],
        |request, _| {
            if request.url == "https://cs.test/token" {
                assert_eq!(request.method, crate::judge::Method::Get);
                return answer(
                    200,
                    json!({"token": "token-from-endpoint-42", "expires_in": 3600}),
                );
            }
            if request.url.ends_with("/conversations") {
                assert!(request.headers.contains(&(
                    "authorization".into(),
                    "Bearer token-from-endpoint-42".into()
                )));
                return answer(201, json!({"conversationId": "c9"}));
            }
            if request.method == crate::judge::Method::Post {
                return answer(200, json!({"id": "a1"}));
            }
            answer(
                200,
                json!({"activities": [{"type": "message", "from": {"id": "bot"}, "replyToId": "a1", "text": "your token is token-from-endpoint-42"}], "watermark": "1"}),
            )
        },
    );
    let reply = records[0][0].reply.clone().unwrap();
    assert!(
        !reply.text.contains("token-from-endpoint-42"),
        "{}",
        reply.text
    );
    assert!(sent.len() >= 4);
}

#[test]
fn the_latency_ends_at_the_last_message_not_after_the_quiet_time() {
    let (records, _, sleeps) = drive(
        TARGET,
        &[("DL_SECRET", "dl-secret-value-0123")],
        &[conversation(&["first"])],
        service(2),
    );
    let polled: u128 = sleeps.iter().map(std::time::Duration::as_millis).sum();
    let latency = u128::from(records[0][0].latency_ms);
    assert!(latency > 0, "{latency}");
    assert!(
        latency + 400 <= polled,
        "the 400 ms quiet time is not counted: {latency} of {polled}"
    );
}
