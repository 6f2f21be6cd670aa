//! Reading a retrieval-entailment judge's reply (RetrievalResult's `match: "entailment"`, schema
//! ≥ 1.6): one reply says, for every expected item, which of the hits shown entail it. Every item
//! must be answered exactly once with hit numbers that were shown; anything else is no verdict
//! (`judgeOutputUnparseable`). Turning the matches into RetrievalResult's result is the
//! evaluator's, handed over as [`Entailment::finish`]; building the prompt is its too.

use std::sync::Arc;

use crate::json::Value;
use crate::judge::reply::JudgeReply;
use crate::judge::verdict::ReadsReply;
use crate::outcome::{ErrorCode, EvalResult};

/// The result from the best (lowest-numbered) entailing hit of each item, `None` for none.
pub type Finish = dyn Fn(&[Option<usize>]) -> EvalResult + Send + Sync;

/// What an entailment reply must answer, and how its answer becomes the result.
#[derive(Clone)]
pub struct Entailment {
    /// How many expected items the prompt numbered (1 to `items`).
    pub items: usize,
    /// How many hits it numbered (1 to `hits`), in rank order.
    pub hits: usize,
    /// The result, from each item's best entailing hit (a 0-based hit index).
    pub finish: Arc<Finish>,
}

impl std::fmt::Debug for Entailment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entailment")
            .field("items", &self.items)
            .field("hits", &self.hits)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Entailment {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
            && self.hits == other.hits
            && Arc::ptr_eq(&self.finish, &other.finish)
    }
}

impl Entailment {
    /// Each item's best entailing hit (0-based), from `reply`'s `items` list
    /// `[{"item": n, "entailed_by": [hit numbers]}]`.
    ///
    /// # Errors
    /// Why the reply is no answer: no list, an entry without a known item number, an item
    /// answered twice or not at all, or a hit number that was not shown.
    pub fn matches(&self, reply: &JudgeReply) -> Result<Vec<Option<usize>>, String> {
        let list = reply
            .object
            .get("items")
            .and_then(Value::as_array)
            .ok_or("the judge's reply has no `items` list answering for the expected items")?;
        let mut answered: Vec<Option<Option<usize>>> = vec![None; self.items];
        for (position, entry) in list.iter().enumerate() {
            let number = entry
                .get("item")
                .and_then(Value::as_u64)
                .and_then(|number| usize::try_from(number).ok())
                .filter(|number| (1..=self.items).contains(number))
                .ok_or_else(|| {
                    format!(
                        "the judge's `items` entry {position} has no `item` number from 1 to {}",
                        self.items
                    )
                })?;
            let hits = entry
                .get("entailed_by")
                .and_then(Value::as_array)
                .ok_or_else(|| {
                    format!("the judge's answer for item {number} has no `entailed_by` list")
                })?;
            let mut best: Option<usize> = None;
            for hit in hits {
                let shown = hit
                    .as_u64()
                    .and_then(|hit| usize::try_from(hit).ok())
                    .filter(|hit| (1..=self.hits).contains(hit))
                    .ok_or_else(|| {
                        format!(
                            "the judge says hit {hit} entails item {number}, but the hits shown \
                             are numbered 1 to {}",
                            self.hits
                        )
                    })?;
                best = Some(best.map_or(shown - 1, |known| known.min(shown - 1)));
            }
            let Some(slot) = answered.get_mut(number - 1) else {
                continue;
            };
            if slot.is_some() {
                return Err(format!(
                    "the judge answered for item {number} more than once"
                ));
            }
            *slot = Some(best);
        }
        answered
            .into_iter()
            .enumerate()
            .map(|(index, answer)| {
                answer.ok_or_else(|| {
                    format!("the judge's reply does not answer for item {}", index + 1)
                })
            })
            .collect()
    }

    /// The result `label` gets from `reply`; the judge's reason goes into `details.judge_reason`.
    pub fn result(&self, label: &str, reply: &JudgeReply) -> EvalResult {
        match self.matches(reply) {
            Ok(matches) => {
                let mut result = (self.finish)(&matches);
                if let Some(reason) = reply.reason.as_deref().filter(|reason| !reason.is_empty()) {
                    result.details.insert("judge_reason", reason);
                }
                result
            }
            Err(message) => EvalResult::error(label, ErrorCode::JudgeOutputUnparseable, message),
        }
    }
}

impl ReadsReply for Entailment {
    fn read_reply(&self, label: &str, _threshold: f64, reply: &JudgeReply) -> EvalResult {
        self.result(label, reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::reply::read_verdict;
    use crate::outcome::Verdict;

    fn entailment() -> Entailment {
        Entailment {
            items: 2,
            hits: 3,
            finish: Arc::new(|matches: &[Option<usize>]| {
                let found = matches.iter().filter(|found| found.is_some()).count();
                EvalResult::scored("RetrievalResult", found == matches.len(), found as f64, 1.0)
                    .with_reason(format!("{matches:?}"))
            }),
        }
    }

    fn matches(content: &str) -> Result<Vec<Option<usize>>, String> {
        entailment().matches(&read_verdict(content).expect("JSON"))
    }

    #[test]
    fn each_item_takes_its_best_ranked_entailing_hit() {
        assert_eq!(
            matches(
                r#"{"items": [{"item": 2, "entailed_by": []}, {"item": 1, "entailed_by": [3, 2]}]}"#
            ),
            Ok(vec![Some(1), None])
        );
        let reply = read_verdict(
            r#"{"reason": "both stated", "items": [{"item": 1, "entailed_by": [1]}, {"item": 2, "entailed_by": [2]}]}"#,
        )
        .expect("JSON");
        let result = entailment().result("RetrievalResult", &reply);
        assert_eq!(result.result, Verdict::Pass);
        assert_eq!(result.reason.as_deref(), Some("[Some(0), Some(1)]"));
        assert_eq!(
            result.details.get("judge_reason"),
            Some(&Value::from("both stated"))
        );
    }

    #[test]
    fn answers_that_miss_repeat_or_invent_are_no_verdict() {
        for (content, expected) in [
            (r#"{"reason": "x"}"#, "no `items` list"),
            (
                r#"{"items": [{"item": 1, "entailed_by": []}]}"#,
                "does not answer for item 2",
            ),
            (
                r#"{"items": [{"item": 3, "entailed_by": []}]}"#,
                "no `item` number from 1 to 2",
            ),
            (
                r#"{"items": [{"item": 1, "entailed_by": [4]}, {"item": 2, "entailed_by": []}]}"#,
                "hit 4 entails item 1",
            ),
            (
                r#"{"items": [{"item": 1, "entailed_by": ["1"]}, {"item": 2, "entailed_by": []}]}"#,
                "hit \"1\"",
            ),
            (
                r#"{"items": [{"item": 1}, {"item": 2, "entailed_by": []}]}"#,
                "no `entailed_by` list",
            ),
            (
                r#"{"items": [{"item": 1, "entailed_by": []}, {"item": 1, "entailed_by": []}]}"#,
                "item 1 more than once",
            ),
        ] {
            let error = matches(content).expect_err(content);
            assert!(error.contains(expected), "{content}: {error}");
        }
        let reply = read_verdict(r#"{"items": []}"#).expect("JSON");
        let result = entailment().result("RetrievalResult", &reply);
        assert_eq!(
            result.error.map(|error| error.code),
            Some(ErrorCode::JudgeOutputUnparseable)
        );
    }
}
