//! The `ToolCallSelection` and `ToolCallExecution` evaluators (M365, schema 1.11): were the expected
//! tools selected, and did each expected call execute successfully (HTTP 2xx)?
//!
//! Evidence is `diagnostics.tool_calls` (read in [`evidence`]). Tool identities
//! `(plugin_name, function_name)` are compared exactly. `null` evidence, or incomplete entries
//! (a `null` name or status) that could change the verdict, give a `toolCallEvidenceIndeterminate`
//! error instead of a verdict. See the reference notes §4.6.

mod evidence;
mod matching;

use crate::json::{Map, Value};

use self::evidence::{Evidence, Observed, ObservedExecution};
use self::matching::can_fill;
use super::retrieval_query::evidence::Malformed;
use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{json_type_name, ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};

const CALLS_OPTION: OptionSpec = OptionSpec {
    name: "calls",
    kind: "array of {id?: string, tool: {plugin_name, function_name}}",
    default: "required",
    description: "the expected tool calls; `id` is a label used only in reasons",
};

/// Catalog entry for `ToolCallSelection`.
pub const SELECTION_SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "ToolCallSelection",
    kind: EvaluatorKind::Deterministic,
    inputs: &["diagnostics"],
    needs_response: false,
    m365_reports_score: true,
    options: &[
        CALLS_OPTION,
        OptionSpec {
            name: "allow_additional_calls",
            kind: "boolean",
            default: "true",
            description: "whether tools other than the expected ones may also be selected",
        },
    ],
    pass_rule: "every expected tool was selected (and no others unless allow_additional_calls)",
    build: build_selection,
};

/// Catalog entry for `ToolCallExecution`.
pub const EXECUTION_SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "ToolCallExecution",
    kind: EvaluatorKind::Deterministic,
    inputs: &["diagnostics"],
    needs_response: false,
    m365_reports_score: true,
    options: &[CALLS_OPTION],
    pass_rule: "every expected call executed successfully (2xx)",
    build: build_execution,
};

/// One expected tool (de-duplicated), with how many times it was listed.
#[derive(Debug, Clone)]
struct ExpectedTool {
    plugin: String,
    function: String,
    /// The first `id` given for this tool, if any.
    id: Option<String>,
    times: usize,
}

impl ExpectedTool {
    fn display(&self) -> String {
        match &self.id {
            Some(id) => format!("'{id}' ({}/{})", self.plugin, self.function),
            None => format!("{}/{}", self.plugin, self.function),
        }
    }

    fn is(&self, plugin: &str, function: &str) -> bool {
        self.plugin == plugin && self.function == function
    }
}

fn build_selection(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["calls", "allow_additional_calls"])?;
    Ok(Box::new(Selection {
        label: label.to_owned(),
        expected: expected_tools(options)?,
        allow_additional: options.bool("allow_additional_calls", true)?,
    }))
}

fn build_execution(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["calls"])?;
    Ok(Box::new(Execution {
        label: label.to_owned(),
        expected: expected_tools(options)?,
    }))
}

fn expected_tools(options: Options<'_>) -> Result<Vec<ExpectedTool>, ConfigError> {
    let calls = options
        .get("calls")
        .and_then(Value::as_array)
        .filter(|calls| !calls.is_empty())
        .ok_or_else(|| {
            ConfigError::new(
                "option `calls` is required and must be a non-empty array of {\"tool\": {\"plugin_name\", \"function_name\"}} objects",
            )
        })?;
    let mut tools: Vec<ExpectedTool> = Vec::new();
    for (index, call) in calls.iter().enumerate() {
        let (id, plugin, function) = expected_call(index, call)?;
        match tools.iter_mut().find(|tool| tool.is(plugin, function)) {
            Some(tool) => {
                tool.times += 1;
                if tool.id.is_none() {
                    tool.id = id.map(str::to_owned);
                }
            }
            None => tools.push(ExpectedTool {
                plugin: plugin.to_owned(),
                function: function.to_owned(),
                id: id.map(str::to_owned),
                times: 1,
            }),
        }
    }
    Ok(tools)
}

/// `(id, plugin_name, function_name)` of `calls[index]`.
fn expected_call(index: usize, call: &Value) -> Result<(Option<&str>, &str, &str), ConfigError> {
    let at = format!("option `calls[{index}]`");
    let call = object_with_keys(call, &at, &["id", "tool"])?;
    let id = match call.get("id") {
        None => None,
        Some(Value::String(id)) if !id.is_empty() => Some(id.as_str()),
        Some(_) => {
            return Err(ConfigError::new(format!(
                "{at}: `id` must be a non-empty string"
            )))
        }
    };
    let tool_at = format!("{at}.tool");
    let tool = call
        .get("tool")
        .ok_or_else(|| ConfigError::new(format!("{at}: `tool` is required")))?;
    let tool = object_with_keys(tool, &tool_at, &["plugin_name", "function_name"])?;
    let name = |key: &str| match tool.get(key) {
        Some(Value::String(name)) if !name.is_empty() => Ok(name.as_str()),
        _ => Err(ConfigError::new(format!(
            "{tool_at}: `{key}` is required and must be a non-empty string"
        ))),
    };
    Ok((id, name("plugin_name")?, name("function_name")?))
}

fn object_with_keys<'a>(
    value: &'a Value,
    at: &str,
    allowed: &[&str],
) -> Result<&'a Map<String, Value>, ConfigError> {
    let object = value.as_object().ok_or_else(|| {
        ConfigError::new(format!(
            "{at} must be an object, got {}",
            json_type_name(value)
        ))
    })?;
    match object.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(ConfigError::new(format!(
            "{at}: unknown key `{key}`; expected one of: {}",
            allowed.join(", ")
        ))),
        None => Ok(object),
    }
}

/// A verdict, or why none is possible.
enum Outcome {
    Verdict { passed: bool, reason: String },
    Indeterminate(String),
}

fn finish(label: &str, outcome: Result<Outcome, Malformed>) -> EvalResult {
    match outcome {
        Ok(Outcome::Verdict { passed, reason }) => {
            EvalResult::scored(label, passed, if passed { 1.0 } else { 0.0 }, 1.0)
                .with_reason(reason)
        }
        Ok(Outcome::Indeterminate(why)) => {
            EvalResult::error(label, ErrorCode::ToolCallEvidenceIndeterminate, why)
        }
        Err(malformed) => malformed.into_result(label),
    }
}

fn list(items: &[String]) -> String {
    items.join(", ")
}

struct Selection {
    label: String,
    expected: Vec<ExpectedTool>,
    allow_additional: bool,
}

impl Evaluator for Selection {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let outcome =
            evidence::selected_functions(inputs.get("diagnostics")).map(
                |evidence| match evidence {
                    Evidence::Unavailable(why) => Outcome::Indeterminate(why),
                    Evidence::Observed(selected) => self.judge(&selected),
                },
            );
        finish(&self.label, outcome)
    }
}

impl Selection {
    fn judge(&self, selected: &[Observed<'_>]) -> Outcome {
        let complete: Vec<(&str, &str)> = selected.iter().filter_map(Observed::complete).collect();
        let incomplete: Vec<&Observed<'_>> = selected
            .iter()
            .filter(|entry| entry.complete().is_none())
            .collect();
        let missing: Vec<&ExpectedTool> = self
            .expected
            .iter()
            .filter(|tool| !complete.iter().any(|(p, f)| tool.is(p, f)))
            .collect();
        let mut extra: Vec<String> = Vec::new();
        for (plugin, function) in &complete {
            let name = format!("{plugin}/{function}");
            if !self.expected.iter().any(|tool| tool.is(plugin, function)) && !extra.contains(&name)
            {
                extra.push(name);
            }
        }
        let missing_names: Vec<String> = missing.iter().map(|tool| tool.display()).collect();
        if !self.allow_additional && !extra.is_empty() {
            let mut reason = format!(
                "Unexpected tools selected: {} (allow_additional_calls is false)",
                list(&extra)
            );
            if !missing.is_empty() {
                reason.push_str(&format!(
                    "; expected tools not selected: {}",
                    list(&missing_names)
                ));
            }
            return Outcome::Verdict {
                passed: false,
                reason,
            };
        }
        let unsure = incomplete.len();
        if missing.is_empty() {
            if !self.allow_additional && unsure > 0 {
                return Outcome::Indeterminate(format!(
                    "{unsure} selected function(s) lack a plugin or function name, so whether an unexpected tool was selected cannot be determined (allow_additional_calls is false)"
                ));
            }
            let mut reason = format!(
                "All expected tools were selected: {}",
                list(
                    &self
                        .expected
                        .iter()
                        .map(ExpectedTool::display)
                        .collect::<Vec<_>>()
                )
            );
            if !extra.is_empty() {
                reason.push_str(&format!("; also selected: {}", list(&extra)));
            }
            return Outcome::Verdict {
                passed: true,
                reason,
            };
        }
        if can_fill(&missing, &incomplete, |tool, entry| {
            entry.could_be(&tool.plugin, &tool.function)
        }) {
            return Outcome::Indeterminate(format!(
                "{unsure} selected function(s) lack a plugin or function name and may be the expected {}",
                list(&missing_names)
            ));
        }
        Outcome::Verdict {
            passed: false,
            reason: format!("Expected tools not selected: {}", list(&missing_names)),
        }
    }
}

struct Execution {
    label: String,
    expected: Vec<ExpectedTool>,
}

impl Evaluator for Execution {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let outcome =
            evidence::executions(inputs.get("diagnostics")).map(|evidence| match evidence {
                Evidence::Unavailable(why) => Outcome::Indeterminate(why),
                Evidence::Observed(executions) => self.judge(&executions),
            });
        finish(&self.label, outcome)
    }
}

fn is_success(status: i64) -> bool {
    (200..300).contains(&status)
}

impl Execution {
    fn judge(&self, executions: &[ObservedExecution<'_>]) -> Outcome {
        let mut shortfalls: Vec<String> = Vec::new();
        let mut open_slots: Vec<&ExpectedTool> = Vec::new();
        for tool in &self.expected {
            let mut succeeded = 0;
            let mut failed_statuses: Vec<String> = Vec::new();
            for execution in executions {
                let Some((plugin, function)) = execution.tool.complete() else {
                    continue;
                };
                if !tool.is(plugin, function) {
                    continue;
                }
                match execution.status {
                    Some(status) if is_success(status) => succeeded += 1,
                    Some(status) => failed_statuses.push(status.to_string()),
                    None => {}
                }
            }
            if succeeded >= tool.times {
                continue;
            }
            open_slots.extend(std::iter::repeat_n(tool, tool.times - succeeded));
            let mut shortfall = format!(
                "{} ({succeeded} of {} succeeded",
                tool.display(),
                tool.times
            );
            if !failed_statuses.is_empty() {
                shortfall.push_str(&format!(
                    "; failed with status {}",
                    failed_statuses.join(", ")
                ));
            }
            shortfall.push(')');
            shortfalls.push(shortfall);
        }
        if shortfalls.is_empty() {
            return Outcome::Verdict {
                passed: true,
                reason: format!(
                    "All expected calls executed successfully: {}",
                    list(&self.expected.iter().map(times_display).collect::<Vec<_>>())
                ),
            };
        }
        let unsure: Vec<&ObservedExecution<'_>> = executions
            .iter()
            .filter(|execution| {
                let may_succeed = !matches!(execution.status, Some(status) if !is_success(status));
                may_succeed && (execution.status.is_none() || execution.tool.complete().is_none())
            })
            .collect();
        if can_fill(&open_slots, &unsure, |tool, execution| {
            execution.tool.could_be(&tool.plugin, &tool.function)
        }) {
            return Outcome::Indeterminate(format!(
                "{} execution(s) lack a tool name or status and may be the missing successful executions of {}",
                unsure.len(),
                list(&shortfalls)
            ));
        }
        Outcome::Verdict {
            passed: false,
            reason: format!("Missing successful executions: {}", list(&shortfalls)),
        }
    }
}

fn times_display(tool: &ExpectedTool) -> String {
    if tool.times == 1 {
        tool.display()
    } else {
        format!("{} ×{}", tool.display(), tool.times)
    }
}

#[cfg(test)]
mod tests;
