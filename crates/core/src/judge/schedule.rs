//! The one scheduler of judge calls, for every runtime: bounded, adaptive concurrency
//! ([`Limiter`]), a per-request time-out, retries with back-off on 429, 5xx, network errors and
//! unreadable bodies (honouring the endpoint's `Retry-After`), a retry cap, cancellation that
//! stops new requests and aborts those in flight, and the cache. IO reaches it only through
//! [`Transport`], [`Clock`], [`Credentials`] and [`Store`].

use std::borrow::Cow;
use std::cell::RefCell;
use std::pin::pin;
use std::time::Duration;

use futures::future::{select, Either};

use super::backoff::{backoff, requested_wait};
use super::cache::{MemoryCache, Store};
use super::cancel::Cancel;
use super::endpoint::Endpoint;
use super::http::{redact, Clock, Credentials, HttpResponse, Transport, TransportError};
use super::limiter::Limiter;
use super::redirect;
use super::reply::{read_completion, read_embeddings, BodyError, Completion, Usage};
use super::request::{JudgeRequest, Operation};
use super::verdict::JudgeFailure;
use crate::outcome::ErrorCode;
use crate::text::decimal;

mod exchange;
pub use exchange::Exchange;

/// Limits and timings of judge calls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    /// Most requests in flight (the adaptive limit starts here).
    pub concurrency: usize,
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// How long one attempt may take.
    pub timeout: Duration,
    /// First back-off wait.
    pub backoff_base: Duration,
    /// Longest back-off wait, and longest wait a rate limit may ask for.
    pub backoff_cap: Duration,
    /// The largest reply body read.
    pub max_reply_bytes: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            concurrency: 8,
            max_retries: 6,
            timeout: Duration::from_secs(60),
            backoff_base: Duration::from_millis(500),
            backoff_cap: Duration::from_secs(30),
            max_reply_bytes: super::http::DEFAULT_MAX_RESPONSE_BYTES,
        }
    }
}

/// What a call came back with.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The completion read from the body.
    pub completion: Completion,
    /// The response body (what the cache keeps).
    pub body: String,
    /// The cache key of the request.
    pub key: String,
    /// Whether it came from the cache.
    pub cached: bool,
}

/// Why a call ended without an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The call failed; the result is an error with this code and message.
    Failed(JudgeFailure),
    /// The run was cancelled before the call ended.
    Cancelled,
}

/// Counts of a run's judge calls.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct CallStats {
    /// Requests sent (attempts, retries included).
    pub requests: u64,
    /// Calls answered from the cache.
    pub cache_hits: u64,
    /// Calls that had to be sent.
    pub cache_misses: u64,
    /// Attempts that were retried.
    pub retries: u64,
    /// 429 answers.
    pub rate_limited: u64,
    /// Calls that ended in an error: no answer, or an answer that gave no verdict.
    pub failures: u64,
    /// Tokens of the calls sent.
    pub usage: Usage,
    /// Requests sent per model or deployment (a criterion may name its own).
    pub by_model: std::collections::BTreeMap<String, u64>,
}

/// The credentials of a scheduler of exchanges: none (each request carries its own).
static NO_CREDENTIAL: super::http::FixedCredential = super::http::FixedCredential(None);

/// Schedules the judge calls of one run.
pub struct Scheduler<'a> {
    endpoint: Endpoint,
    transport: &'a dyn Transport,
    clock: &'a dyn Clock,
    credentials: &'a dyn Credentials,
    store: Option<&'a dyn Store>,
    policy: Policy,
    limiter: Limiter,
    memory: MemoryCache,
    cancel: Cancel,
    stats: RefCell<CallStats>,
}

/// How one attempt ended.
enum Attempt {
    Answered(Answer),
    Retry {
        failure: JudgeFailure,
        wait: Option<Duration>,
    },
    Final(JudgeFailure),
}

impl<'a> Scheduler<'a> {
    /// A scheduler of calls to `endpoint` through the runtime's seams.
    pub fn new(
        endpoint: Endpoint,
        transport: &'a dyn Transport,
        clock: &'a dyn Clock,
        credentials: &'a dyn Credentials,
        policy: Policy,
    ) -> Self {
        Scheduler {
            endpoint,
            transport,
            clock,
            credentials,
            store: None,
            limiter: Limiter::new(policy.concurrency),
            policy,
            memory: MemoryCache::default(),
            cancel: Cancel::new(),
            stats: RefCell::new(CallStats::default()),
        }
    }

    /// A scheduler of plain [`Exchange`]s (agent calls): no judge endpoint ([`Scheduler::endpoint`]
    /// is empty), no credential of its own (each request carries its headers) and no cache.
    pub fn for_exchanges(
        transport: &'a dyn Transport,
        clock: &'a dyn Clock,
        policy: Policy,
    ) -> Self {
        Scheduler::new(
            Endpoint::unaddressed(),
            transport,
            clock,
            &NO_CREDENTIAL,
            policy,
        )
    }

    /// Keeps answers in `store` across runs too.
    pub fn with_store(mut self, store: &'a dyn Store) -> Self {
        self.store = Some(store);
        self
    }

    /// Stops on `cancel`.
    pub fn with_cancel(mut self, cancel: Cancel) -> Self {
        self.cancel = cancel;
        self
    }

    /// The endpoint.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The run's stop signal.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }

    /// The counts so far.
    pub fn stats(&self) -> CallStats {
        self.stats.borrow().clone()
    }

    /// The most requests that were in flight at once.
    pub fn peak_in_flight(&self) -> usize {
        self.limiter.peak_in_flight()
    }

    /// Makes one judge call: from the cache when an identical request was answered, else sent
    /// with retries.
    ///
    /// # Errors
    /// [`CallError::Failed`] with the code of the last failure, or [`CallError::Cancelled`].
    pub async fn call(&self, request: &JudgeRequest) -> Result<Answer, CallError> {
        if self.cancel.is_cancelled() {
            return Err(CallError::Cancelled);
        }
        let key = request.cache_key(&self.endpoint);
        if let Some(answer) = self.cached(&key).await {
            self.stats.borrow_mut().cache_hits += 1;
            return Ok(answer);
        }
        self.stats.borrow_mut().cache_misses += 1;
        let result = self.send_with_retries(request, key).await;
        match &result {
            Ok(answer) if !answer.cached => {
                self.stats.borrow_mut().usage.add(answer.completion.usage)
            }
            Ok(_) => {}
            Err(CallError::Failed(_)) => self.stats.borrow_mut().failures += 1,
            Err(CallError::Cancelled) => {}
        }
        result
    }

    /// Counts an answered call whose reply gave no verdict (unparseable, off the scale) among the
    /// failures.
    pub fn count_unusable_answer(&self) {
        self.stats.borrow_mut().failures += 1;
    }

    /// Keeps an answer that gave a verdict (never an error), in memory and in the store.
    pub async fn remember(&self, answer: &Answer) {
        if answer.cached {
            return;
        }
        self.memory.put(&answer.key, &answer.body);
        if let Some(store) = self.store {
            store.put(&answer.key, &answer.body).await;
        }
    }

    async fn cached(&self, key: &str) -> Option<Answer> {
        if let Some(answer) = self.remembered(key) {
            return Some(answer);
        }
        let body = self.store?.get(key).await?;
        cached_answer(key, body)
    }

    /// An identical request's answer kept in memory (looked up again once a call has its place
    /// in flight, so a duplicate waiting behind the first is answered without a request).
    fn remembered(&self, key: &str) -> Option<Answer> {
        cached_answer(key, self.memory.get(key)?)
    }

    async fn send_with_retries(
        &self,
        request: &JudgeRequest,
        key: String,
    ) -> Result<Answer, CallError> {
        let seed = key_seed(&key);
        let mut attempt = 0;
        loop {
            let outcome = self.attempt(request, &key, attempt + 1, seed).await?;
            let (failure, wait) = match outcome {
                Attempt::Answered(answer) => return Ok(answer),
                Attempt::Final(failure) => return Err(CallError::Failed(failure)),
                Attempt::Retry { failure, wait } => (failure, wait),
            };
            attempt += 1;
            if attempt > self.policy.max_retries {
                return Err(CallError::Failed(exhausted(failure, attempt)));
            }
            self.wait_to_retry(attempt, wait, seed).await?;
        }
    }

    /// Counts a retry and waits before it: the server's `wait` when it named one, else the
    /// back-off for `attempt`; cancelling ends the wait.
    pub(super) async fn wait_to_retry(
        &self,
        attempt: u32,
        wait: Option<Duration>,
        seed: u64,
    ) -> Result<(), CallError> {
        self.stats.borrow_mut().retries += 1;
        let wait = wait.unwrap_or_else(|| {
            backoff(
                self.policy.backoff_base,
                self.policy.backoff_cap,
                attempt,
                seed,
            )
        });
        let sleep = pin!(self.clock.sleep(wait));
        let cancelled = pin!(self.cancel.cancelled());
        match select(sleep, cancelled).await {
            Either::Right(_) => Err(CallError::Cancelled),
            Either::Left(_) => Ok(()),
        }
    }

    async fn attempt(
        &self,
        request: &JudgeRequest,
        key: &str,
        number: u32,
        seed: u64,
    ) -> Result<Attempt, CallError> {
        let permit = {
            let acquire = pin!(self.limiter.acquire(self.clock));
            let cancelled = pin!(self.cancel.cancelled());
            match select(acquire, cancelled).await {
                Either::Left((permit, _)) => permit,
                Either::Right(_) => return Err(CallError::Cancelled),
            }
        };
        if let Some(answer) = self.remembered(key) {
            self.stats.borrow_mut().cache_hits += 1;
            self.stats.borrow_mut().cache_misses -= 1;
            return Ok(Attempt::Answered(answer));
        }
        if request.operation == Operation::Embeddings && request.model(&self.endpoint).is_empty() {
            return Ok(Attempt::Final(failure(
                ErrorCode::EvaluatorConfigurationError,
                "no embeddings model is configured for the judge endpoint: set the judge's \
                 embeddings model (CLI --judge-embedding-model, package judge.embeddingModel)"
                    .to_owned(),
            )));
        }
        let mut http = request.http(&self.endpoint);
        http.max_response_bytes = self.policy.max_reply_bytes;
        let mut secret = None;
        let credential = {
            let asked = pin!(self.credentials.credential());
            let timeout = pin!(self.clock.sleep(self.policy.timeout));
            let cancelled = pin!(self.cancel.cancelled());
            match select(asked, select(timeout, cancelled)).await {
                Either::Left((credential, _)) => credential,
                Either::Right((Either::Left(_), _)) => {
                    return Ok(Attempt::Final(JudgeFailure {
                        code: ErrorCode::JudgeAuthenticationError,
                        message: format!(
                            "no credential for the judge endpoint: the token provider gave none \
                             within {} s",
                            decimal::plain(self.policy.timeout.as_secs_f64())
                        ),
                    }))
                }
                Either::Right((Either::Right(_), _)) => return Err(CallError::Cancelled),
            }
        };
        match credential {
            Ok(Some(credential)) => {
                http.headers.push(self.endpoint.auth_header(&credential));
                secret = Some(credential.secret().to_owned());
            }
            Ok(None) => {}
            Err(message) => {
                return Ok(Attempt::Final(JudgeFailure {
                    code: ErrorCode::JudgeAuthenticationError,
                    message: format!("no credential for the judge endpoint: {message}"),
                }))
            }
        }
        {
            let mut stats = self.stats.borrow_mut();
            stats.requests += 1;
            *stats
                .by_model
                .entry(request.model(&self.endpoint).to_owned())
                .or_default() += 1;
        }
        let sent_at = self.clock.now();
        let sent = pin!(redirect::send(self.transport, http));
        let timeout = pin!(self.clock.sleep(self.policy.timeout));
        let cancelled = pin!(self.cancel.cancelled());
        let response = match select(sent, select(timeout, cancelled)).await {
            Either::Left((response, _)) => response,
            Either::Right((Either::Left(_), _)) => {
                return Ok(Attempt::Retry {
                    failure: JudgeFailure {
                        code: ErrorCode::JudgeTimeout,
                        message: format!(
                            "the judge endpoint gave no answer within {} s",
                            decimal::plain(self.policy.timeout.as_secs_f64())
                        ),
                    },
                    wait: None,
                })
            }
            Either::Right((Either::Right(_), _)) => return Err(CallError::Cancelled),
        };
        drop(permit);
        let response = match secret.as_deref() {
            Some(secret) => redacted(response, secret),
            None => response,
        };
        Ok(self.classify(
            response,
            request,
            key,
            sent_at,
            backoff(
                self.policy.backoff_base,
                self.policy.backoff_cap,
                number,
                seed,
            ),
        ))
    }

    /// How an attempt sent at `sent_at` ended; `fallback` is the wait after a 429 that names none.
    fn classify(
        &self,
        response: Result<HttpResponse, TransportError>,
        request: &JudgeRequest,
        key: &str,
        sent_at: Duration,
        fallback: Duration,
    ) -> Attempt {
        let response = match response {
            Ok(response) => response,
            Err(error @ TransportError::Network(_)) => {
                return Attempt::Retry {
                    failure: failure(ErrorCode::EvaluatorError, error.to_string()),
                    wait: None,
                }
            }
            Err(error @ TransportError::TooLarge { .. }) => {
                return Attempt::Final(failure(
                    ErrorCode::EvaluatorError,
                    format!("the judge endpoint's reply was cut off: {error}"),
                ))
            }
            Err(error @ (TransportError::Invalid(_) | TransportError::Redirected(_))) => {
                return Attempt::Final(failure(
                    ErrorCode::EvaluatorConfigurationError,
                    error.to_string(),
                ))
            }
        };
        let status = response.status;
        let said = endpoint_message(&response.body);
        match status {
            200..=299 => match read_answer(request, response.body) {
                Ok((completion, body)) => {
                    self.limiter.succeeded();
                    Attempt::Answered(Answer {
                        completion,
                        body,
                        key: key.to_owned(),
                        cached: false,
                    })
                }
                Err(error) => Attempt::Retry {
                    failure: failure(
                        ErrorCode::JudgeOutputUnparseable,
                        format!("the judge endpoint's response could not be read: {}", error.0),
                    ),
                    wait: None,
                },
            },
            429 => {
                self.stats.borrow_mut().rate_limited += 1;
                let wait = requested_wait(&response)
                    .unwrap_or(fallback)
                    .min(self.policy.backoff_cap);
                self.limiter.rate_limited(self.clock.now(), sent_at, wait);
                Attempt::Retry {
                    failure: failure(
                        ErrorCode::JudgeRateLimited,
                        format!("the judge endpoint rate-limited the request (429){said}"),
                    ),
                    wait: Some(Duration::ZERO),
                }
            }
            401 | 403 => Attempt::Final(failure(
                ErrorCode::JudgeAuthenticationError,
                format!("the judge endpoint refused the credentials ({status}){said}"),
            )),
            408 | 500..=599 => Attempt::Retry {
                failure: failure(
                    if status == 408 || status == 504 {
                        ErrorCode::JudgeTimeout
                    } else {
                        ErrorCode::EvaluatorError
                    },
                    format!("the judge endpoint answered {status}{said}"),
                ),
                wait: requested_wait(&response).map(|wait| wait.min(self.policy.backoff_cap)),
            },
            _ => Attempt::Final(failure(
                ErrorCode::EvaluatorConfigurationError,
                format!("the judge endpoint answered {status}{said}; check the endpoint, model and api-version"),
            )),
        }
    }
}

/// `response` with `secret` redacted from its body, headers and error text.
fn redacted(
    response: Result<HttpResponse, TransportError>,
    secret: &str,
) -> Result<HttpResponse, TransportError> {
    let clean = |text: String| match redact(&text, secret) {
        Cow::Borrowed(_) => text,
        Cow::Owned(clean) => clean,
    };
    match response {
        Ok(mut response) => {
            response.body = clean(std::mem::take(&mut response.body));
            for (_, value) in &mut response.headers {
                *value = clean(std::mem::take(value));
            }
            Ok(response)
        }
        Err(TransportError::Network(text)) => Err(TransportError::Network(clean(text))),
        Err(TransportError::Invalid(text)) => Err(TransportError::Invalid(clean(text))),
        Err(TransportError::Redirected(text)) => Err(TransportError::Redirected(clean(text))),
        Err(too_large @ TransportError::TooLarge { .. }) => Err(too_large),
    }
}

/// The completion in a successful response's body, and the body to cache (an embeddings
/// response as the completion [`read_embeddings`] makes of it).
fn read_answer(request: &JudgeRequest, body: String) -> Result<(Completion, String), BodyError> {
    match request.operation {
        Operation::Chat => read_completion(&body).map(|completion| (completion, body)),
        Operation::Embeddings => read_embeddings(&body, request.messages.len()),
    }
}

fn cached_answer(key: &str, body: String) -> Option<Answer> {
    let completion = read_completion(&body).ok()?;
    Some(Answer {
        completion,
        body,
        key: key.to_owned(),
        cached: true,
    })
}

fn failure(code: ErrorCode, message: String) -> JudgeFailure {
    JudgeFailure { code, message }
}

/// The last failure, saying how many attempts were made.
fn exhausted(last: JudgeFailure, attempts: u32) -> JudgeFailure {
    JudgeFailure {
        code: last.code,
        message: format!("{} (gave up after {attempts} attempts)", last.message),
    }
}

/// `: <message>` from an OpenAI-style error body, shortened; empty when there is none.
fn endpoint_message(body: &str) -> String {
    let parsed = crate::json::parse_str(body).ok();
    let message = parsed
        .as_ref()
        .and_then(|value| value.pointer("/error/message"))
        .and_then(crate::json::Value::as_str);
    match message {
        Some(message) => {
            let short: String = message.chars().take(200).collect();
            format!(": {short}")
        }
        None => String::new(),
    }
}

/// A seed for the back-off jitter, from the request's key.
fn key_seed(key: &str) -> u64 {
    key.get(..16)
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use futures::executor::block_on;

    use super::*;
    use crate::judge::endpoint::EndpointKind;
    use crate::judge::http::{Credential, FixedCredential, HttpRequest};
    use crate::judge::testing::{
        completion, request, status, ManualClock, Scripted, ScriptedTransport,
    };

    fn endpoint() -> Endpoint {
        Endpoint::new(EndpointKind::Azure, "https://judge.test", "gpt-4o").unwrap()
    }

    fn policy() -> Policy {
        Policy {
            concurrency: 2,
            max_retries: 3,
            timeout: Duration::from_secs(5),
            backoff_base: Duration::from_millis(100),
            backoff_cap: Duration::from_secs(2),
            max_reply_bytes: 1 << 20,
        }
    }

    fn call_with(
        script: impl Fn(&HttpRequest, usize) -> Option<Scripted>,
    ) -> (
        Result<Answer, CallError>,
        Vec<HttpRequest>,
        Vec<Duration>,
        CallStats,
    ) {
        let transport = ScriptedTransport::new(script);
        let clock = ManualClock::default();
        let credentials = FixedCredential(Some(Credential::ApiKey("secret-key".into())));
        let scheduler = Scheduler::new(endpoint(), &transport, &clock, &credentials, policy());
        let result = block_on(scheduler.call(&request("hello")));
        let stats = scheduler.stats();
        (result, transport.sent.take(), clock.sleeps(), stats)
    }

    fn failure_code(result: &Result<Answer, CallError>) -> Option<ErrorCode> {
        match result {
            Err(CallError::Failed(failure)) => Some(failure.code),
            _ => None,
        }
    }

    #[test]
    fn a_first_answer_is_returned_with_the_key_header_and_usage() {
        let (result, sent, sleeps, stats) =
            call_with(|_, _| Some(Ok(completion("{\"score\": 4}"))));
        let answer = result.unwrap();
        assert_eq!(answer.completion.content.as_deref(), Some("{\"score\": 4}"));
        assert!(!answer.cached);
        assert_eq!(sent.len(), 1);
        assert!(sent[0]
            .headers
            .contains(&("api-key".to_owned(), "secret-key".to_owned())));
        assert!(sent[0]
            .url
            .contains("/openai/deployments/gpt-4o/chat/completions"));
        assert!(sleeps.is_empty());
        assert_eq!(stats.usage.total_tokens, 15);
        assert_eq!((stats.requests, stats.retries), (1, 0));
    }

    #[test]
    fn server_errors_and_broken_bodies_are_retried_with_backoff() {
        let (result, sent, sleeps, stats) = call_with(|_, attempt| match attempt {
            0 => Some(Ok(status(503, &[]))),
            1 => Some(Err(TransportError::Network("connection reset".into()))),
            2 => Some(Ok(HttpResponse {
                status: 200,
                headers: Vec::new(),
                body: "{\"choices\": [{\"mess".into(),
            })),
            _ => Some(Ok(completion("{\"score\": 2}"))),
        });
        assert!(result.is_ok());
        assert_eq!(sent.len(), 4);
        assert_eq!(stats.retries, 3);
        assert_eq!(sleeps.len(), 3);
        for (attempt, sleep) in sleeps.iter().enumerate() {
            let full = Duration::from_millis(100) * (1 << attempt);
            assert!(*sleep >= full / 2 && *sleep < full, "{attempt}: {sleep:?}");
        }
    }

    #[test]
    fn retries_stop_at_the_cap_with_the_last_failures_code() {
        let (result, sent, _, stats) = call_with(|_, _| Some(Ok(status(500, &[]))));
        assert_eq!(failure_code(&result), Some(ErrorCode::EvaluatorError));
        let Err(CallError::Failed(failure)) = &result else {
            panic!("the call was expected to fail")
        };
        assert!(
            failure.message.contains("gave up after 4 attempts"),
            "{}",
            failure.message
        );
        assert_eq!(sent.len(), 4);
        assert_eq!(stats.failures, 1);
        let (result, _, _, stats) =
            call_with(|_, _| Some(Ok(status(429, &[("retry-after-ms", "40")]))));
        assert_eq!(failure_code(&result), Some(ErrorCode::JudgeRateLimited));
        assert_eq!(stats.rate_limited, 4);
    }

    #[test]
    fn rate_limits_wait_as_long_as_the_endpoint_asks() {
        let (result, _, sleeps, _) = call_with(|_, attempt| {
            Some(Ok(if attempt == 0 {
                status(429, &[("Retry-After", "2"), ("retry-after-ms", "1500")])
            } else {
                completion("{\"score\": 5}")
            }))
        });
        assert!(result.is_ok());
        assert!(sleeps.contains(&Duration::from_millis(1500)), "{sleeps:?}");
    }

    #[test]
    fn authentication_and_request_errors_are_final() {
        let (result, sent, _, _) = call_with(|_, _| Some(Ok(status(401, &[]))));
        assert_eq!(
            failure_code(&result),
            Some(ErrorCode::JudgeAuthenticationError)
        );
        assert_eq!(sent.len(), 1);
        let (result, sent, _, _) = call_with(|_, _| Some(Ok(status(404, &[]))));
        assert_eq!(
            failure_code(&result),
            Some(ErrorCode::EvaluatorConfigurationError)
        );
        assert_eq!(sent.len(), 1);
    }

    #[test]
    fn a_hanging_endpoint_times_out_on_every_attempt() {
        let (result, sent, sleeps, _) = call_with(|_, _| None);
        assert_eq!(failure_code(&result), Some(ErrorCode::JudgeTimeout));
        assert_eq!(sent.len(), 4);
        assert_eq!(
            sleeps
                .iter()
                .filter(|sleep| **sleep == Duration::from_secs(5))
                .count(),
            4
        );
    }

    #[test]
    fn failures_never_leak_the_key() {
        let (result, _, _, _) = call_with(|request, _| {
            let shown = format!("{request:?}");
            assert!(!shown.contains("secret-key"));
            Some(Ok(status(403, &[])))
        });
        let Err(CallError::Failed(failure)) = result else {
            panic!("the call was expected to fail")
        };
        assert!(!failure.message.contains("secret-key"));
    }

    #[test]
    fn a_key_the_endpoint_echoes_is_redacted_from_errors_replies_and_the_cache() {
        let (refused, _, _, _) = call_with(|_, _| {
            Some(Ok(HttpResponse {
                status: 401,
                headers: Vec::new(),
                body: "{\"error\": {\"message\": \"bad key secret-key\"}}".into(),
            }))
        });
        let Err(CallError::Failed(failure)) = refused else {
            panic!("the call was expected to fail")
        };
        assert!(
            failure.message.contains("bad key …[redacted]"),
            "{}",
            failure.message
        );
        let (answered, _, _, _) = call_with(|_, _| {
            Some(Ok(completion(
                "{\"score\": 4, \"reason\": \"your key is secret-key\"}",
            )))
        });
        let answer = answered.unwrap();
        assert!(!answer.body.contains("secret-key"), "{}", answer.body);
        let content = answer.completion.content.unwrap_or_default();
        assert!(content.contains("your key is …[redacted]"), "{content}");
    }

    struct HangingCredentials;

    impl Credentials for HangingCredentials {
        fn credential(
            &self,
        ) -> crate::judge::http::LocalFuture<'_, Result<Option<Credential>, String>> {
            Box::pin(futures::future::pending())
        }
    }

    #[test]
    fn a_token_provider_that_never_answers_ends_at_the_time_out_or_on_cancel() {
        let transport = ScriptedTransport::new(|_, _| Some(Ok(completion("{\"score\": 4}"))));
        let clock = ManualClock::default();
        let scheduler = Scheduler::new(
            endpoint(),
            &transport,
            &clock,
            &HangingCredentials,
            policy(),
        );
        let result = block_on(scheduler.call(&request("hello")));
        assert_eq!(
            failure_code(&result),
            Some(ErrorCode::JudgeAuthenticationError)
        );
        let Err(CallError::Failed(failure)) = result else {
            panic!("the call was expected to fail")
        };
        assert!(
            failure.message.contains("gave none within 5 s"),
            "{}",
            failure.message
        );
        assert!(
            transport.sent.take().is_empty(),
            "no request without a credential"
        );
        let cancel = Cancel::new();
        let hanging_clock = ManualClock::hanging_from(Duration::from_secs(3600));
        let scheduler = Scheduler::new(
            endpoint(),
            &transport,
            &hanging_clock,
            &HangingCredentials,
            Policy {
                timeout: Duration::from_secs(3600),
                ..policy()
            },
        )
        .with_cancel(cancel.clone());
        let pending = request("x");
        let mut call = Box::pin(scheduler.call(&pending));
        assert!(futures::FutureExt::now_or_never(call.as_mut()).is_none());
        cancel.cancel();
        assert!(matches!(block_on(call), Err(CallError::Cancelled)));
    }

    #[test]
    fn remembered_answers_are_served_from_the_cache() {
        let calls = Cell::new(0);
        let transport = ScriptedTransport::new(|_, _| {
            calls.set(calls.get() + 1);
            Some(Ok(completion("{\"score\": 3}")))
        });
        let clock = ManualClock::default();
        let credentials = FixedCredential(None);
        let scheduler = Scheduler::new(endpoint(), &transport, &clock, &credentials, policy());
        block_on(async {
            let first = scheduler.call(&request("a")).await.unwrap();
            scheduler.remember(&first).await;
            let again = scheduler.call(&request("a")).await.unwrap();
            assert!(again.cached);
            assert_eq!(again.completion, first.completion);
            let other = scheduler.call(&request("b")).await.unwrap();
            assert!(!other.cached);
        });
        assert_eq!(calls.get(), 2);
        let stats = scheduler.stats();
        assert_eq!((stats.cache_hits, stats.cache_misses), (1, 2));
        assert!(transport.sent.borrow()[0]
            .headers
            .iter()
            .all(|(name, _)| name != "api-key"));
    }

    #[test]
    fn a_duplicate_waiting_behind_the_first_is_answered_from_memory() {
        let transport = ScriptedTransport::new(|_, _| Some(Ok(completion("{\"score\": 3}"))));
        let clock = ManualClock::default();
        let credentials = FixedCredential(None);
        let scheduler = Scheduler::new(
            endpoint(),
            &transport,
            &clock,
            &credentials,
            Policy {
                concurrency: 1,
                ..policy()
            },
        );
        let same = request("same");
        let call = || async {
            let answer = scheduler.call(&same).await.unwrap();
            scheduler.remember(&answer).await;
            answer.cached
        };
        let cached = block_on(futures::future::join3(call(), call(), call()));
        assert_eq!(cached, (false, true, true));
        assert_eq!(transport.sent.borrow().len(), 1);
        let stats = scheduler.stats();
        assert_eq!(
            (stats.cache_hits, stats.cache_misses, stats.requests),
            (2, 1, 1)
        );
        assert_eq!(stats.usage.total_tokens, 15);
    }

    #[test]
    fn cancellation_stops_calls_in_flight_and_new_ones() {
        let transport = ScriptedTransport::new(|_, _| None);
        let clock = ManualClock::hanging_from(Duration::from_secs(3600));
        let credentials = FixedCredential(None);
        let cancel = Cancel::new();
        let scheduler = Scheduler::new(
            endpoint(),
            &transport,
            &clock,
            &credentials,
            Policy {
                timeout: Duration::from_secs(3600),
                ..policy()
            },
        )
        .with_cancel(cancel.clone());
        let pending = request("x");
        let mut call = Box::pin(scheduler.call(&pending));
        assert!(futures::FutureExt::now_or_never(call.as_mut()).is_none());
        cancel.cancel();
        assert_eq!(block_on(call), Err(CallError::Cancelled));
        assert_eq!(
            block_on(scheduler.call(&request("y"))),
            Err(CallError::Cancelled)
        );
        assert_eq!(transport.sent.borrow().len(), 1);
    }
}
