//! The results JSON older runevals releases (1.2.x–1.3.x) wrote, read into report entries:
//! `{"individual_results": [{prompt, response, expected_response, results}], "aggregate_statistics": {…}}`.
//!
//! Each of `results`' members is one evaluator, `<name>_score`, its value the evaluator's output
//! as JSON text (or, read as leniently, an object). Two key families share that output: runevals'
//! own (`score`, `result`, `threshold`, `reason`) and azure-ai-evaluation's, prefixed with the
//! name (`relevance`, `relevance_result`, `relevance_threshold`, `relevance_reason`). Where both
//! are present runevals' own decide, as they decided its `aggregate_statistics` (a Groundedness
//! scored 3.0 is `result: "fail"` at runevals' `threshold: 4` and `groundedness_result: "pass"`
//! at the evaluator's own 3):
//!
//! | runevals | report |
//! |---|---|
//! | `individual_results[i]` | entry `index` i, `turn` null; its status derived from its results (M365 rules; a blank `response` is `error`) |
//! | `<name>_score` | the evaluator: the built-in called `<name>` or its PascalCase (`partial_match` → `PartialMatch`, `tool_call_accuracy` → `ToolCallAccuracy`), else `<name>` |
//! | `score`, else `<name>` | `score`, when a number; `"not applicable"` makes the result `skipped` |
//! | `result`, else `<name>_result` | `pass` or `fail` (required, any case) |
//! | `threshold`, else `<name>_threshold` | `threshold`, when a number |
//! | `reason`, else `<name>_reason` | `reason`, when a string |
//! | `error`, else `<name>_error` (not null) | an `error` result, code `evaluatorError`, with that message |
//! | every other member (`gpt_relevance`, `citation_format`, the unused family's keys, `details`…) | the result's details, in stored order |
//!
//! `prompt`, `response` and `expected_response` are not part of a report; `aggregate_statistics`
//! is not read, since the summary is recomputed (its `pass_rate` is a percentage, ours a
//! fraction).

use crate::diagnostic::push_pointer;
use crate::evaluators;
use crate::json::{self, Map, Value};
use crate::outcome::{ErrorCode, EvalResult, Verdict};
use crate::report::CaseOutcome;
use crate::schema::got;
use crate::status::item_status;
use crate::Details;

use super::{invalid_result, unreadable};

/// The score runevals writes for an evaluator that did not apply.
const NOT_APPLICABLE: &str = "not applicable";

/// The entries of `individual_results`, in order.
pub(super) fn read(entries: Vec<Value>) -> Vec<CaseOutcome> {
    entries
        .into_iter()
        .enumerate()
        .map(|(index, entry)| read_entry(index, entry))
        .collect()
}

/// The schema version of the documents [`rescore_document`] writes.
const RESCORE_SCHEMA_VERSION: &str = "1.11.0";

/// The M365 eval document that scores runevals results again, called `name, scored again`: for
/// each result its prompt, response and expected response, with the evaluators it was scored
/// with at the thresholds it used (`evaluators_mode: "replace"`). `None` when `value` is no
/// runevals results (an object with an `individual_results` array).
pub fn rescore_document(value: &Value, name: &str) -> Option<Value> {
    let entries = value.get("individual_results")?.as_array()?;
    let outcomes = read(entries.clone());
    let items = entries
        .iter()
        .zip(&outcomes)
        .map(|(entry, outcome)| {
            let mut evaluators = Map::new();
            for result in &outcome.results {
                let mut options = Map::new();
                if let Some(threshold) = result.threshold.filter(|threshold| threshold.is_finite())
                {
                    options.insert("threshold".to_owned(), Value::from(threshold));
                }
                evaluators.insert(result.evaluator.clone(), Value::Object(options));
            }
            let mut item = Map::new();
            let prompt = match entry.get("prompt") {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(text)) => text.clone(),
                Some(other) => other.to_string(),
            };
            item.insert("prompt".to_owned(), Value::String(prompt));
            item.insert("evaluators".to_owned(), Value::Object(evaluators));
            item.insert("evaluators_mode".to_owned(), Value::from("replace"));
            for field in ["response", "expected_response"] {
                if let Some(Value::String(text)) = entry.get(field) {
                    item.insert(field.to_owned(), Value::String(text.clone()));
                }
            }
            Value::Object(item)
        })
        .collect();
    let mut metadata = Map::new();
    metadata.insert(
        "name".to_owned(),
        Value::String(format!("{name}, scored again")),
    );
    let mut document = Map::new();
    document.insert(
        "schemaVersion".to_owned(),
        Value::from(RESCORE_SCHEMA_VERSION),
    );
    document.insert("metadata".to_owned(), Value::Object(metadata));
    document.insert("items".to_owned(), Value::Array(items));
    Some(Value::Object(document))
}

fn read_entry(index: usize, entry: Value) -> CaseOutcome {
    let pointer = format!("/individual_results/{index}");
    let Value::Object(mut fields) = entry else {
        let problem = format!("at {pointer}: expected a result object, {}", got(&entry));
        return unreadable(index, None, problem);
    };
    let results = match fields.shift_remove("results") {
        Some(Value::Object(results)) => results,
        found => {
            let found = found.map_or_else(|| "it has none".to_owned(), |value| got(&value));
            let problem = format!(
                "at {pointer}/results: expected an object of `<evaluator>_score` results, {found}"
            );
            return unreadable(index, None, problem);
        }
    };
    let results_pointer = format!("{pointer}/results");
    let results: Vec<EvalResult> = results
        .into_iter()
        .map(|(key, value)| read_result(&key, value, &push_pointer(&results_pointer, &key)))
        .collect();
    let has_response = fields
        .get("response")
        .and_then(Value::as_str)
        .is_some_and(|response| !response.trim().is_empty());
    CaseOutcome {
        index,
        turn: None,
        status: item_status(&results, has_response),
        results,
        problem: None,
        review: None,
    }
}

/// The evaluator a `<name>_score` key stands for.
fn evaluator_name(name: &str) -> String {
    if evaluators::find(name).is_some() {
        return name.to_owned();
    }
    // NOTE: ASCII only: built-in names are ASCII, and `char::to_uppercase` would add Unicode's
    // case tables (15 KB) to the WebAssembly module.
    let mut pascal = String::with_capacity(name.len());
    for word in name.split('_') {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            pascal.push(first.to_ascii_uppercase());
            pascal.extend(chars);
        }
    }
    match evaluators::find(&pascal) {
        Some(spec) => spec.name.to_owned(),
        None => name.to_owned(),
    }
}

fn read_result(key: &str, value: Value, pointer: &str) -> EvalResult {
    let name = key.strip_suffix("_score").unwrap_or(key);
    let evaluator = evaluator_name(name);
    let output = match value {
        Value::Object(output) => output,
        Value::String(text) => match json::parse_str(&text) {
            Ok(Value::Object(output)) => output,
            Ok(other) => {
                let expected = format!(
                    "expected an evaluator's output object as JSON text, {}",
                    got(&other)
                );
                return invalid_result(&evaluator, pointer, &expected, Value::String(text));
            }
            Err(syntax) => {
                let expected = format!(
                    "expected an evaluator's output object as JSON text ({})",
                    syntax.describe()
                );
                return invalid_result(&evaluator, pointer, &expected, Value::String(text));
            }
        },
        other => {
            let expected = format!(
                "expected an evaluator's output object, or its JSON text, {}",
                got(&other)
            );
            return invalid_result(&evaluator, pointer, &expected, other);
        }
    };
    Output {
        members: output,
        name,
    }
    .into_result(&evaluator, pointer)
}

/// One evaluator's output, its members taken out as they are mapped; what is left are details.
struct Output<'n> {
    members: Map<String, Value>,
    name: &'n str,
}

impl Output<'_> {
    /// The key of a field: `own` (runevals') when present, else the evaluator's (`<name>_<field>`,
    /// or `<name>` itself for the score).
    fn key(&self, own: &str) -> Option<String> {
        if self.members.contains_key(own) {
            return Some(own.to_owned());
        }
        let prefixed = if own == "score" {
            self.name.to_owned()
        } else {
            format!("{}_{own}", self.name)
        };
        self.members.contains_key(&prefixed).then_some(prefixed)
    }

    /// The field `own` when `read` accepts its value, taken out of the members; otherwise it stays
    /// (and becomes a detail).
    fn take<T>(&mut self, own: &str, read: impl FnOnce(&Value) -> Option<T>) -> Option<T> {
        let key = self.key(own)?;
        let value = read(self.members.get(&key)?)?;
        self.members.shift_remove(&key);
        Some(value)
    }

    fn into_result(mut self, evaluator: &str, pointer: &str) -> EvalResult {
        if let Some(message) = self.take("error", error_message) {
            let result = EvalResult::error(evaluator, ErrorCode::EvaluatorError, message);
            return self.with_details(result);
        }
        let not_applicable = self.key("score").is_some_and(|key| {
            self.members
                .get(&key)
                .and_then(Value::as_str)
                .is_some_and(|score| score.trim().eq_ignore_ascii_case(NOT_APPLICABLE))
        });
        if not_applicable {
            self.take("score", |_| Some(()));
            let reason = self
                .take("reason", |value| value.as_str().map(str::to_owned))
                .unwrap_or_else(|| NOT_APPLICABLE.to_owned());
            return self.with_details(EvalResult::skipped(evaluator, reason));
        }
        let verdict = self.take("result", |value| {
            let text = value.as_str()?.trim();
            [Verdict::Pass, Verdict::Fail]
                .into_iter()
                .find(|verdict| text.eq_ignore_ascii_case(verdict.as_str()))
        });
        let Some(verdict) = verdict else {
            let found = self
                .key("result")
                .and_then(|key| self.members.get(&key))
                .map_or_else(|| "it has none".to_owned(), got);
            let expected = format!(
                "expected `result` or `{}_result`, \"pass\" or \"fail\", {found}",
                self.name
            );
            return invalid_result(evaluator, pointer, &expected, Value::Object(self.members));
        };
        let mut result = EvalResult::verdict(evaluator, verdict == Verdict::Pass);
        result.score = self.take("score", Value::as_f64);
        result.threshold = self.take("threshold", Value::as_f64);
        result.reason = self.take("reason", |value| value.as_str().map(str::to_owned));
        self.with_details(result)
    }

    fn with_details(self, mut result: EvalResult) -> EvalResult {
        result.details = Details::from(self.members);
        result
    }
}

/// The message of a stored error: its text, or its JSON; `None` for `null`.
fn error_message(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(text) => Some(text.clone()),
        other => Some(other.to_string()),
    }
}
