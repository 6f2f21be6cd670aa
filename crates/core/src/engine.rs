//! The scoring engine: instantiates the resolved evaluators, feeds each item or turn its inputs,
//! and derives statuses. Evaluators are built once per distinct configuration where possible.

use serde_json::{Map, Value};

use crate::dataset::foundry::{FoundryConfig, FoundryRow};
use crate::dataset::m365::Case;
use crate::dataset::{Dataset, EvalDocument, FoundryDataset};
use crate::evaluators::{self, Evaluator, EvaluatorSpec};
use crate::inputs::Inputs;
use crate::options::Options;
use crate::outcome::{ErrorCode, EvalResult};
use crate::report::{CaseOutcome, Dialect, RunReport};
use crate::resolve::{self, Planned};
use crate::status::{item_status, ItemStatus};

/// An evaluator ready to run, or the error result every item gets because it could not be built.
enum Slot {
    Ready {
        spec: &'static EvaluatorSpec,
        label: String,
        evaluator: Box<dyn Evaluator>,
    },
    Broken(EvalResult),
}

impl Slot {
    fn new(name: &str, label: &str, options: &Map<String, Value>) -> Self {
        let Some(spec) = evaluators::find(name) else {
            let hint = evaluators::closest_name(name)
                .map(|closest| format!("; did you mean '{closest}'?"))
                .unwrap_or_default();
            return Slot::Broken(EvalResult::error(
                label,
                ErrorCode::EvaluatorLoadError,
                format!("Unknown evaluator '{name}': it is not built in and no custom evaluator of that name was supplied{hint}"),
            ));
        };
        match (spec.build)(label, Options::new(options)) {
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

    fn run(&self, inputs: &Inputs<'_>, response_required: bool, has_response: bool) -> EvalResult {
        match self {
            Slot::Broken(result) => result.clone(),
            Slot::Ready { spec, label, .. }
                if response_required && spec.needs_response && !has_response =>
            {
                EvalResult::error(
                    label,
                    ErrorCode::EmptyAgentResponse,
                    "the agent response is missing or empty; there is nothing to evaluate",
                )
            }
            Slot::Ready { evaluator, .. } => evaluator.evaluate(inputs),
        }
    }
}

/// Scores a whole dataset.
pub fn score(dataset: &Dataset) -> RunReport {
    match dataset {
        Dataset::M365(document) => score_m365(document),
        Dataset::Foundry(dataset) => score_foundry(dataset),
    }
}

/// Scores every item and turn of an M365 eval document.
pub fn score_m365(document: &EvalDocument) -> RunReport {
    let mut report = RunReport::new(Dialect::M365);
    let default_plan = resolve::default_plan(document.default_evaluators());
    let default_slots: Vec<Slot> = default_plan
        .iter()
        .map(|planned| Slot::new(planned.name, planned.name, &planned.options))
        .collect();
    let mut reported_invalid = Vec::new();
    for case in document.cases() {
        if let Some(problem) = document.item_problem(case.index) {
            if !reported_invalid.contains(&case.index) {
                reported_invalid.push(case.index);
                report.push(invalid_outcome(case.index, None, problem));
            }
            continue;
        }
        let outcome = if resolve::uses_default_plan(case.fields) {
            score_case(&case, &default_slots)
        } else {
            let slots = slots_for(&resolve::plan(&default_plan, case.fields));
            score_case(&case, &slots)
        };
        report.push(outcome);
    }
    for (index, problem) in &document.item_problems {
        if !reported_invalid.contains(index) {
            report.push(invalid_outcome(*index, None, problem));
        }
    }
    report
        .items
        .sort_by_key(|outcome| (outcome.index, outcome.turn));
    report
}

fn slots_for(plan: &[Planned<'_>]) -> Vec<Slot> {
    plan.iter()
        .map(|planned| Slot::new(planned.name, planned.name, &planned.options))
        .collect()
}

fn invalid_outcome(index: usize, turn: Option<usize>, problem: &str) -> CaseOutcome {
    CaseOutcome {
        index,
        turn,
        status: Some(ItemStatus::Error),
        results: Vec::new(),
        problem: Some(problem.to_owned()),
    }
}

/// The inputs an M365 item or turn gives evaluators, under their M365 and Foundry names.
fn m365_inputs<'a>(fields: &'a Map<String, Value>) -> Inputs<'a> {
    let mut inputs = Inputs::new();
    for (field, aliases) in [
        ("prompt", &["prompt", "query"][..]),
        ("response", &["response"][..]),
        (
            "expected_response",
            &["expected_response", "ground_truth"][..],
        ),
        ("context", &["context"][..]),
        ("diagnostics", &["diagnostics"][..]),
    ] {
        if let Some(value) = fields.get(field) {
            for alias in aliases {
                inputs.set(alias, value);
            }
        }
    }
    inputs
}

fn score_case(case: &Case<'_>, slots: &[Slot]) -> CaseOutcome {
    let inputs = m365_inputs(case.fields);
    let has_response = inputs
        .str("response")
        .is_some_and(|response| !response.trim().is_empty());
    let results: Vec<EvalResult> = slots
        .iter()
        .map(|slot| slot.run(&inputs, true, has_response))
        .collect();
    CaseOutcome {
        index: case.index,
        turn: case.turn,
        status: item_status(&results, has_response),
        results,
        problem: None,
    }
}

/// Scores Foundry rows one at a time, so JSONL input can be streamed.
pub struct FoundryScorer<'c> {
    config: &'c FoundryConfig,
    slots: Vec<Slot>,
}

impl<'c> FoundryScorer<'c> {
    /// Builds every criterion's evaluator once.
    pub fn new(config: &'c FoundryConfig) -> Self {
        let slots = config
            .criteria
            .iter()
            .map(|criterion| {
                Slot::new(
                    &criterion.evaluator_name,
                    &criterion.name,
                    &criterion.initialization_parameters,
                )
            })
            .collect();
        FoundryScorer { config, slots }
    }

    /// Scores row `index`. An unusable row gets status error and its problem; others are unaffected.
    pub fn score_row(&self, index: usize, row: &FoundryRow) -> CaseOutcome {
        let fields = match &row.row {
            Ok(fields) => fields,
            Err(problem) => return invalid_outcome(index, None, &problem.describe()),
        };
        let results: Vec<EvalResult> = self
            .config
            .criteria
            .iter()
            .zip(&self.slots)
            .map(|(criterion, slot)| slot.run(&criterion.inputs(fields), false, true))
            .collect();
        CaseOutcome {
            index,
            turn: None,
            status: item_status(&results, true),
            results,
            problem: None,
        }
    }
}

/// Scores every row of a Foundry dataset.
pub fn score_foundry(dataset: &FoundryDataset) -> RunReport {
    let scorer = FoundryScorer::new(&dataset.config);
    let mut report = RunReport::new(Dialect::Foundry);
    for (index, row) in dataset.rows.iter().enumerate() {
        report.push(scorer.score_row(index, row));
    }
    report
}
