//! The Rubric judge (spec §2, after Foundry's rubric evaluators): its options — the dimensions
//! `{id, description, weight, always_applicable?}`, each checked, a bad one named by its JSON
//! pointer in the options — its prompt (`rubric/v2`: the rubric in the system message, the item's
//! text fenced as data as in every judged prompt), and the one call that rates every dimension.
//! Reading the reply and the weighted score are `reading`'s; this module decides nothing
//! from the reply.

use std::sync::Arc;

use super::level::Level;
use super::prompt::{fence, Section};
use super::shown::{shown_context, shown_text};
use super::{convert, early, render, NO_JUDGE_REASON};
use crate::evaluators::Evaluator;
use crate::inputs::Inputs;
use crate::json::Value;
pub mod reading;

use self::reading::{Dimension, Rubric};
use crate::judge::{
    ChatMessage, Extra, JudgeCall, JudgeRequest, ModelParams, PromptId, Reading, Scale,
};
use crate::options::{json_type_name, ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::decimal;

/// The prompt's name and version; any change to its text bumps the version.
pub const PROMPT: PromptId = PromptId {
    name: "rubric",
    version: 2,
};

/// The line of the system message listing the dimension ids as a JSON array (the local judge
/// server reads it to answer per dimension).
pub const DIMENSION_IDS: &str = "Dimension ids: ";

const DIMENSION_KEYS: [&str; 5] = [
    "id",
    "description",
    "weight",
    "always_applicable",
    "category",
];

/// A configured rubric.
struct RubricJudge {
    label: String,
    rubric: Arc<Rubric>,
    /// Each dimension's description, in the rubric's order.
    descriptions: Vec<String>,
    threshold: f64,
    model: Option<String>,
    /// `evaluation_level`; `None`: the inputs' shape decides.
    level: Option<Level>,
}

/// Builds a Rubric evaluator from its options: `dimensions` (required), `threshold` (0..1,
/// default 0.5), `evaluation_level`, and in Foundry `deployment_name` or `model`.
///
/// # Errors
/// An unknown option, a threshold off 0..1, a model that is not text, or bad dimensions (see
/// [`dimensions`]).
pub(super) fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&[
        "dimensions",
        "threshold",
        "deployment_name",
        "model",
        "evaluation_level",
    ])?;
    let (dimensions, descriptions) = dimensions(options.map().get("dimensions"))?;
    let threshold = options.number_in("threshold", 0.5, 0.0, 1.0)?;
    let model = match options.string("deployment_name")? {
        Some(model) => Some(model),
        None => options.string("model")?,
    };
    Ok(Box::new(RubricJudge {
        label: label.to_owned(),
        rubric: Arc::new(Rubric { dimensions }),
        descriptions,
        threshold,
        model: model.map(str::to_owned),
        level: Level::option(&options)?,
    }))
}

/// `value` as a rubric's dimensions, checked by the rules of the `dimensions` option and
/// written back trimmed: `[{id, description, weight, always_applicable, category?}]`.
///
/// # Errors
/// As for the option ([`dimensions`]).
pub(super) fn checked_dimensions(value: &Value) -> Result<Value, ConfigError> {
    let (dimensions, descriptions) = dimensions(Some(value))?;
    Ok(Value::Array(
        dimensions
            .iter()
            .zip(descriptions)
            .map(|(dimension, description)| {
                let mut entry = crate::json::Map::new();
                entry.insert("id".into(), Value::from(dimension.id.as_str()));
                entry.insert("description".into(), Value::from(description));
                entry.insert("weight".into(), reading::number(dimension.weight));
                entry.insert(
                    "always_applicable".into(),
                    Value::from(dimension.always_applicable),
                );
                if let Some(category) = &dimension.category {
                    entry.insert("category".into(), Value::from(category.as_str()));
                }
                Value::Object(entry)
            })
            .collect(),
    ))
}

/// The dimensions and their descriptions from the `dimensions` option.
///
/// # Errors
/// No dimensions, an entry that is not an object or has an unknown key, an id or description
/// that is not non-empty text, an id given twice, a weight that is not a number greater than 0,
/// or an `always_applicable` that is not a boolean; the message names the JSON pointer in the
/// options (`/dimensions/2/weight`).
fn dimensions(option: Option<&Value>) -> Result<(Vec<Dimension>, Vec<String>), ConfigError> {
    let bad = |pointer: String, what: String| {
        ConfigError::new(format!("option `dimensions` at {pointer}: {what}"))
    };
    let list =
        match option {
            Some(Value::Array(list)) if !list.is_empty() => list,
            Some(Value::Array(_)) => {
                return Err(bad(
                    "/dimensions".into(),
                    "the rubric needs at least one dimension".into(),
                ))
            }
            None => return Err(ConfigError::new(
                "option `dimensions` is required: a non-empty array of {id, description, weight, \
                 always_applicable?}",
            )),
            Some(other) => {
                return Err(bad(
                    "/dimensions".into(),
                    format!(
                    "expected an array of {{id, description, weight, always_applicable?}}, got {}",
                    json_type_name(other)
                ),
                ))
            }
        };
    let mut dimensions: Vec<Dimension> = Vec::with_capacity(list.len());
    let mut descriptions = Vec::with_capacity(list.len());
    for (index, entry) in list.iter().enumerate() {
        let at = |key: &str| format!("/dimensions/{index}{key}");
        let Some(entry) = entry.as_object() else {
            return Err(bad(
                at(""),
                format!(
                    "expected an object {{id, description, weight, always_applicable?}}, got {}",
                    json_type_name(entry)
                ),
            ));
        };
        if let Some(key) = entry
            .keys()
            .find(|key| !DIMENSION_KEYS.contains(&key.as_str()))
        {
            return Err(bad(
                at(&format!("/{}", pointer_token(key))),
                format!(
                    "unknown key `{key}`; expected one of: {}",
                    DIMENSION_KEYS.join(", ")
                ),
            ));
        }
        let text = |key: &str| match entry.get(key) {
            Some(Value::String(text)) if !text.trim().is_empty() => Ok(text.trim().to_owned()),
            Some(other) => Err(bad(
                at(&format!("/{key}")),
                format!("expected non-empty text, got {other}"),
            )),
            None => Err(bad(at(""), format!("`{key}` is required"))),
        };
        let id = text("id")?;
        if let Some(first) = dimensions.iter().position(|dimension| dimension.id == id) {
            return Err(bad(
                at("/id"),
                format!("the id '{id}' is already the id of /dimensions/{first}"),
            ));
        }
        let description = text("description")?;
        let weight = match entry.get("weight") {
            Some(value) => match value.as_f64() {
                Some(weight) if weight.is_finite() && weight > 0.0 => weight,
                _ => {
                    return Err(bad(
                        at("/weight"),
                        format!("the weight must be a number greater than 0, got {value}"),
                    ))
                }
            },
            None => return Err(bad(at(""), "`weight` is required".into())),
        };
        let always_applicable = match entry.get("always_applicable") {
            None => false,
            Some(Value::Bool(flag)) => *flag,
            Some(other) => {
                return Err(bad(
                    at("/always_applicable"),
                    format!("expected true or false, got {other}"),
                ))
            }
        };
        let category = match entry.get("category") {
            None => None,
            Some(_) => Some(text("category")?),
        };
        dimensions.push(Dimension {
            id,
            weight,
            always_applicable,
            scale: Scale::Likert,
            category,
        });
        descriptions.push(description);
    }
    Ok((dimensions, descriptions))
}

/// `key` as a JSON pointer token (RFC 6901: `~` as `~0`, `/` as `~1`).
fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl Evaluator for RubricJudge {
    fn evaluate(&self, _inputs: &Inputs<'_>) -> EvalResult {
        EvalResult::skipped(&self.label, NO_JUDGE_REASON)
    }

    fn judge(&self, inputs: &Inputs<'_>) -> Option<Result<JudgeCall, Box<EvalResult>>> {
        Some(self.call(inputs))
    }
}

impl RubricJudge {
    /// The call for one item or turn, or the result reached without one.
    fn call(&self, inputs: &Inputs<'_>) -> Result<JudgeCall, Box<EvalResult>> {
        let level = Level::of(self.level, inputs);
        let sections = self.sections(inputs)?;
        Ok(JudgeCall {
            label: self.label.clone(),
            request: JudgeRequest {
                operation: crate::judge::Operation::Chat,
                prompt: PROMPT,
                model: self.model.clone(),
                reasoning: false,
                messages: self.messages(&sections, level),
                params: self.params(),
            },
            reading: Reading {
                scale: Scale::Likert,
                threshold: self.threshold,
                extra: Extra::None,
                dimensions: Some(Arc::clone(&self.rubric) as _),
            },
            turns: Vec::new(),
            notes: vec![("evaluation_level", Value::from(level.as_str()))],
        })
    }

    /// What the judge is shown: the interaction at the evaluation level (see [`Level`]), and the
    /// expected response and the context when the item gives them.
    fn sections(&self, inputs: &Inputs<'_>) -> Result<Vec<Section>, Box<EvalResult>> {
        let labelled = |mut result: EvalResult| {
            result.evaluator.clone_from(&self.label);
            if result.error.is_none() {
                result.threshold = Some(self.threshold);
            }
            Box::new(result)
        };
        let messages = inputs.get("messages");
        let Some(response) = inputs.get("response").or(messages) else {
            return Err(labelled(EvalResult::error(
                "",
                ErrorCode::EmptyAgentResponse,
                "the agent response is missing",
            )));
        };
        early::not_intermediate(Some(response)).map_err(|early| labelled(*early))?;
        let mut sections = Level::of(self.level, inputs).sections(inputs, false);
        let expected = convert::ground_truth(inputs);
        if render::truthy(expected) {
            sections.push(Section::new("EXPECTED_RESPONSE", shown_text(expected)));
        }
        let context = inputs.get("context");
        if let Some(context) = context.filter(|_| render::truthy(context)) {
            sections.push(Section::new("CONTEXT", shown_context(context)));
        }
        Ok(sections)
    }

    /// Room for a reason per dimension.
    fn params(&self) -> ModelParams {
        let per_dimension = u32::try_from(self.rubric.dimensions.len()).unwrap_or(u32::MAX);
        ModelParams {
            temperature: 0.0,
            max_tokens: 400_u32
                .saturating_add(per_dimension.saturating_mul(120))
                .min(16_000),
            seed: None,
        }
    }

    fn messages(&self, sections: &[Section], level: Level) -> Vec<ChatMessage> {
        let fenced = fence(sections);
        let rubric: Vec<String> = self
            .rubric
            .dimensions
            .iter()
            .zip(&self.descriptions)
            .map(|(dimension, description)| {
                let always = if dimension.always_applicable {
                    ", always applicable"
                } else {
                    ""
                };
                let category = dimension
                    .category
                    .as_deref()
                    .map(|category| format!(" [{}]", one_line(category)))
                    .unwrap_or_default();
                format!(
                    "- {id}{category} (weight {weight}{always}): {description}",
                    id = dimension.id,
                    weight = decimal::plain(dimension.weight),
                    description = one_line(description),
                )
            })
            .collect();
        let ids = Value::Array(
            self.rubric
                .dimensions
                .iter()
                .map(|dimension| Value::from(dimension.id.as_str()))
                .collect(),
        );
        let system = format!(
            "You are an impartial evaluator of an AI agent's output.\n\n\
             Task: Rate the agent's response against each dimension of the rubric below. For each \
             dimension, first decide whether it applies to this item (a dimension marked always \
             applicable always does); then rate each applicable dimension on its own, judging \
             only what its description asks, with a one-sentence reason.\n{level}\n\n\
             Scores for each applicable dimension:\n\
             1: fails the dimension entirely\n\
             2: mostly fails it\n\
             3: partly meets it\n\
             4: mostly meets it\n\
             5: fully meets it\n\n\
             Rubric (id [category], weight, description):\n{rubric}\n\n\
             {DIMENSION_IDS}{ids}\n\n\
             {instruction}\n\n\
             Reply with one JSON object and nothing else, rating every dimension exactly once, in \
             the rubric's order:\n\
             {{\"reason\": \"<one or two sentences on the overall verdict>\", \"dimensions\": \
             [{{\"id\": \"<dimension id>\", \"applicable\": true, \"score\": <integer from 1 to 5>, \
             \"reason\": \"<one sentence>\"}}], \"status\": \"completed\"}}\n\
             For a dimension that does not apply, write \"applicable\": false and \"score\": null.\n\
             If the data this task needs is empty, reply {{\"reason\": \"<what is missing>\", \
             \"dimensions\": [], \"status\": \"skipped\"}}.\n\n\
             Prompt: agenteval {label}",
            rubric = rubric.join("\n"),
            level = level.instruction(),
            instruction = fenced.instruction,
            label = PROMPT.label(),
        );
        fenced.messages(system)
    }
}

/// `text` on one line (a description's line breaks would break the rubric's list).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
