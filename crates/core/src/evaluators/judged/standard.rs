//! What one standard judge is: its class name, prompt, derived figure, threshold rule and the
//! preparation that turns an item into its calls. The table of them is `catalog`'s; the
//! preparations are `quality`'s, `groundedness`'s and `tools`'.

use super::early::Early;
use super::prompt::{PromptSpec, Section};
use crate::inputs::Inputs;
use crate::judge::Extra;

/// One judged turn: the data sections of its call, or its result reached without one.
pub type Turn = Result<Vec<Section>, Early>;

/// An item's turns (one, or one per turn of a conversation), or the result reached before any.
pub type Prepare = fn(&Inputs<'_>, &Judge) -> Result<Vec<Turn>, Early>;

/// One standard judge.
#[derive(Debug, Clone, Copy)]
pub struct Judge {
    /// The reference's class name, for its messages (`RelevanceEvaluator`).
    pub class: &'static str,
    /// Its prompt.
    pub prompt: PromptSpec,
    /// What it derives from the reply's properties.
    pub extra: Extra,
    /// Whether its Foundry id refuses a `threshold` option (the reference's constructor fails on
    /// one).
    pub rejects_threshold: bool,
    /// Its inputs.
    pub prepare: Prepare,
}
