//! Reading a rubric judge's reply (spec §2, Foundry's rubric evaluators): one reply rates every
//! dimension of the rubric 1–5 with a reason and says which apply; the score is the weighted mean
//! Σ w·s / (5·Σ w) over the applicable dimensions, from 0 to 1. Every dimension must be rated
//! exactly once, and one the rubric marks `always_applicable` must apply: anything else is no
//! verdict (`judgeOutputUnparseable`), never a score. Building the prompt is the evaluator's
//! (`evaluators/judged/rubric.rs`), not this module's.

use crate::json::{Map, Value};
use crate::judge::reply::JudgeReply;
use crate::judge::verdict::{score_on, ReadsReply, Scale};
use crate::outcome::{ErrorCode, EvalResult};
use crate::text::decimal;

/// One dimension of a rubric, as configured.
#[derive(Debug, Clone, PartialEq)]
pub struct Dimension {
    /// Its id, unique in the rubric.
    pub id: String,
    /// Its weight, greater than 0.
    pub weight: f64,
    /// Whether the judge must rate it on every item.
    pub always_applicable: bool,
    /// The scale of its score (1–5 for a rubric's dimensions).
    pub scale: Scale,
    /// The rubric's grouping of it (`category`), when given.
    pub category: Option<String>,
}

/// A rubric: its dimensions, in the order configured.
#[derive(Debug, Clone, PartialEq)]
pub struct Rubric {
    /// The dimensions (at least one; ids unique).
    pub dimensions: Vec<Dimension>,
}

/// The judge's rating of one dimension.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    /// The dimension's id.
    pub id: String,
    /// Its weight.
    pub weight: f64,
    /// Its score, 1–5; `None` when it does not apply.
    pub score: Option<f64>,
    /// The judge's reason, when it gave one.
    pub reason: Option<String>,
    /// The dimension's category, when the rubric gives one.
    pub category: Option<String>,
}

/// Σ w·s / (5·Σ w) over the `(weight, score)` pairs; `None` when there are none.
pub fn weighted_score(pairs: impl IntoIterator<Item = (f64, f64)>) -> Option<f64> {
    let (weighted, weights) = pairs
        .into_iter()
        .fold((0.0, 0.0), |(weighted, weights), (weight, score)| {
            (weighted + weight * score, weights + weight)
        });
    (weights > 0.0).then(|| weighted / (5.0 * weights))
}

impl Rubric {
    /// The rating of every dimension, in the rubric's order, from `reply`'s `dimensions` list.
    ///
    /// # Errors
    /// Why the reply is no rating of this rubric: no list, an entry without a known id, a
    /// dimension rated twice or not at all, a score off the 1–5 scale, an `applicable` that is
    /// not a boolean, or an `always_applicable` dimension marked not applicable.
    pub fn ratings(&self, reply: &JudgeReply) -> Result<Vec<Rating>, String> {
        let list = reply
            .object
            .get("dimensions")
            .or_else(|| reply.properties.get("dimensions"))
            .and_then(Value::as_array)
            .ok_or("the judge's reply has no `dimensions` list rating the rubric's dimensions")?;
        let mut rated: Vec<Option<Rating>> = vec![None; self.dimensions.len()];
        for (position, entry) in list.iter().enumerate() {
            let entry = entry.as_object().ok_or_else(|| {
                format!("the judge's `dimensions` entry {position} is not an object")
            })?;
            let id = entry.get("id").and_then(Value::as_str).ok_or_else(|| {
                format!("the judge's `dimensions` entry {position} has no `id` text")
            })?;
            let index = self
                .dimensions
                .iter()
                .position(|dimension| dimension.id == id)
                .ok_or_else(|| {
                    format!("the judge rated a dimension '{id}' that the rubric does not have")
                })?;
            let (Some(slot), Some(dimension)) = (rated.get_mut(index), self.dimensions.get(index))
            else {
                continue;
            };
            if slot.is_some() {
                return Err(format!("the judge rated dimension '{id}' more than once"));
            }
            *slot = Some(rate(dimension, entry)?);
        }
        self.dimensions
            .iter()
            .zip(rated)
            .map(|(dimension, rating)| {
                rating.ok_or_else(|| {
                    format!(
                        "the judge's reply does not rate dimension '{}'",
                        dimension.id
                    )
                })
            })
            .collect()
    }

    /// The result `label` gets from `reply` at `threshold`: the weighted score, passing at
    /// `score >= threshold`; `skipped` when no dimension applies; `judgeOutputUnparseable` when
    /// the reply is no rating of this rubric. The ratings go into `details.dimension_scores` and,
    /// shortened, into the reason, so that every report format shows them.
    pub fn result(&self, label: &str, threshold: f64, reply: &JudgeReply) -> EvalResult {
        let ratings = match self.ratings(reply) {
            Ok(ratings) => ratings,
            Err(message) => {
                return EvalResult::error(label, ErrorCode::JudgeOutputUnparseable, message)
            }
        };
        let score = weighted_score(
            ratings
                .iter()
                .filter_map(|rating| rating.score.map(|score| (rating.weight, score))),
        );
        let overall = reply.reason.as_deref().map(str::trim).unwrap_or_default();
        let mut result = match score {
            Some(score) => {
                let summary = summary(&ratings);
                let reason = if overall.is_empty() {
                    summary
                } else if overall.ends_with(['.', '!', '?']) {
                    format!("{overall} {summary}")
                } else {
                    format!("{overall}. {summary}")
                };
                EvalResult::scored(label, score >= threshold, score, threshold).with_reason(reason)
            }
            None => {
                let why = if overall.is_empty() {
                    "the judge found none of the rubric's dimensions applicable"
                } else {
                    overall
                };
                let mut skipped = EvalResult::skipped(label, format!("Not applicable: {why}"));
                skipped.threshold = Some(threshold);
                skipped
            }
        };
        result.details.insert(
            "dimension_scores",
            Value::Array(ratings.iter().map(rating_value).collect()),
        );
        result
    }
}

/// One entry of the reply's `dimensions` list, checked against `dimension`.
fn rate(dimension: &Dimension, entry: &Map<String, Value>) -> Result<Rating, String> {
    let id = &dimension.id;
    let applicable = match entry.get("applicable") {
        None => !matches!(entry.get("score"), None | Some(Value::Null)),
        Some(Value::Bool(applicable)) => *applicable,
        Some(other) => {
            return Err(format!(
                "the judge's `applicable` for dimension '{id}' is {other}, not true or false"
            ))
        }
    };
    if !applicable && dimension.always_applicable {
        return Err(format!(
            "the judge marked dimension '{id}' not applicable, but the rubric sets \
             always_applicable for it: it must be rated on every item"
        ));
    }
    let score = if applicable {
        let score = score_on(entry.get("score"), dimension.scale)
            .map_err(|message| format!("dimension '{id}': {message}"))?;
        Some(score)
    } else {
        None
    };
    Ok(Rating {
        id: id.clone(),
        weight: dimension.weight,
        score,
        reason: entry
            .get("reason")
            .and_then(Value::as_str)
            .map(|reason| reason.trim().to_owned()),
        category: dimension.category.clone(),
    })
}

/// `Dimensions: id 5/5 (weight 9): reason; other not applicable: reason.`
fn summary(ratings: &[Rating]) -> String {
    let parts: Vec<String> = ratings
        .iter()
        .map(|rating| {
            let head = match rating.score {
                Some(score) => format!(
                    "{} {}/5 (weight {})",
                    rating.id,
                    decimal::plain(score),
                    decimal::plain(rating.weight)
                ),
                None => format!("{} not applicable", rating.id),
            };
            match rating.reason.as_deref().filter(|reason| !reason.is_empty()) {
                Some(reason) => format!("{head}: {}", reason.trim_end_matches('.')),
                None => head,
            }
        })
        .collect();
    format!("Dimensions: {}.", parts.join("; "))
}

/// A rating as the seed's `dimension_scores` entry: `{id, score, applicable, weight, reason}`,
/// with `category` after `id` when the rubric gives one.
fn rating_value(rating: &Rating) -> Value {
    let mut entry = Map::new();
    entry.insert("id".into(), Value::from(rating.id.as_str()));
    if let Some(category) = &rating.category {
        entry.insert("category".into(), Value::from(category.as_str()));
    }
    entry.insert("score".into(), rating.score.map_or(Value::Null, number));
    entry.insert("applicable".into(), Value::from(rating.score.is_some()));
    entry.insert("weight".into(), number(rating.weight));
    entry.insert(
        "reason".into(),
        rating.reason.as_deref().map_or(Value::Null, Value::from),
    );
    Value::Object(entry)
}

/// A whole number as an integer (`9`, as the seed writes weights and scores), any other as it is.
pub(super) fn number(value: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if value.fract() == 0.0 && value.abs() < EXACT {
        Value::from(value as i64)
    } else {
        Value::from(value)
    }
}

impl ReadsReply for Rubric {
    fn read_reply(&self, label: &str, threshold: f64, reply: &JudgeReply) -> EvalResult {
        self.result(label, threshold, reply)
    }
}

#[cfg(test)]
mod tests;
