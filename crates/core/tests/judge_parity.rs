//! Parity of the 15 standard judges with azure-ai-evaluation 1.18.10: replays every case of
//! `tests/fixtures/parity/judges/<key>.json` (see `tests/parity/README.md`, "Judge case files")
//! through the Foundry criterion `builtin.<key>`, offline, with the case's canned model replies.
//!
//! Each case is checked twice:
//! 1. **ours against the reference** where no call is made: the same validation message (an
//!    `error` result, code `evaluatorError` or `evaluatorConfigurationError`), the same
//!    not-applicable reason, or an error where the reference crashes; and a call (as many calls
//!    as the reference made) where it made one.
//! 2. **ours against the documented reading** ([`documented`], spec §6) of the canned reply,
//!    and the documented reading against the reference's output: where they differ, exactly one
//!    named deviation rule ([`RULES`], also the table in `tests/parity/README.md`) must explain
//!    the difference. An unexplained difference fails the test, and so does a rule no case uses.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use agenteval_core::evaluators::{self, judged};
use agenteval_core::json::{self, Map, Value};
use agenteval_core::judge::{Completion, Usage};
use agenteval_core::outcome::ErrorCode;
use agenteval_core::{EvalResult, Inputs, Options, Verdict};

const KEYS: [&str; 15] = [
    "relevance",
    "coherence",
    "fluency",
    "groundedness",
    "similarity",
    "retrieval",
    "response_completeness",
    "intent_resolution",
    "tool_call_accuracy",
    "task_adherence",
    "task_completion",
    "tool_selection",
    "tool_input_accuracy",
    "tool_output_utilization",
    "tool_call_success",
];

/// Judges scored 0/1 (the others 1-5).
const BINARY: [&str; 6] = [
    "task_adherence",
    "task_completion",
    "tool_selection",
    "tool_input_accuracy",
    "tool_output_utilization",
    "tool_call_success",
];

/// The deliberate deviations, by id: every difference between the documented reading and the
/// reference must be one of these (the README's table lists the same ids).
const RULES: [(&str, &str); 12] = [
    ("J1", "a score off the scale, or NaN, is judgeOutputUnparseable (the reference scores it, or fails NaN)"),
    ("J2", "no score, a null or boolean score is judgeOutputUnparseable (the reference: NaN/unknown, 0.0, 1.0 or a crash)"),
    ("J3", "finish_reason length or content_filter is judgeOutputUnparseable (the reference reads a complete reply)"),
    ("J4", "the binary judges report the threshold they apply, 1 (the reference writes 3 or the configured one)"),
    ("J5", "a reply holding a JSON object (fenced, trailing text, in a list) or legacy tags is read (the reference crashes, errors, or takes Similarity's first digit)"),
    ("J6", "numeric text scores count on the 0/1 judges too (ToolSelection and ToolInputAccuracy reject \"1\")"),
    ("J7", "a reason that is not text is reported empty (the reference passes it through: null, 12)"),
    ("J8", "a skipped reply without a reason says 'the judge found nothing to judge'"),
    ("J9", "a JSON string literal holding an object is judgeOutputUnparseable (Coherence, Fluency, Groundedness, Retrieval, Similarity parse it)"),
    ("J10", "a reply with duplicate keys is judgeOutputUnparseable (Python keeps the last)"),
    ("J11", "tool_selection_accuracy / parameter_extraction_accuracy only from two numeric counts (the reference counts a missing one as 0, crashes on text)"),
    ("J12", "a role line (`function:`) inside the data is judged (the reference's prompt template fails on it)"),
];

/// The directory of another sample of case files (written by `generate_judge_cases.py --out`),
/// replayed instead of the committed ones.
fn sample_dir() -> Option<PathBuf> {
    std::env::var_os("AGENTEVAL_JUDGE_PARITY_DIR").map(PathBuf::from)
}

fn load(key: &str) -> Option<Value> {
    let path = sample_dir()
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/parity/judges")
        })
        .join(format!("{key}.json"));
    if sample_dir().is_some() && !path.exists() {
        return None;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// What agenteval made of a case.
enum Ours {
    /// The options were refused.
    Config(String),
    /// A result reached without a call.
    Early(EvalResult),
    /// The calls made, and the result from the canned replies.
    Judged { calls: usize, result: EvalResult },
}

fn completion(content: Option<&str>, finish_reason: &str) -> Completion {
    Completion {
        content: content.map(str::to_owned),
        refusal: None,
        finish_reason: Some(finish_reason.to_owned()),
        usage: Usage {
            prompt_tokens: 100,
            completion_tokens: 20,
            total_tokens: 120,
        },
        model: Some("judge-model".to_owned()),
    }
}

/// The canned reply of call `index` (one per call, or one for every call).
fn reply(case: &Value, index: usize) -> Option<&str> {
    match &case["reply"] {
        Value::Array(replies) => replies.get(index).and_then(Value::as_str),
        other => other.as_str(),
    }
}

fn finish_reason(case: &Value) -> &str {
    case["finish_reason"].as_str().unwrap_or("stop")
}

fn run(key: &str, case: &Value) -> Ours {
    let name = format!("builtin.{key}");
    let spec = evaluators::find(&name).unwrap_or_else(|| panic!("{name} not in catalog"));
    let empty = Map::new();
    let init = case["init"].as_object().unwrap_or(&empty);
    let evaluator = match judged::build(spec, key, Options::new(init)) {
        Ok(evaluator) => evaluator,
        Err(error) => return Ours::Config(error.message),
    };
    let mut inputs = Inputs::new();
    for (input, value) in case["inputs"].as_object().unwrap_or(&empty) {
        inputs.set(input, value);
    }
    match evaluator.judge(&inputs).expect("a judged evaluator") {
        Err(early) => Ours::Early(*early),
        Ok(call) => {
            let requests = call.requests();
            let results = requests
                .iter()
                .enumerate()
                .map(|(index, request)| {
                    let answer = completion(reply(case, index), finish_reason(case));
                    call.reading
                        .result(&call.label, request.prompt, Ok(&answer))
                })
                .collect();
            Ours::Judged {
                calls: requests.len(),
                result: call.combine(results),
            }
        }
    }
}

/// The reading spec §6 documents for a reply (the layers of `judge::reply`, the checks of
/// `judge::verdict`), restated here independently.
#[derive(Debug, Clone, PartialEq)]
enum Doc {
    /// A verdict: on `score`, or for a conversation on its last turn's score `last`.
    Scored {
        score: f64,
        reason: String,
        last: Option<f64>,
    },
    Skipped {
        reason: String,
    },
    Unparseable,
}

fn documented(reply: Option<&str>, finish_reason: &str, binary: bool) -> Doc {
    if matches!(finish_reason, "length" | "content_filter") {
        return Doc::Unparseable;
    }
    let Some(reply) = reply.map(str::trim) else {
        return Doc::Unparseable;
    };
    if let Some(object) = embedded_object(reply) {
        if object
            .get("status")
            .and_then(Value::as_str)
            .is_some_and(|status| status.eq_ignore_ascii_case("skipped"))
        {
            let reason = object.get("reason").and_then(Value::as_str);
            return Doc::Skipped {
                reason: reason
                    .unwrap_or("the judge found nothing to judge")
                    .to_owned(),
            };
        }
        let reason = object.get("reason").and_then(Value::as_str).unwrap_or("");
        return scored(object.get("score"), reason, binary);
    }
    let literal = match json::parse_str(reply) {
        Ok(Value::String(inner)) => inner,
        _ => reply.to_owned(),
    };
    match between(&literal, "<S2>", "</S2>") {
        Some(score) => scored(
            Some(&Value::from(score.trim())),
            between(&literal, "<S1>", "</S1>").unwrap_or("").trim(),
            binary,
        ),
        None => Doc::Unparseable,
    }
}

/// The reply's object: all of it, a fenced block, or from its first `{` to its last `}`.
fn embedded_object(reply: &str) -> Option<Map<String, Value>> {
    let object = |text: &str| match json::parse_str(text) {
        Ok(Value::Object(object)) => Some(object),
        _ => None,
    };
    let fenced = || {
        let body = reply.split("```").nth(1)?;
        object(body.trim_start_matches("json").trim())
    };
    let braces = || object(reply.get(reply.find('{')?..=reply.rfind('}')?)?);
    object(reply).or_else(fenced).or_else(braces)
}

fn between<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let rest = text.get(text.find(open)? + open.len()..)?;
    rest.get(..rest.find(close)?)
}

fn scored(score: Option<&Value>, reason: &str, binary: bool) -> Doc {
    let score = match score {
        Some(Value::Number(number)) => number.as_f64(),
        Some(Value::String(text)) => text.trim().parse::<f64>().ok(),
        _ => None,
    };
    match score {
        Some(score) if binary && (score == 0.0 || score == 1.0) => Doc::Scored {
            score,
            reason: reason.to_owned(),
            last: None,
        },
        Some(score) if !binary && (1.0..=5.0).contains(&score) => Doc::Scored {
            score,
            reason: reason.to_owned(),
            last: None,
        },
        _ => Doc::Unparseable,
    }
}

/// The documented reading of a conversation: its turns combined as `judge::combine_turns`.
fn documented_turns(case: &Value, calls: usize, binary: bool) -> Doc {
    let turns: Vec<Doc> = (0..calls)
        .map(|index| documented(reply(case, index), finish_reason(case), binary))
        .collect();
    if turns.contains(&Doc::Unparseable) {
        return Doc::Unparseable;
    }
    let scores: Option<Vec<f64>> = turns
        .iter()
        .map(|turn| match turn {
            Doc::Scored { score, .. } => Some(*score),
            _ => None,
        })
        .collect();
    match (scores, turns.last()) {
        (Some(scores), Some(Doc::Scored { score, reason, .. })) if scores.len() > 1 => {
            Doc::Scored {
                score: scores.iter().sum::<f64>() / scores.len() as f64,
                reason: reason.clone(),
                last: Some(*score),
            }
        }
        (_, Some(last)) => last.clone(),
        (_, None) => Doc::Unparseable,
    }
}

/// What the reference concluded.
#[derive(Debug)]
enum Reference<'c> {
    Scored {
        score: f64,
        passed: bool,
        /// `None` when the reply's reason was not text (passed through as `null`, `12`…).
        reason: Option<String>,
        threshold: f64,
        properties: Option<&'c Map<String, Value>>,
    },
    Unknown,
    NotApplicable {
        reason: String,
        threshold: f64,
    },
    Error(&'c str),
    Crash(&'c Value),
}

fn reference<'c>(key: &str, case: &'c Value) -> Reference<'c> {
    if let Some(message) = case["error"].as_str() {
        return Reference::Error(message);
    }
    if case.get("crash").is_some() {
        return Reference::Crash(&case["crash"]);
    }
    let output = &case["output"];
    if output.as_object().is_some_and(Map::is_empty) {
        // A conversation without an answered turn: the reference returns `{}`, agenteval an
        // error saying so (README, "Outside the case files").
        return Reference::Crash(output);
    }
    let field = |suffix: &str| &output[format!("{key}{suffix}").as_str()];
    let threshold = field("_threshold").as_f64().unwrap_or(f64::NAN);
    match field("_result").as_str() {
        Some("not_applicable") => Reference::NotApplicable {
            reason: field("_reason").as_str().unwrap_or_default().to_owned(),
            threshold,
        },
        Some("unknown") => Reference::Unknown,
        Some(verdict @ ("pass" | "fail")) => Reference::Scored {
            score: match field("") {
                Value::String(nan) if nan == "NaN" => f64::NAN,
                score => score.as_f64().expect("a numeric score"),
            },
            passed: verdict == "pass",
            reason: field("_reason").as_str().map(str::to_owned),
            threshold,
            properties: field("_properties").as_object(),
        },
        other => panic!("{}: unexpected result {other:?}", case["name"]),
    }
}

/// Our threshold for a case: the configured one on the Likert scale (3 by default), 1 on the
/// binary one.
fn our_threshold(case: &Value, binary: bool) -> f64 {
    if binary {
        1.0
    } else {
        case["init"]["threshold"].as_f64().unwrap_or(3.0)
    }
}

fn error_of(result: &EvalResult) -> Option<(ErrorCode, &str)> {
    result
        .error
        .as_ref()
        .map(|error| (error.code, error.message.as_str()))
}

/// Checks our result against the documented reading.
fn matches_documented(
    result: &EvalResult,
    doc: &Doc,
    threshold: f64,
    binary: bool,
) -> Result<(), String> {
    match doc {
        Doc::Unparseable => match error_of(result) {
            Some((ErrorCode::JudgeOutputUnparseable, _)) => Ok(()),
            other => Err(format!(
                "expected judgeOutputUnparseable, got {other:?} ({:?})",
                result.result
            )),
        },
        Doc::Skipped { reason } => {
            let expected = format!("Not applicable: {reason}");
            let ours = (result.result, result.reason.as_deref(), result.threshold);
            if ours == (Verdict::Skipped, Some(expected.as_str()), Some(threshold)) {
                Ok(())
            } else {
                Err(format!(
                    "expected skipped {expected:?} threshold {threshold}, got {ours:?}"
                ))
            }
        }
        Doc::Scored {
            score,
            reason,
            last,
        } => {
            let verdict_score = last.unwrap_or(*score);
            let passed = if binary {
                verdict_score == 1.0
            } else {
                verdict_score >= threshold
            };
            let verdict = if passed { Verdict::Pass } else { Verdict::Fail };
            let ours = (
                result.result,
                result.score,
                result.reason.as_deref(),
                result.threshold,
            );
            if ours
                == (
                    verdict,
                    Some(*score),
                    Some(reason.as_str()),
                    Some(threshold),
                )
            {
                Ok(())
            } else {
                Err(format!("expected {verdict:?} {score} {reason:?} threshold {threshold}, got {ours:?} {:?}", result.error))
            }
        }
    }
}

/// Keys of `<k>_properties` that describe the call, not the reply.
const CALL_KEYS: [&str; 7] = [
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "finish_reason",
    "model",
    "sample_input",
    "sample_output",
];

/// Differences between the reference's reply properties and our details.
fn property_differences(
    properties: Option<&Map<String, Value>>,
    result: &EvalResult,
) -> Vec<String> {
    let mut differences = Vec::new();
    for (name, expected) in properties.into_iter().flatten() {
        if CALL_KEYS[..5].contains(&name.as_str()) {
            let ours = match name.as_str() {
                "model" | "finish_reason" => result.details.get(name).cloned(),
                _ => result.usage.map(|usage| {
                    Value::from(match name.as_str() {
                        "prompt_tokens" => usage.prompt_tokens,
                        "completion_tokens" => usage.completion_tokens,
                        _ => usage.total_tokens,
                    })
                }),
            };
            if ours.as_ref() != Some(expected) {
                differences.push(format!("{name}: reference {expected}, ours {ours:?}"));
            }
            continue;
        }
        if CALL_KEYS.contains(&name.as_str()) {
            continue;
        }
        let ours = result.details.get(name);
        let same = match (expected, ours) {
            (Value::Number(a), Some(Value::Number(b))) => a.as_f64() == b.as_f64(),
            (_, ours) => ours == Some(expected),
        };
        if !same {
            differences.push(format!("{name}: reference {expected}, ours {ours:?}"));
        }
    }
    differences
}

/// Which rule explains why the documented reading `doc` of a called case differs from the
/// reference's conclusion; `None` when nothing does.
fn explain(key: &str, case: &Value, doc: &Doc, reference: &Reference<'_>) -> Option<&'static str> {
    let binary = BINARY.contains(&key);
    let text = reply(case, 0).unwrap_or_default();
    let ours = json::parse_str(text).ok();
    let object = match &ours {
        Some(Value::Object(object)) => Some(object),
        _ => None,
    };
    let member = |name: &str| object.and_then(|object| object.get(name));
    if matches!(finish_reason(case), "length" | "content_filter") {
        return Some("J3");
    }
    if ours.is_none() && serde_json::from_str::<serde_json::Value>(text).is_ok() {
        return Some("J10");
    }
    match (doc, reference) {
        (Doc::Unparseable, _)
            if object.is_some()
                && matches!(member("score"), None | Some(Value::Null | Value::Bool(_))) =>
        {
            Some("J2")
        }
        (Doc::Unparseable, Reference::Scored { score, .. })
            if score.is_nan()
                || (binary && *score != 0.0 && *score != 1.0)
                || (!binary && !(1.0..=5.0).contains(score)) =>
        {
            Some("J1")
        }
        (Doc::Unparseable, Reference::Scored { .. }) => match &ours {
            Some(Value::String(inner)) if inner.trim_start().starts_with('{') => Some("J9"),
            Some(Value::String(_)) => Some("J5"),
            _ => None,
        },
        (Doc::Scored { .. }, Reference::Error(message))
            if binary
                && message.starts_with("Invalid score value")
                && matches!(member("score"), Some(Value::String(_))) =>
        {
            Some("J6")
        }
        (Doc::Scored { .. }, Reference::Crash(crash))
            if crash["message"]
                .as_str()
                .is_some_and(|message| message.contains("not supported between")) =>
        {
            Some("J11")
        }
        (Doc::Scored { .. }, _) if object.is_none() => Some("J5"),
        (Doc::Scored { score, .. }, Reference::Scored { score: theirs, .. })
            if score == theirs && !matches!(member("reason"), Some(Value::String(_))) =>
        {
            Some("J7")
        }
        (Doc::Skipped { .. }, Reference::NotApplicable { reason, .. })
            if reason == "Not applicable: " && object.is_some() && member("reason").is_none() =>
        {
            Some("J8")
        }
        _ => None,
    }
}

/// Whether the documented reading agrees with the reference (thresholds apart: see J4).
fn agrees(doc: &Doc, reference: &Reference<'_>) -> bool {
    match (doc, reference) {
        (
            Doc::Scored { score, reason, .. },
            Reference::Scored {
                score: theirs,
                reason: their_reason,
                ..
            },
        ) => score == theirs && Some(reason) == their_reason.as_ref(),
        (Doc::Skipped { reason }, Reference::NotApplicable { reason: theirs, .. }) => {
            theirs == &format!("Not applicable: {reason}")
        }
        (Doc::Unparseable, Reference::Unknown | Reference::Error(_) | Reference::Crash(_)) => true,
        _ => false,
    }
}

/// Checks one case; `Ok` with the rules it needed.
fn check_case(key: &str, case: &Value) -> Result<Vec<&'static str>, String> {
    let binary = BINARY.contains(&key);
    let reference = reference(key, case);
    let called = case["called"].as_bool().unwrap_or(false);
    let ours = run(key, case);
    let mut rules = Vec::new();
    if !called {
        return match (&reference, ours) {
            (Reference::Error(message), Ours::Judged { result, .. })
                if message.starts_with("Failed to parse function role prompt") =>
            {
                let doc = documented(reply(case, 0), finish_reason(case), binary);
                matches_documented(&result, &doc, our_threshold(case, binary), binary)?;
                Ok(vec!["J12"])
            }
            (Reference::Error(message), Ours::Early(result)) => match error_of(&result) {
                Some((
                    ErrorCode::EvaluatorError | ErrorCode::EvaluatorConfigurationError,
                    ours,
                )) if ours == *message => Ok(rules),
                other => Err(format!(
                    "expected error {message:?}, got {other:?} {:?}",
                    result.reason
                )),
            },
            (Reference::NotApplicable { reason, threshold }, Ours::Early(result)) => {
                if result.result != Verdict::Skipped
                    || result.reason.as_deref() != Some(reason.as_str())
                {
                    return Err(format!(
                        "expected skipped {reason:?}, got {:?} {:?} {:?}",
                        result.result, result.reason, result.error
                    ));
                }
                if result.threshold != Some(our_threshold(case, binary)) {
                    return Err(format!("threshold: ours {:?}", result.threshold));
                }
                if *threshold != our_threshold(case, binary) {
                    rules.push("J4");
                }
                Ok(rules)
            }
            (Reference::Crash(_), Ours::Config(_)) => Ok(rules),
            (Reference::Crash(_), Ours::Early(result)) if result.result == Verdict::Error => {
                Ok(rules)
            }
            (_, Ours::Config(message)) => Err(format!("options refused: {message}")),
            (_, Ours::Early(result)) => Err(format!(
                "unexpected early result {:?} {:?} {:?}",
                result.result, result.reason, result.error
            )),
            (_, Ours::Judged { .. }) => Err("the reference made no call; we did".to_owned()),
        };
    }
    let (calls, result) = match ours {
        Ours::Judged { calls, result } => (calls, result),
        Ours::Config(message) if matches!(reference, Reference::Crash(_)) => {
            let _ = message;
            return Ok(rules);
        }
        Ours::Config(message) => return Err(format!("options refused: {message}")),
        Ours::Early(result) => {
            return Err(format!(
                "the reference called the judge; we did not: {:?} {:?} {:?}",
                result.result, result.reason, result.error
            ))
        }
    };
    let expected_calls = case["prompt_inputs"].as_array().map_or(1, Vec::len);
    if calls != expected_calls {
        return Err(format!(
            "{calls} calls, the reference made {expected_calls}"
        ));
    }
    let doc = documented_turns(case, calls, binary);
    let threshold = our_threshold(case, binary);
    matches_documented(&result, &doc, threshold, binary)?;
    if !agrees(&doc, &reference) {
        match explain(key, case, &doc, &reference) {
            Some(rule) => rules.push(rule),
            None => return Err(format!("documented reading {doc:?} differs from the reference {reference:?} and no rule explains it")),
        }
    }
    match &reference {
        Reference::Scored {
            passed,
            threshold: theirs,
            properties,
            ..
        } if agrees(&doc, &reference) => {
            if (result.result == Verdict::Pass) != *passed {
                return Err(format!(
                    "verdict: reference passed={passed}, ours {:?}",
                    result.result
                ));
            }
            if *theirs != threshold {
                if binary {
                    rules.push("J4");
                } else {
                    return Err(format!("threshold: reference {theirs}, ours {threshold}"));
                }
            }
            if calls == 1 {
                let differences = property_differences(*properties, &result);
                if !differences.is_empty() {
                    let extras = differences.iter().all(|difference| {
                        difference.starts_with("tool_selection_accuracy")
                            || difference.starts_with("parameter_extraction_accuracy")
                    });
                    if !extras {
                        return Err(format!("properties: {differences:?}"));
                    }
                    rules.push("J11");
                }
            }
        }
        Reference::NotApplicable {
            threshold: theirs, ..
        } if *theirs != threshold && binary => {
            rules.push("J4");
        }
        _ => {}
    }
    Ok(rules)
}

#[test]
fn judges_match_the_reference_or_a_documented_deviation() {
    let mut cases = 0;
    let mut failures = Vec::new();
    let mut used: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for key in KEYS {
        let Some(document) = load(key) else {
            continue;
        };
        assert_eq!(document["result_key"], key);
        for case in document["cases"].as_array().expect("cases") {
            cases += 1;
            let name = case["name"].as_str().unwrap_or("?");
            match check_case(key, case) {
                Ok(rules) => {
                    for rule in rules {
                        used.entry(rule).or_default().push(format!("{key}: {name}"));
                    }
                }
                Err(why) => failures.push(format!("{key}: {name}: {why}")),
            }
        }
    }
    for (rule, names) in &used {
        eprintln!("{rule}: {} cases: {}", names.len(), names.join("; "));
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if sample_dir().is_some() {
        eprintln!("{cases} cases of the sample agree");
        return;
    }
    assert_eq!(cases, 1079, "every case of the 15 files is checked");
    let unused: Vec<&str> = RULES
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| !used.contains_key(id))
        .collect();
    assert!(unused.is_empty(), "rules no case needs: {unused:?}");
}

#[test]
fn the_readme_documents_every_rule() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/parity/README.md");
    let readme = std::fs::read_to_string(path).expect("README");
    for (id, _) in RULES {
        assert!(
            readme.contains(&format!("| {id} |")),
            "{id} is not in tests/parity/README.md"
        );
    }
}
