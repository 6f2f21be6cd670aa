use super::*;
use crate::json::Value;
use crate::judge::reply::read_verdict;
use crate::outcome::Verdict;

/// The seed's restaurant-booking rubric (Foundry's rubric evaluators page).
fn booking() -> Rubric {
    let dimension = |id: &str, weight: f64, always_applicable: bool| Dimension {
        id: id.to_owned(),
        weight,
        always_applicable,
        scale: Scale::Likert,
        category: None,
    };
    Rubric {
        dimensions: vec![
            dimension("intent_recognition", 9.0, false),
            dimension("tool_usage_accuracy", 6.0, false),
            dimension("policy_enforcement", 5.0, false),
            dimension("information_gathering", 4.0, false),
            dimension("communication_clarity", 2.0, false),
            dimension("general_quality", 5.0, true),
        ],
    }
}

const IDS: [&str; 6] = [
    "intent_recognition",
    "tool_usage_accuracy",
    "policy_enforcement",
    "information_gathering",
    "communication_clarity",
    "general_quality",
];

/// A reply rating the booking rubric's dimensions with `scores` (`None`: not applicable).
fn reply(scores: [Option<u8>; 6]) -> JudgeReply {
    let dimensions: Vec<Value> = IDS
        .iter()
        .zip(scores)
        .map(|(id, score)| match score {
            Some(score) => crate::json!({"id": id, "score": score, "applicable": true, "reason": format!("{id} rated {score}.")}),
            None => crate::json!({"id": id, "score": null, "applicable": false, "reason": "does not apply"}),
        })
        .collect();
    let object =
        crate::json!({"reason": "Overall.", "dimensions": dimensions, "status": "completed"});
    read_verdict(&object.to_string()).unwrap()
}

fn judged(reply: &JudgeReply) -> EvalResult {
    booking().result("Rubric", 0.5, reply)
}

fn unparseable(reply: &JudgeReply) -> String {
    let result = judged(reply);
    assert_eq!(result.result, Verdict::Error);
    assert_eq!(result.score, None);
    let error = result.error.unwrap();
    assert_eq!(error.code, ErrorCode::JudgeOutputUnparseable);
    error.message
}

#[test]
fn the_seeds_worked_examples() {
    let pass = judged(&reply([
        Some(5),
        Some(5),
        Some(5),
        Some(4),
        Some(5),
        Some(4),
    ]));
    assert_eq!(pass.result, Verdict::Pass);
    assert!((pass.score.unwrap() - 0.941_935_483_9).abs() < 5e-11);
    assert_eq!(pass.score, Some(146.0 / 155.0));
    assert_eq!(pass.threshold, Some(0.5));
    let fail = judged(&reply([
        Some(3),
        Some(1),
        Some(1),
        Some(2),
        Some(2),
        Some(1),
    ]));
    assert_eq!(fail.result, Verdict::Fail);
    assert!((fail.score.unwrap() - 0.354_838_709_7).abs() < 5e-11);
}

#[test]
fn the_score_is_the_weighted_mean_over_the_applicable_dimensions_and_passes_at_the_threshold() {
    assert_eq!(weighted_score([(1.0, 5.0), (3.0, 1.0)]), Some(8.0 / 20.0));
    assert_eq!(weighted_score([]), None);
    let result = judged(&reply([Some(5), None, None, None, None, Some(3)]));
    assert_eq!(result.score, Some((9.0 * 5.0 + 5.0 * 3.0) / (5.0 * 14.0)));
    let at = Rubric {
        dimensions: vec![Dimension {
            id: "a".into(),
            weight: 2.0,
            always_applicable: false,
            scale: Scale::Likert,
            category: None,
        }],
    };
    let half = read_verdict(r#"{"dimensions": [{"id": "a", "score": 2.5}]}"#).unwrap();
    let result = at.result("Rubric", 0.5, &half);
    assert_eq!(
        (result.result, result.score),
        (Verdict::Pass, Some(0.5)),
        "pass `>=`"
    );
    assert_eq!(at.result("Rubric", 0.6, &half).result, Verdict::Fail);
}

#[test]
fn per_dimension_scores_and_reasons_go_into_details_and_the_reason() {
    let result = judged(&reply([Some(5), None, Some(5), Some(4), Some(5), Some(4)]));
    let dimensions = result.details.get("dimension_scores").unwrap();
    assert_eq!(
        dimensions[0],
        crate::json!({"id": "intent_recognition", "score": 5, "applicable": true, "weight": 9, "reason": "intent_recognition rated 5."})
    );
    assert_eq!(
        dimensions[1],
        crate::json!({"id": "tool_usage_accuracy", "score": null, "applicable": false, "weight": 6, "reason": "does not apply"})
    );
    let reason = result.reason.unwrap();
    assert!(
        reason.starts_with("Overall. Dimensions: intent_recognition 5/5 (weight 9): intent_recognition rated 5; tool_usage_accuracy not applicable: does not apply; "),
        "{reason}"
    );
    assert!(reason.ends_with("general_quality 4/5 (weight 5): general_quality rated 4."));
}

#[test]
fn no_applicable_dimension_is_not_applicable() {
    let rubric = Rubric {
        dimensions: vec![Dimension {
            id: "a".into(),
            weight: 1.0,
            always_applicable: false,
            scale: Scale::Likert,
            category: None,
        }],
    };
    let none = read_verdict(r#"{"dimensions": [{"id": "a", "applicable": false}]}"#).unwrap();
    let result = rubric.result("Rubric", 0.5, &none);
    assert_eq!(result.result, Verdict::Skipped);
    assert_eq!(
        result.reason.as_deref(),
        Some("Not applicable: the judge found none of the rubric's dimensions applicable")
    );
    assert_eq!(result.threshold, Some(0.5));
    let unrated = read_verdict(r#"{"dimensions": [{"id": "a", "score": null}]}"#).unwrap();
    assert_eq!(
        rubric.result("Rubric", 0.5, &unrated).result,
        Verdict::Skipped,
        "no score and no `applicable`: not applicable"
    );
}

#[test]
fn an_always_applicable_dimension_marked_not_applicable_is_an_error() {
    let message = unparseable(&reply([Some(5), Some(5), Some(5), Some(4), Some(5), None]));
    assert!(
        message.contains("'general_quality' not applicable")
            && message.contains("always_applicable"),
        "{message}"
    );
}

#[test]
fn replies_that_do_not_rate_the_rubric_are_errors_never_scores() {
    let cases = [
        (
            r#"{"score": 4, "reason": "one score"}"#,
            "no `dimensions` list",
        ),
        (r#"{"dimensions": "all good"}"#, "no `dimensions` list"),
        (r#"{"dimensions": [7]}"#, "entry 0 is not an object"),
        (r#"{"dimensions": [{"score": 4}]}"#, "entry 0 has no `id`"),
        (
            r#"{"dimensions": [{"id": "a", "score": 4}, {"id": "b", "score": 4}, {"id": "c", "score": 4}]}"#,
            "a dimension 'c' that the rubric does not have",
        ),
        (
            r#"{"dimensions": [{"id": "a", "score": 4}, {"id": "a", "score": 3}]}"#,
            "'a' more than once",
        ),
        (
            r#"{"dimensions": [{"id": "a", "score": 4}]}"#,
            "does not rate dimension 'b'",
        ),
        (
            r#"{"dimensions": [{"id": "a", "score": 7}, {"id": "b", "score": 4}]}"#,
            "dimension 'a': the judge's score 7 is off its scale (1-5)",
        ),
        (
            r#"{"dimensions": [{"id": "a", "applicable": true}, {"id": "b", "score": 4}]}"#,
            "dimension 'a': the judge's reply has no score",
        ),
        (
            r#"{"dimensions": [{"id": "a", "score": true}, {"id": "b", "score": 4}]}"#,
            "dimension 'a': the judge's score true is not a number",
        ),
        (
            r#"{"dimensions": [{"id": "a", "score": 4, "applicable": "yes"}, {"id": "b", "score": 4}]}"#,
            "`applicable` for dimension 'a' is \"yes\"",
        ),
    ];
    let rubric = Rubric {
        dimensions: vec![
            Dimension {
                id: "a".into(),
                weight: 1.0,
                always_applicable: false,
                scale: Scale::Likert,
                category: None,
            },
            Dimension {
                id: "b".into(),
                weight: 1.0,
                always_applicable: false,
                scale: Scale::Likert,
                category: None,
            },
        ],
    };
    for (content, expected) in cases {
        let result = rubric.result("Rubric", 0.5, &read_verdict(content).unwrap());
        assert_eq!(result.result, Verdict::Error, "{content}");
        let error = result.error.unwrap();
        assert_eq!(error.code, ErrorCode::JudgeOutputUnparseable, "{content}");
        assert!(
            error.message.contains(expected),
            "{content}: {}",
            error.message
        );
    }
    let numeric_text =
        read_verdict(r#"{"dimensions": [{"id": "a", "score": "4"}, {"id": "b", "score": 2}]}"#)
            .unwrap();
    assert_eq!(
        rubric.result("Rubric", 0.5, &numeric_text).score,
        Some(0.6),
        "numeric text is a score, as for every judge"
    );
}
