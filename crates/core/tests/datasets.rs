//! Reading every dialect end to end: sniffing, legacy upgrades, item-level versus document-level
//! problems, Foundry configs, and absurd input.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use agenteval_core::dataset::{self, Dataset};
use agenteval_core::json;
use agenteval_core::json::Value;
use agenteval_core::{engine, ErrorCode, ItemStatus, Location, Severity, Verdict};

const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/m365-copilot-eval"
);

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}/{path}")).expect("fixture exists")
}

fn load(value: Value) -> Result<dataset::Loaded, agenteval_core::InputError> {
    dataset::load(value.to_string().as_bytes(), None)
}

#[test]
fn bare_array_is_upgraded_with_a_warning() {
    let loaded = dataset::load(&fixture("samples/example_prompts.json"), None)
        .expect("legacy array accepted");
    let Dataset::M365(document) = &loaded.dataset else {
        panic!("expected an M365 dataset");
    };
    assert!(document.legacy);
    assert!(!document.items().is_empty());
    assert_eq!(document.document["schemaVersion"], "1.11.0");
    assert!(loaded
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning && d.message.contains("legacy")));
    assert!(!loaded.has_errors());
}

#[test]
fn missing_schema_version_is_legacy_not_an_error() {
    let loaded = dataset::load(
        &fixture("schema/v1/examples/invalid/missing-schema-version.json"),
        None,
    )
    .expect("accepted as legacy");
    assert!(!loaded.has_errors());
    let messages: Vec<&str> = loaded
        .diagnostics
        .iter()
        .inspect(|diagnostic| assert_eq!(diagnostic.severity, Severity::Warning))
        .map(|diagnostic| diagnostic.message.as_str())
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].contains("legacy"), "{messages:?}");
    assert!(messages[1].contains("have no response"), "{messages:?}");
}

#[test]
fn prompts_object_pairs_expected_responses() {
    let loaded =
        load(json!({"prompts": ["a?", "b?"], "expected_responses": ["A", "B"]})).expect("accepted");
    let Dataset::M365(document) = &loaded.dataset else {
        panic!("expected an M365 dataset");
    };
    assert_eq!(
        document.items()[1],
        json!({"prompt": "b?", "expected_response": "B"})
    );
    let mismatch =
        load(json!({"prompts": ["a?", "b?"], "expected_responses": ["A"]})).expect_err("rejected");
    assert_eq!(
        mismatch.diagnostics[0].location,
        Location::Pointer {
            pointer: "/expected_responses".into(),
            line: None
        }
    );
}

#[test]
fn every_valid_example_and_sample_loads_without_errors() {
    for dir in ["schema/v1/examples/valid", "samples"] {
        for entry in std::fs::read_dir(format!("{FIXTURES}/{dir}")).expect("fixture dir") {
            let path = entry.expect("entry").path();
            let loaded = dataset::load(&std::fs::read(&path).expect("readable"), None)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            assert!(
                !loaded.has_errors(),
                "{}: {:?}",
                path.display(),
                loaded.diagnostics
            );
        }
    }
}

#[test]
fn every_invalid_example_is_rejected_with_a_pointer() {
    for entry in
        std::fs::read_dir(format!("{FIXTURES}/schema/v1/examples/invalid")).expect("fixture dir")
    {
        let path = entry.expect("entry").path();
        if path.ends_with("missing-schema-version.json") {
            continue;
        }
        let diagnostics = match dataset::load(&std::fs::read(&path).expect("readable"), None) {
            Err(error) => error.diagnostics,
            Ok(loaded) => loaded.diagnostics,
        };
        let errors: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(!errors.is_empty(), "{} was accepted", path.display());
        assert!(
            errors
                .iter()
                .all(|d| matches!(d.location, Location::Pointer { .. })),
            "{}: {errors:?}",
            path.display()
        );
    }
}

#[test]
fn a_bad_item_is_an_error_and_the_others_are_scored() {
    let loaded = load(json!({
        "schemaVersion": "1.6.0",
        "default_evaluators": {"ExactMatch": {}},
        "items": [
            {"prompt": "a", "expected_response": "x", "response": "x"},
            {"prompt": "b", "expected_response": "x", "response": "x", "testId": 7},
            {"prompt": "c", "expected_response": "x", "response": "y"}
        ]
    }))
    .expect("the document as a whole is valid");
    assert!(loaded.has_errors());
    let report = engine::score(&loaded.dataset);
    let statuses: Vec<_> = report.items.iter().map(|item| item.status).collect();
    assert_eq!(
        statuses,
        [
            Some(ItemStatus::Pass),
            Some(ItemStatus::Error),
            Some(ItemStatus::Fail)
        ]
    );
    let problem = report.items[1]
        .problem
        .as_deref()
        .expect("the bad item says why");
    assert!(problem.contains("/items/1/testId"), "{problem}");
}

#[test]
fn unknown_evaluator_suggests_the_closest_name_and_others_still_run() {
    let loaded = load(json!({
        "schemaVersion": "1.6.0",
        "items": [{"prompt": "a", "expected_response": "x", "response": "x",
                   "evaluators": {"PartialMatc": {}, "ExactMatch": {}}, "evaluators_mode": "replace"}]
    }))
    .expect("custom names are valid from 1.6");
    let report = engine::score(&loaded.dataset);
    let results = &report.items[0].results;
    assert_eq!(results[0].result, Verdict::Error);
    let error = results[0].error.as_ref().expect("error details");
    assert_eq!(error.code, ErrorCode::EvaluatorLoadError);
    assert!(
        error.message.contains("did you mean 'PartialMatch'"),
        "{}",
        error.message
    );
    assert_eq!(results[1].result, Verdict::Pass);
    assert_eq!(report.items[0].status, Some(ItemStatus::Partial));
}

#[test]
fn judged_evaluators_are_skipped_without_a_judge_and_empty_responses_error() {
    let loaded = load(json!({
        "schemaVersion": "1.6.0",
        "items": [
            {"prompt": "a", "response": "an answer"},
            {"prompt": "b", "response": "   "}
        ]
    }))
    .expect("valid");
    let report = engine::score(&loaded.dataset);
    let first = &report.items[0];
    assert!(first.results.iter().all(|r| r.result == Verdict::Skipped));
    assert_eq!(
        first.results[0].reason.as_deref(),
        Some("no judge configured")
    );
    assert_eq!(first.status, None);
    let second = &report.items[1];
    assert!(second
        .results
        .iter()
        .all(|r| r.error.as_ref().map(|e| e.code) == Some(ErrorCode::EmptyAgentResponse)));
    assert_eq!(second.status, Some(ItemStatus::Error));
}

#[test]
fn thread_turns_are_scored_separately() {
    let loaded = load(json!({
        "schemaVersion": "1.2.0",
        "default_evaluators": {"ExactMatch": {}},
        "items": [{"turns": [
            {"prompt": "1", "expected_response": "a", "response": "a"},
            {"prompt": "2", "expected_response": "b", "response": "c"}
        ]}]
    }))
    .expect("valid");
    let report = engine::score(&loaded.dataset);
    assert_eq!(report.items.len(), 2);
    assert_eq!(report.items[1].turn, Some(1));
    assert_eq!(report.items[0].status, Some(ItemStatus::Pass));
    assert_eq!(report.items[1].status, Some(ItemStatus::Fail));
}

#[test]
fn foundry_jsonl_with_inline_config_keeps_good_rows_around_a_bad_one() {
    let text = concat!(
        r#"{"testing_criteria": [{"type": "azure_ai_evaluator", "name": "f1", "evaluator_name": "builtin.f1_score"}]}"#,
        "\n",
        r#"{"response": "a b", "ground_truth": "a b"}"#,
        "\n",
        r#"{"response": "a b", "ground_truth": }"#,
        "\n",
        r#"{"response": "x", "ground_truth": "y"}"#,
        "\n"
    );
    let loaded = dataset::load(text.as_bytes(), None).expect("rows load");
    assert_eq!(loaded.diagnostics.len(), 1);
    assert!(matches!(
        loaded.diagnostics[0].location,
        Location::LineColumn { line: 3, .. }
    ));
    let report = engine::score(&loaded.dataset);
    let statuses: Vec<_> = report.items.iter().map(|item| item.status).collect();
    assert_eq!(
        statuses,
        [
            Some(ItemStatus::Pass),
            Some(ItemStatus::Error),
            Some(ItemStatus::Fail)
        ]
    );
}

#[test]
fn foundry_rows_without_a_config_are_rejected() {
    let error = load(json!([{"response": "a", "ground_truth": "b"}])).expect_err("no criteria");
    assert!(error.diagnostics[0].message.contains("testing_criteria"));
}

#[test]
fn foundry_config_problems_name_the_pointer() {
    let config = json!({"testing_criteria": [
        {"name": "f1", "evaluator_name": "builtin.f1_score", "data_mapping": {"response": "item.response"}},
        {"evaluator_name": "builtin.f1_score"}
    ]});
    let error = dataset::load(
        br#"[{"response": "a", "ground_truth": "b"}]"#,
        Some(&config),
    )
    .expect_err("bad config");
    let pointers: Vec<_> = error
        .diagnostics
        .iter()
        .map(|d| match &d.location {
            Location::Pointer { pointer, .. } => pointer.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        pointers,
        [
            "/testing_criteria/0/data_mapping/response",
            "/testing_criteria/1/name"
        ]
    );
}

#[test]
fn foundry_templates_follow_dotted_paths_and_sample_output() {
    let config = json!({"testing_criteria": [{"name": "f1", "evaluator_name": "builtin.f1_score",
        "data_mapping": {"response": "{{sample.output_text}}", "ground_truth": "{{item.truth.text}}"}}]});
    let loaded = dataset::load(
        br#"[{"response": "a b", "truth": {"text": "a b"}}]"#,
        Some(&config),
    )
    .expect("loads");
    let report = engine::score(&loaded.dataset);
    assert_eq!(report.items[0].results[0].result, Verdict::Pass);
}

#[test]
fn absurd_input_gets_clear_errors_without_panicking() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let invalid_utf8 =
        b"{\"schemaVersion\": \"1.6.0\", \"items\": [{\"prompt\": \"\xff\"}]}".to_vec();
    let nan_threshold = br#"{"schemaVersion": "1.6.0", "items": [{"prompt": "a", "evaluators": {"PartialMatch": {"threshold": NaN}}}]}"#.to_vec();
    let infinite_threshold = br#"{"schemaVersion": "1.6.0", "items": [{"prompt": "a", "evaluators": {"PartialMatch": {"threshold": 1e999}}}]}"#.to_vec();
    for (name, input) in [
        ("deep", deep.into_bytes()),
        ("invalid utf-8", invalid_utf8),
        ("NaN", nan_threshold),
        ("infinite", infinite_threshold),
    ] {
        let error = dataset::load(&input, None).expect_err(name);
        let diagnostic = &error.diagnostics[0];
        assert!(
            matches!(diagnostic.location, Location::LineColumn { line: 1, .. }),
            "{name}: {diagnostic:?}"
        );
        assert!(!diagnostic.message.is_empty());
    }
}

#[test]
fn a_string_past_the_limit_makes_only_its_item_or_row_an_error() {
    let huge = "x".repeat(10 << 20);
    let limit = "10485760 bytes long; the limit is 1048576 bytes (1 MiB)";
    let document = format!(
        r#"{{"schemaVersion": "1.6.0", "items": [
            {{"prompt": "p", "response": "{huge}", "expected_response": "a", "evaluators": {{"ExactMatch": {{}}}}}},
            {{"prompt": "q", "response": "a", "expected_response": "a", "evaluators": {{"ExactMatch": {{}}}}}}
        ]}}"#
    );
    let loaded = dataset::load(document.as_bytes(), None).expect("the document loads");
    let problem = &loaded.diagnostics[0];
    assert_eq!(
        problem.location,
        Location::Pointer {
            pointer: "/items/0/response".to_owned(),
            line: None
        }
    );
    assert_eq!(problem.message, format!("string is {limit}"));
    let report = engine::score(&loaded.dataset);
    assert_eq!(report.items[0].status, Some(ItemStatus::Error));
    assert_eq!(
        report.items[0].problem.as_deref(),
        Some(format!("/items/0/response: string is {limit}").as_str())
    );
    assert!(report.items[0].results.is_empty());
    assert_eq!(report.items[1].status, Some(ItemStatus::Pass));

    let legacy =
        format!(r#"[{{"prompt": "p", "response": "{huge}"}}, {{"prompt": "q", "response": "a"}}]"#);
    let loaded = dataset::load(legacy.as_bytes(), None).expect("the legacy array loads");
    assert!(
        matches!(&loaded.diagnostics[1].location,
        Location::Pointer { pointer, .. } if pointer == "/0/response"),
        "{:?}",
        loaded.diagnostics
    );

    let outside_items = format!(
        r#"{{"schemaVersion": "1.6.0", "metadata": {{"name": "{huge}"}}, "items": [{{"prompt": "q"}}]}}"#
    );
    let error = dataset::load(outside_items.as_bytes(), None).expect_err("rejected as a whole");
    assert_eq!(
        error.diagnostics[0].location,
        Location::Pointer {
            pointer: "/metadata/name".to_owned(),
            line: None
        }
    );

    let rows = format!(
        r#"[{{"response": "{huge}", "truth": "b"}}, {{"response": "b c", "truth": "b c"}}]"#
    );
    let error = first_of_two_rows_is_unusable(rows.as_bytes());
    assert_eq!(error.message, format!("string is {limit}"));
}

/// The `testing_criteria` of a Foundry config that scores `response` against `truth` by token F1.
const F1_CRITERIA: &str = r#"[{"type": "azure_ai_evaluator", "name": "f1",
    "evaluator_name": "builtin.f1_score",
    "data_mapping": {"response": "{{item.response}}", "ground_truth": "{{item.truth}}"}}]"#;

/// Loads a JSON array of two Foundry rows scored by [`F1_CRITERIA`] whose second row passes;
/// checks that only the first is unusable, and returns its problem.
fn first_of_two_rows_is_unusable(rows: &[u8]) -> agenteval_core::Diagnostic {
    let config = json::parse(format!(r#"{{"testing_criteria": {F1_CRITERIA}}}"#).as_bytes())
        .expect("the config parses");
    let loaded = dataset::load(rows, Some(&config)).expect("the rows load");
    let Dataset::Foundry(foundry) = &loaded.dataset else {
        panic!("expected Foundry rows");
    };
    assert!(foundry.rows[1].row.is_ok());
    let report = engine::score(&loaded.dataset);
    assert_eq!(report.items[0].status, Some(ItemStatus::Error));
    assert_eq!(report.items[1].status, Some(ItemStatus::Pass));
    foundry.rows[0]
        .row
        .clone()
        .expect_err("the first row is unusable")
}

fn pointer_of(diagnostic: &agenteval_core::Diagnostic) -> &str {
    match &diagnostic.location {
        Location::Pointer { pointer, .. } => pointer,
        other => panic!("expected a JSON pointer, got {other:?}"),
    }
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .map(|object| object.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

#[test]
fn a_repeated_key_makes_only_its_item_or_row_an_error() {
    let repeated = |key: &str| {
        format!("key \"{key}\" is held more than once in its object; expected each key once")
    };
    let document = br#"{"schemaVersion": "1.6.0", "items": [
        {"prompt": "p", "response": "b", "expected_response": "a", "response": "a",
         "evaluators": {"ExactMatch": {}}},
        {"prompt": "q", "response": "a", "expected_response": "a", "evaluators": {"ExactMatch": {}}},
        {"prompt": "r", "response": "a", "expected_response": "a",
         "extensions": {"k": 1, "j": 2, "k": 3, "j": 4, "k": 5}},
        {"turns": [{"prompt": "s", "prompt": "t", "response": "a"}]}
    ]}"#;
    let loaded = dataset::load(document, None).expect("the document loads");
    let problems: Vec<(&str, &str)> = loaded
        .diagnostics
        .iter()
        .map(|diagnostic| (pointer_of(diagnostic), diagnostic.message.as_str()))
        .collect();
    let (response, k, j, prompt) = (
        repeated("response"),
        repeated("k"),
        repeated("j"),
        repeated("prompt"),
    );
    assert_eq!(
        problems,
        [
            ("/items/0/response", response.as_str()),
            ("/items/2/extensions/k", k.as_str()),
            ("/items/2/extensions/j", j.as_str()),
            ("/items/3/turns/0/prompt", prompt.as_str()),
        ]
    );
    let Dataset::M365(m365) = &loaded.dataset else {
        panic!("expected an M365 document");
    };
    let items = m365.items();
    assert_eq!(
        keys(&items[0]),
        ["prompt", "response", "expected_response", "evaluators"]
    );
    assert_eq!(items[0]["response"], Value::from("a"));
    assert_eq!(keys(&items[2]["extensions"]), ["k", "j"]);
    assert_eq!(items[2]["extensions"]["k"], Value::from(5));
    assert_eq!(items[3]["turns"][0]["prompt"], Value::from("t"));
    let report = engine::score(&loaded.dataset);
    let statuses: Vec<_> = report.items.iter().map(|item| item.status).collect();
    assert_eq!(
        statuses,
        [
            Some(ItemStatus::Error),
            Some(ItemStatus::Pass),
            Some(ItemStatus::Error),
            Some(ItemStatus::Error),
        ]
    );
    assert_eq!(
        report.items[0].problem.as_deref(),
        Some(format!("/items/0/response: {response}").as_str())
    );

    let legacy = br#"[{"prompt": "p", "prompt": "q"}, {"prompt": "q", "response": "a"}]"#;
    let loaded = dataset::load(legacy, None).expect("the legacy array loads");
    assert!(
        loaded
            .diagnostics
            .iter()
            .any(|diagnostic| matches!(&diagnostic.location,
                Location::Pointer { pointer, .. } if pointer == "/0/prompt")
                && diagnostic.message == repeated("prompt")),
        "{:?}",
        loaded.diagnostics
    );

    for (outside_items, pointer) in [
        (
            &br#"{"schemaVersion": "1.6.0", "schemaVersion": "1.6.0", "items": [{"prompt": "q"}]}"#[..],
            "/schemaVersion",
        ),
        (
            br#"{"schemaVersion": "1.6.0", "metadata": {"a": 1, "a": 1}, "items": [{"prompt": "q"}]}"#,
            "/metadata/a",
        ),
    ] {
        let error = dataset::load(outside_items, None).expect_err("rejected as a whole");
        assert_eq!(pointer_of(&error.diagnostics[0]), pointer);
    }

    let error = first_of_two_rows_is_unusable(
        br#"[{"response": "a", "truth": "b", "truth": "a"}, {"response": "b c", "truth": "b c"}]"#,
    );
    assert_eq!(pointer_of(&error), "/0/truth");
    assert_eq!(error.message, repeated("truth"));

    let criteria = format!(r#""testing_criteria": {F1_CRITERIA}"#);
    let inline = format!(
        r#"{{{criteria}, "data": [{{"response": "a", "truth": "a"}}, {{"response": "a", "response": "b", "truth": "a"}}]}}"#
    );
    let loaded = dataset::load(inline.as_bytes(), None).expect("the inline rows load");
    let Dataset::Foundry(foundry) = &loaded.dataset else {
        panic!("expected Foundry rows");
    };
    assert!(foundry.rows[0].row.is_ok());
    let error = foundry.rows[1].row.as_ref().expect_err("the second row");
    assert_eq!(pointer_of(error), "/data/1/response");
    for (config_problem, pointer) in [
        (
            format!(r#"{{{criteria}, "data": [{{"response": "a", "truth": "a"}}], "data": []}}"#),
            "/data".to_owned(),
        ),
        (
            format!(
                r#"{{{criteria}, "data": [{{"response": "a", "truth": "a"}}], "note": "{}"}}"#,
                "x".repeat(json::MAX_STRING_BYTES + 1)
            ),
            "/note".to_owned(),
        ),
    ] {
        let error =
            dataset::load(config_problem.as_bytes(), None).expect_err("rejected as a whole");
        assert_eq!(pointer_of(&error.diagnostics[0]), pointer);
    }
}
