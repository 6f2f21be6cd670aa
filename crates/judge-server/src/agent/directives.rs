//! `[[agent:NAME=VALUE]]` directives: how a test chooses what happens to one prompt sent to the
//! demo agent, written in the prompt text itself (`fault=KIND`, `fault=KIND*N`, `latency=MS`).
//! The same syntax as the judge's directives (`crate::directives` scans both); the first of a
//! repeated name wins, and an unknown name or kind is an error so that a typo fails loudly.

use std::time::Duration;

use crate::directives::{bodies, fault_count};
use crate::faults::FaultKind;

/// What a `fault=` directive does to a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AgentFault {
    /// An HTTP-level fault, as the judge's (`429`, `500`, `502`, `503`, `401`, `403`, `hang`,
    /// `truncated`, `notjson-body`).
    Http(FaultKind),
    /// `expire`: the conversation expires; the request gets 403 and so does every later
    /// request in a Direct Line conversation.
    Expire,
}

impl AgentFault {
    /// Its name in directives and in the stats' `faults`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            AgentFault::Http(kind) => kind.name(),
            AgentFault::Expire => "expire",
        }
    }
}

/// The directives of one prompt.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct AgentDirectives {
    /// The fault, and on how many attempts it applies (`None`: all).
    pub(crate) fault: Option<(AgentFault, Option<u32>)>,
    /// How much longer the reply takes.
    pub(crate) latency: Option<Duration>,
}

/// The longest `latency=MS` accepted: ten minutes.
const MAX_LATENCY_MS: u64 = 600_000;

/// The fault kinds an agent directive accepts, for error messages.
const KINDS: &str = "429, 500, 502, 503, 401, 403, hang, truncated, notjson-body, expire";

/// The `[[agent:…]]` directives in `text`.
///
/// # Errors
/// A message naming the directive: an unknown name or fault kind, a bad count or latency, or a
/// directive without its closing `]]`.
pub(crate) fn parse(text: &str) -> Result<AgentDirectives, String> {
    let mut directives = AgentDirectives::default();
    for body in bodies(text, "agent")? {
        let (name, value) = body
            .split_once('=')
            .map_or((body.trim(), ""), |(name, value)| {
                (name.trim(), value.trim())
            });
        match name {
            "fault" => {
                let fault = parse_fault(value)?;
                directives.fault.get_or_insert(fault);
            }
            "latency" => {
                let millis = value
                    .parse::<u64>()
                    .ok()
                    .filter(|millis| *millis <= MAX_LATENCY_MS)
                    .ok_or_else(|| {
                        format!(
                            "bad `[[agent:latency={value}]]`: expected a whole number of \
                             milliseconds up to {MAX_LATENCY_MS}"
                        )
                    })?;
                directives
                    .latency
                    .get_or_insert(Duration::from_millis(millis));
            }
            _ => {
                return Err(format!(
                    "unknown agent directive `[[agent:{body}]]`; known: `fault=KIND`, \
                     `fault=KIND*N`, `latency=MS`"
                ))
            }
        }
    }
    Ok(directives)
}

fn parse_fault(value: &str) -> Result<(AgentFault, Option<u32>), String> {
    let (kind, attempts) = fault_count(value, "agent")?;
    let fault = match FaultKind::parse(kind) {
        _ if kind == "expire" => AgentFault::Expire,
        Some(kind) if !kind.is_content() && kind != FaultKind::Redirect => AgentFault::Http(kind),
        _ => {
            return Err(format!(
                "unknown agent fault `{kind}` in `[[agent:fault={value}]]`; known: {KINDS}"
            ))
        }
    };
    Ok((fault, attempts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_and_latency_parse_and_the_first_wins() {
        let directives =
            parse("hi [[agent:fault=500*2]] [[agent:latency=250]] [[agent:fault=hang]]");
        assert_eq!(
            directives,
            Ok(AgentDirectives {
                fault: Some((AgentFault::Http(FaultKind::ServerError), Some(2))),
                latency: Some(Duration::from_millis(250)),
            })
        );
        assert_eq!(
            parse("[[agent:fault=expire]]").map(|d| d.fault),
            Ok(Some((AgentFault::Expire, None)))
        );
        for kind in KINDS.split(", ") {
            let parsed = parse(&format!("[[agent:fault={kind}]]"));
            assert_eq!(
                parsed.map(|d| d.fault.map(|(f, _)| f.name())),
                Ok(Some(kind))
            );
        }
        assert_eq!(
            parse("[[judge:score=3]] plain"),
            Ok(AgentDirectives::default())
        );
    }

    #[test]
    fn mistakes_are_errors() {
        for text in [
            "[[agent:fault=fence]]",
            "[[agent:fault=404]]",
            "[[agent:fault=500*x]]",
            "[[agent:latency=soon]]",
            "[[agent:latency=600001]]",
            "[[agent:score=3]]",
            "[[agent:fault=429",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }
}
