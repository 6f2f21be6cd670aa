//! What a judged result keeps of its judge calls, for a reader who asks what was sent: each
//! request's URL and exact body, and the endpoint's raw answer. It is never written to an output
//! (reports stay as the spec shapes them) and never holds a credential: the key travels in a
//! header, which is not kept, and answers are the bodies the scheduler read, already redacted.

use serde::Serialize;

/// One judge call of a result: the request as sent and the answer as received.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Exchange {
    /// The URL the request went to, query included.
    pub url: String,
    /// The request's JSON body, byte for byte.
    pub request: String,
    /// The answer's body as the endpoint sent it; `None` when the call gave none (it failed, or
    /// the run was cancelled first).
    pub answer: Option<String>,
    /// Whether the answer came from the judge cache rather than from this run's call.
    pub cached: bool,
}

/// The judge calls behind one result, in the order they were made (a conversation's turns).
///
/// Two results are equal whatever their exchanges: they record how a verdict was reached, not
/// the verdict.
#[derive(Debug, Clone, Default)]
pub struct Exchanges(pub Vec<Exchange>);

impl Exchanges {
    /// Whether no judge call is recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl PartialEq for Exchanges {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
