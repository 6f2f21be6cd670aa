//! `generateRubric()`: the core's rubric generation through the package's judge (`fetch`): the
//! sources `{instructions, systemPrompt, references, traces}` go to the judge in one call, and
//! the rubric `{dimensions: [...]}` comes back checked by the Rubric judge's rules.

use agenteval_core::evaluators::judged::rubric_generation::{self, GenerationError, Sources};
use agenteval_core::judge::{CallError, Cancel, Scheduler};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::boundary;
use crate::error::{ApiError, ErrorCode};
use crate::judge::{on_abort, FetchTransport, JsClock, JudgeSettings};
use crate::options::OptionsObject;

/// Asks the judge (`options.judge`, required) for a rubric from `sources`: the agent's
/// `instructions`, `systemPrompt` and `references` (at least one), and its `traces`.
/// `options.signal` cancels. Resolves to `{dimensions: [{id, description, weight,
/// always_applicable, category?}]}`, the Rubric evaluator's options.
///
/// # Errors
/// `invalidArgument` for bad sources or options (no judge, traces alone); `judgeFailed` when the
/// call fails (its code in the message) or is cancelled; `rubricUnusable` when the reply is no
/// rubric the Rubric judge accepts.
#[wasm_bindgen(js_name = generateRubric, unchecked_return_type = "Promise<JsonObject>")]
pub fn generate_rubric(
    #[wasm_bindgen(unchecked_param_type = "RubricSources")] sources: JsValue,
    #[wasm_bindgen(unchecked_param_type = "GenerateRubricOptions")] options: JsValue,
) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        generate(sources, options).await.map_err(JsValue::from)
    })
}

async fn generate(sources: JsValue, options: JsValue) -> Result<JsValue, ApiError> {
    let sources = read_sources(sources)?;
    let options = OptionsObject::read(Some(options), "options", &["judge", "signal"])?;
    options.signal("signal")?;
    let request = rubric_generation::request(&sources, None).map_err(|error| match error {
        GenerationError::Sources(message) | GenerationError::Reply(message) => {
            ApiError::new(ErrorCode::InvalidArgument, format!("sources: {message}"))
        }
    })?;
    let Some(settings) = JudgeSettings::read(options.get("judge"))? else {
        return Err(ApiError::argument(
            "options.judge",
            "the judge that writes the rubric ({kind, endpoint, model, …})",
        ));
    };
    let transport = FetchTransport;
    let clock = JsClock;
    let cancel = Cancel::new();
    let scheduler = Scheduler::new(
        settings.endpoint,
        &transport,
        &clock,
        &settings.credentials,
        settings.policy,
    )
    .with_cancel(cancel.clone());
    let raise = Closure::<dyn FnMut()>::new(move || cancel.cancel());
    let unsubscribe = on_abort(&options.get("signal"), raise.as_ref().unchecked_ref());
    let answer = scheduler.call(&request).await;
    let _ = unsubscribe.call0(&JsValue::UNDEFINED);
    drop(raise);
    let completion = match answer {
        Ok(answer) => answer.completion,
        Err(CallError::Failed(failure)) => {
            return Err(ApiError::new(
                ErrorCode::JudgeFailed,
                format!("{}: {}", failure.code.as_str(), failure.message),
            ))
        }
        Err(CallError::Cancelled) => {
            return Err(ApiError::new(ErrorCode::JudgeFailed, "cancelled"));
        }
    };
    let rubric = rubric_generation::read(&completion)
        .map_err(|error| ApiError::new(ErrorCode::RubricUnusable, error.to_string()))?;
    boundary::to_js(&rubric).map_err(|_| {
        ApiError::new(
            ErrorCode::RubricUnusable,
            "the rubric could not be handed over",
        )
    })
}

/// The `sources` argument.
fn read_sources(value: JsValue) -> Result<Sources, ApiError> {
    let sources = OptionsObject::read(
        Some(value),
        "sources",
        &["instructions", "systemPrompt", "references", "traces"],
    )?;
    let references = sources.get("references");
    let references = if references.is_undefined() || references.is_null() {
        Vec::new()
    } else if js_sys::Array::is_array(&references) {
        js_sys::Array::from(&references)
            .iter()
            .enumerate()
            .map(|(index, text)| {
                text.as_string().ok_or_else(|| {
                    ApiError::argument(&format!("sources.references[{index}]"), "text")
                })
            })
            .collect::<Result<_, _>>()?
    } else {
        return Err(ApiError::argument(
            "sources.references",
            "an array of texts",
        ));
    };
    Ok(Sources {
        instructions: sources.string("instructions")?,
        system_prompt: sources.string("systemPrompt")?,
        references,
        traces: sources.string("traces")?,
    })
}
