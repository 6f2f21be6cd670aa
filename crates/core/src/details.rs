//! [`Details`]: an evaluator's extra result fields, in the order they were added.
//!
//! Results carry a handful of details each, so a list searched front to back is cheaper than a
//! hashed map: no key hashing, and fixed keys are borrowed instead of copied.

use std::borrow::Cow;
use std::ops::Index;

use crate::json::{Map, Value};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// Room made at the first insert: enough for every built-in evaluator's details, so that none
/// grows the list a second time (a vector's first growth makes room for four).
const FIRST_ROOM: usize = 8;

/// Evaluator-specific fields of a result: keys unique, in insertion order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Details(Vec<(Cow<'static, str>, Value)>);

impl Details {
    /// No details.
    pub const fn new() -> Self {
        Details(Vec::new())
    }

    /// Sets `key` to `value`; an existing key keeps its place.
    pub fn insert(&mut self, key: impl Into<Cow<'static, str>>, value: impl Into<Value>) {
        let key = key.into();
        let value = value.into();
        match self.0.iter_mut().find(|(existing, _)| *existing == key) {
            Some(entry) => entry.1 = value,
            None => {
                if self.0.capacity() == 0 {
                    self.0.reserve_exact(FIRST_ROOM);
                }
                self.0.push((key, value));
            }
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0
            .iter()
            .find(|(existing, _)| existing == key)
            .map(|(_, value)| value)
    }

    /// Number of details.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The details in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value)> {
        self.0.iter().map(|(key, value)| (key.as_ref(), value))
    }

    /// The details as a JSON object.
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter()
            .map(|(key, value)| (key.to_owned(), value.clone()))
            .collect()
    }
}

impl From<Map<String, Value>> for Details {
    fn from(map: Map<String, Value>) -> Self {
        Details(
            map.into_iter()
                .map(|(key, value)| (Cow::Owned(key), value))
                .collect(),
        )
    }
}

/// `details["key"]` is the value, or `null` when the key is absent, as with [`Value`].
impl Index<&str> for Details {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

impl Serialize for Details {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (key, value) in self.iter() {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;

    #[test]
    fn keys_stay_unique_and_in_first_insertion_order() {
        let mut details = Details::new();
        details.insert("b", 1);
        details.insert(String::from("a"), "x");
        details.insert("b", 2);
        assert_eq!(details.len(), 2);
        assert_eq!(
            details.iter().collect::<Vec<_>>(),
            [("b", &json!(2)), ("a", &json!("x"))]
        );
        assert_eq!(
            serde_json::to_string(&details).unwrap(),
            r#"{"b":2,"a":"x"}"#
        );
    }

    #[test]
    fn lookups_and_conversions_agree_with_a_json_object() {
        let object = json!({"z": [1], "m": {"k": null}, "a": true});
        let map = object.as_object().unwrap().clone();
        let details = Details::from(map.clone());
        assert_eq!(details.get("m"), Some(&json!({"k": null})));
        assert_eq!(details["a"], json!(true));
        assert_eq!(details["absent"], Value::Null);
        assert_eq!(details.get("absent"), None);
        assert_eq!(details.to_map(), map);
        assert_eq!(
            crate::json::to_value(&details).unwrap(),
            Value::Object(details.to_map())
        );
        assert_eq!(
            serde_json::to_string(&details).unwrap(),
            serde_json::to_string(&map).unwrap()
        );
    }
}
