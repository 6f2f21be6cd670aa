//! `builtin.task_navigation_efficiency`: azure-ai-evaluation's `_TaskNavigationEfficiencyEvaluator`.
//!
//! Compares the agent's tool calls (from `response`/`actions`, or `messages`, the whole
//! interaction, as the Foundry evaluator page maps it) with the expected steps
//! (`ground_truth`/`expected_actions`) under one of three matching modes; precision, recall and F1
//! over the step multisets go in the details. String inputs are JSON-decoded like the reference,
//! validation messages are the reference's, and parameter values are compared as the reference
//! renders them (Python `str()` / `json.dumps(sort_keys=True)`).
//!
//! In JSON, the reference's Python tuple form `(names, {tool: {param: value}})` is written as a
//! two-element array whose first element is an array, or as `{"tool_names": …, "parameters": …}`.

mod extract;
mod validate;

use std::borrow::Cow;

use crate::json::Value;

use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::multiset;
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::sorting;
use crate::text::python;
use agenteval_python::view::{Kind, Py, PyDict};

/// Catalog entry for `builtin.task_navigation_efficiency`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.task_navigation_efficiency",
    kind: EvaluatorKind::Deterministic,
    inputs: &[
        "response",
        "ground_truth",
        "actions",
        "messages",
        "expected_actions",
    ],
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
struct Step<'a> {
    name: Cow<'a, str>,
    params: Vec<(String, String)>,
}

/// The expected steps after validation.
#[derive(Debug)]
struct Expected<'a> {
    names: Vec<&'a str>,
    /// `Some` in the tuple form: parameters by (unstripped) tool name.
    params: Option<PyDict<'a>>,
}

/// Python `str.strip()`.
fn strip(text: &str) -> &str {
    text.trim_matches(python::is_space)
}

/// Python `str.strip()` of a borrowed or rendered name, still borrowed when it was.
fn strip_name(name: Cow<'_, str>) -> Cow<'_, str> {
    match name {
        Cow::Borrowed(text) => Cow::Borrowed(strip(text)),
        Cow::Owned(text) => Cow::Owned(strip(&text).to_owned()),
    }
}

/// `_normalize_param_value`: strings as they are, lists and dicts as sorted JSON, else `str()`.
fn render_param(value: Py<'_>) -> Result<String, String> {
    Ok(match value.kind() {
        Kind::Str(text) => text.to_owned(),
        Kind::List(_) | Kind::Dict(_) => value.dumps_sorted().map_err(validate::decode_error)?,
        _ => value.scalar_str().unwrap_or_default().into_owned(),
    })
}

fn param_pairs(params: Option<PyDict<'_>>) -> Result<Vec<(String, String)>, String> {
    let Some(params) = params else {
        return Ok(Vec::new());
    };
    let mut pairs = params
        .iter()
        .map(|(key, value)| Ok((key.to_owned(), render_param(value)?)))
        .collect::<Result<Vec<_>, String>>()?;
    sorting::sort_stable_by(&mut pairs, Ord::cmp);
    Ok(pairs)
}

/// The agent's and the expected steps.
///
/// # Errors
/// A parameter value nested too deeply to render.
fn steps<'a>(
    calls: Vec<extract::ToolCall<'a>>,
    expected: &Expected<'a>,
) -> Result<(Vec<Step<'a>>, Vec<Step<'a>>), String> {
    let Some(by_tool) = expected.params else {
        let named = |name: Cow<'a, str>| Step {
            name,
            params: Vec::new(),
        };
        return Ok((
            calls.into_iter().map(|call| named(call.name)).collect(),
            expected
                .names
                .iter()
                .map(|name| named(Cow::Borrowed(*name)))
                .collect(),
        ));
    };
    let agent = calls
        .into_iter()
        .map(|call| {
            Ok(Step {
                params: param_pairs(call.arguments.dict())?,
                name: call.name,
            })
        })
        .collect::<Result<_, String>>()?;
    let wanted = expected
        .names
        .iter()
        .map(|name| {
            Ok(Step {
                params: param_pairs(by_tool.get(name).and_then(Py::as_dict))?,
                name: Cow::Borrowed(*name),
            })
        })
        .collect::<Result<_, String>>()?;
    Ok((agent, wanted))
}

/// Precision, recall and F1 from the step counts and their multiset intersection (all 0.0
/// without agent steps).
fn precision_recall_f1(agent: usize, expected: usize, true_positives: usize) -> [f64; 3] {
    if agent == 0 {
        return [0.0; 3];
    }
    let false_positives = agent.saturating_sub(true_positives);
    let false_negatives = expected.saturating_sub(true_positives);
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

/// Whether the steps match in order; `None` for [`MatchingMode::AnyOrder`], which the
/// multiset intersection decides.
fn matches_in_order(mode: MatchingMode, agent: &[Step], expected: &[Step]) -> Option<bool> {
    match mode {
        MatchingMode::Exact => Some(agent == expected),
        MatchingMode::InOrder => {
            let mut wanted = expected.iter().peekable();
            for step in agent {
                if wanted.peek() == Some(&step) {
                    wanted.next();
                }
            }
            Some(wanted.peek().is_none())
        }
        MatchingMode::AnyOrder => None,
    }
}

impl TaskNavigation {
    fn error(&self, message: impl Into<String>) -> EvalResult {
        EvalResult::error(&self.label, ErrorCode::EvaluatorError, message)
    }

    fn score(&self, inputs: &Inputs<'_>) -> Result<EvalResult, String> {
        let response = inputs
            .get("response")
            .or_else(|| inputs.get("actions"))
            .or_else(|| inputs.get("messages"));
        let ground_truth = inputs
            .get("ground_truth")
            .or_else(|| inputs.get("expected_actions"));
        let mut decoded_response = validate::Decoded::default();
        let mut decoded_ground_truth = validate::Decoded::default();
        let response = decoded_response.response(response)?;
        let ground_truth = decoded_ground_truth.ground_truth(ground_truth)?;
        let messages = validate::response(response)?;
        let expected = validate::ground_truth(ground_truth)?;
        let calls = extract::tool_calls(messages)?;
        let (agent_steps, expected_steps) = steps(calls, &expected)?;
        let in_order = matches_in_order(self.mode, &agent_steps, &expected_steps);
        let (agent_count, expected_count) = (agent_steps.len(), expected_steps.len());
        let true_positives = multiset::intersection_len(&agent_steps, expected_steps.iter());
        let [precision, recall, f1] =
            precision_recall_f1(agent_count, expected_count, true_positives);
        let passed = in_order.unwrap_or(true_positives == expected_count);
        Ok(
            EvalResult::scored(&self.label, passed, if passed { 1.0 } else { 0.0 }, 1.0)
                .with_detail("precision_score", precision)
                .with_detail("recall_score", recall)
                .with_detail("f1_score", f1),
        )
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
