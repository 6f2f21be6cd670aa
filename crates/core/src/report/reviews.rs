//! Reviews applied to a run report from a list of `{index, turn, review}` objects (what a host
//! keeps beside a run, such as the page's store): each review is checked against the entry it
//! names, then set on it, and the summary is counted again. The results are never changed. No IO.

use crate::diagnostic::Diagnostic;
use crate::json::Value;
use crate::review;
use crate::schema::got;

use super::{format, RunReport, Summary};

/// Sets the reviews in `reviews` (an array of `{index, turn, review}`; `turn` absent or `null` for
/// a single-turn item; `review` `null` or saying nothing removes the entry's review) on the entries
/// of `report` they name, and counts the summary again. Nothing is applied when any is wrong.
///
/// # Errors
/// Every problem, at its JSON pointer in `reviews`: not an array, an element that is no object, an
/// `index`/`turn` that is no entry of the report, an entry named twice, or a review
/// [`review::read`] refuses.
pub fn apply(report: &mut RunReport, reviews: &Value) -> Result<(), Vec<Diagnostic>> {
    let Some(elements) = reviews.as_array() else {
        return Err(vec![Diagnostic::at_pointer(
            "",
            format!(
                "expected an array of {{index, turn, review}} objects, {}",
                got(reviews)
            ),
        )]);
    };
    let mut problems = Vec::new();
    let mut found: Vec<(usize, Option<review::Review>)> = Vec::new();
    for (position, element) in elements.iter().enumerate() {
        let pointer = format!("/{position}");
        let Some(members) = element.as_object() else {
            problems.push(Diagnostic::at_pointer(
                &pointer,
                format!(
                    "expected an object {{index, turn, review}}, {}",
                    got(element)
                ),
            ));
            continue;
        };
        for key in members
            .keys()
            .filter(|key| !["index", "turn", "review"].contains(&key.as_str()))
        {
            problems.push(Diagnostic::at_pointer(
                format!("{pointer}/{key}"),
                "unknown member: expected index, turn, review",
            ));
        }
        let index = match members.get("index") {
            Some(Value::Number(number)) if number.as_u64().is_some() => number
                .as_u64()
                .and_then(|index| usize::try_from(index).ok()),
            other => {
                problems.push(Diagnostic::at_pointer(
                    format!("{pointer}/index"),
                    format!(
                        "expected the entry's item index (an integer from 0), {}",
                        other.map_or_else(|| "got nothing".to_owned(), got)
                    ),
                ));
                continue;
            }
        };
        let turn = match members.get("turn") {
            None | Some(Value::Null) => None,
            Some(Value::Number(number)) if number.as_u64().is_some() => {
                number.as_u64().and_then(|turn| usize::try_from(turn).ok())
            }
            Some(other) => {
                problems.push(Diagnostic::at_pointer(
                    format!("{pointer}/turn"),
                    format!(
                        "expected the turn (an integer from 0) or null, {}",
                        got(other)
                    ),
                ));
                continue;
            }
        };
        let Some(position_in_report) = index.and_then(|index| {
            report
                .items
                .iter()
                .position(|entry| entry.index == index && entry.turn == turn)
        }) else {
            problems.push(Diagnostic::at_pointer(
                &pointer,
                format!(
                    "the report has no entry {} (it has {} {})",
                    format::case_label(index.unwrap_or(usize::MAX), turn),
                    report.items.len(),
                    if report.items.len() == 1 {
                        "entry"
                    } else {
                        "entries"
                    }
                ),
            ));
            continue;
        };
        if found.iter().any(|(at, _)| *at == position_in_report) {
            problems.push(Diagnostic::at_pointer(
                &pointer,
                "this entry was already reviewed by an earlier element: expected one per entry",
            ));
            continue;
        }
        let results = report
            .items
            .get(position_in_report)
            .map_or(&[][..], |entry| entry.results.as_slice());
        let read = match members.get("review") {
            None | Some(Value::Null) => Ok(None),
            Some(value) => {
                review::read(value, results).map(|review| (!review.is_empty()).then_some(review))
            }
        };
        match read {
            Ok(review) => found.push((position_in_report, review)),
            Err(review_problems) => {
                let base = format!("{pointer}/review");
                problems.extend(review_problems.into_iter().map(|problem| {
                    Diagnostic::at_pointer(format!("{base}{}", problem.pointer), problem.message)
                }));
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    for (position, review) in found {
        if let Some(entry) = report.items.get_mut(position) {
            entry.review = review.map(Box::new);
        }
    }
    recount(report);
    Ok(())
}

/// Counts `report`'s summary again from its entries.
pub fn recount(report: &mut RunReport) {
    let mut summary = Summary::default();
    for entry in &report.items {
        summary.add(entry);
    }
    report.summary = summary;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::outcome::EvalResult;
    use crate::report::{CaseOutcome, Dialect};
    use crate::status::ItemStatus;

    fn report() -> RunReport {
        let mut report = RunReport::new(Dialect::M365);
        for (index, turn) in [(0, None), (1, Some(0)), (1, Some(1))] {
            report.push(CaseOutcome {
                index,
                turn,
                status: Some(ItemStatus::Fail),
                results: vec![
                    EvalResult::verdict("Relevance", false),
                    EvalResult::verdict("ExactMatch", true),
                ],
                problem: None,
                review: None,
            });
        }
        report
    }

    #[test]
    fn reviews_land_on_their_entries_and_are_counted_without_changing_results() {
        let mut reviewed = report();
        let before = reviewed.clone();
        apply(
            &mut reviewed,
            &json!([
                {"index": 1, "turn": 1, "review": {"needs_review": true, "overrides": [
                    {"evaluator": "Relevance", "verdict": "pass", "comment": "it answers"}]}},
                {"index": 0, "review": {"comment": "fine", "overrides": [
                    {"evaluator": "ExactMatch", "verdict": "pass", "comment": "agreed"}]}}
            ]),
        )
        .unwrap();
        assert_eq!(
            reviewed.items[2].review.as_ref().unwrap().overrides.len(),
            1
        );
        assert!(reviewed.items[1].review.is_none());
        for (after, before) in reviewed.items.iter().zip(&before.items) {
            assert_eq!(after.results, before.results);
            assert_eq!(after.status, before.status);
        }
        assert_eq!(reviewed.summary.fail, 3);
        let counts = reviewed.summary.review;
        assert_eq!(
            (
                counts.entries,
                counts.needs_review,
                counts.reviewed,
                counts.overridden
            ),
            (2, 1, 2, 1)
        );
        apply(
            &mut reviewed,
            &json!([{"index": 1, "turn": 1, "review": null}]),
        )
        .unwrap();
        assert!(reviewed.items[2].review.is_none());
        assert_eq!(reviewed.summary.review.entries, 1);
    }

    #[test]
    fn wrong_reviews_are_all_located_and_none_is_applied() {
        let mut reviewed = report();
        let problems: Vec<String> = apply(
            &mut reviewed,
            &json!([
                {"index": 0, "review": {"needs_review": true}},
                {"index": 5, "review": {}},
                {"index": 1, "review": {}},
                {"index": 0, "review": {}},
                {"index": "1", "turn": 0},
                {"index": 1, "turn": 0, "review": {"overrides": [{"evaluator": "X", "verdict": "pass", "comment": "c"}]}, "note": 1},
                3
            ]),
        )
        .unwrap_err()
        .iter()
        .map(Diagnostic::describe)
        .collect();
        assert_eq!(
            problems,
            [
                "at /1: the report has no entry item-5 (it has 3 entries)",
                "at /2: the report has no entry item-1 (it has 3 entries)",
                "at /3: this entry was already reviewed by an earlier element: expected one per entry",
                "at /4/index: expected the entry's item index (an integer from 0), got \"1\"",
                "at /5/note: unknown member: expected index, turn, review",
                "at /5/review/overrides/0/evaluator: the entry has no result of `X` to override (it has Relevance, ExactMatch)",
                "at /6: expected an object {index, turn, review}, got an integer (3)",
            ]
        );
        assert_eq!(reviewed, report());
        assert!(apply(&mut reviewed, &json!({"index": 0})).is_err());
    }
}
