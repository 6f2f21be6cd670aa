//! Reading the replies of Copilot Studio's judged test methods (after Microsoft's "Choose test
//! methods" page): GeneralQuality's four criteria — relevance, groundedness, completeness and
//! whether the agent answered at all (abstention) — each held or not, CompareMeaning's 0–100
//! score, and TextSimilarity's cosine of two embeddings. A reply that does not give every verdict is no verdict (`judgeOutputUnparseable`),
//! never a score. Building the prompts is `evaluators/judged/copilot_studio.rs`'s.

use crate::json::{Map, Value};
use crate::judge::reply::JudgeReply;
use crate::judge::verdict::{score_on, ReadsReply, Scale};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::decimal;

/// GeneralQuality's criteria, in the order the prompt lists them and the explanation names them:
/// `(id, what holds, what failed)`. Each is rated 1 (holds) or 0 (fails).
pub const CRITERIA: [(&str, &str, &str); 4] = [
    ("relevance", "Seems relevant", "Seems irrelevant"),
    ("completeness", "Seems complete", "Seems incomplete"),
    (
        "groundedness",
        "Knowledge sources cited",
        "Knowledge sources not cited",
    ),
    (
        "answered",
        "Answered the question",
        "Abstained from answering",
    ),
];

/// Which Copilot Studio method a reply answers, and how it passes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CopilotMethod {
    /// Every criterion must hold; the score is 100 × the share that hold.
    GeneralQuality,
    /// Passes at a score (0–100) of `passing_score` or more.
    CompareMeaning {
        /// The row's `passingScore_N`, 50 by default.
        passing_score: f64,
    },
    /// The cosine (0–1) of the response's and the expected response's embeddings, passing at
    /// `passing_score` or more.
    TextSimilarity {
        /// The row's `passingScore_N`, 0.5 by default.
        passing_score: f64,
    },
}

impl CopilotMethod {
    /// The threshold its results report: 100 for GeneralQuality (every criterion), else the
    /// passing score.
    pub fn threshold(self) -> f64 {
        match self {
            CopilotMethod::GeneralQuality => 100.0,
            CopilotMethod::CompareMeaning { passing_score }
            | CopilotMethod::TextSimilarity { passing_score } => passing_score,
        }
    }

    /// The result `label` gets from `reply`.
    pub fn result(self, label: &str, reply: &JudgeReply) -> EvalResult {
        match self {
            CopilotMethod::GeneralQuality => general_quality(label, reply),
            CopilotMethod::CompareMeaning { passing_score } => {
                compare_meaning(label, passing_score, reply)
            }
            CopilotMethod::TextSimilarity { passing_score } => {
                text_similarity(label, passing_score, reply)
            }
        }
    }
}

/// Each criterion's verdict, in [`CRITERIA`]'s order, from the reply's `dimensions` list
/// (`{"id", "score": 0 | 1, "reason"}`).
///
/// # Errors
/// No list, an entry that is not an object or names no known criterion, a criterion rated twice
/// or not at all, or a verdict that is not 0 or 1.
pub fn verdicts(reply: &JudgeReply) -> Result<[bool; 4], String> {
    let list = reply
        .object
        .get("dimensions")
        .and_then(Value::as_array)
        .ok_or("the judge's reply has no `dimensions` list giving each criterion's verdict")?;
    let mut held: [Option<bool>; 4] = [None; 4];
    for (position, entry) in list.iter().enumerate() {
        let entry = entry
            .as_object()
            .ok_or_else(|| format!("the judge's `dimensions` entry {position} is not an object"))?;
        let id = entry
            .get("id")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("the judge's `dimensions` entry {position} has no `id` text"))?;
        let slot = CRITERIA
            .iter()
            .position(|(known, _, _)| *known == id)
            .and_then(|index| held.get_mut(index))
            .ok_or_else(|| {
                format!("the judge rated a criterion '{id}' that GeneralQuality does not have")
            })?;
        if slot.is_some() {
            return Err(format!("the judge rated criterion '{id}' more than once"));
        }
        let score = score_on(entry.get("score"), Scale::Binary)
            .map_err(|message| format!("criterion '{id}': {message}"))?;
        *slot = Some(score == 1.0);
    }
    let mut verdicts = [false; 4];
    for ((verdict, rated), (id, _, _)) in verdicts.iter_mut().zip(held).zip(CRITERIA) {
        *verdict = rated
            .ok_or_else(|| format!("the judge's reply gives no verdict on criterion '{id}'"))?;
    }
    Ok(verdicts)
}

/// The explanation of GeneralQuality's verdicts: each criterion's phrase, joined by "; ".
pub fn explanation(verdicts: [bool; 4]) -> String {
    CRITERIA
        .iter()
        .zip(verdicts)
        .map(|((_, holds, fails), held)| if held { *holds } else { *fails })
        .collect::<Vec<_>>()
        .join("; ")
}

fn general_quality(label: &str, reply: &JudgeReply) -> EvalResult {
    let verdicts = match verdicts(reply) {
        Ok(verdicts) => verdicts,
        Err(message) => {
            return EvalResult::error(label, ErrorCode::JudgeOutputUnparseable, message)
        }
    };
    let held = verdicts.iter().filter(|held| **held).count();
    let score = 100.0 * held as f64 / verdicts.len() as f64;
    let mut result = EvalResult::scored(label, held == verdicts.len(), score, 100.0)
        .with_reason(explanation(verdicts));
    let mut criteria = Map::new();
    for ((id, _, _), held) in CRITERIA.iter().zip(verdicts) {
        criteria.insert((*id).to_owned(), Value::Bool(held));
    }
    result.details.insert("criteria", Value::Object(criteria));
    if let Some(reason) = reply
        .reason
        .as_deref()
        .filter(|reason| !reason.trim().is_empty())
    {
        result.details.insert("judge_reason", reason.trim());
    }
    result
}

fn compare_meaning(label: &str, passing_score: f64, reply: &JudgeReply) -> EvalResult {
    let score = match percent(reply.score.as_ref()) {
        Ok(score) => score,
        Err(message) => {
            return EvalResult::error(label, ErrorCode::JudgeOutputUnparseable, message)
        }
    };
    let reason = reply.reason.as_deref().map(str::trim).unwrap_or_default();
    let rule = format!(
        "meaning matched {} of 100 (passes at {})",
        decimal::plain(score),
        decimal::plain(passing_score)
    );
    let reason = if reason.is_empty() {
        rule
    } else {
        format!("{rule}: {reason}")
    };
    EvalResult::scored(label, score >= passing_score, score, passing_score).with_reason(reason)
}

/// TextSimilarity's result: the cosine of the two embeddings in the answer, negative ones
/// counted as 0 (Copilot Studio's scale is 0 to 1).
fn text_similarity(label: &str, passing_score: f64, reply: &JudgeReply) -> EvalResult {
    let vectors: Option<Vec<Vec<f64>>> = reply
        .object
        .get("embeddings")
        .and_then(Value::as_array)
        .and_then(|list| {
            list.iter()
                .map(|vector| {
                    vector
                        .as_array()?
                        .iter()
                        .map(Value::as_f64)
                        .collect::<Option<Vec<f64>>>()
                })
                .collect()
        });
    let cosine = match vectors.as_deref() {
        Some([response, expected]) => cosine(response, expected),
        _ => None,
    };
    let Some(cosine) = cosine else {
        return EvalResult::error(
            label,
            ErrorCode::JudgeOutputUnparseable,
            "the embeddings answer does not hold two non-zero vectors of the same length",
        );
    };
    let score = cosine.clamp(0.0, 1.0);
    EvalResult::scored(label, score >= passing_score, score, passing_score).with_reason(format!(
        "cosine similarity of the embeddings {} (passes at {})",
        decimal::fixed(score, 4),
        decimal::plain(passing_score)
    ))
}

/// The cosine of `a` and `b`; `None` when their lengths differ or either is zero.
pub fn cosine(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norms =
        a.iter().map(|x| x * x).sum::<f64>().sqrt() * b.iter().map(|y| y * y).sum::<f64>().sqrt();
    (norms > 0.0 && norms.is_finite()).then(|| dot / norms)
}

/// A score from 0 to 100: a number or numeric text.
fn percent(member: Option<&Value>) -> Result<f64, String> {
    let score = match member {
        None => return Err("the judge's reply has no score".to_owned()),
        Some(Value::Number(number)) => number.as_f64(),
        Some(Value::String(text)) => text.trim().parse::<f64>().ok(),
        Some(_) => None,
    };
    let shown = member.map(|value| value.to_string()).unwrap_or_default();
    match score {
        Some(score) if score.is_finite() && (0.0..=100.0).contains(&score) => Ok(score),
        Some(_) => Err(format!(
            "the judge's score {shown} is off its scale (0-100)"
        )),
        None => Err(format!("the judge's score {shown} is not a number")),
    }
}

impl ReadsReply for CopilotMethod {
    fn read_reply(&self, label: &str, _threshold: f64, reply: &JudgeReply) -> EvalResult {
        self.result(label, reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::reply::read_verdict;
    use crate::outcome::Verdict;

    fn reply(text: &str) -> JudgeReply {
        read_verdict(text).unwrap()
    }

    fn quality(scores: [&str; 4]) -> String {
        let entries: Vec<String> = CRITERIA
            .iter()
            .zip(scores)
            .map(|((id, _, _), score)| format!("{{\"id\": \"{id}\", \"score\": {score}}}"))
            .collect();
        format!(
            "{{\"reason\": \"checked\", \"dimensions\": [{}], \"status\": \"completed\"}}",
            entries.join(", ")
        )
    }

    #[test]
    fn general_quality_passes_only_when_every_criterion_holds() {
        let all =
            CopilotMethod::GeneralQuality.result("GeneralQuality", &reply(&quality(["1"; 4])));
        assert_eq!(all.result, Verdict::Pass);
        assert_eq!(all.score, Some(100.0));
        assert_eq!(
            all.reason.as_deref(),
            Some("Seems relevant; Seems complete; Knowledge sources cited; Answered the question")
        );
        let two = CopilotMethod::GeneralQuality
            .result("GeneralQuality", &reply(&quality(["1", "0", "0", "1"])));
        assert_eq!(two.result, Verdict::Fail);
        assert_eq!(two.score, Some(50.0));
        assert_eq!(two.threshold, Some(100.0));
        assert_eq!(
            two.reason.as_deref(),
            Some("Seems relevant; Seems incomplete; Knowledge sources not cited; Answered the question")
        );
        let abstained = CopilotMethod::GeneralQuality
            .result("GeneralQuality", &reply(&quality(["1", "1", "1", "0"])));
        assert_eq!(abstained.result, Verdict::Fail);
        assert_eq!(abstained.score, Some(75.0));
    }

    #[test]
    fn a_general_quality_reply_without_every_verdict_is_unparseable() {
        let cases = [
            "{\"reason\": \"no list\", \"score\": 1}".to_owned(),
            quality(["1", "1", "1", "0.5"]),
            quality(["1", "1", "1", "null"]),
            quality(["1", "1", "1", "1"]).replace("answered", "relevance"),
            quality(["1", "1", "1", "1"]).replace("answered", "tone"),
            "{\"dimensions\": [\"relevance\"]}".to_owned(),
            "{\"dimensions\": [{\"id\": \"relevance\", \"score\": 1}]}".to_owned(),
        ];
        for case in cases {
            let result = CopilotMethod::GeneralQuality.result("GeneralQuality", &reply(&case));
            assert_eq!(result.result, Verdict::Error, "{case}");
            assert_eq!(
                result.error.map(|error| error.code),
                Some(ErrorCode::JudgeOutputUnparseable),
                "{case}"
            );
            assert_eq!(result.score, None);
        }
    }

    #[test]
    fn compare_meaning_passes_at_the_passing_score() {
        let method = CopilotMethod::CompareMeaning {
            passing_score: 70.0,
        };
        let at = method.result(
            "CompareMeaning",
            &reply("{\"reason\": \"same idea\", \"score\": 70}"),
        );
        assert_eq!(at.result, Verdict::Pass);
        assert_eq!(at.score, Some(70.0));
        assert_eq!(at.threshold, Some(70.0));
        assert_eq!(
            at.reason.as_deref(),
            Some("meaning matched 70 of 100 (passes at 70): same idea")
        );
        let below = method.result("CompareMeaning", &reply("{\"score\": \"69.5\"}"));
        assert_eq!(below.result, Verdict::Fail);
        for bad in [
            "{\"score\": 101}",
            "{\"score\": -1}",
            "{\"score\": \"high\"}",
            "{\"reason\": \"x\"}",
        ] {
            let result = method.result("CompareMeaning", &reply(bad));
            assert_eq!(
                result.error.map(|error| error.code),
                Some(ErrorCode::JudgeOutputUnparseable),
                "{bad}"
            );
        }
    }
}
