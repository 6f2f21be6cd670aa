//! Foundry's OpenAI-style deterministic graders, given as testing criteria whose own fields are
//! the definition (`{"type": "string_check", "name", "input", "reference", "operation"}`,
//! `{"type": "text_similarity", …, "evaluation_metric", "pass_threshold"}`): the options, the
//! `input` and `reference` templates rendered for one row, and the result. What each operation
//! and metric computes is in [`string_check`] and [`text_similarity`].
//!
//! azure-ai-evaluation computes nothing for these (its `AzureOpenAI*Grader` classes hand the
//! definition to the OpenAI Evals API), so there is no reference to reproduce: the semantics are
//! OpenAI's public documentation, with every choice where it is vague written down in
//! `docs/evaluators.md`.

pub mod fuzzy;
pub mod string_check;
#[cfg(test)]
mod tests;
pub mod text_similarity;

use super::{Evaluator, EvaluatorKind, EvaluatorSpec};
use crate::inputs::Inputs;
use crate::json::Value;
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::placeholder::{pieces, Piece, Source};

/// The keys every grader criterion may carry besides its own options.
const COMMON_KEYS: [&str; 4] = ["type", "name", "input", "reference"];

/// A grader's entry and the grader configured from its criterion, or why it is refused.
pub type Built = (
    &'static EvaluatorSpec,
    Result<Box<dyn Evaluator>, ConfigError>,
);

/// The configured grader for a criterion of type `kind` (one of [`super::GRADER_TYPES`]) and the
/// entry its results are reported under; `None` for any other type.
pub fn build(kind: &str, label: &str, options: Options<'_>) -> Option<Built> {
    match kind {
        "string_check" => Some((&string_check::SPEC, string_check::build(label, options))),
        "text_similarity" => Some((
            &text_similarity::SPEC,
            text_similarity::build(label, options),
        )),
        _ => None,
    }
}

/// The entry a grader's results are reported under: deterministic, reading the row through its
/// templates.
const fn spec(name: &'static str, pass_rule: &'static str, build: super::BuildFn) -> EvaluatorSpec {
    EvaluatorSpec {
        name,
        kind: EvaluatorKind::Deterministic,
        inputs: &["response"],
        needs_response: false,
        m365_reports_score: true,
        options: &[],
        pass_rule,
        build,
    }
}

/// A checked `input` or `reference` template: literal text and placeholders.
#[derive(Debug, Clone, PartialEq)]
struct TextTemplate {
    key: &'static str,
    pieces: Vec<Piece>,
}

impl TextTemplate {
    /// The template under `key`, which must be a string (it may be empty).
    fn read(options: &Options<'_>, key: &'static str) -> Result<Self, ConfigError> {
        let Some(text) = options.string(key)? else {
            return Err(ConfigError::new(format!(
                "option `{key}` is required: a text template such as \"{{{{sample.output_text}}}}\" \
                 or \"{{{{item.FIELD}}}}\""
            )));
        };
        Ok(TextTemplate {
            key,
            pieces: pieces(text, &format!("/{key}"))?,
        })
    }

    /// The template rendered for one row: each placeholder replaced by its data (a string as
    /// is, any other JSON value as compact JSON).
    ///
    /// # Errors
    /// The result to report when a placeholder's data is missing or `null`, naming it.
    fn render(&self, label: &str, inputs: &Inputs<'_>) -> Result<String, Box<EvalResult>> {
        let mut text = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(literal) => text.push_str(literal),
                Piece::Slot { written, source } => match value(source, inputs) {
                    Some(Value::String(data)) => text.push_str(data),
                    Some(other) => text.push_str(&other.to_string()),
                    None => return Err(Box::new(self.missing(label, written, source))),
                },
            }
        }
        Ok(text)
    }

    fn missing(&self, label: &str, written: &str, source: &Source) -> EvalResult {
        let key = self.key;
        if *source == Source::Response {
            return EvalResult::error(
                label,
                ErrorCode::EmptyAgentResponse,
                format!("the row has no response, which `{key}` uses ({{{{{written}}}}})"),
            );
        }
        EvalResult::error(
            label,
            ErrorCode::EvaluatorConfigurationError,
            format!("the row has no value for {{{{{written}}}}}, which `{key}` uses"),
        )
    }
}

/// The data of one placeholder: the row's response, or the row's field it names.
fn value<'a>(source: &Source, inputs: &Inputs<'a>) -> Option<&'a Value> {
    let field = |names: &[&str]| names.iter().find_map(|name| inputs.field(&[name]));
    match source {
        Source::Response => inputs.get("response"),
        Source::Query => field(&["prompt", "query"]),
        Source::Expected => field(&["expected_response", "ground_truth"]),
        Source::Context => field(&["context"]),
        Source::Field(path) => {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            inputs.field(&path)
        }
    }
}

/// The rendered `input` and `reference` of one row.
///
/// # Errors
/// The result to report when either names data the row lacks.
fn texts(
    label: &str,
    input: &TextTemplate,
    reference: &TextTemplate,
    inputs: &Inputs<'_>,
) -> Result<(String, String), Box<EvalResult>> {
    Ok((
        input.render(label, inputs)?,
        reference.render(label, inputs)?,
    ))
}

/// The one value of `key` among `choices`.
///
/// # Errors
/// When it is absent, not a string, or not one of them, naming the key and the choices.
fn choice<'a>(options: &Options<'a>, key: &str, choices: &[&str]) -> Result<&'a str, ConfigError> {
    match options.string(key)? {
        Some(chosen) if choices.contains(&chosen) => Ok(chosen),
        given => Err(ConfigError::new(format!(
            "option `{key}` must be one of {}, got {}",
            choices
                .iter()
                .map(|choice| format!("\"{choice}\""))
                .collect::<Vec<_>>()
                .join(", "),
            given.map_or_else(|| "nothing".to_owned(), |text| format!("\"{text}\""))
        ))),
    }
}
