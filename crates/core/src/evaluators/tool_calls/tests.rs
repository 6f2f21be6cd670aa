//! Tests of `ToolCallSelection` and `ToolCallExecution`: expected identities and extra calls,
//! repeated executions, indeterminate evidence, malformed evidence and option checks.

use crate::json;
use crate::json::Value;

use super::{EXECUTION_SPEC, SELECTION_SPEC};
use crate::evaluators::EvaluatorSpec;
use crate::inputs::Inputs;
use crate::options::Options;
use crate::outcome::{ErrorCode, EvalResult, Verdict};

fn run(spec: &EvaluatorSpec, options: Value, diagnostics: Value) -> EvalResult {
    let map = options.as_object().cloned().unwrap_or_default();
    let evaluator = (spec.build)(spec.name, Options::new(&map)).expect("valid options");
    evaluator.evaluate(&Inputs::new().with("diagnostics", &diagnostics))
}

fn config_error(spec: &EvaluatorSpec, options: Value) -> String {
    let map = options.as_object().cloned().unwrap_or_default();
    match (spec.build)(spec.name, Options::new(&map)) {
        Ok(_) => panic!("options should be rejected: {options}"),
        Err(error) => error.message,
    }
}

fn call(plugin: &str, function: &str) -> Value {
    json!({"tool": {"plugin_name": plugin, "function_name": function}})
}

fn tool(plugin: Option<&str>, function: Option<&str>) -> Value {
    json!({"plugin_name": plugin, "function_name": function})
}

fn execution(plugin: Option<&str>, function: Option<&str>, status: Option<i64>) -> Value {
    json!({"plugin_name": plugin, "function_name": function, "response_status": status})
}

fn selected(entries: Vec<Value>) -> Value {
    json!({"tool_calls": {"selected_functions": entries, "executions": []}})
}

fn executed(entries: Vec<Value>) -> Value {
    json!({"tool_calls": {"selected_functions": [], "executions": entries}})
}

fn error_code(result: &EvalResult) -> Option<ErrorCode> {
    result.error.as_ref().map(|error| error.code)
}

#[test]
fn selection_passes_when_every_expected_tool_is_selected() {
    let options = json!({"calls": [
        {"id": "lookup", "tool": {"plugin_name": "zava", "function_name": "get-claim"}},
        call("zava", "get-claim"),
        call("zava", "get-policy")
    ]});
    let diagnostics = selected(vec![
        tool(Some("zava"), Some("get-policy")),
        tool(Some("zava"), Some("get-claim")),
        tool(Some("docs"), Some("search")),
    ]);
    let result = run(&SELECTION_SPEC, options, diagnostics);
    assert_eq!(result.result, Verdict::Pass);
    assert_eq!(result.score, Some(1.0));
    assert_eq!(result.threshold, Some(1.0));
    insta::assert_json_snapshot!(result);
}

#[test]
fn selection_without_additional_calls_fails_on_extras() {
    let options = json!({"calls": [call("zava", "get-claim")], "allow_additional_calls": false});
    let diagnostics = selected(vec![
        tool(Some("zava"), Some("get-claim")),
        tool(Some("docs"), Some("search")),
        tool(Some("docs"), Some("search")),
    ]);
    let result = run(&SELECTION_SPEC, options, diagnostics);
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(result.score, Some(0.0));
    assert_eq!(
        result.reason.as_deref(),
        Some("Unexpected tools selected: docs/search (allow_additional_calls is false)")
    );
}

#[test]
fn selection_fails_when_a_tool_is_missing() {
    let options = json!({"calls": [{"id": "policy", "tool": {"plugin_name": "zava", "function_name": "get-policy"}}]});
    let result = run(
        &SELECTION_SPEC,
        options,
        selected(vec![tool(Some("zava"), Some("get-claim"))]),
    );
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(
        result.reason.as_deref(),
        Some("Expected tools not selected: 'policy' (zava/get-policy)")
    );
    insta::assert_json_snapshot!(result);
}

#[test]
fn selection_identity_is_case_sensitive() {
    let options = json!({"calls": [call("zava", "get-claim")]});
    let result = run(
        &SELECTION_SPEC,
        options,
        selected(vec![tool(Some("Zava"), Some("get-claim"))]),
    );
    assert_eq!(result.result, Verdict::Fail);
}

#[test]
fn empty_selection_is_an_observation() {
    let options = json!({"calls": [call("zava", "get-claim")]});
    let result = run(&SELECTION_SPEC, options, selected(vec![]));
    assert_eq!(result.result, Verdict::Fail);
}

#[test]
fn null_evidence_is_indeterminate() {
    let options = json!({"calls": [call("zava", "get-claim")]});
    let diagnostics = json!({"tool_calls": {
        "selected_functions": null,
        "executions": null,
        "evidence_error": "Multiple Developer Info artifacts were returned; no authoritative telemetry snapshot could be identified."
    }});
    for spec in [&SELECTION_SPEC, &EXECUTION_SPEC] {
        let result = run(spec, options.clone(), diagnostics.clone());
        assert_eq!(result.result, Verdict::Error);
        assert_eq!(
            error_code(&result),
            Some(ErrorCode::ToolCallEvidenceIndeterminate)
        );
        assert!(result
            .error
            .map(|e| e.message)
            .unwrap_or_default()
            .contains("Multiple Developer Info"));
    }
    let result = run(&SELECTION_SPEC, options.clone(), Value::Null);
    assert_eq!(
        error_code(&result),
        Some(ErrorCode::ToolCallEvidenceIndeterminate)
    );
    let result = run(
        &EXECUTION_SPEC,
        options,
        json!({"retrieval_executions": []}),
    );
    assert_eq!(
        error_code(&result),
        Some(ErrorCode::ToolCallEvidenceIndeterminate)
    );
    insta::assert_json_snapshot!(result);
}

#[test]
fn incomplete_selected_entries_make_a_fail_indeterminate_only_when_they_could_matter() {
    let options = json!({"calls": [call("zava", "get-claim")]});
    let could_be = selected(vec![tool(Some("zava"), None)]);
    let result = run(&SELECTION_SPEC, options.clone(), could_be);
    assert_eq!(
        error_code(&result),
        Some(ErrorCode::ToolCallEvidenceIndeterminate)
    );
    let cannot_be = selected(vec![tool(Some("docs"), None)]);
    assert_eq!(
        run(&SELECTION_SPEC, options.clone(), cannot_be).result,
        Verdict::Fail
    );
    let already_passed = selected(vec![
        tool(Some("zava"), Some("get-claim")),
        tool(None, None),
    ]);
    assert_eq!(
        run(&SELECTION_SPEC, options, already_passed.clone()).result,
        Verdict::Pass
    );
    let strict = json!({"calls": [call("zava", "get-claim")], "allow_additional_calls": false});
    let result = run(&SELECTION_SPEC, strict, already_passed);
    assert_eq!(
        error_code(&result),
        Some(ErrorCode::ToolCallEvidenceIndeterminate)
    );
}

#[test]
fn execution_needs_k_distinct_successes_for_k_repeats() {
    let options = json!({"calls": [call("zava", "get-claim"), call("zava", "get-claim"), call("zava", "get-policy")]});
    let one_success = executed(vec![
        execution(Some("zava"), Some("get-claim"), Some(200)),
        execution(Some("zava"), Some("get-claim"), Some(500)),
        execution(Some("zava"), Some("get-policy"), Some(204)),
    ]);
    let result = run(&EXECUTION_SPEC, options.clone(), one_success);
    assert_eq!(result.result, Verdict::Fail);
    assert_eq!(
        result.reason.as_deref(),
        Some("Missing successful executions: zava/get-claim (1 of 2 succeeded; failed with status 500)")
    );
    insta::assert_json_snapshot!(result);
    let two_successes = executed(vec![
        execution(Some("zava"), Some("get-claim"), Some(200)),
        execution(Some("zava"), Some("get-policy"), Some(299)),
        execution(Some("zava"), Some("get-claim"), Some(201)),
        execution(Some("docs"), Some("search"), Some(404)),
    ]);
    let result = run(&EXECUTION_SPEC, options, two_successes);
    assert_eq!(result.result, Verdict::Pass);
    assert_eq!(result.score, Some(1.0));
    assert_eq!(
        result.reason.as_deref(),
        Some("All expected calls executed successfully: zava/get-claim ×2, zava/get-policy")
    );
}

#[test]
fn execution_status_boundaries() {
    let options = json!({"calls": [call("p", "f")]});
    for (status, verdict) in [
        (199, Verdict::Fail),
        (200, Verdict::Pass),
        (299, Verdict::Pass),
        (300, Verdict::Fail),
    ] {
        let result = run(
            &EXECUTION_SPEC,
            options.clone(),
            executed(vec![execution(Some("p"), Some("f"), Some(status))]),
        );
        assert_eq!(result.result, verdict, "status {status}");
    }
}

#[test]
fn unknown_status_or_name_can_make_execution_indeterminate() {
    let options = json!({"calls": [call("p", "f")]});
    let unknown_status = executed(vec![execution(Some("p"), Some("f"), None)]);
    let result = run(&EXECUTION_SPEC, options.clone(), unknown_status);
    assert_eq!(
        error_code(&result),
        Some(ErrorCode::ToolCallEvidenceIndeterminate)
    );
    let unknown_name = executed(vec![execution(None, Some("f"), Some(200))]);
    let result = run(&EXECUTION_SPEC, options.clone(), unknown_name);
    assert_eq!(
        error_code(&result),
        Some(ErrorCode::ToolCallEvidenceIndeterminate)
    );
    let unknown_name_failed = executed(vec![execution(None, Some("f"), Some(500))]);
    assert_eq!(
        run(&EXECUTION_SPEC, options.clone(), unknown_name_failed).result,
        Verdict::Fail
    );
    let other_tool = executed(vec![execution(Some("q"), None, None)]);
    assert_eq!(
        run(&EXECUTION_SPEC, options, other_tool).result,
        Verdict::Fail
    );
}

#[test]
fn malformed_evidence_is_an_evaluator_error() {
    let options = json!({"calls": [call("p", "f")]});
    let diagnostics = json!({"tool_calls": {"selected_functions": [], "executions": [
        {"plugin_name": "p", "function_name": "f", "response_status": "200"}
    ]}});
    let result = run(&EXECUTION_SPEC, options.clone(), diagnostics);
    assert_eq!(error_code(&result), Some(ErrorCode::EvaluatorError));
    assert_eq!(
        result.error.map(|e| e.message).as_deref(),
        Some("diagnostics.tool_calls.executions[0].response_status must be an integer or null, got a string")
    );
    let result = run(
        &SELECTION_SPEC,
        options.clone(),
        json!({"tool_calls": {"selected_functions": {}}}),
    );
    assert_eq!(error_code(&result), Some(ErrorCode::EvaluatorError));
    let result = run(&SELECTION_SPEC, options, json!({"tool_calls": []}));
    assert_eq!(error_code(&result), Some(ErrorCode::EvaluatorError));
}

#[test]
fn options_are_validated() {
    assert!(config_error(&SELECTION_SPEC, json!({})).contains("calls"));
    assert!(config_error(&SELECTION_SPEC, json!({"calls": []})).contains("calls"));
    assert!(config_error(
        &SELECTION_SPEC,
        json!({"calls": [{"tool": {"plugin_name": "p"}}]})
    )
    .contains("function_name"));
    assert!(config_error(
        &SELECTION_SPEC,
        json!({"calls": [{"tool": {"plugin_name": "p", "function_name": ""}}]})
    )
    .contains("function_name"));
    assert!(config_error(
        &SELECTION_SPEC,
        json!({"calls": [{"id": "", "tool": {"plugin_name": "p", "function_name": "f"}}]})
    )
    .contains("`id`"));
    assert!(config_error(
        &SELECTION_SPEC,
        json!({"calls": [{"name": "x", "tool": {"plugin_name": "p", "function_name": "f"}}]})
    )
    .contains("unknown key `name`"));
    assert!(config_error(
        &SELECTION_SPEC,
        json!({"calls": [call("p", "f")], "allow_additional_calls": "no"})
    )
    .contains("allow_additional_calls"));
    assert!(config_error(
        &EXECUTION_SPEC,
        json!({"calls": [call("p", "f")], "allow_additional_calls": true})
    )
    .contains("unknown option"));
}
