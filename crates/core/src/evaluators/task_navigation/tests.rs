//! Tests of `builtin.task_navigation_efficiency`: the three matching modes, input forms and
//! aliases, parameters as Python renders them, the reference's messages and crashes, deep values.

use crate::json;

use super::*;

fn evaluator(mode: &str) -> Box<dyn Evaluator> {
    let map: crate::json::Map<String, Value> =
        crate::json::from_value(json!({ "matching_mode": mode })).unwrap();
    build("tne", Options::new(&map)).unwrap()
}

fn call(name: &str, arguments: Value) -> Value {
    json!({"role": "assistant", "content": [{"type": "tool_call", "name": name, "arguments": arguments}]})
}

fn run(mode: &str, response: Value, ground_truth: Value) -> EvalResult {
    evaluator(mode).evaluate(
        &Inputs::new()
            .with("response", &response)
            .with("ground_truth", &ground_truth),
    )
}

fn message(result: &EvalResult) -> &str {
    result
        .error
        .as_ref()
        .map_or("", |error| error.message.as_str())
}

fn props(result: &EvalResult) -> [f64; 3] {
    ["precision_score", "recall_score", "f1_score"].map(|key| result.details[key].as_f64().unwrap())
}

#[test]
fn modes_decide_the_verdict() {
    let response = json!([
        call("a", json!({})),
        call("x", json!({})),
        call("b", json!({}))
    ]);
    let expected = json!(["a", "b"]);
    assert_eq!(
        run("exact_match", response.clone(), expected.clone()).score,
        Some(0.0)
    );
    assert_eq!(
        run("in_order_match", response.clone(), expected.clone()).score,
        Some(1.0)
    );
    assert_eq!(
        run("in_order_match", response.clone(), json!(["b", "a"])).score,
        Some(0.0)
    );
    assert_eq!(
        run("any_order_match", response.clone(), json!(["b", "a"])).score,
        Some(1.0)
    );
    assert_eq!(
        run("any_order_match", response.clone(), json!(["a", "a"])).score,
        Some(0.0)
    );
    let result = run("exact_match", response, expected);
    assert_eq!(props(&result), [2.0 / 3.0, 1.0, 0.8]);
    assert_eq!(result.threshold, Some(1.0));
}

#[test]
fn string_inputs_are_json_decoded_and_names_stripped() {
    let response = json!(json!([call(" a ", json!({}))]).to_string());
    let result = run("exact_match", response, json!("[\"a\"]"));
    assert_eq!(result.result.as_str(), "pass");
}

#[test]
fn empty_response_scores_zero() {
    let result = run("exact_match", json!([]), json!(["a"]));
    assert_eq!((result.score, props(&result)), (Some(0.0), [0.0; 3]));
}

#[test]
fn parameters_compare_as_python_renders_them() {
    let expected = json!([["search"], {"search": {"n": "1", "flag": "True", "none": "None", "obj": "{\"a\": 2, \"b\": 1}", "x": 1.0}}]);
    let response = json!([call(
        "search",
        json!({"n": 1, "flag": true, "none": null, "obj": {"b": 1, "a": 2}, "x": 1.0})
    )]);
    assert_eq!(
        run("exact_match", response, expected.clone()).score,
        Some(1.0)
    );
    let int_vs_float = json!([call(
        "search",
        json!({"n": 1, "flag": true, "none": null, "obj": {"b": 1, "a": 2}, "x": 1})
    )]);
    assert_eq!(run("exact_match", int_vs_float, expected).score, Some(0.0));
    let object_form = json!({"tool_names": ["s"], "parameters": {"s": {"q": "x"}}});
    let string_args = json!([call("s", json!("{\"q\": \"x\"}"))]);
    assert_eq!(
        run("exact_match", string_args, object_form).score,
        Some(1.0)
    );
    let non_dict_args = json!([call("s", json!("[1]"))]);
    assert_eq!(
        run("exact_match", non_dict_args, json!([["s"], {}])).score,
        Some(1.0)
    );
}

#[test]
fn validation_messages_are_the_reference_ones() {
    let cases = [
        (Value::Null, json!(["a"]), "'actions' (also accepted as 'response') parameter is required and cannot be None."),
        (json!("not json"), json!(["a"]), "'actions' (also accepted as 'response') must be a list of messages."),
        (json!([1]), json!(["a"]), "Action at index 0 must be a dictionary, got int."),
        (json!([{"role": 3}]), json!(["a"]), "'role' field in action at index 0 must be a string, got int."),
        (json!([{"role": "assistant", "content": "x"}]), json!(["a"]), "'content' field in assistant action at index 0 must be a list, got str."),
        (json!([{"role": "assistant", "content": [{"type": "tool_call"}]}]), json!(["a"]), "Tool call in action 0, content 0 must contain a 'name' field."),
        (json!([]), json!("[]"), "'expected_actions' (also accepted as 'ground_truth') parameter is required and cannot be None or empty."),
        (json!([]), json!(["a", 1]), "Expected action at index 1 must be a string (tool name), got int."),
        (json!([]), json!({"a": 1}), "'expected_actions' (also accepted as 'ground_truth') must be either a list of tool names or a tuple of (tool_names_list, parameters_dict)."),
        (json!([]), json!([[], {}]), "Tool names list in 'expected_actions' (also accepted as 'ground_truth') cannot be empty."),
        (json!([]), json!([["a"], {"a": 1}]), "Parameters for tool 'a' in 'expected_actions' (also accepted as 'ground_truth') must be a dictionary, got int."),
        (json!([call("a", json!("{bad"))]), json!(["a"]), "Failed to parse tool call arguments as JSON."),
    ];
    for (response, ground_truth, expected) in cases {
        assert_eq!(
            message(&run("exact_match", response, ground_truth)),
            expected
        );
    }
}

#[test]
fn reference_crashes_become_errors() {
    let unhashable = json!([{"role": "assistant", "content": [{"type": "tool_call", "name": "a", "tool_call_id": [1]}]}]);
    assert!(message(&run("exact_match", unhashable, json!(["a"]))).contains("tool_call_id"));
    let missing_result = json!([
        {"role": "assistant", "content": [{"type": "tool_call", "name": "a", "tool_call_id": 1}]},
        {"role": "tool", "tool_call_id": true, "content": [{"type": "tool_result"}]}
    ]);
    assert!(message(&run("exact_match", missing_result, json!(["a"]))).contains("'tool_result'"));
    let container_name =
        json!([{"role": "assistant", "content": [{"type": "tool_call", "name": ["a"]}]}]);
    assert!(message(&run("exact_match", container_name, json!(["a"]))).contains("'name'"));
}

#[test]
fn aliases_are_used_when_canonical_inputs_are_absent() {
    let actions = json!([call("a", json!({}))]);
    let expected = json!(["a"]);
    let result = evaluator("exact_match").evaluate(
        &Inputs::new()
            .with("actions", &actions)
            .with("expected_actions", &expected),
    );
    assert_eq!(result.result.as_str(), "pass");
}

#[test]
fn matching_mode_messages() {
    let error = |options: Value| {
        let map: crate::json::Map<String, Value> = crate::json::from_value(options).unwrap();
        build("tne", Options::new(&map)).err().map(|e| e.message)
    };
    assert_eq!(
        error(json!({"matching_mode": "fuzzy"})).as_deref(),
        Some("matching_mode must be one of ['exact_match', 'in_order_match', 'any_order_match'], got 'fuzzy'")
    );
    assert_eq!(
        error(json!({"matching_mode": null})).as_deref(),
        Some("matching_mode must be a string with one of ['exact_match', 'in_order_match', 'any_order_match'] or _TaskNavigationEfficiencyMatchingMode enum, got <class 'NoneType'>")
    );
}

#[test]
fn snapshot_result() {
    let response = json!([call("search", json!({})), call("book", json!({}))]);
    insta::assert_json_snapshot!(run("in_order_match", response, json!(["search", "pay"])));
}

fn nested(levels: usize) -> Value {
    (0..levels).fold(json!(1), |inner, _| json!([inner]))
}

#[test]
fn deep_values_are_read_in_place_and_only_rendering_them_is_bounded() {
    let deep_elsewhere = json!([
        {"role": "user", "content": nested(120)},
        call("a", json!({}))
    ]);
    let result = run("exact_match", deep_elsewhere, json!(["a"]));
    assert_eq!(result.score, Some(1.0), "{}", message(&result));

    let deep_parameter = json!([call("a", json!({"p": nested(120)}))]);
    let result = run(
        "exact_match",
        deep_parameter,
        json!([["a"], {"a": {"p": 1}}]),
    );
    assert_eq!(
        message(&result),
        "input is nested more than 100 levels deep"
    );

    let rendered = json!([call("a", json!({"p": nested(3), "q": 2}))]);
    let result = run(
        "exact_match",
        rendered,
        json!([["a"], {"a": {"q": 2, "p": [[[1]]]}}]),
    );
    assert_eq!(result.score, Some(1.0), "{}", message(&result));
}

/// A documented deviation: an integer literal beyond 64 bits is a Python `int` for the reference but
/// is read as the nearest float here, so it is named and rendered as a float.
#[test]
fn integers_beyond_64_bits_are_floats() {
    let parse = |text: &str| crate::json::parse_str(text).unwrap();
    let beyond = run(
        "exact_match",
        parse("[1180591620717411303424]"),
        json!(["a"]),
    );
    assert_eq!(
        message(&beyond),
        "Action at index 0 must be a dictionary, got float."
    );
    let within = run("exact_match", parse("[18446744073709551615]"), json!(["a"]));
    assert_eq!(
        message(&within),
        "Action at index 0 must be a dictionary, got int."
    );
    let response = json!([call("a", parse(r#"{"q": 1180591620717411303424}"#))]);
    let as_float = json!([["a"], {"a": {"q": "1.1805916207174113e+21"}}]);
    assert_eq!(
        run("exact_match", response.clone(), as_float).score,
        Some(1.0)
    );
    let as_int = json!([["a"], {"a": {"q": "1180591620717411303424"}}]);
    assert_eq!(run("exact_match", response, as_int).score, Some(0.0));
}

/// The Foundry evaluator page's own example: `function_call` content items with JSON-string
/// arguments (a named deviation from the reference, which only counts `tool_call`).
fn page_actions() -> Value {
    json!([
        {"role": "assistant", "content": [
            {"type": "function_call", "name": "call_tool_A", "arguments": "{\"param\": \"value\"}"}
        ]},
        {"role": "assistant", "content": [
            {"type": "function_call", "name": "call_tool_B", "arguments": "{}"}
        ]}
    ])
}

#[test]
fn function_call_items_count_as_tool_calls() {
    let result = evaluator("exact_match").evaluate(
        &Inputs::new()
            .with("actions", &page_actions())
            .with("expected_actions", &json!(["call_tool_A", "call_tool_B"])),
    );
    assert_eq!(result.score, Some(1.0), "{}", message(&result));
    assert_eq!(props(&result), [1.0, 1.0, 1.0]);
    let with_params = json!([["call_tool_A", "call_tool_B"], {"call_tool_A": {"param": "value"}}]);
    let result = evaluator("exact_match").evaluate(
        &Inputs::new()
            .with("actions", &page_actions())
            .with("expected_actions", &with_params),
    );
    assert_eq!(result.score, Some(1.0), "{}", message(&result));
    let wrong_param = json!([["call_tool_A", "call_tool_B"], {"call_tool_A": {"param": "other"}}]);
    let result = evaluator("exact_match").evaluate(
        &Inputs::new()
            .with("actions", &page_actions())
            .with("expected_actions", &wrong_param),
    );
    assert_eq!(result.score, Some(0.0));
    assert_eq!(props(&result), [0.5, 0.5, 0.5]);
}

#[test]
fn messages_is_another_name_for_actions() {
    let mut conversation = vec![json!({"role": "user", "content": "Run A then B"})];
    conversation.extend(page_actions().as_array().unwrap().iter().cloned());
    conversation.push(json!({"role": "assistant", "content": [{"type": "text", "text": "Done."}]}));
    let result = evaluator("in_order_match").evaluate(
        &Inputs::new()
            .with("messages", &Value::Array(conversation))
            .with("expected_actions", &json!(["call_tool_A", "call_tool_B"])),
    );
    assert_eq!(result.score, Some(1.0), "{}", message(&result));
    let missing = evaluator("in_order_match")
        .evaluate(&Inputs::new().with("expected_actions", &json!(["call_tool_A"])));
    assert!(missing.error.is_some());
}

#[test]
fn a_function_call_result_is_matched_by_its_call_id() {
    let actions = json!([
        {"role": "assistant", "content": [
            {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": "{}"}
        ]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result"}]}
    ]);
    let result = evaluator("exact_match").evaluate(
        &Inputs::new()
            .with("actions", &actions)
            .with("expected_actions", &json!(["lookup"])),
    );
    assert!(
        message(&result).contains("has no 'tool_result' field"),
        "{}",
        message(&result)
    );
}
