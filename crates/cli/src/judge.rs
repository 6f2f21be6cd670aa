//! The CLI's judge: its configuration (the M365 `AZURE_AI_*` variables for every dialect, then
//! `--judge-*` flags), the runtime seams the core's scheduler runs on (an HTTP transport with
//! reqwest, tokio's clock, the key from the environment, a cache directory), and Ctrl-C as the
//! run's cancellation. Keys are read from environment variables only, never from the command
//! line, and appear in no output or message.

use std::cell::Cell;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use agenteval_core::engine::{self, Session};
use agenteval_core::judge::{
    settings, CallError, Cancel, Clock, Completion, Credential, Endpoint, EndpointKind,
    FixedCredential, HttpRequest, HttpResponse, JudgeRequest, JudgeSettings, LocalFuture, Method,
    Policy, Scheduler, Setting, Store, Transport, TransportError,
};
use clap::Args;

use crate::UsageError;

/// Judge options of `score`.
#[derive(Debug, Clone, Default, Args)]
pub struct JudgeArgs {
    /// Judge endpoint kind: azure, azure-v1 or openai [default: azure, or from AZURE_AI_OPENAI_ENDPOINT].
    #[arg(long, value_name = "KIND")]
    pub judge_kind: Option<String>,
    /// Judge endpoint URL (Azure resource, or OpenAI-compatible base such as http://localhost:11434/v1) [env: AZURE_AI_OPENAI_ENDPOINT].
    #[arg(long, value_name = "URL")]
    pub judge_endpoint: Option<String>,
    /// Deployment (azure) or model name [env: AZURE_AI_MODEL_NAME].
    #[arg(long, value_name = "NAME")]
    pub judge_model: Option<String>,
    /// Embeddings deployment or model, for Copilot Studio's TextSimilarity.
    #[arg(long, value_name = "NAME")]
    pub judge_embedding_model: Option<String>,
    /// Azure OpenAI api-version [env: AZURE_AI_API_VERSION; default 2024-10-21].
    #[arg(long, value_name = "VERSION")]
    pub judge_api_version: Option<String>,
    /// Environment variable holding the key [default: AZURE_AI_API_KEY for azure kinds, OPENAI_API_KEY for openai]. Without a key none is sent.
    #[arg(long, value_name = "VAR")]
    pub judge_key_env: Option<String>,
    /// Most judge requests in flight, 1 to 256 [default: 8].
    #[arg(long, value_name = "N")]
    pub judge_concurrency: Option<f64>,
    /// Seconds one judge request may take, up to 3600 [default: 60].
    #[arg(long, value_name = "SECONDS")]
    pub judge_timeout: Option<f64>,
    /// Retries of a failed judge request, 0 to 100 [default: 6].
    #[arg(long, value_name = "N")]
    pub judge_retries: Option<f64>,
    /// Milliseconds of the first back-off wait before a retry; it doubles on each retry (with jitter), up to 30 s [default: 500].
    #[arg(long, value_name = "MS")]
    pub judge_backoff_ms: Option<f64>,
    /// The largest judge reply read, in bytes, 1024 to 268435456 [default: 4194304, 4 MiB]; a longer one is an error.
    #[arg(long, value_name = "BYTES")]
    pub judge_max_reply_bytes: Option<f64>,
    /// The model is a reasoning model: max_completion_tokens and no temperature.
    #[arg(long)]
    pub judge_reasoning: bool,
    /// Do not ask for response_format json_object (for servers that reject it).
    #[arg(long)]
    pub judge_no_json_mode: bool,
    /// Overrides every judge prompt's temperature (0 to 2).
    #[arg(long, value_name = "T")]
    pub judge_temperature: Option<f64>,
    /// Overrides every judge prompt's token limit.
    #[arg(long, value_name = "N")]
    pub judge_max_tokens: Option<f64>,
    /// Overrides every judge prompt's sampling seed.
    #[arg(long, value_name = "N")]
    pub judge_seed: Option<f64>,
    /// Do not read or write the judge cache on disk.
    #[arg(long)]
    pub no_judge_cache: bool,
    /// Judge cache directory [default: the user's cache directory, agenteval/judge].
    #[arg(long, value_name = "DIR")]
    pub judge_cache_dir: Option<PathBuf>,
    /// Run without a judge even when AZURE_AI_OPENAI_ENDPOINT is set: judged evaluators are skipped.
    #[arg(long)]
    pub no_judge: bool,
}

/// A judge ready to run: the endpoint, its key (if any), the policy and the cache directory.
pub struct JudgeSetup {
    endpoint: Endpoint,
    credential: Option<Credential>,
    policy: Policy,
    cache_dir: Option<PathBuf>,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

impl JudgeArgs {
    /// The configured judge, or `None` when no endpoint is given.
    ///
    /// # Errors
    /// An unknown kind, a bad URL, a missing model, or bad limits.
    pub fn setup(&self) -> Result<Option<JudgeSetup>, UsageError> {
        if self.no_judge {
            return Ok(None);
        }
        let Some(url) = self
            .judge_endpoint
            .clone()
            .or_else(|| env("AZURE_AI_OPENAI_ENDPOINT"))
        else {
            return Ok(None);
        };
        let model = self
            .judge_model
            .clone()
            .or_else(|| env("AZURE_AI_MODEL_NAME"))
            .ok_or_else(|| {
                UsageError(
                    "judge: the endpoint is set but no model: pass --judge-model or set AZURE_AI_MODEL_NAME"
                        .to_owned(),
                )
            })?;
        let requested = JudgeSettings {
            kind: self.judge_kind.clone(),
            endpoint: url,
            model,
            api_version: self
                .judge_api_version
                .clone()
                .or_else(|| env("AZURE_AI_API_VERSION")),
            embedding_model: self.judge_embedding_model.clone(),
            concurrency: self.judge_concurrency,
            retries: self.judge_retries,
            timeout_ms: self.judge_timeout.map(|seconds| seconds * 1000.0),
            backoff_ms: self.judge_backoff_ms,
            reasoning: self.judge_reasoning,
            json_mode: Some(!self.judge_no_json_mode),
            temperature: self.judge_temperature,
            max_tokens: self.judge_max_tokens,
            seed: self.judge_seed,
            max_reply_bytes: self.judge_max_reply_bytes,
        };
        let (endpoint, policy) = requested.resolve().map_err(|error| {
            let mut message = error.for_cli();
            if error.setting == Setting::Timeout {
                message =
                    "--judge-timeout: expected a number of seconds from 0.001 to 3600".to_owned();
            }
            UsageError(message)
        })?;
        let key_env = self.judge_key_env.clone().unwrap_or_else(|| {
            match endpoint.kind {
                EndpointKind::OpenAi => "OPENAI_API_KEY",
                EndpointKind::Azure | EndpointKind::AzureV1 => "AZURE_AI_API_KEY",
            }
            .to_owned()
        });
        let credential = match env(&key_env) {
            Some(key) => {
                settings::check_key(&key)
                    .map_err(|error| UsageError(format!("{key_env}: {}", error.expected)))?;
                Some(Credential::ApiKey(key))
            }
            None => None,
        };
        let cache_dir = if self.no_judge_cache {
            None
        } else {
            self.judge_cache_dir
                .clone()
                .or_else(|| dirs::cache_dir().map(|dir| dir.join("agenteval").join("judge")))
        };
        Ok(Some(JudgeSetup {
            endpoint,
            credential,
            policy,
            cache_dir,
        }))
    }
}

/// Runs `session` through the judge to its end, with Ctrl-C as cancellation and a progress line
/// on a terminal's stderr.
///
/// # Errors
/// The async runtime could not start.
pub fn run(setup: JudgeSetup, session: &mut Session<'_>) -> Result<(), UsageError> {
    let runtime = runtime("judge")?;
    let transport = ReqwestTransport::new()?;
    let clock = TokioClock::started();
    let credentials = FixedCredential(setup.credential);
    let store = setup.cache_dir.map(|dir| FileStore {
        dir,
        warned: Cell::new(false),
    });
    let cancel = Cancel::new();
    let mut scheduler = Scheduler::new(
        setup.endpoint,
        &transport,
        &clock,
        &credentials,
        setup.policy,
    )
    .with_cancel(cancel.clone());
    if let Some(store) = &store {
        scheduler = scheduler.with_store(store);
    }
    let local = tokio::task::LocalSet::new();
    cancel_on_ctrl_c(&local, cancel.clone(), "judge calls");
    let show_progress = std::io::stderr().is_terminal();
    let started = Instant::now();
    local.block_on(&runtime, async {
        let mut last_shown = Instant::now();
        engine::judged::run(session, &scheduler, None, &mut |_, progress| {
            if show_progress
                && (last_shown.elapsed() >= Duration::from_millis(250)
                    || progress.done == progress.total)
            {
                last_shown = Instant::now();
                let rate = progress.done as f64 / started.elapsed().as_secs_f64().max(1e-3);
                eprint!(
                    "\rjudged {}/{} entries ({rate:.1}/s)   ",
                    progress.done, progress.total
                );
            }
        })
        .await;
    });
    if show_progress {
        eprintln!();
    }
    Ok(())
}

/// Raises `cancel` on the first Ctrl-C (the calls in flight, `what`, are aborted) and quits at
/// once on the second.
pub(crate) fn cancel_on_ctrl_c(local: &tokio::task::LocalSet, cancel: Cancel, what: &'static str) {
    local.spawn_local(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!(
                "\nagenteval: cancelling: {what} in flight are aborted; press Ctrl-C again to quit at once"
            );
            cancel.cancel();
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });
}

/// Creates `dir` and its missing parents readable by the user only (0700 on Unix): judge answers
/// can quote the dataset.
fn private_dir(dir: &std::path::Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Writes `body` to a new file at `path` readable by the user only (0600 on Unix).
fn write_private(path: &std::path::Path, body: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(body.as_bytes())
}

/// Sends one request to the judge (no cache: each ask is answered anew) and returns its
/// completion, with Ctrl-C as cancellation.
///
/// # Errors
/// The runtime could not start (exit 2), or the call failed: its code and message, without the
/// key.
pub fn ask(setup: JudgeSetup, request: &JudgeRequest) -> Result<Completion, AskError> {
    let runtime = runtime("judge").map_err(AskError::Usage)?;
    let transport = ReqwestTransport::new().map_err(AskError::Usage)?;
    let clock = TokioClock::started();
    let credentials = FixedCredential(setup.credential);
    let cancel = Cancel::new();
    let scheduler = Scheduler::new(
        setup.endpoint,
        &transport,
        &clock,
        &credentials,
        setup.policy,
    )
    .with_cancel(cancel.clone());
    let local = tokio::task::LocalSet::new();
    cancel_on_ctrl_c(&local, cancel, "judge calls");
    match local.block_on(&runtime, scheduler.call(request)) {
        Ok(answer) => Ok(answer.completion),
        Err(CallError::Failed(failure)) => Err(AskError::Failed(format!(
            "{}: {}",
            failure.code.as_str(),
            failure.message
        ))),
        Err(CallError::Cancelled) => Err(AskError::Failed("cancelled".to_owned())),
    }
}

/// Why [`ask`] got no completion.
#[derive(Debug)]
pub enum AskError {
    /// A usage problem (exit 2).
    Usage(UsageError),
    /// The call failed (exit 1): what happened.
    Failed(String),
}

/// HTTP through reqwest (rustls), following no redirect (the core's `judge::redirect` decides)
/// and reading no more of a reply than the request allows, checked as it streams.
pub(crate) struct ReqwestTransport {
    client: reqwest::Client,
}

impl ReqwestTransport {
    /// A client following no redirect.
    ///
    /// # Errors
    /// The HTTP client could not start.
    pub(crate) fn new() -> Result<Self, UsageError> {
        let client = reqwest::Client::builder()
            .user_agent(concat!("agenteval/", env!("CARGO_PKG_VERSION")))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| UsageError(format!("cannot start the HTTP client: {error}")))?;
        Ok(ReqwestTransport { client })
    }
}

impl Transport for ReqwestTransport {
    fn send(&self, request: HttpRequest) -> LocalFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            let mut builder = match request.method {
                Method::Post => self.client.post(&request.url).body(request.body),
                Method::Get => self.client.get(&request.url),
            };
            for (name, value) in &request.headers {
                builder = builder.header(name.as_str(), value.as_str());
            }
            let limit = request.max_response_bytes;
            let mut response = builder.send().await.map_err(describe)?;
            if response
                .content_length()
                .is_some_and(|length| length > limit as u64)
            {
                return Err(TransportError::TooLarge { limit });
            }
            let status = response.status().as_u16();
            let headers = response
                .headers()
                .iter()
                .filter_map(|(name, value)| {
                    Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
                })
                .collect();
            let mut bytes = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(describe)? {
                if bytes.len() + chunk.len() > limit {
                    return Err(TransportError::TooLarge { limit });
                }
                bytes.extend_from_slice(&chunk);
            }
            let body = String::from_utf8(bytes)
                .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned());
            Ok(HttpResponse {
                status,
                headers,
                body,
            })
        })
    }
}

/// A transport error without the URL's query or any header (reqwest's messages name the URL).
fn describe(error: reqwest::Error) -> TransportError {
    let kind = if error.is_builder() {
        return TransportError::Invalid("the request could not be built".to_owned());
    } else if error.is_connect() {
        "could not connect"
    } else if error.is_timeout() {
        "timed out"
    } else if error.is_body() || error.is_decode() {
        "the response body was cut short or unreadable"
    } else {
        "the request failed"
    };
    let source = std::error::Error::source(&error)
        .map(|source| format!(": {source}"))
        .unwrap_or_default();
    TransportError::Network(format!("{kind}{source}"))
}

/// tokio's monotonic clock.
pub(crate) struct TokioClock {
    pub(crate) origin: Instant,
}

impl TokioClock {
    /// A clock counting from now.
    pub(crate) fn started() -> Self {
        TokioClock {
            origin: Instant::now(),
        }
    }
}

/// The single-threaded runtime the calls of `what` (`judge`, `agent`) run on.
///
/// # Errors
/// The runtime could not start.
pub(crate) fn runtime(what: &str) -> Result<tokio::runtime::Runtime, UsageError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| UsageError(format!("cannot start the {what} runtime: {error}")))
}

impl Clock for TokioClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }

    fn sleep(&self, duration: Duration) -> LocalFuture<'_, ()> {
        Box::pin(tokio::time::sleep(duration))
    }
}

/// Answers kept as one file per key under a cache directory (`ab/abcdef….json`).
struct FileStore {
    dir: PathBuf,
    warned: Cell<bool>,
}

impl FileStore {
    fn path(&self, key: &str) -> Option<PathBuf> {
        let shard = key.get(..2)?;
        key.bytes()
            .all(|byte| byte.is_ascii_hexdigit())
            .then(|| self.dir.join(shard).join(format!("{key}.json")))
    }
}

impl Store for FileStore {
    fn get(&self, key: &str) -> LocalFuture<'_, Option<String>> {
        let body = self
            .path(key)
            .and_then(|path| std::fs::read_to_string(path).ok());
        Box::pin(async move { body })
    }

    fn put(&self, key: &str, body: &str) -> LocalFuture<'_, ()> {
        if let Some(path) = self.path(key) {
            let written = path.parent().map_or(Ok(()), private_dir).and_then(|()| {
                let partial = path.with_extension("partial");
                write_private(&partial, body)?;
                std::fs::rename(partial, &path)
            });
            if let Err(error) = written {
                if self.warned.replace(true) {
                    return Box::pin(async {});
                }
                eprintln!(
                    "agenteval: cannot write the judge cache at {}: {error}",
                    self.dir.display()
                );
            }
        }
        Box::pin(async {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> JudgeArgs {
        JudgeArgs {
            judge_kind: Some("openai".into()),
            judge_endpoint: Some("http://localhost:11434/v1".into()),
            judge_model: Some("llama3.1".into()),
            judge_key_env: Some("AGENTEVAL_TEST_NO_SUCH_KEY".into()),
            ..JudgeArgs::default()
        }
    }

    #[test]
    fn model_parameters_reach_the_endpoint() {
        let setup = JudgeArgs {
            judge_temperature: Some(0.7),
            judge_max_tokens: Some(256.0),
            judge_seed: Some(42.0),
            judge_reasoning: true,
            judge_no_json_mode: true,
            ..args()
        }
        .setup()
        .unwrap()
        .unwrap();
        let endpoint = &setup.endpoint;
        assert_eq!(endpoint.kind, EndpointKind::OpenAi);
        assert_eq!(endpoint.model, "llama3.1");
        assert_eq!(endpoint.temperature, Some(0.7));
        assert_eq!(endpoint.max_tokens, Some(256));
        assert_eq!(endpoint.seed, Some(42));
        assert!(endpoint.reasoning && !endpoint.json_mode);
        assert!(setup.credential.is_none());
    }

    #[cfg(unix)]
    #[test]
    fn the_judge_cache_is_readable_by_the_user_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("agenteval-cache-mode-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = FileStore {
            dir: dir.join("judge"),
            warned: Cell::new(false),
        };
        let key = "ab".repeat(32);
        drop(store.put(&key, "{\"reason\": \"quotes the dataset\"}"));
        let mode = |path: &std::path::Path| {
            std::fs::metadata(path).map(|meta| meta.permissions().mode() & 0o777)
        };
        assert_eq!(mode(&dir.join("judge")).ok(), Some(0o700));
        assert_eq!(mode(&dir.join("judge/ab")).ok(), Some(0o700));
        assert_eq!(
            mode(&dir.join(format!("judge/ab/{key}.json"))).ok(),
            Some(0o600)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_parameters_are_usage_errors() {
        let refused = |args: JudgeArgs| args.setup().err().map(|error| error.0);
        let hot = JudgeArgs {
            judge_temperature: Some(3.0),
            ..args()
        };
        assert_eq!(
            refused(hot).as_deref(),
            Some("--judge-temperature: expected a number from 0 to 2")
        );
        let none = JudgeArgs {
            judge_max_tokens: Some(0.0),
            ..args()
        };
        assert!(refused(none).is_some_and(|message| message.starts_with("--judge-max-tokens")));
        let flood = JudgeArgs {
            judge_concurrency: Some(100_000.0),
            ..args()
        };
        assert_eq!(
            refused(flood).as_deref(),
            Some("--judge-concurrency: expected a whole number from 1 to 256")
        );
        let endless = JudgeArgs {
            judge_retries: Some(1_000_000.0),
            ..args()
        };
        assert_eq!(
            refused(endless).as_deref(),
            Some("--judge-retries: expected a whole number from 0 to 100")
        );
        let slow = JudgeArgs {
            judge_timeout: Some(7200.0),
            ..args()
        };
        assert_eq!(
            refused(slow).as_deref(),
            Some("--judge-timeout: expected a number of seconds from 0.001 to 3600")
        );
        let bad_port = JudgeArgs {
            judge_endpoint: Some("http://localhost:99999/v1".into()),
            ..args()
        };
        assert!(refused(bad_port).is_some_and(|message| message.contains("port '99999'")));
        let off = JudgeArgs {
            no_judge: true,
            ..args()
        };
        assert!(off.setup().unwrap().is_none());
    }
}
