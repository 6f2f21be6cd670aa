//! Which `oneOf`/`anyOf` branch a value that fits none was most plausibly meant to be, so that
//! only that branch's errors are reported: an item with `turns` is a thread, a score with
//! `"result": "error"` is an errored score.
//!
//! Ranking looks at discriminators only (`const`/`enum` fields, required and forbidden fields),
//! then at how much of the value the branch knows; it never reports anything itself.

use crate::json::Value;

use super::compile::{Node, NodeId};
use super::values::{equal, has_type};

const MAX_REFERENCE_CHAIN: usize = 32;
const MAX_WEIGHT: usize = 10_000;

/// Ranks branches of one compiled schema.
pub(super) struct Ranker<'s> {
    nodes: &'s [Node],
}

impl<'s> Ranker<'s> {
    /// A ranker over the compiled nodes.
    pub(super) fn new(nodes: &'s [Node]) -> Self {
        Ranker { nodes }
    }

    fn node(&self, id: NodeId) -> Option<&'s Node> {
        self.nodes.get(id)
    }

    /// The node `id` ends at after following `$ref`s that carry nothing else.
    pub(super) fn resolve(&self, mut id: NodeId) -> Option<&'s Node> {
        for _ in 0..MAX_REFERENCE_CHAIN {
            let node = self.node(id)?;
            match node.reference {
                Some(target) if is_bare_reference(node) => id = target,
                _ => return Some(node),
            }
        }
        None
    }

    pub(super) fn branch_name(&self, id: NodeId) -> String {
        let direct = self.node(id).and_then(|node| node.name.clone());
        direct
            .or_else(|| self.resolve(id).and_then(|node| node.name.clone()))
            .unwrap_or_else(|| "an unnamed shape".to_owned())
    }

    /// How plausible `branch` is for `value`, higher first: its discriminator signal, then how
    /// much of the value it knows.
    pub(super) fn rank(&self, branch: NodeId, value: &Value) -> (i64, usize) {
        (
            self.signal(branch, value, 0),
            self.coverage(branch, value, 0),
        )
    }

    /// How well `value` fits the branch's discriminators: matching `const`/`enum` fields count
    /// most, then present required fields; a forbidden field present counts against it.
    fn signal(&self, id: NodeId, value: &Value, depth: usize) -> i64 {
        let Some(node) = self.node(id) else {
            return 0;
        };
        let mut score = match node.reference {
            Some(target) if depth < MAX_REFERENCE_CHAIN => self.signal(target, value, depth + 1),
            _ => 0,
        };
        if let Some(types) = node.types {
            score += if has_type(types, value) { 1 } else { -5 };
        }
        let Value::Object(object) = value else {
            return score;
        };
        for key in &node.required {
            score += if object.contains_key(key) { 1 } else { -1 };
        }
        for (key, child) in &node.properties {
            if let Some(field) = object.get(key) {
                score += self.discriminates(*child, field);
            }
        }
        if let Some(forbidden) = node.not.and_then(|not| self.node(not)) {
            if forbidden.is_required_only()
                && forbidden.required.iter().all(|k| object.contains_key(k))
            {
                score -= 1;
            }
        }
        score
    }

    fn discriminates(&self, id: NodeId, value: &Value) -> i64 {
        let Some(node) = self.resolve_constraints(id) else {
            return 0;
        };
        let matched = match (&node.constant, &node.enumeration) {
            (Some(constant), _) => equal(constant, value),
            (None, Some(choices)) => choices.iter().any(|choice| equal(choice, value)),
            (None, None) => return 0,
        };
        if matched {
            3
        } else {
            -3
        }
    }

    fn resolve_constraints(&self, mut id: NodeId) -> Option<&'s Node> {
        for _ in 0..MAX_REFERENCE_CHAIN {
            let node = self.node(id)?;
            match node.reference {
                Some(target) if node.constant.is_none() && node.enumeration.is_none() => {
                    id = target;
                }
                _ => return Some(node),
            }
        }
        None
    }

    /// How much of an object's content the branch knows: the size of the values under its
    /// declared properties.
    fn coverage(&self, id: NodeId, value: &Value, depth: usize) -> usize {
        let (Some(node), Value::Object(object)) = (self.node(id), value) else {
            return 0;
        };
        let inherited = match node.reference {
            Some(target) if depth < MAX_REFERENCE_CHAIN => self.coverage(target, value, depth + 1),
            _ => 0,
        };
        node.properties
            .iter()
            .filter_map(|(key, _)| object.get(key))
            .map(weight)
            .fold(inherited, usize::saturating_add)
    }
}

fn is_bare_reference(node: &Node) -> bool {
    node.types.is_none()
        && node.properties.is_empty()
        && node.required.is_empty()
        && node.constant.is_none()
        && node.enumeration.is_none()
        && node.one_of.is_empty()
        && node.any_of.is_empty()
        && node.not.is_none()
}

/// The number of JSON values in `value`, counted up to a cap.
fn weight(value: &Value) -> usize {
    let mut pending = vec![value];
    let mut total = 0;
    while let Some(current) = pending.pop() {
        total += 1;
        if total >= MAX_WEIGHT {
            break;
        }
        match current {
            Value::Array(items) => pending.extend(items),
            Value::Object(object) => pending.extend(object.values()),
            _ => {}
        }
    }
    total
}
