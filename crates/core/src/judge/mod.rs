//! LLM judges (spec §6), without IO: endpoints, request rendering, reply reading, verdicts, the
//! scheduler of calls (concurrency, retries, time-outs, cancellation, cache) and the run that
//! drives a scoring session through it. Runtimes supply the seams in [`http`]: a transport, a
//! clock, credentials and, optionally, a persistent [`cache::Store`].

mod backoff;
pub mod cache;
pub mod cancel;
pub mod endpoint;
pub mod http;
mod limiter;
pub mod redirect;
pub mod reply;
pub mod request;
pub mod schedule;
pub mod settings;
#[cfg(test)]
pub(crate) mod testing;
pub mod verdict;

pub use cache::{MemoryCache, Store};
pub use cancel::Cancel;
pub use endpoint::{Endpoint, EndpointError, EndpointKind};
pub use http::{
    Clock, Credential, Credentials, FixedCredential, HttpRequest, HttpResponse, LocalFuture,
    Method, Transport, TransportError,
};
pub use reply::{Completion, Usage};
pub use request::{ChatMessage, JudgeRequest, ModelParams, Operation, PromptId, Role};
pub use schedule::{Answer, CallError, CallStats, Exchange, Policy, Scheduler};
pub use settings::{JudgeSettings, Setting, SettingError};
pub use verdict::{Dimensions, Extra, JudgeFailure, Reading, ReadsReply, Scale};

use crate::json::Value;
use crate::outcome::{ErrorCode, EvalResult, Verdict};

/// A judge call an evaluator asks for: the request, and how its answer becomes the result.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeCall {
    /// The label the result carries.
    pub label: String,
    /// The rendered request (of a conversation, its first judged turn's).
    pub request: JudgeRequest,
    /// How the reply is read.
    pub reading: Reading,
    /// A multi-turn conversation's turns in order, judged one by one and combined by
    /// [`JudgeCall::combine`]; empty for a single call, which is [`JudgeCall::request`].
    pub turns: Vec<TurnCall>,
    /// Details the call's pass or fail carries beside the judge's (`warning`: a tool the judge
    /// supports only in part; `evaluation_level`: what was judged).
    pub notes: Vec<(&'static str, crate::json::Value)>,
}

/// One turn of a multi-turn judge call.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnCall {
    /// A request to judge.
    Judged(JudgeRequest),
    /// The result the turn reached without a call (an intermediate response).
    Early(Box<EvalResult>),
}

impl JudgeCall {
    /// The requests to send: [`JudgeCall::request`] alone, or each judged turn's.
    pub fn requests(&self) -> Vec<&JudgeRequest> {
        if self.turns.is_empty() {
            return vec![&self.request];
        }
        self.turns
            .iter()
            .filter_map(|turn| match turn {
                TurnCall::Judged(request) => Some(request),
                TurnCall::Early(_) => None,
            })
            .collect()
    }

    /// The call's result from the results of [`JudgeCall::requests`], in order (early turns
    /// taking their place). A single call's result is its request's.
    pub fn combine(&self, judged: Vec<EvalResult>) -> EvalResult {
        if self.turns.is_empty() {
            return judged.into_iter().next().map_or_else(
                || {
                    EvalResult::error(
                        &self.label,
                        ErrorCode::EvaluatorError,
                        "no judge result was supplied for this call",
                    )
                },
                |result| self.with_threshold(result),
            );
        }
        let mut judged = judged.into_iter();
        let per_turn: Vec<EvalResult> = self
            .turns
            .iter()
            .map(|turn| match turn {
                TurnCall::Early(result) => (**result).clone(),
                TurnCall::Judged(_) => judged.next().unwrap_or_else(|| {
                    EvalResult::error(
                        &self.label,
                        ErrorCode::EvaluatorError,
                        "no judge result was supplied for this turn",
                    )
                }),
            })
            .map(|result| self.with_threshold(result))
            .collect();
        combine_turns(&self.label, per_turn)
    }

    /// A judge's not-applicable answer carries the threshold, as the ones reached without a call
    /// do (the reference reports it on every result).
    fn with_threshold(&self, mut result: EvalResult) -> EvalResult {
        if result.result == Verdict::Skipped && result.threshold.is_none() {
            result.threshold = Some(self.reading.threshold);
        }
        result
    }
}

/// A conversation's result from its turns' (spec §6, after azure-ai-evaluation's
/// `_aggregate_results`): the first error when a turn failed (the reference stops there); when
/// every turn was scored, the mean score with the last turn's verdict, reason and threshold (the
/// reference averages numeric keys and takes the others from the last turn); otherwise the last
/// turn's result. `score_per_turn` lists the turns' scores (`null` where none); token usage adds up.
pub fn combine_turns(label: &str, turns: Vec<EvalResult>) -> EvalResult {
    let Some(last) = turns.last() else {
        return EvalResult::error(
            label,
            ErrorCode::EvaluatorError,
            "the conversation has no turn to evaluate",
        );
    };
    if let Some(failed) = turns.iter().find(|turn| turn.result == Verdict::Error) {
        let mut failed = failed.clone();
        failed.evaluator = label.to_owned();
        return failed;
    }
    let scores: Vec<Option<f64>> = turns.iter().map(|turn| turn.score).collect();
    let mut combined = last.clone();
    combined.evaluator = label.to_owned();
    if let Some(all) = scores.iter().copied().collect::<Option<Vec<f64>>>() {
        combined.score = Some(all.iter().sum::<f64>() / all.len() as f64);
    }
    let mut usage: Option<Usage> = None;
    for turn in &turns {
        if let Some(tokens) = turn.usage {
            usage.get_or_insert_with(Usage::default).add(tokens);
        }
    }
    combined.usage = usage;
    combined.details.insert("turns", turns.len() as u64);
    combined.details.insert(
        "score_per_turn",
        Value::Array(scores.into_iter().map(Value::from).collect()),
    );
    combined
}

/// The reason judged results carry when the run was cancelled before their call ended.
pub const CANCELLED_REASON: &str = "cancelled: the run was stopped before the judge answered";

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(score: f64, passed: bool, reason: &str) -> EvalResult {
        let mut result = EvalResult::scored("x", passed, score, 3.0).with_reason(reason);
        result.usage = Some(Usage {
            prompt_tokens: 100,
            completion_tokens: 20,
            total_tokens: 120,
        });
        result
    }

    #[test]
    fn conversations_average_the_scores_and_keep_the_last_verdict() {
        let combined = combine_turns(
            "c",
            vec![scored(5.0, true, "first"), scored(2.0, false, "second")],
        );
        assert_eq!(combined.evaluator, "c");
        assert_eq!(combined.score, Some(3.5));
        assert_eq!(
            combined.result,
            Verdict::Fail,
            "the reference's last-turn verdict"
        );
        assert_eq!(combined.reason.as_deref(), Some("second"));
        assert_eq!(combined.threshold, Some(3.0));
        assert_eq!(combined.usage.map(|usage| usage.total_tokens), Some(240));
        assert_eq!(
            combined.details.get("score_per_turn"),
            Some(&crate::json!([5.0, 2.0]))
        );
    }

    #[test]
    fn a_failed_turn_fails_the_conversation_and_a_skipped_one_keeps_the_last_result() {
        let failed = EvalResult::error("x", ErrorCode::JudgeOutputUnparseable, "no score");
        let combined = combine_turns("c", vec![scored(4.0, true, "ok"), failed]);
        assert_eq!(
            combined.error.map(|error| error.code),
            Some(ErrorCode::JudgeOutputUnparseable)
        );
        let skipped = EvalResult::skipped("x", "Not applicable: skip");
        let combined = combine_turns("c", vec![scored(3.0, true, "ok"), skipped]);
        assert_eq!(combined.result, Verdict::Skipped);
        assert_eq!(combined.reason.as_deref(), Some("Not applicable: skip"));
        let early_first = combine_turns(
            "c",
            vec![
                EvalResult::skipped("x", "Not applicable: early"),
                scored(2.0, false, "late"),
            ],
        );
        assert_eq!(
            (early_first.score, early_first.result),
            (Some(2.0), Verdict::Fail)
        );
        assert_eq!(combine_turns("c", Vec::new()).result, Verdict::Error);
    }
}
