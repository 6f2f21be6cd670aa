//! The `report` command: the results a scored dataset already carries (a scored M365 eval
//! document, or runevals results JSON), read by the core (`scored::read_report`) and written in a
//! report format, without scoring anything. The summary table and exit codes are `score`'s; a
//! dataset without scores is a usage error (exit 2) saying so. The entries' reviews
//! (`extensions.review`) are kept and written in every format, with the review counts under the
//! summary table; what could not be read of a review is a warning on stderr (the entry is kept,
//! marked as needing review).

use std::path::Path;

use agenteval_core::plan::OutputFormat;
use agenteval_core::scored::{self, ReadError};

use crate::{input, output, UsageError};

/// `agenteval report`.
pub fn report(dataset: &str, format: OutputFormat, out: Option<&Path>) -> Result<u8, UsageError> {
    let name = input::source_name(dataset);
    let bytes = input::open(dataset)?
        .read_all()
        .map_err(|error| UsageError(format!("{name}: cannot read: {error}")))?;
    let report = scored::read_report(&bytes).map_err(|error| read_error(error, name))?;
    drop(bytes);
    for problem in report
        .items
        .iter()
        .filter_map(|entry| entry.review.as_deref())
        .flat_map(|review| &review.problems)
    {
        eprintln!(
            "{}",
            crate::terminal::visible(&format!("{name}: warning: {problem}"))
        );
    }
    let mut writer = output::open_output(out)?;
    output::write_report(&report, format, name, &mut writer)?;
    output::finish(writer, &report.summary)
}

fn read_error(error: ReadError, name: &str) -> UsageError {
    let lines: Vec<String> = error
        .diagnostics()
        .iter()
        .map(|diagnostic| {
            crate::terminal::visible(&diagnostic.clone().in_source(name).to_string()).into_owned()
        })
        .collect();
    UsageError(lines.join("\n"))
}
