//! Redirects from an endpoint. The transports never follow one themselves; [`send`] decides: a
//! redirect within the request's origin (scheme, host and port) is sent again, request and
//! headers unchanged, up to [`MAX_HOPS`] times; one to another origin, or to an address this
//! module cannot read with certainty, is refused before anything is sent there, so credentials
//! never leave the origin the user configured.

use super::http::{HttpRequest, HttpResponse, Transport, TransportError};

/// Most redirects followed for one request.
pub const MAX_HOPS: u32 = 5;

/// What a transport reports when its runtime hides a redirect's target (a browser's
/// `opaqueredirect` response to `redirect: "manual"`).
pub const HIDDEN: &str = "the endpoint redirected, and the browser does not reveal where; \
     agenteval follows no redirect it cannot check: configure the final endpoint directly";

/// Whether `status` asks the client to go elsewhere.
pub fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// Sends `request` through `transport`, following redirects within its origin.
///
/// # Errors
/// The transport's error, or [`TransportError::Redirected`] naming why a redirect was refused.
pub async fn send(
    transport: &dyn Transport,
    mut request: HttpRequest,
) -> Result<HttpResponse, TransportError> {
    let mut hops = 0;
    loop {
        let url = request.url.clone();
        let response = transport.send(request.clone()).await?;
        if !is_redirect(response.status) {
            return Ok(response);
        }
        if hops == MAX_HOPS {
            return Err(TransportError::Redirected(format!(
                "the endpoint redirected more than {MAX_HOPS} times"
            )));
        }
        hops += 1;
        request.url =
            next_url(&url, response.header("location")).map_err(TransportError::Redirected)?;
    }
}

/// The URL to send the request to next, or why the redirect is refused.
fn next_url(from: &str, location: Option<&str>) -> Result<String, String> {
    let origin = Origin::of(from).ok_or_else(|| {
        "the endpoint redirected from an address agenteval cannot read".to_owned()
    })?;
    let Some(location) = location.map(str::trim) else {
        return Err("the endpoint redirected without saying where (no Location header)".to_owned());
    };
    if location.is_empty()
        || location
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
    {
        return Err(refused("an unreadable address"));
    }
    if let Some(rest) = location.strip_prefix("//") {
        return same_origin(&origin, &format!("{}://{rest}", origin.scheme));
    }
    if has_scheme(location) {
        return same_origin(&origin, location);
    }
    let base = origin.path_of(from);
    let base = base
        .find(['?', '#'])
        .map_or(base, |end| base.get(..end).unwrap_or("/"));
    let path = if location.starts_with('/') {
        location.to_owned()
    } else if location.starts_with(['?', '#']) {
        format!("{base}{location}")
    } else {
        let directory = base
            .rfind('/')
            .map_or("/", |end| base.get(..=end).unwrap_or("/"));
        format!("{directory}{location}")
    };
    Ok(format!("{}{path}", origin.serialized()))
}

/// `location` when it is in `origin`, rebuilt on the origin as written in the configuration.
fn same_origin(origin: &Origin, location: &str) -> Result<String, String> {
    match Origin::of(location) {
        Some(target) if target == *origin => Ok(format!(
            "{}{}",
            origin.serialized(),
            target.path_of(location)
        )),
        Some(target) => Err(refused(&target.serialized())),
        None => Err(refused("an unreadable address")),
    }
}

fn refused(target: &str) -> String {
    format!(
        "the endpoint redirected to another origin ({target}); agenteval does not follow it with \
         your credentials: configure that endpoint directly"
    )
}

fn has_scheme(location: &str) -> bool {
    location
        .split_once(':')
        .is_some_and(|(scheme, _)| !scheme.is_empty() && scheme.chars().all(is_scheme_char))
}

fn is_scheme_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
}

/// An HTTP(S) origin, read strictly: a URL with user information, an unknown scheme or an
/// unusual host has none, so it is never taken for the configured one.
#[derive(Debug, PartialEq, Eq)]
struct Origin {
    scheme: &'static str,
    host: String,
    port: u16,
}

impl Origin {
    fn of(url: &str) -> Option<Origin> {
        let (scheme, rest) = url.split_once("://")?;
        let (scheme, default_port) = match scheme.to_ascii_lowercase().as_str() {
            "http" => ("http", 80),
            "https" => ("https", 443),
            _ => return None,
        };
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = rest.get(..end)?;
        let (host, port) = match authority.strip_prefix('[') {
            Some(bracketed) => {
                let (address, after) = bracketed.split_once(']')?;
                if !address
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
                {
                    return None;
                }
                (format!("[{}]", address.to_ascii_lowercase()), after)
            }
            None => {
                let split = authority.find(':').unwrap_or(authority.len());
                let host = authority.get(..split)?;
                let valid = !host.is_empty()
                    && host
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
                if !valid {
                    return None;
                }
                (host.to_ascii_lowercase(), authority.get(split..)?)
            }
        };
        let port = match port.strip_prefix(':') {
            None if port.is_empty() => default_port,
            None => return None,
            Some("") => default_port,
            Some(digits) if digits.chars().all(|c| c.is_ascii_digit()) => digits.parse().ok()?,
            Some(_) => return None,
        };
        Some(Origin { scheme, host, port })
    }

    /// The path, query and fragment of `url`, whose origin is this one (`/` when it has none).
    fn path_of<'u>(&self, url: &'u str) -> &'u str {
        let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
        match rest.find(['/', '?', '#']) {
            Some(start) => rest.get(start..).unwrap_or("/"),
            None => "/",
        }
    }

    fn serialized(&self) -> String {
        let default = if self.scheme == "https" { 443 } else { 80 };
        if self.port == default {
            format!("{}://{}", self.scheme, self.host)
        } else {
            format!("{}://{}:{}", self.scheme, self.host, self.port)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use futures::executor::block_on;

    use super::*;
    use crate::judge::http::LocalFuture;

    const FROM: &str =
        "https://judge.example.com/openai/deployments/gpt/chat/completions?api-version=1";

    #[test]
    fn redirects_within_the_origin_are_followed_on_it() {
        for (location, expected) in [
            ("/v2/chat", "https://judge.example.com/v2/chat"),
            (
                "https://JUDGE.example.com:443/x?y=1",
                "https://judge.example.com/x?y=1",
            ),
            ("//judge.example.com/z", "https://judge.example.com/z"),
            (
                "next",
                "https://judge.example.com/openai/deployments/gpt/chat/next",
            ),
            (
                "?api-version=2",
                "https://judge.example.com/openai/deployments/gpt/chat/completions?api-version=2",
            ),
        ] {
            assert_eq!(
                next_url(FROM, Some(location)).as_deref(),
                Ok(expected),
                "{location}"
            );
        }
    }

    #[test]
    fn redirects_to_another_origin_or_an_unreadable_address_are_refused() {
        for (location, named) in [
            ("https://evil.example.net/x", "(https://evil.example.net)"),
            ("http://judge.example.com/x", "(http://judge.example.com)"),
            (
                "https://judge.example.com:8443/x",
                "(https://judge.example.com:8443)",
            ),
            ("//evil.example.net/x", "(https://evil.example.net)"),
            (
                "https://judge.example.com@evil.example.net/",
                "(an unreadable address)",
            ),
            (
                "https://judge.example.com:443@evil/",
                "(an unreadable address)",
            ),
            ("/\\evil.example.net/", "(an unreadable address)"),
            ("https:/\\evil.example.net/", "(an unreadable address)"),
            ("javascript:alert(1)", "(an unreadable address)"),
            ("ftp://judge.example.com/", "(an unreadable address)"),
            (
                "https://judge.example.com\t.evil/",
                "(an unreadable address)",
            ),
            ("https://[::1]:443/", "(https://[::1])"),
        ] {
            let refused = next_url(FROM, Some(location)).expect_err(location);
            assert!(refused.contains(named), "{location}: {refused}");
            assert!(
                refused.contains("configure that endpoint directly"),
                "{refused}"
            );
        }
        let missing = next_url(FROM, None).expect_err("no location");
        assert!(missing.contains("no Location header"), "{missing}");
    }

    #[test]
    fn ports_and_ipv6_hosts_make_the_origin() {
        let local = "http://127.0.0.1:8080/v1/chat/completions";
        assert_eq!(
            next_url(local, Some("http://127.0.0.1:8080/v1/x")).as_deref(),
            Ok("http://127.0.0.1:8080/v1/x")
        );
        assert!(next_url(local, Some("http://127.0.0.1:8081/v1/x")).is_err());
        assert!(next_url(local, Some("http://localhost:8080/v1/x")).is_err());
        assert_eq!(
            next_url("http://[::1]:9/a", Some("http://[::1]:9/b")).as_deref(),
            Ok("http://[::1]:9/b")
        );
    }

    struct Redirecting {
        answers: RefCell<Vec<HttpResponse>>,
        sent: RefCell<Vec<HttpRequest>>,
    }

    impl Transport for Redirecting {
        fn send(
            &self,
            request: HttpRequest,
        ) -> LocalFuture<'_, Result<HttpResponse, TransportError>> {
            self.sent.borrow_mut().push(request);
            let answer = self.answers.borrow_mut().remove(0);
            Box::pin(async move { Ok(answer) })
        }
    }

    fn moved(status: u16, location: &str) -> HttpResponse {
        HttpResponse {
            status,
            headers: vec![("Location".into(), location.into())],
            body: String::new(),
        }
    }

    fn request() -> HttpRequest {
        HttpRequest {
            method: crate::judge::http::Method::Post,
            url: FROM.into(),
            headers: vec![("api-key".into(), "sk-secret".into())],
            body: "{}".into(),
            max_response_bytes: 1024,
        }
    }

    #[test]
    fn the_same_request_is_sent_again_within_the_origin_and_never_elsewhere() {
        let transport = Redirecting {
            answers: RefCell::new(vec![
                moved(308, "/moved"),
                moved(307, "https://other.example.net/steal"),
            ]),
            sent: RefCell::new(Vec::new()),
        };
        let error = block_on(send(&transport, request())).expect_err("refused");
        assert!(
            matches!(&error, TransportError::Redirected(message) if message.contains("other.example.net"))
        );
        let sent = transport.sent.borrow();
        assert_eq!(sent.len(), 2);
        assert_eq!(sent[1].url, "https://judge.example.com/moved");
        assert_eq!(sent[1].headers, request().headers);
        assert_eq!(sent[1].body, "{}");
    }

    #[test]
    fn a_redirect_loop_ends_after_the_last_hop() {
        let transport = Redirecting {
            answers: RefCell::new((0..=MAX_HOPS).map(|_| moved(302, "/again")).collect()),
            sent: RefCell::new(Vec::new()),
        };
        let error = block_on(send(&transport, request())).expect_err("loop");
        assert_eq!(
            error.to_string(),
            format!("the endpoint redirected more than {MAX_HOPS} times")
        );
        assert_eq!(transport.sent.borrow().len(), MAX_HOPS as usize + 1);
    }

    #[test]
    fn a_final_answer_after_a_redirect_is_returned() {
        let done = HttpResponse {
            status: 200,
            headers: Vec::new(),
            body: "ok".into(),
        };
        let transport = Redirecting {
            answers: RefCell::new(vec![moved(301, "/here"), done.clone()]),
            sent: RefCell::new(Vec::new()),
        };
        assert_eq!(block_on(send(&transport, request())), Ok(done));
    }
}
