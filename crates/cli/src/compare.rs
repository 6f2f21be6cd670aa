//! The `compare` command: two scored files read (on two threads) and compared by the core
//! (`agenteval_core::compare`), the comparison written as JSON, Markdown or HTML, a one-line
//! verdict per failing metric on stderr, and the gate as the exit code: 1 when a metric meets
//! `--fail-on`, 0 otherwise, 2 on bad input.

use std::io::Write;
use std::path::Path;

use agenteval_core::compare::{self, runs, CompareOptions, Direction, FailOn, Format, Run};

use crate::{input, output, terminal, UsageError};

/// What `agenteval compare` was asked.
pub struct CompareArgs<'a> {
    /// The baseline file (`-` for stdin).
    pub baseline: &'a str,
    /// The candidate file (`-` for stdin).
    pub candidate: &'a str,
    /// The output format.
    pub format: Format,
    /// The output file (default: stdout).
    pub out: Option<&'a Path>,
    /// The gate.
    pub fail_on: FailOn,
    /// The field to pair by.
    pub key: Option<String>,
    /// `EVALUATOR=increase|decrease|neutral`, repeatable.
    pub directions: &'a [String],
}

/// `agenteval compare`.
pub fn compare(args: &CompareArgs) -> Result<u8, UsageError> {
    if args.baseline == "-" && args.candidate == "-" {
        return Err(UsageError(
            "only one of BASELINE and CANDIDATE can be `-` (stdin)".to_owned(),
        ));
    }
    let options = CompareOptions {
        key: args.key.clone(),
        directions: args
            .directions
            .iter()
            .map(|text| direction(text))
            .collect::<Result<_, _>>()?,
    };
    let key = options.key.as_deref();
    let (baseline, candidate) = std::thread::scope(|scope| {
        let candidate = scope.spawn(|| run(args.candidate, key));
        let baseline = run(args.baseline, key);
        let candidate = candidate
            .join()
            .unwrap_or_else(|_| Err(UsageError("reading the candidate failed".to_owned())));
        (baseline, candidate)
    });
    let comparison = compare::compare_runs(&baseline?, &candidate?, &options)
        .map_err(|error| UsageError(error.to_string()))?;
    let mut writer = output::open_output(args.out)?;
    compare::write(&comparison, args.format, &mut writer)
        .and_then(|()| writer.flush())
        .map_err(|error| UsageError(format!("cannot write the output: {error}")))?;
    let failing: Vec<_> = comparison.failing(args.fail_on).collect();
    for metric in &failing {
        eprintln!(
            "{}",
            terminal::visible(&format!(
                "degraded: {} {} ({} → {}, p = {})",
                metric.evaluator,
                match metric.metric {
                    compare::MetricName::PassRate => "pass rate",
                    compare::MetricName::Score => "score",
                },
                shown(metric.baseline_mean),
                shown(metric.candidate_mean),
                shown(metric.p_value),
            ))
        );
    }
    Ok(u8::from(!failing.is_empty()))
}

/// The scored run in the file at `path`, read by the core; its bytes are dropped once read.
fn run(path: &str, key: Option<&str>) -> Result<Run, UsageError> {
    let name = input::source_name(path);
    let bytes = input::open(path)?
        .read_all()
        .map_err(|error| UsageError(format!("{name}: cannot read: {error}")))?;
    runs::read(name, &bytes, key).map_err(|error| {
        UsageError(
            error
                .diagnostics()
                .iter()
                .map(|diagnostic| diagnostic.clone().in_source(name).to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })
}

/// `EVALUATOR=DIRECTION`.
fn direction(text: &str) -> Result<(String, Direction), UsageError> {
    text.split_once('=')
        .and_then(|(name, direction)| Some((name.to_owned(), Direction::parse(direction)?)))
        .filter(|(name, _)| !name.is_empty())
        .ok_or_else(|| {
            UsageError(format!(
                "--direction {text}: expected EVALUATOR=increase, EVALUATOR=decrease or EVALUATOR=neutral"
            ))
        })
}

fn shown(value: Option<f64>) -> String {
    value.map_or("–".to_owned(), |value| format!("{value:.4}"))
}
