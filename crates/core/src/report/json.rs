//! The run report as JSON (spec §4): the serde shape of [`RunReport`], pretty-printed.

use std::io;

use super::RunReport;

/// The run report as pretty-printed JSON.
///
/// `turn` is `null` for single-turn items, `status` is `null` when every evaluator was skipped,
/// each result carries `error: {code, message} | null`, and `problem` appears only on items that
/// could not be scored.
pub fn to_json(report: &RunReport) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|_| String::from("null"))
}

/// Writes [`to_json`]'s text to `out` as it is produced, without holding it.
///
/// # Errors
/// Whatever `out` returns.
pub fn write_json(report: &RunReport, out: &mut dyn io::Write) -> io::Result<()> {
    serde_json::to_writer_pretty(out, report).map_err(io::Error::from)
}
