//! `compare()`: two scored runs of one dataset compared by the core (`agenteval_core::compare`):
//! the comparison as a plain object, or, with `format`, its export as text, byte for byte what
//! `agenteval compare --format` writes. This module only reads the arguments and converts.

use agenteval_core::compare::{self, runs, CompareOptions, Direction, Format, Run};
use agenteval_core::scored::ReadError;
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::convert::{self, Source};
use crate::error::{ApiError, ErrorCode};
use crate::options::OptionsObject;

const OPTIONS: [&str; 5] = [
    "key",
    "directions",
    "baselineName",
    "candidateName",
    "format",
];

/// Compares two scored runs of one dialect (each text, bytes or a parsed value: a scored M365
/// eval document, scored Foundry rows, a Copilot Studio results export, a run report or runevals
/// results): items paired by id or prompt, per evaluator a pass-rate and a score metric
/// with the paired test of its kind, intervals, effect, flips and the detectable difference.
/// Returns the comparison (the JSON contract of `docs/formats.md` as a plain object), or with
/// `options.format` (`json`, `md`, `html`) its export as a string. Throws an `Error` whose `code`
/// is `notScored` or `invalidDataset` for a run that cannot be read (the message names
/// `baseline` or `candidate`), `notComparable` for runs that cannot be paired (different
/// dialects, an item without the `key` field), `invalidArgument` for bad options. Declared in
/// `types.rs` (its overloads by `format`).
#[wasm_bindgen(js_name = compare, skip_typescript)]
pub fn compare_runs(
    baseline: JsValue,
    candidate: JsValue,
    options: Option<js_sys::Object>,
) -> Result<JsValue, JsValue> {
    let options = OptionsObject::read(options, "options", &OPTIONS)?;
    let key = options.string("key")?;
    let format = match options.string("format")? {
        None => None,
        Some(name) => Some(Format::parse(&name).ok_or_else(|| {
            ApiError::argument(&options.field("format"), "\"json\", \"md\" or \"html\"")
        })?),
    };
    let directions = options
        .entries("directions")?
        .into_iter()
        .map(|(name, value)| {
            value
                .as_string()
                .and_then(|text| Direction::parse(&text))
                .map(|direction| (name.clone(), direction))
                .ok_or_else(|| {
                    ApiError::argument(
                        &format!("options.directions.{name}"),
                        "\"increase\", \"decrease\" or \"neutral\"",
                    )
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let baseline_name = options
        .string("baselineName")?
        .unwrap_or_else(|| "baseline".to_owned());
    let candidate_name = options
        .string("candidateName")?
        .unwrap_or_else(|| "candidate".to_owned());
    let baseline = read(&baseline, "baseline", &baseline_name, key.as_deref())?;
    let candidate = read(&candidate, "candidate", &candidate_name, key.as_deref())?;
    let comparison =
        compare::compare_runs(&baseline, &candidate, &CompareOptions { key, directions })
            .map_err(|error| ApiError::new(ErrorCode::NotComparable, error.to_string()))?;
    match format {
        Some(format) => Ok(JsValue::from_str(&compare::render(&comparison, format))),
        None => boundary::to_js(&comparison),
    }
}

/// One run, its problems named after `argument`.
fn read(value: &JsValue, argument: &str, name: &str, key: Option<&str>) -> Result<Run, ApiError> {
    let read = match convert::dataset_source(value, argument)? {
        Source::Bytes(bytes) => runs::read(name, &bytes, key),
        Source::Value(value) => runs::read_value(name, value, key),
    };
    read.map_err(|error| match error {
        ReadError::NotScored(diagnostic) => ApiError {
            code: ErrorCode::NotScored,
            message: format!("{argument}: {}", diagnostic.describe()),
            diagnostics: vec![diagnostic],
        },
        ReadError::Invalid(error) => ApiError::input(ErrorCode::InvalidDataset, argument, error),
    })
}
