//! Shared text normalisation and tokenisation for the deterministic evaluators, and the Python
//! number semantics their reference implementations rely on.
//!
//! Everything here reproduces CPython 3.11 string behaviour (the reference implementations are
//! Python), independent of the Unicode version of the Rust standard library. No scoring here.

/// `repr(float)` and Python's number formats (the `agenteval-python` crate's).
pub use agenteval_python::decimal;
pub mod f1;
pub use crate::float_parse;
pub mod nltk;
pub mod phrase;
pub mod porter;
/// Numbers as Python reads JSON ones (the `agenteval-python` crate's).
pub use agenteval_python::number as pynum;
/// CPython's `str` methods and character classes (the `agenteval-python` crate's).
pub use agenteval_python::strings as python;
pub mod rouge_tokens;
