//! Tests of `RetrievalQuery`: selectors, required and excluded terms across matched queries, the
//! diagnostic codes, what is out of scope, malformed diagnostics and option checks.

use crate::json;
use crate::json::Value;

use super::SPEC;
use crate::inputs::Inputs;
use crate::options::Options;
use crate::outcome::{ErrorCode, EvalResult, Verdict};

fn run(options: Value, diagnostics: Value) -> EvalResult {
    let map = options.as_object().cloned().unwrap_or_default();
    let evaluator = (SPEC.build)("RetrievalQuery", Options::new(&map)).expect("valid options");
    evaluator.evaluate(&Inputs::new().with("diagnostics", &diagnostics))
}

fn config_error(options: Value) -> String {
    let map = options.as_object().cloned().unwrap_or_default();
    match (SPEC.build)("RetrievalQuery", Options::new(&map)) {
        Ok(_) => panic!("options should be rejected: {options}"),
        Err(error) => error.message,
    }
}

fn claims_diagnostics() -> Value {
    json!({"retrieval_executions": [
        {
            "capability": "OneDriveAndSharePoint",
            "status": "success",
            "queries": [
                {"queryString": "Claim INSPECTION scheduling policy", "filterExpression": "unicorn"},
                {"queryString": null, "filterExpression": "FileType:docx"},
                {"queryString": "deductible options"}
            ],
            "retrievalHits": []
        },
        {
            "capability": "Email",
            "queries": [{"queryString": "inspection unicorn"}]
        }
    ]})
}

fn code(result: &EvalResult) -> &str {
    result.details["diagnostic_code"]
        .as_str()
        .unwrap_or_default()
}

#[test]
fn pass_with_includes_across_matched_queries() {
    let diagnostics = json!({"retrieval_executions": [{
        "capability": "onedriveandsharepoint",
        "queries": [
            {"queryString": "HomeShield deductible"},
            {"queryString": "deductible tiers 2026"}
        ]
    }]});
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "selector": "Deductible",
               "includes": ["homeshield", "tiers"], "excludes": ["FileType:OneNote"]}),
        diagnostics,
    );
    assert_eq!(result.result, Verdict::Pass);
    assert_eq!(result.score, Some(1.0));
    assert_eq!(result.threshold, Some(1.0));
    assert_eq!(code(&result), "pass");
    assert_eq!(
        result.details["matched_queries"],
        json!(["HomeShield deductible", "deductible tiers 2026"])
    );
    insta::assert_json_snapshot!(result);
}

#[test]
fn rag07_no_matching_query() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "selector": "mortgage"}),
        claims_diagnostics(),
    );
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(result.score, Some(0.0));
    assert_eq!(code(&result), "no_matching_query");
    assert_eq!(result.details["matched_queries"], json!([]));
    insta::assert_json_snapshot!(result);
}

#[test]
fn rag08_required_terms_missing() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "selector": "inspection",
               "includes": ["inspection", "unicorn"]}),
        claims_diagnostics(),
    );
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(code(&result), "required_terms_missing");
    assert_eq!(result.details["includes_missing"], json!(["unicorn"]));
    assert_eq!(result.details["excludes_found"], json!([]));
    insta::assert_json_snapshot!(result);
}

#[test]
fn rag09_selector_term_may_also_be_excluded() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "selector": "claim", "excludes": ["claim"]}),
        claims_diagnostics(),
    );
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(code(&result), "excluded_terms_found");
    assert_eq!(result.details["excludes_found"], json!(["claim"]));
    assert_eq!(result.details["includes_missing"], json!([]));
}

#[test]
fn mixed_term_failure_when_both() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "selector": "claim",
               "includes": ["unicorn"], "excludes": ["policy"]}),
        claims_diagnostics(),
    );
    assert_eq!(code(&result), "mixed_term_failure");
    assert_eq!(result.details["includes_missing"], json!(["unicorn"]));
    assert_eq!(result.details["excludes_found"], json!(["policy"]));
    assert_eq!(
        result.reason.as_deref(),
        Some("1 query matched selector 'claim'; required terms missing: 'unicorn'; excluded terms found: 'policy'")
    );
}

#[test]
fn filter_expression_never_satisfies_selector_or_terms() {
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "selector": "FileType"}),
        claims_diagnostics(),
    );
    assert_eq!(code(&result), "no_matching_query");
    let result = run(
        json!({"capability": "OneDriveAndSharePoint", "selector": "inspection", "includes": ["unicorn"]}),
        claims_diagnostics(),
    );
    assert_eq!(code(&result), "required_terms_missing");
}

#[test]
fn other_capabilities_are_out_of_scope() {
    let result = run(
        json!({"capability": "TeamsMessages", "selector": "inspection"}),
        claims_diagnostics(),
    );
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(code(&result), "retrieval_failure");
    assert_eq!(
        result.reason.as_deref(),
        Some("No retrieval execution for capability 'TeamsMessages'")
    );
}

#[test]
fn missing_diagnostics_is_retrieval_failure() {
    let options = json!({"capability": "Email", "selector": "x"});
    for diagnostics in [
        Value::Null,
        json!({}),
        json!({"retrieval_executions": null}),
    ] {
        let result = run(options.clone(), diagnostics);
        assert_eq!(result.result, Verdict::Fail);
        assert_eq!(code(&result), "retrieval_failure");
    }
    let result = run(options, json!({"retrieval_executions": []}));
    assert_eq!(code(&result), "retrieval_failure");
    insta::assert_json_snapshot!(result);
}

#[test]
fn malformed_diagnostics_is_evaluator_error_naming_the_field() {
    let result = run(
        json!({"capability": "Email", "selector": "x"}),
        json!({"retrieval_executions": [{"capability": "Email", "queries": [{"queryString": 7}]}]}),
    );
    assert_eq!(result.result, Verdict::Error);
    let error = result.error.expect("error");
    assert_eq!(error.code, ErrorCode::EvaluatorError);
    assert_eq!(
        error.message,
        "diagnostics.retrieval_executions[0].queries[0].queryString must be a string or null, got a number"
    );
    let result = run(
        json!({"capability": "Email", "selector": "x"}),
        json!({"retrieval_executions": {"capability": "Email"}}),
    );
    assert_eq!(result.result, Verdict::Error);
}

#[test]
fn options_are_validated() {
    assert!(config_error(json!({"selector": "x"})).contains("capability"));
    assert!(config_error(json!({"capability": "Email"})).contains("selector"));
    assert!(config_error(json!({"capability": "", "selector": "x"})).contains("capability"));
    assert!(
        config_error(json!({"capability": "Email", "selector": "x", "threshold": 1.0}))
            .contains("unknown option `threshold`")
    );
    assert!(
        config_error(json!({"capability": "Email", "selector": "x", "includes": [""]}))
            .contains("includes")
    );
    assert!(
        config_error(json!({"capability": "Email", "selector": "x", "excludes": "a"}))
            .contains("excludes")
    );
}
