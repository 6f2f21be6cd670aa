//! The `text_similarity` grader: a similarity score of the rendered `input` against the rendered
//! `reference`, passing at `score >= pass_threshold`.
//!
//! The metrics are agenteval's own evaluators on the two texts (the input in the response's
//! place, the reference in the ground truth's): `bleu` and `gleu` are `builtin.bleu_score` and
//! `builtin.gleu_score` (NLTK's tokeniser, sentence BLEU with smoothing method 4, sentence GLEU),
//! `rouge_1` … `rouge_5` and `rouge_l` the F1 of `builtin.rouge_score` with `rouge1` … `rouge5`
//! and `rougeL`, `meteor` the score of `builtin.meteor_score` with its default `alpha`, `beta` and
//! `gamma` (an `evaluatorLoadError` on every row until the host installs WordNet, as for that
//! evaluator), and `fuzzy_match` RapidFuzz's `fuzz.ratio / 100` ([`super::fuzzy`]). `cosine` is
//! the cosine similarity of the two texts' embeddings from the judge endpoint, requested and read
//! as Copilot Studio's TextSimilarity does (texts trimmed, a negative cosine counted as 0); without
//! a judge every row is `skipped`.

use super::{choice, fuzzy, spec, texts, TextTemplate, COMMON_KEYS};
use crate::evaluators::{bleu, gleu, meteor, rouge, Evaluator, EvaluatorSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::nltk::nltk_tokenize;

/// The entry `text_similarity` criteria are reported under.
pub static SPEC: EvaluatorSpec = spec(
    "text_similarity",
    "evaluation_metric(input, reference) >= pass_threshold",
    build,
);

/// Every `evaluation_metric` OpenAI defines.
pub const METRICS: [&str; 11] = [
    "fuzzy_match",
    "bleu",
    "gleu",
    "meteor",
    "rouge_1",
    "rouge_2",
    "rouge_3",
    "rouge_4",
    "rouge_5",
    "rouge_l",
    "cosine",
];

/// Why a `cosine` criterion is skipped without a judge.
pub const COSINE_SKIPPED: &str = "evaluation_metric \"cosine\" needs embeddings from a judge \
     endpoint, and none is configured";

/// A similarity metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// RapidFuzz's `fuzz.ratio / 100`.
    FuzzyMatch,
    /// Sentence BLEU as `builtin.bleu_score` computes it.
    Bleu,
    /// Sentence GLEU as `builtin.gleu_score` computes it.
    Gleu,
    /// METEOR as `builtin.meteor_score` computes it by default.
    Meteor,
    /// ROUGE-N F1 for N in 1..=5.
    Rouge(usize),
    /// ROUGE-L F1.
    RougeL,
    /// Cosine similarity of the judge endpoint's embeddings.
    Cosine,
}

impl Metric {
    /// The metric named `name` (one of [`METRICS`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "fuzzy_match" => Metric::FuzzyMatch,
            "bleu" => Metric::Bleu,
            "gleu" => Metric::Gleu,
            "meteor" => Metric::Meteor,
            "rouge_l" => Metric::RougeL,
            "cosine" => Metric::Cosine,
            _ => Metric::Rouge(match name.strip_prefix("rouge_")? {
                "1" => 1,
                "2" => 2,
                "3" => 3,
                "4" => 4,
                "5" => 5,
                _ => return None,
            }),
        })
    }

    /// The score of `input` against `reference`, or the result to report instead.
    ///
    /// # Errors
    /// The result for `cosine` (skipped), `meteor` without WordNet, or texts too long for
    /// `fuzzy_match`.
    pub fn score(self, label: &str, input: &str, reference: &str) -> Result<f64, Box<EvalResult>> {
        Ok(match self {
            Metric::FuzzyMatch => fuzzy::ratio(input, reference).map_err(|message| {
                Box::new(EvalResult::error(label, ErrorCode::EvaluatorError, message))
            })?,
            Metric::Bleu => bleu::sentence_bleu(&nltk_tokenize(reference), &nltk_tokenize(input)),
            Metric::Gleu => gleu::sentence_gleu(&nltk_tokenize(reference), &nltk_tokenize(input)),
            Metric::Rouge(order) => rouge::f1(Some(order), reference, input),
            Metric::RougeL => rouge::f1(None, reference, input),
            Metric::Meteor => meteor::default_score(reference, input)
                .map_err(|(code, message)| Box::new(EvalResult::error(label, code, message)))?,
            Metric::Cosine => return Err(Box::new(EvalResult::skipped(label, COSINE_SKIPPED))),
        })
    }
}

struct TextSimilarity {
    label: String,
    input: TextTemplate,
    reference: TextTemplate,
    metric: Metric,
    threshold: f64,
}

/// Reads a `text_similarity` criterion.
///
/// # Errors
/// An unknown key, a missing or malformed `input` / `reference` template, an unknown
/// `evaluation_metric`, or a `pass_threshold` that is missing or not a number in `[0, 1]`, each
/// naming its key.
pub fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    let mut allowed = COMMON_KEYS.to_vec();
    allowed.extend(["evaluation_metric", "pass_threshold"]);
    options.deny_unknown(&allowed)?;
    let name = choice(&options, "evaluation_metric", &METRICS)?;
    let metric = Metric::from_name(name).ok_or_else(|| {
        ConfigError::new(format!(
            "option `evaluation_metric`: unknown metric \"{name}\""
        ))
    })?;
    if options.get("pass_threshold").is_none() {
        return Err(ConfigError::new(
            "option `pass_threshold` is required: a number between 0 and 1",
        ));
    }
    let threshold = options.number_in("pass_threshold", 0.0, 0.0, 1.0)?;
    Ok(Box::new(TextSimilarity {
        label: label.to_owned(),
        input: TextTemplate::read(&options, "input")?,
        reference: TextTemplate::read(&options, "reference")?,
        metric,
        threshold,
    }))
}

impl Evaluator for TextSimilarity {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let (input, reference) = match texts(&self.label, &self.input, &self.reference, inputs) {
            Ok(texts) => texts,
            Err(result) => return *result,
        };
        match self.metric.score(&self.label, &input, &reference) {
            Ok(score) => {
                EvalResult::scored(&self.label, score >= self.threshold, score, self.threshold)
            }
            Err(mut result) => {
                result.threshold = Some(self.threshold);
                *result
            }
        }
    }

    fn judge(
        &self,
        inputs: &Inputs<'_>,
    ) -> Option<Result<crate::judge::JudgeCall, Box<EvalResult>>> {
        use crate::evaluators::judged::copilot_studio::{text_similarity, RowTexts};
        if self.metric != Metric::Cosine {
            return None;
        }
        Some(
            texts(&self.label, &self.input, &self.reference, inputs).map(|(input, reference)| {
                let texts = RowTexts {
                    question: "",
                    response: &input,
                    expected: &reference,
                };
                text_similarity(&self.label, texts, self.threshold)
            }),
        )
    }

    fn needs_wordnet(&self) -> bool {
        self.metric == Metric::Meteor
    }
}
