//! The judge calls behind an entry's results, at the JavaScript boundary: the core never
//! serializes them (no output carries them), so an entry handed to `onResult` gets them here,
//! as each judged result's `judge_exchanges` (`[{url, request, answer, cached}]`), for an item
//! view's "Show request". Credentials are never among them.

use agenteval_core::report::CaseOutcome;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use crate::boundary;

/// Sets `judge_exchanges` on each result of `value` (the JavaScript form of `outcome`) whose
/// evaluator called the judge.
///
/// # Errors
/// When `value` is not `outcome`'s JavaScript form.
pub fn attach(value: &JsValue, outcome: &CaseOutcome) -> Result<(), JsValue> {
    let results = Reflect::get(value, &"results".into())?;
    for (position, result) in outcome.results.iter().enumerate() {
        if result.exchanges.is_empty() {
            continue;
        }
        let target = Reflect::get_u32(&results, position as u32)?;
        Reflect::set(
            &target,
            &"judge_exchanges".into(),
            &boundary::to_js(&result.exchanges.0)?,
        )?;
    }
    Ok(())
}

#[wasm_bindgen(typescript_custom_section)]
const JUDGE_EXCHANGE: &str = r#"
/**
 * One judge call behind a result, as `onResult` entries of a judged run carry it (never in an
 * output): the URL, the request's exact JSON body (no credential: keys travel in headers, which
 * are not kept), and the answer's body as received (`null` when the call gave none).
 */
export interface JudgeExchange {
  url: string;
  request: string;
  answer: string | null;
  cached: boolean;
}
export interface EvalResult {
  /** The judge calls behind a judged result, in order (a conversation's turns); entries handed to `onResult` only. */
  judge_exchanges?: JudgeExchange[];
}
"#;
