//! Incremental scoring: progress, custom evaluators answered between steps, Foundry criteria.

use agenteval_core::dataset;
use agenteval_core::engine::{Session, Step};
use agenteval_core::{ErrorCode, ItemStatus, Verdict};
use serde_json::json;

fn m365(value: serde_json::Value) -> dataset::Dataset {
    dataset::load(value.to_string().as_bytes(), None)
        .expect("valid dataset")
        .dataset
}

#[test]
fn steps_cover_every_item_and_turn_with_progress() {
    let dataset = m365(json!({
        "schemaVersion": "1.6.0",
        "default_evaluators": {"ExactMatch": {}},
        "items": [
            {"prompt": "a", "expected_response": "x", "response": "x"},
            {"turns": [{"prompt": "b", "expected_response": "y", "response": "y"},
                       {"prompt": "c", "expected_response": "y", "response": "z"}]}
        ]
    }));
    let mut session = Session::new(dataset, Vec::new());
    assert_eq!(session.total(), 3);
    let mut seen = Vec::new();
    while let Some(step) = session.step() {
        match step {
            Step::Done(outcome) => seen.push((outcome.index, outcome.turn, outcome.status)),
            Step::Pending(_) => panic!("no custom evaluators were named"),
        }
    }
    assert_eq!(session.done(), 3);
    assert_eq!(
        seen,
        [
            (0, None, Some(ItemStatus::Pass)),
            (1, Some(0), Some(ItemStatus::Pass)),
            (1, Some(1), Some(ItemStatus::Fail))
        ]
    );
    assert_eq!(session.finish().summary.items, 3);
}

#[test]
fn custom_evaluators_wait_for_the_caller_and_are_validated() {
    let dataset = m365(json!({
        "schemaVersion": "1.7.0",
        "default_evaluators": {"ExactMatch": {}, "politeness": {"threshold": 0.5}},
        "items": [
            {"prompt": "a", "expected_response": "thanks", "response": "thanks"},
            {"prompt": "b", "expected_response": "ok", "response": "ok"},
            {"prompt": "c", "expected_response": "ok", "response": "ok"}
        ]
    }));
    let mut session = Session::new(dataset, vec!["politeness".to_owned()]);
    let returns = [
        Ok(json!(0.9)),
        Ok(json!("not a score")),
        Err("TypeError: x is undefined".to_owned()),
    ];
    let mut outcomes = Vec::new();
    for returned in returns {
        let Some(Step::Pending(pending)) = session.step() else {
            panic!("the custom evaluator must be asked");
        };
        assert_eq!(pending.calls.len(), 1);
        assert_eq!(pending.calls[0].evaluator, "politeness");
        assert_eq!(pending.calls[0].options["threshold"], 0.5);
        assert!(pending.calls[0].item["prompt"].is_string());
        outcomes.push(session.complete(pending, vec![returned]).clone());
    }
    let custom: Vec<_> = outcomes
        .iter()
        .map(|o| {
            (
                o.results[1].result,
                o.results[1].error.as_ref().map(|e| e.code),
            )
        })
        .collect();
    assert_eq!(
        custom,
        [
            (Verdict::Pass, None),
            (Verdict::Error, Some(ErrorCode::InvalidEvaluatorResult)),
            (Verdict::Error, Some(ErrorCode::EvaluatorError))
        ]
    );
    assert_eq!(outcomes[0].status, Some(ItemStatus::Pass));
    assert_eq!(outcomes[1].status, Some(ItemStatus::Partial));
    assert!(session.step().is_none());
}

#[test]
fn foundry_criteria_can_name_custom_evaluators() {
    let config = json!({"testing_criteria": [
        {"name": "length", "evaluator_name": "short_enough", "initialization_parameters": {"threshold": 1}},
        {"name": "f1", "evaluator_name": "builtin.f1_score"}
    ]});
    let loaded = dataset::load(
        br#"[{"response": "a b", "ground_truth": "a b"}]"#,
        Some(&config),
    )
    .expect("rows");
    let mut session = Session::new(loaded.dataset, vec!["short_enough".to_owned()]);
    let Some(Step::Pending(pending)) = session.step() else {
        panic!("the custom criterion must be asked");
    };
    assert_eq!(pending.calls[0].item["response"], "a b");
    let outcome = session.complete(pending, vec![Ok(json!(true))]);
    assert_eq!(outcome.results[0].evaluator, "length");
    assert_eq!(outcome.results[0].result, Verdict::Pass);
    assert_eq!(outcome.results[1].evaluator, "f1");
}
