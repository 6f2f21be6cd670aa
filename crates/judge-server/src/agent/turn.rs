//! One prompt sent to the demo agent, whatever the protocol: its directives read and removed, its
//! attempt counted, the fault it gets (counted in the stats), the extra latency it asks for, and
//! how a protocol's finished response is delivered (whole, or truncated by a `truncated` fault).

use std::time::Duration;

use super::directives::{self, AgentFault};
use crate::faults::{self, FaultKind};
use crate::hash;
use crate::http::{Outcome, Response};
use crate::state::Shared;

/// A prompt as the agent handles it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Turn {
    /// The prompt without its directives, whitespace collapsed.
    pub(crate) prompt: String,
    /// The fault this attempt gets, if any.
    pub(crate) fault: Option<AgentFault>,
    /// How much longer the reply takes (`latency=MS`).
    pub(crate) latency: Duration,
}

impl Turn {
    /// Reads `text`, sent to the protocol called `protocol`: its directives decide the fault
    /// for this attempt, counted per protocol and exact text (a retry, or the same prompt in a
    /// restarted conversation, is the next attempt).
    ///
    /// # Errors
    /// The directive's mistake, for the protocol to answer with its own 400.
    pub(crate) fn read(shared: &Shared, protocol: &str, text: &str) -> Result<Turn, String> {
        let directives = directives::parse(text)?;
        let key = hash::fnv1a_continue(hash::fnv1a(protocol.as_bytes()), text.as_bytes());
        let attempt = shared.attempts.next(key);
        let fault = directives
            .fault
            .filter(|(_, attempts)| attempts.is_none_or(|limit| attempt <= limit))
            .map(|(fault, _)| fault);
        if let Some(fault) = fault {
            shared.recorder.update(|stats| {
                *stats.faults.entry(fault.name().to_string()).or_insert(0) += 1;
            });
        }
        Ok(Turn {
            prompt: crate::directives::strip(text, "agent"),
            fault,
            latency: directives.latency.unwrap_or_default(),
        })
    }

    /// The answer of an HTTP-level fault that replaces the reply (all but `truncated` and
    /// `expire`, which the protocols carry out).
    pub(crate) fn http_fault(&self, shared: &Shared) -> Option<Outcome> {
        match self.fault? {
            AgentFault::Http(kind) => faults::http_outcome(kind, &shared.config, None),
            AgentFault::Expire => None,
        }
    }

    /// The answer of the fault on a protocol without conversations to expire: as
    /// [`Turn::http_fault`], `expire` as a 403.
    pub(crate) fn refusal(&self, shared: &Shared) -> Option<Outcome> {
        match self.fault? {
            AgentFault::Expire => faults::http_outcome(FaultKind::Forbidden, &shared.config, None),
            AgentFault::Http(_) => self.http_fault(shared),
        }
    }

    /// What replaces the reply on a protocol without conversations to expire: the
    /// [`Turn::refusal`], else, after the extra latency, a closed connection when the server
    /// stopped meanwhile; `None`: reply.
    pub(crate) fn hold(&self, shared: &Shared) -> Option<Outcome> {
        self.refusal(shared).or_else(|| {
            shared
                .stop
                .sleep(self.latency)
                .then_some(Outcome::Hang(Duration::ZERO))
        })
    }

    /// Whether the fault is `expire`.
    pub(crate) fn expires(&self) -> bool {
        self.fault == Some(AgentFault::Expire)
    }

    /// How `response` is delivered: cut halfway by a `truncated` fault, else whole.
    pub(crate) fn deliver(&self, response: Response) -> Outcome {
        if self.fault == Some(AgentFault::Http(FaultKind::Truncated)) {
            Outcome::Truncate(response)
        } else {
            Outcome::Send(response)
        }
    }
}

/// Tokens for `bytes` of text, as the judge counts them (4 bytes a token, rounded up).
pub(crate) fn tokens(bytes: usize) -> u64 {
    bytes.div_ceil(4) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ServerConfig;

    #[test]
    fn counted_faults_apply_to_the_first_attempts_per_protocol() {
        let shared = Shared::new(ServerConfig::default());
        let text = "Where do I park? [[agent:fault=429*1]] [[agent:latency=5]]";
        let first = Turn::read(&shared, "chat", text);
        assert_eq!(
            first
                .as_ref()
                .map(|turn| (turn.prompt.as_str(), turn.fault, turn.latency)),
            Ok((
                "Where do I park?",
                Some(AgentFault::Http(FaultKind::RateLimited)),
                Duration::from_millis(5)
            ))
        );
        assert_eq!(
            Turn::read(&shared, "chat", text).map(|turn| turn.fault),
            Ok(None)
        );
        assert!(Turn::read(&shared, "http", text).is_ok_and(|turn| turn.fault.is_some()));
        assert_eq!(shared.recorder.snapshot().faults.get("429"), Some(&2));
        assert!(Turn::read(&shared, "chat", "[[agent:nope]]").is_err());
        assert_eq!(tokens(9), 3);
    }
}
