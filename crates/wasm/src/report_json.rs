//! A run report that went through JavaScript, read from its JSON value back into the core's
//! report field by field. A field that does not fit is refused with its path and what was
//! expected (`items[2].results[0].result: expected one of "pass", "fail", "error", "skipped",
//! got "maybe"`); an entry's `review` is read and checked by the core (`review::read`), every
//! problem named (`items[2].review.overrides[0].verdict: expected "pass" or "fail", got "maybe"`).
//! `tool`, `summary` and `judge` are not read: the summary is recomputed from the
//! items; the judge's run figures stay with the run that made them.
//!
//! Written out rather than derived: serde's derived readers of these types were 20 KB of the
//! WebAssembly module.

use agenteval_core::exchange::Exchanges;
use agenteval_core::json::{Map, Value};
use agenteval_core::outcome::{ErrorCode, EvalError, EvalResult, Usage, Verdict};
use agenteval_core::report::{CaseOutcome, Dialect, RunReport};
use agenteval_core::review;
use agenteval_core::schema::got;
use agenteval_core::status::ItemStatus;
use agenteval_core::Details;

/// The core report that `value`, a run report's JSON, describes.
///
/// # Errors
/// `path: expected …, got …` for the first field that does not fit.
pub fn read(value: Value) -> Result<RunReport, String> {
    let mut root = Fields::of(value, "")?;
    let dialect = root.take("dialect", |value, path| {
        named(value, path, &Dialect::ALL, |dialect| dialect.as_str())
    })?;
    let items = root.take("items", |value, path| {
        elements(value, path, |item, path| outcome(item, &path))
    })?;
    let mut report = RunReport::new(dialect);
    for item in items {
        report.push(item);
    }
    Ok(report)
}

fn outcome(value: Value, path: &str) -> Result<CaseOutcome, String> {
    let mut fields = Fields::of(value, path)?;
    let index = fields.take("index", count)?;
    let turn = fields.take("turn", |value, path| optional(value, path, count))?;
    let status = fields.take("status", |value, path| {
        optional(value, path, |value, path| {
            named(value, path, &ItemStatus::ALL, |status| status.as_str())
        })
    })?;
    let results = fields.take("results", |value, path| {
        elements(value, path, |result, path| eval_result(result, &path))
    })?;
    let problem = fields.take_optional("problem", text)?;
    let review = fields.take_optional("review", |value, path| {
        review::read(&value, &results)
            .map(Box::new)
            .map_err(|problems| {
                problems
                    .iter()
                    .map(|problem| {
                        format!("{path}{}: {}", dotted(&problem.pointer), problem.message)
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            })
    })?;
    Ok(CaseOutcome {
        index,
        turn,
        status,
        results,
        problem,
        review: review.filter(|review| !review.is_empty()),
    })
}

/// A JSON pointer relative to a value (`/overrides/0/verdict`) as the path that follows the
/// value's own (`.overrides[0].verdict`).
pub fn dotted(pointer: &str) -> String {
    pointer
        .split('/')
        .skip(1)
        .map(|token| {
            let token = token.replace("~1", "/").replace("~0", "~");
            if !token.is_empty() && token.bytes().all(|byte| byte.is_ascii_digit()) {
                format!("[{token}]")
            } else {
                format!(".{token}")
            }
        })
        .collect()
}

fn eval_result(value: Value, path: &str) -> Result<EvalResult, String> {
    let mut fields = Fields::of(value, path)?;
    Ok(EvalResult {
        evaluator: fields.take("evaluator", text)?,
        result: fields.take("result", |value, path| {
            named(value, path, &Verdict::ALL, |verdict| verdict.as_str())
        })?,
        score: fields.take_optional("score", number)?,
        threshold: fields.take_optional("threshold", number)?,
        reason: fields.take_optional("reason", text)?,
        details: Details::from(fields.take_optional("details", object)?.unwrap_or_default()),
        error: fields.take_optional("error", |value, path| {
            let mut fields = Fields::of(value, path)?;
            Ok(EvalError {
                code: fields.take("code", |value, path| {
                    named(value, path, &ErrorCode::ALL, |code| code.as_str())
                })?,
                message: fields.take("message", text)?,
            })
        })?,
        usage: fields.take_optional("usage", |value, path| {
            let mut fields = Fields::of(value, path)?;
            let mut tokens = |key| fields.take(key, count).map(|count| count as u64);
            Ok(Usage {
                prompt_tokens: tokens("prompt_tokens")?,
                completion_tokens: tokens("completion_tokens")?,
                total_tokens: tokens("total_tokens")?,
            })
        })?,
        exchanges: Exchanges::default(),
    })
}

/// The members of an object being read, with the object's path for messages.
struct Fields<'p> {
    members: Map<String, Value>,
    path: &'p str,
}

impl<'p> Fields<'p> {
    fn of(value: Value, path: &'p str) -> Result<Self, String> {
        match value {
            Value::Object(members) => Ok(Fields { members, path }),
            other => Err(misfit(path, "an object", &other)),
        }
    }

    fn child(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// Reads the required member `key`.
    fn take<T>(
        &mut self,
        key: &str,
        read: impl FnOnce(Value, &str) -> Result<T, String>,
    ) -> Result<T, String> {
        let path = self.child(key);
        match self.members.shift_remove(key) {
            Some(value) => read(value, &path),
            None => Err(format!("{path}: required")),
        }
    }

    /// Reads the member `key`, which may be missing or `null`.
    fn take_optional<T>(
        &mut self,
        key: &str,
        read: impl FnOnce(Value, &str) -> Result<T, String>,
    ) -> Result<Option<T>, String> {
        let path = self.child(key);
        match self.members.shift_remove(key) {
            Some(value) => optional(value, &path, read),
            None => Ok(None),
        }
    }
}

fn misfit(path: &str, expected: &str, value: &Value) -> String {
    let at = if path.is_empty() { "" } else { ": " };
    format!("{path}{at}expected {expected}, {}", got(value))
}

fn optional<T>(
    value: Value,
    path: &str,
    read: impl FnOnce(Value, &str) -> Result<T, String>,
) -> Result<Option<T>, String> {
    match value {
        Value::Null => Ok(None),
        value => read(value, path).map(Some),
    }
}

fn elements<T>(
    value: Value,
    path: &str,
    mut read: impl FnMut(Value, String) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    match value {
        Value::Array(values) => values
            .into_iter()
            .enumerate()
            .map(|(index, value)| read(value, format!("{path}[{index}]")))
            .collect(),
        other => Err(misfit(path, "an array", &other)),
    }
}

fn named<T: Copy>(
    value: Value,
    path: &str,
    choices: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<T, String> {
    let found = value
        .as_str()
        .and_then(|text| choices.iter().copied().find(|choice| name(*choice) == text));
    found.ok_or_else(|| {
        let names: Vec<String> = choices
            .iter()
            .map(|choice| format!("\"{}\"", name(*choice)))
            .collect();
        misfit(path, &format!("one of {}", names.join(", ")), &value)
    })
}

fn count(value: Value, path: &str) -> Result<usize, String> {
    value
        .as_u64()
        .and_then(|count| usize::try_from(count).ok())
        .ok_or_else(|| misfit(path, "a non-negative integer", &value))
}

fn number(value: Value, path: &str) -> Result<f64, String> {
    value
        .as_f64()
        .ok_or_else(|| misfit(path, "a number", &value))
}

fn text(value: Value, path: &str) -> Result<String, String> {
    match value {
        Value::String(text) => Ok(text),
        other => Err(misfit(path, "a string", &other)),
    }
}

fn object(value: Value, path: &str) -> Result<Map<String, Value>, String> {
    match value {
        Value::Object(members) => Ok(members),
        other => Err(misfit(path, "an object", &other)),
    }
}

#[cfg(test)]
mod tests {
    use agenteval_core::json;

    use super::*;

    fn report_with_result(result: Value) -> Value {
        json!({
            "tool": {"name": "agenteval", "version": "0"},
            "dialect": "m365",
            "summary": {},
            "items": [{"index": 0, "turn": null, "status": "fail", "results": [result]}],
        })
    }

    #[test]
    fn reads_every_field_of_a_result() {
        let report = read(report_with_result(json!({
            "evaluator": "PartialMatch",
            "result": "error",
            "score": 0.5,
            "threshold": 1,
            "reason": "why",
            "details": {"k": [1]},
            "error": {"code": "evaluatorError", "message": "bad"},
        })))
        .expect("a valid report");
        assert_eq!(report.dialect, Dialect::M365);
        let outcome = &report.items[0];
        assert_eq!(
            (outcome.index, outcome.turn, outcome.status),
            (0, None, Some(ItemStatus::Fail))
        );
        let result = &outcome.results[0];
        assert_eq!(result.evaluator, "PartialMatch");
        assert_eq!(result.result, Verdict::Error);
        assert_eq!((result.score, result.threshold), (Some(0.5), Some(1.0)));
        assert_eq!(result.reason.as_deref(), Some("why"));
        assert_eq!(
            result.error,
            Some(EvalError {
                code: ErrorCode::EvaluatorError,
                message: "bad".to_owned()
            })
        );
        assert_eq!(report.summary.items, 1);
    }

    fn report_with_review(review: Value) -> Value {
        json!({
            "dialect": "m365",
            "items": [{"index": 0, "turn": null, "status": "fail", "review": review,
                "results": [{"evaluator": "PartialMatch", "result": "fail"}]}],
        })
    }

    #[test]
    fn a_review_is_read_beside_the_results_and_a_wrong_one_named_by_its_path() {
        let report = read(report_with_review(
            json!({"needs_review": true, "overrides": [
            {"evaluator": "PartialMatch", "verdict": "pass", "comment": "same meaning"}]}),
        ))
        .expect("a valid review");
        let review = report.items[0].review.as_deref().expect("the review");
        assert_eq!(review.overrides[0].comment, "same meaning");
        assert_eq!(report.items[0].results[0].result, Verdict::Fail);
        assert_eq!(report.summary.review.overridden, 1);
        let wrong = read(report_with_review(json!({"overrides": [
            {"evaluator": "PartialMatch", "verdict": "maybe", "comment": "c"},
            {"evaluator": "Nope", "verdict": "fail", "comment": "c"}]})));
        assert_eq!(
            wrong.unwrap_err(),
            "items[0].review.overrides[0].verdict: expected \"pass\" or \"fail\", got \"maybe\"; items[0].review.overrides[1].evaluator: the entry has no result of `Nope` to override (it has PartialMatch)"
        );
        let empty = read(report_with_review(json!({"needs_review": false}))).unwrap();
        assert_eq!(empty.items[0].review, None);
    }

    #[test]
    fn optional_fields_may_be_missing_or_null() {
        let report = read(report_with_result(
            json!({"evaluator": "X", "result": "skipped", "score": null}),
        ))
        .expect("a valid report");
        let result = &report.items[0].results[0];
        assert_eq!(
            (
                result.score,
                result.threshold,
                &result.reason,
                &result.error
            ),
            (None, None, &None, &None)
        );
    }

    #[test]
    fn a_misfit_names_its_path_and_what_was_expected() {
        let cases = [
            (json!([]), "expected an object, got an array"),
            (json!({"items": []}), "dialect: required"),
            (
                json!({"dialect": "csv", "items": []}),
                "dialect: expected one of \"m365\", \"foundry\", \"copilot_studio\", got \"csv\"",
            ),
            (
                json!({"dialect": "m365", "items": [{"index": -1, "results": []}]}),
                "items[0].index: expected a non-negative integer, got an integer (-1)",
            ),
            (
                report_with_result(json!({"evaluator": "X", "result": "maybe"})),
                "items[0].results[0].result: expected one of \"pass\", \"fail\", \"error\", \"skipped\", got \"maybe\"",
            ),
            (
                report_with_result(json!({"evaluator": "X", "result": "pass", "score": "1"})),
                "items[0].results[0].score: expected a number, got \"1\"",
            ),
            (
                report_with_result(json!({"evaluator": "X", "result": "error", "error": {"code": "oops", "message": ""}})),
                "items[0].results[0].error.code: expected one of \"emptyAgentResponse\", \"judgeOutputUnparseable\", \"judgeAuthenticationError\", \"judgeRateLimited\", \"judgeTimeout\", \"evaluatorConfigurationError\", \"evaluatorLoadError\", \"invalidEvaluatorResult\", \"evaluatorError\", \"toolCallEvidenceIndeterminate\", \"invalidStoredResult\", got \"oops\"",
            ),
        ];
        for (value, message) in cases {
            assert_eq!(read(value).err().as_deref(), Some(message));
        }
    }
}
