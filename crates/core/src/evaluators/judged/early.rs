//! The results a standard judge reaches without a call, unlabelled: an input the reference
//! rejects (with its message), a not-applicable result (with its reason), and an input the
//! reference fails on, which agenteval does not judge either. Which input leads to which is the
//! preparations' to decide; labelling the result is the configured evaluator's.

use super::render;
use crate::json::Value;
use crate::outcome::{ErrorCode, EvalResult};

/// Why a judge needs no call for an item or turn: a result reached at once.
pub type Early = Box<EvalResult>;

const INTERMEDIATE: &str =
    "Intermediate response. Please provide the agent's final response for evaluation.";

/// An input the reference rejects, with its message (without `(UserError) `).
pub(super) fn rejected(message: impl Into<String>) -> Early {
    Box::new(EvalResult::error("", ErrorCode::EvaluatorError, message))
}

/// The reference's not-applicable result, `why` as its reason.
pub(super) fn not_applicable(why: &str) -> Early {
    Box::new(EvalResult::skipped("", format!("Not applicable: {why}")))
}

/// An input the reference fails on (a raw Python error) that agenteval does not judge either.
pub(super) fn unsupported_input(message: impl Into<String>) -> Early {
    Box::new(EvalResult::error(
        "",
        ErrorCode::EvaluatorConfigurationError,
        message,
    ))
}

/// Not applicable to an agent that has not answered yet ([`render::is_intermediate`]).
pub(super) fn not_intermediate(response: Option<&Value>) -> Result<(), Early> {
    if response.is_some_and(render::is_intermediate) {
        return Err(not_applicable(INTERMEDIATE));
    }
    Ok(())
}
