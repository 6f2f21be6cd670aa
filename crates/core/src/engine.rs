//! The scoring engine: instantiates the resolved evaluators, feeds each item or turn its inputs,
//! and derives statuses.
//!
//! [`Session`] scores one report entry (an item, a turn or a row) per step, so callers can stream
//! progress, yield to an event loop, cancel, and run custom evaluators (which may be async in JS)
//! between steps; over an M365 document's text it reads one item at a time. [`score`] runs a whole
//! dataset through a session. Evaluators are built once per distinct configuration where possible
//! (the document's default plan, each Foundry criterion). [`judged`] drives a session through a
//! judge.

pub mod judged;

use std::borrow::Cow;

use crate::json::{Map, Value};

use crate::custom::{self, CustomReturn};
use crate::dataset::foundry::{FoundryConfig, FoundryRow};
use crate::dataset::m365::DocumentOutline;
use crate::dataset::{Dataset, EvalDocument};
use crate::evaluators::{self, Evaluator, EvaluatorSpec};
use crate::inputs::Inputs;
use crate::judge::JudgeCall;
use crate::options::Options;
use crate::outcome::{ErrorCode, EvalResult};
use crate::report::{CaseOutcome, Dialect, RunReport};
use crate::resolve::{self, Planned};
use crate::status::{item_status, ItemStatus};
use crate::Diagnostic;

/// The custom evaluators a session may run besides the built-ins.
#[derive(Debug, Clone, Default)]
pub struct Customs {
    /// The names of the evaluators the caller runs (JS functions).
    pub functions: Vec<String>,
    /// Judged evaluators from prompt templates, by name.
    pub templates: Vec<(
        String,
        std::sync::Arc<evaluators::judged::template::JudgeTemplate>,
    )>,
}

impl From<Vec<String>> for Customs {
    fn from(functions: Vec<String>) -> Self {
        Customs {
            functions,
            templates: Vec::new(),
        }
    }
}

/// An evaluator ready to run, a custom evaluator the caller runs, or the error result every item
/// gets because the evaluator could not be built.
enum Slot {
    Ready {
        spec: &'static EvaluatorSpec,
        label: String,
        evaluator: Box<dyn Evaluator>,
    },
    Custom {
        label: String,
        options: Map<String, Value>,
        threshold: f64,
    },
    Broken(EvalResult),
}

impl Slot {
    fn new(name: &str, label: &str, options: &Map<String, Value>, customs: &Customs) -> Self {
        {
            use evaluators::judged::template;
            if let Some((_, judge)) = customs.templates.iter().find(|(known, _)| known == name) {
                let built =
                    template::configure(label, std::sync::Arc::clone(judge), Options::new(options));
                return Slot::built(&template::SPEC, label, built);
            }
            if template::GRADERS.contains(&name) {
                let built = template::build_grader(label, Options::new(options));
                return Slot::built(&template::SPEC, label, built);
            }
        }
        if let Some((spec, built)) = evaluators::graders::build(name, label, Options::new(options))
        {
            return Slot::built(spec, label, built);
        }
        let Some(spec) = evaluators::find(name) else {
            if customs.functions.iter().any(|custom| custom == name) {
                return match custom::threshold(options) {
                    Ok(threshold) => Slot::Custom {
                        label: label.to_owned(),
                        options: options.clone(),
                        threshold,
                    },
                    Err(error) => Slot::Broken(EvalResult::error(
                        label,
                        ErrorCode::EvaluatorConfigurationError,
                        error.message,
                    )),
                };
            }
            let hint = evaluators::closest_name(name)
                .map(|closest| format!("; did you mean '{closest}'?"))
                .unwrap_or_default();
            return Slot::Broken(EvalResult::error(
                label,
                ErrorCode::EvaluatorLoadError,
                format!("Unknown evaluator '{name}': it is not built in and no custom evaluator of that name was supplied{hint}"),
            ));
        };
        let built = match spec.kind {
            evaluators::EvaluatorKind::Judge => {
                evaluators::judged::build(spec, label, Options::new(options))
            }
            evaluators::EvaluatorKind::Deterministic => (spec.build)(label, Options::new(options)),
        };
        Slot::built(spec, label, built)
    }

    /// The slot of an evaluator built (or refused) under `label`.
    fn built(
        spec: &'static EvaluatorSpec,
        label: &str,
        built: Result<Box<dyn Evaluator>, crate::options::ConfigError>,
    ) -> Self {
        match built {
            Ok(evaluator) => Slot::Ready {
                spec,
                label: label.to_owned(),
                evaluator,
            },
            Err(error) => Slot::Broken(EvalResult::error(
                label,
                ErrorCode::EvaluatorConfigurationError,
                error.message,
            )),
        }
    }
}

impl Slot {
    /// Built-ins declare whether they read the response; custom evaluators always need one (M365).
    fn needs_response(&self) -> bool {
        match self {
            Slot::Ready { spec, .. } => spec.needs_response,
            Slot::Custom { .. } => true,
            Slot::Broken(_) => false,
        }
    }
}

/// A call the caller must make to a custom evaluator.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomCall {
    /// The custom evaluator's name (also the label its result carries).
    pub evaluator: String,
    /// Its effective options.
    pub options: Map<String, Value>,
    /// The item, turn or row object it evaluates.
    pub item: Value,
}

/// One evaluator's place in a pending entry.
#[derive(Debug, Clone, PartialEq)]
enum Place {
    Done(EvalResult),
    Custom,
    Judge,
}

/// An entry whose built-in results are done and whose custom evaluator calls or judge calls are
/// still to make.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingCase {
    index: usize,
    turn: Option<usize>,
    has_response: bool,
    results: Vec<Place>,
    thresholds: Vec<f64>,
    /// The calls to make, in order; answer them in the same order with [`Session::complete`].
    pub calls: Vec<CustomCall>,
    /// The judge calls to make, in order; their results go to [`PendingCase::resolve`].
    pub judge_calls: Vec<JudgeCall>,
}

/// The next entry of a session, not yet recorded in its report.
#[derive(Debug)]
pub enum Next {
    /// The entry is scored; record it with [`Session::record`].
    Ready(CaseOutcome),
    /// The entry waits for custom evaluators or judges; [`PendingCase::resolve`] it.
    Pending(PendingCase),
}

/// What one step of a session produced.
#[derive(Debug)]
pub enum Step<'s> {
    /// The entry is scored (it is also recorded in the session's report).
    Done(&'s CaseOutcome),
    /// The entry waits for custom evaluator results.
    Pending(PendingCase),
}

enum Entry {
    Case { index: usize, turn: Option<usize> },
    Invalid { index: usize, problem: String },
}

/// A dataset the session owns or borrows, or an M365 document it reads one item at a time.
enum Held<'d> {
    Owned(Box<Dataset>),
    Borrowed(&'d Dataset),
    Outlined(Box<Outlined<'d>>),
}

/// An M365 document's text, its outline, the item whose entries are being stepped over, and the
/// diagnostics of the items read so far.
struct Outlined<'d> {
    text: Cow<'d, str>,
    outline: DocumentOutline,
    next_item: usize,
    item: Option<Value>,
    diagnostics: Vec<Diagnostic>,
    responses: crate::dataset::ResponseTally,
}

/// Incremental scoring of one dataset: one report entry per [`Session::step`].
pub struct Session<'d> {
    dataset: Held<'d>,
    customs: Customs,
    /// The dataset's entries or, when it is read item by item, the current item's.
    entries: Vec<Entry>,
    position: usize,
    /// Entries of the items read before the current one (item by item only).
    entries_before: usize,
    shared_slots: Vec<Slot>,
    report: RunReport,
    /// Whether the report keeps every entry, or only its summary and the last entry.
    keep_items: bool,
    last: Option<CaseOutcome>,
    /// Whether judged evaluators ask for judge calls (else they are skipped: no judge configured).
    judging: bool,
}

impl Session<'static> {
    /// A session that owns its dataset. `customs` are the names of the custom evaluators the
    /// caller will run when asked (see [`Step::Pending`]).
    pub fn new(dataset: Dataset, customs: impl Into<Customs>) -> Self {
        Session::build(Held::Owned(Box::new(dataset)), customs.into())
    }
}

impl<'d> Session<'d> {
    /// A session over the text of an M365 document (owned or borrowed) and its outline
    /// ([`DocumentOutline::read`] of that text). Each item is parsed and validated when a step
    /// reaches it and dropped after its last entry, so the document is never held as a tree. The
    /// steps and the report are those of [`Session::new`] over the document read whole; only
    /// [`Session::total`] differs while items are unread, counting each as one entry until its
    /// turns are known.
    pub fn outlined(
        text: impl Into<Cow<'d, str>>,
        outline: DocumentOutline,
        customs: impl Into<Customs>,
    ) -> Self {
        let source = Outlined {
            text: text.into(),
            diagnostics: outline.diagnostics.clone(),
            outline,
            next_item: 0,
            item: None,
            responses: crate::dataset::ResponseTally::default(),
        };
        Session::build(Held::Outlined(Box::new(source)), customs.into())
    }

    /// A session over a borrowed dataset.
    pub fn borrowed(dataset: &'d Dataset, customs: impl Into<Customs>) -> Self {
        Session::build(Held::Borrowed(dataset), customs.into())
    }

    fn build(dataset: Held<'d>, customs: Customs) -> Self {
        let (entries, shared_slots, dialect) = match &dataset {
            Held::Owned(whole) => whole_plan(whole, &customs),
            Held::Borrowed(whole) => whole_plan(whole, &customs),
            Held::Outlined(source) => (
                Vec::new(),
                slots_for(
                    &resolve::default_plan(source.outline.default_evaluators()),
                    &customs,
                ),
                Dialect::M365,
            ),
        };
        Session {
            dataset,
            customs,
            entries,
            position: 0,
            entries_before: 0,
            shared_slots,
            report: RunReport::new(dialect),
            keep_items: true,
            last: None,
            judging: false,
        }
    }

    /// The same session with a judge configured: judged evaluators ask for judge calls
    /// ([`PendingCase::judge_calls`]) instead of being skipped.
    pub fn with_judge(mut self) -> Self {
        self.judging = true;
        self
    }

    /// Whether an evaluator of the run reads METEOR's WordNet table, so a host that loads it on
    /// demand must install it ([`crate::wordnet::install`]) before the first step. Only Foundry
    /// criteria name METEOR (M365 evaluator names are identifiers), and they are built with the
    /// session.
    pub fn needs_wordnet(&self) -> bool {
        self.shared_slots.iter().any(|slot| match slot {
            Slot::Ready { evaluator, .. } => evaluator.needs_wordnet(),
            Slot::Custom { .. } | Slot::Broken(_) => false,
        })
    }

    /// The dataset, when it is held whole.
    fn whole(&self) -> Option<&Dataset> {
        match &self.dataset {
            Held::Owned(dataset) => Some(dataset),
            Held::Borrowed(dataset) => Some(dataset),
            Held::Outlined(_) => None,
        }
    }

    /// For an M365 document, entry `(index, turn)`'s fields (`None` when they are not an object)
    /// and the document's default evaluators; `None` for Foundry rows.
    #[allow(
        clippy::type_complexity,
        reason = "two borrowed maps, named in the documentation"
    )]
    fn m365_entry(
        &self,
        index: usize,
        turn: Option<usize>,
    ) -> Option<(Option<&Map<String, Value>>, Option<&Map<String, Value>>)> {
        match (&self.dataset, self.whole()) {
            (Held::Outlined(source), _) => Some((
                source
                    .item
                    .as_ref()
                    .and_then(|item| item_case_fields(item, turn)),
                source.outline.default_evaluators(),
            )),
            (_, Some(Dataset::M365(document))) => Some((
                case_fields(document, index, turn),
                document.default_evaluators(),
            )),
            _ => None,
        }
    }

    /// Item by item: drops the stepped item and reads the next one that yields entries. `false`
    /// when none is left, or when the dataset is held whole. (A validated item always yields one:
    /// an empty `turns` is a schema error, an entry of its own.)
    fn read_next_item(&mut self) -> bool {
        let Held::Outlined(source) = &mut self.dataset else {
            return false;
        };
        while source.next_item < source.outline.item_count() {
            let index = source.next_item;
            source.next_item += 1;
            self.entries_before += self.entries.len();
            self.entries.clear();
            self.position = 0;
            let spare = source.item.take().unwrap_or_default();
            source.item = match source.outline.item_reusing(&source.text, index, spare) {
                Ok(mut item) => {
                    let problem = item.problem.as_deref();
                    push_item_entries(&mut self.entries, index, &item.value, problem);
                    source.diagnostics.append(&mut item.diagnostics);
                    source.responses.add_item(index, &item.value);
                    Some(item.value)
                }
                Err(diagnostic) => {
                    self.entries.push(Entry::Invalid {
                        index,
                        problem: diagnostic.message,
                    });
                    None
                }
            };
            if source.next_item == source.outline.item_count() {
                source.diagnostics.extend(source.responses.warning());
            }
            if !self.entries.is_empty() {
                return true;
            }
        }
        source.item = None;
        false
    }

    /// Number of report entries the dataset yields (items, turns or rows). Read item by item,
    /// unread items count as one entry each.
    pub fn total(&self) -> usize {
        let unread = match &self.dataset {
            Held::Outlined(source) => source.outline.item_count().saturating_sub(source.next_item),
            Held::Owned(_) | Held::Borrowed(_) => 0,
        };
        self.entries_before + self.entries.len() + unread
    }

    /// Read item by item: the warnings and item-level errors of the items read so far, as reading
    /// the document whole reports them. Empty for a dataset held whole, whose loading reported
    /// them.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match &self.dataset {
            Held::Outlined(source) => &source.diagnostics,
            Held::Owned(_) | Held::Borrowed(_) => &[],
        }
    }

    /// Number of entries already stepped over.
    pub fn done(&self) -> usize {
        self.entries_before + self.position
    }

    /// Scores the next entry and records it, or returns it pending; `None` when every entry has
    /// been stepped over.
    pub fn step(&mut self) -> Option<Step<'_>> {
        Some(match self.next_entry()? {
            Next::Ready(outcome) => Step::Done(self.record(outcome)),
            Next::Pending(pending) => Step::Pending(pending),
        })
    }

    /// Scores the next entry without recording it (a caller that completes entries out of order
    /// records them in order with [`Session::record`]); `None` when every entry has been stepped
    /// over.
    pub fn next_entry(&mut self) -> Option<Next> {
        if self.position >= self.entries.len() && !self.read_next_item() {
            return None;
        }
        let entry = self.entries.get(self.position)?;
        self.position += 1;
        let (index, turn) = match entry {
            Entry::Invalid { index, problem } => {
                return Some(Next::Ready(invalid_outcome(*index, problem)));
            }
            Entry::Case { index, turn } => (*index, *turn),
        };
        let judging = self.judging;
        let pending = match (self.m365_entry(index, turn), self.whole()) {
            (Some((fields, default_evaluators)), _) => {
                let Some(fields) = fields else {
                    return Some(Next::Ready(invalid_outcome(index, NOT_AN_OBJECT)));
                };
                m365_case(
                    &self.shared_slots,
                    default_evaluators,
                    &self.customs,
                    fields,
                    (index, turn),
                    judging,
                )
            }
            (None, Some(Dataset::Foundry(rows))) => {
                let Some(Ok(fields)) = rows.rows.get(index).map(|row| &row.row) else {
                    return None;
                };
                run_criteria(&self.shared_slots, &rows.config, fields, index, judging)
            }
            (None, Some(Dataset::CopilotStudio(set))) => {
                match copilot_studio_row(set, index, judging) {
                    Ok(pending) => pending,
                    Err(outcome) => return Some(Next::Ready(outcome)),
                }
            }
            (None, _) => return None,
        };
        Some(
            if pending.calls.is_empty() && pending.judge_calls.is_empty() {
                Next::Ready(pending.resolve(Vec::new(), Vec::new()))
            } else {
                Next::Pending(pending)
            },
        )
    }

    /// Completes a pending entry with the custom evaluators' returns, in the order of its calls,
    /// and records it. Missing returns count as errors.
    pub fn complete(&mut self, pending: PendingCase, returns: Vec<CustomReturn>) -> &CaseOutcome {
        let outcome = pending.resolve(returns, Vec::new());
        self.record(outcome)
    }

    /// The same session, keeping only the report's summary: for a caller that takes each entry
    /// as it is produced. The report's `items` stay empty.
    pub fn without_items(mut self) -> Self {
        self.keep_items = false;
        self
    }

    /// Records a scored entry in the report (entries must be recorded in dataset order).
    pub fn record(&mut self, outcome: CaseOutcome) -> &CaseOutcome {
        if self.keep_items {
            return self.report.push(outcome);
        }
        self.report.summary.add(&outcome);
        self.last.insert(outcome)
    }

    /// The report so far (complete once [`Session::step`] has returned `None`; without entries
    /// after [`Session::without_items`]).
    pub fn report(&self) -> &RunReport {
        &self.report
    }

    /// The report so far, to add run-level facts (the judge's figures).
    pub fn report_mut(&mut self) -> &mut RunReport {
        &mut self.report
    }

    /// Ends the session, returning its report (entries in dataset order).
    pub fn finish(self) -> RunReport {
        self.report
    }

    /// Ends the session, returning its report and, when the session owns the dataset whole
    /// ([`Session::new`]), the dataset.
    pub fn finish_with_dataset(self) -> (RunReport, Option<Dataset>) {
        let dataset = match self.dataset {
            Held::Owned(dataset) => Some(*dataset),
            Held::Borrowed(_) | Held::Outlined(_) => None,
        };
        (self.report, dataset)
    }
}

impl PendingCase {
    /// 0-based index of the item or row the entry belongs to.
    pub fn index(&self) -> usize {
        self.index
    }

    /// 0-based turn of a thread entry; `None` for single-turn items and rows.
    pub fn turn(&self) -> Option<usize> {
        self.turn
    }

    /// The scored entry, given the custom evaluators' returns in the order of [`Self::calls`]
    /// and the judged results in the order of [`Self::judge_calls`]. A missing return or result
    /// is an error.
    pub fn resolve(self, returns: Vec<CustomReturn>, judged: Vec<EvalResult>) -> CaseOutcome {
        let mut returns = returns.into_iter();
        let mut judged = judged.into_iter();
        let mut thresholds = self.thresholds.into_iter();
        let mut calls = self.calls.into_iter();
        let mut judge_calls = self.judge_calls.into_iter();
        let results: Vec<EvalResult> = self
            .results
            .into_iter()
            .map(|place| match place {
                Place::Done(result) => result,
                Place::Custom => {
                    let label = calls.next().map(|call| call.evaluator).unwrap_or_default();
                    let returned = returns.next().unwrap_or_else(|| {
                        Err(custom::CustomFailure::Threw(
                            "no result was supplied for this call".to_owned(),
                        ))
                    });
                    custom::validate(
                        &label,
                        thresholds.next().unwrap_or(custom::DEFAULT_THRESHOLD),
                        returned,
                    )
                }
                Place::Judge => {
                    let call = judge_calls.next();
                    judged.next().unwrap_or_else(|| {
                        EvalResult::error(
                            &call.map(|call| call.label).unwrap_or_default(),
                            ErrorCode::EvaluatorError,
                            "no judge result was supplied for this call",
                        )
                    })
                }
            })
            .collect();
        CaseOutcome {
            index: self.index,
            turn: self.turn,
            status: item_status(&results, self.has_response),
            results,
            problem: None,
            review: None,
        }
    }
}

/// A Copilot Studio row: its outcome when no method calls the judge, else the row pending its
/// judge calls.
fn copilot_studio_row(
    set: &crate::dataset::copilot_studio::CopilotStudioSet,
    index: usize,
    judging: bool,
) -> Result<PendingCase, CaseOutcome> {
    if judging {
        use crate::dataset::copilot_studio::methods::Prepared;
        let row = set.judge_row(index)?;
        let mut results = Vec::with_capacity(row.methods.len());
        let mut judge_calls = Vec::new();
        for method in row.methods {
            results.push(match method {
                Prepared::Done(result) => Place::Done(result),
                Prepared::Judge(call) => {
                    judge_calls.push(call);
                    Place::Judge
                }
            });
        }
        return Ok(PendingCase {
            index,
            turn: None,
            has_response: row.has_response,
            results,
            thresholds: Vec::new(),
            calls: Vec::new(),
            judge_calls,
        });
    }
    Err(set.score_row(index, judging))
}

/// Runs an M365 item or turn through the document's default plan (`shared_slots`) or, when it
/// names its own evaluators, through its own plan.
fn m365_case(
    shared_slots: &[Slot],
    default_evaluators: Option<&Map<String, Value>>,
    customs: &Customs,
    fields: &Map<String, Value>,
    (index, turn): (usize, Option<usize>),
    judging: bool,
) -> PendingCase {
    let inputs = m365_inputs(fields);
    let has_response = inputs
        .str("response")
        .is_some_and(|response| !response.trim().is_empty());
    let own_slots;
    let slots = if resolve::uses_default_plan(fields) {
        shared_slots
    } else {
        let plan = resolve::plan(&resolve::default_plan(default_evaluators), fields);
        own_slots = slots_for(&plan, customs);
        &own_slots
    };
    run_slots(
        slots,
        |_| Cow::Borrowed(&inputs),
        fields,
        Requirements {
            response_required: true,
            has_response,
            judging,
        },
        (index, turn),
    )
}

/// What an entry's evaluators may assume.
#[derive(Clone, Copy)]
struct Requirements {
    /// Whether evaluators that need a response get `emptyAgentResponse` without one (M365).
    response_required: bool,
    /// Whether the entry has a non-empty response.
    has_response: bool,
    /// Whether judged evaluators ask for judge calls.
    judging: bool,
}

/// How many inputs an M365 item or turn can name: its five fields and the aliases of two.
const M365_INPUT_NAMES: usize = 7;

const NOT_AN_OBJECT: &str = "the item or turn is not an object";

fn run_slots<'i, 'a: 'i>(
    slots: &[Slot],
    inputs_for: impl Fn(usize) -> Cow<'i, Inputs<'a>>,
    fields: &Map<String, Value>,
    requirements: Requirements,
    (index, turn): (usize, Option<usize>),
) -> PendingCase {
    let mut pending = PendingCase {
        index,
        turn,
        has_response: requirements.has_response,
        results: Vec::with_capacity(slots.len()),
        thresholds: Vec::new(),
        calls: Vec::new(),
        judge_calls: Vec::new(),
    };
    for (position, slot) in slots.iter().enumerate() {
        let place = match slot {
            Slot::Broken(result) => Place::Done(result.clone()),
            Slot::Ready { label, .. } | Slot::Custom { label, .. }
                if requirements.response_required
                    && !requirements.has_response
                    && slot.needs_response() =>
            {
                Place::Done(empty_response(label))
            }
            Slot::Ready { evaluator, .. } if requirements.judging => {
                let inputs = inputs_for(position);
                match evaluator.judge(&inputs) {
                    Some(Ok(call)) => {
                        pending.judge_calls.push(call);
                        Place::Judge
                    }
                    Some(Err(result)) => Place::Done(*result),
                    None => Place::Done(evaluator.evaluate(&inputs)),
                }
            }
            Slot::Ready { evaluator, .. } => Place::Done(evaluator.evaluate(&inputs_for(position))),
            Slot::Custom {
                label,
                options,
                threshold,
            } => {
                pending.calls.push(CustomCall {
                    evaluator: label.clone(),
                    options: options.clone(),
                    item: Value::Object(fields.clone()),
                });
                pending.thresholds.push(*threshold);
                Place::Custom
            }
        };
        pending.results.push(place);
    }
    pending
}

/// Runs a Foundry row through its criteria's slots, each criterion with its own mapped inputs.
fn run_criteria(
    slots: &[Slot],
    config: &FoundryConfig,
    fields: &Map<String, Value>,
    index: usize,
    judging: bool,
) -> PendingCase {
    run_slots(
        slots,
        |position| {
            Cow::Owned(
                config
                    .criteria
                    .get(position)
                    .map_or_else(Inputs::new, |criterion| criterion.inputs(fields)),
            )
        },
        fields,
        Requirements {
            response_required: false,
            has_response: true,
            judging,
        },
        (index, None),
    )
}

fn empty_response(label: &str) -> EvalResult {
    EvalResult::error(
        label,
        ErrorCode::EmptyAgentResponse,
        "the agent response is missing or empty; there is nothing to evaluate",
    )
}

/// The entries, shared slots and dialect of a dataset held whole.
fn whole_plan(dataset: &Dataset, customs: &Customs) -> (Vec<Entry>, Vec<Slot>, Dialect) {
    let (entries, slots) = match dataset {
        Dataset::M365(document) => (
            m365_entries(document),
            slots_for(
                &resolve::default_plan(document.default_evaluators()),
                customs,
            ),
        ),
        Dataset::Foundry(rows) => (
            rows.rows
                .iter()
                .enumerate()
                .map(|(index, row)| match &row.row {
                    Ok(_) => Entry::Case { index, turn: None },
                    Err(problem) => Entry::Invalid {
                        index,
                        problem: problem.describe(),
                    },
                })
                .collect(),
            criterion_slots(&rows.config, customs),
        ),
        Dataset::CopilotStudio(set) => (
            (0..set.rows.len())
                .map(|index| Entry::Case { index, turn: None })
                .collect(),
            Vec::new(),
        ),
    };
    (entries, slots, dataset.dialect())
}

fn slots_for(plan: &[Planned<'_>], customs: &Customs) -> Vec<Slot> {
    plan.iter()
        .map(|planned| Slot::new(planned.name, planned.name, &planned.options, customs))
        .collect()
}

fn criterion_slots(config: &FoundryConfig, customs: &Customs) -> Vec<Slot> {
    config
        .criteria
        .iter()
        .map(|criterion| {
            Slot::new(
                &criterion.evaluator_name,
                &criterion.name,
                &criterion.initialization_parameters,
                customs,
            )
        })
        .collect()
}

fn m365_entries(document: &EvalDocument) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (index, item) in document.items().iter().enumerate() {
        push_item_entries(&mut entries, index, item, document.item_problem(index));
    }
    entries
}

/// The entries of item `index`: its problem, or the item itself, or each of its turns.
fn push_item_entries(entries: &mut Vec<Entry>, index: usize, item: &Value, problem: Option<&str>) {
    if let Some(problem) = problem {
        entries.push(Entry::Invalid {
            index,
            problem: problem.to_owned(),
        });
        return;
    }
    let turns = item.as_object().and_then(|fields| fields.get("turns"));
    match turns.and_then(Value::as_array) {
        Some(turns) => entries.extend((0..turns.len()).map(|turn| Entry::Case {
            index,
            turn: Some(turn),
        })),
        None => entries.push(Entry::Case { index, turn: None }),
    }
}

fn case_fields(
    document: &EvalDocument,
    index: usize,
    turn: Option<usize>,
) -> Option<&Map<String, Value>> {
    item_case_fields(document.items().get(index)?, turn)
}

fn item_case_fields(item: &Value, turn: Option<usize>) -> Option<&Map<String, Value>> {
    match turn {
        None => item.as_object(),
        Some(turn) => item.get("turns")?.as_array()?.get(turn)?.as_object(),
    }
}

fn invalid_outcome(index: usize, problem: &str) -> CaseOutcome {
    CaseOutcome {
        index,
        turn: None,
        status: Some(ItemStatus::Error),
        results: Vec::new(),
        problem: Some(problem.to_owned()),
        review: None,
    }
}

/// The inputs an M365 item or turn gives evaluators, under their M365 and Foundry names.
fn m365_inputs(fields: &Map<String, Value>) -> Inputs<'_> {
    let mut inputs = Inputs::with_capacity(M365_INPUT_NAMES);
    for (field, value) in fields {
        let aliases: &[&str] = match field.as_str() {
            "prompt" => &["prompt", "query"],
            "response" => &["response"],
            "expected_response" => &["expected_response", "ground_truth"],
            "context" => &["context"],
            "diagnostics" => &["diagnostics"],
            _ => &[],
        };
        for alias in aliases {
            inputs.set(alias, value);
        }
    }
    inputs.set_fields(fields);
    inputs
}

/// Scores a whole dataset with the built-in evaluators only.
pub fn score(dataset: &Dataset) -> RunReport {
    score_with(dataset, Customs::default())
}

/// Scores a whole dataset without a judge, with the built-ins and `customs`' templates (which
/// are skipped: no judge). Custom functions get no return, so pass none.
pub fn score_with(dataset: &Dataset, customs: Customs) -> RunReport {
    let mut session = Session::borrowed(dataset, customs);
    while let Some(step) = session.step() {
        if let Step::Pending(pending) = step {
            session.complete(pending, Vec::new());
        }
    }
    session.finish()
}

/// Scores Foundry rows one at a time without holding them, so JSONL input can be streamed.
pub struct FoundryScorer<'c> {
    config: &'c FoundryConfig,
    slots: Vec<Slot>,
}

impl<'c> FoundryScorer<'c> {
    /// Builds every criterion's evaluator once.
    pub fn new(config: &'c FoundryConfig) -> Self {
        FoundryScorer {
            config,
            slots: criterion_slots(config, &Customs::default()),
        }
    }

    /// Scores row `index`. An unusable row gets status error and its problem; others are unaffected.
    pub fn score_row(&self, index: usize, row: &FoundryRow) -> CaseOutcome {
        let fields = match &row.row {
            Ok(fields) => fields,
            Err(problem) => return invalid_outcome(index, &problem.describe()),
        };
        run_criteria(&self.slots, self.config, fields, index, false).resolve(Vec::new(), Vec::new())
    }
}

/// Scores the items of an M365 document one at a time without holding the document, so large
/// documents can be streamed (see the `stream` module).
pub struct DocumentScorer {
    default_evaluators: Option<Map<String, Value>>,
    slots: Vec<Slot>,
}

impl DocumentScorer {
    /// Builds the default plan's evaluators once.
    pub fn new(default_evaluators: Option<&Map<String, Value>>) -> Self {
        let slots = slots_for(
            &resolve::default_plan(default_evaluators),
            &Customs::default(),
        );
        DocumentScorer {
            default_evaluators: default_evaluators.cloned(),
            slots,
        }
    }

    /// Scores item `index`: one outcome for a single-turn item, one per turn for a thread, or
    /// one error outcome when `problem` makes the item unusable.
    pub fn score_item(
        &self,
        index: usize,
        item: &Value,
        problem: Option<&str>,
    ) -> Vec<CaseOutcome> {
        let mut entries = Vec::new();
        push_item_entries(&mut entries, index, item, problem);
        entries
            .into_iter()
            .map(|entry| match entry {
                Entry::Invalid { index, problem } => invalid_outcome(index, &problem),
                Entry::Case { index, turn } => match item_case_fields(item, turn) {
                    Some(fields) => m365_case(
                        &self.slots,
                        self.default_evaluators.as_ref(),
                        &Customs::default(),
                        fields,
                        (index, turn),
                        false,
                    )
                    .resolve(Vec::new(), Vec::new()),
                    None => invalid_outcome(index, NOT_AN_OBJECT),
                },
            })
            .collect()
    }
}
