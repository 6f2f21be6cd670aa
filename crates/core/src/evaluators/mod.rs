//! The evaluator catalog: every built-in evaluator's name, kind, inputs, options and pass rule, and
//! the [`Evaluator`] trait that a configured evaluator implements.
//!
//! One module per evaluator. This module only lists them; it holds no scoring logic.

use std::sync::OnceLock;

use crate::inputs::Inputs;
use crate::judge::JudgeCall;
use crate::options::{ConfigError, Options};
use crate::outcome::EvalResult;
use crate::text::python;

pub mod bleu;
pub mod citations;
pub mod document_retrieval;
pub mod exact_match;
pub mod f1_score;
pub mod gleu;
pub mod graders;
pub mod judged;
pub mod keyword_match;
pub mod meteor;
mod ngrams;
pub mod partial_match;
pub mod retrieval_query;
pub mod retrieval_result;
pub mod rouge;
pub mod task_navigation;
pub mod tool_calls;

/// A configured evaluator, ready to score items.
pub trait Evaluator: Send + Sync {
    /// Scores one item or turn. Never panics; bad input becomes an `error` result. A judged
    /// evaluator, without a judge, returns `skipped`.
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult;

    /// With a judge configured: the judge call for one item or turn, or the result reached
    /// without one (bad input, nothing to judge). `None` for evaluators that need no judge.
    fn judge(&self, _inputs: &Inputs<'_>) -> Option<Result<JudgeCall, Box<EvalResult>>> {
        None
    }

    /// Whether it reads METEOR's WordNet table ([`crate::wordnet`]), which a host may load only
    /// for the runs that need it.
    fn needs_wordnet(&self) -> bool {
        false
    }
}

/// Validates an evaluator's options and returns it configured; the first argument is the label
/// its results carry.
pub type BuildFn = fn(&str, Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError>;

/// Whether an evaluator runs locally or needs an LLM judge.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EvaluatorKind {
    /// Computed locally from the item.
    Deterministic,
    /// Needs a judge endpoint.
    Judge,
}

/// One option an evaluator accepts.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct OptionSpec {
    /// Option key as written in datasets.
    pub name: &'static str,
    /// Expected JSON type and range, e.g. `number 0..1`.
    pub kind: &'static str,
    /// Default value, rendered as JSON (`0.5`, `false`, `"oai_unicode"`), or `required`.
    pub default: &'static str,
    /// What the option does.
    pub description: &'static str,
}

/// Everything the catalog knows about a built-in evaluator.
#[derive(Clone, Copy, serde::Serialize)]
pub struct EvaluatorSpec {
    /// Name as written in datasets (`PartialMatch`, `builtin.f1_score`).
    pub name: &'static str,
    /// Local or judge.
    pub kind: EvaluatorKind,
    /// Input names the evaluator reads (see [`Inputs`]).
    pub inputs: &'static [&'static str],
    /// Whether an empty or missing `response` is an `emptyAgentResponse` error (M365 dialect).
    pub needs_response: bool,
    /// Whether the M365 score object carries `score` and `threshold` (false for ExactMatch, whose
    /// shape is `{match, result, reason}`, and Citations, whose shape is `{count, result, threshold, …}`).
    pub m365_reports_score: bool,
    /// Accepted options.
    pub options: &'static [OptionSpec],
    /// The pass rule in words, for documentation and `list`.
    pub pass_rule: &'static str,
    /// Validates `options` and returns the configured evaluator; `label` is the name results carry.
    #[serde(skip)]
    pub build: BuildFn,
}

impl std::fmt::Debug for EvaluatorSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvaluatorSpec")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// The Foundry criterion types that are OpenAI-style deterministic graders: such a criterion's
/// own fields are its definition (`graders::build`).
pub const GRADER_TYPES: [&str; 2] = ["string_check", "text_similarity"];

/// The `threshold` option of the n-gram scores (BLEU, GLEU, METEOR).
pub(crate) const SCORE_THRESHOLD: OptionSpec = OptionSpec {
    name: "threshold",
    kind: "number",
    default: "0.5",
    description: "pass when the score is at least this value",
};

/// The Foundry criterion types that are prompt-based graders, judged by a model: such a
/// criterion's own fields are its definition (`judged::template`).
pub const MODEL_GRADER_TYPES: [&str; 2] = ["score_model", "label_model"];

/// Every built-in evaluator, deterministic first.
pub fn catalog() -> impl Iterator<Item = &'static EvaluatorSpec> {
    DETERMINISTIC.iter().chain(judged::SPECS.iter())
}

static DETERMINISTIC: [EvaluatorSpec; 15] = [
    exact_match::SPEC,
    partial_match::SPEC,
    citations::SPEC,
    retrieval_query::SPEC,
    retrieval_result::SPEC,
    tool_calls::SELECTION_SPEC,
    tool_calls::EXECUTION_SPEC,
    keyword_match::SPEC,
    task_navigation::SPEC,
    f1_score::SPEC,
    rouge::SPEC,
    document_retrieval::SPEC,
    bleu::SPEC,
    gleu::SPEC,
    meteor::SPEC,
];

/// The Rubric judge's name, in M365 documents and as a Foundry `evaluator_name`.
pub const RUBRIC: &str = "Rubric";

/// The built-in evaluator called exactly `name` (names are case-sensitive).
pub fn find(name: &str) -> Option<&'static EvaluatorSpec> {
    catalog().find(|spec| spec.name == name)
}

/// The built-in name closest to `name`, for "did you mean" hints.
pub fn closest_name(name: &str) -> Option<&'static str> {
    catalog()
        .map(|spec| {
            (
                strsim::jaro_winkler(&python::lower(name), &python::lower(spec.name)),
                spec.name,
            )
        })
        .filter(|(similarity, _)| *similarity >= 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// The M365 `scores` key of an evaluator: built-ins are camelCased (`PartialMatch` →
/// `partialMatch`); custom evaluators keep their name.
pub fn score_key(name: &str) -> &str {
    catalog()
        .position(|spec| spec.name == name)
        .and_then(|index| built_in_keys().get(index))
        .map_or(name, String::as_str)
}

/// The evaluator whose M365 `scores` key is `key`, the inverse of [`score_key`]: the built-in
/// whose camelCased name (or whose name) it is (`partialMatch` → `PartialMatch`), else `key`.
pub fn from_score_key(key: &str) -> &str {
    catalog()
        .zip(built_in_keys())
        .find(|(spec, built_in_key)| *built_in_key == key || spec.name == key)
        .map_or(key, |(spec, _)| spec.name)
}

/// The `scores` key of each built-in evaluator, in catalog order.
fn built_in_keys() -> &'static [String] {
    static BUILT_IN_KEYS: OnceLock<Vec<String>> = OnceLock::new();
    BUILT_IN_KEYS.get_or_init(|| catalog().map(|spec| lower_first(spec.name)).collect())
}

/// `name` with its first character lower-cased when it is an ASCII letter.
fn lower_first(name: &str) -> String {
    let mut key = name.to_owned();
    if let Some(first) = key.get_mut(..1) {
        first.make_ascii_lowercase();
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_keys_lead_back_to_their_evaluators() {
        for spec in catalog() {
            assert_eq!(from_score_key(score_key(spec.name)), spec.name);
        }
        assert_eq!(from_score_key("partialMatch"), "PartialMatch");
        assert_eq!(from_score_key("PartialMatch"), "PartialMatch");
        assert_eq!(from_score_key("professional_tone"), "professional_tone");
    }
}
