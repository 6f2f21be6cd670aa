//! The named inputs one evaluator sees for one item or turn.
//!
//! Every dialect reduces an item to a small list of `(name, value)` pairs (`response`,
//! `expected_response`, `ground_truth`, `diagnostics`, …). Following azure-ai-evaluation, an input
//! whose value is JSON `null` is the same as an input that was not given.

use crate::json::{Map, Value};

/// Borrowed named inputs of one item or turn.
#[derive(Debug, Clone, Default)]
pub struct Inputs<'a> {
    entries: Vec<(&'a str, &'a Value)>,
    /// The item's (or Foundry row's) own fields, for prompt templates that name any of them.
    fields: Option<&'a Map<String, Value>>,
}

impl<'a> Inputs<'a> {
    /// An empty input set.
    pub fn new() -> Self {
        Inputs {
            entries: Vec::new(),
            fields: None,
        }
    }

    /// An empty input set with room for `names` inputs.
    pub fn with_capacity(names: usize) -> Self {
        Inputs {
            entries: Vec::with_capacity(names),
            fields: None,
        }
    }

    /// Adds (or replaces) the input `name`.
    pub fn set(&mut self, name: &'a str, value: &'a Value) {
        match self.entries.iter_mut().find(|(key, _)| *key == name) {
            Some(entry) => entry.1 = value,
            None => self.entries.push((name, value)),
        }
    }

    /// Builder form of [`Inputs::set`].
    pub fn with(mut self, name: &'a str, value: &'a Value) -> Self {
        self.set(name, value);
        self
    }

    /// Gives access to the item's own fields (see [`Inputs::field`]).
    pub fn set_fields(&mut self, fields: &'a Map<String, Value>) {
        self.fields = Some(fields);
    }

    /// The item's field at `path` (`["answer", "text"]`; an array element by its index), or
    /// `None` when it is absent or `null`.
    pub fn field(&self, path: &[&str]) -> Option<&'a Value> {
        field_at(self.fields?, path).filter(|value| !value.is_null())
    }

    /// The input `name`, or `None` when it is absent or `null`.
    pub fn get(&self, name: &str) -> Option<&'a Value> {
        self.entries
            .iter()
            .find(|(key, value)| *key == name && !value.is_null())
            .map(|(_, value)| *value)
    }

    /// The agent's `response` text, or the `emptyAgentResponse` error result `label` reports when
    /// it is missing (the engine normally catches that first).
    ///
    /// # Errors
    /// The error result to return as is.
    pub fn response(&self, label: &str) -> Result<&'a str, Box<crate::outcome::EvalResult>> {
        self.str("response").ok_or_else(|| {
            Box::new(crate::outcome::EvalResult::error(
                label,
                crate::outcome::ErrorCode::EmptyAgentResponse,
                "the agent response is missing",
            ))
        })
    }

    /// The input `name` when it is a string.
    pub fn str(&self, name: &str) -> Option<&'a str> {
        self.get(name).and_then(Value::as_str)
    }
}

/// The value at `path` in `fields`: each segment a member name, or an array element's index.
pub fn field_at<'a, S: AsRef<str>>(
    fields: &'a Map<String, Value>,
    path: &[S],
) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    rest.iter()
        .try_fold(fields.get(first.as_ref())?, |value, segment| match value {
            Value::Object(object) => object.get(segment.as_ref()),
            Value::Array(items) => items.get(segment.as_ref().parse::<usize>().ok()?),
            _ => None,
        })
}
