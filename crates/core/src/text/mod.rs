//! Shared text normalisation and tokenisation for the deterministic evaluators, and the Python
//! number semantics their reference implementations rely on.
//!
//! Everything here reproduces CPython 3.11 string behaviour (the reference implementations are
//! Python), independent of the Unicode version of the Rust standard library. No scoring here.

pub mod decimal;
pub mod f1;
pub use crate::float_parse;
pub mod nltk;
pub mod phrase;
pub mod porter;
mod py_unicode_tables;
pub mod pynum;
pub mod python;
pub mod rouge_tokens;
