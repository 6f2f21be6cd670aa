//! The CLI's agent runs (`agenteval run`, `agenteval score --target`): the target file, the
//! secrets it names read from environment variables only (never the command line), the limits
//! of its calls, and the run itself on the judge's runtime seams (reqwest, tokio's clock,
//! Ctrl-C as cancellation). The dataset comes back in its own dialect with the replies filled in;
//! a summary goes to stderr and, when asked, the run report (JSON) to a file. No secret reaches
//! an output, a message or a file. The `run` command itself is `run_command`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use agenteval_core::agent::fill::{self, Prepared};
use agenteval_core::agent::{self, RunOptions, RunReport, Runner, Secrets, Target};
use agenteval_core::json::Value;
use agenteval_core::judge::{Cancel, Policy, Scheduler};
use clap::Args;

use crate::judge::{self, cancel_on_ctrl_c, ReqwestTransport, TokioClock};
use crate::terminal::visible;
use crate::{input, UsageError};

/// Agent options of `run` and `score`.
#[derive(Debug, Clone, Default, Args)]
pub struct TargetArgs {
    /// The agent to run, a JSON target configuration (kind directline, responses, a2a, chat or
    /// http; see docs/agents.md). With `score`, the agent answers first, then the replies are
    /// scored.
    #[arg(long, value_name = "FILE")]
    pub target: Option<PathBuf>,
    /// Most conversations with the agent at once, 1 to 256 [default: 4].
    #[arg(long, value_name = "N")]
    pub target_concurrency: Option<f64>,
    /// Seconds one agent request may take, up to 3600 [default: 120].
    #[arg(long, value_name = "SECONDS")]
    pub target_timeout: Option<f64>,
    /// Retries of a failed agent request (429, 5xx, time-out, network), 0 to 100 [default: 4].
    #[arg(long, value_name = "N")]
    pub target_retries: Option<f64>,
    /// Send every item again, even those that already have a response.
    #[arg(long)]
    pub rerun: bool,
    /// Write the run report (JSON: each item's status, latency, tokens, error and notes) here.
    #[arg(long, value_name = "FILE")]
    pub run_report: Option<PathBuf>,
}

/// A run ready to start.
pub struct AgentSetup {
    target: Target,
    secrets: Secrets,
    policy: Policy,
    rerun: bool,
    run_report: Option<PathBuf>,
}

/// A number flag within `range`, or the default.
fn bounded(
    value: Option<f64>,
    flag: &str,
    range: std::ops::RangeInclusive<f64>,
    default: f64,
    expected: &str,
) -> Result<f64, UsageError> {
    match value {
        None => Ok(default),
        Some(value) if range.contains(&value) => Ok(value),
        Some(_) => Err(UsageError(format!("{flag}: expected {expected}"))),
    }
}

impl TargetArgs {
    /// The configured run, or `None` without `--target`.
    ///
    /// # Errors
    /// The target file cannot be read or is invalid, a secret it names is not set, or a limit is
    /// out of range.
    pub fn setup(&self) -> Result<Option<AgentSetup>, UsageError> {
        let Some(path) = &self.target else {
            return Ok(None);
        };
        let name = path.display().to_string();
        let bytes = input::read_side_file(path, "target")?;
        let text = String::from_utf8(bytes)
            .map_err(|_| UsageError(format!("{name}: the target is not UTF-8 text")))?;
        let target = Target::parse(&text)
            .map_err(|error| UsageError(visible(&format!("{name}: {error}")).into_owned()))?;
        let mut secrets = Vec::new();
        for variable in target.secret_names() {
            let value = std::env::var(&variable)
                .ok()
                .map(|value| value.trim().to_owned())
                .filter(|value| !value.is_empty())
                .ok_or_else(|| {
                    UsageError(format!(
                        "{name}: the environment variable {variable} is not set; the target reads its secret from it"
                    ))
                })?;
            secrets.push((variable, value));
        }
        let concurrency = bounded(
            self.target_concurrency,
            "--target-concurrency",
            1.0..=256.0,
            4.0,
            "a whole number from 1 to 256",
        )?;
        let timeout = bounded(
            self.target_timeout,
            "--target-timeout",
            0.001..=3600.0,
            120.0,
            "a number of seconds from 0.001 to 3600",
        )?;
        let retries = bounded(
            self.target_retries,
            "--target-retries",
            0.0..=100.0,
            4.0,
            "a whole number from 0 to 100",
        )?;
        if concurrency.fract() != 0.0 || retries.fract() != 0.0 {
            return Err(UsageError(
                "--target-concurrency and --target-retries: expected whole numbers".to_owned(),
            ));
        }
        Ok(Some(AgentSetup {
            target,
            secrets: Secrets::new(secrets),
            policy: Policy {
                concurrency: concurrency as usize,
                max_retries: retries as u32,
                timeout: Duration::from_secs_f64(timeout),
                ..Policy::default()
            },
            rerun: self.rerun,
            run_report: self.run_report.clone(),
        }))
    }
}

/// What a run gave: the dataset with the replies, and its report.
pub struct Ran {
    /// The dataset in its own dialect, replies filled in.
    pub filled: String,
    /// The run report.
    pub report: RunReport,
}

/// Runs the agent over `bytes` (the dataset called `name`), prints the summary and writes the
/// run report when asked.
///
/// # Errors
/// The dataset cannot be read, the runtime cannot start, or the run report cannot be written.
pub fn run(
    setup: &AgentSetup,
    bytes: &[u8],
    config: Option<&Value>,
    name: &str,
) -> Result<Ran, UsageError> {
    let prepared = fill::prepare(bytes, config, setup.rerun)
        .map_err(|error| input::input_error(error, name))?;
    input::report_diagnostics(&prepared.problems, name);
    let runtime = judge::runtime("agent")?;
    let transport = ReqwestTransport::new()?;
    let clock = TokioClock::started();
    let cancel = Cancel::new();
    let scheduler =
        Scheduler::for_exchanges(&transport, &clock, setup.policy).with_cancel(cancel.clone());
    let runner = Runner {
        target: &setup.target,
        secrets: &setup.secrets,
        scheduler: &scheduler,
        clock: &clock,
        options: RunOptions {
            concurrency: setup.policy.concurrency,
            run_id: run_id(),
        },
    };
    let local = tokio::task::LocalSet::new();
    cancel_on_ctrl_c(&local, cancel, "agent calls");
    let show_progress = std::io::stderr().is_terminal();
    let records = local.block_on(&runtime, async {
        agent::run(&runner, &prepared.conversations, &mut |done, total| {
            if show_progress {
                eprint!("\ragent: {done}/{total} conversations   ");
            }
        })
        .await
    });
    if show_progress {
        eprintln!();
    }
    let report = RunReport::new(&runner, &prepared.conversations, &records, &prepared.kept);
    eprint!("{}", summary(&report, name));
    if let Some(path) = &setup.run_report {
        write_run_report(path, &report)?;
    }
    let filled = Prepared::write(prepared, &records);
    Ok(Ran { filled, report })
}

/// An id unique to this run: the time in nanoseconds and the process id, in hexadecimal.
fn run_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    format!("{nanos:x}-{:x}", std::process::id())
}

/// The run's lines for stderr: the counts, then each turn without a reply and why.
fn summary(report: &RunReport, name: &str) -> String {
    let mean = report
        .mean_latency_ms
        .map(|mean| format!(", mean latency {mean:.0} ms"))
        .unwrap_or_default();
    let tokens = report
        .tokens
        .map(|usage| format!(", {} tokens", usage.total_tokens))
        .unwrap_or_default();
    let mut text = format!(
        "agent ({}): {} answered, {} without a reply, {} kept (already answered){mean}{tokens}; {} requests, {} retries, {} rate-limited\n",
        report.target, report.answered, report.failed, report.kept, report.requests, report.retries, report.rate_limited
    );
    for entry in &report.entries {
        let turn = entry
            .turn
            .map(|turn| format!(" turn {turn}"))
            .unwrap_or_default();
        if let Some(error) = &entry.error {
            text.push_str(&format!(
                "{name}: {}{turn}: {}: {}\n",
                entry.item,
                error.code,
                visible(&error.message)
            ));
        }
        for note in &entry.notes {
            text.push_str(&format!(
                "{name}: {}{turn}: note: {}\n",
                entry.item,
                visible(note)
            ));
        }
    }
    text
}

fn write_run_report(path: &Path, report: &RunReport) -> Result<(), UsageError> {
    let mut text = serde_json::to_string_pretty(report)
        .map_err(|error| UsageError(format!("cannot write the run report: {error}")))?;
    text.push('\n');
    std::fs::write(path, text).map_err(|error| {
        UsageError(format!(
            "{}: cannot write the run report: {error}",
            path.display()
        ))
    })
}
