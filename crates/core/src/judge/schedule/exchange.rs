//! Plain HTTP exchanges through the scheduler, for callers that read the answer themselves (the
//! agent targets): the same bounded concurrency, per-attempt time-out,
//! retries of 429 (waiting as `Retry-After` asks), 408, 5xx and network errors with back-off,
//! and cancellation as judge calls, but no cache and no credential of the scheduler's own (each
//! request carries its own headers). Any other status is handed back for the caller to read.

use std::pin::pin;
use std::time::Duration;

use futures::future::{select, Either};

use super::{endpoint_message, exhausted, failure, redacted, CallError, Scheduler};
use crate::judge::backoff::{backoff, requested_wait};
use crate::judge::http::{HttpRequest, HttpResponse, TransportError};
use crate::judge::redirect;
use crate::judge::verdict::JudgeFailure;
use crate::outcome::ErrorCode;
use crate::text::decimal;

/// One exchange: what it is (named in every failure) and the secrets its request carries, which
/// are redacted from whatever the endpoint answers.
#[derive(Debug, Clone, Copy)]
pub struct Exchange<'c> {
    /// What the call does, e.g. `Direct Line: post the prompt`.
    pub call: &'c str,
    /// Secret values to redact from the answer and from errors.
    pub secrets: &'c [String],
}

/// How one attempt of an exchange ended.
enum Step {
    Handed(HttpResponse),
    Retry {
        failure: JudgeFailure,
        wait: Option<Duration>,
    },
    Final(JudgeFailure),
}

impl Scheduler<'_> {
    /// Sends `request`, retrying rate limits, time-outs, 408, 5xx and network errors; any other
    /// answer (2xx, or a 4xx the caller must read, such as an expired conversation's 403) is
    /// returned as it came, its secrets redacted.
    ///
    /// # Errors
    /// [`CallError::Failed`] naming `exchange.call` once retries are exhausted or the request
    /// cannot be sent; [`CallError::Cancelled`] when the run is stopped.
    pub async fn exchange(
        &self,
        exchange: Exchange<'_>,
        request: HttpRequest,
    ) -> Result<HttpResponse, CallError> {
        let seed = request_seed(&request);
        let mut attempt = 0;
        loop {
            if self.cancel.is_cancelled() {
                return Err(CallError::Cancelled);
            }
            let outcome = self
                .exchange_once(exchange, request.clone(), attempt + 1, seed)
                .await?;
            let (failure, wait) = match outcome {
                Step::Handed(response) => return Ok(response),
                Step::Final(failure) => {
                    self.stats.borrow_mut().failures += 1;
                    return Err(CallError::Failed(failure));
                }
                Step::Retry { failure, wait } => (failure, wait),
            };
            attempt += 1;
            if attempt > self.policy.max_retries {
                self.stats.borrow_mut().failures += 1;
                return Err(CallError::Failed(exhausted(failure, attempt)));
            }
            self.wait_to_retry(attempt, wait, seed).await?;
        }
    }

    async fn exchange_once(
        &self,
        exchange: Exchange<'_>,
        mut request: HttpRequest,
        number: u32,
        seed: u64,
    ) -> Result<Step, CallError> {
        let permit = {
            let acquire = pin!(self.limiter.acquire(self.clock));
            let cancelled = pin!(self.cancel.cancelled());
            match select(acquire, cancelled).await {
                Either::Left((permit, _)) => permit,
                Either::Right(_) => return Err(CallError::Cancelled),
            }
        };
        request.max_response_bytes = self.policy.max_reply_bytes;
        self.stats.borrow_mut().requests += 1;
        let sent_at = self.clock.now();
        let sent = pin!(redirect::send(self.transport, request));
        let timeout = pin!(self.clock.sleep(self.policy.timeout));
        let cancelled = pin!(self.cancel.cancelled());
        let response = match select(sent, select(timeout, cancelled)).await {
            Either::Left((response, _)) => response,
            Either::Right((Either::Left(_), _)) => {
                return Ok(Step::Retry {
                    failure: failure(
                        ErrorCode::JudgeTimeout,
                        format!(
                            "{}: no answer within {} s",
                            exchange.call,
                            decimal::plain(self.policy.timeout.as_secs_f64())
                        ),
                    ),
                    wait: None,
                });
            }
            Either::Right((Either::Right(_), _)) => return Err(CallError::Cancelled),
        };
        drop(permit);
        let response = exchange
            .secrets
            .iter()
            .fold(response, |response, secret| redacted(response, secret));
        let fallback = backoff(
            self.policy.backoff_base,
            self.policy.backoff_cap,
            number,
            seed,
        );
        Ok(self.classify_exchange(exchange.call, response, sent_at, fallback))
    }

    fn classify_exchange(
        &self,
        call: &str,
        response: Result<HttpResponse, TransportError>,
        sent_at: Duration,
        fallback: Duration,
    ) -> Step {
        let response = match response {
            Ok(response) => response,
            Err(error @ TransportError::Network(_)) => {
                return Step::Retry {
                    failure: failure(ErrorCode::EvaluatorError, format!("{call}: {error}")),
                    wait: None,
                }
            }
            Err(error @ TransportError::TooLarge { .. }) => {
                return Step::Final(failure(
                    ErrorCode::EvaluatorError,
                    format!("{call}: the reply was cut off: {error}"),
                ))
            }
            Err(error @ (TransportError::Invalid(_) | TransportError::Redirected(_))) => {
                return Step::Final(failure(
                    ErrorCode::EvaluatorConfigurationError,
                    format!("{call}: {error}"),
                ))
            }
        };
        let status = response.status;
        match status {
            429 => {
                self.stats.borrow_mut().rate_limited += 1;
                let wait = requested_wait(&response)
                    .unwrap_or(fallback)
                    .min(self.policy.backoff_cap);
                self.limiter.rate_limited(self.clock.now(), sent_at, wait);
                Step::Retry {
                    failure: failure(
                        ErrorCode::JudgeRateLimited,
                        format!(
                            "{call}: rate-limited (429){}",
                            endpoint_message(&response.body)
                        ),
                    ),
                    wait: Some(Duration::ZERO),
                }
            }
            408 | 500..=599 => Step::Retry {
                failure: failure(
                    if status == 408 || status == 504 {
                        ErrorCode::JudgeTimeout
                    } else {
                        ErrorCode::EvaluatorError
                    },
                    format!(
                        "{call}: the endpoint answered {status}{}",
                        endpoint_message(&response.body)
                    ),
                ),
                wait: requested_wait(&response).map(|wait| wait.min(self.policy.backoff_cap)),
            },
            _ => {
                if (200..300).contains(&status) {
                    self.limiter.succeeded();
                }
                Step::Handed(response)
            }
        }
    }
}

/// A seed for the back-off jitter from the request's method, URL and body (FNV-1a).
fn request_seed(request: &HttpRequest) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in request
        .method
        .as_str()
        .bytes()
        .chain(request.url.bytes())
        .chain(request.body.bytes())
    {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use futures::executor::block_on;

    use super::*;
    use crate::judge::http::Method;
    use crate::judge::testing::{status, ManualClock, Scripted, ScriptedTransport};
    use crate::judge::Policy;

    fn exchange_with(
        script: impl Fn(&HttpRequest, usize) -> Option<Scripted>,
    ) -> (Result<HttpResponse, CallError>, usize) {
        let transport = ScriptedTransport::new(script);
        let clock = ManualClock::default();
        let scheduler = Scheduler::for_exchanges(
            &transport,
            &clock,
            Policy {
                max_retries: 2,
                ..Policy::default()
            },
        );
        let secrets = vec!["agent-secret-123456".to_owned()];
        let request = HttpRequest {
            method: Method::Get,
            url: "https://agent.test/poll".into(),
            headers: Vec::new(),
            body: String::new(),
            max_response_bytes: 1024,
        };
        let result = block_on(scheduler.exchange(
            Exchange {
                call: "poll",
                secrets: &secrets,
            },
            request,
        ));
        let sent = transport.sent.borrow().len();
        (result, sent)
    }

    #[test]
    fn client_errors_are_handed_back_unretried_with_secrets_redacted() {
        let (result, sent) = exchange_with(|_, _| {
            Some(Ok(HttpResponse {
                status: 403,
                headers: Vec::new(),
                body: "{\"error\": \"token agent-secret-123456 expired\"}".into(),
            }))
        });
        let response = result.unwrap();
        assert_eq!((response.status, sent), (403, 1));
        assert_eq!(
            response.body,
            "{\"error\": \"token age…[redacted] expired\"}"
        );
    }

    #[test]
    fn server_errors_are_retried_then_fail_naming_the_call() {
        let (result, sent) = exchange_with(|_, _| Some(Ok(status(502, &[]))));
        assert_eq!(sent, 3);
        let Err(CallError::Failed(failure)) = result else {
            panic!("expected a failure")
        };
        assert_eq!(
            failure.message,
            "poll: the endpoint answered 502: status 502 (gave up after 3 attempts)"
        );
        let (result, _) = exchange_with(|_, attempt| {
            Some(Ok(if attempt == 0 {
                status(429, &[("retry-after", "1")])
            } else {
                status(200, &[])
            }))
        });
        assert_eq!(result.map(|response| response.status), Ok(200));
    }
}
