//! agenteval's JSON value: the shape and method names of `serde_json::Value`, with each object's
//! members kept in order in one vector instead of a hashed map.
//!
//! Dataset objects hold a handful of members, read by a few lookups each; building a hashed map
//! for them (SipHash of every key, an index table beside the entries) cost more than the lookups
//! it served. Here building an object is pushing its members, looking one up compares keys in
//! order, and an insert over an existing key keeps the key's place, as `serde_json`'s
//! `preserve_order` map does. Numbers are `serde_json::Number`, so they are read and written
//! exactly as before. Object equality ignores member order, as `serde_json`'s does.

use std::collections::HashMap;
use std::fmt;

use serde::de::{self, Deserialize, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

pub use serde_json::Number;

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

/// A JSON object: its members in order. `K` is always `String`; the parameters keep the
/// spelling of `serde_json::Map<String, Value>`.
#[derive(Clone)]
pub struct Map<K = String, V = Value> {
    entries: Vec<(K, V)>,
}

/// Objects up to this size are deduplicated by comparing keys pairwise; larger ones by hash.
const PAIRWISE_KEYS: usize = 32;

impl Map<String, Value> {
    /// An empty object.
    pub fn new() -> Self {
        Map {
            entries: Vec::new(),
        }
    }

    /// An empty object with room for `capacity` members.
    pub fn with_capacity(capacity: usize) -> Self {
        Map {
            entries: Vec::with_capacity(capacity),
        }
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The member `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find_map(|(name, value)| (name == key).then_some(value))
    }

    /// The member `key`, to change.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.entries
            .iter_mut()
            .find_map(|(name, value)| (name == key).then_some(value))
    }

    /// Whether the object has a member `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets the member `key` to `value`: in its place when it exists (returning the old value),
    /// else last.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.get_mut(&key) {
            Some(slot) => Some(std::mem::replace(slot, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }

    /// Appends a member the caller knows is not there yet (read from checked JSON text, whose
    /// objects have no duplicate keys).
    pub(crate) fn push_new(&mut self, key: String, value: Value) {
        self.entries.push((key, value));
    }

    /// Sets the member `key` to `value` at `position` (moving it there when it exists, last when
    /// `position` is past the end), keeping the others in order.
    pub fn shift_insert(&mut self, position: usize, key: String, value: Value) -> Option<Value> {
        let old = self.shift_remove(&key);
        let position = position.min(self.entries.len());
        self.entries.insert(position, (key, value));
        old
    }

    /// Removes the member `key`, keeping the others in order.
    pub fn shift_remove(&mut self, key: &str) -> Option<Value> {
        let position = self.entries.iter().position(|(name, _)| name == key)?;
        Some(self.entries.remove(position).1)
    }

    /// Removes the member `key`, keeping the others in order.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.shift_remove(key)
    }

    /// Keeps the members for which `keep` holds.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut Value) -> bool) {
        self.entries.retain_mut(|(key, value)| keep(key, value));
    }

    /// The members in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            inner: self.entries.iter(),
        }
    }

    /// The members in order, their values to change.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut {
            inner: self.entries.iter_mut(),
        }
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.entries.iter().map(|(key, _)| key)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.iter().map(|(_, value)| value)
    }

    /// The values in order, to change.
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, value)| value)
    }

    /// Members from `pairs` in order; a repeated key keeps its first place and its last value,
    /// as inserting them one by one does.
    fn from_pairs(pairs: Vec<(String, Value)>) -> Self {
        if pairs.len() <= PAIRWISE_KEYS {
            let mut map = Map::with_capacity(pairs.len());
            for (key, value) in pairs {
                map.insert(key, value);
            }
            return map;
        }
        let mut places: HashMap<String, usize> = HashMap::with_capacity(pairs.len());
        let mut entries: Vec<(String, Value)> = Vec::with_capacity(pairs.len());
        for (key, value) in pairs {
            match places.get(&key).and_then(|&at| entries.get_mut(at)) {
                Some(slot) => slot.1 = value,
                None => {
                    places.insert(key.clone(), entries.len());
                    entries.push((key, value));
                }
            }
        }
        Map { entries }
    }
}

impl Default for Map<String, Value> {
    fn default() -> Self {
        Map::new()
    }
}

impl fmt::Debug for Map<String, Value> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_map()
            .entries(self.entries.iter().map(|(key, value)| (key, value)))
            .finish()
    }
}

impl PartialEq for Map<String, Value> {
    /// The same members, in any order: compared in order first (the usual case), else by key,
    /// through a hash of `other`'s keys when the objects are large.
    fn eq(&self, other: &Self) -> bool {
        if self.len() != other.len() {
            return false;
        }
        if self.entries == other.entries {
            return true;
        }
        if self.len() <= PAIRWISE_KEYS {
            return self
                .iter()
                .all(|(key, value)| other.get(key).is_some_and(|theirs| theirs == value));
        }
        let theirs: HashMap<&str, &Value> = other
            .iter()
            .map(|(key, value)| (key.as_str(), value))
            .collect();
        self.iter().all(|(key, value)| {
            theirs
                .get(key.as_str())
                .is_some_and(|theirs| *theirs == value)
        })
    }
}

impl std::ops::Index<&str> for Map<String, Value> {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl FromIterator<(String, Value)> for Map<String, Value> {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(pairs: I) -> Self {
        Map::from_pairs(pairs.into_iter().collect())
    }
}

impl Extend<(String, Value)> for Map<String, Value> {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, pairs: I) {
        for (key, value) in pairs {
            self.insert(key, value);
        }
    }
}

/// The members of a [`Map`] in order.
pub struct Iter<'m> {
    inner: std::slice::Iter<'m, (String, Value)>,
}

impl<'m> Iterator for Iter<'m> {
    type Item = (&'m String, &'m Value);

    fn next(&mut self) -> Option<Self::Item> {
        self.inner.next().map(|(key, value)| (key, value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|(key, value)| (key, value))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The members of a [`Map`] in order, their values to change.
pub struct IterMut<'m> {
    inner: std::slice::IterMut<'m, (String, Value)>,
}

impl<'m> Iterator for IterMut<'m> {
    type Item = (&'m String, &'m mut Value);

    fn next(&mut self) -> Option<Self::Item> {
        self.inner.next().map(|(key, value)| (&*key, value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl ExactSizeIterator for IterMut<'_> {}

impl<'m> IntoIterator for &'m Map<String, Value> {
    type Item = (&'m String, &'m Value);
    type IntoIter = Iter<'m>;

    fn into_iter(self) -> Iter<'m> {
        self.iter()
    }
}

impl<'m> IntoIterator for &'m mut Map<String, Value> {
    type Item = (&'m String, &'m mut Value);
    type IntoIter = IterMut<'m>;

    fn into_iter(self) -> IterMut<'m> {
        self.iter_mut()
    }
}

impl IntoIterator for Map<String, Value> {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
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

impl From<serde_json::Value> for Value {
    fn from(value: serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(flag) => Value::Bool(flag),
            serde_json::Value::Number(number) => Value::Number(number),
            serde_json::Value::String(text) => Value::String(text),
            serde_json::Value::Array(elements) => {
                Value::Array(elements.into_iter().map(Value::from).collect())
            }
            serde_json::Value::Object(members) => Value::Object(Map {
                entries: members
                    .into_iter()
                    .map(|(key, value)| (key, Value::from(value)))
                    .collect(),
            }),
        }
    }
}

impl From<Value> for serde_json::Value {
    fn from(value: Value) -> Self {
        match value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(flag) => serde_json::Value::Bool(flag),
            Value::Number(number) => serde_json::Value::Number(number),
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

/// `crate::json!`, giving agenteval's [`Value`].
#[macro_export]
macro_rules! json {
    ($($json:tt)+) => {
        $crate::json::Value::from($crate::json::__serde_json::json!($($json)+))
    };
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

    fn object(pairs: &[(&str, i64)]) -> Map<String, Value> {
        pairs
            .iter()
            .map(|(key, value)| ((*key).to_owned(), Value::from(*value)))
            .collect()
    }

    fn keys(map: &Map<String, Value>) -> Vec<&str> {
        map.keys().map(String::as_str).collect()
    }

    #[test]
    fn inserting_an_existing_key_keeps_its_place_and_returns_the_old_value() {
        let mut map = object(&[("b", 1), ("a", 2)]);
        assert_eq!(
            map.insert("b".to_owned(), Value::from(3)),
            Some(Value::from(1))
        );
        assert_eq!(map.insert("c".to_owned(), Value::from(4)), None);
        assert_eq!(keys(&map), ["b", "a", "c"]);
        assert_eq!(map.get("b"), Some(&Value::from(3)));
        assert_eq!(map.shift_remove("a"), Some(Value::from(2)));
        assert_eq!(map.shift_remove("a"), None);
        assert_eq!(keys(&map), ["b", "c"]);
        assert_eq!(
            map.shift_insert(0, "c".to_owned(), Value::from(5)),
            Some(Value::from(4))
        );
        map.shift_insert(9, "d".to_owned(), Value::Null);
        assert_eq!(keys(&map), ["c", "b", "d"]);
    }

    /// Collecting pairs keeps each key's first place and its last value, as serde_json's
    /// order-preserving map does, below and above the size where repeats are found by hash.
    #[test]
    fn collected_pairs_match_serde_json_for_small_and_large_objects() {
        for size in [0, 3, PAIRWISE_KEYS, PAIRWISE_KEYS + 1, 100] {
            let pairs: Vec<(String, i64)> = (0..size * 2)
                .map(|n| (format!("k{}", (n * 7) % size.max(1)), n as i64))
                .collect();
            let ours: Map<String, Value> = pairs
                .iter()
                .map(|(key, n)| (key.clone(), Value::from(*n)))
                .collect();
            let theirs: serde_json::Map<String, serde_json::Value> = pairs
                .iter()
                .map(|(key, n)| (key.clone(), serde_json::Value::from(*n)))
                .collect();
            let expected: Vec<(String, serde_json::Value)> = theirs.into_iter().collect();
            let got: Vec<(String, serde_json::Value)> = ours
                .into_iter()
                .map(|(key, value)| (key, value.into()))
                .collect();
            assert_eq!(got, expected, "size {size}");
        }
    }

    #[test]
    fn objects_are_equal_whatever_the_order_of_their_members() {
        assert_eq!(object(&[("a", 1), ("b", 2)]), object(&[("b", 2), ("a", 1)]));
        assert_ne!(object(&[("a", 1), ("b", 2)]), object(&[("a", 1), ("b", 3)]));
        assert_ne!(object(&[("a", 1)]), object(&[("a", 1), ("b", 2)]));
        for size in [PAIRWISE_KEYS, PAIRWISE_KEYS + 1, 5_000] {
            let keys: Vec<String> = (0..size).map(|n| format!("k{n}")).collect();
            let forward: Map<String, Value> = keys
                .iter()
                .enumerate()
                .map(|(n, key)| (key.clone(), Value::from(n)))
                .collect();
            let backward: Map<String, Value> = keys
                .iter()
                .enumerate()
                .rev()
                .map(|(n, key)| (key.clone(), Value::from(n)))
                .collect();
            assert_eq!(forward, backward, "{size}");
            let mut changed = backward.clone();
            changed.insert("k0".to_owned(), Value::from(-1));
            assert_ne!(forward, changed, "{size}");
            let mut renamed = backward;
            renamed.shift_remove("k0");
            renamed.insert("other".to_owned(), Value::from(0));
            assert_ne!(forward, renamed, "{size}");
        }
    }

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
