//! `builtin.bleu_score`: azure-ai-evaluation's `BleuScoreEvaluator`, NLTK 3.10.4's
//! `sentence_bleu([reference], hypothesis, smoothing_function=SmoothingFunction().method4)` over
//! the reference's `nltk_tokenize` of `ground_truth` and `response` ([`crate::text::nltk`]);
//! pass when `bleu >= threshold`.
//!
//! Uniform weights 0.25 for 1- to 4-grams, clipped counts, brevity penalty against the one
//! reference, method 4 smoothing (a zero precision of a hypothesis longer than one token becomes
//! `1 / (2^c · 5 / ln(len)) / denominator`, c counting the smoothed orders) and `fsum` of the
//! weighted logarithms, in the reference's order of operations. Where no unigram matches, the
//! reference returns the integer `0`; the score here is `0.0` (the same number).

use super::f1_score::{reference_threshold, text_pair};
use super::{ngrams, Evaluator, EvaluatorKind, EvaluatorSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::nltk::nltk_tokenize;

/// Catalog entry for `builtin.bleu_score`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.bleu_score",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "ground_truth"],
    needs_response: false,
    m365_reports_score: true,
    options: &[super::SCORE_THRESHOLD],
    pass_rule: "sentence BLEU (NLTK, smoothing method 4) >= threshold (0.5)",
    build,
};

const MISSING_INPUTS: &str =
    "BleuScoreEvaluator: Either 'conversation' or individual inputs must be provided.";

struct Bleu {
    label: String,
    threshold: f64,
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["threshold"])?;
    let threshold = reference_threshold(options, "threshold", 0.5)?;
    Ok(Box::new(Bleu {
        label: label.to_owned(),
        threshold,
    }))
}

impl Evaluator for Bleu {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        match text_pair(inputs, MISSING_INPUTS) {
            Ok((response, ground_truth)) => {
                let reference = nltk_tokenize(ground_truth);
                let hypothesis = nltk_tokenize(response);
                let score = sentence_bleu(&reference, &hypothesis);
                EvalResult::scored(&self.label, score >= self.threshold, score, self.threshold)
            }
            Err(message) => EvalResult::error(&self.label, ErrorCode::EvaluatorError, message),
        }
    }
}

/// `SmoothingFunction().k`.
const SMOOTHING_K: u64 = 5;

/// NLTK's `sentence_bleu([reference], hypothesis, smoothing_function=SmoothingFunction().method4)`
/// with the default weights (0.25 for each of the 1- to 4-grams).
pub fn sentence_bleu<T: AsRef<str>>(reference: &[T], hypothesis: &[T]) -> f64 {
    let (reference, hypothesis) = ngrams::token_ids(reference, hypothesis);
    let mut counts = ngrams::Counts::default();
    let precisions: Vec<(usize, usize)> = (1..=ngrams::MAX_ORDER)
        .map(|n| {
            counts.clear();
            let (hyp_total, _) = ngrams::count(&reference, &hypothesis, n..=n, &mut counts);
            (ngrams::clipped(&counts), hyp_total.max(1))
        })
        .collect();
    if precisions
        .first()
        .is_none_or(|&(numerator, _)| numerator == 0)
    {
        return 0.0;
    }
    let hyp_len = hypothesis.len();
    let mut smoothed_orders = 0;
    let mut log_terms = Vec::with_capacity(ngrams::MAX_ORDER);
    for &(numerator, denominator) in &precisions {
        let precision = if numerator == 0 && hyp_len > 1 {
            smoothed_orders += 1;
            let scale = ((1u64 << smoothed_orders) * SMOOTHING_K) as f64 / (hyp_len as f64).ln();
            (1.0 / scale) / denominator as f64
        } else {
            numerator as f64 / denominator as f64
        };
        if precision > 0.0 {
            log_terms.push(0.25 * precision.ln());
        }
    }
    brevity_penalty(reference.len(), hyp_len) * fsum(&log_terms).exp()
}

/// `brevity_penalty(closest_ref_len, hyp_len)`.
fn brevity_penalty(reference_len: usize, hyp_len: usize) -> f64 {
    if hyp_len > reference_len {
        1.0
    } else if hyp_len == 0 {
        0.0
    } else {
        (1.0 - reference_len as f64 / hyp_len as f64).exp()
    }
}

/// Python's `math.fsum` of finite values: the correctly rounded sum (Shewchuk's partials, with
/// CPython's final half-even correction).
fn fsum(values: &[f64]) -> f64 {
    let mut partials: Vec<f64> = Vec::new();
    for &value in values {
        let mut x = value;
        let mut kept = 0;
        for index in 0..partials.len() {
            let mut y = partials.get(index).copied().unwrap_or(0.0);
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let high = x + y;
            let low = y - (high - x);
            if low != 0.0 {
                if let Some(slot) = partials.get_mut(kept) {
                    *slot = low;
                }
                kept += 1;
            }
            x = high;
        }
        partials.truncate(kept);
        partials.push(x);
    }
    let Some((&last, rest)) = partials.split_last() else {
        return 0.0;
    };
    let mut high = last;
    let mut low = 0.0;
    let mut remaining = rest.len();
    while remaining > 0 {
        remaining -= 1;
        let x = high;
        let y = rest.get(remaining).copied().unwrap_or(0.0);
        high = x + y;
        low = y - (high - x);
        if low != 0.0 {
            break;
        }
    }
    if remaining > 0 {
        let next = rest.get(remaining - 1).copied().unwrap_or(0.0);
        if (low < 0.0 && next < 0.0) || (low > 0.0 && next > 0.0) {
            let y = low * 2.0;
            let x = high + y;
            if y == x - high {
                high = x;
            }
        }
    }
    high
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::json::{Map, Value};

    fn words(text: &str) -> Vec<&str> {
        text.split(' ').filter(|w| !w.is_empty()).collect()
    }

    fn run(options: Value, response: Value, ground_truth: Value) -> EvalResult {
        let map: Map<String, Value> = crate::json::from_value(options).unwrap_or_default();
        let evaluator = build("bleu", Options::new(&map)).unwrap();
        let inputs = Inputs::new()
            .with("response", &response)
            .with("ground_truth", &ground_truth);
        evaluator.evaluate(&inputs)
    }

    #[test]
    fn identical_sentences_score_one_and_disjoint_zero() {
        let sentence = words("the cat sat on the mat today");
        assert_eq!(sentence_bleu(&sentence, &sentence), 1.0);
        assert_eq!(sentence_bleu(&sentence, &words("a dog ran")), 0.0);
        assert_eq!(sentence_bleu(&sentence, &Vec::<&str>::new()), 0.0);
    }

    #[test]
    fn single_token_hypothesis_keeps_only_its_unigram() {
        let score = sentence_bleu(&words("cat sat"), &words("cat"));
        assert_eq!(score, (1.0f64 - 2.0).exp() * (0.25 * 1.0f64.ln()).exp());
    }

    #[test]
    fn fsum_is_correctly_rounded() {
        assert_eq!(fsum(&[0.1; 10]), 1.0);
        assert_eq!(fsum(&[1e100, 1.0, -1e100, 1e-100]), 1.0);
        assert_eq!(fsum(&[]), 0.0);
        assert_ne!(0.1 + 0.2 + 0.3, fsum(&[0.1, 0.2, 0.3]));
    }

    #[test]
    fn verdicts_and_input_errors() {
        let result = run(
            json!({"threshold": 0.2}),
            json!("The cat sat."),
            json!("The cat sat on the mat."),
        );
        assert_eq!(result.result.as_str(), "pass");
        assert_eq!(result.threshold, Some(0.2));
        let missing = run(json!({}), json!("x"), Value::Null);
        assert_eq!(
            missing.error.map(|e| e.message).as_deref(),
            Some(MISSING_INPUTS)
        );
        let number = run(json!({}), json!(1), json!("x"));
        assert!(number.error.is_some());
    }

    #[test]
    fn snapshot_result() {
        let result = run(
            json!({"threshold": 0.3}),
            json!("Mr. Smith didn't pay $3.88 to the U.S. Treasury."),
            json!("Mr. Smith did not pay $3.88 to the Treasury."),
        );
        insta::assert_json_snapshot!(result);
    }
}
