//! The judge calls behind an entry's results, at the JavaScript boundary: the core never
//! serializes them, so reports and exports stay as the CLI writes them; a judged run hands them to
//! `onResult` as its second argument instead, for an item view's "Show request". Credentials are
//! never among them.

use agenteval_core::report::CaseOutcome;
use wasm_bindgen::prelude::*;

use crate::boundary;

/// `outcome`'s judge calls, one element per result in the same order: the result's
/// `[{url, request, answer, cached}]`, or `null` for a result that called no judge; `undefined`
/// when no result of the entry did.
///
/// # Errors
/// When the calls cannot be written as JSON (never: they are strings and booleans).
pub fn of(outcome: &CaseOutcome) -> Result<JsValue, JsValue> {
    if outcome
        .results
        .iter()
        .all(|result| result.exchanges.is_empty())
    {
        return Ok(JsValue::UNDEFINED);
    }
    let calls: Vec<Option<&[agenteval_core::exchange::Exchange]>> = outcome
        .results
        .iter()
        .map(|result| (!result.exchanges.is_empty()).then_some(result.exchanges.0.as_slice()))
        .collect();
    boundary::to_js(&calls)
}

#[wasm_bindgen(typescript_custom_section)]
const JUDGE_EXCHANGE: &str = r#"
/**
 * One judge call behind a result, as a judged run's `onResult` gets it (second argument; never in
 * a report or an output): the URL, the request's exact JSON body (no credential: keys travel in
 * headers, which are not kept), and the answer's body as received (`null` when the call gave
 * none: it failed, or the run was cancelled first); `cached` when the answer came from the cache.
 */
export interface JudgeExchange {
  url: string;
  request: string;
  answer: string | null;
  cached: boolean;
}
"#;
