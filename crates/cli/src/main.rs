//! The `agenteval` command-line tool: a thin shell over agenteval-core that reads files or stdin,
//! writes outputs, prints a summary table to stderr and sets the exit code.
//!
//! Exit codes: 0 every verdict passed; 1 any fail or error; 2 invalid input or usage. `compare`:
//! 1 when a metric meets `--fail-on`, else 0; 2 on bad input.

mod agent;
mod allocator;
#[cfg(test)]
mod allocator_tests;
mod compare;
mod custom;
mod input;
mod judge;
mod output;
mod reopen;
mod rubric_command;
mod run_command;
mod summary;
mod terminal;
mod view;
mod wordnet;

use std::path::PathBuf;
use std::process::ExitCode;

use agenteval_core::plan::OutputFormat;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};

/// The CLI builds and drops large JSON trees; mimalloc handles that far better than glibc malloc,
/// and the small-block cache in front of it hands freed blocks back while they are still cached.
#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::allocator();

/// Scores AI-agent evaluation datasets (M365 Copilot eval documents, Foundry JSONL), and writes
/// the results of already-scored ones.
#[derive(Debug, Parser)]
#[command(name = "agenteval", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Score a dataset and write the results.
    Score {
        /// Dataset file, or `-` for stdin.
        dataset: String,
        /// Foundry evaluation config (`{"testing_criteria": [...]}`).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Output format (default: the dataset's own: `document` for M365 input, `foundry` for
        /// Foundry rows, `copilot` for Copilot Studio test sets).
        #[arg(long, value_parser = format_parser())]
        format: Option<OutputFormat>,
        /// Output file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
        /// A custom judged evaluator from a prompt template file, under the name datasets use:
        /// `NAME=FILE`, repeatable. FILE is a JSON definition ({prompt | messages, range,
        /// threshold | labels, passing_labels, model}) or the prompt text itself (scored 1-5,
        /// passing at 3).
        #[arg(long = "custom-evaluator", value_name = "NAME=FILE")]
        custom_evaluators: Vec<String>,
        #[command(flatten)]
        judge: Box<judge::JudgeArgs>,
        #[command(flatten)]
        agent: Box<agent::TargetArgs>,
    },
    /// Run the agent under test over a dataset (--target FILE) and write the dataset in its own
    /// dialect with the agent's responses filled in (exit 1 when some prompt got no reply).
    Run {
        /// Dataset file, or `-` for stdin.
        dataset: String,
        /// Foundry evaluation config (`{"testing_criteria": [...]}`), when the rows need one.
        #[arg(long)]
        config: Option<PathBuf>,
        /// Output file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        agent: Box<agent::TargetArgs>,
    },
    /// Check a dataset without scoring it.
    Validate {
        /// Dataset file, or `-` for stdin.
        dataset: String,
        /// Foundry evaluation config (`{"testing_criteria": [...]}`).
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Write the results a scored dataset already carries (a scored M365 eval document, or
    /// runevals results JSON) in a report format, without scoring it again.
    Report {
        /// Scored dataset file, or `-` for stdin.
        dataset: String,
        /// Output format.
        #[arg(long, value_parser = report_format_parser(), default_value = "report")]
        format: OutputFormat,
        /// Output file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Compare two scored runs of one dataset: items paired by id or prompt, paired tests per
    /// evaluator, and a CI gate (exit 1 when a metric meets --fail-on).
    Compare {
        /// The scored run compared against (a scored M365 document or runevals results), or `-`.
        baseline: String,
        /// The scored run compared, or `-`.
        candidate: String,
        /// Output format.
        #[arg(long, value_parser = ["json", "md", "html"], default_value = "md")]
        format: String,
        /// Output file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Which effects fail the comparison (exit 1).
        #[arg(long = "fail-on", value_parser = ["degraded", "strongly-degraded", "never"], default_value = "degraded")]
        fail_on: String,
        /// Pair by this field of each item (or of its `extensions`) instead of `extensions.id`
        /// or the prompt; every item must carry it.
        #[arg(long, value_name = "FIELD")]
        key: Option<String>,
        /// The desired direction of a custom evaluator's metrics: `EVALUATOR=decrease` or
        /// `EVALUATOR=neutral` (default increase), repeatable.
        #[arg(long = "direction", value_name = "EVALUATOR=DIRECTION")]
        directions: Vec<String>,
    },
    /// Rubrics: `rubric generate` asks the judge for one from the agent's instructions.
    #[command(subcommand)]
    Rubric(rubric_command::RubricCommand),
    /// List the built-in evaluators with their options, defaults and pass rules.
    Evaluators,
    /// Serve the web page on 127.0.0.1 and open FILE in it, scored (exit 2 when this binary
    /// was built without the page).
    View(view::ViewArgs),
}

/// `--format` of `score`: any output format (the core says which apply to the dataset).
fn format_parser() -> impl TypedValueParser<Value = OutputFormat> {
    formats_named(OutputFormat::ALL.to_vec())
}

/// `--format` of `report`: the formats that do not write into the dataset.
fn report_format_parser() -> impl TypedValueParser<Value = OutputFormat> {
    formats_named(
        OutputFormat::ALL
            .into_iter()
            .filter(|format| format.written_back().is_none())
            .collect(),
    )
}

fn formats_named(formats: Vec<OutputFormat>) -> impl TypedValueParser<Value = OutputFormat> {
    PossibleValuesParser::new(formats.into_iter().map(OutputFormat::name)).try_map(|name| {
        OutputFormat::parse(&name).ok_or_else(|| format!("unknown output format '{name}'"))
    })
}

/// A failure that ends the command with exit code 2.
#[derive(Debug)]
pub struct UsageError(pub String);

fn main() -> ExitCode {
    wordnet::register();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { 2 } else { 0 });
        }
    };
    let outcome = match cli.command {
        Command::Score {
            dataset,
            config,
            format,
            out,
            custom_evaluators,
            judge,
            agent,
        } => custom::templates(&custom_evaluators).and_then(|customs| {
            let setups = judge
                .setup()
                .and_then(|judge| Ok((judge, agent.setup()?)))?;
            output::score(
                &dataset,
                config.as_deref(),
                format,
                out.as_deref(),
                setups,
                customs,
            )
        }),
        Command::Run {
            dataset,
            config,
            out,
            agent,
        } => run_command::run(&dataset, config.as_deref(), out.as_deref(), &agent),
        Command::Validate { dataset, config } => input::validate(&dataset, config.as_deref()),
        Command::Report {
            dataset,
            format,
            out,
        } => reopen::report(&dataset, format, out.as_deref()),
        Command::Compare {
            baseline,
            candidate,
            format,
            out,
            fail_on,
            key,
            directions,
        } => compare::compare(&compare::CompareArgs {
            baseline: &baseline,
            candidate: &candidate,
            format: agenteval_core::compare::Format::parse(&format)
                .unwrap_or(agenteval_core::compare::Format::Markdown),
            out: out.as_deref(),
            fail_on: agenteval_core::compare::FailOn::parse(&fail_on)
                .unwrap_or(agenteval_core::compare::FailOn::Degraded),
            key,
            directions: &directions,
        }),
        Command::Rubric(command) => rubric_command::run(&command),
        Command::Evaluators => output::list_evaluators(),
        Command::View(args) => view::view(&args),
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(UsageError(message)) => {
            for line in message.lines() {
                eprintln!("{}", terminal::visible(line));
            }
            ExitCode::from(2)
        }
    }
}
