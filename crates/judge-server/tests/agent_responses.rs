//! The demo agent over the OpenAI Responses API, end to end over TCP: output items (file
//! search, tool calls run by the agent or left to the client), the message with its
//! annotations, usage, Foundry agent references, `previous_response_id`, errors and faults.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::time::{Duration, Instant};

use agenteval_judge_server::{start, ServerConfig};
use common::{ok, post, server, Client};
use serde_json::{json, Value};

const RESPONSES: &str = "/agent/openai/v1/responses";

fn types(response: &Value) -> Vec<String> {
    response["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["type"].as_str().unwrap().to_string())
        .collect()
}

fn message_text(response: &Value) -> String {
    let message = response["output"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["type"] == "message")
        .unwrap_or_else(|| panic!("no message in {response}"));
    assert_eq!(message["role"], "assistant");
    message["content"][0]["text"].as_str().unwrap().to_string()
}

#[test]
fn a_knowledge_answer_comes_after_a_file_search_with_annotations_and_usage() {
    let server = server();
    let response = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"model": "gpt-4.1", "input": "How many vacation days do new employees get?"}),
    ));
    assert!(response["id"].as_str().unwrap().starts_with("resp_"));
    assert_eq!(response["object"], "response");
    assert_eq!(response["status"], "completed");
    assert_eq!(response["model"], "gpt-4.1");
    assert_eq!(types(&response), ["file_search_call", "message"]);
    assert_eq!(
        response["output"][0]["queries"],
        json!(["How many vacation days do new employees get?"])
    );
    let text = message_text(&response);
    assert!(
        text.starts_with("New employees get 20 vacation days per year."),
        "{text}"
    );
    assert!(!text.contains("[1]"));
    let annotation = &response["output"][1]["content"][0]["annotations"][0];
    assert_eq!(annotation["type"], "url_citation");
    assert_eq!(annotation["title"], "Vacation policy");
    let usage = &response["usage"];
    let (input, output) = (
        usage["input_tokens"].as_u64().unwrap(),
        usage["output_tokens"].as_u64().unwrap(),
    );
    assert!(input > 0 && output > 0);
    assert_eq!(usage["total_tokens"].as_u64().unwrap(), input + output);
}

#[test]
fn a_foundry_agent_reference_and_message_input_are_understood() {
    let server = server();
    let agent = json!({"name": "hr-agent", "version": "3", "type": "agent_reference"});
    let response = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"agent": agent, "input": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": [{"type": "input_text", "text": "Who wrote Hamlet?"}]},
        ]}),
    ));
    assert_eq!(response["model"], "hr-agent");
    assert_eq!(response["agent"], agent);
    assert_eq!(message_text(&response), "William Shakespeare wrote Hamlet.");
}

#[test]
fn the_agent_runs_its_own_tool_unless_it_is_a_foundry_agent_or_the_client_declares_it() {
    let server = server();
    let prompt = "What is the code for the payroll portal?";
    let own = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"model": "m", "input": prompt}),
    ));
    assert_eq!(
        types(&own),
        ["function_call", "function_call_output", "message"]
    );
    assert_eq!(own["output"][0]["name"], "lookup_portal_code");
    assert_eq!(own["output"][0]["arguments"], r#"{"portal":"payroll"}"#);
    assert_eq!(own["output"][1]["call_id"], own["output"][0]["call_id"]);
    assert_eq!(own["output"][1]["output"], "PAY-42");
    assert!(message_text(&own).contains("PAY-42"));

    let tools = json!([{"type": "function", "name": "lookup_portal_code", "parameters": {}}]);
    let asked = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"model": "m", "input": prompt, "tools": tools}),
    ));
    assert_eq!(types(&asked), ["function_call"]);
    let call_id = asked["output"][0]["call_id"].as_str().unwrap();
    let answered = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"model": "m", "previous_response_id": asked["id"], "input": [
            {"type": "function_call_output", "call_id": call_id, "output": "XYZ-9"}
        ]}),
    ));
    assert_eq!(types(&answered), ["message"]);
    assert_eq!(
        message_text(&answered),
        "The code for the payroll portal is XYZ-9."
    );

    let agent = json!({"name": "hr-agent", "type": "agent_reference"});
    let foundry = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"agent": agent, "input": prompt}),
    ));
    assert_eq!(
        types(&foundry),
        ["function_call"],
        "a Foundry agent's function runs on the client"
    );
    let call_id = foundry["output"][0]["call_id"].as_str().unwrap();
    let finished = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"agent": agent, "previous_response_id": foundry["id"], "input": [
            {"type": "function_call_output", "call_id": call_id, "output": "{\"code\":\"AB-1\"}"}
        ]}),
    ));
    assert_eq!(
        message_text(&finished),
        "The code for the payroll portal is {\"code\":\"AB-1\"}."
    );

    let wrong = post(
        &server.url(),
        RESPONSES,
        &json!({"model": "m", "previous_response_id": asked["id"], "input": [
            {"type": "function_call_output", "call_id": "call_other", "output": "x"}
        ]}),
    );
    assert_eq!(wrong.status, 400);
    assert!(wrong.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("call_other"));
}

#[test]
fn previous_response_id_continues_the_conversation() {
    let server = server();
    let first = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"model": "m", "input": "Where do I park?"}),
    ));
    let follow_up = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"model": "m", "input": "When is it open?", "previous_response_id": first["id"]}),
    ));
    assert_eq!(follow_up["previous_response_id"], first["id"]);
    assert!(message_text(&follow_up).contains("6:00 to 22:00"));
    let alone = ok(&post(
        &server.url(),
        RESPONSES,
        &json!({"model": "m", "input": "When is it open?"}),
    ));
    assert!(message_text(&alone).starts_with("I couldn't find that"));
    assert_eq!(types(&alone), ["message"], "no sources, no file search");
    let unknown = post(
        &server.url(),
        RESPONSES,
        &json!({"model": "m", "input": "hi", "previous_response_id": "resp_missing"}),
    );
    assert_eq!(unknown.status, 400);
    assert!(unknown.json()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("resp_missing"));
}

#[test]
fn bad_requests_are_refused_saying_what_was_expected() {
    let server = server();
    for (body, expected) in [
        (json!([1]), "JSON object"),
        (json!({"input": "hi"}), "`model`"),
        (json!({"model": "m"}), "`input`"),
        (
            json!({"model": "m", "input": [{"role": "assistant", "content": "x"}]}),
            "user message",
        ),
        (
            json!({"model": "m", "input": "hi", "stream": true}),
            "stream",
        ),
        (
            json!({"model": "m", "input": "[[agent:fault=fence]]"}),
            "fence",
        ),
    ] {
        let reply = post(&server.url(), RESPONSES, &body);
        assert_eq!(reply.status, 400, "{body}");
        let error = &reply.json()["error"];
        assert_eq!(error["type"], "invalid_request_error");
        assert!(
            error["message"].as_str().unwrap().contains(expected),
            "{error}"
        );
    }
}

#[test]
fn faults_latency_and_keys_apply() {
    let server = start(ServerConfig {
        key: Some("sk-agent".into()),
        ..ServerConfig::default()
    })
    .expect("server starts");
    let mut client = Client::new(&server.url());
    let auth = [("authorization", "Bearer sk-agent")];
    let body = |text: &str| json!({"model": "m", "input": text});
    assert_eq!(
        client.post(RESPONSES, &body("Where do I park?")).status,
        401
    );
    assert_eq!(server.stats().unauthorized, 1);
    let api_key = client.post_with(
        RESPONSES,
        &[("api-key", "sk-agent")],
        &body("Where do I park?"),
    );
    assert_eq!(api_key.status, 200);

    let flaky = body("Where do I park? [[agent:fault=503*1]]");
    assert_eq!(client.post_with(RESPONSES, &auth, &flaky).status, 503);
    assert_eq!(client.post_with(RESPONSES, &auth, &flaky).status, 200);
    let expired = client.post_with(RESPONSES, &auth, &body("x [[agent:fault=expire]]"));
    assert_eq!(expired.status, 403);
    let truncated = client.post_with(
        RESPONSES,
        &auth,
        &body("Where do I park? [[agent:fault=truncated]]"),
    );
    assert!(truncated.closed);
    assert!(truncated.body.len() < truncated.announced.unwrap());

    let started = Instant::now();
    let slow = client.post_with(
        RESPONSES,
        &auth,
        &body("Where do I park? [[agent:latency=300]]"),
    );
    assert_eq!(slow.status, 200);
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert!(!message_text(&slow.json()).contains("agent:"));
    let stats = server.stats();
    assert_eq!(stats.agent_requests["responses"], 7);
    assert_eq!(stats.faults.get("503"), Some(&1));
    assert_eq!(stats.faults.get("expire"), Some(&1));
    assert_eq!(stats.faults.get("truncated"), Some(&1));
}
