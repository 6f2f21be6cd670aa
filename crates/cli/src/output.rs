//! The `score` and `evaluators` commands: run the engine and write the chosen output format
//! (with `--target`, after the agent has answered: `crate::agent`).
//! Foundry JSONL written as Foundry rows is streamed: each row is read, scored and written before
//! the next is read, so memory does not grow with the file. A current-form M365 document is
//! scored item by item, so its items are never held as one tree: into the scored document as each
//! item is scored, or into a run report written at the end in the other formats.

use std::fs::File;
use std::io::{self, BufRead, BufWriter, Write};
use std::path::Path;

use agenteval_core::dataset::foundry::{is_config_line, FoundryConfig, FoundryRow};
use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::dataset::Dataset;
use agenteval_core::engine::{self, Customs, FoundryScorer, Session};
use agenteval_core::evaluators;
use agenteval_core::json::{Map, Value};
use agenteval_core::plan::OutputFormat;
use agenteval_core::report::{self, RunReport};
use agenteval_core::scored::{self, m365_document};
use agenteval_core::{stream, Dialect, Summary};

use crate::agent::AgentSetup;
use crate::input::{self, Source};
use crate::judge::JudgeSetup;
use crate::{summary, UsageError};

/// `agenteval score`.
pub fn score(
    dataset: &str,
    config: Option<&Path>,
    format: Option<OutputFormat>,
    out: Option<&Path>,
    (judge, agent): (Option<JudgeSetup>, Option<AgentSetup>),
    customs: Customs,
) -> Result<u8, UsageError> {
    let name = input::source_name(dataset);
    let config = input::read_config(config)?;
    let mut source = input::sniff(input::open(dataset)?, name, config.is_some())?;
    if let Some(agent) = agent {
        let bytes = whole_bytes(source, name)?;
        let ran = crate::agent::run(&agent, &bytes, config.as_ref(), name)?;
        source = Source::Whole(ran.filled.into_bytes());
    }
    let mut writer = open_output(out)?;
    if let Some(judge) = judge {
        let bytes = whole_bytes(source, name)?;
        let summary = score_judged(
            bytes,
            config.as_ref(),
            format,
            name,
            (judge, customs),
            &mut writer,
        )?;
        return finish(writer, &summary);
    }
    if !customs.templates.is_empty() {
        let bytes = whole_bytes(source, name)?;
        let summary = score_whole(bytes, config.as_ref(), format, name, customs, &mut writer)?;
        return finish(writer, &summary);
    }
    let summary = match source {
        Source::Lines {
            head,
            rest,
            last_line,
        } => {
            let format = format.unwrap_or(OutputFormat::Foundry);
            check_format(format, Dialect::Foundry)?;
            let lines = head
                .into_iter()
                .map(Ok)
                .chain(numbered_lines(rest, last_line));
            score_lines(lines, config, format, name, &mut writer)?
        }
        Source::Whole(bytes) => {
            let streamed = match format {
                None | Some(OutputFormat::Document) => stream_document(&bytes, name, &mut writer)?,
                Some(
                    OutputFormat::Foundry | OutputFormat::FoundryResults | OutputFormat::Copilot,
                ) => None,
                Some(report_format) => stream_report(&bytes, report_format, name, &mut writer)?,
            };
            match streamed {
                Some(summary) => summary,
                None => score_whole(
                    bytes,
                    config.as_ref(),
                    format,
                    name,
                    Customs::default(),
                    &mut writer,
                )?,
            }
        }
    };
    finish(writer, &summary)
}

pub(crate) fn finish(mut writer: Box<dyn Write>, summary: &Summary) -> Result<u8, UsageError> {
    writer
        .flush()
        .map_err(|error| UsageError(format!("cannot write the output: {error}")))?;
    eprint!("{}", summary::table(summary));
    Ok(if summary.all_passed() { 0 } else { 1 })
}

/// The whole input, JSON Lines included (a judged run is bound by its calls, not its reading).
fn whole_bytes(source: Source, name: &str) -> Result<Vec<u8>, UsageError> {
    match source {
        Source::Whole(bytes) => Ok(bytes),
        Source::Lines { head, mut rest, .. } => {
            let mut bytes = Vec::new();
            for (_, line) in head {
                bytes.extend_from_slice(&line);
                bytes.push(b'\n');
            }
            input::read_bounded(&mut rest, &mut bytes, input::MAX_WHOLE_DATASET)
                .map_err(|error| UsageError(format!("{name}: cannot read: {error}")))?;
            Ok(bytes)
        }
    }
}

/// Scores a dataset read whole through the judge, then writes it as `format`.
fn score_judged(
    bytes: Vec<u8>,
    config: Option<&Value>,
    format: Option<OutputFormat>,
    name: &str,
    (judge, customs): (JudgeSetup, Customs),
    writer: &mut dyn Write,
) -> Result<Summary, UsageError> {
    let loaded = input::load_whole(&bytes, config, name)?;
    drop(bytes);
    let format = format.unwrap_or(OutputFormat::default_for(loaded.dataset.dialect()));
    check_format(format, loaded.dataset.dialect())?;
    let mut session = Session::new(loaded.dataset, customs).with_judge();
    crate::judge::run(judge, &mut session)?;
    let (report, dataset) = session.finish_with_dataset();
    if let Some(figures) = &report.judge {
        eprint!("{}", summary::judge_line(figures));
    }
    match dataset {
        Some(dataset) => write_whole(dataset, &report, format, name, writer)?,
        None => write_report(&report, format, name, writer)?,
    }
    Ok(report.summary)
}

/// Scores and writes an M365 document item by item (see `agenteval_core::stream`); `None` when
/// the input is something else and must be read whole.
fn stream_document(
    bytes: &[u8],
    name: &str,
    writer: &mut dyn Write,
) -> Result<Option<Summary>, UsageError> {
    let Some((text, outline)) = outline(bytes) else {
        return Ok(None);
    };
    let streamed =
        stream::write_scored(text, outline, &document_options(), writer).map_err(write_error)?;
    writer.write_all(b"\n").map_err(write_error)?;
    input::report_diagnostics(&streamed.diagnostics, name);
    Ok(Some(streamed.summary))
}

/// Scores an M365 document item by item into a run report written as `format`; `None` when the
/// input is something else and must be read whole.
fn stream_report(
    bytes: &[u8],
    format: OutputFormat,
    name: &str,
    writer: &mut dyn Write,
) -> Result<Option<Summary>, UsageError> {
    let Some((text, outline)) = outline(bytes) else {
        return Ok(None);
    };
    let streamed = stream::score_report(text, outline);
    input::report_diagnostics(&streamed.diagnostics, name);
    write_report(&streamed.report, format, name, writer)?;
    Ok(Some(streamed.report.summary))
}

/// `bytes` as a current-form M365 document's text and outline, when they are one.
fn outline(bytes: &[u8]) -> Option<(&str, DocumentOutline)> {
    let text = std::str::from_utf8(bytes).ok()?;
    Some((text, DocumentOutline::read(text)?))
}

fn score_whole(
    bytes: Vec<u8>,
    config: Option<&Value>,
    format: Option<OutputFormat>,
    name: &str,
    customs: Customs,
    writer: &mut dyn Write,
) -> Result<Summary, UsageError> {
    let loaded = input::load_whole(&bytes, config, name)?;
    drop(bytes);
    let report = engine::score_with(&loaded.dataset, customs);
    let format = format.unwrap_or(OutputFormat::default_for(report.dialect));
    check_format(format, report.dialect)?;
    write_whole(loaded.dataset, &report, format, name, writer)?;
    Ok(report.summary)
}

/// The document options of a run now.
fn document_options() -> m365_document::DocumentOptions {
    m365_document::DocumentOptions {
        evaluated_at: Some(
            humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        ),
    }
}

fn check_format(format: OutputFormat, dialect: Dialect) -> Result<(), UsageError> {
    match format.refusal(dialect) {
        Some(refusal) => Err(UsageError(format!("--format {refusal}"))),
        None => Ok(()),
    }
}

/// Output is written in large blocks: a scored document can be hundreds of megabytes.
const OUTPUT_BUFFER_BYTES: usize = 1 << 20;

pub(crate) fn open_output(out: Option<&Path>) -> Result<Box<dyn Write>, UsageError> {
    match out {
        None => Ok(Box::new(BufWriter::with_capacity(
            OUTPUT_BUFFER_BYTES,
            io::stdout().lock(),
        ))),
        Some(path) => File::create(path)
            .map(|file| {
                Box::new(BufWriter::with_capacity(OUTPUT_BUFFER_BYTES, file)) as Box<dyn Write>
            })
            .map_err(|error| {
                UsageError(format!(
                    "{}: cannot create the output: {error}",
                    path.display()
                ))
            }),
    }
}

fn write_error(error: io::Error) -> UsageError {
    UsageError(format!("cannot write the output: {error}"))
}

fn numbered_lines(
    reader: Box<dyn BufRead>,
    last_line: usize,
) -> impl Iterator<Item = io::Result<(usize, Vec<u8>)>> {
    reader
        .split(b'\n')
        .enumerate()
        .map(move |(offset, line)| line.map(|line| (last_line + offset + 1, line)))
}

/// Scores JSONL rows as they are read. Foundry output is written row by row; other formats
/// collect the outcomes first.
fn score_lines(
    lines: impl Iterator<Item = io::Result<(usize, Vec<u8>)>>,
    config: Option<Value>,
    format: OutputFormat,
    name: &str,
    writer: &mut dyn Write,
) -> Result<Summary, UsageError> {
    let mut lines = lines.peekable();
    let mut config = config;
    if config.is_none() {
        if let Some(Ok((_, first))) = lines.peek() {
            if let Ok(value) = agenteval_core::json::parse(first) {
                if is_config_line(&value) {
                    config = Some(value);
                    lines.next();
                }
            }
        }
    }
    let config = config.ok_or_else(|| {
        UsageError(format!(
            "{name}: Foundry rows need an evaluation config {{\"testing_criteria\": [...]}}: pass --config FILE, or put it on the first line"
        ))
    })?;
    let config = FoundryConfig::from_value(&config).map_err(|error| {
        UsageError(
            error
                .diagnostics
                .into_iter()
                .map(|diagnostic| diagnostic.in_source("config").to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    let scorer = FoundryScorer::new(&config);
    let mut report = RunReport::new(Dialect::Foundry);
    let mut index = 0;
    for line in lines {
        let (number, bytes) =
            line.map_err(|error| UsageError(format!("{name}: cannot read: {error}")))?;
        if bytes.trim_ascii().is_empty() {
            continue;
        }
        let row = FoundryRow::parse_line(&bytes, number);
        if let Err(problem) = &row.row {
            input::report_diagnostics(std::slice::from_ref(problem), name);
        }
        let outcome = scorer.score_row(index, &row);
        index += 1;
        let line = match format {
            OutputFormat::Foundry => Some(scored::foundry_rows::output_row(&row, &outcome)),
            OutputFormat::FoundryResults => Some(scored::foundry_results::line(
                &row,
                &config.criteria,
                &outcome,
            )),
            _ => None,
        };
        if let Some(line) = line {
            write_json_line(writer, &line)?;
            writer.flush().map_err(write_error)?;
            report.summary.add(&outcome);
        } else {
            report.push(outcome);
        }
    }
    if !matches!(format, OutputFormat::Foundry | OutputFormat::FoundryResults) {
        write_report(&report, format, name, writer)?;
    }
    Ok(report.summary)
}

fn write_json_line(writer: &mut dyn Write, row: &Map<String, Value>) -> Result<(), UsageError> {
    serde_json::to_writer(&mut *writer, row)
        .map_err(|error| UsageError(format!("cannot write the output: {error}")))?;
    writer.write_all(b"\n").map_err(write_error)
}

fn write_whole(
    dataset: Dataset,
    report: &RunReport,
    format: OutputFormat,
    name: &str,
    writer: &mut dyn Write,
) -> Result<(), UsageError> {
    match (format, dataset) {
        (OutputFormat::Document, Dataset::M365(document)) => {
            let scored = m365_document::write_owned(document.document, report, &document_options());
            serde_json::to_writer_pretty(&mut *writer, &scored)
                .map_err(|error| UsageError(format!("cannot write the output: {error}")))?;
            writer.write_all(b"\n").map_err(write_error)
        }
        (OutputFormat::Foundry, Dataset::Foundry(ref rows)) => {
            for (row, outcome) in rows.rows.iter().zip(&report.items) {
                write_json_line(writer, &scored::foundry_rows::output_row(row, outcome))?;
            }
            Ok(())
        }
        (OutputFormat::FoundryResults, Dataset::Foundry(ref rows)) => writer
            .write_all(scored::foundry_results::write(rows, report).as_bytes())
            .map_err(write_error),
        (OutputFormat::Copilot, Dataset::CopilotStudio(ref set)) => writer
            .write_all(scored::copilot_studio::write(set, report).as_bytes())
            .map_err(write_error),
        _ => write_report(report, format, name, writer),
    }
}

pub(crate) fn write_report(
    report: &RunReport,
    format: OutputFormat,
    name: &str,
    writer: &mut dyn Write,
) -> Result<(), UsageError> {
    let text = match format {
        OutputFormat::Csv => report::csv::write(report),
        OutputFormat::Junit => report::junit::write(report, name),
        OutputFormat::Md => report::markdown::write(report),
        OutputFormat::Html => report::html::write(report, name),
        OutputFormat::Report
        | OutputFormat::Document
        | OutputFormat::Foundry
        | OutputFormat::FoundryResults
        | OutputFormat::Copilot => {
            report::write_json(report, writer).map_err(write_error)?;
            "\n".to_owned()
        }
    };
    writer.write_all(text.as_bytes()).map_err(write_error)
}

/// `agenteval evaluators`: the catalog as a table.
pub fn list_evaluators() -> Result<u8, UsageError> {
    let mut out = String::new();
    for spec in evaluators::catalog() {
        let kind = match spec.kind {
            evaluators::EvaluatorKind::Deterministic => "local",
            evaluators::EvaluatorKind::Judge => "judge",
        };
        out.push_str(&format!("{} ({kind}): {}\n", spec.name, spec.pass_rule));
        for option in spec.options {
            out.push_str(&format!(
                "    {} [{}] default {}: {}\n",
                option.name, option.kind, option.default, option.description
            ));
        }
    }
    io::stdout()
        .write_all(out.as_bytes())
        .map_err(write_error)?;
    Ok(0)
}
