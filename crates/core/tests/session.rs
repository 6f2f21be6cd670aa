//! Incremental scoring: progress, custom evaluators answered between steps, Foundry criteria, and
//! M365 documents read item by item.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod documents;

use agenteval_core::dataset;
use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::engine::{CustomCall, Session, Step};
use agenteval_core::json;
use agenteval_core::{CaseOutcome, ErrorCode, ItemStatus, Verdict};

fn m365(value: agenteval_core::json::Value) -> dataset::Dataset {
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
    let mut session = Session::new(dataset, agenteval_core::engine::Customs::default());
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
        Err(agenteval_core::custom::CustomFailure::Threw(
            "TypeError: x is undefined".to_owned(),
        )),
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

/// The next entry's outcome and the custom calls it waited for, each answered with 0.75.
fn next_entry(session: &mut Session<'_>) -> Option<(CaseOutcome, Vec<CustomCall>)> {
    match session.step()? {
        Step::Done(outcome) => Some((outcome.clone(), Vec::new())),
        Step::Pending(pending) => {
            let calls = pending.calls.clone();
            let returns = calls.iter().map(|_| Ok(json!(0.75))).collect();
            Some((session.complete(pending, returns).clone(), calls))
        }
    }
}

/// Every document read item by item steps like the same document read whole: the same outcomes
/// and custom calls in the same order, progress that never passes its total and ends equal, and
/// the same report; keeping only the summary changes nothing but the report's entries.
#[test]
fn a_document_read_item_by_item_steps_like_the_document_read_whole() {
    let with_custom = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"ExactMatch": {}, "politeness": {"threshold": 0.5}},
        "items": [
            {"prompt": "a", "expected_response": "x", "response": "x"},
            {"turns": []},
            {"turns": [{"prompt": "b", "expected_response": "y", "response": "y"},
                       {"prompt": "c", "response": "",
                        "evaluators": {"politeness": {}}, "evaluators_mode": "replace"}]},
            {"prompt": 5},
            {"prompt": "d", "response": "z", "evaluators": {"polite": {}}, "evaluators_mode": "extend"}
        ]
    })
    .to_string();
    let mut compared = 0;
    for (name, text) in documents::files()
        .into_iter()
        .chain(documents::written_by_hand())
        .chain([("custom evaluators".to_owned(), with_custom)])
    {
        let Some(outline) = DocumentOutline::read(&text) else {
            continue;
        };
        let customs = vec!["politeness".to_owned()];
        let whole_dataset = dataset::load(text.as_bytes(), None).unwrap().dataset;
        let mut whole = Session::new(whole_dataset, customs.clone());
        let mut outlined = Session::outlined(text.clone(), outline, customs.clone());
        let outline = DocumentOutline::read(&text).unwrap();
        let mut summary_only = Session::outlined(text, outline, customs).without_items();
        loop {
            let entry = next_entry(&mut outlined);
            assert_eq!(entry, next_entry(&mut whole), "{name}");
            assert_eq!(entry, next_entry(&mut summary_only), "{name}");
            assert!(outlined.done() <= outlined.total(), "{name}");
            if entry.is_none() {
                break;
            }
        }
        assert_eq!(
            (outlined.done(), outlined.total()),
            (whole.done(), whole.total()),
            "{name}"
        );
        let report = whole.finish();
        let summarised = summary_only.finish();
        assert_eq!(outlined.finish(), report, "{name}");
        assert_eq!(summarised.summary, report.summary, "{name}");
        assert!(summarised.items.is_empty(), "{name}");
        compared += 1;
    }
    assert!(compared >= 12, "only {compared} documents compared");
}

/// Read item by item, unread items count as one entry each, so the total grows as threads'
/// turns are read and reaches the whole document's count.
#[test]
fn the_total_of_a_document_read_item_by_item_grows_with_its_threads() {
    let text = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"ExactMatch": {}},
        "items": [
            {"prompt": "a", "expected_response": "x", "response": "x"},
            {"turns": [{"prompt": "b", "response": "y"}, {"prompt": "c", "response": "z"},
                       {"prompt": "d", "response": "w"}]}
        ]
    })
    .to_string();
    let outline = DocumentOutline::read(&text).expect("a current-form document");
    let mut session = Session::outlined(text, outline, agenteval_core::engine::Customs::default());
    let mut progress = vec![(session.done(), session.total())];
    while next_entry(&mut session).is_some() {
        progress.push((session.done(), session.total()));
    }
    assert_eq!(progress, [(0, 2), (1, 2), (2, 4), (3, 4), (4, 4)]);
}

/// A session that owns its dataset gives it back at the end, unchanged, with the report; one
/// reading item by item has none to give.
#[test]
fn an_owned_dataset_comes_back_with_the_report() {
    let text = documents::files()
        .into_iter()
        .find(|(path, _)| path.ends_with("m365-demo.json"))
        .map(|(_, text)| text)
        .expect("the example document");
    let dataset = dataset::load(text.as_bytes(), None).unwrap().dataset;
    let dataset::Dataset::M365(original) = &dataset else {
        panic!("the example is an M365 document");
    };
    let original = original.document.clone();
    let mut session = Session::new(dataset, agenteval_core::engine::Customs::default());
    while session.step().is_some() {}
    let (report, returned) = session.finish_with_dataset();
    assert_eq!(report.items.len(), report.summary.items);
    match returned {
        Some(dataset::Dataset::M365(document)) => assert_eq!(document.document, original),
        other => panic!("the dataset did not come back: {other:?}"),
    }
    let outline = DocumentOutline::read(&text).unwrap();
    let mut outlined = Session::outlined(text, outline, agenteval_core::engine::Customs::default());
    while outlined.step().is_some() {}
    assert!(outlined.finish_with_dataset().1.is_none());
}

/// Whether a session reads METEOR's WordNet table comes from the evaluators it built, never from
/// the text: a METEOR criterion or a grader's `meteor` metric needs it; other criteria, a broken
/// METEOR criterion, rows that only mention it and M365 documents do not.
#[test]
fn a_session_needs_wordnet_only_when_it_scores_meteor() {
    let rows = br#"[{"response": "builtin.meteor_score \"meteor\"", "ground_truth": "a"}]"#;
    let needs = |config: agenteval_core::json::Value| {
        let loaded = dataset::load(rows, Some(&config)).expect("rows");
        Session::new(loaded.dataset, agenteval_core::engine::Customs::default()).needs_wordnet()
    };
    assert!(needs(json!({"testing_criteria": [
        {"name": "f1", "evaluator_name": "builtin.f1_score"},
        {"name": "meteor", "evaluator_name": "builtin.meteor_score"}
    ]})));
    assert!(needs(json!({"testing_criteria": [{
        "type": "text_similarity", "name": "similar", "input": "{{item.response}}",
        "reference": "{{item.ground_truth}}", "evaluation_metric": "meteor", "pass_threshold": 0.5
    }]})));
    assert!(!needs(json!({"testing_criteria": [
        {"name": "f1", "evaluator_name": "builtin.f1_score"},
        {"name": "bleu", "evaluator_name": "builtin.bleu_score"}
    ]})));
    assert!(!needs(json!({"testing_criteria": [{
        "type": "text_similarity", "name": "similar", "input": "{{item.response}}",
        "reference": "{{item.ground_truth}}", "evaluation_metric": "gleu", "pass_threshold": 0.5
    }]})));
    assert!(!needs(json!({"testing_criteria": [
        {"name": "meteor", "evaluator_name": "builtin.meteor_score", "initialization_parameters": {"alpha": "high"}}
    ]})));
    let document = m365(json!({
        "schemaVersion": "1.6.0",
        "default_evaluators": {"ExactMatch": {}},
        "items": [{"prompt": "meteor_score", "response": "x"}]
    }));
    assert!(!Session::new(document, agenteval_core::engine::Customs::default()).needs_wordnet());
}
