//! The prompts of Copilot Studio's judged test methods: GeneralQuality
//! (`copilot_general_quality/v1`: one call, a verdict on each of its four criteria) and
//! CompareMeaning (`copilot_compare_meaning/v1`: one call, a score from 0 to 100); and
//! TextSimilarity's embeddings request (the response and the expected response). The row's text
//! is fenced as data as in every judged prompt. GeneralQuality and CompareMeaning named in an M365
//! document use the same prompts on the item's prompt, response and expected response. Reading the replies is
//! `reading`'s; this module decides nothing from them.

use std::sync::Arc;

use super::prompt::{fence, Section};
use super::render;
use crate::evaluators::Evaluator;
use crate::inputs::Inputs;
pub mod reading;

use self::reading::{CopilotMethod, CRITERIA};
use crate::judge::{Extra, JudgeCall, JudgeRequest, ModelParams, PromptId, Reading, Scale};
use crate::options::{ConfigError, Options};
use crate::outcome::{ErrorCode, EvalResult};

/// GeneralQuality's prompt; any change to its text bumps the version.
pub const GENERAL_QUALITY: PromptId = PromptId {
    name: "copilot_general_quality",
    version: 1,
};

/// CompareMeaning's prompt; any change to its text bumps the version.
pub const COMPARE_MEANING: PromptId = PromptId {
    name: "copilot_compare_meaning",
    version: 1,
};

const PARAMS: ModelParams = ModelParams {
    temperature: 0.0,
    max_tokens: 800,
    seed: None,
};

/// A row's texts: `questionText`, `actualResponse` and `expectedResponse` (empty when absent).
#[derive(Debug, Clone, Copy)]
pub struct RowTexts<'a> {
    /// The question.
    pub question: &'a str,
    /// The agent's response.
    pub response: &'a str,
    /// The expected response.
    pub expected: &'a str,
}

/// GeneralQuality's call for one row.
pub fn general_quality(label: &str, texts: RowTexts<'_>) -> JudgeCall {
    let mut sections = vec![
        Section::new("QUESTION", texts.question.trim()),
        Section::new("RESPONSE", texts.response.trim()),
    ];
    if !texts.expected.trim().is_empty() {
        sections.push(Section::new("EXPECTED_RESPONSE", texts.expected.trim()));
    }
    let fenced = fence(&sections);
    let ids: Vec<String> = CRITERIA
        .iter()
        .map(|(id, _, _)| format!("\"{id}\""))
        .collect();
    let scales: Vec<String> = CRITERIA
        .iter()
        .map(|(id, _, _)| format!("\"{id}\": [0, 1]"))
        .collect();
    let system = format!(
        "You are an impartial evaluator of an AI agent's answer to a user's question.\n\n\
         Task: Give a verdict on each of these criteria, on its own, with a one-sentence reason. \
         Score 1 when the criterion holds and 0 when it does not.\n\
         - relevance: the response stays on the subject and directly addresses the question.\n\
         - completeness: the response covers every aspect of the question with enough detail.\n\
         - groundedness: the response relies on information from the agent's knowledge sources \
         (cited, or in agreement with the expected response when one is given) rather than \
         introducing unrelated or unsupported information.\n\
         - answered: the agent attempted to answer the question instead of declining, deflecting \
         or saying it cannot help.\n\n\
         Dimension ids: [{ids}]\n\
         Dimension scales: {{{scales}}}\n\n\
         {instruction}\n\n\
         Reply with one JSON object and nothing else, giving every criterion exactly once, in \
         the order above:\n\
         {{\"reason\": \"<one or two sentences on the overall verdict>\", \"dimensions\": \
         [{{\"id\": \"<criterion id>\", \"score\": <integer from 0 to 1>, \"reason\": \"<one \
         sentence>\"}}], \"status\": \"completed\"}}\n\n\
         Prompt: agenteval {label}",
        ids = ids.join(","),
        scales = scales.join(", "),
        instruction = fenced.instruction,
        label = GENERAL_QUALITY.label(),
    );
    call(
        label,
        GENERAL_QUALITY,
        fenced.messages(system),
        CopilotMethod::GeneralQuality,
    )
}

/// CompareMeaning's call for one row, passing at `passing_score` (0–100).
pub fn compare_meaning(label: &str, texts: RowTexts<'_>, passing_score: f64) -> JudgeCall {
    let sections = [
        Section::new("RESPONSE", texts.response.trim()),
        Section::new("EXPECTED_RESPONSE", texts.expected.trim()),
    ];
    let fenced = fence(&sections);
    let system = format!(
        "You are an impartial evaluator of an AI agent's answer.\n\n\
         Task: Rate how well the response conveys the intended meaning of the expected response. \
         Compare the ideas and the intent behind the words, not the wording: a response that says \
         the same thing in other words matches fully; one that leaves out, adds or contradicts key \
         ideas matches less.\n\n\
         Scores: 0 means the meaning is unrelated or contradicts the expected response; 50 means \
         about half of its key ideas are conveyed; 100 means the same meaning and intent.\n\n\
         {instruction}\n\n\
         Reply with one JSON object and nothing else:\n\
         {{\"reason\": \"<one or two sentences explaining the score>\", \"score\": <integer from \
         0 to 100>, \"status\": \"completed\"}}\n\n\
         Prompt: agenteval {label}",
        instruction = fenced.instruction,
        label = COMPARE_MEANING.label(),
    );
    call(
        label,
        COMPARE_MEANING,
        fenced.messages(system),
        CopilotMethod::CompareMeaning { passing_score },
    )
}

/// TextSimilarity's call for one row: the embeddings of the response and the expected
/// response, passing at a cosine of `passing_score` (0–1).
pub fn text_similarity(label: &str, texts: RowTexts<'_>, passing_score: f64) -> JudgeCall {
    let method = CopilotMethod::TextSimilarity { passing_score };
    JudgeCall {
        label: label.to_owned(),
        request: JudgeRequest::embeddings(&[texts.response.trim(), texts.expected.trim()]),
        reading: Reading {
            scale: Scale::Binary,
            threshold: method.threshold(),
            extra: Extra::None,
            dimensions: Some(Arc::new(method) as _),
        },
        turns: Vec::new(),
        notes: Vec::new(),
    }
}

fn call(
    label: &str,
    prompt: PromptId,
    messages: Vec<crate::judge::ChatMessage>,
    method: CopilotMethod,
) -> JudgeCall {
    JudgeCall {
        label: label.to_owned(),
        request: JudgeRequest {
            operation: crate::judge::Operation::Chat,
            prompt,
            model: None,
            reasoning: false,
            messages,
            params: PARAMS,
        },
        reading: Reading {
            scale: Scale::Binary,
            threshold: method.threshold(),
            extra: Extra::None,
            dimensions: Some(Arc::new(method) as _),
        },
        turns: Vec::new(),
        notes: Vec::new(),
    }
}

/// GeneralQuality or CompareMeaning named in an M365 document: the Copilot Studio prompts, on
/// the item's prompt, response and expected response.
struct NamedMethod {
    label: String,
    /// CompareMeaning's passing score (0–100); `None` for GeneralQuality.
    compare_meaning: Option<f64>,
}

/// Builds GeneralQuality from its options (`threshold` accepted: every criterion must hold).
///
/// # Errors
/// An unknown option.
pub(super) fn build_general_quality(
    label: &str,
    options: Options<'_>,
) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["threshold"])?;
    Ok(Box::new(NamedMethod {
        label: label.to_owned(),
        compare_meaning: None,
    }))
}

/// Builds CompareMeaning from its options: `threshold` 0..100 (50).
///
/// # Errors
/// An unknown option or a threshold off 0..100.
pub(super) fn build_compare_meaning(
    label: &str,
    options: Options<'_>,
) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&["threshold"])?;
    let threshold = options.number_in("threshold", 50.0, 0.0, 100.0)?;
    Ok(Box::new(NamedMethod {
        label: label.to_owned(),
        compare_meaning: Some(threshold),
    }))
}

impl Evaluator for NamedMethod {
    fn evaluate(&self, _inputs: &Inputs<'_>) -> EvalResult {
        EvalResult::skipped(&self.label, super::NO_JUDGE_REASON)
    }

    fn judge(&self, inputs: &Inputs<'_>) -> Option<Result<JudgeCall, Box<EvalResult>>> {
        let text = |name: &str| inputs.get(name).map(render::readable).unwrap_or_default();
        let (question, response, expected) =
            (text("prompt"), text("response"), text("expected_response"));
        let texts = RowTexts {
            question: &question,
            response: &response,
            expected: &expected,
        };
        Some(match self.compare_meaning {
            None => Ok(general_quality(&self.label, texts)),
            Some(_) if expected.trim().is_empty() => Err(Box::new(EvalResult::error(
                &self.label,
                ErrorCode::EvaluatorConfigurationError,
                "CompareMeaning needs the item's expected_response to compare with; it has none",
            ))),
            Some(passing_score) => Ok(compare_meaning(&self.label, texts, passing_score)),
        })
    }
}

#[cfg(test)]
mod tests;
