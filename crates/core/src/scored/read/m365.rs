//! A scored M365 eval document's items read back into report entries: the inverse of
//! [`crate::scored::m365_document`].
//!
//! | document | report |
//! |---|---|
//! | `items[i]`, `items[i].turns[t]` | one entry each, `index` i, `turn` t (null for single-turn items) |
//! | `status` | the entry's status as stored; absent, it is derived from the results (M365 rules) |
//! | `scores.<key>` | one result, in stored order; the evaluator is the built-in whose camelCased name `key` is (`partialMatch` → `PartialMatch`), else `key` |
//! | `score`, `result`, `threshold`, `reason` | the result's fields; CitationScore's `count` stands for the missing `score` |
//! | ErroredScore `error`, `code` | the result's `error` message and code (`evaluatorError` when the code is absent, as before schema 1.9, or unknown; an unknown one is kept in the details) |
//! | any other member of a score | the result's details, in stored order |
//! | `error.message` of an item or turn with status `error` and no scores | the entry's `problem` (without our writer's `Item could not be evaluated: `) |
//! | `extensions.review` | the entry's review (`review::read_stored`: what cannot be read is kept in its `problems`, and the entry marked as needing review) |
//!
//! The thread `summary` and `metadata` are not read: the report's summary is recomputed. A thread
//! whose every turn carries our writer's "could not be evaluated" error with the same message is one
//! entry for the thread, as the run that wrote it reported it. A result whose stored status cannot
//! be trusted with it (one of its results is unreadable) has its status derived instead. Skipped
//! evaluators are not in a document (the schema has no shape for them), so they are not in the
//! report either.

use crate::diagnostic::push_pointer;
use crate::evaluators;
use crate::json::{Map, Value};
use crate::outcome::{ErrorCode, EvalResult, Verdict};
use crate::report::CaseOutcome;
use crate::review;
use crate::schema::got;
use crate::scored::m365_document::{ITEM_PROBLEM_MESSAGE, REVIEW_EXTENSION};
use crate::status::{item_status, ItemStatus};
use crate::Details;

use super::{invalid_result, is_invalid, unreadable};

/// Members of a score object that are fields of the result rather than details.
const VALID_FIELDS: [&str; 4] = ["score", "result", "threshold", "reason"];

/// Members of an errored score object that are fields of the result rather than details.
const ERRORED_FIELDS: [&str; 3] = ["result", "error", "code"];

/// Whether any item or turn of `items` carries output fields (`scores` or `status`).
pub fn is_scored(items: &[Value]) -> bool {
    items.iter().any(|item| {
        carries_results(item)
            || item
                .get("turns")
                .and_then(Value::as_array)
                .is_some_and(|turns| turns.iter().any(carries_results))
    })
}

fn carries_results(case: &Value) -> bool {
    case.as_object()
        .is_some_and(|fields| fields.contains_key("scores") || fields.contains_key("status"))
}

/// The entries of `items`, in order.
pub(super) fn read(items: Vec<Value>) -> Vec<CaseOutcome> {
    let mut outcomes = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        read_item(index, item, &format!("/items/{index}"), &mut outcomes);
    }
    outcomes
}

fn read_item(index: usize, item: Value, pointer: &str, outcomes: &mut Vec<CaseOutcome>) {
    let Value::Object(mut fields) = item else {
        let problem = format!("at {pointer}: expected an item object, {}", got(&item));
        outcomes.push(unreadable(index, None, problem));
        return;
    };
    let turns = match fields.shift_remove("turns") {
        None => {
            outcomes.push(read_case(index, None, &fields, pointer).outcome);
            return;
        }
        Some(Value::Array(turns)) if !turns.is_empty() => turns,
        Some(other) => {
            let found = match other {
                Value::Array(_) => "it is empty".to_owned(),
                other => got(&other),
            };
            let problem =
                format!("at {pointer}/turns: expected a non-empty array of turns, {found}");
            outcomes.push(unreadable(index, None, problem));
            return;
        }
    };
    let mut cases = Vec::with_capacity(turns.len());
    for (turn, value) in turns.into_iter().enumerate() {
        let pointer = format!("{pointer}/turns/{turn}");
        cases.push(match value {
            Value::Object(fields) => read_case(index, Some(turn), &fields, &pointer),
            other => Case {
                outcome: unreadable(
                    index,
                    Some(turn),
                    format!("at {pointer}: expected a turn object, {}", got(&other)),
                ),
                item_problem: false,
            },
        });
    }
    match thread_problem(&cases) {
        Some(problem) => outcomes.push(unreadable(index, None, problem.to_owned())),
        None => outcomes.extend(cases.into_iter().map(|case| case.outcome)),
    }
}

/// One item or turn read back, and whether its problem is one our writer put on it.
struct Case {
    outcome: CaseOutcome,
    item_problem: bool,
}

/// The problem of a thread our writer marked as a whole: every turn with the same "could not be
/// evaluated" problem and nothing else (`m365_document::write` puts an item-level problem of a
/// thread on each of its turns).
fn thread_problem(cases: &[Case]) -> Option<&str> {
    let first = cases.first()?.outcome.problem.as_deref()?;
    cases
        .iter()
        .all(|case| {
            case.item_problem
                && case.outcome.results.is_empty()
                && case.outcome.problem.as_deref() == Some(first)
        })
        .then_some(first)
}

fn read_case(
    index: usize,
    turn: Option<usize>,
    fields: &Map<String, Value>,
    pointer: &str,
) -> Case {
    let mut outcome = CaseOutcome {
        index,
        turn,
        status: None,
        results: Vec::new(),
        problem: None,
        review: None,
    };
    let (scores, status) = (fields.get("scores"), fields.get("status"));
    if scores.is_none() && status.is_none() {
        outcome.problem = Some(format!(
            "at {pointer}: not scored (it has no `scores` or `status`)"
        ));
        return Case {
            outcome,
            item_problem: false,
        };
    }
    match scores {
        None => {}
        Some(Value::Object(scores)) => {
            let scores_pointer = format!("{pointer}/scores");
            outcome.results = scores
                .iter()
                .map(|(key, value)| read_score(key, value, &push_pointer(&scores_pointer, key)))
                .collect();
        }
        Some(other) => {
            outcome.problem = Some(format!(
                "at {pointer}/scores: expected an object of scores by evaluator, {}",
                got(other)
            ));
        }
    }
    let has_response = fields
        .get("response")
        .and_then(Value::as_str)
        .is_some_and(|response| !response.trim().is_empty());
    let derived = || item_status(&outcome.results, has_response);
    outcome.status = match status.map(|status| read_status(status, pointer)) {
        None => derived(),
        Some(Ok(_)) if outcome.results.iter().any(is_invalid) => derived(),
        Some(Ok(status)) => Some(status),
        Some(Err(problem)) => {
            outcome.problem.get_or_insert(problem);
            Some(ItemStatus::Error)
        }
    };
    let mut item_problem = false;
    if outcome.problem.is_some() {
        outcome.status = Some(ItemStatus::Error);
    } else if outcome.status == Some(ItemStatus::Error) && outcome.results.is_empty() {
        if let Some(message) = error_message(fields) {
            let (problem, ours) = match message.strip_prefix(ITEM_PROBLEM_MESSAGE) {
                Some(".") => ("", true),
                Some(rest) => match rest.strip_prefix(": ") {
                    Some(problem) => (problem, true),
                    None => (message, false),
                },
                None => (message, false),
            };
            outcome.problem = Some(problem.to_owned());
            item_problem = ours;
        }
    }
    if let Some(stored) = fields
        .get("extensions")
        .and_then(|extensions| extensions.get(REVIEW_EXTENSION))
    {
        let pointer = format!("{pointer}/extensions/{REVIEW_EXTENSION}");
        outcome.review = review::read_stored(stored, &outcome.results, &pointer).map(Box::new);
    }
    Case {
        outcome,
        item_problem,
    }
}

/// The stored `error.message` of an item or turn.
fn error_message(fields: &Map<String, Value>) -> Option<&str> {
    fields.get("error")?.get("message")?.as_str()
}

fn read_status(status: &Value, pointer: &str) -> Result<ItemStatus, String> {
    status
        .as_str()
        .and_then(|text| ItemStatus::ALL.into_iter().find(|s| s.as_str() == text))
        .ok_or_else(|| {
            format!(
                "at {pointer}/status: expected one of \"pass\", \"fail\", \"partial\", \"error\", {}",
                got(status)
            )
        })
}

/// One stored score object as a result; an unreadable one as an `invalidStoredResult` error.
fn read_score(key: &str, value: &Value, pointer: &str) -> EvalResult {
    let evaluator = evaluators::from_score_key(key);
    score_result(evaluator, value).unwrap_or_else(|(place, expected)| {
        invalid_result(
            evaluator,
            &format!("{pointer}{place}"),
            &expected,
            value.clone(),
        )
    })
}

/// Where in a score object a problem is (`""` for the object, `/score`…) and what was expected.
type Misfit = (&'static str, String);

fn score_result(evaluator: &str, value: &Value) -> Result<EvalResult, Misfit> {
    let Value::Object(fields) = value else {
        return Err((
            "",
            format!("expected a score object with a `result`, {}", got(value)),
        ));
    };
    let verdict = match fields.get("result") {
        None => {
            return Err((
                "",
                "expected a score object with a `result`; it has none".to_owned(),
            ))
        }
        Some(result) => result
            .as_str()
            .and_then(|text| {
                [Verdict::Pass, Verdict::Fail, Verdict::Error]
                    .into_iter()
                    .find(|verdict| verdict.as_str() == text)
            })
            .ok_or_else(|| {
                (
                    "/result",
                    format!("expected \"pass\", \"fail\" or \"error\", {}", got(result)),
                )
            })?,
    };
    if verdict == Verdict::Error {
        return errored_result(evaluator, fields);
    }
    let mut result = EvalResult::verdict(evaluator, verdict == Verdict::Pass);
    result.score = number(fields, "score", "/score")?;
    result.threshold = number(fields, "threshold", "/threshold")?;
    result.reason = match fields.get("reason") {
        None => None,
        Some(Value::String(reason)) => Some(reason.clone()),
        Some(other) => return Err(("/reason", format!("expected a string, {}", got(other)))),
    };
    result.details = details(fields, &VALID_FIELDS);
    if result.score.is_none() {
        result.score = result.details.get("count").and_then(Value::as_f64);
    }
    Ok(result)
}

fn errored_result(evaluator: &str, fields: &Map<String, Value>) -> Result<EvalResult, Misfit> {
    let message = match fields.get("error") {
        None => "",
        Some(Value::String(message)) => message.as_str(),
        Some(other) => return Err(("/error", format!("expected a string, {}", got(other)))),
    };
    let (code, unknown_code) = match fields.get("code") {
        None => (ErrorCode::EvaluatorError, None),
        Some(Value::String(text)) => {
            match ErrorCode::ALL
                .into_iter()
                .find(|code| code.as_str() == text)
            {
                Some(code) => (code, None),
                None => (ErrorCode::EvaluatorError, Some(text.clone())),
            }
        }
        Some(other) => return Err(("/code", format!("expected a string, {}", got(other)))),
    };
    let mut result = EvalResult::error(evaluator, code, message);
    result.details = details(fields, &ERRORED_FIELDS);
    if let Some(unknown_code) = unknown_code {
        result.details.insert("code", unknown_code);
    }
    Ok(result)
}

/// The number under `key` (at `place`), if any.
fn number(
    fields: &Map<String, Value>,
    key: &str,
    place: &'static str,
) -> Result<Option<f64>, Misfit> {
    let Some(value) = fields.get(key) else {
        return Ok(None);
    };
    value
        .as_f64()
        .map(Some)
        .ok_or_else(|| (place, format!("expected a number, {}", got(value))))
}

/// The members of a score object other than `fields`, in stored order.
fn details(members: &Map<String, Value>, fields: &[&str]) -> Details {
    let mut details = Details::new();
    for (key, value) in members {
        if !fields.contains(&key.as_str()) {
            details.insert(key.clone(), value.clone());
        }
    }
    details
}
