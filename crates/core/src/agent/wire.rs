//! What every target shares on the wire: the run's context (scheduler, clock, secrets), JSON
//! requests with their credential, sending them as scheduler exchanges, and reading an answer's
//! status and JSON body into an [`AgentError`] that names the call.

use std::collections::BTreeMap;

use serde_json::Value;

use super::target::{KeyHeader, SecretRef};
use super::AgentError;
use crate::judge::{CallError, Clock, Exchange, HttpRequest, HttpResponse, Method, Scheduler};

/// The secrets a run may use, by the name the target gives them (an environment variable's
/// name in the CLI). Never shown by `Debug`.
#[derive(Clone, Default)]
pub struct Secrets {
    values: BTreeMap<String, String>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.values.keys()).finish()
    }
}

impl Secrets {
    /// Secrets from `(name, value)` pairs; empty values are left out.
    pub fn new(pairs: impl IntoIterator<Item = (String, String)>) -> Self {
        Secrets {
            values: pairs
                .into_iter()
                .filter(|(_, value)| !value.is_empty())
                .collect(),
        }
    }

    /// The value called `name`.
    pub fn named(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The value `secret` refers to.
    ///
    /// # Errors
    /// `agentAuthenticationError` naming the missing secret.
    pub fn get(&self, secret: &SecretRef) -> Result<&str, AgentError> {
        let SecretRef::Env(name) = secret;
        self.named(name).ok_or_else(|| {
            AgentError::new(
                "agentAuthenticationError",
                format!("the secret {name} is not set"),
            )
        })
    }

    /// Every value, to redact from whatever an agent answers.
    pub fn values(&self) -> Vec<String> {
        self.values.values().cloned().collect()
    }
}

/// What a target's calls run on.
pub struct Context<'r> {
    /// The scheduler every request goes through.
    pub scheduler: &'r Scheduler<'r>,
    /// The runtime's clock (Direct Line's quiet time and polling).
    pub clock: &'r dyn Clock,
    /// The secrets.
    pub secrets: &'r Secrets,
    /// Secrets learnt during the run (conversation tokens), redacted as well.
    pub redact: Vec<String>,
}

impl Context<'_> {
    /// Sends `request` through the scheduler; `call` says what it does.
    ///
    /// # Errors
    /// The failure once retries are exhausted, or `cancelled`.
    pub async fn send(&self, call: &str, request: HttpRequest) -> Result<HttpResponse, AgentError> {
        let mut secrets = self.secrets.values();
        secrets.extend(self.redact.iter().cloned());
        let exchange = Exchange {
            call,
            secrets: &secrets,
        };
        self.scheduler
            .exchange(exchange, request)
            .await
            .map_err(|error| match error {
                CallError::Cancelled => AgentError::new(
                    "cancelled",
                    format!("{call}: the run was stopped before the agent answered"),
                ),
                CallError::Failed(failure) => {
                    let code = match failure.code {
                        crate::ErrorCode::JudgeRateLimited => "agentRateLimited",
                        crate::ErrorCode::JudgeTimeout => "agentTimeout",
                        crate::ErrorCode::EvaluatorConfigurationError => "agentConfigurationError",
                        _ => "agentError",
                    };
                    AgentError::new(code, failure.message)
                }
            })
    }

    /// Sends `request` and reads its JSON answer.
    ///
    /// # Errors
    /// As [`Context::send`], then [`read_json`].
    pub async fn send_json(&self, call: &str, request: HttpRequest) -> Result<Value, AgentError> {
        let response = self.send(call, request).await?;
        read_json(call, &response)
    }
}

/// A JSON request: `body` as the POST body (none for a GET), with `credential` as a header.
pub fn json_request(
    method: Method,
    url: String,
    body: Option<&Value>,
    credential: Option<(String, String)>,
) -> HttpRequest {
    let mut headers = vec![("accept".to_owned(), "application/json".to_owned())];
    if body.is_some() {
        headers.push(("content-type".to_owned(), "application/json".to_owned()));
    }
    headers.extend(credential);
    HttpRequest {
        method,
        url,
        headers,
        body: body.map(Value::to_string).unwrap_or_default(),
        max_response_bytes: crate::judge::http::DEFAULT_MAX_RESPONSE_BYTES,
    }
}

/// The header that carries `key`.
pub fn key_header(header: KeyHeader, key: &str) -> (String, String) {
    match header {
        KeyHeader::Bearer => bearer(key),
        KeyHeader::ApiKey => ("api-key".to_owned(), key.to_owned()),
    }
}

/// `Authorization: Bearer token`.
pub fn bearer(token: &str) -> (String, String) {
    ("authorization".to_owned(), format!("Bearer {token}"))
}

/// The credential header of an optional key.
///
/// # Errors
/// The key's secret is not set.
pub fn optional_key(
    secrets: &Secrets,
    key: Option<&SecretRef>,
    header: KeyHeader,
) -> Result<Option<(String, String)>, AgentError> {
    key.map(|key| secrets.get(key).map(|value| key_header(header, value)))
        .transpose()
}

/// The error of an answer whose status is not 2xx.
pub fn status_error(call: &str, response: &HttpResponse) -> AgentError {
    let status = response.status;
    let said = endpoint_message(&response.body);
    match status {
        401 | 403 => AgentError::new(
            "agentAuthenticationError",
            format!("{call}: the agent refused the credentials ({status}){said}"),
        ),
        _ => AgentError::new(
            "agentConfigurationError",
            format!("{call}: the agent answered {status}{said}; check the target's endpoint"),
        ),
    }
}

/// The JSON body of a 2xx answer.
///
/// # Errors
/// [`status_error`] for another status; `agentError` for a body that is not JSON.
pub fn read_json(call: &str, response: &HttpResponse) -> Result<Value, AgentError> {
    if !(200..300).contains(&response.status) {
        return Err(status_error(call, response));
    }
    serde_json::from_str(&response.body).map_err(|error| {
        AgentError::new(
            "agentError",
            format!("{call}: the answer is not JSON ({error})"),
        )
    })
}

/// `: message` from an error body (`error.message`, `error` as text, or `message`), shortened.
fn endpoint_message(body: &str) -> String {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return String::new();
    };
    let message = value
        .pointer("/error/message")
        .or_else(|| value.get("error").filter(|error| error.is_string()))
        .or_else(|| value.get("message"))
        .and_then(Value::as_str);
    match message {
        Some(message) => format!(": {}", message.chars().take(200).collect::<String>()),
        None => String::new(),
    }
}

/// A string field of `value`.
pub fn text_at<'v>(value: &'v Value, pointer: &str) -> Option<&'v str> {
    value.pointer(pointer).and_then(Value::as_str)
}

/// Percent-encodes a URL path segment or query value (everything but unreserved characters).
pub fn encode_component(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}
