//! HTTP messages as the server handles them: the request read from a connection, the response
//! and how a request is answered ([`Outcome`]: whole, truncated or not at all), and their bytes on
//! the wire, with the CORS headers every response carries. Reading and writing sockets is
//! `connection`'s; what to answer is `routes`'s.

use std::time::Duration;

use crate::stats::InFlight;

/// Headers every response carries (a response may replace one by setting it itself).
const CORS_HEADERS: [(&str, &str); 4] = [
    ("access-control-allow-origin", "*"),
    ("access-control-allow-headers", ALLOW_HEADERS),
    ("access-control-allow-methods", "GET, POST, OPTIONS"),
    (
        "access-control-expose-headers",
        "retry-after, retry-after-ms, x-ratelimit-remaining-requests, \
         x-ratelimit-remaining-tokens, x-ratelimit-reset-requests, x-ratelimit-reset-tokens, \
         x-request-id",
    ),
];

/// The request headers browsers may send, as listed in every response.
pub(crate) const ALLOW_HEADERS: &str =
    "content-type, api-key, authorization, x-ms-useragent, x-ms-client-request-id";

/// One request as read from a connection.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    /// `GET`, `POST`, `OPTIONS`, ...
    pub(crate) method: String,
    /// The request target: path and query.
    pub(crate) target: String,
    /// Header names in lower case, and values.
    pub(crate) headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub(crate) body: Vec<u8>,
    /// Whether the client keeps the connection open after this request.
    pub(crate) keep_alive: bool,
}

impl Request {
    /// The value of header `name` (lower case), if present.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }

    /// The token of an `Authorization: Bearer TOKEN` header, if any.
    pub(crate) fn bearer(&self) -> Option<&str> {
        let (scheme, token) = self.header("authorization")?.split_once(' ')?;
        scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
    }

    /// Whether the request carries `key` as `api-key: KEY` or `Authorization: Bearer KEY`.
    pub(crate) fn carries_key(&self, key: &str) -> bool {
        self.header("api-key") == Some(key) || self.bearer() == Some(key)
    }

    /// The value of query parameter `name`, if present (not percent-decoded).
    pub(crate) fn query(&self, name: &str) -> Option<&str> {
        let (_, query) = self.target.split_once('?')?;
        query.split('&').find_map(|pair| {
            let (field, value) = pair.split_once('=').unwrap_or((pair, ""));
            (field == name).then_some(value)
        })
    }

    /// The target without its query.
    pub(crate) fn path(&self) -> &str {
        self.target
            .split_once('?')
            .map_or(self.target.as_str(), |(path, _)| path)
    }
}

/// A complete response.
#[derive(Debug, Clone)]
pub(crate) struct Response {
    pub(crate) status: u16,
    /// Header names in lower case, and values; `content-length` and `connection` are added
    /// when written.
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Response {
    /// A response with `body` serialised as JSON.
    pub(crate) fn json(status: u16, body: &serde_json::Value) -> Self {
        Response {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string().into_bytes(),
        }
    }

    /// A response with no body.
    pub(crate) fn empty(status: u16) -> Self {
        Response {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// A response with a body of another content type.
    pub(crate) fn text(status: u16, content_type: &str, body: &str) -> Self {
        Response {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body: body.as_bytes().to_vec(),
        }
    }

    /// Adds a header.
    pub(crate) fn with_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_ascii_lowercase(), value.into()));
        self
    }
}

/// How a request is answered.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The response, whole.
    Send(Response),
    /// The response's head, announcing its whole body, then only the first half of the body,
    /// then the connection is closed.
    Truncate(Response),
    /// Nothing for this long (or until the server stops), then the connection is closed.
    Hang(Duration),
}

/// A 400 with an OpenAI-style `invalid_request_error` saying `message`.
pub(crate) fn invalid(message: &str) -> Outcome {
    Outcome::Send(Response::json(
        400,
        &serde_json::json!({"error": {
            "message": message, "type": "invalid_request_error", "param": null, "code": null
        }}),
    ))
}

/// A 405 saying that `method` is not allowed and which one is.
pub(crate) fn method_not_allowed(method: &str, allowed: &str) -> Outcome {
    Outcome::Send(
        Response::json(
            405,
            &serde_json::json!({"error": {
                "code": "MethodNotAllowed",
                "message": format!("{method} is not allowed here; use {allowed}"),
            }}),
        )
        .with_header("allow", allowed),
    )
}

/// An outcome, and the in-flight mark to drop once it has been carried out.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) outcome: Outcome,
    pub(crate) in_flight: Option<InFlight>,
}

impl From<Outcome> for Reply {
    fn from(outcome: Outcome) -> Self {
        Reply {
            outcome,
            in_flight: None,
        }
    }
}

impl From<Response> for Reply {
    fn from(response: Response) -> Self {
        Outcome::Send(response).into()
    }
}

/// The bytes of `response` on the wire.
pub(crate) fn serialize(
    response: &Response,
    keep_alive: bool,
    body_limit: Option<usize>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(512 + response.body.len());
    out.extend_from_slice(
        format!(
            "HTTP/1.1 {} {}\r\n",
            response.status,
            reason_phrase(response.status)
        )
        .as_bytes(),
    );
    let mut header = |name: &str, value: &str| {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    };
    header("server", "agenteval-judge");
    for (name, value) in &response.headers {
        header(name, value);
    }
    for (name, value) in CORS_HEADERS {
        if !response.headers.iter().any(|(field, _)| field == name) {
            header(name, value);
        }
    }
    // RFC 9110 §8.6: no Content-Length in a 204.
    if response.status != 204 {
        header("content-length", &response.body.len().to_string());
    }
    header(
        "connection",
        if keep_alive { "keep-alive" } else { "close" },
    );
    out.extend_from_slice(b"\r\n");
    let body = match body_limit {
        Some(limit) => response.body.get(..limit).unwrap_or(&response.body),
        None => &response.body,
    };
    out.extend_from_slice(body);
    out
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Content Too Large",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialised_responses_carry_cors_and_length() {
        let response = Response::text(200, "text/plain", "hello").with_header("X-Request-Id", "7");
        let text = String::from_utf8(serialize(&response, true, Some(2))).unwrap_or_default();
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"));
        assert!(text.contains("access-control-allow-origin: *\r\n"));
        assert!(text.contains("x-request-id: 7\r\n"));
        assert!(text.contains("content-length: 5\r\n"));
        assert!(text.contains("connection: keep-alive\r\n"));
        assert!(text.ends_with("\r\n\r\nhe"));
        let empty = String::from_utf8(serialize(&Response::empty(204), false, None));
        assert!(!empty.unwrap_or_default().contains("content-length"));
    }
}
