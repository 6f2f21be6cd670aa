//! Running the agent under test (issue 41): sending each item's prompt to a configured target
//! and putting the replies back into the dataset, without IO. A target speaks one protocol
//! (Direct Line 3.0, the OpenAI Responses API, A2A, chat completions, or a generic JSON
//! endpoint); every request goes through the judge's [`Scheduler`](crate::judge::Scheduler)
//! as a plain exchange, so agent calls get the same concurrency limit, time-outs, retries and
//! cancellation as judge calls. Agent replies are never cached: the written dataset is the record.

pub mod a2a;
pub mod chat;
pub mod directline;
pub mod fill;
pub mod http_target;
pub mod responses;
pub mod run;
pub mod target;
#[cfg(test)]
mod tests;
mod wire;

use serde_json::Value;

use crate::judge::Usage;

pub use run::{run, Conversation, RunOptions, RunReport, Runner, TurnRecord};
pub use target::{Target, TargetError};
pub use wire::Secrets;

/// One citation an agent sent with its reply.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Citation {
    /// The source's title, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The source's address, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The cited text, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// One tool call the agent made (or asked the client to make) while answering.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ToolCall {
    /// The call's id, as the agent named it (made up from its position when none).
    pub id: String,
    /// The tool's name (`file_search` for a search the service ran itself).
    pub name: String,
    /// The arguments, parsed when they were JSON text.
    pub arguments: Value,
    /// The tool's result, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
}

/// What the agent answered to one prompt.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reply {
    /// The reply's text (several messages joined with a blank line).
    pub text: String,
    /// Citations sent beside the text.
    pub citations: Vec<Citation>,
    /// Tool calls made while answering, in order.
    pub tool_calls: Vec<ToolCall>,
    /// Tokens, when the target reports them.
    pub usage: Option<Usage>,
    /// Things worth knowing about how the reply was had (a restarted conversation…).
    pub notes: Vec<String>,
    /// How long after the prompt was sent the reply was complete, when the target knows it
    /// before its call returns (Direct Line: the last message's arrival, not the quiet time
    /// waited after it); otherwise the call's own duration is the latency.
    pub complete_after: Option<std::time::Duration>,
}

/// Why an agent call gave no reply: a code (data, as evaluator errors are) and which call failed
/// and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AgentError {
    /// `agentError`, `agentTimeout`, `agentRateLimited`, `agentAuthenticationError`,
    /// `agentConfigurationError`, `agentConversationExpired` or `cancelled`.
    pub code: &'static str,
    /// Which call failed and why.
    pub message: String,
}

impl AgentError {
    /// An error with `code` and `message`.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        AgentError {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for AgentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

/// One prompt to send, with what templates may refer to.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Prompt {
    /// The user's message as text (a Foundry message list's last user message).
    pub text: String,
    /// A Foundry `query` given as messages (chat and Responses targets send them whole).
    pub messages: Option<Vec<Value>>,
    /// The item's own fields, for `{{item.FIELD}}` in an `http` target's body.
    pub item: serde_json::Map<String, Value>,
}
