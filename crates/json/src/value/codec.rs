//! How [`Value`] meets serde: written and read by any serde format (serde_json's writers, the
//! tests' `serde_json::from_str`), converted to and from `serde_json::Value`, and [`to_value`] /
//! [`from_value`] for typed values.

use std::fmt;

use serde::de::{self, Deserialize, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::{Map, Value};

impl From<serde_json::Value> for Value {
    fn from(value: serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(flag) => Value::Bool(flag),
            serde_json::Value::Number(number) => Value::Number(number.into()),
            serde_json::Value::String(text) => Value::String(text),
            serde_json::Value::Array(elements) => {
                Value::Array(elements.into_iter().map(Value::from).collect())
            }
            serde_json::Value::Object(members) => Value::Object(Map::from_distinct(
                members
                    .into_iter()
                    .map(|(key, value)| (key, Value::from(value)))
                    .collect(),
            )),
        }
    }
}

impl From<Value> for serde_json::Value {
    fn from(value: Value) -> Self {
        match value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(flag) => serde_json::Value::Bool(flag),
            Value::Number(number) => serde_json::Value::Number(number.into()),
            Value::String(text) => serde_json::Value::String(text),
            Value::Array(elements) => {
                serde_json::Value::Array(elements.into_iter().map(Into::into).collect())
            }
            Value::Object(members) => serde_json::Value::Object(
                members
                    .into_iter()
                    .map(|(key, value)| (key, value.into()))
                    .collect(),
            ),
        }
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(flag) => serializer.serialize_bool(*flag),
            Value::Number(number) => number.serialize(serializer),
            Value::String(text) => serializer.serialize_str(text),
            Value::Array(elements) => elements.serialize(serializer),
            Value::Object(members) => members.serialize(serializer),
        }
    }
}

impl Serialize for Map<String, Value> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (key, value) in self {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Value {
    /// Any value; a repeated key keeps its first place and its last value, as serde_json's
    /// `Value` reads it. (`crate::json::parse` is the strict reader for documents.)
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(PlainVisitor)
    }
}

impl<'de> Deserialize<'de> for Map<String, Value> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            Value::Object(members) => Ok(members),
            other => Err(de::Error::invalid_type(
                unexpected(&other),
                &"a JSON object",
            )),
        }
    }
}

fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(flag) => de::Unexpected::Bool(*flag),
        Value::Number(_) => de::Unexpected::Other("number"),
        Value::String(text) => de::Unexpected::Str(text),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

struct PlainVisitor;

impl<'de> Visitor<'de> for PlainVisitor {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<Value, E> {
        Ok(Value::Bool(flag))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Value, E> {
        Ok(Value::from(number))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Value, E> {
        Ok(Value::from(number))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<Value, E> {
        Ok(Value::from(number))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Value, E> {
        Ok(Value::from(text))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Value, E> {
        Ok(Value::String(text))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Value::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(element) = seq.next_element()? {
            elements.push(element);
        }
        Ok(Value::Array(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut pairs = Vec::new();
        while let Some((key, value)) = access.next_entry::<String, Value>()? {
            pairs.push((key, value));
        }
        Ok(Value::Object(Map::from_pairs(pairs)))
    }
}

/// `value` as a [`Value`], as `serde_json::to_value` gives it.
///
/// # Errors
/// When `value` cannot be written as JSON (a map with keys that are not strings).
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, serde_json::Error> {
    serde_json::to_value(value).map(Value::from)
}

/// A `T` read from `value`, as `serde_json::from_value` reads it.
///
/// # Errors
/// When `value` does not have `T`'s shape.
pub fn from_value<T: de::DeserializeOwned>(value: Value) -> Result<T, serde_json::Error> {
    serde_json::from_value(serde_json::Value::from(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_and_read_as_serde_json_writes_and_reads() {
        let text =
            r#"{"z":[1,-2,2.5,1e300,18446744073709551615,true,null],"a":{"é\n":"x\"y"},"m":{}}"#;
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        let ours: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_string(&ours).unwrap(),
            serde_json::to_string(&theirs).unwrap()
        );
        assert_eq!(
            serde_json::to_string_pretty(&ours).unwrap(),
            serde_json::to_string_pretty(&theirs).unwrap()
        );
        assert_eq!(ours.to_string(), theirs.to_string());
        assert_eq!(Value::from(theirs.clone()), ours);
        assert_eq!(serde_json::Value::from(ours.clone()), theirs);
        let repeated: Value = serde_json::from_str(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(repeated.to_string(), r#"{"a":3,"b":2}"#);
        let map: Map<String, Value> = from_value(ours.clone()).unwrap();
        assert_eq!(Value::Object(map), ours);
        assert!(from_value::<Map<String, Value>>(Value::from(1)).is_err());
    }
}
