//! The `agenteval run` command: reads the dataset, runs the agent over it (`crate::agent`) and
//! writes the dataset in its own dialect with the replies filled in.

use std::io::Write;
use std::path::Path;

use crate::agent::{self, TargetArgs};
use crate::{input, output, UsageError};

/// `agenteval run`: the dataset with the agent's replies, in its own dialect. Exit 0 when every
/// turn sent got a reply, 1 otherwise.
///
/// # Errors
/// No `--target`, or as [`agent::run`].
pub fn run(
    dataset: &str,
    config: Option<&Path>,
    out: Option<&Path>,
    args: &TargetArgs,
) -> Result<u8, UsageError> {
    let setup = args.setup()?.ok_or_else(|| {
        UsageError("run: expected --target FILE, the agent's configuration".to_owned())
    })?;
    let name = input::source_name(dataset);
    let config = input::read_config(config)?;
    let bytes = input::open(dataset)?
        .read_all()
        .map_err(|error| UsageError(format!("{name}: cannot read: {error}")))?;
    let ran = agent::run(&setup, &bytes, config.as_ref(), name)?;
    let mut writer = output::open_output(out)?;
    writer
        .write_all(ran.filled.as_bytes())
        .and_then(|()| writer.flush())
        .map_err(|error| UsageError(format!("cannot write the output: {error}")))?;
    Ok(if ran.report.failed == 0 { 0 } else { 1 })
}
