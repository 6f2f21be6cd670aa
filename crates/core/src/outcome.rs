//! Outcomes of one evaluator on one item or turn: the verdict, the score and why.
//!
//! Outcomes are data. A judge failure or bad evaluator input is an `error` result carrying a code,
//! never an exception and never a made-up score.

use crate::json::Value;
use serde::Serialize;

use crate::details::Details;
use crate::exchange::Exchanges;

/// The four ways an evaluator can end on an item.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The evaluator ran and the item met its pass rule.
    Pass,
    /// The evaluator ran and the item did not meet its pass rule.
    Fail,
    /// The evaluator could not produce a verdict; see [`EvalError::code`].
    Error,
    /// The evaluator did not run (not applicable, or needs a judge that is not configured).
    Skipped,
}

impl Verdict {
    /// Every verdict, in the order of the variants.
    pub const ALL: [Verdict; 4] = [
        Verdict::Pass,
        Verdict::Fail,
        Verdict::Error,
        Verdict::Skipped,
    ];

    /// The lower-case name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Error => "error",
            Verdict::Skipped => "skipped",
        }
    }

    /// `Pass` when `passed`, else `Fail`.
    pub fn from_pass(passed: bool) -> Self {
        if passed {
            Verdict::Pass
        } else {
            Verdict::Fail
        }
    }
}

/// Why an evaluator errored. The names follow the M365 eval-document schema (1.9+). Declared to
/// TypeScript as `ResultErrorCode`, apart from the codes of the package's own errors.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "ResultErrorCode"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ErrorCode {
    /// The agent's response is missing, empty or whitespace only.
    EmptyAgentResponse,
    /// The judge replied with something that is not a valid verdict.
    JudgeOutputUnparseable,
    /// The judge endpoint refused the credentials.
    JudgeAuthenticationError,
    /// The judge endpoint rate-limited the request.
    JudgeRateLimited,
    /// The judge endpoint did not answer in time.
    JudgeTimeout,
    /// The evaluator's options, or the inputs the item gives it, are invalid.
    EvaluatorConfigurationError,
    /// The evaluator name is neither built in nor supplied as a custom evaluator.
    EvaluatorLoadError,
    /// A custom evaluator returned a result that is not valid.
    InvalidEvaluatorResult,
    /// The evaluator rejected its input (the reference tools' validation messages).
    EvaluatorError,
    /// `diagnostics.tool_calls` evidence is `null`, so no verdict is possible.
    ToolCallEvidenceIndeterminate,
    /// A result read from an already-scored dataset is malformed (agenteval's own code, not in
    /// the M365 schema: [`ErrorCode::in_m365_schema`]).
    InvalidStoredResult,
}

impl ErrorCode {
    /// Every code, in the order of the variants.
    pub const ALL: [ErrorCode; 11] = [
        ErrorCode::EmptyAgentResponse,
        ErrorCode::JudgeOutputUnparseable,
        ErrorCode::JudgeAuthenticationError,
        ErrorCode::JudgeRateLimited,
        ErrorCode::JudgeTimeout,
        ErrorCode::EvaluatorConfigurationError,
        ErrorCode::EvaluatorLoadError,
        ErrorCode::InvalidEvaluatorResult,
        ErrorCode::EvaluatorError,
        ErrorCode::ToolCallEvidenceIndeterminate,
        ErrorCode::InvalidStoredResult,
    ];

    /// The camelCase code as written in outputs.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::EmptyAgentResponse => "emptyAgentResponse",
            ErrorCode::JudgeOutputUnparseable => "judgeOutputUnparseable",
            ErrorCode::JudgeAuthenticationError => "judgeAuthenticationError",
            ErrorCode::JudgeRateLimited => "judgeRateLimited",
            ErrorCode::JudgeTimeout => "judgeTimeout",
            ErrorCode::EvaluatorConfigurationError => "evaluatorConfigurationError",
            ErrorCode::EvaluatorLoadError => "evaluatorLoadError",
            ErrorCode::InvalidEvaluatorResult => "invalidEvaluatorResult",
            ErrorCode::EvaluatorError => "evaluatorError",
            ErrorCode::ToolCallEvidenceIndeterminate => "toolCallEvidenceIndeterminate",
            ErrorCode::InvalidStoredResult => "invalidStoredResult",
        }
    }

    /// Whether the M365 schema (1.9+) lists the code for an ErroredScore's `code`.
    pub fn in_m365_schema(self) -> bool {
        self != ErrorCode::InvalidStoredResult
    }
}

/// The code and human-readable message of an errored evaluator.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalError {
    /// Machine-readable reason.
    #[cfg_attr(feature = "typescript", tsify(type = "ResultErrorCode"))]
    pub code: ErrorCode,
    /// What went wrong, naming the option or input concerned.
    pub message: String,
}

/// What one evaluator concluded about one item or turn.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalResult {
    /// The evaluator's name as written in the dataset (`PartialMatch`, `builtin.f1_score`, a criterion name…).
    pub evaluator: String,
    /// The verdict.
    pub result: Verdict,
    /// The numeric score, when the evaluator has one.
    pub score: Option<f64>,
    /// The threshold actually applied, when the evaluator has one.
    pub threshold: Option<f64>,
    /// Why the verdict was reached; for `skipped`, why the evaluator did not run.
    pub reason: Option<String>,
    /// Evaluator-specific fields (the M365 score shape's extra keys, or the Foundry `_properties`).
    #[cfg_attr(feature = "typescript", tsify(type = "JsonObject"))]
    pub details: Details,
    /// Set exactly when `result` is [`Verdict::Error`].
    pub error: Option<EvalError>,
    /// Tokens of the judge call behind the result (judged evaluators only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub usage: Option<Usage>,
    /// The judge calls behind the result (judged evaluators only), for an item view; never
    /// serialized, so no output carries them.
    #[serde(skip)]
    pub exchanges: Exchanges,
}

impl EvalResult {
    /// A pass or fail verdict with a score and threshold.
    pub fn scored(evaluator: &str, passed: bool, score: f64, threshold: f64) -> Self {
        EvalResult {
            evaluator: evaluator.to_owned(),
            result: Verdict::from_pass(passed),
            score: Some(score),
            threshold: Some(threshold),
            reason: None,
            details: Details::new(),
            error: None,
            usage: None,
            exchanges: Exchanges::default(),
        }
    }

    /// A pass or fail verdict without a score (ExactMatch).
    pub fn verdict(evaluator: &str, passed: bool) -> Self {
        EvalResult {
            evaluator: evaluator.to_owned(),
            result: Verdict::from_pass(passed),
            score: None,
            threshold: None,
            reason: None,
            details: Details::new(),
            error: None,
            usage: None,
            exchanges: Exchanges::default(),
        }
    }

    /// An `error` result with its code and message.
    pub fn error(evaluator: &str, code: ErrorCode, message: impl Into<String>) -> Self {
        EvalResult {
            evaluator: evaluator.to_owned(),
            result: Verdict::Error,
            score: None,
            threshold: None,
            reason: None,
            details: Details::new(),
            error: Some(EvalError {
                code,
                message: message.into(),
            }),
            usage: None,
            exchanges: Exchanges::default(),
        }
    }

    /// A `skipped` result; `reason` says why the evaluator did not run.
    pub fn skipped(evaluator: &str, reason: impl Into<String>) -> Self {
        EvalResult {
            evaluator: evaluator.to_owned(),
            result: Verdict::Skipped,
            score: None,
            threshold: None,
            reason: Some(reason.into()),
            details: Details::new(),
            error: None,
            usage: None,
            exchanges: Exchanges::default(),
        }
    }

    /// Sets the reason.
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// Adds one evaluator-specific detail.
    pub fn with_detail(mut self, key: &'static str, value: impl Into<Value>) -> Self {
        self.details.insert(key, value);
        self
    }
}

/// Tokens one call used, as the endpoint reported them.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Tokens of the request.
    pub prompt_tokens: u64,
    /// Tokens of the reply.
    pub completion_tokens: u64,
    /// Their sum (as reported).
    pub total_tokens: u64,
}

impl Usage {
    /// Adds `other` to this tally.
    pub fn add(&mut self, other: Usage) {
        self.prompt_tokens = self.prompt_tokens.saturating_add(other.prompt_tokens);
        self.completion_tokens = self
            .completion_tokens
            .saturating_add(other.completion_tokens);
        self.total_tokens = self.total_tokens.saturating_add(other.total_tokens);
    }
}

#[cfg(test)]
mod tests {
    use super::Usage;

    #[test]
    fn token_sums_stop_at_the_largest_count_instead_of_wrapping() {
        let mut total = Usage {
            prompt_tokens: u64::MAX - 1,
            completion_tokens: 5,
            total_tokens: u64::MAX,
        };
        total.add(Usage {
            prompt_tokens: 10,
            completion_tokens: 5,
            total_tokens: 1,
        });
        assert_eq!(
            (
                total.prompt_tokens,
                total.completion_tokens,
                total.total_tokens
            ),
            (u64::MAX, 10, u64::MAX)
        );
    }
}
