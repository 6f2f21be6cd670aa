use super::*;
use crate::json;

fn config() -> Value {
    json::parse(
        br#"{"testing_criteria": [{"type": "azure_ai_evaluator", "name": "f1", "evaluator_name": "builtin.f1_score",
            "data_mapping": {"response": "{{item.answer}}", "ground_truth": "{{item.truth}}"}}]}"#,
    )
    .expect("config")
}

const ONE_ROW: &[u8] = br#"{"answer": "Paris is the capital", "truth": "Paris"}"#;

#[test]
fn a_one_row_file_with_a_config_is_foundry_rows_whatever_its_fields() {
    let config = config();
    let (plan, loaded) = inspect(ONE_ROW, Some(&config)).expect("read");
    assert_eq!(plan.dialect, Dialect::Foundry);
    assert_eq!(plan.layout, Layout::Lines);
    assert_eq!(plan.config, ConfigSource::Given);
    assert_eq!((plan.items, plan.entries), (1, 1));
    let Dataset::Foundry(rows) = &loaded.dataset else {
        panic!("not Foundry rows");
    };
    assert_eq!(rows.rows[0].line, Some(1));
    let twice = [ONE_ROW, b"\n", ONE_ROW].concat();
    let (plan, _) = inspect(&twice, Some(&config)).expect("read");
    assert_eq!(
        (plan.dialect, plan.layout, plan.items),
        (Dialect::Foundry, Layout::Lines, 2)
    );
}

#[test]
fn a_one_row_object_given_as_a_value_with_a_config_is_a_row_too() {
    let config = config();
    let pretty = b"{\n  \"answer\": \"Paris\",\n  \"truth\": \"Paris\"\n}\n";
    let (plan, _) = inspect(pretty, Some(&config)).expect("read");
    assert_eq!(
        (plan.dialect, plan.layout),
        (Dialect::Foundry, Layout::Document)
    );
}

#[test]
fn without_a_config_a_one_row_file_is_read_as_before() {
    assert_eq!(layout(ONE_ROW, false), Layout::Document);
    let error = inspect(ONE_ROW, None).expect_err("an M365 document without schemaVersion");
    let names_schema_version = error.diagnostics.iter().any(|diagnostic| {
        matches!(&diagnostic.location, crate::diagnostic::Location::Pointer { pointer, .. } if pointer == "/schemaVersion")
    });
    assert!(names_schema_version, "{error:?}");
    let query_row = br#"{"query": "q", "response": "r"}"#;
    let error = inspect(query_row, None).expect_err("a Foundry row without a config");
    assert!(error.diagnostics[0]
        .message
        .starts_with("Foundry rows need an evaluation config"));
}

#[test]
fn an_m365_document_stays_one_even_with_a_config() {
    let config = config();
    let document = br#"{"schemaVersion": "1.11.0", "default_evaluators": {"ExactMatch": {}}, "items": [{"prompt": "p", "response": "r", "expected_response": "r"}]}"#;
    assert_eq!(layout(document, true), Layout::Document);
    let (plan, _) = inspect(document, Some(&config)).expect("read");
    assert_eq!(plan.dialect, Dialect::M365);
    assert_eq!(plan.config, ConfigSource::NotUsed);
    assert_eq!(plan.formats[0], OutputFormat::Document);
}

#[test]
fn the_config_line_rule_is_one_for_every_host() {
    let criteria =
        r#"[{"type": "azure_ai_evaluator", "name": "f1", "evaluator_name": "builtin.f1_score"}]"#;
    let config_line =
        json::parse(format!(r#"{{"testing_criteria": {criteria}}}"#).as_bytes()).expect("json");
    assert!(is_config_line(&config_line));
    let row_with_criteria =
        json::parse(format!(r#"{{"response": "r", "testing_criteria": {criteria}}}"#).as_bytes())
            .expect("json");
    assert!(
        !is_config_line(&row_with_criteria),
        "a row field makes it data"
    );
    let text = format!(
        "{{\"testing_criteria\": {criteria}}}\n{{\"query\": \"q\", \"response\": \"a b\", \"ground_truth\": \"a b\"}}\n"
    );
    let (plan, loaded) = inspect(text.as_bytes(), None).expect("read");
    assert_eq!(
        (plan.dialect, plan.config, plan.items),
        (Dialect::Foundry, ConfigSource::InDataset, 1)
    );
    let Dataset::Foundry(rows) = &loaded.dataset else {
        panic!("not Foundry rows");
    };
    assert_eq!(rows.rows[0].line, Some(2));
    assert_eq!(plan.config_line, Some(1));
    let data_first = format!(
        "{{\"response\": \"r\", \"testing_criteria\": {criteria}}}\n{{\"response\": \"s\"}}\n"
    );
    let config =
        json::parse(format!(r#"{{"testing_criteria": {criteria}}}"#).as_bytes()).expect("json");
    let (plan, _) = inspect(data_first.as_bytes(), Some(&config)).expect("read");
    assert_eq!(
        (plan.config_line, plan.items),
        (None, 2),
        "a row carrying criteria is a row"
    );
}

#[test]
fn layouts_are_told_from_the_first_two_lines() {
    assert_eq!(layout(b"{\"a\": 1}\n{\"b\": 2}\n", false), Layout::Lines);
    assert_eq!(
        layout(b"\xEF\xBB\xBF\n{\"a\": 1}\n\n{\"b\": 2}", false),
        Layout::Lines
    );
    assert_eq!(layout(b"{\n  \"items\": []\n}\n", true), Layout::Document);
    assert_eq!(layout(b"[{\"query\": \"q\"}]", true), Layout::Document);
    assert_eq!(
        layout(b"question,expectedResponse\nq,a\n", false),
        Layout::Csv
    );
    assert_eq!(layout(b"{broken\n{\"b\": 2}\n", false), Layout::Document);
    assert_eq!(layout(b"", true), Layout::Document);
    assert!(!is_json_lines(
        b"{\"schemaVersion\": \"1.11.0\"}",
        None,
        true
    ));
    assert!(is_json_lines(b"{\"answer\": 1}", None, true));
    assert!(!is_json_lines(b"{\"answer\": 1}", None, false));
}

#[test]
fn each_dialect_offers_its_own_format_first_and_refuses_the_others() {
    let names = |dialect| -> Vec<&str> {
        OutputFormat::for_dialect(dialect)
            .into_iter()
            .map(OutputFormat::name)
            .collect()
    };
    assert_eq!(
        names(Dialect::M365),
        ["document", "report", "csv", "junit", "md", "html"]
    );
    assert_eq!(
        names(Dialect::Foundry),
        [
            "foundry",
            "foundry-results",
            "report",
            "csv",
            "junit",
            "md",
            "html"
        ]
    );
    assert_eq!(
        names(Dialect::CopilotStudio),
        ["copilot", "report", "csv", "junit", "md", "html"]
    );
    assert_eq!(OutputFormat::Foundry.refusal(Dialect::Foundry), None);
    assert_eq!(
        OutputFormat::Foundry.refusal(Dialect::M365).as_deref(),
        Some("foundry does not apply to m365 input; use document, report, csv, junit, md, html")
    );
    for format in OutputFormat::ALL {
        assert_eq!(OutputFormat::parse(format.name()), Some(format));
    }
    assert_eq!(OutputFormat::parse("xml"), None);
}

#[test]
fn needs_follow_the_evaluators_the_dataset_names() {
    let document = br#"{"schemaVersion": "1.11.0", "default_evaluators": {"ExactMatch": {}},
        "items": [{"prompt": "p", "response": "r", "expected_response": "r"},
                  {"prompt": "p", "response": "r", "evaluators": {"Relevance": {}}},
                  {"turns": [{"prompt": "a", "response": "b"}, {"prompt": "c", "response": "d"}]}]}"#;
    let (plan, _) = inspect(document, None).expect("read");
    assert_eq!((plan.items, plan.turns, plan.entries), (3, 2, 4));
    assert_eq!(
        plan.needs,
        Needs {
            judge: true,
            embeddings: false,
            wordnet: false,
            judge_calls: 1,
        }
    );
    let deterministic = br#"{"schemaVersion": "1.11.0", "default_evaluators": {"ExactMatch": {}},
        "items": [{"prompt": "p", "response": "r", "expected_response": "r"}]}"#;
    assert_eq!(
        inspect(deterministic, None).expect("read").0.needs,
        Needs::default()
    );
    let meteor = json::parse(
        br#"{"testing_criteria": [
            {"type": "azure_ai_evaluator", "name": "m", "evaluator_name": "builtin.meteor_score"},
            {"type": "text_similarity", "name": "c", "input": "{{sample.output_text}}", "reference": "{{item.ground_truth}}",
             "evaluation_metric": "cosine", "pass_threshold": 0.5}]}"#,
    )
    .expect("config");
    let rows = b"{\"response\": \"a\", \"ground_truth\": \"a\"}\n{\"response\": \"b\", \"ground_truth\": \"b\"}\n";
    let (plan, _) = inspect(rows, Some(&meteor)).expect("read");
    assert!(
        plan.needs.wordnet && plan.needs.embeddings && !plan.needs.judge,
        "{:?}",
        plan.needs
    );
    assert_eq!(
        plan.needs.judge_calls, 2,
        "the cosine grader on each of 2 rows"
    );
    let csv = b"question,expectedResponse,actualResponse,testMethodType_1\nq,a,a,TextSimilarity\nq,a,a,ExactMatch\n";
    let (plan, _) = inspect(csv, None).expect("read");
    assert_eq!(
        (plan.dialect, plan.layout),
        (Dialect::CopilotStudio, Layout::Csv)
    );
    assert!(
        plan.needs.embeddings && !plan.needs.judge,
        "{:?}",
        plan.needs
    );
    assert_eq!(
        plan.needs.judge_calls, 1,
        "TextSimilarity on one of two rows"
    );
}

#[test]
fn a_document_whose_items_carry_results_is_stored_and_a_bare_one_is_not() {
    let bare = br#"{"schemaVersion": "1.11.0", "items": [{"prompt": "p", "response": "r", "expected_response": "r"}, {"prompt": "q"}]}"#;
    let (plan, _) = inspect(bare, None).expect("read");
    assert!(!plan.stored);
    let scored = br#"{"schemaVersion": "1.11.0", "items": [{"prompt": "p"}, {"prompt": "q", "response": "r", "status": "pass", "scores": {}}]}"#;
    let (plan, _) = inspect(scored, None).expect("read");
    assert!(plan.stored, "one scored item is enough");
    let (plan, _) = inspect(ONE_ROW, Some(&config())).expect("read");
    assert!(!plan.stored, "rows carry no stored results");
}
