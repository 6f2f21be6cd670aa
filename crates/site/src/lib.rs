//! agenteval-site: the web page as the product serves it (`agenteval view`). It owns the page's
//! files in memory ([`Files`]: `web/`, `pkg/`, the example), how request paths map to them
//! ([`path`]), their content types and the security headers ([`headers`]), compression by
//! `Accept-Encoding` ([`encoding`]), the HTTP server on `127.0.0.1` ([`server`]) and the
//! offline single file's assembly ([`offline`]).
//!
//! It reads no file of its own accord: the CLI hands it the files compiled into the binary and
//! the path of the file to open; the server reads only that one, and binds only `127.0.0.1`.

pub mod encoding;
pub mod files;
pub mod headers;
pub mod offline;
pub mod path;
pub mod server;

pub use encoding::Encoding;
pub use files::Files;
pub use server::{start, AgentOffer, JudgeOffer, Opened, Server, Site};
