use super::*;
use crate::outcome::Verdict;
use crate::report::Dialect;

/// A scored M365 item: its prompt, optional `extensions.id`, and `relevance` (1–5 judge) and
/// `partialMatch` results as (verdict, score).
fn item(id: Option<&str>, prompt: &str, relevance: (&str, f64), partial: (&str, f64)) -> String {
    let extensions = id.map_or(String::new(), |id| {
        format!(r#""extensions": {{"id": "{id}"}},"#)
    });
    format!(
        r#"{{{extensions} "prompt": "{prompt}", "response": "r",
            "scores": {{"relevance": {{"result": "{}", "score": {}, "threshold": 3}},
                        "partialMatch": {{"result": "{}", "score": {}, "threshold": 0.5}}}}}}"#,
        relevance.0, relevance.1, partial.0, partial.1
    )
}

fn document(items: &[String]) -> Vec<u8> {
    format!(
        r#"{{"schemaVersion": "1.11.0", "items": [{}]}}"#,
        items.join(",")
    )
    .into_bytes()
}

fn run(name: &str, items: &[String]) -> Run {
    runs::read(name, &document(items), None).unwrap()
}

fn compared(baseline: &[String], candidate: &[String]) -> Comparison {
    compare_runs(
        &run("baseline.json", baseline),
        &run("candidate.json", candidate),
        &CompareOptions::default(),
    )
    .unwrap()
}

fn metric<'a>(comparison: &'a Comparison, evaluator: &str, name: MetricName) -> &'a Metric {
    comparison
        .metrics
        .iter()
        .find(|metric| metric.evaluator == evaluator && metric.metric == name)
        .unwrap()
}

/// Twenty prompts, every one passing both evaluators.
fn passing(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| item(None, &format!("question {i}"), ("pass", 4.0), ("pass", 0.8)))
        .collect()
}

#[test]
fn an_item_inserted_at_the_top_is_one_unmatched_item_and_nothing_changes() {
    let baseline = passing(20);
    let mut candidate = baseline.clone();
    candidate.insert(
        0,
        item(None, "a new question", ("fail", 1.0), ("fail", 0.1)),
    );
    let comparison = compared(&baseline, &candidate);
    assert_eq!(comparison.pairing.key, PairingKey::Prompt);
    assert_eq!(
        (
            comparison.pairing.matched,
            comparison.pairing.only_baseline,
            comparison.pairing.only_candidate
        ),
        (20, 0, 1)
    );
    assert_eq!(
        comparison.pairing.unmatched,
        [Unmatched {
            run: Side::Candidate,
            index: 0,
            key: "a new question".to_owned()
        }]
    );
    assert!(comparison.items.iter().all(|item| !item.changed));
    assert_eq!(comparison.items[0].candidate_index, 1);
    for metric in &comparison.metrics {
        assert_eq!(metric.delta, Some(0.0), "{metric:?}");
        assert_eq!(metric.p_value, Some(1.0), "{metric:?}");
        assert_eq!(metric.effect, Effect::Inconclusive, "{metric:?}");
    }
    assert!(!comparison.any_significant());
    assert!(render::markdown(&comparison).contains(render::NOTHING_SIGNIFICANT));
}

#[test]
fn ids_pair_when_every_item_has_one_and_prompts_otherwise() {
    let baseline = vec![
        item(Some("a"), "same text", ("pass", 5.0), ("pass", 0.9)),
        item(Some("b"), "other", ("pass", 5.0), ("pass", 0.9)),
    ];
    let candidate = vec![
        item(Some("b"), "other", ("fail", 2.0), ("pass", 0.9)),
        item(Some("a"), "reworded", ("pass", 5.0), ("pass", 0.9)),
    ];
    let by_id = compared(&baseline, &candidate);
    assert_eq!(by_id.pairing.key, PairingKey::Id);
    assert_eq!(by_id.pairing.matched, 2);
    let keys: Vec<(&str, usize, bool)> = by_id
        .items
        .iter()
        .map(|item| (item.key.as_str(), item.candidate_index, item.changed))
        .collect();
    assert_eq!(keys, [("a", 1, false), ("b", 0, true)]);

    let mut missing_one = candidate.clone();
    missing_one[1] = item(None, "reworded", ("pass", 5.0), ("pass", 0.9));
    let by_prompt = compared(&baseline, &missing_one);
    assert_eq!(by_prompt.pairing.key, PairingKey::Prompt);
    assert_eq!(by_prompt.pairing.matched, 1);
    assert_eq!(
        by_prompt
            .pairing
            .unmatched
            .iter()
            .map(|u| (u.run, u.key.as_str()))
            .collect::<Vec<_>>(),
        [(Side::Baseline, "same text"), (Side::Candidate, "reworded")]
    );
}

#[test]
fn repeated_prompts_pair_by_occurrence_order() {
    let baseline = vec![
        item(None, "hi", ("pass", 5.0), ("pass", 0.9)),
        item(None, "other", ("pass", 5.0), ("pass", 0.9)),
        item(None, "hi", ("fail", 1.0), ("fail", 0.1)),
    ];
    let candidate = vec![
        item(None, "hi", ("pass", 5.0), ("pass", 0.9)),
        item(None, "hi", ("fail", 1.0), ("fail", 0.1)),
        item(None, "hi", ("fail", 1.0), ("fail", 0.1)),
    ];
    let comparison = compared(&baseline, &candidate);
    let pairs: Vec<(usize, usize)> = comparison
        .items
        .iter()
        .map(|item| (item.baseline_index, item.candidate_index))
        .collect();
    assert_eq!(pairs, [(0, 0), (2, 1)]);
    assert!(comparison.items.iter().all(|item| !item.changed));
    let unmatched: Vec<(Side, usize)> = comparison
        .pairing
        .unmatched
        .iter()
        .map(|u| (u.run, u.index))
        .collect();
    assert_eq!(unmatched, [(Side::Baseline, 1), (Side::Candidate, 2)]);
}

#[test]
fn a_named_key_field_must_be_on_every_item() {
    let with_field = |field: Option<&str>, prompt: &str| {
        let extra = field.map_or(String::new(), |value| {
            format!(r#""extensions": {{"case": "{value}"}},"#)
        });
        format!(
            r#"{{{extra} "prompt": "{prompt}", "response": "r", "scores": {{"partialMatch": {{"result": "pass", "score": 1, "threshold": 0.5}}}}}}"#
        )
    };
    let options = CompareOptions {
        key: Some("case".to_owned()),
        directions: Vec::new(),
    };
    let baseline = document(&[with_field(Some("k1"), "p"), with_field(Some("k2"), "q")]);
    let candidate = document(&[with_field(Some("k2"), "x"), with_field(Some("k1"), "y")]);
    let comparison = compare(("b.json", &baseline), ("c.json", &candidate), &options).unwrap();
    assert_eq!(comparison.pairing.key, PairingKey::Id);
    assert_eq!(comparison.pairing.field.as_deref(), Some("case"));
    assert_eq!(comparison.pairing.matched, 2);

    let lacking = document(&[with_field(Some("k1"), "p"), with_field(None, "q")]);
    let error = compare(("b.json", &baseline), ("c.json", &lacking), &options).unwrap_err();
    assert_eq!(
        error.to_string(),
        "c.json: item 1 has no `case` (nor `extensions.case`) to pair by"
    );
}

#[test]
fn runs_of_different_dialects_are_refused_naming_both_files_and_dialects() {
    let baseline = document(&passing(3));
    let candidate = foundry(&[(Some("a"), "q", "pass", 0.9)]);
    let error = compare(
        ("m365.json", &baseline),
        ("foundry.jsonl", candidate.as_bytes()),
        &CompareOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "m365.json is m365 (scored M365 document) and foundry.jsonl is foundry (scored Foundry \
         rows): the dialects differ; only runs of the same dialect can be compared"
    );
}

/// Scored Foundry rows (JSON Lines): per row its optional `id`, its `query` and its `f1`
/// verdict and score.
fn foundry(rows: &[(Option<&str>, &str, &str, f64)]) -> String {
    rows.iter()
        .map(|(id, query, result, score)| {
            let id = id.map_or(String::new(), |id| format!(r#""id": "{id}", "#));
            format!(
                "{{{id}\"query\": \"{query}\", \"f1\": {score}, \"f1_score\": {score}, \"f1_result\": \"{result}\", \"f1_threshold\": 0.5}}\n"
            )
        })
        .collect()
}

fn compared_texts(baseline: &str, candidate: &str) -> Comparison {
    compare(
        ("baseline", baseline.as_bytes()),
        ("candidate", candidate.as_bytes()),
        &CompareOptions::default(),
    )
    .unwrap()
}

fn item_keys(comparison: &Comparison) -> Vec<(&str, usize, usize)> {
    comparison
        .items
        .iter()
        .map(|item| (item.key.as_str(), item.baseline_index, item.candidate_index))
        .collect()
}

#[test]
fn foundry_rows_pair_by_their_id_column_and_by_query_when_a_row_has_none() {
    let baseline = foundry(&[
        (Some("a"), "q1", "pass", 0.9),
        (Some("b"), "q2", "fail", 0.1),
    ]);
    let renamed = foundry(&[
        (Some("new"), "q0", "pass", 0.7),
        (Some("b"), "q2 reworded", "pass", 0.8),
        (Some("a"), "q1", "pass", 0.9),
    ]);
    let by_id = compared_texts(&baseline, &renamed);
    assert_eq!(by_id.pairing.key, PairingKey::Id);
    assert_eq!(item_keys(&by_id), [("a", 0, 2), ("b", 1, 1)]);
    assert_eq!(by_id.pairing.only_candidate, 1);
    assert_eq!(by_id.pairing.unmatched[0].key, "new");
    assert_eq!(
        by_id.metrics[0].flips,
        Some(Flips {
            pass_to_fail: 0,
            fail_to_pass: 1
        })
    );

    let one_without_id = foundry(&[(Some("a"), "q1", "pass", 0.9), (None, "q2", "fail", 0.1)]);
    let by_query = compared_texts(&one_without_id, &renamed);
    assert_eq!(by_query.pairing.key, PairingKey::Prompt);
    assert_eq!(item_keys(&by_query), [("q1", 0, 2)]);
    assert_eq!(
        (
            by_query.pairing.only_baseline,
            by_query.pairing.only_candidate
        ),
        (1, 2)
    );
}

fn copilot_export(rows: &[(&str, &str)]) -> String {
    let mut text = "question,expectedResponse,actualResponse,testMethodType_1,result_1,passingScore_1,explanation_1\r\n".to_owned();
    for (question, result) in rows {
        text.push_str(&format!("{question},e,a,ExactMatch,{result},,\r\n"));
    }
    text
}

#[test]
fn copilot_studio_exports_pair_by_question_a_repeated_one_by_occurrence() {
    let baseline = copilot_export(&[("Same?", "Pass"), ("Other?", "Pass"), ("Same?", "Fail")]);
    let candidate = copilot_export(&[
        ("Inserted?", "Pass"),
        ("Same?", "Pass"),
        ("Same?", "Pass"),
        ("Other?", "Pass"),
    ]);
    let comparison = compared_texts(&baseline, &candidate);
    assert_eq!(comparison.baseline.dialect, Dialect::CopilotStudio);
    assert_eq!(comparison.pairing.key, PairingKey::Prompt);
    assert_eq!(
        item_keys(&comparison),
        [("Same?", 0, 1), ("Other?", 1, 3), ("Same?", 2, 2)]
    );
    let changed: Vec<bool> = comparison.items.iter().map(|item| item.changed).collect();
    assert_eq!(changed, [false, false, true]);
    assert_eq!(comparison.pairing.only_candidate, 1);
    assert_eq!(comparison.metrics[0].evaluator, "ExactMatch");
}

#[test]
fn run_reports_carry_no_identity_and_pair_by_item_index_saying_so() {
    let scored = |items: &[String]| {
        crate::report::to_json(&crate::scored::read_report(&document(items)).unwrap())
    };
    let baseline = scored(&passing(3));
    let mut changed = passing(3);
    changed[1] = item(None, "question 1", ("fail", 2.0), ("pass", 0.8));
    let comparison = compared_texts(&baseline, &scored(&changed));
    assert_eq!(comparison.pairing.key, PairingKey::Index);
    assert_eq!(
        item_keys(&comparison),
        [("0", 0, 0), ("1", 1, 1), ("2", 2, 2)]
    );
    assert_eq!(
        comparison.items.iter().filter(|item| item.changed).count(),
        1
    );
    let markdown = render(&comparison, Format::Markdown);
    assert!(
        markdown.contains("Paired by item index (a run report carries neither ids nor prompts)"),
        "{markdown}"
    );
    let json = render(&comparison, Format::Json);
    assert!(json.contains(r#""key":"index""#), "{json}");
}

#[test]
fn files_that_are_no_scored_runs_are_refused_with_the_readers_message() {
    let unscored = br#"{"schemaVersion": "1.11.0", "items": [{"prompt": "p"}]}"#;
    let scored = document(&passing(1));
    let error = compare(
        ("b.json", &scored),
        ("new.json", unscored),
        &CompareOptions::default(),
    )
    .unwrap_err();
    let message = error.to_string();
    assert!(message.starts_with("new.json: "), "{message}");
    assert!(message.contains("carries no scores"), "{message}");
    let broken = compare(
        ("b.json", b"{\"items\": [1,"),
        ("c.json", &scored),
        &CompareOptions::default(),
    )
    .unwrap_err();
    assert!(broken.to_string().starts_with("b.json: "), "{broken}");
}

#[test]
fn error_and_skipped_results_leave_the_metric_and_are_counted_as_excluded() {
    let baseline = passing(12);
    let mut candidate = passing(12);
    candidate[0] = r#"{"prompt": "question 0", "response": "r", "scores": {
        "relevance": {"result": "error", "error": "timeout", "code": "judgeTimeout"},
        "partialMatch": {"result": "pass", "score": 0.8, "threshold": 0.5}}}"#
        .to_owned();
    candidate[1] = r#"{"prompt": "question 1", "response": "r", "scores": {
        "partialMatch": {"result": "pass", "score": 0.8, "threshold": 0.5}}}"#
        .to_owned();
    let comparison = compared(&baseline, &candidate);
    let relevance = metric(&comparison, "relevance", MetricName::PassRate);
    assert_eq!((relevance.n, relevance.excluded), (10, 2));
    let relevance_score = metric(&comparison, "relevance", MetricName::Score);
    assert_eq!((relevance_score.n, relevance_score.excluded), (10, 2));
    assert_eq!(relevance_score.kind, MetricType::Ordinal);
    assert_eq!(relevance_score.test, Test::WilcoxonPratt);
    assert_eq!(relevance_score.baseline_ci, None);
    let partial = metric(&comparison, "partialMatch", MetricName::Score);
    assert_eq!((partial.n, partial.excluded), (12, 0));
    assert_eq!(partial.kind, MetricType::Continuous);
    assert!(comparison.items[0].changed);
    assert_eq!(
        comparison.items[0].candidate.0[0],
        (
            "relevance".to_owned(),
            ItemVerdict {
                result: Verdict::Error,
                score: None
            }
        )
    );
}

#[test]
fn regressions_are_degraded_with_their_strength_flips_and_the_gate() {
    let baseline = passing(40);
    let mut candidate = passing(40);
    for (i, entry) in candidate.iter_mut().enumerate().take(25) {
        *entry = item(None, &format!("question {i}"), ("fail", 2.0), ("fail", 0.3));
    }
    let comparison = compared(&baseline, &candidate);
    let rate = metric(&comparison, "partialMatch", MetricName::PassRate);
    assert_eq!(
        rate.flips,
        Some(Flips {
            pass_to_fail: 25,
            fail_to_pass: 0
        })
    );
    assert_eq!(rate.effect, Effect::Degraded);
    assert_eq!(rate.strength, Some(Strength::Strong));
    assert_eq!(rate.delta, Some(-25.0 / 40.0));
    assert_eq!(rate.p_value, Some(stats::mcnemar_mid_p(25, 0)));
    assert!(rate.detectable_delta.is_some());
    let [low, high] = rate.candidate_ci.unwrap();
    assert!(low < 15.0 / 40.0 && 15.0 / 40.0 < high);
    assert_eq!(comparison.failing(FailOn::Degraded).count(), 4);
    assert_eq!(comparison.failing(FailOn::StronglyDegraded).count(), 4);
    assert_eq!(comparison.failing(FailOn::Never).count(), 0);

    let few = compared(&passing(5), &{
        let mut c = passing(5);
        c[0] = item(None, "question 0", ("fail", 1.0), ("fail", 0.0));
        c
    });
    assert!(few
        .metrics
        .iter()
        .all(|m| m.effect == Effect::TooFewSamples));
    assert_eq!(few.failing(FailOn::Degraded).count(), 0);
}

#[test]
fn a_decrease_direction_makes_a_drop_an_improvement_and_neutral_a_change() {
    let baseline = passing(30);
    let candidate: Vec<String> = (0..30)
        .map(|i| {
            item(
                None,
                &format!("question {i}"),
                ("pass", 4.0),
                ("pass", 0.5 + (i % 3) as f64 * 0.01),
            )
        })
        .collect();
    let for_direction = |direction| {
        let options = CompareOptions {
            key: None,
            directions: vec![("partialMatch".to_owned(), direction)],
        };
        let comparison =
            compare_runs(&run("b", &baseline), &run("c", &candidate), &options).unwrap();
        metric(&comparison, "partialMatch", MetricName::Score).effect
    };
    assert_eq!(for_direction(Direction::Increase), Effect::Degraded);
    assert_eq!(for_direction(Direction::Decrease), Effect::Improved);
    assert_eq!(for_direction(Direction::Neutral), Effect::Changed);
}

#[test]
fn a_thread_is_one_sample_passing_when_all_its_turns_pass() {
    let thread = |name: &str, second: (&str, f64)| {
        format!(
            r#"{{"name": "{name}", "turns": [
                {{"prompt": "t1", "response": "r", "scores": {{"partialMatch": {{"result": "pass", "score": 0.9, "threshold": 0.5}}}}}},
                {{"prompt": "t2", "response": "r", "scores": {{"partialMatch": {{"result": "{}", "score": {}, "threshold": 0.5}}}}}}]}}"#,
            second.0, second.1
        )
    };
    let baseline = vec![
        thread("first", ("pass", 0.7)),
        thread("second", ("pass", 0.7)),
    ];
    let candidate = vec![
        thread("second", ("pass", 0.7)),
        thread("first", ("fail", 0.1)),
    ];
    let comparison = compared(&baseline, &candidate);
    assert_eq!(comparison.baseline.items, 2);
    assert_eq!(comparison.pairing.key, PairingKey::Id);
    assert_eq!(comparison.pairing.threads, 2);
    let rate = metric(&comparison, "partialMatch", MetricName::PassRate);
    assert_eq!(rate.n, 2);
    assert_eq!(
        rate.flips,
        Some(Flips {
            pass_to_fail: 1,
            fail_to_pass: 0
        })
    );
    let score = metric(&comparison, "partialMatch", MetricName::Score);
    assert_eq!(score.baseline_mean, Some(0.8));
    assert_eq!(score.candidate_mean, Some((0.5 + 0.8) / 2.0));
    assert_eq!(comparison.items[0].turns, 2);
    assert!(
        render::markdown(&comparison).contains("2 paired threads are counted as one sample each")
    );
}

#[test]
fn runevals_results_and_scored_documents_of_the_same_prompts_compare() {
    let runevals = br#"{"individual_results": [
        {"prompt": "question 0", "response": "r", "results": {"partial_match_score": "{\"score\": 0.8, \"result\": \"pass\", \"threshold\": 0.5}"}}
    ], "aggregate_statistics": {}}"#;
    let scored = document(&passing(1));
    let comparison = compare(
        ("old.json", runevals),
        ("new.json", &scored),
        &CompareOptions::default(),
    )
    .unwrap();
    assert_eq!(comparison.pairing.matched, 1);
    assert_eq!(comparison.baseline.dialect, Dialect::M365);
    let shared: Vec<&str> = comparison
        .metrics
        .iter()
        .map(|m| m.evaluator.as_str())
        .collect();
    assert_eq!(shared, ["partialMatch", "partialMatch"]);
}

#[test]
fn the_json_contract_names_its_fields_and_untrusted_text_is_escaped() {
    let mut baseline = passing(2);
    baseline.push(item(
        None,
        "<script>alert(1)</script> | [x](http://e)",
        ("pass", 4.0),
        ("pass", 0.8),
    ));
    let comparison = compared(&baseline, &passing(2));
    let json: serde_json::Value = serde_json::from_str(&render::json(&comparison)).unwrap();
    for field in ["baseline", "candidate", "pairing", "metrics", "items"] {
        assert!(json.get(field).is_some(), "{field}");
    }
    assert_eq!(json["pairing"]["key"], "prompt");
    assert_eq!(json["baseline"]["dialect"], "m365");
    let first = &json["metrics"][0];
    for field in [
        "evaluator",
        "metric",
        "type",
        "direction",
        "n",
        "excluded",
        "baseline_mean",
        "candidate_mean",
        "delta",
        "baseline_ci",
        "candidate_ci",
        "p_value",
        "test",
        "effect",
        "strength",
        "flips",
        "detectable_delta",
    ] {
        assert!(first.get(field).is_some(), "{field}");
    }
    assert_eq!(first["metric"], "pass_rate");
    assert_eq!(first["type"], "boolean");
    assert_eq!(first["effect"], "too_few_samples");
    assert!(json["metrics"][1].get("flips").is_none());
    assert_eq!(json["items"][0]["baseline"]["relevance"]["result"], "pass");
    let html = render::html(&comparison);
    assert!(!html.contains("<script>"), "{html}");
    assert!(html.contains("&lt;script&gt;"));
    let markdown = render::markdown(&comparison);
    assert!(!markdown.contains("[x](http"), "{markdown}");
}

#[test]
fn writing_gives_the_bytes_rendering_gives() {
    let comparison = compared(&passing(12), &passing(11));
    for format in [Format::Json, Format::Markdown, Format::Html] {
        let mut written = Vec::new();
        write(&comparison, format, &mut written).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            render(&comparison, format)
        );
    }
}

#[test]
fn an_evaluator_absent_on_one_side_counts_as_skipped_there_for_changed() {
    let unit = |prompt: &str, results: &[(&str, Verdict)]| runs::Unit {
        index: 0,
        turns: 0,
        id: None,
        prompt: prompt.to_owned(),
        results: results
            .iter()
            .map(|(evaluator, result)| runs::UnitResult {
                evaluator: (*evaluator).to_owned(),
                result: *result,
                score: None,
            })
            .collect(),
    };
    let run = |name: &str, units: Vec<runs::Unit>| Run {
        name: name.to_owned(),
        dialect: Dialect::M365,
        form: inputs::Form::M365Document,
        units,
    };
    let baseline = run(
        "b",
        vec![
            unit(
                "p",
                &[
                    ("exactMatch", Verdict::Pass),
                    ("coherence", Verdict::Skipped),
                ],
            ),
            unit(
                "q",
                &[
                    ("exactMatch", Verdict::Pass),
                    ("coherence", Verdict::Skipped),
                ],
            ),
        ],
    );
    let candidate = run(
        "c",
        vec![
            unit("p", &[("exactMatch", Verdict::Pass)]),
            unit(
                "q",
                &[("exactMatch", Verdict::Pass), ("coherence", Verdict::Pass)],
            ),
        ],
    );
    let comparison = compare_runs(&baseline, &candidate, &CompareOptions::default()).unwrap();
    assert_eq!(comparison.pairing.key, PairingKey::Prompt);
    let changed: Vec<bool> = comparison.items.iter().map(|item| item.changed).collect();
    assert_eq!(changed, [false, true]);
}
