//! agenteval-core: reads AI-agent evaluation datasets (M365 eval documents, Foundry JSONL), runs
//! the deterministic evaluators, and writes scored documents and reports.
//!
//! Pure Rust with no IO: no files, network, clock or threads. Callers (the CLI and the wasm
//! package) pass text in and take text out; time reaches the core as a value.

pub mod agent;
pub mod compare;
pub mod custom;
pub mod dataset;
pub mod details;
pub use agenteval_json::diagnostic;
pub mod engine;
pub mod evaluators;
pub mod exchange;
pub use agenteval_json::float_parse;
pub mod inputs;
/// agenteval's JSON (the `agenteval-json` crate).
pub use agenteval_json as json;
use agenteval_json::byte_words;
pub use agenteval_json::json;
pub mod judge;
mod multiset;
pub mod options;
pub mod outcome;
mod placeholder;
pub mod plan;
pub mod report;
pub mod resolve;
pub mod review;
pub mod schema;
pub mod scored;
mod short_copy;
pub mod small_blocks;
mod sorting;
pub mod status;
pub mod stream;
#[cfg(test)]
use agenteval_json::test_rng;
pub mod text;
pub mod wordnet;

pub use details::Details;
pub use diagnostic::{Diagnostic, InputError, Location, Severity};
pub use inputs::Inputs;
pub use options::{ConfigError, Options};
pub use outcome::{ErrorCode, EvalError, EvalResult, Verdict};
pub use report::{CaseOutcome, Dialect, RunReport, Summary};
pub use status::ItemStatus;
