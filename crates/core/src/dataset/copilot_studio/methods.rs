//! The Copilot Studio test methods of one row, and its scoring.
//!
//! A row's methods are its non-empty `testMethodType_N` cells, by N; a row without one gets the
//! Copilot Studio default, GeneralQuality. Each result is labelled with the method's name (with
//! `_N` added when a row names a method twice).
//!
//! - `ExactMatch`: the [`ExactMatch`](crate::evaluators::exact_match) evaluator on
//!   `actualResponse` against `expectedResponse`, with `case_sensitive: true` ("character for
//!   character"); both are trimmed, as that evaluator does. It has no score; a `passingScore_N`
//!   does not apply.
//! - `KeywordMatch`: the [`KeywordMatch`](crate::evaluators::keyword_match) evaluator with the
//!   keywords of `expectedResponse` (its parts between commas, semicolons and line breaks,
//!   trimmed; a sentence without them is one keyword phrase) and `mode: "any"` (Copilot Studio
//!   passes a response that contains some of the expected words or phrases). Score: the share of
//!   keywords found. `passingScore_N`, a percentage (0–100), replaces "any" with "at least that
//!   share".
//! - `CapabilityUse` and `Custom`: `skipped`: the CSV does not carry the tools and topics the
//!   agent used, nor a custom method's grading instructions.
//! - `GeneralQuality` and `CompareMeaning`: judged. Without a judge, `skipped` with "no judge
//!   configured"; with one, a [`JudgeCall`](crate::judge::JudgeCall) each
//!   (`evaluators::judged::copilot_studio`), its result read by its `reading`. Never
//!   scored here. CompareMeaning passes at `passingScore_N` (0–100, default 50); GeneralQuality
//!   has no passing score (every criterion must hold).
//! - `TextSimilarity`: the cosine (0–1, negative counted as 0) of the embeddings of
//!   `actualResponse` and `expectedResponse` from the judge endpoint's `/embeddings` (its
//!   embeddings model), passing at `passingScore_N` (0–1, default 0.5). Without a judge,
//!   `skipped`.
//!
//! A `passingScore_N` that is not a number is an `error` result of that method only.

use crate::evaluators::{exact_match, judged, keyword_match, EvaluatorSpec};
use crate::inputs::Inputs;
use crate::json::{Map, Value};
use crate::options::Options;
use crate::outcome::{ErrorCode, EvalResult, Verdict};
use crate::report::CaseOutcome;
use crate::status::{item_status, ItemStatus};

use super::{Columns, CopilotStudioSet, MethodColumns, Row};

/// The test methods Copilot Studio offers, as `testMethodType_N` names them.
pub const TEST_METHODS: [&str; 7] = [
    "GeneralQuality",
    "CompareMeaning",
    "TextSimilarity",
    "ExactMatch",
    "KeywordMatch",
    "CapabilityUse",
    "Custom",
];

/// The test method a name stands for: Copilot Studio's "Partial match" (its name for matching
/// any of the keywords) is KeywordMatch, whose mode is any; other names are themselves.
pub fn canonical_name(name: &str) -> &str {
    match name {
        "PartialMatch" | "Partial match" | "Partial Match" => "KeywordMatch",
        other => other,
    }
}

/// The method a row without any gets.
pub const DEFAULT_METHOD: &str = "GeneralQuality";

/// One test method of one row.
#[derive(Debug, Clone, PartialEq)]
pub struct RowMethod {
    /// N of its columns (1 for the default method of a row that names none).
    pub number: u32,
    /// The method's name, as written (trimmed).
    pub name: String,
    /// The label its result carries.
    pub label: String,
    /// Its `passingScore_N`: absent or empty, a number, or what is wrong with it.
    pub passing_score: Option<Result<f64, String>>,
}

/// Row `row`'s `passingScore_N` of `method`: `None` when absent or empty.
pub fn passing_score(row: &Row, method: &MethodColumns) -> Option<Result<f64, String>> {
    let text = row.optional(method.passing_score)?.trim();
    if text.is_empty() {
        return None;
    }
    Some(match text.parse::<f64>() {
        Ok(score) if score.is_finite() && score >= 0.0 => Ok(score),
        _ => Err(format!(
            "row {}, column {} (passingScore_{}): expected a number of 0 or more, got \"{text}\"",
            row.number,
            method.passing_score.map_or(0, |column| column + 1),
            method.number
        )),
    })
}

/// The test methods of `row`, by N; the default method when it names none.
pub fn row_methods(columns: &Columns, row: &Row) -> Vec<RowMethod> {
    let mut methods: Vec<RowMethod> = columns
        .methods
        .iter()
        .filter_map(|method| {
            let name = row.field(method.method_type).trim();
            (!name.is_empty()).then(|| RowMethod {
                number: method.number,
                name: canonical_name(name).to_owned(),
                label: name.to_owned(),
                passing_score: passing_score(row, method),
            })
        })
        .collect();
    if methods.is_empty() {
        methods.push(RowMethod {
            number: 1,
            name: DEFAULT_METHOD.to_owned(),
            label: DEFAULT_METHOD.to_owned(),
            passing_score: None,
        });
    }
    let labels: Vec<String> = methods.iter().map(|method| method.label.clone()).collect();
    for method in &mut methods {
        if labels
            .iter()
            .filter(|label| **label == method.label)
            .count()
            > 1
        {
            method.label = format!("{}_{}", method.label, method.number);
        }
    }
    methods
}

impl CopilotStudioSet {
    /// Scores row `index` (0-based among the data rows). `judging`: whether a judge is
    /// configured (the judged methods are skipped either way, with different reasons).
    pub fn score_row(&self, index: usize, judging: bool) -> CaseOutcome {
        let Some(row) = self.rows.get(index) else {
            return CaseOutcome {
                index,
                turn: None,
                status: Some(ItemStatus::Error),
                results: Vec::new(),
                problem: Some(format!("no row {index}")),
                review: None,
            };
        };
        if let Some(problem) = &row.problem {
            return CaseOutcome {
                index,
                turn: None,
                status: Some(ItemStatus::Error),
                results: Vec::new(),
                problem: Some(problem.clone()),
                review: None,
            };
        }
        let response = row.optional(self.columns.actual_response).unwrap_or("");
        let expected = row.optional(self.columns.expected_response).unwrap_or("");
        let has_response = !response.trim().is_empty();
        let results: Vec<EvalResult> = row_methods(&self.columns, row)
            .iter()
            .map(|method| score_method(method, response, expected, judging))
            .collect();
        CaseOutcome {
            index,
            turn: None,
            status: item_status(&results, has_response),
            results,
            problem: None,
            review: None,
        }
    }

    /// Row `index`'s methods with a judge configured: each one's result, or the judge call that
    /// gives it (GeneralQuality, CompareMeaning); `Err` with the row's outcome when it cannot be
    /// scored (no such row, or a row that could not be read).
    pub fn judge_row(&self, index: usize) -> Result<JudgedRow, CaseOutcome> {
        let Some(row) = self.rows.get(index).filter(|row| row.problem.is_none()) else {
            return Err(self.score_row(index, true));
        };
        let texts = judged::copilot_studio::RowTexts {
            question: row.field(self.columns.question),
            response: row.optional(self.columns.actual_response).unwrap_or(""),
            expected: row.optional(self.columns.expected_response).unwrap_or(""),
        };
        let methods = row_methods(&self.columns, row)
            .iter()
            .map(|method| {
                judge_method(method, texts).unwrap_or_else(|| {
                    Prepared::Done(score_method(method, texts.response, texts.expected, true))
                })
            })
            .collect();
        Ok(JudgedRow {
            has_response: !texts.response.trim().is_empty(),
            methods,
        })
    }
}

/// A row's methods with a judge configured, in order.
#[derive(Debug)]
pub struct JudgedRow {
    /// Whether the row has an agent response.
    pub has_response: bool,
    /// Each method's result, or the judge call that gives it.
    pub methods: Vec<Prepared>,
}

/// One method of a row with a judge configured.
#[derive(Debug)]
pub enum Prepared {
    /// Its result, reached without the judge.
    Done(EvalResult),
    /// The judge call that gives its result.
    Judge(crate::judge::JudgeCall),
}

/// The judge call of a judged method, or its result reached without one (an empty response, a
/// bad passing score); `None` for a method that is not judged by a model.
fn judge_method(
    method: &RowMethod,
    texts: judged::copilot_studio::RowTexts<'_>,
) -> Option<Prepared> {
    use judged::copilot_studio::{compare_meaning, general_quality, text_similarity};
    let label = method.label.as_str();
    if !matches!(
        method.name.as_str(),
        "GeneralQuality" | "CompareMeaning" | "TextSimilarity"
    ) {
        return None;
    }
    let passing_score = match &method.passing_score {
        Some(Err(message)) => {
            return Some(Prepared::Done(EvalResult::error(
                label,
                ErrorCode::EvaluatorConfigurationError,
                message,
            )))
        }
        Some(Ok(score)) => Some(*score),
        None => None,
    };
    if texts.response.trim().is_empty() {
        return Some(Prepared::Done(EvalResult::error(
            label,
            ErrorCode::EmptyAgentResponse,
            "the agent response (actualResponse) is missing or empty; there is nothing to evaluate",
        )));
    }
    Some(match method.name.as_str() {
        name @ ("CompareMeaning" | "TextSimilarity") if texts.expected.trim().is_empty() => {
            Prepared::Done(EvalResult::error(
                label,
                ErrorCode::EvaluatorConfigurationError,
                format!("{name} needs the expected response (expectedResponse) to compare with; it is empty"),
            ))
        }
        "TextSimilarity" => match passing_score.unwrap_or(0.5) {
            score if score > 1.0 => Prepared::Done(EvalResult::error(
                label,
                ErrorCode::EvaluatorConfigurationError,
                "TextSimilarity's passingScore is a cosine similarity from 0 to 1",
            )),
            score => Prepared::Judge(text_similarity(label, texts, score)),
        },
        "CompareMeaning" => match passing_score.unwrap_or(50.0) {
            score if score > 100.0 => Prepared::Done(EvalResult::error(
                label,
                ErrorCode::EvaluatorConfigurationError,
                "CompareMeaning's passingScore is a score from 0 to 100",
            )),
            score => Prepared::Judge(compare_meaning(label, texts, score)),
        },
        _ => Prepared::Judge(general_quality(label, texts)),
    })
}

fn score_method(method: &RowMethod, response: &str, expected: &str, judging: bool) -> EvalResult {
    let label = method.label.as_str();
    let passing_score = match &method.passing_score {
        Some(Err(message)) => {
            return EvalResult::error(label, ErrorCode::EvaluatorConfigurationError, message)
        }
        Some(Ok(score)) => Some(*score),
        None => None,
    };
    match method.name.as_str() {
        "ExactMatch" | "KeywordMatch" if response.trim().is_empty() => EvalResult::error(
            label,
            ErrorCode::EmptyAgentResponse,
            "the agent response (actualResponse) is missing or empty; there is nothing to evaluate",
        ),
        "ExactMatch" => {
            let mut options = Map::new();
            options.insert("case_sensitive".to_owned(), Value::Bool(true));
            run(&exact_match::SPEC, label, &options, response, expected)
        }
        "KeywordMatch" => keyword_match(label, response, expected, passing_score),
        "CapabilityUse" => EvalResult::skipped(
            label,
            "CapabilityUse needs the tools and topics the agent used, which a Copilot Studio CSV does not carry",
        ),
        "Custom" => EvalResult::skipped(
            label,
            "a Custom test method needs its grading instructions, which a Copilot Studio CSV does not carry",
        ),
        "GeneralQuality" | "CompareMeaning" | "TextSimilarity" if judging => {
            EvalResult::skipped(label, judged::NOT_AVAILABLE_REASON)
        }
        "GeneralQuality" | "CompareMeaning" | "TextSimilarity" => {
            EvalResult::skipped(label, judged::NO_JUDGE_REASON)
        }
        other => EvalResult::error(
            label,
            ErrorCode::EvaluatorLoadError,
            format!(
                "unknown Copilot Studio test method \"{other}\"; expected one of {}",
                TEST_METHODS.join(", ")
            ),
        ),
    }
}

/// The keywords of an expected response: its parts between commas, semicolons and line breaks.
pub fn keywords(expected: &str) -> Vec<&str> {
    expected
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|keyword| !keyword.is_empty())
        .collect()
}

fn keyword_match(
    label: &str,
    response: &str,
    expected: &str,
    passing_score: Option<f64>,
) -> EvalResult {
    let keywords = keywords(expected);
    if keywords.is_empty() {
        return EvalResult::error(
            label,
            ErrorCode::EvaluatorConfigurationError,
            "KeywordMatch needs the expected words or phrases in expectedResponse (separated by commas, semicolons or line breaks); it is empty",
        );
    }
    if passing_score.is_some_and(|score| score > 100.0) {
        return EvalResult::error(
            label,
            ErrorCode::EvaluatorConfigurationError,
            "KeywordMatch's passingScore is the percentage of keywords that must be found; expected 0 to 100",
        );
    }
    let mut options = Map::new();
    options.insert(
        "keywords".to_owned(),
        Value::Array(keywords.into_iter().map(Value::from).collect()),
    );
    options.insert("mode".to_owned(), Value::from("any"));
    let mut result = run(&keyword_match::SPEC, label, &options, response, expected);
    if let (Some(passing_score), Some(score)) = (passing_score, result.score) {
        let threshold = passing_score / 100.0;
        result.threshold = Some(threshold);
        result.result = Verdict::from_pass(score >= threshold);
        let found = result.reason.take().unwrap_or_default();
        result.reason = Some(format!(
            "{found}; passingScore {passing_score}: at least {passing_score}% of the keywords must be found"
        ));
    }
    result
}

/// Builds `spec` with `options` and runs it on the row's texts.
fn run(
    spec: &EvaluatorSpec,
    label: &str,
    options: &Map<String, Value>,
    response: &str,
    expected: &str,
) -> EvalResult {
    let evaluator = match (spec.build)(label, Options::new(options)) {
        Ok(evaluator) => evaluator,
        Err(error) => {
            return EvalResult::error(label, ErrorCode::EvaluatorConfigurationError, error.message)
        }
    };
    let response = Value::from(response);
    let expected = Value::from(expected);
    let inputs = Inputs::new()
        .with("response", &response)
        .with("expected_response", &expected)
        .with("ground_truth", &expected);
    evaluator.evaluate(&inputs)
}
