//! The HTTP exchange with a judge endpoint as plain data, and the two seams through which a
//! runtime carries it: [`Transport`] (send a request) and [`Clock`] (read the time, sleep). The
//! core builds requests and reads responses; the CLI and the wasm package implement the seams.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// A boxed future that need not be `Send` (browsers and the CLI's executor are single-threaded).
pub type LocalFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// Header names whose values are credentials: never shown by `Debug`, logs or errors.
const SECRET_HEADERS: [&str; 2] = ["api-key", "authorization"];

/// An HTTP method the core sends: POST for judge and agent calls, GET for polling and token
/// endpoints (Direct Line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// `GET`: no body is sent.
    Get,
    /// `POST` with the request's body.
    #[default]
    Post,
}

impl Method {
    /// The method's name as sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// One request to a judge or agent endpoint.
#[derive(Clone, PartialEq)]
pub struct HttpRequest {
    /// `POST` (with [`HttpRequest::body`]) or `GET` (the body is not sent).
    pub method: Method,
    /// Full URL, query included.
    pub url: String,
    /// Header names (lower case) and values, credentials included once the scheduler adds them.
    pub headers: Vec<(String, String)>,
    /// JSON body (of a POST).
    pub body: String,
    /// The largest response body the transport reads: it checks `Content-Length` first and the
    /// bytes as they stream, and answers [`TransportError::TooLarge`] past it.
    pub max_response_bytes: usize,
}

/// The default of [`HttpRequest::max_response_bytes`]: 4 MiB, far above any judge reply.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 4 << 20;

impl fmt::Debug for HttpRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(name, value)| {
                let shown = if is_secret_header(name) {
                    "[redacted]"
                } else {
                    value.as_str()
                };
                (name.as_str(), shown)
            })
            .collect();
        f.debug_struct("HttpRequest")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &headers)
            .field("body", &self.body)
            .finish()
    }
}

/// Whether a header carries a credential.
pub fn is_secret_header(name: &str) -> bool {
    SECRET_HEADERS
        .iter()
        .any(|secret| secret.eq_ignore_ascii_case(name))
}

/// What the endpoint answered.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HttpResponse {
    /// HTTP status code.
    pub status: u16,
    /// Response headers (names in any case).
    pub headers: Vec<(String, String)>,
    /// Body as text.
    pub body: String,
}

impl HttpResponse {
    /// The first header called `name`, compared case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// Why no response arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// The connection failed or broke (refused, reset, DNS, TLS, a body cut short…).
    Network(String),
    /// The runtime refused the request before sending it (a malformed URL or header).
    Invalid(String),
    /// The endpoint redirected where agenteval does not follow.
    Redirected(String),
    /// The response body is longer than the request's limit; reading stopped there.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::Network(message) => write!(f, "network error: {message}"),
            TransportError::Invalid(message) => write!(f, "request not sent: {message}"),
            TransportError::Redirected(message) => f.write_str(message),
            TransportError::TooLarge { limit } => write!(
                f,
                "the response is larger than {limit} bytes; reading stopped there (raise the \
                 judge's reply limit if the endpoint's answers are really that long)"
            ),
        }
    }
}

/// Sends HTTP requests. Dropping the returned future must abort the request (the scheduler drops
/// it on time-out and cancellation). A transport never follows a redirect: it returns the 3xx
/// response (or [`TransportError::Redirected`] where the runtime hides its target), and the
/// scheduler's redirect rule decides.
pub trait Transport {
    /// Sends `request` with its method and resolves to the whole response.
    fn send(&self, request: HttpRequest) -> LocalFuture<'_, Result<HttpResponse, TransportError>>;
}

/// Time as the runtime keeps it.
pub trait Clock {
    /// Time since an arbitrary fixed origin (monotonic).
    fn now(&self) -> Duration;
    /// Resolves after `duration`.
    fn sleep(&self, duration: Duration) -> LocalFuture<'_, ()>;
}

/// Supplies the credential of each request: a fixed key, or a fresh token per call (portal
/// extensions get Entra ID tokens from an async callback).
pub trait Credentials {
    /// The credential to send now; `None` sends no credential (a local server).
    ///
    /// # Errors
    /// Why no credential could be had; the call fails with `judgeAuthenticationError`.
    fn credential(&self) -> LocalFuture<'_, Result<Option<Credential>, String>>;
}

/// A secret and how it is sent.
#[derive(Clone, PartialEq, Eq)]
pub enum Credential {
    /// An API key: `api-key` for Azure endpoints, `Authorization: Bearer` for OpenAI-compatible ones.
    ApiKey(String),
    /// A bearer token (`Authorization: Bearer`), e.g. from Entra ID.
    Bearer(String),
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Credential::ApiKey(_) => f.write_str("ApiKey([redacted])"),
            Credential::Bearer(_) => f.write_str("Bearer([redacted])"),
        }
    }
}

impl Credential {
    /// The secret itself, to redact wherever server text could echo it.
    pub fn secret(&self) -> &str {
        match self {
            Credential::ApiKey(secret) | Credential::Bearer(secret) => secret,
        }
    }
}

/// `text` with every occurrence of `secret` replaced by its first three characters and
/// `…[redacted]` (the whole of it for a secret shorter than 12), so a key a server echoes in an
/// error or a reply never reaches a result, an output, a log or the cache.
pub fn redact<'t>(text: &'t str, secret: &str) -> std::borrow::Cow<'t, str> {
    if secret.is_empty() || !text.contains(secret) {
        return std::borrow::Cow::Borrowed(text);
    }
    let shown: String = if secret.chars().count() < 12 {
        String::new()
    } else {
        secret.chars().take(3).collect()
    };
    std::borrow::Cow::Owned(text.replace(secret, &format!("{shown}…[redacted]")))
}

/// A fixed credential (or none).
#[derive(Debug, Clone, Default)]
pub struct FixedCredential(pub Option<Credential>);

impl Credentials for FixedCredential {
    fn credential(&self) -> LocalFuture<'_, Result<Option<Credential>, String>> {
        let credential = self.0.clone();
        Box::pin(async move { Ok(credential) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_hides_credentials() {
        let request = HttpRequest {
            method: Method::Post,
            url: "https://example.test/x".into(),
            headers: vec![
                ("api-key".into(), "sk-secret-1".into()),
                ("Authorization".into(), "Bearer sk-secret-2".into()),
                ("content-type".into(), "application/json".into()),
            ],
            body: "{}".into(),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
        };
        let shown = format!("{request:?}");
        assert!(!shown.contains("sk-secret"), "{shown}");
        assert!(shown.contains("application/json"));
        let credential = Credential::ApiKey("sk-secret-3".into());
        assert!(!format!("{credential:?}").contains("sk-secret"));
    }

    #[test]
    fn echoed_secrets_are_redacted_wherever_they_appear() {
        let key = "sk-proj-4f8a9b0c1d2e";
        let echoed = format!("invalid key {key} (key: '{key}')");
        assert_eq!(
            redact(&echoed, key),
            "invalid key sk-…[redacted] (key: 'sk-…[redacted]')"
        );
        assert_eq!(
            redact("short secret abc123 here", "abc123"),
            "short secret …[redacted] here"
        );
        assert!(matches!(
            redact("nothing to hide", key),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(redact("x", ""), "x");
    }

    #[test]
    fn headers_are_found_in_any_case() {
        let response = HttpResponse {
            status: 429,
            headers: vec![("Retry-After".into(), "2".into())],
            body: String::new(),
        };
        assert_eq!(response.header("retry-after"), Some("2"));
        assert_eq!(response.header("retry-after-ms"), None);
    }
}
