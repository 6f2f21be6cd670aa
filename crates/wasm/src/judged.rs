//! A run with a judge, driven to its end by the core's [`engine::judged::run`] over the package's
//! seams ([`crate::judge`]): the driver (`js/drive.js`) hands the run over with its hooks and
//! gets back what its mode asks for.

use std::cell::RefCell;

use agenteval_core::custom::{CustomFailure, CustomReturn};
use agenteval_core::engine::{self, CustomCall};
use agenteval_core::judge::{Cancel, LocalFuture, Scheduler};
use js_sys::{Function, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::boundary;
use crate::error::{ApiError, ErrorCode};
use crate::evaluation::Evaluation;
use crate::exchanges;
use crate::judge::{on_abort, FetchTransport, IndexedDbStore, JsClock};
use crate::run::{custom_call_js, custom_return, head, ScoreRun};

#[wasm_bindgen]
impl ScoreRun {
    /// Runs the whole dataset through the judge (the core's scheduler over `fetch`): each entry
    /// goes to `hooks.onEntry` with its judge calls ([`exchanges::of`]) in order as soon as it
    /// and those before it are done, with `hooks.onProgress({done, total})`; custom evaluators
    /// run through `hooks.callCustom`;
    /// `hooks.signal` cancels (judge calls not yet answered end `skipped`, and the report says
    /// which entries were not judged). Resolves as `mode` asks: `"report"` (the report's head, to
    /// which the driver adds `items`), `"evaluation"` (an [`Evaluation`] holding `items`) or
    /// `"item"` (nothing: the driver has the entry).
    #[wasm_bindgen(js_name = judgeAll)]
    pub fn judge_all(self, mode: String, items: js_sys::Array, hooks: JsValue) -> js_sys::Promise {
        wasm_bindgen_futures::future_to_promise(drive(self, mode, items, hooks))
    }
}

/// Progress as `onProgress` receives it.
#[derive(Serialize)]
struct Progress {
    done: usize,
    total: usize,
}

fn hook(hooks: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(hooks, &name.into())
        .ok()
        .and_then(|value| value.dyn_into::<Function>().ok())
}

/// Runs `run` through its judge; see [`ScoreRun::judge_all`].
pub async fn drive(
    run: ScoreRun,
    mode: String,
    items: js_sys::Array,
    hooks: JsValue,
) -> Result<JsValue, JsValue> {
    let (mut session, keeps_dataset, settings) = run.into_parts();
    let Some(settings) = settings else {
        return Err(
            ApiError::new(ErrorCode::InvalidArgument, "run: no judge is configured").into(),
        );
    };
    let on_entry = hook(&hooks, "onEntry");
    let on_progress = hook(&hooks, "onProgress");
    let call_custom = hook(&hooks, "callCustom");
    let signal = Reflect::get(&hooks, &"signal".into()).unwrap_or(JsValue::UNDEFINED);

    let transport = FetchTransport;
    let clock = JsClock;
    let store = IndexedDbStore;
    let cancel = Cancel::new();
    let mut scheduler = Scheduler::new(
        settings.endpoint,
        &transport,
        &clock,
        &settings.credentials,
        settings.policy,
    )
    .with_cancel(cancel.clone());
    if settings.persistent_cache {
        scheduler = scheduler.with_store(&store);
    }
    let raise = {
        let cancel = cancel.clone();
        Closure::<dyn FnMut()>::new(move || cancel.cancel())
    };
    let unsubscribe = on_abort(&signal, raise.as_ref().unchecked_ref());

    let failure: RefCell<Option<JsValue>> = RefCell::new(None);
    let custom =
        |call: CustomCall, index: usize, turn: Option<usize>| -> LocalFuture<'_, CustomReturn> {
            let request = custom_call_js(&call, index, turn);
            let called = match (&call_custom, request) {
                (Some(call_custom), Ok(request)) => call_custom
                    .call1(&JsValue::UNDEFINED, &request)
                    .map(|promise| JsFuture::from(js_sys::Promise::resolve(&promise))),
                (None, _) => Err(JsValue::from_str("no custom evaluators were given")),
                (_, Err(error)) => Err(error),
            };
            Box::pin(async move {
                match called {
                    Ok(pending) => match pending.await {
                        Ok(answer) => custom_return(&answer),
                        Err(_) => Err(could_not_call()),
                    },
                    Err(_) => Err(could_not_call()),
                }
            })
        };
    engine::judged::run(
        &mut session,
        &scheduler,
        Some(&custom),
        &mut |outcome, progress| {
            if failure.borrow().is_some() {
                return;
            }
            let delivered = boundary::to_js(outcome).and_then(|value| {
                if let Some(on_entry) = &on_entry {
                    on_entry.call2(&JsValue::UNDEFINED, &value, &exchanges::of(outcome)?)?;
                }
                if let Some(on_progress) = &on_progress {
                    let progress = boundary::to_js(&Progress {
                        done: progress.done,
                        total: progress.total,
                    })?;
                    on_progress.call1(&JsValue::UNDEFINED, &progress)?;
                }
                Ok(())
            });
            if let Err(error) = delivered {
                failure.replace(Some(error));
                cancel.cancel();
            }
        },
    )
    .await;
    let _ = unsubscribe.call0(&JsValue::UNDEFINED);
    drop(raise);
    if let Some(error) = failure.take() {
        return Err(error);
    }
    match mode.as_str() {
        "evaluation" => {
            let (report, dataset) = session.finish_with_dataset();
            let Some(dataset) = dataset.filter(|_| keeps_dataset) else {
                return Err(ApiError::new(
                    ErrorCode::InvalidArgument,
                    "run: only a run started by evaluate() can be kept",
                )
                .into());
            };
            let object = head(&report)?;
            Reflect::set(&object, &"items".into(), &items)?;
            Ok(Evaluation::new(object, report, dataset).into())
        }
        "item" => Ok(JsValue::UNDEFINED),
        _ => head(&session.finish()),
    }
}

fn could_not_call() -> CustomFailure {
    CustomFailure::Threw("the custom evaluator could not be called".to_owned())
}
