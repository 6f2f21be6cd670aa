//! Snapshot and behaviour tests of every report writer over one hand-built run.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use agenteval_core::json;
use agenteval_core::json::{Map, Value};
use agenteval_core::report::{self, csv, html, junit, markdown};
use agenteval_core::scored::foundry_rows;
use agenteval_core::scored::m365_document::{self, DocumentOptions};
use agenteval_core::{CaseOutcome, Dialect, ErrorCode, EvalResult, ItemStatus, RunReport};

const XSS_REASON: &str = "<script>alert(1)</script><img src=x onerror=alert(2)> & \"quoted\"";

/// Items: 0 pass (with a skip), 1 fail (hostile text), 2 a 3-turn thread (pass, partial, error),
/// 3 invalid, 4 all skipped, 5 a pass whose reason is an HTML payload.
fn sample_report() -> RunReport {
    let mut report = RunReport::new(Dialect::M365);
    report.tool.version = "test";
    report.push(CaseOutcome {
        index: 0,
        turn: None,
        status: Some(ItemStatus::Pass),
        results: vec![
            EvalResult::scored("PartialMatch", true, 0.8, 0.5).with_reason("Match score: 0.800"),
            EvalResult::verdict("ExactMatch", true)
                .with_reason("Exact match found")
                .with_detail("match", true),
            EvalResult::skipped("Relevance", "needs a judge that is not configured"),
        ],
        problem: None,
        review: None,
    });
    report.push(CaseOutcome {
        index: 1,
        turn: None,
        status: Some(ItemStatus::Fail),
        results: vec![
            EvalResult::scored("PartialMatch", false, 0.25, 0.5).with_reason(
                "=HYPERLINK(\"http://evil\") | pipe, comma\nsecond line (below threshold 0.5)",
            ),
            {
                let mut citations = EvalResult::scored("Citations", false, 0.0, 1.0)
                    .with_reason("Found 0 citations, need 1")
                    .with_detail("count", 0)
                    .with_detail("format", "oai_unicode")
                    .with_detail("citations", json!([]));
                citations.score = Some(0.0);
                citations
            },
        ],
        problem: None,
        review: None,
    });
    report.push(CaseOutcome {
        index: 2,
        turn: Some(0),
        status: Some(ItemStatus::Pass),
        results: vec![EvalResult::scored("professional_tone", true, 4.0, 3.0)
            .with_reason("Polite and clear.")
            .with_detail("samples", 5)],
        problem: None,
        review: None,
    });
    report.push(CaseOutcome {
        index: 2,
        turn: Some(1),
        status: Some(ItemStatus::Partial),
        results: vec![
            EvalResult::scored("PartialMatch", true, 1.0, 0.5).with_reason("Match score: 1.000"),
            EvalResult::error(
                "Coherence",
                ErrorCode::JudgeTimeout,
                "Judge did not answer within 30s",
            ),
        ],
        problem: None,
        review: None,
    });
    report.push(CaseOutcome {
        index: 2,
        turn: Some(2),
        status: Some(ItemStatus::Error),
        results: vec![EvalResult::error(
            "PartialMatch",
            ErrorCode::EmptyAgentResponse,
            "response is missing or empty",
        )],
        problem: None,
        review: None,
    });
    report.push(CaseOutcome {
        index: 3,
        turn: None,
        status: Some(ItemStatus::Error),
        results: vec![],
        problem: Some("items[3].prompt: expected a non-empty string".to_owned()),
        review: None,
    });
    report.push(CaseOutcome {
        index: 4,
        turn: None,
        status: None,
        results: vec![EvalResult::skipped(
            "Relevance",
            "needs a judge that is not configured",
        )],
        problem: None,
        review: None,
    });
    report.push(CaseOutcome {
        index: 5,
        turn: None,
        status: Some(ItemStatus::Pass),
        results: vec![EvalResult::scored("Relevance", true, 5.0, 3.0).with_reason(XSS_REASON)],
        problem: None,
        review: None,
    });
    report
}

/// An M365 document matching `sample_report`, with user fields, odd key order and stale outputs.
fn sample_document(schema_version: &str) -> Value {
    json!({
        "$schema": "https://example.invalid/schema.json",
        "schemaVersion": schema_version,
        "items": [
            {
                "response": "Microsoft Graph is the API.",
                "prompt": "What is Graph?",
                "expected_response": "Microsoft Graph is an API.",
                "extensions": {"owner": "qa", "z": 1, "a": 2},
                "status": "fail",
                "scores": {"stale": {"result": "fail"}}
            },
            {
                "prompt": "Cite something",
                "expected_response": "Graph [1]",
                "response": "No citations here",
                "error": {"code": "agentRequestFailed", "message": "stale"}
            },
            {
                "name": "three turns",
                "turns": [
                    {"prompt": "hi", "response": "hello"},
                    {"prompt": "and?", "expected_response": "x", "response": "x"},
                    {"prompt": "more", "expected_response": "y", "response": ""}
                ],
                "summary": {"turns_total": 9, "turns_passed": 9, "turns_failed": 0,
                            "turns_partial": 0, "turns_errored": 0, "overall_status": "pass"},
                "conversation_id": "c-1"
            },
            {"prompt": "invalid one", "evaluators": {"Relevance": {}}},
            {"prompt": "all skipped", "response": "text", "status": "pass"},
            {"prompt": "payload", "response": XSS_REASON}
        ]
    })
}

fn options() -> DocumentOptions {
    DocumentOptions {
        evaluated_at: Some("2026-05-01T11:00:00Z".to_owned()),
    }
}

#[test]
fn m365_document_snapshot() {
    let written = m365_document::write(&sample_document("1.4.0"), &sample_report(), &options());
    insta::assert_json_snapshot!(written);
}

#[test]
fn m365_document_keeps_user_fields_and_key_order() {
    let document = sample_document("1.4.0");
    let written = m365_document::write(&document, &sample_report(), &options());
    let keys = |value: &Value| -> Vec<String> {
        value
            .as_object()
            .map(|object| object.keys().cloned().collect())
            .unwrap_or_default()
    };
    assert_eq!(
        keys(&written["items"][0]),
        [
            "response",
            "prompt",
            "expected_response",
            "extensions",
            "status",
            "scores"
        ]
    );
    assert_eq!(
        written["items"][0]["extensions"],
        document["items"][0]["extensions"]
    );
    assert_eq!(
        keys(&written["items"][0]["extensions"]),
        ["owner", "z", "a"]
    );
    assert_eq!(
        keys(&written["items"][2]),
        ["name", "turns", "summary", "conversation_id"]
    );
    assert_eq!(keys(&written)[..2], ["$schema", "schemaVersion"]);
    for (index, item) in document["items"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        assert_eq!(written["items"][index]["response"], item["response"]);
        assert_eq!(written["items"][index]["prompt"], item["prompt"]);
    }
    assert_eq!(written["items"][2]["turns"][2]["response"], "");
}

#[test]
fn m365_document_replaces_stale_outputs() {
    let written = m365_document::write(&sample_document("1.4.0"), &sample_report(), &options());
    assert!(written["items"][0]["scores"].get("stale").is_none());
    assert_eq!(written["items"][0]["status"], "pass");
    assert!(
        written["items"][1].get("error").is_none(),
        "a fail has no error"
    );
    assert!(
        written["items"][4].get("status").is_none(),
        "all skipped: no status"
    );
    assert_eq!(written["items"][4]["scores"], json!({}));
    assert_eq!(written["items"][2]["summary"]["turns_total"], 3);
    assert_eq!(written["items"][2]["summary"]["overall_status"], "error");
}

#[test]
fn m365_document_item_errors() {
    let written = m365_document::write(&sample_document("1.4.0"), &sample_report(), &options());
    assert_eq!(
        written["items"][2]["turns"][1]["error"],
        json!({"code": "evaluatorsFailed",
               "message": "Agent response obtained. 1 of 2 evaluators failed to run."})
    );
    assert_eq!(
        written["items"][2]["turns"][2]["error"]["code"],
        "agentRequestFailed"
    );
    assert_eq!(
        written["items"][3]["error"],
        json!({"code": "evaluatorsFailed",
               "message": "Item could not be evaluated: items[3].prompt: expected a non-empty string"})
    );
}

#[test]
fn m365_errored_score_code_only_from_schema_1_9() {
    let report = sample_report();
    for (version, with_code) in [
        ("1.4.0", false),
        ("1.8.3", false),
        ("1.9.0", true),
        ("1.11.0", true),
        ("not-a-version", false),
    ] {
        let written = m365_document::write(&sample_document(version), &report, &options());
        let errored = &written["items"][2]["turns"][1]["scores"]["coherence"];
        assert_eq!(errored["result"], "error");
        assert_eq!(errored["error"], "Judge did not answer within 30s");
        assert_eq!(
            errored.get("code").is_some(),
            with_code,
            "schemaVersion {version}"
        );
        if with_code {
            assert_eq!(errored["code"], "judgeTimeout");
        }
        assert_eq!(written["schemaVersion"], version, "never bumped");
    }
}

#[test]
fn m365_score_shapes_follow_the_catalog() {
    let written = m365_document::write(&sample_document("1.4.0"), &sample_report(), &options());
    assert_eq!(
        written["items"][0]["scores"]["exactMatch"],
        json!({"result": "pass", "reason": "Exact match found", "match": true})
    );
    assert_eq!(
        written["items"][1]["scores"]["citations"],
        json!({"result": "fail", "threshold": 1, "reason": "Found 0 citations, need 1",
               "count": 0, "format": "oai_unicode", "citations": []})
    );
    assert_eq!(
        written["items"][2]["turns"][0]["scores"]["professional_tone"],
        json!({"score": 4.0, "result": "pass", "threshold": 3, "reason": "Polite and clear.", "samples": 5})
    );
    assert!(
        written["items"][0]["scores"].get("relevance").is_none(),
        "skipped is left out"
    );
}

#[test]
fn m365_document_metadata() {
    let report = sample_report();
    let written = m365_document::write(&sample_document("1.4.0"), &report, &options());
    let keys: Vec<&String> = written
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(keys, ["$schema", "schemaVersion", "metadata", "items"]);
    assert_eq!(
        written["metadata"],
        json!({"evaluatedAt": "2026-05-01T11:00:00Z"})
    );

    let mut with_metadata = sample_document("1.4.0");
    set(
        &mut with_metadata,
        "metadata",
        json!({"name": "set", "evaluatedAt": "old", "agentName": "A"}),
    );
    let written = m365_document::write(&with_metadata, &report, &options());
    assert_eq!(
        written["metadata"],
        json!({"name": "set", "evaluatedAt": "2026-05-01T11:00:00Z", "agentName": "A"})
    );
    let untouched = m365_document::write(&with_metadata, &report, &DocumentOptions::default());
    assert_eq!(untouched["metadata"]["evaluatedAt"], "old");
}

#[test]
fn m365_document_ignores_outcomes_pointing_nowhere() {
    let mut report = RunReport::new(Dialect::M365);
    for (index, turn) in [(9, None), (0, Some(0)), (1, None), (1, Some(7))] {
        report.push(CaseOutcome {
            index,
            turn,
            status: Some(ItemStatus::Pass),
            results: vec![EvalResult::verdict("ExactMatch", true)],
            problem: None,
            review: None,
        });
    }
    let document = json!({"schemaVersion": "1.4.0", "items": [
        {"prompt": "p"},
        {"turns": [{"prompt": "t"}]}
    ]});
    let written = m365_document::write(&document, &report, &DocumentOptions::default());
    assert_eq!(written, document);
    for odd in [json!([1, 2]), json!({"items": "nope"}), json!(null)] {
        assert_eq!(m365_document::write(&odd, &report, &options()), odd);
    }
}

#[test]
fn a_thread_that_could_not_be_evaluated_has_each_turn_in_error() {
    let mut report = RunReport::new(Dialect::M365);
    report.push(CaseOutcome {
        index: 0,
        turn: None,
        status: Some(ItemStatus::Error),
        results: Vec::new(),
        problem: Some("/items/0/turns/1/prompt: expected a string".to_owned()),
        review: None,
    });
    let document = json!({"schemaVersion": "1.4.0", "items": [
        {"name": "n", "turns": [{"prompt": "t", "status": "pass"}, {"prompt": 7}, "odd"]}
    ]});
    let written = m365_document::write(&document, &report, &DocumentOptions::default());
    let error = json!({"code": "evaluatorsFailed",
        "message": "Item could not be evaluated: /items/0/turns/1/prompt: expected a string"});
    assert_eq!(
        written["items"][0],
        json!({"name": "n", "turns": [
            {"prompt": "t", "status": "error", "scores": {}, "error": error},
            {"prompt": 7, "scores": {}, "status": "error", "error": error},
            "odd"
        ], "summary": {"turns_total": 2, "turns_passed": 0, "turns_failed": 0,
            "turns_partial": 0, "turns_errored": 2, "overall_status": "error"}})
    );
    let keys: Vec<&String> = written["items"][0]["turns"][0]
        .as_object()
        .map(|turn| turn.keys().collect())
        .unwrap_or_default();
    assert_eq!(keys, ["prompt", "status", "scores", "error"]);
}

#[test]
fn thread_without_any_status_has_no_summary() {
    let mut report = RunReport::new(Dialect::M365);
    report.push(CaseOutcome {
        index: 0,
        turn: Some(0),
        status: None,
        results: vec![EvalResult::skipped("Relevance", "no judge")],
        problem: None,
        review: None,
    });
    let document = json!({"schemaVersion": "1.2.0", "items": [{"turns": [{"prompt": "t", "status": "pass"}],
        "summary": {"turns_total": 1, "turns_passed": 1, "turns_failed": 0, "turns_partial": 0,
                    "turns_errored": 0, "overall_status": "pass"}}]});
    let written = m365_document::write(&document, &report, &DocumentOptions::default());
    assert!(written["items"][0].get("summary").is_none());
    assert!(written["items"][0]["turns"][0].get("status").is_none());
}

#[test]
fn run_report_json_snapshot() {
    insta::assert_snapshot!(report::to_json(&sample_report()));
}

#[test]
fn run_report_json_shape() {
    let value: Value = serde_json::from_str(&report::to_json(&sample_report())).unwrap_or_default();
    let keys = |value: &Value| -> Vec<String> {
        value
            .as_object()
            .map(|object| object.keys().cloned().collect())
            .unwrap_or_default()
    };
    assert_eq!(keys(&value), ["tool", "dialect", "summary", "items"]);
    assert_eq!(
        value["tool"],
        json!({"name": "agenteval", "version": "test"})
    );
    assert_eq!(value["dialect"], "m365");
    assert_eq!(
        keys(&value["summary"]),
        ["items", "pass", "fail", "partial", "error", "evaluators"]
    );
    assert_eq!(
        keys(&value["summary"]["evaluators"]["PartialMatch"]),
        [
            "pass",
            "fail",
            "error",
            "skipped",
            "pass_rate",
            "mean",
            "min",
            "max"
        ]
    );
    assert_eq!(
        value["summary"]["evaluators"]["PartialMatch"]["pass_rate"],
        2.0 / 3.0
    );
    assert_eq!(
        keys(&value["items"][0]),
        ["index", "turn", "status", "results"]
    );
    assert_eq!(value["items"][0]["turn"], Value::Null);
    assert_eq!(value["items"][2]["turn"], 0);
    assert_eq!(value["items"][6]["status"], Value::Null);
    assert_eq!(
        keys(&value["items"][0]["results"][0]),
        [
            "evaluator",
            "result",
            "score",
            "threshold",
            "reason",
            "details",
            "error"
        ]
    );
    assert_eq!(value["items"][0]["results"][0]["error"], Value::Null);
    assert_eq!(
        value["items"][3]["results"][1]["error"],
        json!({"code": "judgeTimeout", "message": "Judge did not answer within 30s"})
    );
    assert_eq!(
        value["items"][5]["problem"],
        "items[3].prompt: expected a non-empty string"
    );
}

#[test]
fn foundry_rows_keep_input_and_add_reference_keys() {
    let report = sample_report();
    let mut input = Map::new();
    input.insert("query".to_owned(), json!("What is Graph?"));
    input.insert("response".to_owned(), json!("An API."));
    let rows: Vec<Map<String, Value>> = report
        .items
        .iter()
        .map(|outcome| foundry_rows::row(&input, outcome))
        .collect();
    insta::assert_json_snapshot!(rows);

    let first: Vec<&String> = rows[0].keys().collect();
    assert_eq!(
        first[..10],
        [
            "query",
            "response",
            "PartialMatch",
            "PartialMatch_score",
            "PartialMatch_passed",
            "PartialMatch_result",
            "PartialMatch_reason",
            "PartialMatch_status",
            "PartialMatch_threshold",
            "PartialMatch_properties"
        ]
    );
    assert_eq!(rows[0]["Relevance_result"], "not_applicable");
    assert_eq!(rows[0]["Relevance_status"], "skipped");
    assert_eq!(rows[0]["Relevance_passed"], Value::Null);
    assert_eq!(rows[0]["ExactMatch_properties"], json!({"match": true}));
    assert_eq!(rows[0]["PartialMatch_properties"], Value::Null);
    assert_eq!(rows[3]["Coherence_result"], "error");
    assert_eq!(rows[3]["Coherence_status"], "error");
    assert_eq!(rows[3]["Coherence_error_code"], "judgeTimeout");
    assert_eq!(
        rows[3]["Coherence_reason"],
        "Judge did not answer within 30s"
    );
    assert!(rows[3].get("PartialMatch_error_code").is_none());
    assert_eq!(rows[1]["PartialMatch_passed"], false);
}

#[test]
fn foundry_jsonl_line_is_one_compact_line() {
    let mut row = Map::new();
    row.insert("query".to_owned(), json!("two\nlines"));
    row.insert("f1_score".to_owned(), json!(0.5));
    let line = foundry_rows::jsonl_line(&row);
    assert_eq!(line, "{\"query\":\"two\\nlines\",\"f1_score\":0.5}\n");
}

#[test]
fn csv_snapshot() {
    insta::assert_snapshot!(csv::write(&sample_report()));
}

#[test]
fn csv_quotes_and_neutralises_formulas() {
    let text = csv::write(&sample_report());
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(
        lines[0],
        "index,turn,status,problem,PartialMatch.result,PartialMatch.score,PartialMatch.threshold,\
PartialMatch.reason,PartialMatch.error_code,ExactMatch.result,ExactMatch.score,ExactMatch.threshold,\
ExactMatch.reason,ExactMatch.error_code,Relevance.result,Relevance.score,Relevance.threshold,\
Relevance.reason,Relevance.error_code,Citations.result,Citations.score,Citations.threshold,\
Citations.reason,Citations.error_code,professional_tone.result,professional_tone.score,\
professional_tone.threshold,professional_tone.reason,professional_tone.error_code,\
Coherence.result,Coherence.score,Coherence.threshold,Coherence.reason,Coherence.error_code"
    );
    assert!(text.contains(
        ",\"'=HYPERLINK(\"\"http://evil\"\") | pipe, comma\nsecond line (below threshold 0.5)\","
    ));
    assert!(text.ends_with("\r\n"));
}

#[test]
fn junit_snapshot() {
    insta::assert_snapshot!(junit::write(&sample_report(), "agenteval <suite> & \"co\""));
}

#[test]
fn junit_counts_and_escaping() {
    let mut report = sample_report();
    report.items[0].results[0].reason = Some("bad \u{0}\u{1b} chars & <tags>\u{FFFF}".to_owned());
    report.items[0].results[0].result = agenteval_core::Verdict::Fail;
    let xml = junit::write(&report, "suite");
    assert!(xml.contains(
        "<testsuite name=\"suite\" tests=\"12\" failures=\"3\" errors=\"3\" skipped=\"2\">"
    ));
    assert!(xml.contains("message=\"bad  chars &amp; &lt;tags&gt;\""));
    assert!(!xml.contains('\u{0}') && !xml.contains('\u{1b}') && !xml.contains('\u{FFFF}'));
    assert!(xml.contains(
        "<testcase classname=\"item-2.turn-1\" name=\"Coherence\">\n      <error type=\"judgeTimeout\" message=\"Judge did not answer within 30s\"/>"
    ));
    assert!(xml.contains("<skipped message=\"needs a judge that is not configured\"/>"));
    assert!(xml.contains("<error type=\"invalidItem\""));
    assert!(!xml.contains("<script>"));
}

#[test]
fn markdown_snapshot() {
    insta::assert_snapshot!(markdown::write(&sample_report()));
}

#[test]
fn markdown_escapes_cells() {
    let text = markdown::write(&sample_report());
    assert!(text.contains(
        "=HYPERLINK\\(\"http\\://evil\"\\) \\| pipe, comma second line \\(below threshold 0.5\\)"
    ));
    assert!(text.contains("| PartialMatch | 2 | 1 | 1 | 0 | 66.7% | 0.683 | 0.25 | 1 |"));
    assert!(!text.contains("<script>"));
}

#[test]
fn html_snapshot() {
    insta::assert_snapshot!(html::write(&sample_report(), "Run <b>1</b>"));
}

#[test]
fn html_escapes_every_untrusted_text() {
    let mut report = sample_report();
    report.items[7].results[0].evaluator = "x\"><img src=x onerror=alert(3)>".to_owned();
    report.items[3].problem = Some("<script>alert(4)</script>".to_owned());
    report.items[0].results[1].details.insert(
        "<script>".to_owned(),
        json!("</pre><script>alert(5)</script>"),
    );
    let page = html::write(&report, "<script>alert(6)</script>");
    assert!(!page.contains("<script"));
    assert!(!page.contains("<img"));
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;")
    );
    assert!(page.contains("x&quot;&gt;&lt;img src=x onerror=alert(3)&gt;"));
    assert!(page.contains("&lt;/pre&gt;&lt;script&gt;alert(5)&lt;/script&gt;"));
    assert!(page.contains("<title>&lt;script&gt;alert(6)&lt;/script&gt;</title>"));
    assert!(
        !page.contains("<link") && !page.contains(" src=\"") && !page.contains(" href=\""),
        "no external resources"
    );
    assert!(page.contains("default-src 'none'"));
}

/// Sets the member `key` of the object `value`.
fn set(value: &mut Value, key: &str, member: Value) {
    value
        .as_object_mut()
        .expect("an object")
        .insert(key.to_owned(), member);
}
