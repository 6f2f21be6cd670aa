//! agenteval's JSON value: the shape and method names of `serde_json::Value`, with each object's
//! members kept in order in one vector instead of a hashed map.
//!
//! Dataset objects hold a handful of members, read by a few lookups each; building a hashed map
//! for them (SipHash of every key, an index table beside the entries) cost more than the lookups
//! it served. Here building an object is pushing its members, looking one up compares keys in
//! order, and an insert over an existing key keeps the key's place, as `serde_json`'s
//! `preserve_order` map does. Numbers are `number`'s: serde_json's, and the integer `-0`, so they
//! are read and written exactly as before, and `-0` as written. Object equality ignores member
//! order, as `serde_json`'s does. The object type is `map`'s; serde reads and writes values
//! through `codec`.

use std::fmt;

mod codec;
mod map;
mod number;

pub use codec::{from_value, to_value};
pub use map::{Iter, IterMut, Map};
pub use number::Number;

/// A JSON value.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as serde_json types it.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, its members in order.
    Object(Map<String, Value>),
}

static NULL: Value = Value::Null;

/// The unescaped reference tokens of a JSON pointer; `None` when it is neither empty nor starts
/// with `/`.
fn pointer_tokens(pointer: &str) -> Option<impl Iterator<Item = String> + '_> {
    let tokens = match pointer {
        "" => None,
        _ => Some(pointer.strip_prefix('/')?.split('/')),
    };
    Some(
        tokens
            .into_iter()
            .flatten()
            .map(|token| token.replace("~1", "/").replace("~0", "~")),
    )
}

/// An array index token: decimal digits without a leading zero.
fn array_position(token: &str) -> Option<usize> {
    let plain = token.bytes().all(|byte| byte.is_ascii_digit())
        && (token == "0" || !token.starts_with('0'));
    token.parse().ok().filter(|_| plain)
}

/// What [`Value::get`] can look up: an object member by key or an array element by position.
pub trait Index {
    /// The value at `self` in `value`.
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value>;
    /// The value at `self` in `value`, to change.
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value>;
}

impl Index for str {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_object()?.get(self)
    }

    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_object_mut()?.get_mut(self)
    }
}

impl Index for String {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(value)
    }

    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(value)
    }
}

impl Index for usize {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_array()?.get(*self)
    }

    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_array_mut()?.get_mut(*self)
    }
}

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        (**self).index_into(value)
    }

    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(value)
    }
}

impl Value {
    /// The member or element at `index`.
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// The member or element at `index`, to change.
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    /// The elements, when this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(elements) => Some(elements),
            _ => None,
        }
    }

    /// The elements, to change, when this is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(elements) => Some(elements),
            _ => None,
        }
    }

    /// The members, when this is an object.
    pub fn as_object(&self) -> Option<&Map<String, Value>> {
        match self {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The members, to change, when this is an object.
    pub fn as_object_mut(&mut self) -> Option<&mut Map<String, Value>> {
        match self {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The boolean, when this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(flag) => Some(*flag),
            _ => None,
        }
    }

    /// The number as `f64`, when this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    /// The number as `i64`, when this is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The number as `u64`, when this is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number, when this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(number) => Some(number),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether this is a boolean.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether this is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// Whether this is a number held as a float.
    pub fn is_f64(&self) -> bool {
        self.as_number().is_some_and(Number::is_f64)
    }

    /// Whether this is an integer that fits `i64`.
    pub fn is_i64(&self) -> bool {
        self.as_number().is_some_and(Number::is_i64)
    }

    /// Whether this is a non-negative integer that fits `u64`.
    pub fn is_u64(&self) -> bool {
        self.as_number().is_some_and(Number::is_u64)
    }

    /// The value at a JSON pointer (RFC 6901), `""` being the value itself.
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        pointer_tokens(pointer)?.try_fold(self, |value, token| match value {
            Value::Object(members) => members.get(&token),
            Value::Array(elements) => elements.get(array_position(&token)?),
            _ => None,
        })
    }

    /// The value at a JSON pointer, to change.
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        pointer_tokens(pointer)?.try_fold(self, |value, token| match value {
            Value::Object(members) => members.get_mut(&token),
            Value::Array(elements) => elements.get_mut(array_position(&token)?),
            _ => None,
        })
    }

    /// Takes the value out, leaving `null`.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
}

impl<I: Index> std::ops::Index<I> for Value {
    type Output = Value;

    /// The member or element at `index`, `null` when there is none.
    fn index(&self, index: I) -> &Value {
        self.get(index).unwrap_or(&NULL)
    }
}

impl fmt::Display for Value {
    /// Compact JSON, as `serde_json::to_string` writes it.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        formatter.write_str(&text)
    }
}

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

impl PartialEq<f64> for Value {
    fn eq(&self, other: &f64) -> bool {
        self.as_f64() == Some(*other)
    }
}

macro_rules! integer_traits {
    ($($integer:ty)*) => {$(
        impl From<$integer> for Value {
            fn from(number: $integer) -> Self {
                Value::Number(Number::from(number))
            }
        }

        impl PartialEq<$integer> for Value {
            /// Whether this is the integer `other`, as serde_json compares them.
            fn eq(&self, other: &$integer) -> bool {
                match i64::try_from(*other) {
                    Ok(signed) => self.as_i64() == Some(signed),
                    Err(_) => u64::try_from(*other).is_ok_and(|unsigned| self.as_u64() == Some(unsigned)),
                }
            }
        }
    )*};
}

integer_traits!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

impl From<bool> for Value {
    fn from(flag: bool) -> Self {
        Value::Bool(flag)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::String(text.to_owned())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::String(text)
    }
}

impl From<Number> for Value {
    fn from(number: Number) -> Self {
        Value::Number(number)
    }
}

impl From<f64> for Value {
    /// The number, or `null` when it is not finite (as serde_json converts).
    fn from(number: f64) -> Self {
        Number::from_f64(number).map_or(Value::Null, Value::Number)
    }
}

impl From<Vec<Value>> for Value {
    fn from(elements: Vec<Value>) -> Self {
        Value::Array(elements)
    }
}

impl From<Map<String, Value>> for Value {
    fn from(members: Map<String, Value>) -> Self {
        Value::Object(members)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Self {
        value.map_or(Value::Null, Into::into)
    }
}

impl FromIterator<Value> for Value {
    fn from_iter<I: IntoIterator<Item = Value>>(elements: I) -> Self {
        Value::Array(elements.into_iter().collect())
    }
}

/// `serde_json::json!`, giving agenteval's [`Value`].
#[macro_export]
macro_rules! json {
    ($($json:tt)+) => {
        $crate::Value::from($crate::__serde_json::json!($($json)+))
    };
}

impl Value {
    /// This value as serde_json reads its text: the integer `-0` as the float `-0.0`. The
    /// tests' oracle.
    #[cfg(test)]
    pub(crate) fn as_serde_json_reads_it(&self) -> Value {
        match self {
            Value::Number(number) if number.is_negative_zero_integer() => Value::from(-0.0),
            Value::Array(elements) => elements.iter().map(Value::as_serde_json_reads_it).collect(),
            Value::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(key, member)| (key.clone(), member.as_serde_json_reads_it()))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_by_key_position_and_pointer() {
        let mut value: Value =
            serde_json::from_str(r#"{"a":[10,{"b/c":1,"d~e":2}],"":{"":3},"01":4}"#).unwrap();
        assert_eq!(value["a"][0], 10);
        assert_eq!(value["a"][1]["b/c"], 1);
        assert!(value["a"][7].is_null());
        assert!(value["missing"]["deeper"].is_null());
        assert_eq!(value.get(String::from("01")), Some(&Value::from(4)));
        assert_eq!(value.pointer("/a/1/b~1c"), Some(&Value::from(1)));
        assert_eq!(value.pointer("/a/1/d~0e"), Some(&Value::from(2)));
        assert_eq!(value.pointer("//"), Some(&Value::from(3)));
        assert_eq!(value.pointer(""), Some(&value.clone()));
        assert_eq!(value.pointer("/a/01"), None);
        assert_eq!(value.pointer("/a/+1"), None);
        assert_eq!(value.pointer("a"), None);
        if let Some(slot) = value.pointer_mut("/a/0") {
            *slot = Value::from("ten");
        }
        assert_eq!(value["a"][0], "ten");
        assert_eq!(
            value.pointer_mut("/a/0").map(Value::take),
            Some(Value::from("ten"))
        );
        assert!(value["a"][0].is_null());
    }

    #[test]
    fn numbers_and_flags_compare_as_serde_json_compares_them() {
        assert_eq!(Value::from(3), 3);
        assert_eq!(Value::from(3), 3u64);
        assert_ne!(Value::from(3), 4);
        assert_ne!(Value::from(3.0), 3);
        assert_eq!(Value::from(3.0), 3.0);
        assert_eq!(Value::from(u64::MAX), u64::MAX);
        assert_ne!(Value::from(-1), u64::MAX);
        assert_eq!(Value::from(true), true);
        assert_eq!(Value::from(f64::NAN), Value::Null);
        assert_eq!(Value::from(Some("x")), "x");
        assert_eq!(Value::from(None::<bool>), Value::Null);
    }
}
