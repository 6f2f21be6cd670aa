//! The demo agent over Direct Line 3.0, end to end over TCP: conversations, posting, polling
//! with watermarks, replies in several activities with typing indicators and citations, the
//! token endpoint, follow-ups, faults, expiry, keys, stats and CORS.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::thread;
use std::time::{Duration, Instant};

use agenteval_judge_server::{start, ServerConfig};
use common::{server, Client};
use serde_json::{json, Value};

const ENDPOINT: &str = "/agent/v3/directline";
const SECRET: &str = "Bearer demo-directline-secret";

/// A started conversation: its id and its `Authorization` header.
struct Conversation {
    id: String,
    auth: String,
}

fn start_conversation(client: &mut Client, auth: &str) -> Conversation {
    let reply = client.post_with(
        &format!("{ENDPOINT}/conversations"),
        &[("authorization", auth)],
        &json!({}),
    );
    assert_eq!(
        reply.status,
        201,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let body = reply.json();
    assert_eq!(body["expires_in"], 3600);
    assert!(body["streamUrl"].is_null());
    Conversation {
        id: body["conversationId"].as_str().expect("id").to_string(),
        auth: format!("Bearer {}", body["token"].as_str().expect("token")),
    }
}

fn message(text: &str) -> Value {
    json!({"type": "message", "from": {"id": "tester"}, "text": text, "locale": "en-GB"})
}

fn send(client: &mut Client, conversation: &Conversation, text: &str) -> common::Reply {
    client.post_with(
        &format!("{ENDPOINT}/conversations/{}/activities", conversation.id),
        &[("authorization", &conversation.auth)],
        &message(text),
    )
}

fn posted_id(reply: &common::Reply) -> String {
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.json()["id"]
        .as_str()
        .expect("activity id")
        .to_string()
}

fn poll(client: &mut Client, conversation: &Conversation, watermark: &str) -> common::Reply {
    client.get(
        &format!(
            "{ENDPOINT}/conversations/{}/activities?watermark={watermark}",
            conversation.id
        ),
        &[("authorization", &conversation.auth)],
    )
}

/// Polls until no new bot message answering `reply_to` has come for 400 ms after the first;
/// returns every activity seen, in order.
fn collect(client: &mut Client, conversation: &Conversation, reply_to: &str) -> Vec<Value> {
    let mut watermark = String::new();
    let mut seen = Vec::new();
    let mut last_message: Option<Instant> = None;
    let deadline = Instant::now() + Duration::from_secs(5);
    while last_message.is_none_or(|at| at.elapsed() < Duration::from_millis(400)) {
        assert!(
            Instant::now() < deadline,
            "no reply to {reply_to}: {seen:?}"
        );
        let page = poll(client, conversation, &watermark);
        assert_eq!(page.status, 200);
        let body = page.json();
        for activity in body["activities"].as_array().expect("activities") {
            if activity["type"] == "message" && activity["replyToId"] == reply_to {
                last_message = Some(Instant::now());
            }
            seen.push(activity.clone());
        }
        watermark = body["watermark"].as_str().expect("watermark").to_string();
        thread::sleep(Duration::from_millis(20));
    }
    seen
}

fn bot_texts(activities: &[Value], reply_to: &str) -> Vec<String> {
    activities
        .iter()
        .filter(|a| a["type"] == "message" && a["replyToId"] == reply_to)
        .map(|a| a["text"].as_str().expect("text").to_string())
        .collect()
}

#[test]
fn a_reply_comes_in_several_activities_with_typing_and_citations() {
    let server = server();
    let mut client = Client::new(&server.url());
    let conversation = start_conversation(&mut client, SECRET);
    let id = posted_id(&send(
        &mut client,
        &conversation,
        "How many vacation days do new employees get?",
    ));
    let at_once = poll(&mut client, &conversation, "").json();
    let echoed = &at_once["activities"][0];
    assert_eq!(echoed["id"], id.as_str());
    assert_eq!(echoed["from"], json!({"id": "tester", "role": "user"}));
    assert!(
        bot_texts(at_once["activities"].as_array().unwrap(), &id).is_empty(),
        "the reply is released over time, not at once"
    );

    let activities = collect(&mut client, &conversation, &id);
    let texts = bot_texts(&activities, &id);
    assert_eq!(texts.len(), 2, "{activities:?}");
    assert_eq!(texts[0], "New employees get 20 vacation days per year [1].");
    assert!(texts[1].contains("accrue monthly"));
    assert!(activities
        .iter()
        .any(|a| a["type"] == "typing" && a["replyToId"] == id.as_str()));
    let first = activities
        .iter()
        .find(|a| a["type"] == "message" && a["replyToId"] == id.as_str())
        .unwrap();
    assert_eq!(first["from"]["role"], "bot");
    assert_eq!(first["locale"], "en-GB");
    let claim = &first["entities"][0]["citation"][0];
    assert_eq!(claim["@type"], "Claim");
    assert_eq!(claim["position"], 1);
    assert_eq!(claim["appearance"]["name"], "Vacation policy");
    assert!(claim["appearance"]["url"]
        .as_str()
        .unwrap()
        .starts_with("https://"));

    let ids: Vec<&str> = activities
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids, unique, "each activity is delivered once");
    let after = poll(&mut client, &conversation, &activities.len().to_string()).json();
    assert_eq!(after["activities"], json!([]));
    assert_eq!(after["watermark"], activities.len().to_string());
}

#[test]
fn parts_are_released_about_a_hundred_milliseconds_apart() {
    let server = server();
    let mut client = Client::new(&server.url());
    let conversation = start_conversation(&mut client, SECRET);
    let sent = Instant::now();
    let id = posted_id(&send(
        &mut client,
        &conversation,
        "Summarize the travel policy.",
    ));
    let mut arrivals = Vec::new();
    let mut watermark = String::new();
    while arrivals.len() < 2 && sent.elapsed() < Duration::from_secs(3) {
        let body = poll(&mut client, &conversation, &watermark).json();
        for activity in body["activities"].as_array().unwrap() {
            if activity["type"] == "message" && activity["replyToId"] == id.as_str() {
                arrivals.push(sent.elapsed());
            }
        }
        watermark = body["watermark"].as_str().unwrap().to_string();
        thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(arrivals.len(), 2);
    assert!(arrivals[0] >= Duration::from_millis(90), "{arrivals:?}");
    assert!(arrivals[1] >= Duration::from_millis(190), "{arrivals:?}");
}

#[test]
fn a_follow_up_in_the_same_conversation_refers_to_the_last_answer() {
    let server = server();
    let mut client = Client::new(&server.url());
    let conversation = start_conversation(&mut client, SECRET);
    let first = posted_id(&send(&mut client, &conversation, "Where do I park?"));
    let activities = collect(&mut client, &conversation, &first);
    assert_eq!(
        bot_texts(&activities, &first),
        ["Visitor parking is in garage B [1]."]
    );
    let second = posted_id(&send(&mut client, &conversation, "When is it open?"));
    let activities = collect(&mut client, &conversation, &second);
    let texts = bot_texts(&activities, &second);
    assert_eq!(texts.len(), 1);
    assert!(texts[0].contains("6:00 to 22:00"), "{texts:?}");

    let fresh = start_conversation(&mut client, SECRET);
    let alone = posted_id(&send(&mut client, &fresh, "When is it open?"));
    let texts = bot_texts(&collect(&mut client, &fresh, &alone), &alone);
    assert!(texts[0].starts_with("I couldn't find that"), "{texts:?}");
}

#[test]
fn the_token_endpoint_gives_a_conversation_and_tokens_are_checked() {
    let server = server();
    let mut client = Client::new(&server.url());
    let issued = client.get("/agent/directline/token", &[]);
    assert_eq!(issued.status, 200);
    let issued = issued.json();
    assert_eq!(issued["expires_in"], 3600);
    let token = format!("Bearer {}", issued["token"].as_str().unwrap());
    let conversation = start_conversation(&mut client, &token);
    assert_eq!(conversation.id, issued["conversationId"].as_str().unwrap());
    assert_eq!(conversation.auth, token);
    let id = posted_id(&send(
        &mut client,
        &conversation,
        "What is the parental leave policy?",
    ));
    let texts = bot_texts(&collect(&mut client, &conversation, &id), &id);
    assert!(texts[0].contains("16 weeks"));

    let again = client.post_with(
        &format!("{ENDPOINT}/conversations"),
        &[("authorization", &token)],
        &json!({}),
    );
    assert_eq!(again.status, 200, "a conversation's token gets it back");
    assert_eq!(again.json()["conversationId"], conversation.id.as_str());

    let wrong = Conversation {
        id: conversation.id.clone(),
        auth: "Bearer not-the-token".into(),
    };
    assert_eq!(send(&mut client, &wrong, "hi").status, 401);
    assert_eq!(poll(&mut client, &wrong, "").status, 401);
    let unknown = Conversation {
        id: "nope".into(),
        auth: token.clone(),
    };
    assert_eq!(send(&mut client, &unknown, "hi").status, 404);
    for auth in [None, Some("Bearer wrong-secret")] {
        let headers: Vec<(&str, &str)> = auth.map(|a| ("authorization", a)).into_iter().collect();
        let refused = client.post_with(&format!("{ENDPOINT}/conversations"), &headers, &json!({}));
        assert_eq!(refused.status, 401);
        assert_eq!(refused.json()["error"]["code"], "Unauthorized");
    }
    assert_eq!(server.stats().unauthorized, 4);
}

#[test]
fn bad_activities_are_refused_by_name() {
    let server = server();
    let mut client = Client::new(&server.url());
    let conversation = start_conversation(&mut client, SECRET);
    let path = format!("{ENDPOINT}/conversations/{}/activities", conversation.id);
    let auth = [("authorization", conversation.auth.as_str())];
    for (body, expected) in [
        (json!([1]), "JSON activity object"),
        (json!({"text": "hi"}), "no `type`"),
        (json!({"type": "message"}), "`text`"),
        (
            json!({"type": "message", "text": "[[agent:fault=teapot]]"}),
            "teapot",
        ),
    ] {
        let reply = client.post_with(&path, &auth, &body);
        assert_eq!(reply.status, 400);
        let message = reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(message.contains(expected), "{message}");
    }
    let event = client.post_with(
        &path,
        &auth,
        &json!({"type": "event", "name": "startConversation"}),
    );
    assert_eq!(event.status, 200);
    let page = poll(&mut client, &conversation, "").json();
    assert_eq!(
        page["activities"].as_array().unwrap().len(),
        1,
        "an event gets no reply"
    );
    let bad_watermark = poll(&mut client, &conversation, "x");
    assert_eq!(bad_watermark.status, 400);
}

#[test]
fn rate_limits_and_server_errors_apply_to_the_first_attempts() {
    let server = server();
    let mut client = Client::new(&server.url());
    let conversation = start_conversation(&mut client, SECRET);
    let text = "Where do I park? [[agent:fault=429*1]]";
    let limited = send(&mut client, &conversation, text);
    assert_eq!(limited.status, 429);
    assert_eq!(limited.header("retry-after"), Some("1"));
    let id = posted_id(&send(&mut client, &conversation, text));
    let texts = bot_texts(&collect(&mut client, &conversation, &id), &id);
    assert_eq!(
        texts,
        ["Visitor parking is in garage B [1]."],
        "directives are not in the prompt"
    );

    let failing = "Who wrote Hamlet? [[agent:fault=500*2]]";
    assert_eq!(send(&mut client, &conversation, failing).status, 500);
    assert_eq!(send(&mut client, &conversation, failing).status, 500);
    posted_id(&send(&mut client, &conversation, failing));
    let stats = server.stats();
    assert_eq!(stats.faults.get("429"), Some(&1));
    assert_eq!(stats.faults.get("500"), Some(&2));
}

#[test]
fn an_expired_conversation_refuses_everything_and_a_new_one_succeeds() {
    let server = server();
    let mut client = Client::new(&server.url());
    let conversation = start_conversation(&mut client, SECRET);
    let text = "Which benefits system do I use? [[agent:fault=expire*1]]";
    let refused = send(&mut client, &conversation, text);
    assert_eq!(refused.status, 403);
    assert_eq!(refused.json()["error"]["code"], "TokenExpired");
    assert_eq!(poll(&mut client, &conversation, "").status, 403);
    assert_eq!(
        send(&mut client, &conversation, "Where do I park?").status,
        403
    );

    let restarted = start_conversation(&mut client, SECRET);
    let id = posted_id(&send(&mut client, &restarted, text));
    let texts = bot_texts(&collect(&mut client, &restarted, &id), &id);
    assert!(texts[0].contains("BenefitsHub"));

    let always = "Where do I park? [[agent:fault=expire]]";
    let other = start_conversation(&mut client, SECRET);
    assert_eq!(send(&mut client, &other, always).status, 403);
    let another = start_conversation(&mut client, SECRET);
    assert_eq!(send(&mut client, &another, always).status, 403);
    assert_eq!(server.stats().faults.get("expire"), Some(&3));
}

#[test]
fn a_hang_closes_without_an_answer_and_latency_delays_the_reply() {
    let server = start(ServerConfig {
        hang: Duration::from_millis(200),
        ..ServerConfig::default()
    })
    .expect("server starts");
    let mut client = Client::new(&server.url());
    let conversation = start_conversation(&mut client, SECRET);
    let started = Instant::now();
    let hung = send(
        &mut client,
        &conversation,
        "Where do I park? [[agent:fault=hang]]",
    );
    assert_eq!(hung.status, 0);
    assert!(hung.closed);
    assert!(started.elapsed() >= Duration::from_millis(180));

    let sent = Instant::now();
    let id = posted_id(&send(
        &mut client,
        &conversation,
        "Where do I park? [[agent:latency=400]]",
    ));
    assert!(
        sent.elapsed() < Duration::from_millis(300),
        "the post itself is not delayed"
    );
    let activities = collect(&mut client, &conversation, &id);
    assert_eq!(bot_texts(&activities, &id).len(), 1);
    assert!(sent.elapsed() >= Duration::from_millis(400 + 100 + 400));
}

#[test]
fn with_a_key_the_key_is_the_secret_and_tokens_still_start_conversations() {
    let server = start(ServerConfig {
        key: Some("sk-local".into()),
        ..ServerConfig::default()
    })
    .expect("server starts");
    let mut client = Client::new(&server.url());
    let refused = client.post_with(
        &format!("{ENDPOINT}/conversations"),
        &[("authorization", SECRET)],
        &json!({}),
    );
    assert_eq!(refused.status, 401);
    let conversation = start_conversation(&mut client, "Bearer sk-local");
    posted_id(&send(&mut client, &conversation, "Where do I park?"));
    let issued = client.get("/agent/directline/token", &[]);
    assert_eq!(
        issued.status, 200,
        "the token endpoint is public, as Copilot Studio's"
    );
    let token = format!("Bearer {}", issued.json()["token"].as_str().unwrap());
    let from_token = start_conversation(&mut client, &token);
    posted_id(&send(&mut client, &from_token, "Where do I park?"));
    assert_eq!(server.stats().unauthorized, 1);
}

#[test]
fn stats_count_each_route_and_preflights_allow_the_headers() {
    let server = server();
    let mut client = Client::new(&server.url());
    assert!(server.stats().agent_requests.is_empty());
    client.get("/agent/directline/token", &[]);
    let conversation = start_conversation(&mut client, SECRET);
    let id = posted_id(&send(&mut client, &conversation, "What is 2+2?"));
    collect(&mut client, &conversation, &id);
    let stats = server.stats();
    assert_eq!(stats.agent_requests["directline.token"], 1);
    assert_eq!(stats.agent_requests["directline.start"], 1);
    assert_eq!(stats.agent_requests["directline.post"], 1);
    assert!(stats.agent_requests["directline.poll"] >= 2);
    assert_eq!(stats.completions, 0);

    let wrong_method = client.get(&format!("{ENDPOINT}/conversations"), &[]);
    assert_eq!(wrong_method.status, 405);
    assert_eq!(wrong_method.header("allow"), Some("POST"));
    let unknown = client.get("/agent/nowhere", &[]);
    assert_eq!(unknown.status, 404);

    let preflight = client.request(
        "OPTIONS",
        &format!("{ENDPOINT}/conversations"),
        &[
            ("origin", "http://localhost:8000"),
            ("access-control-request-method", "POST"),
            (
                "access-control-request-headers",
                "authorization, content-type",
            ),
        ],
        "",
    );
    assert_eq!(preflight.status, 204);
    assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
    assert!(preflight
        .header("access-control-allow-headers")
        .unwrap()
        .contains("authorization"));
    let page = poll(&mut client, &conversation, "");
    assert_eq!(page.header("access-control-allow-origin"), Some("*"));
}

#[test]
fn concurrent_conversations_each_get_their_own_replies() {
    let server = server();
    let prompts = [
        ("Where do I park?", "garage B"),
        ("Who wrote Hamlet?", "Shakespeare"),
        ("What is the parental leave policy?", "16 weeks"),
        ("Which benefits system do I use?", "BenefitsHub"),
    ];
    let workers: Vec<_> = (0..16)
        .map(|i| {
            let url = server.url();
            let (prompt, expected) = prompts[i % prompts.len()];
            thread::spawn(move || {
                let mut client = Client::new(&url);
                let conversation = start_conversation(&mut client, SECRET);
                let id = posted_id(&send(&mut client, &conversation, prompt));
                let activities = collect(&mut client, &conversation, &id);
                assert!(
                    activities
                        .iter()
                        .all(|a| a["conversation"]["id"] == conversation.id.as_str()),
                    "an activity of another conversation: {activities:?}"
                );
                let texts = bot_texts(&activities, &id);
                assert!(texts.join("\n\n").contains(expected), "{prompt}: {texts:?}");
            })
        })
        .collect();
    for worker in workers {
        worker.join().expect("conversation");
    }
    assert_eq!(server.stats().agent_requests["directline.start"], 16);
}
