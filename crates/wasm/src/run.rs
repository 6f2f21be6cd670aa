//! `score()`, `evaluate()` and `scoreItem()`: a run steps through the dataset one report entry at
//! a time; the driver in `js/drive.js` awaits custom evaluators between steps, yields to the event
//! loop, reports progress and honours the `AbortSignal`. Every call into wasm is synchronous, so a
//! crash surfaces where the package's guard can catch it.

use agenteval_core::custom::{self, CustomFailure, CustomReturn};
use agenteval_core::dataset::Dataset;
use agenteval_core::engine::{Customs, PendingCase, Session, Step};
use agenteval_core::json::{Map, Value};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::boundary;
use crate::convert::{self, Source};
use crate::error::{ApiError, ErrorCode};
use crate::evaluation::Evaluation;
use crate::judge::JudgeSettings;
use crate::options::OptionsObject;
use crate::types::CustomContext;

#[wasm_bindgen(module = "/js/drive.js")]
extern "C" {
    /// Runs `run` to the end; resolves to what `mode` asks for: `"report"` (the run report),
    /// `"item"` (the first entry) or `"evaluation"` (an [`Evaluation`]).
    fn drive(run: ScoreRun, options: JsValue, mode: &str) -> js_sys::Promise;
}

/// Schema version of the one-item document `scoreItem` scores.
const ITEM_SCHEMA_VERSION: &str = "1.11.0";

/// Scores a whole dataset (text, bytes or a parsed value; any dialect). Resolves to the run
/// report; `options.onResult` receives each entry as soon as it is produced and
/// `options.onProgress` the count done; `options.signal` cancels. A current-form M365 document
/// given as text or bytes is read one item at a time, never held as a tree. Custom evaluators
/// named in the dataset run from `options.custom`. Rejects with an `Error` whose `code` is
/// `invalidDataset`, `invalidConfig` or `invalidArgument` when the input is unusable as a whole.
#[wasm_bindgen(js_name = score, unchecked_return_type = "Promise<RunReport>")]
pub fn score_dataset(
    #[wasm_bindgen(unchecked_param_type = "DatasetInput")] dataset: JsValue,
    options: Option<crate::types::ScoreOptionsArg>,
) -> js_sys::Promise {
    match prepare(&dataset, options, false) {
        Ok((run, options)) => drive(run, options, "report"),
        Err(error) => js_sys::Promise::reject(&error.into()),
    }
}

/// Scores a whole dataset like `score` (same options) and keeps the dataset and the report in
/// the module, so that `evaluation.render(format)` writes any output format without reading
/// either again. Resolves to an `Evaluation`; call its `free()` (or declare it with `using`) when
/// done, to release the memory it holds.
#[wasm_bindgen(js_name = evaluate, unchecked_return_type = "Promise<Evaluation>")]
pub fn evaluate_dataset(
    #[wasm_bindgen(unchecked_param_type = "DatasetInput")] dataset: JsValue,
    options: Option<crate::types::ScoreOptionsArg>,
) -> js_sys::Promise {
    match prepare(&dataset, options, true) {
        Ok((run, options)) => drive(run, options, "evaluation"),
        Err(error) => js_sys::Promise::reject(&error.into()),
    }
}

/// Reads the arguments of `score` and `evaluate` into a run; `keep` keeps the dataset for
/// [`ScoreRun::keep`].
fn prepare(
    dataset: &JsValue,
    options: Option<crate::types::ScoreOptionsArg>,
    keep: bool,
) -> Result<(ScoreRun, JsValue), ApiError> {
    let options = OptionsObject::read(
        options,
        "options",
        &[
            "config",
            "custom",
            "signal",
            "onResult",
            "onProgress",
            "sliceMs",
            "judge",
        ],
    )?;
    let customs = check_hooks(&options)?;
    let judge = read_judge(&options)?;
    options.function("onResult")?;
    options.function("onProgress")?;
    let config = convert::config_value(&options.get("config"), "options.config")?;
    let source = convert::dataset_source(dataset, "dataset")?;
    if keep {
        let loaded = source.load("dataset", config.as_ref())?;
        let mut run = ScoreRun::new(loaded.dataset, customs).judged_by(judge);
        run.keeps_dataset = true;
        return Ok((run, options.value()));
    }
    let session = match source.outlined() {
        Ok((text, outline)) => {
            convert::check_config(config.as_ref())?;
            Session::outlined(text, outline, customs)
        }
        Err(whole) => Session::new(whole.load("dataset", config.as_ref())?.dataset, customs),
    };
    Ok((
        ScoreRun::over(session.without_items()).judged_by(judge),
        options.value(),
    ))
}

/// Scores one single-turn item (`{prompt, response, expected_response?, context?, diagnostics?}`)
/// with the given evaluators: names, or names mapped to their options. Custom evaluators from
/// `options.custom` can be selected like built-ins. Resolves to the item's outcome.
#[wasm_bindgen(js_name = scoreItem, unchecked_return_type = "Promise<CaseOutcome>")]
pub fn score_item(
    #[wasm_bindgen(unchecked_param_type = "JsonObject")] item: JsValue,
    #[wasm_bindgen(unchecked_param_type = "EvaluatorSelection")] evaluators: JsValue,
    options: Option<crate::types::ScoreItemOptionsArg>,
) -> js_sys::Promise {
    let prepared = (|| {
        let options = OptionsObject::read(options, "options", &["custom", "signal", "judge"])?;
        let customs = check_hooks(&options)?;
        let judge = read_judge(&options)?;
        let item = convert::json_value(&item, "item")?;
        let selection = convert::json_value(&evaluators, "evaluators")?;
        let document = item_document(item, selection)?;
        let loaded = Source::Value(document).load("item", None)?;
        if let Some((_, problem)) = match &loaded.dataset {
            Dataset::M365(document) => document.item_problems.first(),
            // Foundry rows, and Copilot Studio rows where the core reads them.
            _ => None,
        } {
            return Err(ApiError::new(
                ErrorCode::InvalidItem,
                format!("item: {}", problem.replace("/items/0", "")),
            ));
        }
        Ok::<_, ApiError>((
            ScoreRun::new(loaded.dataset, customs).judged_by(judge),
            options.value(),
        ))
    })();
    match prepared {
        Ok((run, options)) => drive(run, options, "item"),
        Err(error) => js_sys::Promise::reject(&error.into()),
    }
}

/// The judge the options configure.
fn read_judge(options: &OptionsObject) -> Result<Option<JudgeSettings>, ApiError> {
    JudgeSettings::read(options.get("judge"))
}

/// Checks the hooks shared by `score` and `scoreItem`; returns the custom evaluators: functions
/// by name, and judge templates.
fn check_hooks(options: &OptionsObject) -> Result<Customs, ApiError> {
    options.signal("signal")?;
    options.positive_number("sliceMs").or_else(|error| {
        if options.get("sliceMs").is_undefined() {
            Ok(None)
        } else {
            Err(error)
        }
    })?;
    customs(options)
}

/// The custom evaluators of `options.custom`: functions by name, and judge templates.
fn customs(options: &OptionsObject) -> Result<Customs, ApiError> {
    let mut customs = Customs::default();
    for (name, entry) in options.entries("custom")? {
        let field = || format!("options.custom.{name}");
        custom::check_name(&name).map_err(|error| ApiError::argument(&field(), error.message))?;
        if entry.is_function() {
            customs.functions.push(name);
        } else if entry.is_object() {
            customs_template(&mut customs, &field(), name, &entry)?;
        } else {
            return Err(ApiError::argument(
                &field(),
                "a function (input, options, context) => result, or a judge template object",
            ));
        }
    }
    Ok(customs)
}

/// Reads a judge template given as `options.custom.NAME`.
fn customs_template(
    customs: &mut Customs,
    field: &str,
    name: String,
    entry: &JsValue,
) -> Result<(), ApiError> {
    let definition = convert::json_value(entry, field)?;
    let template =
        agenteval_core::evaluators::judged::template::JudgeTemplate::from_value(&definition)
            .map_err(|error| {
                let separator = if error.message.starts_with('/') {
                    ""
                } else {
                    ": "
                };
                ApiError::new(
                    ErrorCode::InvalidArgument,
                    format!("{field}{separator}{}", error.message),
                )
            })?;
    customs
        .templates
        .push((name, std::sync::Arc::new(template)));
    Ok(())
}

/// The one-item M365 document `scoreItem` scores: the item with `evaluators` set and
/// `evaluators_mode: "replace"`.
///
/// # Errors
/// `invalidItem` when `item` is not an object or is a thread; `invalidArgument` for a selection
/// that is neither a list of names nor an object of options.
pub fn item_document(item: Value, selection: Value) -> Result<Value, ApiError> {
    let Value::Object(mut item) = item else {
        return Err(ApiError::new(
            ErrorCode::InvalidItem,
            "item: expected an object {prompt, response, expected_response?, …}",
        ));
    };
    if item.contains_key("turns") {
        return Err(ApiError::new(
            ErrorCode::InvalidItem,
            "item.turns: scoreItem scores single-turn items; score a thread with score()",
        ));
    }
    let evaluators: Map<String, Value> = match selection {
        Value::Array(names) => names
            .into_iter()
            .enumerate()
            .map(|(position, name)| match name {
                Value::String(name) if !name.is_empty() => Ok((name, Value::Object(Map::new()))),
                _ => Err(ApiError::argument(
                    &format!("evaluators[{position}]"),
                    "an evaluator name",
                )),
            })
            .collect::<Result<_, _>>()?,
        Value::Object(map) => {
            for (name, options) in &map {
                if !options.is_object() {
                    return Err(ApiError::argument(
                        &format!("evaluators.{name}"),
                        "an options object (use {} for the defaults)",
                    ));
                }
            }
            map
        }
        _ => {
            return Err(ApiError::argument(
                "evaluators",
                "a list of evaluator names, or an object mapping names to options",
            ))
        }
    };
    if evaluators.is_empty() {
        return Err(ApiError::argument("evaluators", "at least one evaluator"));
    }
    item.insert("evaluators".to_owned(), Value::Object(evaluators));
    item.insert("evaluators_mode".to_owned(), Value::from("replace"));
    let mut document = Map::new();
    document.insert("schemaVersion".to_owned(), Value::from(ITEM_SCHEMA_VERSION));
    document.insert("items".to_owned(), Value::Array(vec![Value::Object(item)]));
    Ok(Value::Object(document))
}

/// One run in progress. Internal: created by `score`/`scoreItem` and stepped by the driver.
#[wasm_bindgen(js_name = ScoreRun, skip_typescript)]
pub struct ScoreRun {
    session: Session<'static>,
    pending: Option<PendingCase>,
    /// Whether the session's dataset goes to an [`Evaluation`] at the end (a run started by
    /// `evaluate`).
    keeps_dataset: bool,
    /// The judge, when the caller configured one: the run is then driven by [`ScoreRun::judge_all`].
    judge: Option<JudgeSettings>,
}

/// A custom evaluator call as the driver sees it.
#[derive(Serialize)]
struct Call<'a> {
    evaluator: &'a str,
    input: &'a Value,
    options: &'a Map<String, Value>,
    context: CustomContext,
}

impl<'a> Call<'a> {
    /// The driver's view of `call`, made for entry `index` (turn `turn`).
    fn of(call: &'a agenteval_core::engine::CustomCall, index: usize, turn: Option<usize>) -> Self {
        Call {
            evaluator: &call.evaluator,
            input: &call.item,
            options: &call.options,
            context: CustomContext {
                evaluator: call.evaluator.clone(),
                index,
                turn,
            },
        }
    }
}

/// What `next` returns for an entry waiting on custom evaluators.
#[derive(Serialize)]
struct Waiting<'a> {
    calls: Vec<Call<'a>>,
}

/// What `next` returns for a finished entry.
#[derive(Serialize)]
struct Finished<'a> {
    outcome: &'a agenteval_core::CaseOutcome,
}

impl ScoreRun {
    fn new(dataset: Dataset, customs: Customs) -> Self {
        ScoreRun::over(Session::new(dataset, customs))
    }

    fn over(session: Session<'static>) -> Self {
        ScoreRun {
            session,
            pending: None,
            keeps_dataset: false,
            judge: None,
        }
    }

    /// The same run with `judge` configured (judged evaluators ask for calls).
    fn judged_by(mut self, judge: Option<JudgeSettings>) -> Self {
        if judge.is_some() {
            self.session = self.session.with_judge();
        }
        self.judge = judge;
        self
    }
}

#[wasm_bindgen(js_class = ScoreRun)]
impl ScoreRun {
    /// Report entries the run yields; for a document read item by item, each unread item counts
    /// as one until its turns are read.
    pub fn total(&self) -> usize {
        self.session.total()
    }

    /// A promise to await before the first step when the run scores METEOR and its WordNet table
    /// is not installed yet (see [`crate::wordnet`]); `undefined` otherwise.
    #[wasm_bindgen(js_name = loadWordnet)]
    pub fn load_wordnet(&self) -> Option<js_sys::Promise> {
        crate::wordnet::ensure(self.session.needs_wordnet())
    }

    /// Whether a judge is configured: the driver then hands the run to `judgeAll`.
    #[wasm_bindgen(getter)]
    pub fn judged(&self) -> bool {
        self.judge.is_some()
    }

    /// The next step: `{outcome}`, `{calls}` (answer with `complete`), or `undefined` at the end.
    #[wasm_bindgen(js_name = next)]
    pub fn step(&mut self) -> Result<JsValue, JsValue> {
        if self.pending.is_some() {
            return Err(ApiError::new(
                ErrorCode::InvalidArgument,
                "run: the pending entry must be completed first",
            )
            .into());
        }
        match self.session.step() {
            None => Ok(JsValue::UNDEFINED),
            Some(Step::Done(outcome)) => boundary::to_js(&Finished { outcome }),
            Some(Step::Pending(pending)) => {
                let waiting = Waiting {
                    calls: pending
                        .calls
                        .iter()
                        .map(|call| Call::of(call, pending.index(), pending.turn()))
                        .collect(),
                };
                let value = boundary::to_js(&waiting);
                self.pending = Some(pending);
                value
            }
        }
    }

    /// Completes the pending entry with the calls' returns, in order: `{ok: value}` or
    /// `{error: message}` each. Returns the entry's outcome.
    pub fn complete(&mut self, returns: js_sys::Array) -> Result<JsValue, JsValue> {
        let Some(pending) = self.pending.take() else {
            return Err(
                ApiError::new(ErrorCode::InvalidArgument, "run: no entry is pending").into(),
            );
        };
        let returns: Vec<CustomReturn> = returns
            .iter()
            .map(|answer| custom_return(&answer))
            .collect();
        boundary::to_js(self.session.complete(pending, returns))
    }

    /// Ends the run: the report's `tool`, `dialect` and `summary` (the driver adds the items it
    /// already holds).
    pub fn finish(self) -> Result<JsValue, JsValue> {
        head(&self.session.finish())
    }

    /// Ends a run started by `evaluate`: the [`Evaluation`] holding the dataset, the report, and
    /// the report as an object (`items`: the entries the driver already holds).
    pub fn keep(self, items: js_sys::Array) -> Result<Evaluation, JsValue> {
        let (report, dataset) = self.session.finish_with_dataset();
        let Some(dataset) = dataset.filter(|_| self.keeps_dataset) else {
            return Err(ApiError::new(
                ErrorCode::InvalidArgument,
                "run: only a run started by evaluate() can be kept",
            )
            .into());
        };
        let object = head(&report)?;
        js_sys::Reflect::set(&object, &"items".into(), &items)?;
        Ok(Evaluation::new(object, report, dataset))
    }
}

/// The report's `tool`, `dialect`, `summary` and (after a judged run) `judge` as an object.
pub(crate) fn head(report: &agenteval_core::RunReport) -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Head<'a> {
        tool: &'a agenteval_core::report::ToolInfo,
        dialect: agenteval_core::Dialect,
        summary: &'a agenteval_core::Summary,
        #[serde(skip_serializing_if = "Option::is_none")]
        judge: Option<&'a agenteval_core::report::JudgeRun>,
    }
    boundary::to_js(&Head {
        tool: &report.tool,
        dialect: report.dialect,
        summary: &report.summary,
        judge: report.judge.as_ref(),
    })
}

impl ScoreRun {
    /// The parts a judged run needs: the session, whether it keeps the dataset, the judge.
    pub(crate) fn into_parts(self) -> (Session<'static>, bool, Option<JudgeSettings>) {
        (self.session, self.keeps_dataset, self.judge)
    }
}

/// A custom evaluator call as the driver's `call` takes it.
pub(crate) fn custom_call_js(
    call: &agenteval_core::engine::CustomCall,
    index: usize,
    turn: Option<usize>,
) -> Result<JsValue, JsValue> {
    boundary::to_js(&Call::of(call, index, turn))
}

/// One answer from the driver: `{ok: value}` or `{error: message}`.
pub(crate) fn custom_return(answer: &JsValue) -> CustomReturn {
    let get = |key: &str| js_sys::Reflect::get(answer, &key.into()).unwrap_or(JsValue::UNDEFINED);
    let error = get("error");
    if !error.is_undefined() {
        return Err(CustomFailure::Threw(
            error.as_string().unwrap_or_else(|| "an error".to_owned()),
        ));
    }
    let value = get("ok");
    if value.is_undefined() {
        return Err(CustomFailure::Unrepresentable("undefined".to_owned()));
    }
    if let Some(number) = value.as_f64().filter(|number| !number.is_finite()) {
        let written = if number.is_nan() {
            "NaN"
        } else if number > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        };
        return Err(CustomFailure::Unrepresentable(written.to_owned()));
    }
    let not_json = || {
        CustomFailure::Unrepresentable(
            "a value that is not JSON (a function, a symbol, a BigInt or a cycle)".to_owned(),
        )
    };
    let text = boundary::json_text(&value).ok_or_else(not_json)?;
    agenteval_core::json::parse(text.as_bytes()).map_err(|_| not_json())
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenteval_core::json;

    #[test]
    fn the_item_document_replaces_the_evaluators() {
        let document = item_document(
            json!({"prompt": "p", "response": "r", "evaluators": {"Relevance": {}}}),
            json!(["ExactMatch", "mine"]),
        )
        .expect("valid");
        assert_eq!(
            document["items"][0]["evaluators"],
            json!({"ExactMatch": {}, "mine": {}})
        );
        assert_eq!(document["items"][0]["evaluators_mode"], json!("replace"));
        assert_eq!(document["schemaVersion"], json!(ITEM_SCHEMA_VERSION));
    }

    #[test]
    fn selections_and_items_of_the_wrong_shape_are_refused() {
        let item = json!({"prompt": "p", "response": "r"});
        for (selection, field) in [
            (json!([]), "evaluators"),
            (json!("ExactMatch"), "evaluators"),
            (json!([3]), "evaluators[0]"),
            (json!({"ExactMatch": true}), "evaluators.ExactMatch"),
        ] {
            let error = item_document(item.clone(), selection).expect_err("refused");
            assert_eq!(error.code, ErrorCode::InvalidArgument);
            assert!(error.message.starts_with(&format!("{field}: ")), "{error}");
        }
        let thread = item_document(json!({"turns": []}), json!(["ExactMatch"]));
        assert_eq!(
            thread.map_err(|error| error.code),
            Err(ErrorCode::InvalidItem)
        );
    }
}
