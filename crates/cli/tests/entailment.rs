//! RetrievalResult's `match: "entailment"` through the `agenteval` binary and the local judge
//! server: one call per item decides which hits entail the expected items; substring matching
//! stays the default; a judge answer that invents a hit is an error, not a score.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use agenteval_judge_server::{start, ServerConfig};
use serde_json::{json, Value};
use support::found;

fn diagnostics(extract: &str) -> Value {
    json!({"retrieval_executions": [{
        "capability": "OneDriveAndSharePoint",
        "retrievalHits": [
            {"rank": 1, "webUrl": "https://contoso.example/refunds", "extracts": [{"text": extract}]},
            {"rank": 2, "webUrl": "https://contoso.example/shipping", "extracts": [{"text": "Shipping is free on every order."}]}
        ]
    }]})
}

#[test]
fn the_judge_decides_which_hits_entail_each_expected_item_in_one_call_per_item() {
    let judge = start(ServerConfig::default()).expect("the local judge starts");
    let dir = std::env::temp_dir().join(format!("agenteval-entailment-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let expected = json!([
        {"retrievalExtract_contains": "Customers can get their money back for a month"},
        {"retrievalExtract_contains": "Delivery costs nothing"}
    ]);
    let document = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {
            "RetrievalResult": {"capability": "OneDriveAndSharePoint", "match": "entailment", "expected_items": expected}
        },
        "items": [
            {"prompt": "Refunds?", "response": "Within 30 days.", "diagnostics": diagnostics("Refunds are accepted within 30 days. [[judge:entails=1:1]] [[judge:entails=2:2]]")},
            {"prompt": "Refunds?", "response": "Within 30 days.", "diagnostics": diagnostics("Refunds are accepted within 30 days. [[judge:entails=1:1]] [[judge:entails=2:none]]")},
            {"prompt": "Refunds?", "response": "Within 30 days.", "diagnostics": diagnostics("Refunds are accepted within 30 days. [[judge:entails=1:3]]")},
            {"prompt": "Refunds?", "response": "Within 30 days.", "diagnostics": diagnostics("Refunds are accepted within 30 days."),
             "evaluators": {"RetrievalResult": {"capability": "OneDriveAndSharePoint", "match": "substring", "expected_items": [{"retrievalExtract_contains": "within 30 days"}]}}}
        ]
    });
    let file = dir.join("dataset.json");
    std::fs::write(&file, document.to_string()).expect("dataset written");
    let report = support::report_with_azure_judge(&file, &judge.url(), &[]);

    let both = found(&report, 0, "RetrievalResult");
    assert_eq!(
        (&both["result"], &both["score"]),
        (&json!("pass"), &json!(1.0))
    );
    assert_eq!(both["details"]["matched_items"][1]["matchedHitRank"], 2);
    assert_eq!(both["details"]["prompt_version"], "retrieval_entailment/v1");
    let one = found(&report, 1, "RetrievalResult");
    assert_eq!(
        (&one["result"], &one["score"]),
        (&json!("fail"), &json!(0.5))
    );
    assert_eq!(one["details"]["diagnostic_code"], "not_retrieved");
    assert_eq!(
        one["details"]["missing_items"][0]["extractMatch"],
        "Delivery costs nothing"
    );
    let invented = found(&report, 2, "RetrievalResult");
    assert_eq!(invented["error"]["code"], "judgeOutputUnparseable");
    let substring = found(&report, 3, "RetrievalResult");
    assert_eq!(substring["result"], "pass", "{substring}");
    assert_eq!(
        substring["details"].get("prompt_version"),
        None,
        "substring needs no judge"
    );
    assert_eq!(
        judge.stats().completions,
        3,
        "one call per item in entailment mode"
    );
}
