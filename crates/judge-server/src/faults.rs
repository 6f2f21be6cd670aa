//! The faults the server can inject: their names, whether one applies to a given attempt
//! (asked for by a `[[judge:fault=KIND*N]]` directive, or drawn at `fault_rate`), and the
//! replies of the faults that live at the HTTP level. Faults inside a chat reply's content
//! (`malformed`, `fence`, ...) are written by the `reply` module.

use serde_json::json;

use crate::hash;
use crate::http::{Outcome, Response};
use crate::state::Shared;
use crate::ServerConfig;

/// Mixed into the seed to draw a random fault's kind independently of whether it happens.
const KIND_SALT: u64 = 0x6b69_6e64;

/// One kind of fault, named as in directives and in [`Stats::faults`](crate::Stats::faults).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FaultKind {
    /// `429`: rate limited, with `Retry-After` headers.
    RateLimited,
    /// `500`.
    ServerError,
    /// `502`.
    BadGateway,
    /// `503`.
    Unavailable,
    /// `401`.
    Unauthorized,
    /// `403`.
    Forbidden,
    /// `hang`: nothing is sent for the configured time, then the connection is closed.
    Hang,
    /// `truncated`: a 200 whose body stops halfway, then the connection is closed.
    Truncated,
    /// `notjson-body`: a 200 whose HTTP body is not JSON.
    NotJsonBody,
    /// `malformed`: a chat reply whose content is not JSON.
    Malformed,
    /// `length`: a chat reply cut mid-JSON with `finish_reason: "length"`.
    Length,
    /// `missing`: a verdict without `score`.
    Missing,
    /// `range`: a score two above the top of the scale.
    Range,
    /// `fence`: prose, then the verdict in a fenced `json` block.
    Fence,
    /// `tags`: the legacy `<S0>…</S0><S1>…</S1><S2>n</S2>` format.
    Tags,
    /// `refusal`: `content: null` and a `refusal`.
    Refusal,
    /// `empty`: content `""`.
    Empty,
    /// `redirect`: `307` to the request's `location=URL` directive.
    Redirect,
}

/// Every kind with its name.
const NAMES: [(FaultKind, &str); 18] = [
    (FaultKind::RateLimited, "429"),
    (FaultKind::ServerError, "500"),
    (FaultKind::BadGateway, "502"),
    (FaultKind::Unavailable, "503"),
    (FaultKind::Unauthorized, "401"),
    (FaultKind::Forbidden, "403"),
    (FaultKind::Hang, "hang"),
    (FaultKind::Truncated, "truncated"),
    (FaultKind::NotJsonBody, "notjson-body"),
    (FaultKind::Malformed, "malformed"),
    (FaultKind::Length, "length"),
    (FaultKind::Missing, "missing"),
    (FaultKind::Range, "range"),
    (FaultKind::Fence, "fence"),
    (FaultKind::Tags, "tags"),
    (FaultKind::Refusal, "refusal"),
    (FaultKind::Empty, "empty"),
    (FaultKind::Redirect, "redirect"),
];

/// The kinds random faults are drawn from: those a client should retry.
const TRANSIENT: [FaultKind; 4] = [
    FaultKind::RateLimited,
    FaultKind::ServerError,
    FaultKind::Unavailable,
    FaultKind::Truncated,
];

impl FaultKind {
    /// The kind called `name`.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        NAMES
            .iter()
            .find(|(_, known)| *known == name)
            .map(|(kind, _)| *kind)
    }

    /// Its name in directives and stats.
    pub(crate) fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(kind, _)| *kind == self)
            .map_or("unknown", |(_, name)| name)
    }

    /// Every name, for error messages.
    pub(crate) fn names() -> String {
        NAMES
            .iter()
            .map(|(_, name)| *name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether the fault is in the content of a chat reply rather than at the HTTP level.
    pub(crate) fn is_content(self) -> bool {
        matches!(
            self,
            FaultKind::Malformed
                | FaultKind::Length
                | FaultKind::Missing
                | FaultKind::Range
                | FaultKind::Fence
                | FaultKind::Tags
                | FaultKind::Refusal
                | FaultKind::Empty
        )
    }
}

/// A `[[judge:fault=KIND*N]]` directive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FaultDirective {
    pub(crate) kind: FaultKind,
    /// The fault applies to attempts `1..=N`; `None`: to every attempt.
    pub(crate) attempts: Option<u32>,
}

/// A fault chosen for one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Injected {
    pub(crate) kind: FaultKind,
    /// Drawn at `fault_rate` rather than asked for.
    pub(crate) random: bool,
}

/// Counts one more attempt of the request whose body hashes to `body_hash` and returns the
/// fault it gets, if any, counted in the stats.
pub(crate) fn inject(
    shared: &Shared,
    fault: Option<FaultDirective>,
    has_directives: bool,
    body_hash: u64,
) -> Option<Injected> {
    let attempt = shared.attempts.next(body_hash);
    let injected = decide(fault, has_directives, attempt, body_hash, &shared.config)?;
    shared.recorder.update(|stats| {
        *stats
            .faults
            .entry(injected.kind.name().to_string())
            .or_insert(0) += 1;
        if injected.random {
            stats.random_faults += 1;
        }
    });
    Some(injected)
}

/// The fault for attempt number `attempt` (1-based) of the request whose body hashes to
/// `body_hash`, if any. A directive decides alone; a request without directives gets a random
/// transient fault on its first attempt with probability `fault_rate`, so a retry succeeds.
pub(crate) fn decide(
    directive: Option<FaultDirective>,
    has_directives: bool,
    attempt: u32,
    body_hash: u64,
    config: &ServerConfig,
) -> Option<Injected> {
    if let Some(directive) = directive {
        let applies = match directive.attempts {
            None => true,
            Some(limit) => attempt <= limit,
        };
        return applies.then_some(Injected {
            kind: directive.kind,
            random: false,
        });
    }
    if has_directives || attempt != 1 || config.fault_rate <= 0.0 {
        return None;
    }
    let draw = hash::unit_interval(hash::with_seed(body_hash, config.seed));
    if draw >= config.fault_rate {
        return None;
    }
    let pick = hash::with_seed(body_hash, config.seed ^ KIND_SALT) % TRANSIENT.len() as u64;
    let kind = usize::try_from(pick)
        .ok()
        .and_then(|index| TRANSIENT.get(index))
        .copied()
        .unwrap_or(FaultKind::ServerError);
    Some(Injected { kind, random: true })
}

/// The reply of a fault that lives at the HTTP level (`429`, `500`, `502`, `503`, `401`,
/// `403`, `hang`, `notjson-body`); `None` for `truncated` and content faults, which need the
/// normal reply first.
pub(crate) fn http_outcome(
    kind: FaultKind,
    config: &ServerConfig,
    location: Option<&str>,
) -> Option<Outcome> {
    let response = match kind {
        FaultKind::Redirect => Response::json(
            307,
            &error("307", "The resource moved.", "redirect"),
        )
        .with_header("location", location.unwrap_or("/")),
        FaultKind::RateLimited => {
            let seconds = config.retry_after_ms.div_ceil(1000).max(1);
            let message = format!(
                "Requests to the ChatCompletions_Create Operation have exceeded the call rate \
                 limit of the local judge. Please retry after {seconds} second{}.",
                if seconds == 1 { "" } else { "s" }
            );
            Response::json(429, &error("429", &message, "rate_limit_exceeded"))
                .with_header("retry-after", seconds.to_string())
                .with_header("retry-after-ms", config.retry_after_ms.to_string())
                .with_header("x-ratelimit-remaining-requests", "0")
                .with_header("x-ratelimit-reset-requests", format!("{seconds}s"))
        }
        FaultKind::ServerError => Response::json(
            500,
            &error(
                "500",
                "The server had an error while processing your request. Sorry about that!",
                "server_error",
            ),
        ),
        FaultKind::BadGateway => Response::json(
            502,
            &error("502", "Bad gateway: the upstream model did not answer.", "server_error"),
        ),
        FaultKind::Unavailable => Response::json(
            503,
            &error(
                "503",
                "The service is temporarily unable to process your request. Please try again later.",
                "server_error",
            ),
        ),
        FaultKind::Unauthorized => Response::json(401, &access_denied()),
        FaultKind::Forbidden => Response::json(
            403,
            &error(
                "403",
                "The principal does not have permission to perform this action on the deployment.",
                "permission_denied",
            ),
        ),
        FaultKind::NotJsonBody => Response::text(
            200,
            "text/html; charset=utf-8",
            "<html><body><h1>Service temporarily unavailable</h1>\
             <p>local judge: not a JSON body</p></body></html>",
        ),
        FaultKind::Hang => return Some(Outcome::Hang(config.hang)),
        _ => return None,
    };
    Some(Outcome::Send(response))
}

/// An OpenAI-style error object.
pub(crate) fn error(code: &str, message: &str, kind: &str) -> serde_json::Value {
    json!({"error": {"code": code, "message": message, "type": kind, "param": null}})
}

/// Azure's answer to a missing or wrong key.
pub(crate) fn access_denied() -> serde_json::Value {
    json!({"error": {
        "code": "401",
        "message": "Access denied due to invalid subscription key or wrong API endpoint. Make sure \
                    to provide a valid key for an active subscription and use a correct regional \
                    API endpoint for your resource."
    }})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(rate: f64) -> ServerConfig {
        ServerConfig {
            fault_rate: rate,
            ..ServerConfig::default()
        }
    }

    #[test]
    fn names_round_trip() {
        for (kind, name) in NAMES {
            assert_eq!(FaultKind::parse(name), Some(kind));
            assert_eq!(kind.name(), name);
        }
        assert_eq!(FaultKind::parse("404"), None);
    }

    #[test]
    fn directives_apply_to_the_first_attempts() {
        let twice = Some(FaultDirective {
            kind: FaultKind::ServerError,
            attempts: Some(2),
        });
        let fault = |attempt| decide(twice, true, attempt, 1, &config(0.0)).map(|f| f.kind);
        assert_eq!(fault(1), Some(FaultKind::ServerError));
        assert_eq!(fault(2), Some(FaultKind::ServerError));
        assert_eq!(fault(3), None);
        let always = Some(FaultDirective {
            kind: FaultKind::Hang,
            attempts: None,
        });
        assert!(decide(always, true, 99, 1, &config(0.0)).is_some());
    }

    #[test]
    fn random_faults_follow_the_rate_on_first_attempts_only() {
        let all = config(1.0);
        assert!((0..100).all(|hash| decide(None, false, 1, hash, &all).is_some()));
        assert!((0..100).all(|hash| decide(None, false, 2, hash, &all).is_none()));
        assert!((0..100).all(|hash| decide(None, true, 1, hash, &all).is_none()));
        let none = config(0.0);
        assert!((0..100).all(|hash| decide(None, false, 1, hash, &none).is_none()));
        let kinds: Vec<_> = (0..200)
            .filter_map(|hash| decide(None, false, 1, hash, &all))
            .map(|fault| fault.kind)
            .collect();
        for kind in TRANSIENT {
            assert!(kinds.contains(&kind), "{kind:?} never drawn");
        }
    }

    #[test]
    fn rate_limits_round_retry_after_up_to_seconds() {
        let outcome = http_outcome(FaultKind::RateLimited, &config(0.0), None);
        let Some(Outcome::Send(response)) = outcome else {
            panic!("429 is an HTTP-level fault")
        };
        let header = |name: &str| {
            response
                .headers
                .iter()
                .find(|(field, _)| field == name)
                .map(|(_, value)| value.clone())
        };
        assert_eq!(response.status, 429);
        assert_eq!(header("retry-after").as_deref(), Some("1"));
        assert_eq!(header("retry-after-ms").as_deref(), Some("50"));
        assert!(http_outcome(FaultKind::Fence, &config(0.0), None).is_none());
    }
}
