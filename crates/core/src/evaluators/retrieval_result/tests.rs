//! Tests of `RetrievalResult`: expected items matched within `max_rank`, the count check, the
//! diagnostic codes and their precedence, malformed hits, entailment without a judge, options.

use crate::json;
use crate::json::Value;

use super::SPEC;
use crate::inputs::Inputs;
use crate::options::Options;
use crate::outcome::{ErrorCode, EvalResult, Verdict};

fn run(options: Value, diagnostics: Value) -> EvalResult {
    let map = options.as_object().cloned().unwrap_or_default();
    let evaluator = (SPEC.build)("RetrievalResult", Options::new(&map)).expect("valid options");
    evaluator.evaluate(&Inputs::new().with("diagnostics", &diagnostics))
}

fn config_error(options: Value) -> String {
    let map = options.as_object().cloned().unwrap_or_default();
    match (SPEC.build)("RetrievalResult", Options::new(&map)) {
        Ok(_) => panic!("options should be rejected: {options}"),
        Err(error) => error.message,
    }
}

fn hit(rank: Value, url: &str, texts: &[&str]) -> Value {
    let extracts: Vec<Value> = texts.iter().map(|text| json!({"text": text})).collect();
    json!({"rank": rank, "webUrl": url, "extracts": extracts})
}

fn policy_diagnostics() -> Value {
    json!({"retrieval_executions": [
        {
            "capability": "OneDriveAndSharePoint",
            "retrievalHits": [
                hit(json!(2), "https://contoso/b", &["Standard deductibles: $500, $1,000 and $10,000"]),
                hit(json!(1), "https://contoso/a", &["Intro", "A Mortgage Company JOINT CHECK is required"]),
                hit(json!(3), "https://contoso/c", &["Claims take 5–15 business days"]),
                hit(Value::Null, "https://contoso/unranked", &["unicorn"])
            ]
        },
        {
            "capability": "Email",
            "retrievalHits": [hit(json!(1), "https://mail/1", &["unicorn in mail"])]
        }
    ]})
}

fn code(result: &EvalResult) -> &str {
    result.details["diagnostic_code"]
        .as_str()
        .unwrap_or_default()
}

#[test]
fn all_items_matched_passes_with_best_ranked_hit() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "max_rank": 5, "expected_items": [
            {"retrievalExtract_contains": "joint check"},
            {"retrievalExtract_contains": "$10,000"},
            {"retrievalExtract_contains": "5–15 BUSINESS days"}
        ]}),
        policy_diagnostics(),
    );
    assert_eq!(result.result, Verdict::Pass);
    assert_eq!(result.score, Some(1.0));
    assert_eq!(result.threshold, Some(1.0));
    assert_eq!(code(&result), "pass");
    assert_eq!(result.details["results_evaluated"], json!(3));
    assert_eq!(
        result.details["matched_items"][0],
        json!({"extractMatch": "joint check", "matchedHitUrl": "https://contoso/a", "matchedHitRank": 1})
    );
    insta::assert_json_snapshot!(result);
}

#[test]
fn two_of_three_is_partial_credit_but_fails() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "expected_items": [
            {"retrievalExtract_contains": "joint check"},
            {"retrievalExtract_contains": "$500"},
            {"retrievalExtract_contains": "flood exclusion"}
        ]}),
        policy_diagnostics(),
    );
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(result.score, Some(2.0 / 3.0));
    assert_eq!(code(&result), "not_retrieved");
    assert_eq!(
        result.details["missing_items"],
        json!([{"extractMatch": "flood exclusion", "reason": "Not found in the extracts of the 3 hits within rank 10"}])
    );
    assert_eq!(
        result.details["extract_failures"],
        result.details["missing_items"]
    );
    insta::assert_json_snapshot!(result);
}

#[test]
fn max_rank_is_inclusive() {
    let options = |max_rank: i64| {
        json!({"capability": "OneDriveAndSharePoint", "max_rank": max_rank,
               "expected_items": [{"retrievalExtract_contains": "5–15"}]})
    };
    let at_boundary = run(options(3), policy_diagnostics());
    assert_eq!(at_boundary.result, Verdict::Pass);
    assert_eq!(at_boundary.details["results_evaluated"], json!(3));
    let below = run(options(2), policy_diagnostics());
    assert_eq!(below.result, Verdict::Fail);
    assert_eq!(code(&below), "not_retrieved");
    assert_eq!(below.details["results_evaluated"], json!(2));
}

#[test]
fn max_rank_one_keeps_only_the_top_hit() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "max_rank": 1,
               "expected_items": [{"retrievalExtract_contains": "joint check"},
                                  {"retrievalExtract_contains": "$500"}]}),
        policy_diagnostics(),
    );
    assert_eq!(result.details["results_evaluated"], json!(1));
    assert_eq!(result.score, Some(0.5));
    assert_eq!(code(&result), "not_retrieved");
}

#[test]
fn hits_without_rank_and_other_capabilities_are_not_candidates() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "expected_items": [{"retrievalExtract_contains": "unicorn"}]}),
        policy_diagnostics(),
    );
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(result.details["results_evaluated"], json!(3));
    assert_eq!(code(&result), "not_retrieved");
}

#[test]
fn count_only_assertion() {
    let passing = run(
        json!({"capability": "OneDriveAndSharePoint", "min_expected_count": 3}),
        policy_diagnostics(),
    );
    assert_eq!(passing.result, Verdict::Pass);
    assert_eq!(passing.score, Some(1.0));
    assert_eq!(
        passing.reason.as_deref(),
        Some("3 results within rank 10 (minimum 3)")
    );
    let failing = run(
        json!({"capability": "OneDriveAndSharePoint", "min_expected_count": 4}),
        policy_diagnostics(),
    );
    assert_eq!(failing.result, Verdict::Fail);
    assert_eq!(failing.score, Some(0.0));
    assert_eq!(code(&failing), "count_below_minimum");
    assert_eq!(
        failing.reason.as_deref(),
        Some("Only 3 results within rank 10 (minimum 4)")
    );
}

#[test]
fn count_below_minimum_wins_over_not_retrieved() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "max_rank": 2, "min_expected_count": 3,
               "expected_items": [{"retrievalExtract_contains": "nowhere"}]}),
        policy_diagnostics(),
    );
    assert_eq!(code(&result), "count_below_minimum");
    assert_eq!(
        result.details["extract_failures"].as_array().map(Vec::len),
        Some(1)
    );
    insta::assert_json_snapshot!(result);
}

#[test]
fn no_hits_at_all_is_error_code_and_wins() {
    let diagnostics = json!({"retrieval_executions": [
        {"capability": "OneDriveAndSharePoint", "retrievalHits": []}
    ]});
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "min_expected_count": 2,
               "expected_items": [{"retrievalExtract_contains": "x"}]}),
        diagnostics,
    );
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(code(&result), "error");
    assert_eq!(result.score, Some(0.0));
    assert_eq!(result.details["extract_failures"], json!([]));
    assert_eq!(
        result.details["missing_items"],
        json!([{"extractMatch": "x", "reason": "No retrieval hits within rank 10"}])
    );
    insta::assert_json_snapshot!(result);
}

#[test]
fn hits_beyond_max_rank_are_not_an_error_but_give_no_extract_failures() {
    let diagnostics = json!({"retrieval_executions": [
        {"capability": "OneDriveAndSharePoint", "retrievalHits": [hit(json!(12), "u", &["x"])]}
    ]});
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "expected_items": [{"retrievalExtract_contains": "x"}]}),
        diagnostics,
    );
    assert_eq!(code(&result), "not_retrieved");
    assert_eq!(result.details["results_evaluated"], json!(0));
    assert_eq!(result.details["extract_failures"], json!([]));
}

#[test]
fn missing_retrieval_data_is_error_code() {
    for diagnostics in [
        Value::Null,
        json!({"retrieval_executions": []}),
        json!({"tool_calls": null}),
    ] {
        let result = run(
            json!({"capability": "OneDriveAndSharePoint", "min_expected_count": 1}),
            diagnostics,
        );
        assert_eq!(result.result, Verdict::Fail);
        assert_eq!(code(&result), "error");
    }
}

#[test]
fn matched_hit_without_url_omits_it() {
    let diagnostics = json!({"retrieval_executions": [{"capability": "X", "retrievalHits": [
        {"rank": 4, "webUrl": null, "extracts": [{"text": "Found IT"}, {"text": null}]}
    ]}]});
    let result = run(
        json!({"capability": "x", "expected_items": [{"retrievalExtract_contains": "found it"}]}),
        diagnostics,
    );
    assert_eq!(
        result.details["matched_items"],
        json!([{"extractMatch": "found it", "matchedHitRank": 4}])
    );
}

#[test]
fn malformed_hits_are_evaluator_errors() {
    let diagnostics = json!({"retrieval_executions": [{"capability": "X", "retrievalHits": [
        {"rank": "first", "extracts": []}
    ]}]});
    let result = run(
        json!({"capability": "X", "min_expected_count": 1}),
        diagnostics,
    );
    assert_eq!(result.result, Verdict::Error);
    let error = result.error.expect("error");
    assert_eq!(error.code, ErrorCode::EvaluatorError);
    assert_eq!(
        error.message,
        "diagnostics.retrieval_executions[0].retrievalHits[0].rank must be an integer or null, got a string"
    );
}

#[test]
fn entailment_is_skipped_without_a_judge() {
    let result = run(
        json!({"capability": "X", "match": "entailment", "expected_items": [{"retrievalExtract_contains": "a"}]}),
        policy_diagnostics(),
    );
    assert_eq!(result.result, Verdict::Skipped);
    assert!(result
        .reason
        .unwrap_or_default()
        .contains("no judge configured"));
}

#[test]
fn options_are_validated() {
    assert!(config_error(json!({"capability": "X"})).contains("expected_items"));
    assert!(config_error(json!({"capability": 3, "min_expected_count": 1})).contains("capability"));
    assert!(
        config_error(json!({"capability": "X", "min_expected_count": 0}))
            .contains("min_expected_count")
    );
    assert!(
        config_error(json!({"capability": "X", "min_expected_count": 1, "max_rank": 0}))
            .contains("max_rank")
    );
    assert!(
        config_error(json!({"capability": "X", "expected_items": []})).contains("expected_items")
    );
    assert!(
        config_error(json!({"capability": "X", "expected_items": [{"webUrl": "https://a"}]}))
            .contains("URL-based matching is not supported")
    );
    assert!(config_error(
        json!({"capability": "X", "expected_items": [{"retrievalExtract_contains": ""}]})
    )
    .contains("non-empty"));
    assert!(
        config_error(json!({"capability": "X", "min_expected_count": 1, "threshold": 1}))
            .contains("unknown option `threshold`")
    );
    assert!(
        config_error(json!({"capability": "X", "min_expected_count": 1, "match": "fuzzy"}))
            .contains("`match`")
    );
}

mod judged {
    use super::*;
    use crate::judge::reply::{Completion, Usage};
    use crate::judge::JudgeCall;

    fn call(options: Value, diagnostics: &Value) -> Result<JudgeCall, Box<EvalResult>> {
        let map = options.as_object().cloned().unwrap_or_default();
        let evaluator = (SPEC.build)("RetrievalResult", Options::new(&map)).expect("valid options");
        evaluator
            .judge(&Inputs::new().with("diagnostics", diagnostics))
            .expect("entailment asks the judge")
    }

    fn answered(call: &JudgeCall, content: &str) -> EvalResult {
        let completion = Completion {
            content: Some(content.to_owned()),
            refusal: None,
            finish_reason: Some("stop".into()),
            usage: Usage::default(),
            model: None,
        };
        call.combine(vec![call.reading.result(
            &call.label,
            call.request.prompt,
            Ok(&completion),
        )])
    }

    fn entailment_options() -> Value {
        json!({"capability": "OneDriveAndSharePoint", "max_rank": 3, "match": "entailment", "expected_items": [
            {"retrievalExtract_contains": "A joint check is needed for mortgage claims"},
            {"retrievalExtract_contains": "Claims are paid within a week"}
        ]})
    }

    #[test]
    fn one_call_shows_the_candidates_in_rank_order_and_the_judge_decides_the_matches() {
        let call = call(entailment_options(), &policy_diagnostics()).expect("a call");
        let user = &call.request.messages[1].content;
        assert!(user.contains(
            "1. A joint check is needed for mortgage claims\n2. Claims are paid within a week"
        ));
        assert!(user.contains(
            "Hit 1 (rank 1, https://contoso/a):\nIntro\nA Mortgage Company JOINT CHECK is required"
        ));
        assert!(user.contains("Hit 3 (rank 3, https://contoso/c):"));
        assert!(
            !user.contains("unicorn"),
            "unranked hits and other capabilities are not shown"
        );
        let result = answered(
            &call,
            r#"{"reason": "hit 1 states the first", "items": [{"item": 1, "entailed_by": [3, 1]}, {"item": 2, "entailed_by": []}]}"#,
        );
        assert_eq!(result.result, Verdict::Fail);
        assert_eq!(result.score, Some(0.5));
        assert_eq!(code(&result), "not_retrieved");
        assert_eq!(
            result.details["matched_items"],
            json!([{"extractMatch": "A joint check is needed for mortgage claims", "matchedHitUrl": "https://contoso/a", "matchedHitRank": 1}])
        );
        assert_eq!(result.details["judge_reason"], "hit 1 states the first");
        assert_eq!(result.details["prompt_version"], "retrieval_entailment/v1");
        let all = answered(
            &call,
            r#"{"items": [{"item": 1, "entailed_by": [1]}, {"item": 2, "entailed_by": [3]}]}"#,
        );
        assert_eq!((all.result, code(&all)), (Verdict::Pass, "pass"));
        let invented = answered(
            &call,
            r#"{"items": [{"item": 1, "entailed_by": [4]}, {"item": 2, "entailed_by": []}]}"#,
        );
        assert_eq!(
            invented.error.map(|error| error.code),
            Some(ErrorCode::JudgeOutputUnparseable)
        );
    }

    #[test]
    fn no_candidates_or_no_expected_items_are_decided_without_a_call() {
        let nothing = json!({"retrieval_executions": []});
        let decided = *call(entailment_options(), &nothing).expect_err("no call");
        assert_eq!(code(&decided), "error");
        let count_only = json!({"capability": "OneDriveAndSharePoint", "min_expected_count": 2, "match": "entailment"});
        let decided = *call(count_only, &policy_diagnostics()).expect_err("no call");
        assert_eq!((decided.result, code(&decided)), (Verdict::Pass, "pass"));
        let malformed = json!({"retrieval_executions": [{"capability": "OneDriveAndSharePoint", "retrievalHits": 3}]});
        let decided = *call(entailment_options(), &malformed).expect_err("no call");
        assert_eq!(decided.result, Verdict::Error);
    }
}

#[test]
fn without_capability_every_execution_is_searched() {
    let result = run(
        json!({"max_rank": 5, "expected_items": [
            {"retrievalExtract_contains": "joint check"},
            {"retrievalExtract_contains": "unicorn in mail"}
        ]}),
        policy_diagnostics(),
    );
    assert_eq!(result.result, Verdict::Pass, "{:?}", result.reason);
    assert_eq!(result.details["results_evaluated"], 4);
    let urls: Vec<&str> = result.details["matched_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["matchedHitUrl"].as_str().unwrap())
        .collect();
    assert_eq!(urls, ["https://contoso/a", "https://mail/1"]);
    let scoped = run(
        json!({"capability": "OneDriveAndSharePoint", "expected_items": [
            {"retrievalExtract_contains": "unicorn in mail"}
        ]}),
        policy_diagnostics(),
    );
    assert_eq!(scoped.result, Verdict::Fail);
    let none = run(
        json!({"min_expected_count": 1}),
        json!({"retrieval_executions": []}),
    );
    assert_eq!(code(&none), "error");
    assert_eq!(
        none.reason.as_deref(),
        Some("No retrieval execution in diagnostics.retrieval_executions")
    );
}
