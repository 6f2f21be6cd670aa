//! `builtin.gleu_score`: azure-ai-evaluation's `GleuScoreEvaluator`, NLTK 3.10.4's
//! `sentence_gleu([reference], hypothesis)` over the reference's `nltk_tokenize` of
//! `ground_truth` and `response` ([`crate::text::nltk`]); pass when `gleu >= threshold`.
//!
//! All 1- to 4-grams of each side are counted together; the score is the size of their multiset
//! intersection over the larger of the two totals, 0.0 when both sides are empty.

use super::f1_score::{reference_threshold, text_pair};
use super::{ngrams, Evaluator, EvaluatorKind, EvaluatorSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::nltk::nltk_tokenize;

/// Catalog entry for `builtin.gleu_score`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.gleu_score",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "ground_truth"],
    needs_response: false,
    m365_reports_score: true,
    options: &[super::SCORE_THRESHOLD],
    pass_rule: "sentence GLEU (NLTK, 1- to 4-grams) >= threshold (0.5)",
    build,
};

const MISSING_INPUTS: &str =
    "GleuScoreEvaluator: Either 'conversation' or individual inputs must be provided.";

struct Gleu {
    label: String,
    threshold: f64,
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["threshold"])?;
    let threshold = reference_threshold(options, "threshold", 0.5)?;
    Ok(Box::new(Gleu {
        label: label.to_owned(),
        threshold,
    }))
}

impl Evaluator for Gleu {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        match text_pair(inputs, MISSING_INPUTS) {
            Ok((response, ground_truth)) => {
                let reference = nltk_tokenize(ground_truth);
                let hypothesis = nltk_tokenize(response);
                let score = sentence_gleu(&reference, &hypothesis);
                EvalResult::scored(&self.label, score >= self.threshold, score, self.threshold)
            }
            Err(message) => EvalResult::error(&self.label, ErrorCode::EvaluatorError, message),
        }
    }
}

/// NLTK's `sentence_gleu([reference], hypothesis)` (`min_len` 1, `max_len` 4).
pub fn sentence_gleu<T: AsRef<str>>(reference: &[T], hypothesis: &[T]) -> f64 {
    let (reference, hypothesis) = ngrams::token_ids(reference, hypothesis);
    let mut counts = ngrams::Counts::default();
    let (hyp_total, ref_total) =
        ngrams::count(&reference, &hypothesis, 1..=ngrams::MAX_ORDER, &mut counts);
    let all = hyp_total.max(ref_total);
    if all == 0 {
        0.0
    } else {
        ngrams::clipped(&counts) as f64 / all as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<&str> {
        text.split(' ').filter(|w| !w.is_empty()).collect()
    }

    #[test]
    fn counts_all_orders_together() {
        let sentence = words("a b c d e");
        assert_eq!(sentence_gleu(&sentence, &sentence), 1.0);
        assert_eq!(sentence_gleu(&words("a b"), &words("a c")), 1.0 / 3.0);
        assert_eq!(sentence_gleu(&Vec::<&str>::new(), &Vec::<&str>::new()), 0.0);
        assert_eq!(sentence_gleu(&words("x"), &Vec::<&str>::new()), 0.0);
    }

    #[test]
    fn snapshot_result() {
        use crate::json;
        use crate::json::{Map, Value};
        let options: Map<String, Value> = Map::new();
        let evaluator = build("gleu", Options::new(&options)).unwrap();
        let response = json!("naïve café résumé, s'il vous plaît.");
        let ground_truth = json!("naïve cafe résumé, please.");
        let inputs = Inputs::new()
            .with("response", &response)
            .with("ground_truth", &ground_truth);
        insta::assert_json_snapshot!(evaluator.evaluate(&inputs));
    }
}
