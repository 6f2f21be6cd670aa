use super::*;
use crate::json::Map;
use crate::report::{to_json, RunReport};
use crate::scored::foundry_rows::{jsonl_line, result_columns};

fn verdicts(input: &Input) -> Vec<Vec<(String, Verdict, Option<f64>)>> {
    input
        .entries
        .iter()
        .map(|entry| {
            entry
                .results
                .iter()
                .map(|result| (result.evaluator.clone(), result.result, result.score))
                .collect()
        })
        .collect()
}

fn invalid_at(result: Result<Input, ReadError>) -> String {
    match result {
        Err(ReadError::Invalid(error)) => error.diagnostics[0].describe(),
        other => panic!("expected Invalid, got {other:?}"),
    }
}

fn not_scored(result: Result<Input, ReadError>) -> String {
    match result {
        Err(ReadError::NotScored(diagnostic)) => diagnostic.describe(),
        other => panic!("expected NotScored, got {other:?}"),
    }
}

#[test]
fn a_run_report_is_read_back_with_its_dialect_verdicts_and_turns_and_no_identity() {
    let document = r#"{"schemaVersion": "1.11.0", "items": [
        {"prompt": "p0", "response": "r", "scores": {"relevance": {"result": "pass", "score": 4, "threshold": 3}}},
        {"turns": [{"prompt": "t0", "response": "r", "scores": {"relevance": {"result": "fail", "score": 2, "threshold": 3}}},
                   {"prompt": "t1", "response": "r", "scores": {"relevance": {"result": "error", "error": "judge down", "code": "judgeTimeout"}}}]}]}"#;
    let report = scored::read_report(document.as_bytes()).unwrap();
    let input = read(to_json(&report).as_bytes(), None).unwrap();
    assert_eq!(input.form, Form::RunReport);
    assert_eq!(input.dialect, Dialect::M365);
    assert!(input.identities.is_empty());
    let places: Vec<(usize, Option<usize>)> = input
        .entries
        .iter()
        .map(|entry| (entry.index, entry.turn))
        .collect();
    assert_eq!(places, [(0, None), (1, Some(0)), (1, Some(1))]);
    let read_back = verdicts(&input);
    assert_eq!(read_back[0][0].1, Verdict::Pass);
    assert_eq!(read_back[0][0].2, Some(4.0));
    assert_eq!(read_back[1][0].1, Verdict::Fail);
    let error = &input.entries[2].results[0];
    assert_eq!(error.result, Verdict::Error);
    assert_eq!(error.error.as_ref().unwrap().code, ErrorCode::JudgeTimeout);
}

#[test]
fn a_run_report_that_cannot_be_placed_is_refused_at_its_pointer_and_a_bad_verdict_is_an_error_result(
) {
    let report = |dialect: &str, items: &str| {
        format!(
            r#"{{"tool": {{"name": "agenteval", "version": "1"}}, "dialect": {dialect}, "summary": {{}}, "items": {items}}}"#
        )
    };
    assert_eq!(
        invalid_at(read(report("\"csv\"", "[]").as_bytes(), None)),
        "at /dialect: expected \"m365\", \"foundry\" or \"copilot_studio\", got \"csv\""
    );
    assert_eq!(
        invalid_at(read(report("\"foundry\"", "{}").as_bytes(), None)),
        "at /items: expected the array of the report's entries, got an object"
    );
    let no_index = report(
        "\"foundry\"",
        r#"[{"index": 0, "turn": null, "results": []}, {"turn": null, "results": []}]"#,
    );
    assert_eq!(
        invalid_at(read(no_index.as_bytes(), None)),
        "at /items/1/index: expected the entry's item index (an integer of 0 or more), got nothing"
    );
    let odd = report(
        "\"foundry\"",
        r#"[{"index": 0, "results": [{"evaluator": "f1", "result": "maybe", "score": 1}]},
            {"index": 1, "results": "none"},
            {"index": 2, "results": [{"evaluator": "f1", "result": "pass", "score": 0.9}]}]"#,
    );
    let input = read(odd.as_bytes(), None).unwrap();
    let first = &input.entries[0].results[0];
    assert_eq!(
        first.error.as_ref().unwrap().code,
        ErrorCode::InvalidStoredResult
    );
    assert!(first
        .error
        .as_ref()
        .unwrap()
        .message
        .starts_with("at /items/0/results/0/result: expected \"pass\""));
    assert_eq!(
        input.entries[1].problem.as_deref(),
        Some("at /items/1/results: expected the array of the entry's results, got \"none\"")
    );
    assert_eq!(
        verdicts(&input)[2],
        [("f1".to_owned(), Verdict::Pass, Some(0.9))]
    );
}

/// A scored Foundry row: `fields` then the flat keys our writer gives each result.
fn foundry_row(fields: &str, results: &[EvalResult]) -> String {
    let mut row: Map<String, Value> = serde_json::from_str(fields).unwrap();
    for result in results {
        row.extend(result_columns(result));
    }
    jsonl_line(&row)
}

#[test]
fn scored_foundry_rows_are_read_back_from_the_flat_keys_our_writer_gives() {
    let rows = [
        r#"{"testing_criteria": [{"type": "azure_ai_evaluator", "name": "f1", "evaluator_name": "builtin.f1_score"}]}"#.to_owned() + "\n",
        foundry_row(
            r#"{"id": "a", "query": "q1", "expected_result": "pass"}"#,
            &[
                EvalResult::scored("f1", true, 0.8, 0.5),
                EvalResult::skipped("relevance", "no judge"),
            ],
        ),
        "\n".to_owned(),
        foundry_row(
            r#"{"id": 7, "query": [{"role": "user", "content": "hi"}]}"#,
            &[
                EvalResult::scored("f1", false, 0.2, 0.5),
                EvalResult::error("relevance", ErrorCode::JudgeTimeout, "slow"),
            ],
        ),
        "{not json\n".to_owned(),
    ];
    let input = read(rows.concat().as_bytes(), None).unwrap();
    assert_eq!(input.form, Form::FoundryRows);
    assert_eq!(input.dialect, Dialect::Foundry);
    assert_eq!(
        verdicts(&input)[..2],
        [
            vec![
                ("f1".to_owned(), Verdict::Pass, Some(0.8)),
                ("relevance".to_owned(), Verdict::Skipped, None),
            ],
            vec![
                ("f1".to_owned(), Verdict::Fail, Some(0.2)),
                ("relevance".to_owned(), Verdict::Error, None),
            ],
        ]
    );
    let error = input.entries[1].results[1].error.as_ref().unwrap();
    assert_eq!(
        (error.code, error.message.as_str()),
        (ErrorCode::JudgeTimeout, "slow")
    );
    let problem = input.entries[2].problem.as_deref().unwrap();
    assert!(problem.starts_with("line 5"), "{problem}");
    let identities: Vec<(Option<&str>, &str)> = input
        .identities
        .iter()
        .map(|identity| (identity.id.as_deref(), identity.prompt.as_str()))
        .collect();
    assert_eq!(
        identities,
        [
            (Some("a"), "q1"),
            (Some("7"), r#"[{"role":"user","content":"hi"}]"#),
            (None, "")
        ]
    );
    let keyed = read(rows.concat().as_bytes(), Some("query")).unwrap();
    assert_eq!(keyed.identities[0].id.as_deref(), Some("q1"));
}

#[test]
fn foundry_rows_as_a_json_array_or_one_row_are_read_and_unscored_rows_are_not_scored() {
    let one = foundry_row(
        r#"{"query": "q"}"#,
        &[EvalResult::scored("f1", true, 1.0, 0.5)],
    );
    let array = format!("[{}]", one.trim_end());
    for text in [one.as_str(), array.as_str()] {
        let input = read(text.as_bytes(), None).unwrap();
        assert_eq!(input.form, Form::FoundryRows, "{text}");
        assert_eq!(
            verdicts(&input),
            [[("f1".to_owned(), Verdict::Pass, Some(1.0))]]
        );
    }
    let unscored = "{\"query\": \"q\", \"expected_result\": \"pass\"}\n{\"query\": \"r\"}\n";
    let message = not_scored(read(unscored.as_bytes(), None));
    assert!(
        message.contains("it is Foundry rows, and no row has"),
        "{message}"
    );
}

#[test]
fn a_copilot_studio_export_is_read_by_method_with_its_scores_and_a_bad_result_named_by_row_and_column(
) {
    let export = "\u{feff}question,expectedResponse,actualResponse,testMethodType_1,result_1,passingScore_1,explanation_1,score_1,testMethodType_2,result_2,passingScore_2,explanation_2,score_2,case\r\n\
        What is 2+2?,4,4,ExactMatch,Pass,,,,Similarity,Fail,0.9,too far,0.4,c1\r\n\
        Hi?,hello,hey,KeywordMatch,Maybe,,,,KeywordMatch,,,,,c2\r\n\
        \"Say \"\"hi\"\"\",hi,hi,GeneralQuality,Error,,judge down,,,,,,,c3\r\n";
    let input = read(export.as_bytes(), None).unwrap();
    assert_eq!(input.form, Form::CopilotStudioExport);
    assert_eq!(input.dialect, Dialect::CopilotStudio);
    let read_back = verdicts(&input);
    assert_eq!(
        read_back[0],
        [
            ("ExactMatch".to_owned(), Verdict::Pass, None),
            ("Similarity".to_owned(), Verdict::Fail, Some(0.4)),
        ]
    );
    assert_eq!(
        read_back[1]
            .iter()
            .map(|(name, verdict, _)| (name.as_str(), *verdict))
            .collect::<Vec<_>>(),
        [
            ("KeywordMatch_1", Verdict::Error),
            ("KeywordMatch_2", Verdict::Skipped)
        ]
    );
    let bad = input.entries[1].results[0].error.as_ref().unwrap();
    assert_eq!(bad.code, ErrorCode::InvalidStoredResult);
    assert_eq!(
        bad.message,
        "row 3, column 5 (result_1): expected Pass, Fail, Error or Skipped, got \"Maybe\""
    );
    assert_eq!(
        read_back[2],
        [("GeneralQuality".to_owned(), Verdict::Error, None)]
    );
    let prompts: Vec<&str> = input
        .identities
        .iter()
        .map(|identity| identity.prompt.as_str())
        .collect();
    assert_eq!(prompts, ["What is 2+2?", "Hi?", "Say \"hi\""]);
    assert!(input
        .identities
        .iter()
        .all(|identity| identity.id.is_none()));
    let keyed = read(export.as_bytes(), Some("case")).unwrap();
    assert_eq!(keyed.identities[2].id.as_deref(), Some("c3"));
}

#[test]
fn a_copilot_studio_test_set_without_results_is_not_scored() {
    let set = "question,expectedResponse,testMethodType_1\r\nWhat is 2+2?,4,ExactMatch\r\n";
    let message = not_scored(read(set.as_bytes(), None));
    assert!(
        message.contains("Copilot Studio test set without `result_N`"),
        "{message}"
    );
}

#[test]
fn scored_m365_documents_and_runevals_results_keep_their_forms() {
    let document =
        r#"{"items": [{"prompt": "p", "response": "r", "status": "pass", "scores": {}}]}"#;
    assert_eq!(
        read(document.as_bytes(), None).unwrap().form,
        Form::M365Document
    );
    let runevals = r#"{"individual_results": [{"prompt": "p", "response": "r", "results": {}}]}"#;
    assert_eq!(
        read(runevals.as_bytes(), None).unwrap().form,
        Form::Runevals
    );
    let empty_report = RunReport::new(Dialect::CopilotStudio);
    let input = read(to_json(&empty_report).as_bytes(), None).unwrap();
    assert_eq!(
        (input.form, input.dialect),
        (Form::RunReport, Dialect::CopilotStudio)
    );
}
