//! Item, turn and thread status derived from evaluator outcomes (M365 rules).

use serde::Serialize;

use crate::outcome::{EvalResult, Verdict};

/// Status of an item, turn or thread.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemStatus {
    /// Every evaluator that ran passed.
    Pass,
    /// Every evaluator that ran gave a verdict and at least one failed.
    Fail,
    /// A response exists but at least one evaluator errored.
    Partial,
    /// No usable response, or the item itself is invalid.
    Error,
}

impl ItemStatus {
    /// Every status, in the order of the variants.
    pub const ALL: [ItemStatus; 4] = [
        ItemStatus::Pass,
        ItemStatus::Fail,
        ItemStatus::Partial,
        ItemStatus::Error,
    ];

    /// The lower-case name used in outputs.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemStatus::Pass => "pass",
            ItemStatus::Fail => "fail",
            ItemStatus::Partial => "partial",
            ItemStatus::Error => "error",
        }
    }
}

/// Status of one item or turn over its non-skipped results; `None` when every evaluator was skipped
/// (or there were none). `has_response` is whether the agent's response is non-empty.
pub fn item_status(results: &[EvalResult], has_response: bool) -> Option<ItemStatus> {
    let mut ran = results
        .iter()
        .filter(|r| r.result != Verdict::Skipped)
        .peekable();
    ran.peek()?;
    if !has_response {
        return Some(ItemStatus::Error);
    }
    let (mut any_fail, mut any_error) = (false, false);
    for result in ran {
        match result.result {
            Verdict::Fail => any_fail = true,
            Verdict::Error => any_error = true,
            Verdict::Pass | Verdict::Skipped => {}
        }
    }
    Some(if any_error {
        ItemStatus::Partial
    } else if any_fail {
        ItemStatus::Fail
    } else {
        ItemStatus::Pass
    })
}

/// Thread rollup: any error → error, else any partial → partial, else any fail → fail, else pass.
/// Turns without a status are ignored; `None` when no turn has one.
pub fn thread_status(turns: impl IntoIterator<Item = Option<ItemStatus>>) -> Option<ItemStatus> {
    turns
        .into_iter()
        .flatten()
        .max_by_key(|status| match status {
            ItemStatus::Pass => 0,
            ItemStatus::Fail => 1,
            ItemStatus::Partial => 2,
            ItemStatus::Error => 3,
        })
}
