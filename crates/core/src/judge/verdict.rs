//! From a judge's answer to a result (spec §3, §6): the score checked against the evaluator's
//! scale, the pass rule applied, `status: "skipped"` replies made `skipped`, and every failure
//! (refusal, cut-off reply, no verdict, a score off the scale, a failed call) made an `error`
//! with its code. A judge failure never becomes a score.

use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

use super::reply::{read_verdict, Completion, JudgeReply};
use super::request::PromptId;
use crate::json::{Map, Value};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::{decimal, float_parse};

/// The scale a judge scores on, and so its pass rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// 1 to 5; passes at `score >= threshold`.
    Likert,
    /// 0 or 1; passes at 1.
    Binary,
}

impl Scale {
    /// Lowest and highest score.
    pub fn bounds(self) -> (f64, f64) {
        match self {
            Scale::Likert => (1.0, 5.0),
            Scale::Binary => (0.0, 1.0),
        }
    }
}

/// A figure some evaluators derive from the reply's `properties` (the reference's extras).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    /// Nothing more.
    None,
    /// `tool_selection_accuracy` = 100·correct / (correct + wrong) tool selections, 2 decimals.
    ToolSelectionAccuracy,
    /// `parameter_extraction_accuracy` = 100·correct / total parameters passed, 2 decimals.
    ParameterExtractionAccuracy,
}

/// How a reply becomes a result.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The judge's scale.
    pub scale: Scale,
    /// The threshold applied (and reported): the configured one on the Likert scale, 1 on the
    /// binary one.
    pub threshold: f64,
    /// A derived figure, if any.
    pub extra: Extra,
    /// For a judge that rates several dimensions in one reply (a rubric, a composite), what
    /// they are and how the result follows from their ratings, instead of the reply's `score`.
    pub dimensions: Option<Arc<dyn Dimensions>>,
}

/// How a judge family reads a reply that rates more than one `score` (a rubric's dimensions, a
/// composite's members, a template's range or labels, a Copilot Studio method's criteria, the
/// entailing hits of retrieved items). Each family implements it where it builds its prompt.
pub trait ReadsReply: Debug + PartialEq + Send + Sync + 'static {
    /// The result `label` gets from `reply`; `threshold` is the evaluator's configured one.
    fn read_reply(&self, label: &str, threshold: f64, reply: &JudgeReply) -> EvalResult;
}

/// A [`ReadsReply`] held behind a pointer: what a [`Reading`] keeps of its family.
pub trait Dimensions: Debug + Send + Sync {
    /// See [`ReadsReply::read_reply`].
    fn read_reply(&self, label: &str, threshold: f64, reply: &JudgeReply) -> EvalResult;
    /// The family's own value, for whoever knows its type.
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is the same family with the same settings.
    fn same_as(&self, other: &dyn Dimensions) -> bool;
}

impl<Family: ReadsReply> Dimensions for Family {
    fn read_reply(&self, label: &str, threshold: f64, reply: &JudgeReply) -> EvalResult {
        ReadsReply::read_reply(self, label, threshold, reply)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same_as(&self, other: &dyn Dimensions) -> bool {
        other
            .as_any()
            .downcast_ref::<Family>()
            .is_some_and(|other| other == self)
    }
}

impl PartialEq for dyn Dimensions {
    fn eq(&self, other: &Self) -> bool {
        self.same_as(other)
    }
}

/// Why a judge call gave no answer, as the result's error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgeFailure {
    /// The error code (`judgeTimeout`, `judgeRateLimited`, `judgeAuthenticationError`…).
    pub code: ErrorCode,
    /// What happened, without any credential.
    pub message: String,
}

impl Reading {
    /// The judge family's reading when it is a `Family`.
    pub fn family<Family: 'static>(&self) -> Option<&Family> {
        self.dimensions.as_deref()?.as_any().downcast_ref()
    }

    /// The result `label` gets from `answer`, the completion of a call with `prompt` (or the
    /// failure of that call).
    pub fn result(
        &self,
        label: &str,
        prompt: PromptId,
        answer: Result<&Completion, &JudgeFailure>,
    ) -> EvalResult {
        let completion = match answer {
            Ok(completion) => completion,
            Err(failure) => return EvalResult::error(label, failure.code, &failure.message),
        };
        let unparseable =
            |message: String| EvalResult::error(label, ErrorCode::JudgeOutputUnparseable, message);
        let result = match self.read(completion) {
            Err(message) => unparseable(message),
            Ok(reply) if reply.skipped => {
                let why = reply
                    .reason
                    .as_deref()
                    .unwrap_or("the judge found nothing to judge");
                let mut result = EvalResult::skipped(label, format!("Not applicable: {why}"));
                for (key, value) in reply.properties {
                    result.details.insert(key, value);
                }
                result
            }
            Ok(reply) => match &self.dimensions {
                Some(family) => family.read_reply(label, self.threshold, &reply),
                None => match score_on(reply.score.as_ref(), self.scale) {
                    Err(message) => unparseable(message),
                    Ok(score) => self.scored(label, score, reply),
                },
            },
        };
        with_call_details(result, prompt, completion)
    }

    fn read(&self, completion: &Completion) -> Result<JudgeReply, String> {
        if let Some(refusal) = &completion.refusal {
            return Err(format!("the judge refused to answer: {refusal}"));
        }
        match completion.finish_reason.as_deref() {
            Some("length") => {
                return Err(
                    "the judge's reply was cut off at its token limit (finish_reason \"length\")"
                        .to_owned(),
                )
            }
            Some("content_filter") => {
                return Err("the endpoint's content filter withheld the judge's reply".to_owned())
            }
            _ => {}
        }
        match completion.content.as_deref().map(str::trim) {
            None | Some("") => Err("the judge's reply is empty".to_owned()),
            Some(content) => read_verdict(content),
        }
    }

    fn scored(&self, label: &str, score: f64, reply: JudgeReply) -> EvalResult {
        let passed = match self.scale {
            Scale::Likert => score >= self.threshold,
            Scale::Binary => score == 1.0,
        };
        let mut result = EvalResult::scored(label, passed, score, self.threshold)
            .with_reason(reply.reason.unwrap_or_default());
        if let Some((key, value)) = self.extra_figure(&reply.properties) {
            result.details.insert(key, value);
        }
        for (key, value) in reply.properties {
            result.details.insert(key, value);
        }
        result
    }

    fn extra_figure(&self, properties: &Map<String, Value>) -> Option<(&'static str, f64)> {
        let count = |key: &str| properties.get(key).and_then(Value::as_f64);
        let (key, correct, total) = match self.extra {
            Extra::None => return None,
            Extra::ToolSelectionAccuracy => {
                let correct = count("correct_tool_selections")?;
                let wrong = count("wrong_tool_selections")?;
                ("tool_selection_accuracy", correct, correct + wrong)
            }
            Extra::ParameterExtractionAccuracy => (
                "parameter_extraction_accuracy",
                count("correct_parameters_passed")?,
                count("total_parameters_passed")?,
            ),
        };
        let share = if total == 0.0 {
            100.0
        } else {
            round2(100.0 * correct / total)
        };
        Some((key, share))
    }
}

/// `value` rounded to 2 decimals as Python's `round(value, 2)` does (correctly rounded).
fn round2(value: f64) -> f64 {
    float_parse::parse_f64(&decimal::fixed(value, 2)).unwrap_or(value)
}

/// The score a reply's `score` member gives on `scale`: a number or numeric text within the
/// bounds (exactly 0 or 1 on the binary scale).
///
/// # Errors
/// Why the member is no score on the scale.
pub fn score_on(member: Option<&Value>, scale: Scale) -> Result<f64, String> {
    let (low, high) = scale.bounds();
    let score = score_on_range(member, low, high)?;
    if scale == Scale::Binary && score != low && score != high {
        let shown = member.map(|value| value.to_string()).unwrap_or_default();
        return Err(format!("the judge's score {shown} is not 0 or 1"));
    }
    Ok(score)
}

/// The score a reply's `score` member gives on the range `low..=high`: a finite number or
/// numeric text within it.
///
/// # Errors
/// Why the member is no score on the range.
pub fn score_on_range(member: Option<&Value>, low: f64, high: f64) -> Result<f64, String> {
    let score = match member {
        None => return Err("the judge's reply has no score".to_owned()),
        Some(Value::Number(number)) => number.as_f64(),
        Some(Value::String(text)) => float_parse::parse_f64(text.trim()),
        Some(_) => None,
    };
    let shown = member.map(|value| value.to_string()).unwrap_or_default();
    match score {
        Some(score) if score.is_finite() && (low..=high).contains(&score) => Ok(score),
        Some(_) => Err(format!(
            "the judge's score {shown} is off its scale ({}-{})",
            decimal::plain(low),
            decimal::plain(high)
        )),
        None => Err(format!("the judge's score {shown} is not a number")),
    }
}

/// Adds what every judged result records of its call: the prompt's version, the model, the
/// finish reason and the token usage.
fn with_call_details(
    mut result: EvalResult,
    prompt: PromptId,
    completion: &Completion,
) -> EvalResult {
    result.details.insert("prompt_version", prompt.label());
    if let Some(model) = &completion.model {
        result.details.insert("model", model.as_str());
    }
    if let Some(finish_reason) = &completion.finish_reason {
        result
            .details
            .insert("finish_reason", finish_reason.as_str());
    }
    result.usage = Some(completion.usage);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::reply::Usage;
    use crate::outcome::Verdict;

    const PROMPT: PromptId = PromptId {
        name: "relevance",
        version: 1,
    };

    fn completion(content: &str) -> Completion {
        Completion {
            content: Some(content.to_owned()),
            refusal: None,
            finish_reason: Some("stop".into()),
            usage: Usage {
                prompt_tokens: 100,
                completion_tokens: 20,
                total_tokens: 120,
            },
            model: Some("gpt-4o".into()),
        }
    }

    fn likert(threshold: f64) -> Reading {
        Reading {
            scale: Scale::Likert,
            threshold,
            extra: Extra::None,
            dimensions: None,
        }
    }

    fn read(reading: Reading, content: &str) -> EvalResult {
        reading.result("relevance", PROMPT, Ok(&completion(content)))
    }

    fn code(result: &EvalResult) -> Option<ErrorCode> {
        result.error.as_ref().map(|error| error.code)
    }

    #[test]
    fn likert_scores_pass_at_the_threshold() {
        let pass = read(likert(3.0), r#"{"score": 3, "reason": "fine"}"#);
        assert_eq!(
            (pass.result, pass.score, pass.threshold),
            (Verdict::Pass, Some(3.0), Some(3.0))
        );
        assert_eq!(pass.reason.as_deref(), Some("fine"));
        assert_eq!(pass.details["prompt_version"], "relevance/v1");
        assert_eq!(pass.usage.map(|usage| usage.total_tokens), Some(120));
        let fail = read(likert(4.0), r#"{"score": "3.5"}"#);
        assert_eq!((fail.result, fail.score), (Verdict::Fail, Some(3.5)));
    }

    #[test]
    fn scores_off_the_scale_or_missing_are_errors_never_scores() {
        for content in [
            r#"{"score": 7}"#,
            r#"{"score": 0}"#,
            r#"{"score": null}"#,
            r#"{"score": true}"#,
            r#"{"score": "high"}"#,
            r#"{"reason": "no score"}"#,
            "not json",
        ] {
            let result = read(likert(3.0), content);
            assert_eq!(result.result, Verdict::Error, "{content}");
            assert_eq!(
                code(&result),
                Some(ErrorCode::JudgeOutputUnparseable),
                "{content}"
            );
            assert_eq!(result.score, None, "{content}");
        }
        let binary = Reading {
            scale: Scale::Binary,
            threshold: 1.0,
            extra: Extra::None,
            dimensions: None,
        };
        assert_eq!(
            read(binary.clone(), r#"{"score": 0.5}"#).result,
            Verdict::Error
        );
        assert_eq!(
            read(binary.clone(), r#"{"score": 2}"#).result,
            Verdict::Error
        );
        assert_eq!(
            read(binary.clone(), r#"{"score": 0}"#).result,
            Verdict::Fail
        );
        assert_eq!(
            read(binary.clone(), r#"{"score": "1"}"#).result,
            Verdict::Pass
        );
    }

    #[test]
    fn skipped_replies_are_not_applicable_with_the_judges_reason() {
        let result = read(
            likert(3.0),
            r#"{"status": "skipped", "score": null, "reason": "empty response", "properties": {"k": 1}}"#,
        );
        assert_eq!(result.result, Verdict::Skipped);
        assert_eq!(
            result.reason.as_deref(),
            Some("Not applicable: empty response")
        );
        assert_eq!(result.details["k"], 1);
    }

    #[test]
    fn refusals_cut_offs_and_failures_are_errors_with_their_codes() {
        let mut refused = completion("");
        refused.content = None;
        refused.refusal = Some("I can't".into());
        let result = likert(3.0).result("r", PROMPT, Ok(&refused));
        assert_eq!(code(&result), Some(ErrorCode::JudgeOutputUnparseable));
        assert!(result.error.unwrap().message.contains("I can't"));
        let mut cut = completion(r#"{"score": 4, "reas"#);
        cut.finish_reason = Some("length".into());
        let result = likert(3.0).result("r", PROMPT, Ok(&cut));
        assert!(result.error.unwrap().message.contains("token limit"));
        let failure = JudgeFailure {
            code: ErrorCode::JudgeTimeout,
            message: "no answer within 30 s".into(),
        };
        let result = likert(3.0).result("r", PROMPT, Err(&failure));
        assert_eq!(code(&result), Some(ErrorCode::JudgeTimeout));
        assert_eq!(result.usage, None);
    }

    #[test]
    fn tool_extras_follow_the_reference() {
        let reading = Reading {
            scale: Scale::Binary,
            threshold: 1.0,
            extra: Extra::ToolSelectionAccuracy,
            dimensions: None,
        };
        let result = read(
            reading.clone(),
            r#"{"score": 1, "properties": {"correct_tool_selections": 2, "wrong_tool_selections": 1}}"#,
        );
        assert_eq!(result.details["tool_selection_accuracy"], 66.67);
        let result = read(
            reading,
            r#"{"score": 0, "properties": {"correct_tool_selections": 0, "wrong_tool_selections": 0}}"#,
        );
        assert_eq!(result.details["tool_selection_accuracy"], 100.0);
    }
}
