//! `render()`: writes a run report in each output format of the CLI (`--format`).

use agenteval_core::dataset::{Dataset, Loaded};
use agenteval_core::report::{self, m365_document, CaseOutcome as CoreOutcome, RunReport as Core};
use agenteval_core::{
    status, ErrorCode as CoreCode, EvalError, EvalResult, Verdict as CoreVerdict,
};
use serde_json::Map;
use wasm_bindgen::prelude::*;

use crate::convert;
use crate::error::{ApiError, ErrorCode};
use crate::options::OptionsObject;
use crate::types::{CaseOutcome, Dialect, Format, ItemStatus, ResultErrorCode, RunReport, Verdict};

/// Title of the HTML report and JUnit suite when none is given.
pub const DEFAULT_TITLE: &str = "agenteval";

/// Writes `report` in `format`: `document` (the scored M365 eval document, JSON), `report` (run
/// report JSON), `foundry` (JSON Lines rows), `csv`, `junit`, `md` or `html`. `document` and
/// `foundry` write into the scored dataset, so they need `options.dataset`.
#[wasm_bindgen(js_name = render)]
pub fn render_report(
    #[wasm_bindgen(unchecked_param_type = "RunReport")] report: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Format")] format: JsValue,
    options: Option<crate::types::RenderOptionsArg>,
) -> Result<String, JsValue> {
    let options = OptionsObject::read(
        options,
        "options",
        &["dataset", "config", "evaluatedAt", "title"],
    )?;
    let format = format
        .as_string()
        .and_then(|name| Format::parse(&name))
        .ok_or_else(|| {
            ApiError::argument(
                "format",
                format!("one of {}", Format::ALL.map(Format::as_str).join(", ")),
            )
        })?;
    let report = serde_wasm_bindgen::from_value::<RunReport>(report)
        .map(core_report)
        .map_err(|error| ApiError::new(ErrorCode::InvalidReport, format!("report: {error}")))?;
    let dataset_value = options.get("dataset");
    let dataset = if dataset_value.is_undefined() || dataset_value.is_null() {
        None
    } else {
        let config = convert::config_value(&options.get("config"), "options.config")?;
        let source = convert::dataset_source(&dataset_value, "options.dataset")?;
        Some(source.load("options.dataset", config.as_ref())?)
    };
    let settings = Settings {
        title: options
            .string("title")?
            .unwrap_or_else(|| DEFAULT_TITLE.to_owned()),
        evaluated_at: options.string("evaluatedAt")?,
    };
    Ok(render(&report, format, dataset.as_ref(), &settings)?)
}

/// What `render` needs besides the report and the dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// HTML title and JUnit suite name.
    pub title: String,
    /// `metadata.evaluatedAt` of the scored document.
    pub evaluated_at: Option<String>,
}

/// The text of `report` in `format`, exactly as `agenteval score --format` writes it.
///
/// # Errors
/// `invalidArgument` when `document` or `foundry` lacks a dataset of its dialect.
pub fn render(
    report: &Core,
    format: Format,
    dataset: Option<&Loaded>,
    settings: &Settings,
) -> Result<String, ApiError> {
    Ok(match format {
        Format::Report => report::to_json(report) + "\n",
        Format::Csv => report::csv::write(report),
        Format::Junit => report::junit::write(report, &settings.title),
        Format::Md => report::markdown::write(report),
        Format::Html => report::html::write(report, &settings.title),
        Format::Document => match dataset.map(|loaded| &loaded.dataset) {
            Some(Dataset::M365(document)) => {
                let options = m365_document::DocumentOptions {
                    evaluated_at: settings.evaluated_at.clone(),
                };
                let scored = m365_document::write(&document.document, report, &options);
                serde_json::to_string_pretty(&scored).unwrap_or_default() + "\n"
            }
            _ => return Err(needs_dataset(format, "an M365 eval document")),
        },
        Format::Foundry => match dataset.map(|loaded| &loaded.dataset) {
            Some(Dataset::Foundry(rows)) => {
                let empty = Map::new();
                let mut text = String::new();
                for (row, outcome) in rows.rows.iter().zip(&report.items) {
                    let fields = row.row.as_ref().unwrap_or(&empty);
                    text.push_str(&report::foundry_rows::jsonl_line(
                        &report::foundry_rows::row(fields, outcome),
                    ));
                }
                text
            }
            _ => return Err(needs_dataset(format, "Foundry rows")),
        },
    })
}

fn needs_dataset(format: Format, dialect: &str) -> ApiError {
    ApiError::argument(
        "options.dataset",
        format!(
            "the scored dataset ({dialect}): format `{}` writes the results into it",
            format.as_str()
        ),
    )
}

/// The core report for a report that came back from JavaScript; the summary is recomputed.
pub fn core_report(report: RunReport) -> Core {
    let mut core = Core::new(match report.dialect {
        Dialect::M365 => agenteval_core::Dialect::M365,
        Dialect::Foundry => agenteval_core::Dialect::Foundry,
        Dialect::CopilotStudio => agenteval_core::Dialect::CopilotStudio,
    });
    for outcome in report.items {
        core.push(core_outcome(outcome));
    }
    core
}

fn core_outcome(outcome: CaseOutcome) -> CoreOutcome {
    CoreOutcome {
        index: outcome.index,
        turn: outcome.turn,
        status: outcome.status.map(|status| match status {
            ItemStatus::Pass => status::ItemStatus::Pass,
            ItemStatus::Fail => status::ItemStatus::Fail,
            ItemStatus::Partial => status::ItemStatus::Partial,
            ItemStatus::Error => status::ItemStatus::Error,
        }),
        results: outcome
            .results
            .into_iter()
            .map(|result| EvalResult {
                evaluator: result.evaluator,
                result: match result.result {
                    Verdict::Pass => CoreVerdict::Pass,
                    Verdict::Fail => CoreVerdict::Fail,
                    Verdict::Error => CoreVerdict::Error,
                    Verdict::Skipped => CoreVerdict::Skipped,
                },
                score: result.score,
                threshold: result.threshold,
                reason: result.reason,
                details: result.details,
                error: result.error.map(|error| EvalError {
                    code: core_code(error.code),
                    message: error.message,
                }),
            })
            .collect(),
        problem: outcome.problem,
    }
}

fn core_code(code: ResultErrorCode) -> CoreCode {
    match code {
        ResultErrorCode::EmptyAgentResponse => CoreCode::EmptyAgentResponse,
        ResultErrorCode::JudgeOutputUnparseable => CoreCode::JudgeOutputUnparseable,
        ResultErrorCode::JudgeAuthenticationError => CoreCode::JudgeAuthenticationError,
        ResultErrorCode::JudgeRateLimited => CoreCode::JudgeRateLimited,
        ResultErrorCode::JudgeTimeout => CoreCode::JudgeTimeout,
        ResultErrorCode::EvaluatorConfigurationError => CoreCode::EvaluatorConfigurationError,
        ResultErrorCode::EvaluatorLoadError => CoreCode::EvaluatorLoadError,
        ResultErrorCode::InvalidEvaluatorResult => CoreCode::InvalidEvaluatorResult,
        ResultErrorCode::EvaluatorError => CoreCode::EvaluatorError,
        ResultErrorCode::ToolCallEvidenceIndeterminate => CoreCode::ToolCallEvidenceIndeterminate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::Source;

    fn example(name: &str) -> Vec<u8> {
        let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
    }

    fn examples() -> Vec<(Loaded, Core)> {
        let config: serde_json::Value =
            serde_json::from_slice(&example("foundry-config.json")).expect("config is JSON");
        [
            Source::Bytes(example("m365-demo.json")).load("dataset", None),
            Source::Bytes(example("foundry-demo.jsonl")).load("dataset", Some(&config)),
        ]
        .into_iter()
        .map(|loaded| {
            let loaded = loaded.expect("examples are valid");
            let report = agenteval_core::engine::score(&loaded.dataset);
            (loaded, report)
        })
        .collect()
    }

    /// The boundary types describe exactly what the core writes: nothing is lost or added.
    #[test]
    fn boundary_types_round_trip_the_core_report() {
        for (_, report) in examples() {
            let written = serde_json::to_value(&report).expect("serializable");
            let mirrored: RunReport =
                serde_json::from_value(written.clone()).expect("the boundary type reads it");
            assert_eq!(
                serde_json::to_value(&mirrored).expect("serializable"),
                written
            );
            let back = core_report(mirrored);
            assert_eq!(
                back, report,
                "the report rebuilt from JavaScript is the same"
            );
        }
    }

    #[test]
    fn every_format_renders_and_dataset_formats_need_their_dataset() {
        let settings = Settings {
            title: DEFAULT_TITLE.to_owned(),
            evaluated_at: Some("2026-01-01T00:00:00Z".to_owned()),
        };
        for (loaded, report) in examples() {
            for format in Format::ALL {
                let with_dataset = render(&report, format, Some(&loaded), &settings);
                let own = matches!(
                    (format, report.dialect),
                    (Format::Document, agenteval_core::Dialect::M365)
                        | (Format::Foundry, agenteval_core::Dialect::Foundry)
                );
                let foreign = matches!(format, Format::Document | Format::Foundry) && !own;
                assert_eq!(with_dataset.is_err(), foreign, "{format:?}");
                if matches!(format, Format::Document | Format::Foundry) {
                    let error =
                        render(&report, format, None, &settings).expect_err("needs dataset");
                    assert!(error.message.starts_with("options.dataset: "), "{error}");
                }
            }
        }
    }
}
