//! The dialects' own scored files: an M365 document with its results written in, Foundry's
//! result rows, the Copilot Studio export; and scored files read back into a run report. Above
//! the datasets and the evaluators, which they name; below the engine's callers.

pub mod copilot_studio;
pub mod foundry_results;
pub mod foundry_rows;
pub mod m365_document;
pub mod read;

pub use read::{read_report, read_report_value, ReadError};
