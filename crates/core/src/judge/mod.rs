//! LLM judges (spec §6), without IO: endpoints, request rendering, reply reading, verdicts, the
//! scheduler of calls (concurrency, retries, time-outs, cancellation, cache) and the run that
//! drives a scoring session through it. Runtimes supply the seams in [`http`]: a transport, a
//! clock, credentials and, optionally, a persistent [`cache::Store`].

mod backoff;
pub mod cache;
pub mod cancel;
pub mod endpoint;
pub mod http;
mod limiter;
pub mod reply;
pub mod request;
pub mod run;
pub mod schedule;
#[cfg(test)]
pub(crate) mod testing;
pub mod verdict;

pub use cache::{MemoryCache, Store};
pub use cancel::Cancel;
pub use endpoint::{Endpoint, EndpointError, EndpointKind};
pub use http::{
    Clock, Credential, Credentials, FixedCredential, HttpRequest, HttpResponse, LocalFuture,
    Transport, TransportError,
};
pub use reply::{Completion, Usage};
pub use request::{ChatMessage, JudgeRequest, ModelParams, PromptId, Role};
pub use schedule::{Answer, CallError, CallStats, Policy, Scheduler};
pub use verdict::{Extra, JudgeFailure, Reading, Scale};

/// A judge call an evaluator asks for: the request, and how its answer becomes the result.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeCall {
    /// The label the result carries.
    pub label: String,
    /// The rendered request.
    pub request: JudgeRequest,
    /// How the reply is read.
    pub reading: Reading,
}

/// The reason judged results carry when the run was cancelled before their call ended.
pub const CANCELLED_REASON: &str = "cancelled: the run was stopped before the judge answered";
