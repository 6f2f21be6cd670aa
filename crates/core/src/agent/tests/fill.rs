//! Filling each dialect: M365 items and threads, Foundry rows (text or message lists), Copilot
//! Studio CSV (an import set gains `actualResponse`), kept items and `--rerun`.

use serde_json::json;

use serde_json::Value;

use crate::agent::fill::{prepare, Prepared, EXTENSION};
use crate::agent::{AgentError, Citation, Reply, ToolCall, TurnRecord};
use crate::dataset::Dataset;
use crate::judge::Usage;
use crate::report::Dialect;

fn answered(text: &str) -> TurnRecord {
    TurnRecord {
        reply: Ok(Reply {
            text: text.to_owned(),
            ..Reply::default()
        }),
        latency_ms: 120,
    }
}

fn prompts(prepared: &Prepared) -> Vec<Vec<String>> {
    prepared
        .conversations
        .iter()
        .map(|conversation| {
            conversation
                .turns
                .iter()
                .map(|turn| turn.text.clone())
                .collect()
        })
        .collect()
}

const DOCUMENT: &str = r#"{"schemaVersion": "1.11.0", "items": [
    {"prompt": "How many vacation days?", "expected_response": "20 days."},
    {"prompt": "Kept?", "response": "Already answered."},
    {"name": "follow-up", "turns": [{"prompt": "Who approves leave?"}, {"prompt": "And if they are away?", "response": "old"}]}
]}"#;

#[test]
fn m365_items_and_threads_are_filled_with_their_run_recorded() {
    let prepared = prepare(DOCUMENT.as_bytes(), None, false).unwrap();
    assert_eq!(prepared.dialect(), Dialect::M365);
    assert_eq!(
        prompts(&prepared),
        vec![
            vec!["How many vacation days?"],
            vec!["Who approves leave?", "And if they are away?"]
        ]
    );
    assert_eq!(prepared.kept, vec!["items[1]"]);
    let mut first = answered("New employees get 20 days [1].");
    if let Ok(reply) = &mut first.reply {
        reply.citations.push(Citation {
            title: Some("Leave".into()),
            url: Some("https://hr.test/leave".into()),
            text: None,
        });
        reply.usage = Some(Usage {
            prompt_tokens: 10,
            completion_tokens: 5,
            total_tokens: 15,
        });
    }
    let failed = TurnRecord {
        reply: Err(AgentError::new(
            "agentTimeout",
            "Direct Line: read the reply: no reply within 60000 ms (timeoutMs)",
        )),
        latency_ms: 60_000,
    };
    let written = prepared.write(&[vec![first], vec![answered("Your manager."), failed]]);
    let document: Value = serde_json::from_str(&written).unwrap();
    let item = &document["items"][0];
    assert_eq!(item["response"], "New employees get 20 days [1].");
    assert_eq!(
        item["citations"],
        json!([{"index": 1, "source": "https://hr.test/leave", "title": "Leave"}])
    );
    assert_eq!(item["extensions"][EXTENSION]["latencyMs"], 120);
    assert_eq!(item["extensions"][EXTENSION]["tokens"]["total_tokens"], 15);
    assert_eq!(document["items"][1]["response"], "Already answered.");
    assert!(document["items"][1].get("extensions").is_none());
    let turns = &document["items"][2]["turns"];
    assert_eq!(turns[0]["response"], "Your manager.");
    assert!(
        turns[1].get("response").is_none(),
        "a failed turn keeps no stale response"
    );
    assert_eq!(
        turns[1]["extensions"][EXTENSION]["error"]["code"],
        "agentTimeout"
    );
    let reread = crate::dataset::load(written.as_bytes(), None).unwrap();
    assert!(!reread.has_errors(), "{:?}", reread.diagnostics);
    let rerun = prepare(DOCUMENT.as_bytes(), None, true).unwrap();
    assert_eq!(rerun.conversations.len(), 3);
    assert!(rerun.kept.is_empty());
}

#[test]
fn foundry_rows_get_the_text_or_the_message_list_and_extra_fields() {
    let rows = concat!(
        "{\"query\": \"What is the capital of France?\", \"ground_truth\": \"Paris\"}\n",
        "{\"query\": [{\"role\": \"system\", \"content\": \"Be brief.\"}, {\"role\": \"user\", \"content\": \"Weather in Paris?\"}]}\n",
        "{\"query\": \"Kept\", \"response\": \"as it was\",  \"ground_truth\": \"x\"}\n",
    );
    let prepared = prepare(rows.as_bytes(), None, false).unwrap();
    assert_eq!(prepared.dialect(), Dialect::Foundry);
    assert_eq!(
        prompts(&prepared),
        vec![
            vec!["What is the capital of France?"],
            vec!["Weather in Paris?"]
        ]
    );
    assert_eq!(
        prepared.conversations[1].turns[0]
            .messages
            .as_ref()
            .map(Vec::len),
        Some(2)
    );
    assert_eq!(prepared.kept, vec!["line 3"]);
    let mut tooled = answered("It is 21 degrees.");
    if let Ok(reply) = &mut tooled.reply {
        reply.tool_calls.push(ToolCall {
            id: "c1".into(),
            name: "get_weather".into(),
            arguments: json!({"city": "Paris"}),
            output: Some(json!({"temp": 21})),
        });
        reply.usage = Some(Usage {
            prompt_tokens: 3,
            completion_tokens: 4,
            total_tokens: 7,
        });
    }
    let written = prepared.write(&[vec![answered("Paris.")], vec![tooled]]);
    let lines: Vec<Value> = written
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines[0]["response"], "Paris.");
    assert_eq!(lines[0]["agent_latency_ms"], 120);
    assert_eq!(
        lines[1]["response"],
        json!([
            {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp": 21}}]},
            {"role": "assistant", "content": [{"type": "text", "text": "It is 21 degrees."}]}
        ])
    );
    assert_eq!(
        lines[1]["agent_usage"],
        json!({"input_tokens": 3, "output_tokens": 4, "total_tokens": 7})
    );
    assert_eq!(
        written.lines().nth(2),
        rows.lines().nth(2),
        "a kept row is written as it was"
    );
}

#[test]
fn a_copilot_studio_import_set_gets_an_actual_response_column() {
    let csv_text = "question,expectedResponse\r\nHow many vacation days?,20 days\r\n\"Who approves leave, usually?\",Your manager\r\n,no question\r\n";
    let prepared = prepare(csv_text.as_bytes(), None, false).unwrap();
    assert_eq!(prepared.dialect(), Dialect::CopilotStudio);
    assert_eq!(
        prepared.problems.len(),
        1,
        "the row without a question is reported"
    );
    assert!(
        prepared.problems[0].message.contains("question"),
        "{:?}",
        prepared.problems
    );
    assert_eq!(
        prompts(&prepared),
        vec![
            vec!["How many vacation days?"],
            vec!["Who approves leave, usually?"]
        ]
    );
    assert_eq!(prepared.conversations[1].label, "row 3");
    let failed = TurnRecord {
        reply: Err(AgentError::new("agentError", "x")),
        latency_ms: 5,
    };
    let written = prepared.write(&[vec![answered("=20, \"days\"")], vec![failed]]);
    assert_eq!(
        written,
        "question,expectedResponse,actualResponse\r\nHow many vacation days?,20 days,\"'=20, \"\"days\"\"\"\r\n\"Who approves leave, usually?\",Your manager,\r\n,no question,\r\n"
    );
    let reread = crate::dataset::load(written.as_bytes(), None).unwrap();
    let Dataset::CopilotStudio(set) = reread.dataset else {
        panic!("expected a Copilot Studio set")
    };
    assert_eq!(set.rows[0].field(2), "'=20, \"days\"");
    let again = prepare(written.as_bytes(), None, false).unwrap();
    assert_eq!(again.kept, vec!["row 2"]);
    assert_eq!(prompts(&again), vec![vec!["Who approves leave, usually?"]]);
}
