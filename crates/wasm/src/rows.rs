//! `evaluateRows()`: the lean run for a page that shows a whole dataset. A current-form M365
//! document is scored item by item from its text (the streaming path of `scoreDocument` and the
//! CLI, never a tree of the whole document); other inputs are read whole as `evaluate` reads
//! them. The outcomes stay in the module: the caller gets them as columns of typed arrays, during
//! the run in chunks (`onRows`) and at the end for the whole run, and asks for single entries
//! (`entry`) or an output format (`render`) on demand. Built-in evaluators only: no custom
//! evaluators and no judge.
//!
//! Codes of the columns (shared by `status` and `result`, so one table labels both):
//! [`PASS`] 0, [`FAIL`] 1, [`PARTIAL`] 2 (status only), [`ERROR`] 3, [`SKIPPED`] 4 (a skipped
//! result; a status when every evaluator was skipped, `null` in the report), [`NOT_RUN`] 5
//! (result only: the evaluator has no result on that entry).

use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::dataset::Dataset;
use agenteval_core::engine::{DocumentScorer, Session, Step};
use agenteval_core::json::Value;
use agenteval_core::scored::m365_document::DocumentOptions;
use agenteval_core::status::ItemStatus;
use agenteval_core::stream::DocumentStream;
use agenteval_core::{CaseOutcome, Dialect, RunReport, Verdict};
use js_sys::{Array, Float64Array, Int32Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::convert;
use crate::error::{ApiError, ErrorCode};
use crate::evaluation;
use crate::options::OptionsObject;
use crate::render::{self, Settings};
use crate::types::Format;

/// Code of a pass status or verdict.
pub const PASS: u8 = 0;
/// Code of a fail status or verdict.
pub const FAIL: u8 = 1;
/// Code of a partial status.
pub const PARTIAL: u8 = 2;
/// Code of an error status or verdict.
pub const ERROR: u8 = 3;
/// Code of a skipped verdict, and of the status of an entry whose evaluators were all skipped.
pub const SKIPPED: u8 = 4;
/// Code of a cell whose evaluator has no result on the entry.
pub const NOT_RUN: u8 = 5;

#[wasm_bindgen(module = "/js/drive.js")]
extern "C" {
    /// Runs `run` to the end, handing rows to `options.onRows` after each slice of work, and
    /// resolves to its [`RowsEvaluation`].
    #[wasm_bindgen(js_name = driveRows)]
    fn drive_rows(run: RowsRun, options: JsValue) -> js_sys::Promise;
}

/// Scores a whole dataset (text, bytes or a parsed value; any dialect) with the built-in
/// evaluators and keeps the outcomes in the module. Resolves to a `RowsEvaluation`: the summary,
/// the outcomes as columns of typed arrays (`rows`), single entries on demand (`entry`) and every
/// output format (`render`). A current-form M365 document given as text or bytes is read one
/// item at a time, never held as a tree. `options.onRows` receives the rows scored since its last
/// call after each slice of work (`sliceMs`, default 8), `options.onProgress` the count done;
/// `options.signal` cancels. Rejects with an `Error` whose `code` is `invalidDataset`,
/// `invalidConfig` or `invalidArgument` (also for a `judge`: judged runs go through `evaluate`).
#[wasm_bindgen(js_name = evaluateRows, unchecked_return_type = "Promise<RowsEvaluation>")]
pub fn evaluate_rows(
    #[wasm_bindgen(unchecked_param_type = "DatasetInput")] dataset: JsValue,
    options: Option<crate::types::RowsOptionsArg>,
) -> js_sys::Promise {
    match prepare(&dataset, options) {
        Ok((run, options)) => drive_rows(run, options),
        Err(error) => js_sys::Promise::reject(&error.into()),
    }
}

fn prepare(
    dataset: &JsValue,
    options: Option<crate::types::RowsOptionsArg>,
) -> Result<(RowsRun, JsValue), ApiError> {
    let options = OptionsObject::read(
        options,
        "options",
        &[
            "config",
            "signal",
            "onProgress",
            "onRows",
            "sliceMs",
            "judge",
        ],
    )?;
    let judge = options.get("judge");
    if !judge.is_undefined() && !judge.is_null() {
        return Err(ApiError::new(
            ErrorCode::InvalidArgument,
            "options.judge: evaluateRows runs the built-in evaluators only; score with a judge through evaluate()",
        ));
    }
    options.signal("signal")?;
    options.function("onProgress")?;
    options.function("onRows")?;
    if !options.get("sliceMs").is_undefined() {
        options.positive_number("sliceMs")?;
    }
    let config = convert::config_value(&options.get("config"), "options.config")?;
    let scoring = match convert::dataset_source(dataset, "dataset")?.outlined() {
        Ok((text, outline)) => {
            convert::check_config(config.as_ref())?;
            Scoring::Streamed(Box::new(Streamed {
                scorer: DocumentScorer::new(outline.default_evaluators()),
                report: RunReport::new(Dialect::M365),
                text,
                outline,
                next_item: 0,
                spare: Value::Null,
            }))
        }
        Err(whole) => {
            let loaded = whole.load("dataset", config.as_ref())?;
            Scoring::Whole(Box::new(Session::new(
                loaded.dataset,
                agenteval_core::engine::Customs::default(),
            )))
        }
    };
    Ok((
        RowsRun {
            scoring,
            names: Vec::new(),
            emitted: 0,
        },
        options.value(),
    ))
}

/// An M365 document scored item by item from its text.
struct Streamed {
    text: String,
    outline: DocumentOutline,
    scorer: DocumentScorer,
    report: RunReport,
    next_item: usize,
    /// The last item's value, rebuilt into by the next item.
    spare: Value,
}

impl Streamed {
    /// Scores the next item into the report; `false` when none is left.
    fn score_next(&mut self) -> Result<bool, JsValue> {
        let index = self.next_item;
        if index >= self.outline.item_count() {
            return Ok(false);
        }
        self.next_item += 1;
        let item = self
            .outline
            .item_reusing(&self.text, index, std::mem::take(&mut self.spare))
            .map_err(|diagnostic| JsValue::from(js_sys::Error::new(&diagnostic.message)))?;
        for outcome in self
            .scorer
            .score_item(index, &item.value, item.problem.as_deref())
        {
            self.report.push(outcome);
        }
        self.spare = item.value;
        Ok(true)
    }
}

enum Scoring {
    Streamed(Box<Streamed>),
    Whole(Box<Session<'static>>),
}

/// An `evaluateRows` run in progress. Internal: created by `evaluateRows` and stepped by the
/// driver in `js/drive.js`.
#[wasm_bindgen(js_name = RowsRun, skip_typescript)]
pub struct RowsRun {
    scoring: Scoring,
    /// Evaluator names in the order they were first seen: the columns of the rows.
    names: Vec<String>,
    /// Entries already handed out as rows.
    emitted: usize,
}

impl RowsRun {
    fn items(&self) -> &[CaseOutcome] {
        match &self.scoring {
            Scoring::Streamed(streamed) => &streamed.report.items,
            Scoring::Whole(session) => &session.report().items,
        }
    }
}

#[wasm_bindgen(js_class = RowsRun)]
impl RowsRun {
    /// A promise to await before the first step when the run scores METEOR and its WordNet table
    /// is not installed yet (see [`crate::wordnet`]); `undefined` otherwise.
    #[wasm_bindgen(js_name = loadWordnet)]
    pub fn load_wordnet(&self) -> Option<js_sys::Promise> {
        let needed = match &self.scoring {
            Scoring::Streamed(_) => false,
            Scoring::Whole(session) => session.needs_wordnet(),
        };
        crate::wordnet::ensure(needed)
    }

    /// Report entries the run yields; each unread item counts as one until its turns are read.
    pub fn total(&self) -> usize {
        match &self.scoring {
            Scoring::Streamed(streamed) => {
                streamed.report.items.len() + streamed.outline.item_count() - streamed.next_item
            }
            Scoring::Whole(session) => session.total(),
        }
    }

    /// Report entries scored so far.
    pub fn done(&self) -> usize {
        self.items().len()
    }

    /// Scores up to `count` items (at least one); `false` once the dataset is done.
    ///
    /// # Errors
    /// Never in practice: the document's items were located when it was read.
    #[wasm_bindgen(js_name = next)]
    pub fn score_next(&mut self, count: u32) -> Result<bool, JsValue> {
        for _ in 0..count.max(1) {
            let more = match &mut self.scoring {
                Scoring::Streamed(streamed) => streamed.score_next()?,
                Scoring::Whole(session) => match session.step() {
                    None => false,
                    Some(Step::Done(_)) => true,
                    Some(Step::Pending(pending)) => {
                        session.complete(pending, Vec::new());
                        true
                    }
                },
            };
            if !more {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The rows of the entries scored since the last call, with the evaluators seen so far as
    /// columns.
    ///
    /// # Errors
    /// When a typed array cannot be made (out of memory).
    pub fn rows(&mut self) -> Result<JsValue, JsValue> {
        let mut names = std::mem::take(&mut self.names);
        let from = self.emitted;
        let items = self.items().get(from..).unwrap_or_default();
        let rows = columns(items, &mut names).to_js(&names);
        self.emitted = from + items.len();
        self.names = names;
        rows
    }

    /// Ends the run: its [`RowsEvaluation`], holding the report and what renders it.
    ///
    /// # Errors
    /// When a value cannot be written (never for these types).
    pub fn finish(self) -> Result<RowsEvaluation, JsValue> {
        let RowsRun {
            scoring, mut names, ..
        } = self;
        let (report, kept) = match scoring {
            Scoring::Streamed(streamed) => {
                let Streamed {
                    text,
                    outline,
                    report,
                    ..
                } = *streamed;
                (report, Kept::Text { text, outline })
            }
            Scoring::Whole(session) => match (*session).finish_with_dataset() {
                (report, Some(dataset)) => (report, Kept::Dataset(dataset)),
                (report, None) => (report, Kept::Nothing),
            },
        };
        let rows = columns(&report.items, &mut names).to_js(&names)?;
        Ok(RowsEvaluation {
            summary: boundary::to_js(&report.summary)?,
            dialect: boundary::to_js(&report.dialect)?,
            rows,
            report,
            kept,
        })
    }
}

/// What renders the dataset formats.
enum Kept {
    /// The M365 document's text and outline, streamed again for `document`.
    Text {
        text: String,
        outline: DocumentOutline,
    },
    /// The dataset read whole.
    Dataset(Dataset),
    /// Nothing (never after a run over a dataset).
    Nothing,
}

/// A dataset scored by `evaluateRows`: the run's summary, its outcomes as columns (`rows`), each
/// outcome on demand (`entry`), and every output format of the CLI (`render`). Holds the report
/// and the dataset's text until `free()` is called (or the object is declared with `using`); a
/// freed one can no longer be used.
#[wasm_bindgen]
pub struct RowsEvaluation {
    summary: JsValue,
    dialect: JsValue,
    rows: JsValue,
    report: RunReport,
    kept: Kept,
}

#[wasm_bindgen]
impl RowsEvaluation {
    /// The run's counts, as `RunReport.summary` (the same object on every read).
    #[wasm_bindgen(getter, unchecked_return_type = "Summary")]
    pub fn summary(&self) -> JsValue {
        self.summary.clone()
    }

    /// The input dialect.
    #[wasm_bindgen(getter, unchecked_return_type = "Dialect")]
    pub fn dialect(&self) -> JsValue {
        self.dialect.clone()
    }

    /// Every entry as columns (the same object on every read; its arrays can be transferred).
    #[wasm_bindgen(getter, unchecked_return_type = "Rows")]
    pub fn rows(&self) -> JsValue {
        self.rows.clone()
    }

    /// Number of entries (items, turns or rows).
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.report.items.len()
    }

    /// The entry at `position` (0-based, in report order) as `score` gives it.
    ///
    /// # Errors
    /// `invalidArgument` when there is no entry at `position`.
    #[wasm_bindgen(unchecked_return_type = "CaseOutcome")]
    pub fn entry(&self, position: f64) -> Result<JsValue, JsValue> {
        let count = self.report.items.len();
        let outcome = (position.fract() == 0.0 && position >= 0.0)
            .then(|| self.report.items.get(position as usize))
            .flatten()
            .ok_or_else(|| {
                ApiError::argument(
                    "position",
                    format!("an entry position from 0 to {}", count.saturating_sub(1)),
                )
            })?;
        boundary::to_js(outcome)
    }

    /// The row of a Copilot Studio test set behind entry `position`, as an object of its columns
    /// named as in the header (`question`, `expectedResponse`, `actualResponse`, …), for an item
    /// view; `undefined` for the other dialects, whose text the caller reads as JSON.
    ///
    /// # Errors
    /// `invalidArgument` when there is no entry at `position`.
    #[wasm_bindgen(unchecked_return_type = "JsonObject | undefined")]
    pub fn input(&self, position: f64) -> Result<JsValue, JsValue> {
        let dataset = match &self.kept {
            Kept::Dataset(dataset) => Some(dataset),
            _ => None,
        };
        evaluation::row_input(dataset, position, self.report.items.len())
    }

    /// Writes the run in `format`, exactly as `agenteval score --format` does (see
    /// `Evaluation.render`, `options.reviews` too). The `document` of an M365 document read item by
    /// item is written by streaming its text again, as the CLI writes it (read whole when it has
    /// reviews to write).
    ///
    /// # Errors
    /// `invalidArgument` for an unknown format, or one that writes into another dialect.
    #[wasm_bindgen(js_name = render)]
    pub fn render_format(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Format")] format: JsValue,
        options: Option<crate::types::OutputOptionsArg>,
    ) -> Result<String, JsValue> {
        let options =
            OptionsObject::read(options, "options", &["evaluatedAt", "title", "reviews"])?;
        let format = render::read_format(&format)?;
        let settings = Settings::read(&options)?;
        let reviewed = crate::review::with_option(&self.report, &options)?;
        let report = reviewed.as_ref().unwrap_or(&self.report);
        let dataset = match (&mut self.kept, format) {
            (Kept::Text { text, outline }, Format::Document) if reviewed.is_none() => {
                return streamed_document(text, outline.clone(), &settings);
            }
            (Kept::Text { text, .. }, Format::Document) => {
                let loaded =
                    agenteval_core::dataset::load(text.as_bytes(), None).map_err(|error| {
                        ApiError::input(ErrorCode::InvalidDataset, "dataset", error)
                    })?;
                let Dataset::M365(mut document) = loaded.dataset else {
                    return Err(evaluation::foreign_format(format, "an M365 eval document").into());
                };
                return Ok(evaluation::scored_document(
                    &mut document.document,
                    report,
                    &settings,
                ));
            }
            (Kept::Dataset(Dataset::M365(document)), Format::Document) => {
                return Ok(match reviewed {
                    Some(_) => evaluation::reviewed_document(&document.document, report, &settings),
                    None => evaluation::scored_document(&mut document.document, report, &settings),
                });
            }
            (Kept::Dataset(dataset), _) => Some(&*dataset),
            (Kept::Text { .. } | Kept::Nothing, _) => None,
        };
        Ok(render::render(report, format, dataset, &settings)
            .map_err(|dialect| evaluation::foreign_format(format, dialect))?)
    }
}

/// The scored document of `text`, streamed as `agenteval score` writes it.
fn streamed_document(
    text: &str,
    outline: DocumentOutline,
    settings: &Settings,
) -> Result<String, JsValue> {
    let options = DocumentOptions {
        evaluated_at: settings.evaluated_at.clone(),
    };
    let mut stream = DocumentStream::new(outline, &options);
    let mut written = Vec::with_capacity(text.len() + text.len() / 2);
    let failed = |error: std::io::Error| JsValue::from(js_sys::Error::new(&error.to_string()));
    while stream.append_next(text, &mut written).map_err(failed)? {}
    written.push(b'\n');
    String::from_utf8(written)
        .map_err(|error| JsValue::from(js_sys::Error::new(&error.to_string())))
}

/// Rows as the module gathers them, before they become typed arrays.
struct Columns {
    index: Vec<i32>,
    turn: Vec<i32>,
    status: Vec<u8>,
    result: Vec<u8>,
    score: Vec<f64>,
}

/// The rows of `items`, one column per name of `names`, which gains the evaluators seen first
/// here. An entry with two results of one evaluator shows the last.
fn columns(items: &[CaseOutcome], names: &mut Vec<String>) -> Columns {
    for outcome in items {
        for (position, result) in outcome.results.iter().enumerate() {
            column(names, position, &result.evaluator);
        }
    }
    let width = names.len();
    let mut rows = Columns {
        index: Vec::with_capacity(items.len()),
        turn: Vec::with_capacity(items.len()),
        status: Vec::with_capacity(items.len()),
        result: vec![NOT_RUN; items.len() * width],
        score: vec![f64::NAN; items.len() * width],
    };
    for (row, outcome) in items.iter().enumerate() {
        rows.index.push(whole_number(outcome.index));
        rows.turn.push(outcome.turn.map_or(-1, whole_number));
        rows.status.push(status_code(outcome.status));
        for (position, result) in outcome.results.iter().enumerate() {
            let cell = row * width + column(names, position, &result.evaluator);
            if let Some(code) = rows.result.get_mut(cell) {
                *code = verdict_code(result.result);
            }
            if let Some(score) = rows.score.get_mut(cell) {
                *score = result.score.unwrap_or(f64::NAN);
            }
        }
    }
    rows
}

impl Columns {
    /// `{index, turn, status, evaluators, result, score}`, each column its own typed array.
    fn to_js(&self, names: &[String]) -> Result<JsValue, JsValue> {
        let object = Object::new();
        let evaluators: Array = names.iter().map(|name| JsValue::from_str(name)).collect();
        Reflect::set(&object, &"index".into(), &Int32Array::from(&self.index[..]))?;
        Reflect::set(&object, &"turn".into(), &Int32Array::from(&self.turn[..]))?;
        Reflect::set(
            &object,
            &"status".into(),
            &Uint8Array::from(&self.status[..]),
        )?;
        Reflect::set(&object, &"evaluators".into(), &evaluators)?;
        Reflect::set(
            &object,
            &"result".into(),
            &Uint8Array::from(&self.result[..]),
        )?;
        Reflect::set(
            &object,
            &"score".into(),
            &Float64Array::from(&self.score[..]),
        )?;
        Ok(object.into())
    }
}

/// The column of evaluator `name`, added when new; `guess` is tried first (entries tend to list
/// the same evaluators in the same order).
fn column(names: &mut Vec<String>, guess: usize, name: &str) -> usize {
    if names.get(guess).is_some_and(|known| known == name) {
        return guess;
    }
    if let Some(found) = names.iter().position(|known| known == name) {
        return found;
    }
    names.push(name.to_owned());
    names.len() - 1
}

fn whole_number(value: usize) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

fn status_code(status: Option<ItemStatus>) -> u8 {
    match status {
        Some(ItemStatus::Pass) => PASS,
        Some(ItemStatus::Fail) => FAIL,
        Some(ItemStatus::Partial) => PARTIAL,
        Some(ItemStatus::Error) => ERROR,
        None => SKIPPED,
    }
}

fn verdict_code(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Pass => PASS,
        Verdict::Fail => FAIL,
        Verdict::Error => ERROR,
        Verdict::Skipped => SKIPPED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::Source;
    use agenteval_core::engine;

    fn example(name: &str) -> Vec<u8> {
        let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
    }

    /// Every cell holds its entry's result under its evaluator's column, and nothing else.
    #[test]
    fn the_columns_hold_each_result_in_its_evaluators_column() {
        let loaded = Source::Bytes(example("m365-demo.json"))
            .load("dataset", None)
            .expect("valid");
        let report = engine::score(&loaded.dataset);
        let mut names = Vec::new();
        let (head, tail) = report.items.split_at(report.items.len() / 2);
        let first = columns(head, &mut names);
        let first_width = names.len();
        let second = columns(tail, &mut names);
        let whole = columns(&report.items, &mut names);
        assert_eq!(first.result.len(), head.len() * first_width);
        let width = names.len();
        for (row, outcome) in report.items.iter().enumerate() {
            assert_eq!(whole.index[row], outcome.index as i32);
            assert_eq!(whole.turn[row], outcome.turn.map_or(-1, |turn| turn as i32));
            assert_eq!(whole.status[row], status_code(outcome.status));
            let part = if row < head.len() { &first } else { &second };
            let part_row = if row < head.len() {
                row
            } else {
                row - head.len()
            };
            assert_eq!(part.status[part_row], whole.status[row]);
            for (column, name) in names.iter().enumerate() {
                let cell = row * width + column;
                match outcome
                    .results
                    .iter()
                    .find(|result| &result.evaluator == name)
                {
                    Some(result) => {
                        assert_eq!(whole.result[cell], verdict_code(result.result));
                        let score = whole.score[cell];
                        assert_eq!(result.score, (!score.is_nan()).then_some(score));
                    }
                    None => {
                        assert_eq!(whole.result[cell], NOT_RUN);
                        assert!(whole.score[cell].is_nan());
                    }
                }
            }
        }
    }

    /// The document written by streaming the kept text again is what the CLI's stream writes.
    #[test]
    fn the_streamed_document_is_the_clis() {
        let bytes = example("m365-demo.json");
        let text = String::from_utf8(bytes).expect("UTF-8");
        let outline = DocumentOutline::read(&text).expect("a current-form document");
        let settings = Settings {
            title: render::DEFAULT_TITLE.to_owned(),
            evaluated_at: Some("2026-01-02T03:04:05Z".to_owned()),
        };
        let mut expected = Vec::new();
        agenteval_core::stream::write_scored(
            &text,
            outline.clone(),
            &DocumentOptions {
                evaluated_at: settings.evaluated_at.clone(),
            },
            &mut expected,
        )
        .expect("written");
        expected.push(b'\n');
        let written = streamed_document(&text, outline, &settings).expect("written");
        assert_eq!(written.as_bytes(), &expected[..]);
    }
}
