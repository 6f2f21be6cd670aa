//! `render()`: writes a run report in each output format of the CLI (`--format`).

use agenteval_core::dataset::Dataset;
use agenteval_core::json;
use agenteval_core::report::{self, RunReport as Core};
use agenteval_core::scored::{self, m365_document};
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::convert;
use crate::error::{ApiError, ErrorCode};
use crate::options::OptionsObject;
use crate::report_json;
use crate::types::Format;

/// Title of the HTML report and JUnit suite when none is given.
pub const DEFAULT_TITLE: &str = "agenteval";

/// Writes `report` in `format`: `document` (the scored M365 eval document, JSON), `report` (run
/// report JSON), `foundry` (JSON Lines rows), `foundry-results` (Foundry's result objects, JSON
/// Lines), `copilot` (a Copilot Studio test set, CSV), `csv`,
/// `junit`, `md` or `html`. `document`, `foundry`, `foundry-results` and `copilot` write into the scored dataset, so
/// they need `options.dataset`. For a dataset scored
/// in this session, `evaluate()` and `Evaluation.render` are faster: they read neither again.
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
    let format = read_format(&format)?;
    let report = read_report(&report)?;
    let dataset_value = options.get("dataset");
    let dataset = if dataset_value.is_undefined() || dataset_value.is_null() {
        None
    } else {
        let config = convert::config_value(&options.get("config"), "options.config")?;
        let source = convert::dataset_source(&dataset_value, "options.dataset")?;
        Some(source.load("options.dataset", config.as_ref())?.dataset)
    };
    let settings = Settings::read(&options)?;
    Ok(
        render(&report, format, dataset.as_ref(), &settings).map_err(|dialect| {
            ApiError::argument(
                "options.dataset",
                format!(
                    "the scored dataset ({dialect}): format `{}` writes the results into it",
                    format.name()
                ),
            )
        })?,
    )
}

/// The `format` argument.
///
/// # Errors
/// `invalidArgument` when it is not the name of a format.
pub fn read_format(format: &JsValue) -> Result<Format, ApiError> {
    format
        .as_string()
        .and_then(|name| Format::parse(&name))
        .ok_or_else(|| {
            ApiError::argument(
                "format",
                format!("one of {}", Format::ALL.map(Format::name).join(", ")),
            )
        })
}

/// A run report that went through JavaScript, read through `JSON.stringify`; the summary is
/// recomputed.
///
/// # Errors
/// `invalidReport` when it does not have the run report's shape.
pub fn read_report(report: &JsValue) -> Result<Core, ApiError> {
    let invalid = |message: String| ApiError::new(ErrorCode::InvalidReport, message);
    let text = boundary::json_text(report)
        .ok_or_else(|| invalid("report: expected a run report (a JSON object)".to_owned()))?;
    let value = json::parse(text.as_bytes())
        .map_err(|problem| invalid(format!("report: {}", problem.message)))?;
    report_json::read(value).map_err(|message| invalid(format!("report: {message}")))
}

/// What `render` needs besides the report and the dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// HTML title and JUnit suite name.
    pub title: String,
    /// `metadata.evaluatedAt` of the scored document.
    pub evaluated_at: Option<String>,
}

impl Settings {
    /// The `title` and `evaluatedAt` options.
    ///
    /// # Errors
    /// `invalidArgument` when either is present and not a string.
    pub fn read(options: &OptionsObject) -> Result<Self, ApiError> {
        Ok(Settings {
            title: options
                .string("title")?
                .unwrap_or_else(|| DEFAULT_TITLE.to_owned()),
            evaluated_at: options.string("evaluatedAt")?,
        })
    }
}

/// The text of `report` in `format`, exactly as `agenteval score --format` writes it.
///
/// # Errors
/// When `format` is `document` or `foundry` and `dataset` is not of its dialect: the dataset the
/// format needs, in words.
pub fn render(
    report: &Core,
    format: Format,
    dataset: Option<&Dataset>,
    settings: &Settings,
) -> Result<String, &'static str> {
    Ok(match format {
        Format::Report => report::to_json(report) + "\n",
        Format::Csv => report::csv::write(report),
        Format::Junit => report::junit::write(report, &settings.title),
        Format::Md => report::markdown::write(report),
        Format::Html => report::html::write(report, &settings.title),
        Format::Document => match dataset {
            Some(Dataset::M365(document)) => {
                let options = m365_document::DocumentOptions {
                    evaluated_at: settings.evaluated_at.clone(),
                };
                let scored = m365_document::write(&document.document, report, &options);
                serde_json::to_string_pretty(&scored).unwrap_or_default() + "\n"
            }
            _ => return Err("an M365 eval document"),
        },
        Format::Foundry => match dataset {
            Some(Dataset::Foundry(rows)) => {
                let mut text = String::new();
                for (row, outcome) in rows.rows.iter().zip(&report.items) {
                    text.push_str(&scored::foundry_rows::jsonl_line(
                        &scored::foundry_rows::output_row(row, outcome),
                    ));
                }
                text
            }
            _ => return Err("Foundry rows"),
        },
        Format::FoundryResults => match dataset {
            Some(Dataset::Foundry(rows)) => scored::foundry_results::write(rows, report),
            _ => return Err("Foundry rows"),
        },
        Format::Copilot => match dataset {
            Some(Dataset::CopilotStudio(set)) => scored::copilot_studio::write(set, report),
            _ => return Err("a Copilot Studio test set"),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::Source;

    fn example(name: &str) -> Vec<u8> {
        let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
    }

    fn examples() -> Vec<(Dataset, Core)> {
        let config: agenteval_core::json::Value =
            serde_json::from_slice(&example("foundry-config.json")).expect("config is JSON");
        [
            Source::Bytes(example("m365-demo.json")).load("dataset", None),
            Source::Bytes(example("foundry-demo.jsonl")).load("dataset", Some(&config)),
        ]
        .into_iter()
        .map(|loaded| {
            let loaded = loaded.expect("examples are valid");
            let report = agenteval_core::engine::score(&loaded.dataset);
            (loaded.dataset, report)
        })
        .collect()
    }

    /// A report written as JSON reads back as the same report (summary recomputed).
    #[test]
    fn the_core_report_reads_back_from_its_json() {
        for (_, report) in examples() {
            let written = agenteval_core::json::to_value(&report).expect("serializable");
            let back = report_json::read(written).expect("the report reads back");
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
        for (dataset, report) in examples() {
            for format in Format::ALL {
                let with_dataset = render(&report, format, Some(&dataset), &settings);
                let own = matches!(
                    (format, report.dialect),
                    (Format::Document, agenteval_core::Dialect::M365)
                        | (
                            Format::Foundry | Format::FoundryResults,
                            agenteval_core::Dialect::Foundry
                        )
                        | (Format::Copilot, agenteval_core::Dialect::CopilotStudio)
                );
                let dataset_format = format.written_back().is_some();
                let foreign = dataset_format && !own;
                assert_eq!(with_dataset.is_err(), foreign, "{format:?}");
                if dataset_format {
                    let needed =
                        render(&report, format, None, &settings).expect_err("needs dataset");
                    assert!(needed.contains(match format {
                        Format::Document => "M365",
                        Format::Foundry | Format::FoundryResults => "Foundry",
                        _ => "Copilot Studio",
                    }));
                }
            }
        }
    }
}
