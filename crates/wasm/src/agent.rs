//! The package's `run()` (issue 41): the agent under test answers a dataset's prompts over
//! `fetch`, and the dataset comes back in its own dialect with the responses filled in, beside the
//! run report. The core's `agent` module owns the protocols, the filling and the run; this module
//! reads the options, supplies the seams ([`FetchTransport`], [`JsClock`]) and turns the
//! `AbortSignal` into the run's cancellation. Secrets are given by name in `options.secrets`
//! (the names the target's `secretEnv`, `keyEnv` and `{{env.NAME}}` use), or asked of
//! `options.getToken(name)` once per run (an Entra ID token, say), and stay in memory.

use std::time::Duration;

use agenteval_core::agent::fill;
use agenteval_core::agent::{self, RunOptions, RunReport, Runner, Secrets, Target};
use agenteval_core::judge::{Cancel, Policy, Scheduler};
use js_sys::Function;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::boundary;
use crate::convert::{self, Source};
use crate::error::{ApiError, ErrorCode};
use crate::judge::{on_abort, FetchTransport, JsClock};
use crate::options::OptionsObject;

#[wasm_bindgen(typescript_custom_section)]
const AGENT_RUN_TYPES: &str = r#"
/** The options of `run`: the agent and how to drive it. */
export interface AgentRunOptions {
  /** The target configuration, as the CLI's `--target` file (`{"kind": "directline", …}`; docs/agents.md). */
  target: JsonObject;
  /** The secrets the target names (`secretEnv`, `keyEnv`, `{{env.NAME}}`), by name. Kept in memory only. */
  secrets?: { [name: string]: string } | null;
  /** Asked once per run for each secret the target names that `secrets` does not give (a token from Entra ID, say). */
  getToken?: ((name: string) => string | Promise<string>) | null;
  /** A Foundry evaluation config, when the rows carry none (not needed to run them). */
  config?: DatasetInput | null;
  /** Send every item again, even those that already have a response. */
  rerun?: boolean | null;
  /** Most conversations at once (default 4). */
  concurrency?: number | null;
  /** How long one agent request may take, in milliseconds (default 120000). */
  timeoutMs?: number | null;
  /** Retries of a failed request: 429, 5xx, time-outs, network errors (default 4). */
  retries?: number | null;
  /** Told `{done, total}` conversations as each ends. */
  onProgress?: ((progress: { done: number; total: number }) => void) | null;
  /** Cancels the run: requests in flight are aborted; what was answered is kept. */
  signal?: AbortSignal | null;
}

/** Why a turn got no reply. */
export interface AgentError {
  /** `agentError`, `agentTimeout`, `agentRateLimited`, `agentAuthenticationError`, `agentConfigurationError`, `agentConversationExpired`, `agentToolCallUnanswered`, `notSent` or `cancelled`. */
  code: string;
  /** Which call failed and why. */
  message: string;
}

/** One item kept or turn sent in an agent run. */
export interface AgentRunEntry {
  item: string;
  turn?: number;
  status: "answered" | "error" | "kept";
  latencyMs?: number;
  tokens?: Usage;
  toolCalls?: number;
  error?: AgentError;
  notes?: string[];
}

/** What an agent run did. */
export interface AgentRunReport {
  target: string;
  answered: number;
  failed: number;
  kept: number;
  requests: number;
  retries: number;
  rateLimited: number;
  tokens?: Usage;
  meanLatencyMs?: number;
  entries: AgentRunEntry[];
}

/** What `run` resolves to: the dataset with the responses, in its own dialect, and the run report. */
export interface AgentRun {
  dataset: string;
  report: AgentRunReport;
}
"#;

/// What `run()` resolves to.
#[derive(Serialize)]
struct AgentRun<'r> {
    /// The dataset in its own dialect, the responses filled in.
    dataset: &'r str,
    /// What the run did, item by item.
    report: &'r RunReport,
}

/// Progress as `onProgress` receives it.
#[derive(Serialize)]
struct Progress {
    done: usize,
    total: usize,
}

/// A run read from the arguments.
struct Prepared {
    target: Target,
    /// The secrets given by value.
    given: Vec<(String, String)>,
    /// The secrets the target names that `secrets` does not give, asked of `getToken`.
    asked: Vec<String>,
    get_token: Option<Function>,
    policy: Policy,
    prepared: fill::Prepared,
    on_progress: Option<Function>,
    signal: JsValue,
}

/// Runs the agent under test over a dataset (text, bytes or a parsed value; any dialect):
/// `options.target` is the target configuration (as the CLI's `--target` file), `options.secrets`
/// the secrets it names, by name. Resolves to `{dataset, report}`: the dataset in its own dialect
/// with the agent's responses filled in, and the run report. `options.onProgress` receives
/// `{done, total}` conversations; `options.signal` cancels (what was answered is kept). Rejects
/// with `invalidArgument` for a bad option or target (naming its field) and `invalidDataset` for
/// an unusable dataset.
#[wasm_bindgen(js_name = run, unchecked_return_type = "Promise<AgentRun>")]
pub fn run_agent(
    #[wasm_bindgen(unchecked_param_type = "DatasetInput")] dataset: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AgentRunOptions")] options: JsValue,
) -> js_sys::Promise {
    match prepare(&dataset, options) {
        Ok(prepared) => wasm_bindgen_futures::future_to_promise(drive(prepared)),
        Err(error) => js_sys::Promise::reject(&error.into()),
    }
}

fn prepare(dataset: &JsValue, options: JsValue) -> Result<Prepared, ApiError> {
    let options = OptionsObject::read(
        Some(options),
        "options",
        &[
            "target",
            "secrets",
            "getToken",
            "config",
            "rerun",
            "concurrency",
            "timeoutMs",
            "retries",
            "onProgress",
            "signal",
        ],
    )?;
    let target_value = options.get("target");
    if target_value.is_undefined() || target_value.is_null() {
        return Err(ApiError::argument(
            "options.target",
            "the target configuration object ({\"kind\": \"directline\", …})",
        ));
    }
    let target_json = boundary::json_text(&target_value)
        .ok_or_else(|| ApiError::argument("options.target", "a JSON object"))?;
    let target = Target::parse(&target_json)
        .map_err(|error| ApiError::new(ErrorCode::InvalidArgument, format!("options.{error}")))?;
    let mut secrets = Vec::new();
    for (name, value) in options.entries("secrets")? {
        let value = value
            .as_string()
            .ok_or_else(|| ApiError::argument(&format!("options.secrets.{name}"), "a string"))?;
        secrets.push((name, value));
    }
    let get_token = options.function("getToken")?;
    let mut asked = Vec::new();
    for name in target.secret_names() {
        if secrets.iter().any(|(given, _)| *given == name) {
            continue;
        }
        if get_token.is_none() {
            return Err(ApiError::argument(
                &format!("options.secrets.{name}"),
                "the secret the target names (or options.getToken to ask for it)",
            ));
        }
        asked.push(name);
    }
    let whole = |key: &str, max: f64| -> Result<Option<f64>, ApiError> {
        let value = options.get(key);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        match value.as_f64() {
            Some(number) if number.fract() == 0.0 && (0.0..=max).contains(&number) => {
                Ok(Some(number))
            }
            _ => Err(ApiError::argument(
                &options.field(key),
                format!("a whole number from 0 to {max}"),
            )),
        }
    };
    let concurrency = whole("concurrency", 256.0)?.unwrap_or(4.0).max(1.0);
    let retries = whole("retries", 100.0)?.unwrap_or(4.0);
    let timeout = options.positive_number("timeoutMs")?.unwrap_or(120_000.0);
    let rerun = match options.get("rerun") {
        value if value.is_undefined() || value.is_null() => false,
        value => value
            .as_bool()
            .ok_or_else(|| ApiError::argument("options.rerun", "a boolean"))?,
    };
    let on_progress = options.function("onProgress")?;
    options.signal("signal")?;
    let config = convert::config_value(&options.get("config"), "options.config")?;
    let bytes = match convert::dataset_source(dataset, "dataset")? {
        Source::Bytes(bytes) => bytes,
        Source::Value(value) => {
            serde_json::to_vec(&value).map_err(|_| ApiError::argument("dataset", "a JSON value"))?
        }
    };
    let prepared = fill::prepare(&bytes, config.as_ref(), rerun)
        .map_err(|error| ApiError::input(ErrorCode::InvalidDataset, "dataset", error))?;
    Ok(Prepared {
        target,
        given: secrets,
        asked,
        get_token,
        policy: Policy {
            concurrency: concurrency as usize,
            max_retries: retries as u32,
            timeout: Duration::from_secs_f64(timeout.min(3_600_000.0) / 1000.0),
            ..Policy::default()
        },
        prepared,
        on_progress,
        signal: options.get("signal"),
    })
}

/// An id unique to this run: the time in milliseconds and a random number, in hexadecimal.
fn run_id() -> String {
    let millis = js_sys::Date::now() as u64;
    let random = (js_sys::Math::random() * f64::from(u32::MAX)) as u64;
    format!("{millis:x}-{random:x}")
}

/// Asks `getToken(name)` for each secret the caller did not give, once per run.
async fn ask_tokens(run: &Prepared) -> Result<Secrets, JsValue> {
    let mut secrets = run.given.clone();
    for name in &run.asked {
        let Some(get_token) = &run.get_token else {
            break;
        };
        let refused = |why: &str| -> JsValue {
            ApiError::new(
                ErrorCode::InvalidArgument,
                format!("options.getToken(\"{name}\"): {why}"),
            )
            .into()
        };
        let promise = get_token
            .call1(&JsValue::UNDEFINED, &JsValue::from_str(name))
            .map_err(|_| refused("threw"))?;
        let token = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&promise))
            .await
            .map_err(|_| refused("rejected"))?
            .as_string()
            .filter(|token| !token.is_empty())
            .ok_or_else(|| refused("expected a non-empty string"))?;
        secrets.push((name.clone(), token));
    }
    Ok(Secrets::new(secrets))
}

async fn drive(run: Prepared) -> Result<JsValue, JsValue> {
    let secrets = ask_tokens(&run).await?;
    let transport = FetchTransport;
    let clock = JsClock;
    let cancel = Cancel::new();
    let scheduler =
        Scheduler::for_exchanges(&transport, &clock, run.policy).with_cancel(cancel.clone());
    let runner = Runner {
        target: &run.target,
        secrets: &secrets,
        scheduler: &scheduler,
        clock: &clock,
        options: RunOptions {
            concurrency: run.policy.concurrency,
            run_id: run_id(),
        },
    };
    let raise = {
        let cancel = cancel.clone();
        Closure::<dyn FnMut()>::new(move || cancel.cancel())
    };
    let unsubscribe = on_abort(&run.signal, raise.as_ref().unchecked_ref());
    let on_progress = run.on_progress.clone();
    let records = agent::run(&runner, &run.prepared.conversations, &mut |done, total| {
        if let (Some(on_progress), Ok(progress)) =
            (&on_progress, boundary::to_js(&Progress { done, total }))
        {
            let _ = on_progress.call1(&JsValue::UNDEFINED, &progress);
        }
    })
    .await;
    let _ = unsubscribe.call0(&JsValue::UNDEFINED);
    drop(raise);
    let report = RunReport::new(
        &runner,
        &run.prepared.conversations,
        &records,
        &run.prepared.kept,
    );
    let dataset = run.prepared.write(&records);
    boundary::to_js(&AgentRun {
        dataset: &dataset,
        report: &report,
    })
}
