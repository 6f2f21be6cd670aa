//! `builtin.rouge_score`: azure-ai-evaluation's `RougeScoreEvaluator` with its vendored
//! `rouge_score` (no stemming). ROUGE-N, ROUGE-L and the summary-level ROUGE-Lsum; precision,
//! recall and F1 each pass against their own threshold; the verdict and score are the F1's.
//! The reference scores with the ground truth as target and the response as prediction.

use std::collections::HashMap;

use crate::json::Value;

use super::f1_score::text_pair;
use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::details::Details;
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::sorting;
use crate::text::rouge_tokens;

/// Catalog entry for `builtin.rouge_score`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "builtin.rouge_score",
    kind: EvaluatorKind::Deterministic,
    inputs: &["response", "ground_truth"],
    needs_response: false,
    m365_reports_score: true,
    options: &[
        OptionSpec {
            name: "rouge_type",
            kind: "string: rouge1..rouge9, rougeL, rougeLsum",
            default: "required",
            description: "which ROUGE variant to compute",
        },
        OptionSpec {
            name: "precision_threshold",
            kind: "float",
            default: "0.5",
            description: "pass threshold for precision (must be written as a float, e.g. 1.0)",
        },
        OptionSpec {
            name: "recall_threshold",
            kind: "float",
            default: "0.5",
            description: "pass threshold for recall (must be written as a float)",
        },
        OptionSpec {
            name: "f1_score_threshold",
            kind: "float",
            default: "0.5",
            description:
                "pass threshold for F1, which decides the verdict (must be written as a float)",
        },
    ],
    pass_rule: "ROUGE F1 >= f1_score_threshold (0.5)",
    build,
};

const THRESHOLD_KEYS: [&str; 3] = [
    "precision_threshold",
    "recall_threshold",
    "f1_score_threshold",
];
const MISSING_INPUTS: &str =
    "RougeScoreEvaluator: Either 'conversation' or individual inputs must be provided.";

/// The ROUGE variant named by `rouge_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RougeKind {
    /// ROUGE-N over n-grams.
    Ngram(usize),
    /// Longest common subsequence over the whole text.
    Lcs,
    /// Summary-level LCS over `\n`-separated sentences.
    LcsSum,
}

struct Rouge {
    label: String,
    kind: RougeKind,
    thresholds: [f64; 3],
}

fn float_threshold(options: Options<'_>, key: &str) -> Result<f64, ConfigError> {
    match options.map().get(key) {
        None => Ok(0.5),
        Some(Value::Number(number)) if number.is_f64() => Ok(number.as_f64().unwrap_or(f64::NAN)),
        Some(other) => Err(ConfigError::new(format!(
            "{key} must be a float, got {}",
            crate::text::python::class_name(other)
        ))),
    }
}

/// Parses `rouge_type` like the vendored scorer: `rougeL`, `rougeLsum`, or `rouge[0-9]` (Python
/// `re.match` with `$`, which also accepts one trailing newline).
fn parse_kind(rouge_type: &str) -> Result<RougeKind, ConfigError> {
    match rouge_type {
        "rougeL" => return Ok(RougeKind::Lcs),
        "rougeLsum" => return Ok(RougeKind::LcsSum),
        _ => {}
    }
    let body = rouge_type.strip_suffix('\n').unwrap_or(rouge_type);
    let digit = body
        .strip_prefix("rouge")
        .filter(|rest| rest.len() == 1)
        .and_then(|rest| rest.chars().next())
        .and_then(|c| c.to_digit(10));
    match digit {
        Some(0) => Err(ConfigError::new(format!(
            "rougen requires positive n: {rouge_type}"
        ))),
        Some(n) => Ok(RougeKind::Ngram(n as usize)),
        None => Err(ConfigError::new(format!(
            "Invalid rouge type: {rouge_type}"
        ))),
    }
}

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    let mut allowed = vec!["rouge_type"];
    allowed.extend(THRESHOLD_KEYS);
    options.deny_unknown(&allowed)?;
    let mut thresholds = [0.5; 3];
    for (slot, key) in thresholds.iter_mut().zip(THRESHOLD_KEYS) {
        *slot = float_threshold(options, key)?;
    }
    let rouge_type = match options.map().get("rouge_type") {
        Some(Value::String(text)) => text,
        None => {
            return Err(ConfigError::new(
                "option `rouge_type` is required (rouge1..rouge5 or rougeL)",
            ))
        }
        Some(other) => {
            return Err(ConfigError::new(format!(
                "option `rouge_type` must be a string, got {}",
                crate::options::json_type_name(other)
            )))
        }
    };
    Ok(Box::new(Rouge {
        label: label.to_owned(),
        kind: parse_kind(rouge_type)?,
        thresholds,
    }))
}

/// Precision, recall and F-measure, as the vendored `rouge_score` computes them.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Score {
    precision: f64,
    recall: f64,
    fmeasure: f64,
}

impl Score {
    const ZERO: Score = Score {
        precision: 0.0,
        recall: 0.0,
        fmeasure: 0.0,
    };

    fn new(precision: f64, recall: f64) -> Score {
        let fmeasure = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        Score {
            precision,
            recall,
            fmeasure,
        }
    }
}

fn ngram_counts(tokens: &[String], n: usize) -> HashMap<&[String], usize> {
    let mut counts = HashMap::new();
    for gram in tokens.windows(n) {
        *counts.entry(gram).or_insert(0) += 1;
    }
    counts
}

fn score_ngrams(target: &[String], prediction: &[String], n: usize) -> Score {
    let target_counts = ngram_counts(target, n);
    let prediction_counts = ngram_counts(prediction, n);
    let overlap: usize = target_counts
        .iter()
        .map(|(gram, count)| (*count).min(prediction_counts.get(gram).copied().unwrap_or(0)))
        .sum();
    let target_total: usize = target_counts.values().sum();
    let prediction_total: usize = prediction_counts.values().sum();
    Score::new(
        overlap as f64 / prediction_total.max(1) as f64,
        overlap as f64 / target_total.max(1) as f64,
    )
}

/// The full LCS length table of `reference` × `candidate`, row-major with `candidate.len() + 1`
/// columns.
fn lcs_table(reference: &[String], candidate: &[String]) -> Vec<u32> {
    let cols = candidate.len() + 1;
    let mut table = vec![0u32; (reference.len() + 1) * cols];
    for (i, ref_token) in reference.iter().enumerate() {
        let Some((above, below)) = table.split_at_mut_checked((i + 1) * cols) else {
            break;
        };
        if let (Some(previous), Some(current)) = (above.get(i * cols..), below.get_mut(..cols)) {
            fill_row(previous, current, ref_token, candidate);
        }
    }
    table
}

fn lcs_length(reference: &[String], candidate: &[String]) -> usize {
    let mut previous = vec![0u32; candidate.len() + 1];
    let mut current = vec![0u32; candidate.len() + 1];
    for ref_token in reference {
        fill_row(&previous, &mut current, ref_token, candidate);
        std::mem::swap(&mut previous, &mut current);
    }
    previous.last().map_or(0, |&length| length as usize)
}

/// Fills one row of the LCS table (`candidate.len() + 1` cells, the first always 0) for
/// `token`, from the row above it.
fn fill_row(previous: &[u32], current: &mut [u32], token: &String, candidate: &[String]) {
    let mut left = 0;
    let cells = candidate
        .iter()
        .zip(previous.windows(2))
        .zip(current.iter_mut().skip(1));
    for ((candidate_token, above), cell) in cells {
        let (diagonal, up) = match above {
            [diagonal, up] => (*diagonal, *up),
            _ => (0, 0),
        };
        left = if token == candidate_token {
            diagonal + 1
        } else {
            up.max(left)
        };
        *cell = left;
    }
}

fn score_lcs(target: &[String], prediction: &[String]) -> Score {
    if target.is_empty() || prediction.is_empty() {
        return Score::ZERO;
    }
    let lcs = lcs_length(target, prediction) as f64;
    Score::new(lcs / prediction.len() as f64, lcs / target.len() as f64)
}

/// Indices into `reference` of one LCS with `candidate`, read back as the reference does.
fn lcs_indices(reference: &[String], candidate: &[String]) -> Vec<usize> {
    let table = lcs_table(reference, candidate);
    let cols = candidate.len() + 1;
    let cell = |i: usize, j: usize| table.get(i * cols + j).copied().unwrap_or(0);
    let (mut i, mut j) = (reference.len(), candidate.len());
    let mut indices = Vec::new();
    while i > 0 && j > 0 {
        if reference.get(i - 1) == candidate.get(j - 1) {
            indices.push(i - 1);
            i -= 1;
            j -= 1;
        } else if cell(i, j - 1) > cell(i - 1, j) {
            j -= 1;
        } else {
            i -= 1;
        }
    }
    indices.reverse();
    indices
}

fn sentences(text: &str) -> Vec<Vec<String>> {
    text.split('\n')
        .filter(|sentence| !sentence.is_empty())
        .map(rouge_tokens::tokens)
        .collect()
}

/// Largest LCS table (cells) built for one sentence pair of ROUGE-Lsum; beyond it the item errors
/// instead of exhausting memory (the reference would need the same table as Python lists).
const MAX_SUMMARY_TABLE_CELLS: usize = 25_000_000;

fn score_summary_lcs(target: &str, prediction: &str) -> Result<Score, String> {
    let reference = sentences(target);
    let candidate = sentences(prediction);
    if reference.is_empty() || candidate.is_empty() {
        return Ok(Score::ZERO);
    }
    let ref_total: usize = reference.iter().map(Vec::len).sum();
    let cand_total: usize = candidate.iter().map(Vec::len).sum();
    if ref_total == 0 || cand_total == 0 {
        return Ok(Score::ZERO);
    }
    let longest = |sentences: &[Vec<String>]| sentences.iter().map(Vec::len).max().unwrap_or(0);
    if (longest(&reference) + 1).saturating_mul(longest(&candidate) + 1) > MAX_SUMMARY_TABLE_CELLS {
        return Err(
            "rougeLsum: a line of `response` or `ground_truth` is too long to score".to_owned(),
        );
    }
    let mut ref_counts: HashMap<&str, usize> = HashMap::new();
    let mut cand_counts: HashMap<&str, usize> = HashMap::new();
    for token in reference.iter().flatten() {
        *ref_counts.entry(token).or_default() += 1;
    }
    for token in candidate.iter().flatten() {
        *cand_counts.entry(token).or_default() += 1;
    }
    let mut hits = 0usize;
    for sentence in &reference {
        let mut union: Vec<usize> = candidate
            .iter()
            .flat_map(|cand| lcs_indices(sentence, cand))
            .collect();
        sorting::sort_stable_by(&mut union, Ord::cmp);
        union.dedup();
        for token in union.iter().filter_map(|&index| sentence.get(index)) {
            let in_cand = cand_counts.get_mut(token.as_str());
            let in_ref = ref_counts.get(token.as_str()).copied().unwrap_or(0);
            if let Some(cand_count) = in_cand {
                if *cand_count > 0 && in_ref > 0 {
                    hits += 1;
                    *cand_count -= 1;
                    if let Some(ref_count) = ref_counts.get_mut(token.as_str()) {
                        *ref_count -= 1;
                    }
                }
            }
        }
    }
    Ok(Score::new(
        hits as f64 / cand_total as f64,
        hits as f64 / ref_total as f64,
    ))
}

fn score(kind: RougeKind, target: &str, prediction: &str) -> Result<Score, String> {
    Ok(match kind {
        RougeKind::LcsSum => score_summary_lcs(target, prediction)?,
        RougeKind::Lcs => score_lcs(
            &rouge_tokens::tokens(target),
            &rouge_tokens::tokens(prediction),
        ),
        RougeKind::Ngram(n) => score_ngrams(
            &rouge_tokens::tokens(target),
            &rouge_tokens::tokens(prediction),
            n,
        ),
    })
}

/// The ROUGE F1 of `prediction` against `target`, as `builtin.rouge_score` computes it:
/// ROUGE-`n` for `Some(n)`, ROUGE-L for `None`.
pub(crate) fn f1(order: Option<usize>, target: &str, prediction: &str) -> f64 {
    let kind = order.map_or(RougeKind::Lcs, RougeKind::Ngram);
    score(kind, target, prediction).map_or(0.0, |scores| scores.fmeasure)
}

fn verdict(passed: bool) -> &'static str {
    if passed {
        "pass"
    } else {
        "fail"
    }
}

impl Evaluator for Rouge {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let scores = match text_pair(inputs, MISSING_INPUTS)
            .and_then(|(response, ground_truth)| score(self.kind, ground_truth, response))
        {
            Ok(scores) => scores,
            Err(message) => {
                return EvalResult::error(&self.label, ErrorCode::EvaluatorError, message)
            }
        };
        let values = [scores.precision, scores.recall, scores.fmeasure];
        let passed: Vec<bool> = values
            .iter()
            .zip(self.thresholds)
            .map(|(value, threshold)| *value >= threshold)
            .collect();
        let names = ["rouge_precision", "rouge_recall", "rouge_f1_score"];
        let mut details = Details::new();
        for (name, value) in names.iter().zip(values) {
            details.insert(*name, value);
        }
        for (name, ok) in names.iter().zip(&passed) {
            details.insert(format!("{name}_result"), Value::from(verdict(*ok)));
        }
        for (name, ok) in names.iter().zip(&passed) {
            details.insert(format!("{name}_passed"), Value::from(*ok));
        }
        for (name, threshold) in names.iter().zip(self.thresholds) {
            details.insert(format!("{name}_threshold"), Value::from(threshold));
        }
        let f1_passed = passed.get(2).copied().unwrap_or(false);
        let mut result =
            EvalResult::scored(&self.label, f1_passed, scores.fmeasure, self.thresholds[2]);
        result.details = details;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn evaluator(options: Value) -> Result<Box<dyn Evaluator>, ConfigError> {
        let map: crate::json::Map<String, Value> =
            crate::json::from_value(options).unwrap_or_default();
        build("rouge", Options::new(&map))
    }

    fn run(rouge_type: &str, response: &str, ground_truth: &str) -> EvalResult {
        let evaluator = evaluator(json!({ "rouge_type": rouge_type })).unwrap();
        let response = json!(response);
        let ground_truth = json!(ground_truth);
        evaluator.evaluate(
            &Inputs::new()
                .with("response", &response)
                .with("ground_truth", &ground_truth),
        )
    }

    fn toks(text: &str) -> Vec<String> {
        rouge_tokens::tokens(text)
    }

    #[test]
    fn ngram_scores() {
        let s = score_ngrams(&toks("the cat sat on the mat"), &toks("the cat sat"), 1);
        assert_eq!((s.precision, s.recall), (1.0, 0.5));
        let s = score_ngrams(&toks("a b c d"), &toks("a b x d"), 2);
        assert_eq!((s.precision, s.recall), (1.0 / 3.0, 1.0 / 3.0));
        assert_eq!(score_ngrams(&[], &[], 1), Score::ZERO);
    }

    #[test]
    fn lcs_scores() {
        let s = score_lcs(&toks("a b c d e"), &toks("a c e x"));
        assert_eq!((s.precision, s.recall), (0.75, 0.6));
        assert_eq!(score_lcs(&toks(""), &toks("a")), Score::ZERO);
        assert_eq!(lcs_indices(&toks("a b c"), &toks("c a b")), [0, 1]);
    }

    #[test]
    fn summary_lcs_uses_union_of_sentence_lcs() {
        let s = score_summary_lcs("a b c\nd e", "a c\nb d e").unwrap();
        assert_eq!(s.recall, 1.0);
        assert_eq!(s.precision, 1.0);
        assert_eq!(score_summary_lcs("\n\n", "a"), Ok(Score::ZERO));
    }

    #[test]
    fn rouge_type_validation_messages() {
        let message = |options| evaluator(options).err().map(|e| e.message);
        assert_eq!(
            message(json!({"rouge_type": "rouge0"})).as_deref(),
            Some("rougen requires positive n: rouge0")
        );
        assert_eq!(
            message(json!({"rouge_type": "rougeX"})).as_deref(),
            Some("Invalid rouge type: rougeX")
        );
        assert_eq!(
            message(json!({"rouge_type": "rouge12"})).as_deref(),
            Some("Invalid rouge type: rouge12")
        );
        assert_eq!(
            message(json!({"rouge_type": "rouge1", "recall_threshold": 1})).as_deref(),
            Some("recall_threshold must be a float, got <class 'int'>")
        );
        assert_eq!(
            message(json!({"rouge_type": "bad", "precision_threshold": null})).as_deref(),
            Some("precision_threshold must be a float, got <class 'NoneType'>")
        );
        assert!(evaluator(json!({"rouge_type": "rouge7\n"})).is_ok());
        assert!(evaluator(json!({})).is_err());
    }

    #[test]
    fn ascii_only_tokens_and_target_order() {
        let result = run("rouge1", "café au lait", "caf au");
        assert_eq!(result.score, Some(0.8));
        assert_eq!(result.details["rouge_precision"], json!(2.0 / 3.0));
        assert_eq!(result.details["rouge_recall"], json!(1.0));
    }

    #[test]
    fn snapshot_result() {
        insta::assert_json_snapshot!(run(
            "rougeL",
            "The quick brown fox",
            "the fox jumped quickly"
        ));
    }
}
