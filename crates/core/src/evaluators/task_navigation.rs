//! `builtin.task_navigation_efficiency`: azure-ai-evaluation's `_TaskNavigationEfficiencyEvaluator`.
//!
//! Compares the agent's tool calls (from `response`/`actions`) with the expected steps
//! (`ground_truth`/`expected_actions`) under one of three matching modes; precision, recall and F1
//! over the step multisets go in the details. String inputs are JSON-decoded like the reference,
//! validation messages are the reference's, and parameter values are compared as the reference
//! renders them (Python `str()` / `json.dumps(sort_keys=True)`).
//!
//! In JSON, the reference's Python tuple form `(names, {tool: {param: value}})` is written as a
//! two-element array whose first element is an array, or as `{"tool_names": …, "parameters": …}`.

mod extract;
mod pyjson;
mod validate;

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::python;
use pyjson::PyValue;

/// Catalog entry for `builtin.task_navigation_efficiency`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.task_navigation_efficiency",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "ground_truth", "actions", "expected_actions"],
    needs_response: false,
    m365_reports_score: true,
    options: &[OptionSpec {
        name: "matching_mode",
        kind: "string: exact_match | in_order_match | any_order_match",
        default: "\"exact_match\"",
        description:
            "exact sequence, expected steps in order (extra steps allowed), or in any order",
    }],
    pass_rule: "actions match expected_actions under matching_mode",
    build,
};

const MODES: &str = "['exact_match', 'in_order_match', 'any_order_match']";

/// How agent steps are matched against the expected steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MatchingMode {
    Exact,
    InOrder,
    AnyOrder,
}

struct TaskNavigation {
    label: String,
    mode: MatchingMode,
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["matching_mode"])?;
    let mode = match options.map().get("matching_mode") {
        None => MatchingMode::Exact,
        Some(Value::String(mode)) => match mode.as_str() {
            "exact_match" => MatchingMode::Exact,
            "in_order_match" => MatchingMode::InOrder,
            "any_order_match" => MatchingMode::AnyOrder,
            other => {
                return Err(ConfigError::new(format!(
                    "matching_mode must be one of {MODES}, got '{other}'"
                )))
            }
        },
        Some(other) => {
            return Err(ConfigError::new(format!(
                "matching_mode must be a string with one of {MODES} or \
                 _TaskNavigationEfficiencyMatchingMode enum, got {}",
                crate::text::python::class_name(other)
            )))
        }
    };
    Ok(Box::new(TaskNavigation {
        label: label.to_owned(),
        mode,
    }))
}

/// One step: a tool name and, in parameter mode, its sorted `(key, rendered value)` pairs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Step {
    name: String,
    params: Vec<(String, String)>,
}

/// The expected steps after validation.
#[derive(Debug)]
struct Expected<'a> {
    names: Vec<String>,
    /// `Some` in the tuple form: parameters by (unstripped) tool name.
    params: Option<Vec<(Cow<'a, str>, PyValue<'a>)>>,
}

/// Python `str.strip()`.
fn strip(text: &str) -> String {
    text.trim_matches(python::is_space).to_owned()
}

/// `_normalize_param_value`: strings as they are, lists and dicts as sorted JSON, else `str()`.
fn render_param(value: &PyValue<'_>) -> String {
    match value {
        PyValue::Str(text) => text.to_string(),
        PyValue::List(_) | PyValue::Dict(_) => value.dumps_sorted(),
        other => other.scalar_str().unwrap_or_default(),
    }
}

fn param_pairs(params: &[(Cow<'_, str>, PyValue<'_>)]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = params
        .iter()
        .map(|(key, value)| (key.to_string(), render_param(value)))
        .collect();
    pairs.sort();
    pairs
}

fn steps(calls: Vec<extract::ToolCall<'_>>, expected: &Expected<'_>) -> (Vec<Step>, Vec<Step>) {
    match &expected.params {
        None => (
            calls
                .into_iter()
                .map(|call| Step {
                    name: call.name,
                    params: Vec::new(),
                })
                .collect(),
            expected
                .names
                .iter()
                .map(|name| Step {
                    name: name.clone(),
                    params: Vec::new(),
                })
                .collect(),
        ),
        Some(by_tool) => {
            let agent = calls
                .into_iter()
                .map(|call| Step {
                    params: param_pairs(&call.params),
                    name: call.name,
                })
                .collect();
            let wanted = expected
                .names
                .iter()
                .map(|name| {
                    let params = by_tool
                        .iter()
                        .find(|(tool, _)| tool == name)
                        .and_then(|(_, params)| match params {
                            PyValue::Dict(entries) => Some(param_pairs(entries)),
                            _ => None,
                        })
                        .unwrap_or_default();
                    Step {
                        name: name.clone(),
                        params,
                    }
                })
                .collect();
            (agent, wanted)
        }
    }
}

fn counts(steps: &[Step]) -> HashMap<&Step, usize> {
    let mut counts = HashMap::new();
    for step in steps {
        *counts.entry(step).or_insert(0) += 1;
    }
    counts
}

/// Precision, recall and F1 over the step multisets (all 0.0 without agent steps).
fn precision_recall_f1(agent: &[Step], expected: &[Step]) -> [f64; 3] {
    if agent.is_empty() {
        return [0.0; 3];
    }
    let agent_counts = counts(agent);
    let expected_counts = counts(expected);
    let overlap = |step: &Step, count: usize, other: &HashMap<&Step, usize>| {
        count.min(other.get(step).copied().unwrap_or(0))
    };
    let true_positives: usize = agent_counts
        .iter()
        .map(|(step, count)| overlap(step, *count, &expected_counts))
        .sum();
    let false_positives: usize = agent_counts
        .iter()
        .map(|(step, count)| count - overlap(step, *count, &expected_counts))
        .sum();
    let false_negatives: usize = expected_counts
        .iter()
        .map(|(step, count)| count - overlap(step, *count, &agent_counts))
        .sum();
    let ratio = |part: usize, extra: usize| {
        if part + extra > 0 {
            part as f64 / (part + extra) as f64
        } else {
            0.0
        }
    };
    let precision = ratio(true_positives, false_positives);
    let recall = ratio(true_positives, false_negatives);
    let f1 = if precision + recall > 0.0 {
        (2.0 * precision * recall) / (precision + recall)
    } else {
        0.0
    };
    [precision, recall, f1]
}

fn matches(mode: MatchingMode, agent: &[Step], expected: &[Step]) -> bool {
    match mode {
        MatchingMode::Exact => agent == expected,
        MatchingMode::InOrder => {
            let mut wanted = expected.iter().peekable();
            for step in agent {
                if wanted.peek() == Some(&step) {
                    wanted.next();
                }
            }
            wanted.peek().is_none()
        }
        MatchingMode::AnyOrder => {
            let agent_counts = counts(agent);
            counts(expected)
                .iter()
                .all(|(step, count)| agent_counts.get(step).copied().unwrap_or(0) >= *count)
        }
    }
}

impl TaskNavigation {
    fn error(&self, message: impl Into<String>) -> EvalResult {
        EvalResult::error(&self.label, ErrorCode::EvaluatorError, message)
    }

    fn score(&self, inputs: &Inputs<'_>) -> Result<EvalResult, String> {
        let response = inputs.get("response").or_else(|| inputs.get("actions"));
        let ground_truth = inputs
            .get("ground_truth")
            .or_else(|| inputs.get("expected_actions"));
        let response = validate::decode(response)?;
        let ground_truth = validate::decode_ground_truth(ground_truth)?;
        let messages = validate::response(response.as_ref())?;
        let expected = validate::ground_truth(ground_truth.as_ref())?;
        let calls = extract::tool_calls(messages)?;
        let (agent_steps, expected_steps) = steps(calls, &expected);
        let [precision, recall, f1] = precision_recall_f1(&agent_steps, &expected_steps);
        let passed = matches(self.mode, &agent_steps, &expected_steps);
        let mut details = Map::new();
        details.insert("precision_score".to_owned(), Value::from(precision));
        details.insert("recall_score".to_owned(), Value::from(recall));
        details.insert("f1_score".to_owned(), Value::from(f1));
        let mut result =
            EvalResult::scored(&self.label, passed, if passed { 1.0 } else { 0.0 }, 1.0);
        result.details = details;
        Ok(result)
    }
}

impl Evaluator for TaskNavigation {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        self.score(inputs)
            .unwrap_or_else(|message| self.error(message))
    }
}

#[cfg(test)]
mod tests;
