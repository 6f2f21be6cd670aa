//! `builtin.meteor_score`: azure-ai-evaluation's `MeteorScoreEvaluator`: NLTK's METEOR of
//! `response` against `ground_truth`, both tokenised by [`nltk_tokenize`] (exact, Porter-stem and
//! WordNet-synonym alignment, F-mean with weight `alpha`, fragmentation penalty
//! `gamma · (chunks / matches) ^ beta`), pass when `score >= threshold`. The alignment lives in
//! [`align`]; WordNet 3.0 comes from the table the host installed ([`crate::wordnet::install`]).
//!
//! Deliberate differences from the reference: `alpha`, `beta` and `gamma` must be numbers when the
//! evaluator is built (the reference only fails on a bad one once it multiplies with it, and
//! scores 0.0 without ever using it when nothing matches; it also takes booleans as 1 and 0), as
//! must `threshold`; a score that is not finite is an error rather than a verdict. Without an
//! installed WordNet table every item is an `evaluatorLoadError` error, never a score computed
//! without synonyms.

mod align;

use align::{Param, Weights};

use super::f1_score::{reference_threshold, text_pair};
use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{json_type_name, ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::nltk::nltk_tokenize;
use crate::text::pynum::PyNum;
use crate::wordnet;

/// Catalog entry for `builtin.meteor_score`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.meteor_score",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "ground_truth"],
    needs_response: false,
    m365_reports_score: true,
    options: &[
        OptionSpec {
            name: "alpha",
            kind: "number",
            default: "0.9",
            description: "weight of precision against recall in the F-mean",
        },
        OptionSpec {
            name: "beta",
            kind: "number",
            default: "3.0",
            description: "shape of the fragmentation penalty",
        },
        OptionSpec {
            name: "gamma",
            kind: "number",
            default: "0.5",
            description: "weight of the fragmentation penalty",
        },
        super::SCORE_THRESHOLD,
    ],
    pass_rule: "METEOR score >= threshold (0.5)",
    build,
};

const MISSING_INPUTS: &str =
    "MeteorScoreEvaluator: Either 'conversation' or individual inputs must be provided.";

/// The message of an item scored before the host installed WordNet.
pub const NO_WORDNET: &str = "builtin.meteor_score needs WordNet 3.0 for its synonym stage, and \
    this runtime has not loaded it (the host installs it with agenteval_core::wordnet::install)";

struct Meteor {
    label: String,
    weights: Weights,
    threshold: f64,
}

fn weight(options: Options<'_>, key: &str, default: f64) -> Result<Param, ConfigError> {
    match options.map().get(key) {
        None => Ok(Param::Float(default)),
        Some(value) => match PyNum::from_json(value) {
            Some(PyNum::Int(int)) => Ok(Param::Int(int)),
            Some(PyNum::Float(float)) => Ok(Param::Float(float)),
            None => Err(ConfigError::new(format!(
                "option `{key}` must be a number, got {}",
                json_type_name(value)
            ))),
        },
    }
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["alpha", "beta", "gamma", "threshold"])?;
    let weights = Weights {
        alpha: weight(options, "alpha", 0.9)?,
        beta: weight(options, "beta", 3.0)?,
        gamma: weight(options, "gamma", 0.5)?,
    };
    let threshold = reference_threshold(options, "threshold", 0.5)?;
    Ok(Box::new(Meteor {
        label: label.to_owned(),
        weights,
        threshold,
    }))
}

impl Evaluator for Meteor {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let (response, ground_truth) = match text_pair(inputs, MISSING_INPUTS) {
            Ok(pair) => pair,
            Err(message) => {
                return EvalResult::error(&self.label, ErrorCode::EvaluatorError, message)
            }
        };
        match score(self.weights, ground_truth, response) {
            Ok(score) => {
                EvalResult::scored(&self.label, score >= self.threshold, score, self.threshold)
            }
            Err((code, message)) => EvalResult::error(&self.label, code, message),
        }
    }

    fn needs_wordnet(&self) -> bool {
        true
    }
}

/// The default weights: `alpha` 0.9, `beta` 3.0, `gamma` 0.5.
const DEFAULT_WEIGHTS: Weights = Weights {
    alpha: Param::Float(0.9),
    beta: Param::Float(3.0),
    gamma: Param::Float(0.5),
};

/// METEOR of `hypothesis` against `reference` with the default weights, as
/// `builtin.meteor_score` computes it by default.
///
/// # Errors
/// As [`score`]'s.
pub(crate) fn default_score(reference: &str, hypothesis: &str) -> Result<f64, (ErrorCode, String)> {
    score(DEFAULT_WEIGHTS, reference, hypothesis)
}

/// METEOR of `hypothesis` against `reference`, both tokenised by [`nltk_tokenize`], as
/// `builtin.meteor_score` computes it with `weights`.
///
/// # Errors
/// The code and message of a text pair that cannot be scored: no WordNet table installed
/// (`evaluatorLoadError`), or a score that is not a finite number.
fn score(weights: Weights, reference: &str, hypothesis: &str) -> Result<f64, (ErrorCode, String)> {
    let Some(table) = wordnet::installed() else {
        return Err((ErrorCode::EvaluatorLoadError, NO_WORDNET.to_owned()));
    };
    let synonyms = |word: &str| table.synonyms(word);
    let reference = nltk_tokenize(reference);
    let hypothesis = nltk_tokenize(hypothesis);
    match align::meteor(&reference, &hypothesis, weights, &synonyms) {
        Ok(score) if score.is_finite() => Ok(score),
        Ok(score) => Err((
            ErrorCode::EvaluatorError,
            format!("the METEOR score is not a finite number ({score}) with these options"),
        )),
        Err(align::Overflow) => Err((
            ErrorCode::EvaluatorError,
            "OverflowError: (34, 'Numerical result out of range')".to_owned(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::json::{Map, Value};

    fn built(options: Value) -> Result<Box<dyn Evaluator>, ConfigError> {
        let map: Map<String, Value> = crate::json::from_value(options).unwrap_or_default();
        build("meteor", Options::new(&map))
    }

    // The library's unit tests never install a table (the integration tests do, in their own
    // processes), so here METEOR must refuse to score.
    #[test]
    fn without_wordnet_every_item_is_a_load_error() {
        let evaluator = built(json!({})).unwrap();
        let (response, ground_truth) = (json!("the cat"), json!("the cat"));
        let inputs = Inputs::new()
            .with("response", &response)
            .with("ground_truth", &ground_truth);
        let result = evaluator.evaluate(&inputs);
        let error = result.error.unwrap();
        assert_eq!(error.code, ErrorCode::EvaluatorLoadError);
        assert_eq!(error.message, NO_WORDNET);
        assert!(result.score.is_none());
    }

    #[test]
    fn missing_inputs_are_reported_before_the_table() {
        let evaluator = built(json!({})).unwrap();
        let response = json!("x");
        let result = evaluator.evaluate(&Inputs::new().with("response", &response));
        assert_eq!(
            result.error.map(|e| e.message).as_deref(),
            Some(MISSING_INPUTS)
        );
    }

    #[test]
    fn weights_must_be_numbers() {
        for (options, message) in [
            (
                json!({"alpha": "0.9"}),
                "option `alpha` must be a number, got a string",
            ),
            (
                json!({"beta": true}),
                "option `beta` must be a number, got a boolean",
            ),
            (
                json!({"gamma": null}),
                "option `gamma` must be a number, got null",
            ),
        ] {
            assert_eq!(
                built(options).err().map(|e| e.message).as_deref(),
                Some(message)
            );
        }
        assert!(built(json!({"delta": 1})).is_err());
        assert!(built(json!({"alpha": 1, "beta": 2.5, "gamma": 0, "threshold": 1})).is_ok());
    }
}
