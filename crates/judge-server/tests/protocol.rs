//! The server's protocol, end to end over TCP: routes, deterministic verdicts, directives, every
//! fault kind, auth, CORS and embeddings.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::net::TcpStream;
use std::time::{Duration, Instant};

use agenteval_judge_server::{start, RunningServer, ServerConfig};
use common::{judge_request, post, server, Client};
use serde_json::{json, Value};

const CHAT: &str = "/v1/chat/completions";

fn score(reply: &common::Reply) -> i64 {
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.verdict()["score"]
        .as_i64()
        .unwrap_or_else(|| panic!("integer score in {}", reply.content()))
}

#[test]
fn scores_are_deterministic_in_range_and_spread() {
    let server = server();
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..40 {
        let request = judge_request(&format!("answer number {i}"), 1, 5);
        let first = score(&post(&server.url(), CHAT, &request));
        let second = score(&post(&server.url(), CHAT, &request));
        assert_eq!(first, second, "request {i} scored twice differently");
        assert!((1..=5).contains(&first), "{first} out of 1..=5");
        seen.insert(first);
        let binary = score(&post(
            &server.url(),
            CHAT,
            &judge_request(&format!("answer {i}"), 0, 1),
        ));
        assert!((0..=1).contains(&binary));
    }
    assert!(seen.len() >= 4, "scores barely vary: {seen:?}");
    let verdict = post(&server.url(), CHAT, &judge_request("x", 1, 5)).verdict();
    assert_eq!(verdict["status"], "completed");
    assert!(verdict["reason"]
        .as_str()
        .unwrap_or_default()
        .starts_with("local judge:"));
    let keys: Vec<&String> = verdict
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(keys, ["reason", "score", "status"]);
}

#[test]
fn the_scale_defaults_to_one_to_five_and_seeds_change_scores() {
    let server = server();
    let other_seed = start(ServerConfig {
        seed: 99,
        ..ServerConfig::default()
    })
    .expect("second server");
    let mut differ = 0;
    for i in 0..20 {
        let request = json!({"messages": [{"role": "user", "content": format!("no scale {i}")}]});
        let plain = score(&post(&server.url(), CHAT, &request));
        assert!((1..=5).contains(&plain));
        let seeded = score(&post(&other_seed.url(), CHAT, &request));
        differ += usize::from(plain != seeded);
    }
    assert!(
        differ >= 5,
        "the server seed hardly matters: {differ}/20 differ"
    );
}

#[test]
fn every_route_kind_answers_and_reports_its_model() {
    let server = server();
    let mut request = judge_request("the same question", 1, 5);
    let expected = score(&post(&server.url(), CHAT, &request));
    let azure = post(
        &server.url(),
        "/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21",
        &request,
    );
    assert_eq!(score(&azure), expected);
    assert_eq!(azure.json()["model"], "my-gpt4o");
    request["model"] = json!("gpt-4.1-mini");
    for path in [
        "/openai/v1/chat/completions",
        "/v1/chat/completions",
        "/chat/completions",
    ] {
        let reply = post(&server.url(), path, &request);
        assert_eq!(score(&reply), expected, "{path}");
        let body = reply.json();
        assert_eq!(body["model"], "gpt-4.1-mini", "{path}");
        assert_eq!(body["object"], "chat.completion");
        assert_eq!(body["choices"][0]["finish_reason"], "stop");
        assert_eq!(body["choices"][0]["message"]["role"], "assistant");
        assert!(body["id"]
            .as_str()
            .unwrap_or_default()
            .starts_with("chatcmpl-"));
    }
    assert_eq!(server.stats().completions, 5);
}

#[test]
fn usage_counts_four_bytes_a_token() {
    let server = server();
    let request = judge_request("twelve bytes", 1, 5);
    let reply = post(&server.url(), CHAT, &request);
    let body = reply.json();
    let message_bytes: usize = request["messages"]
        .as_array()
        .map(|messages| {
            messages
                .iter()
                .map(|m| m["content"].as_str().unwrap_or("").len())
                .sum()
        })
        .unwrap_or(0);
    let prompt = message_bytes.div_ceil(4) as u64;
    let completion = reply.content().len().div_ceil(4) as u64;
    assert_eq!(body["usage"]["prompt_tokens"], prompt);
    assert_eq!(body["usage"]["completion_tokens"], completion);
    assert_eq!(body["usage"]["total_tokens"], prompt + completion);
    let stats = server.stats();
    assert_eq!(
        (stats.prompt_tokens, stats.completion_tokens),
        (prompt, completion)
    );
}

#[test]
fn score_reason_and_skip_directives_shape_the_verdict() {
    let server = server();
    for literal in ["4", "7", "null", "\"4\"", "true", "2.5"] {
        let request = judge_request(&format!("text [[judge:score={literal}]] more"), 1, 5);
        let verdict = post(&server.url(), CHAT, &request).verdict();
        let expected: Value = serde_json::from_str(literal).expect("literal");
        assert_eq!(verdict["score"], expected, "score={literal}");
        assert_eq!(verdict["status"], "completed");
    }
    let reason = post(
        &server.url(),
        CHAT,
        &judge_request("[[judge:reason=too vague]][[judge:score=2]]", 1, 5),
    )
    .verdict();
    assert_eq!(
        reason,
        json!({"reason": "too vague", "score": 2, "status": "completed"})
    );
    let skipped = post(&server.url(), CHAT, &judge_request("[[judge:skip]]", 1, 5));
    assert_eq!(
        skipped.content(),
        r#"{"reason":"local judge: not applicable","score":null,"status":"skipped"}"#
    );
    let typo = post(
        &server.url(),
        CHAT,
        &judge_request("[[judge:scroe=4]]", 1, 5),
    );
    assert_eq!(typo.status, 400);
    assert!(typo.json()["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("scroe"));
}

/// A reply to `[[judge:fault=KIND]]` on the 1..=5 scale.
fn fault(server: &RunningServer, kind: &str) -> common::Reply {
    let request = judge_request(&format!("judge this [[judge:fault={kind}]]"), 1, 5);
    Client::new(&server.url()).post(CHAT, &request)
}

#[test]
fn status_faults_answer_with_error_objects() {
    let server = server();
    let limited = fault(&server, "429");
    assert_eq!(limited.status, 429);
    assert_eq!(limited.header("retry-after"), Some("1"));
    assert_eq!(limited.header("retry-after-ms"), Some("50"));
    assert_eq!(limited.header("x-ratelimit-remaining-requests"), Some("0"));
    assert!(limited.json()["error"]["message"].is_string());
    for status in [500, 502, 503, 401, 403] {
        let reply = fault(&server, &status.to_string());
        assert_eq!(reply.status, status);
        let error = &reply.json()["error"];
        assert!(
            error["message"].is_string() && error["code"].is_string(),
            "{error}"
        );
        assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
        assert!(!reply.closed, "a {status} keeps the connection open");
    }
    let html = fault(&server, "notjson-body");
    assert_eq!(html.status, 200);
    assert!(serde_json::from_slice::<Value>(&html.body).is_err());
    let stats = server.stats();
    for kind in ["429", "500", "502", "503", "401", "403", "notjson-body"] {
        assert_eq!(stats.faults.get(kind), Some(&1), "{kind}");
    }
    assert_eq!(stats.unauthorized, 0, "a 401 fault is not an auth failure");
    assert_eq!(stats.by_status.get(&429), Some(&1));
}

#[test]
fn content_faults_break_the_verdict_in_their_own_way() {
    let server = server();
    let normal = post(
        &server.url(),
        CHAT,
        &judge_request("judge this [[judge:fault=empty*0]]", 1, 5),
    )
    .verdict();
    assert_eq!(fault(&server, "malformed").content(), "this is not JSON {");
    let length = fault(&server, "length");
    assert_eq!(length.json()["choices"][0]["finish_reason"], "length");
    assert!(serde_json::from_str::<Value>(&length.content()).is_err());
    assert!(length.content().starts_with("{\"reason\""));
    let missing = fault(&server, "missing").verdict();
    assert!(missing.get("score").is_none() && missing["status"] == "completed");
    assert_eq!(fault(&server, "range").verdict()["score"], 7);
    let fenced = fault(&server, "fence").content();
    let block = fenced
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .unwrap_or_else(|| panic!("no fenced block in {fenced}"));
    assert!(!fenced.starts_with("```"), "prose comes first");
    let inside: Value = serde_json::from_str(block).expect("fenced JSON");
    assert!((1..=5).contains(&inside["score"].as_i64().unwrap_or(0)));
    let tags = fault(&server, "tags").content();
    assert!(tags.starts_with("<S0>") && tags.contains("</S0><S1>") && tags.ends_with("</S2>"));
    let tagged: i64 = tags
        .split("<S2>")
        .nth(1)
        .and_then(|rest| rest.strip_suffix("</S2>"))
        .and_then(|score| score.parse().ok())
        .unwrap_or(0);
    assert!((1..=5).contains(&tagged), "{tags}");
    let refusal = fault(&server, "refusal").json();
    assert_eq!(refusal["choices"][0]["message"]["content"], Value::Null);
    assert_eq!(
        refusal["choices"][0]["message"]["refusal"],
        "I can't help with that."
    );
    assert_eq!(fault(&server, "empty").content(), "");
    assert!((1..=5).contains(&normal["score"].as_i64().unwrap_or(0)));
}

#[test]
fn truncated_replies_stop_mid_body_and_close() {
    let server = server();
    let reply = fault(&server, "truncated");
    assert_eq!(reply.status, 200);
    let announced = reply.announced.expect("content-length");
    assert!(
        reply.body.len() < announced,
        "{} of {announced} bytes",
        reply.body.len()
    );
    assert!(!reply.body.is_empty(), "half the body is sent");
    assert!(reply.closed, "the connection is closed");
    assert!(serde_json::from_slice::<Value>(&reply.body).is_err());
    assert_eq!(server.stats().faults.get("truncated"), Some(&1));
}

#[test]
fn hangs_send_nothing_then_close() {
    let server = start(ServerConfig {
        hang: Duration::from_millis(300),
        ..ServerConfig::default()
    })
    .expect("server");
    let started = Instant::now();
    let reply = fault(&server, "hang");
    let waited = started.elapsed();
    assert!(
        reply.closed && reply.status == 0,
        "nothing was sent: {reply:?}"
    );
    assert!(
        waited >= Duration::from_millis(300),
        "closed after {waited:?}"
    );
    assert!(waited < Duration::from_secs(5));
    let stats = server.stats();
    assert_eq!(stats.faults.get("hang"), Some(&1));
    assert_eq!(stats.in_flight, 0);
}

#[test]
fn stopping_ends_a_long_hang_and_closes_the_port() {
    let server = server();
    let url = server.url();
    let client = std::thread::spawn(move || {
        let started = Instant::now();
        let reply = Client::new(&url).post(CHAT, &judge_request("[[judge:fault=hang]]", 1, 5));
        (reply, started.elapsed())
    });
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.stats().in_flight == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        server.stats().faults.get("hang"),
        Some(&1),
        "the hang began"
    );
    let port = server.port();
    server.stop();
    let (reply, waited) = client.join().expect("client thread");
    assert!(reply.closed);
    assert!(
        waited < Duration::from_secs(5),
        "the 600 s hang ended at stop: {waited:?}"
    );
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "port still open"
    );
}

#[test]
fn a_counted_fault_gives_way_on_the_next_attempt_and_reset_counts_again() {
    let server = server();
    let request = judge_request("flaky [[judge:fault=500*2]] [[judge:score=3]]", 1, 5);
    let mut client = Client::new(&server.url());
    let statuses: Vec<u16> = (0..4).map(|_| client.post(CHAT, &request).status).collect();
    assert_eq!(statuses, [500, 500, 200, 200]);
    assert_eq!(client.post(CHAT, &request).verdict()["score"], 3);
    let reset = client.request("POST", "/reset", &[], "");
    assert_eq!(reset.status, 200);
    assert_eq!(server.stats().completions, 0);
    assert_eq!(client.post(CHAT, &request).status, 500);
    server.reset_stats();
    assert_eq!(client.post(CHAT, &request).status, 500);
    assert_eq!(server.stats().faults.get("500"), Some(&1));
}

#[test]
fn keys_are_checked_in_both_header_styles() {
    let server = start(ServerConfig {
        key: Some("sekret".into()),
        ..ServerConfig::default()
    })
    .expect("server");
    let body = judge_request("authorised?", 1, 5).to_string();
    let mut client = Client::new(&server.url());
    let missing = client.request("POST", CHAT, &[], &body);
    assert_eq!(missing.status, 401);
    let error = &missing.json()["error"];
    assert_eq!(error["code"], "401");
    assert!(error["message"]
        .as_str()
        .unwrap_or_default()
        .starts_with("Access denied due to invalid subscription key"));
    assert_eq!(
        client
            .request("POST", CHAT, &[("api-key", "wrong")], &body)
            .status,
        401
    );
    assert_eq!(
        client
            .request("POST", CHAT, &[("authorization", "Bearer wrong")], &body)
            .status,
        401
    );
    assert_eq!(
        client
            .request("POST", CHAT, &[("api-key", "sekret")], &body)
            .status,
        200
    );
    assert_eq!(
        client
            .request("POST", CHAT, &[("Authorization", "Bearer sekret")], &body)
            .status,
        200
    );
    assert_eq!(client.request("OPTIONS", CHAT, &[], "").status, 204);
    let stats = client.request("GET", "/stats", &[], "");
    assert_eq!(stats.status, 200);
    assert_eq!(stats.json()["unauthorized"], 3);
    assert_eq!(stats.json()["completions"], 2);
    assert_eq!(client.request("POST", "/reset", &[], "").status, 401);
}

#[test]
fn preflights_and_every_response_carry_cors_headers() {
    let server = server();
    let mut client = Client::new(&server.url());
    let preflight = client.request(
        "OPTIONS",
        "/openai/deployments/d/chat/completions?api-version=1",
        &[
            ("origin", "http://127.0.0.1:9999"),
            ("access-control-request-method", "POST"),
            (
                "access-control-request-headers",
                "content-type, api-key, x-stainless-os",
            ),
        ],
        "",
    );
    assert_eq!(preflight.status, 204);
    assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
    assert_eq!(
        preflight.header("access-control-allow-methods"),
        Some("GET, POST, OPTIONS")
    );
    let allowed = preflight
        .header("access-control-allow-headers")
        .unwrap_or_default();
    assert!(allowed.starts_with(
        "content-type, api-key, authorization, x-ms-useragent, x-ms-client-request-id"
    ));
    assert!(allowed.contains("x-stainless-os"));
    assert!(preflight.body.is_empty());
    let exposed = "retry-after, retry-after-ms, x-ratelimit-remaining-requests, \
                   x-ratelimit-remaining-tokens, x-ratelimit-reset-requests, \
                   x-ratelimit-reset-tokens, x-request-id";
    for reply in [
        client.post(CHAT, &judge_request("ok", 1, 5)),
        client.post("/nowhere", &json!({})),
        client.request("POST", CHAT, &[], "{not json"),
        client.request("GET", "/stats", &[], ""),
    ] {
        assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
        assert_eq!(reply.header("access-control-expose-headers"), Some(exposed));
        assert_eq!(
            reply.header("access-control-allow-headers"),
            Some("content-type, api-key, authorization, x-ms-useragent, x-ms-client-request-id")
        );
    }
    let stats = server.stats();
    assert_eq!(stats.preflights, 1);
    assert_eq!(
        stats.requests, 4,
        "preflight, chat, unknown route, bad JSON"
    );
}

#[test]
fn unknown_routes_and_bad_bodies_get_json_errors() {
    let server = server();
    let mut client = Client::new(&server.url());
    let missing = client.post("/v2/chat", &json!({}));
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json()["error"]["code"], "NotFound");
    assert!(missing.json()["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("/v2/chat"));
    let bad = client.request("POST", CHAT, &[], "{\"messages\": [");
    assert_eq!(bad.status, 400);
    assert_eq!(bad.json()["error"]["type"], "invalid_request_error");
    assert_eq!(client.post(CHAT, &json!({"model": "m"})).status, 400);
    assert_eq!(client.request("GET", CHAT, &[], "").status, 405);
    assert_eq!(server.stats().by_status.get(&400), Some(&2));
}

#[test]
fn keep_alive_serves_many_requests_on_one_connection() {
    let server = server();
    let mut client = Client::new(&server.url());
    for i in 0..50 {
        let reply = client.post(CHAT, &judge_request(&format!("again {i}"), 1, 5));
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("connection"), Some("keep-alive"));
    }
    assert_eq!(server.stats().connections, 1);
}

#[test]
fn chunked_bodies_and_expect_continue_are_read() {
    let server = server();
    let body = judge_request("chunked", 1, 5).to_string();
    let expected = score(&post(&server.url(), CHAT, &judge_request("chunked", 1, 5)));
    let (first, second) = body.split_at(10);
    let raw = format!(
        "POST {CHAT} HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n{:x}\r\n{first}\r\n{:x}\r\n{second}\r\n0\r\n\r\n",
        first.len(),
        second.len()
    );
    let mut client = Client::new(&server.url());
    assert_eq!(score(&client.raw(raw.as_bytes())), expected);
    let continued = format!(
        "POST {CHAT} HTTP/1.1\r\nhost: x\r\nexpect: 100-continue\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let interim = client.raw(continued.as_bytes());
    assert_eq!(interim.status, 100);
}

fn cosine(a: &Value, b: &Value) -> f64 {
    let a = a.as_array().expect("vector");
    let b = b.as_array().expect("vector");
    a.iter()
        .zip(b)
        .map(|(x, y)| x.as_f64().unwrap_or(0.0) * y.as_f64().unwrap_or(0.0))
        .sum()
}

#[test]
fn embeddings_are_deterministic_unit_vectors() {
    let server = server();
    let request = json!({"input": ["The capital of France is Paris.", "The capital of France is Paris.", "Revenue grew."], "model": "text-embedding-3-small"});
    let first = post(&server.url(), "/v1/embeddings", &request).json();
    let again = post(&server.url(), "/embeddings", &request).json();
    assert_eq!(first, again);
    assert_eq!(first["object"], "list");
    assert_eq!(first["model"], "text-embedding-3-small");
    let data = first["data"].as_array().expect("data");
    assert_eq!(data.len(), 3);
    for (index, item) in data.iter().enumerate() {
        assert_eq!(item["object"], "embedding");
        assert_eq!(item["index"], index);
        assert_eq!(item["embedding"].as_array().map(Vec::len), Some(64));
        assert!((cosine(&item["embedding"], &item["embedding"]) - 1.0).abs() < 1e-5);
    }
    assert!((cosine(&data[0]["embedding"], &data[1]["embedding"]) - 1.0).abs() < 1e-5);
    assert!(cosine(&data[0]["embedding"], &data[2]["embedding"]) < 0.9);
    let bytes = 2 * "The capital of France is Paris.".len() + "Revenue grew.".len();
    assert_eq!(first["usage"]["prompt_tokens"], bytes.div_ceil(4));
    assert_eq!(first["usage"]["total_tokens"], bytes.div_ceil(4));
    let azure = post(
        &server.url(),
        "/openai/deployments/emb-small/embeddings?api-version=2024-10-21",
        &json!({"input": "The capital of France is Paris."}),
    )
    .json();
    assert_eq!(azure["model"], "emb-small");
    assert_eq!(azure["data"][0]["embedding"], data[0]["embedding"]);
    let v1 = post(
        &server.url(),
        "/openai/v1/embeddings",
        &json!({"input": "x", "encoding_format": "base64"}),
    )
    .json();
    assert_eq!(v1["data"][0]["embedding"].as_str().map(str::len), Some(344));
    assert_eq!(
        post(&server.url(), "/v1/embeddings", &json!({"input": [1, 2]})).status,
        400
    );
    let limited = post(
        &server.url(),
        "/v1/embeddings",
        &json!({"input": "[[judge:fault=429*1]]"}),
    );
    assert_eq!(limited.status, 429);
    assert_eq!(server.stats().embeddings, 6);
}
