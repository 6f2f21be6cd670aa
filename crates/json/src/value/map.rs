//! [`Map`], a JSON object: its members in order in one vector. Building one is pushing its
//! members, a lookup compares keys in order, and an insert over an existing key keeps the key's
//! place; repeated keys in collected pairs and equality of large objects go through a hash.

use std::collections::HashMap;
use std::fmt;

use super::{Value, NULL};

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

    /// The key and value of the member at `position`, to be overwritten while the object is
    /// rebuilt from checked JSON text (whose objects have no duplicate keys): an empty key and
    /// `null` appended when `position` is the number of members, `None` past that.
    pub(crate) fn member_to_rebuild(
        &mut self,
        position: usize,
    ) -> Option<(&mut String, &mut Value)> {
        if position == self.entries.len() {
            self.entries.push((String::new(), Value::Null));
        }
        let (key, value) = self.entries.get_mut(position)?;
        Some((key, value))
    }

    /// Keeps the first `len` members of an object rebuilt by [`Map::member_to_rebuild`].
    #[inline]
    pub(crate) fn keep_first(&mut self, len: usize) {
        crate::build::keep_first(&mut self.entries, len);
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

    /// Whether some key is held more than once: only an object read by `json::parse_dataset`
    /// can hold one.
    pub fn has_repeated_key(&self) -> bool {
        if self.len() <= PAIRWISE_KEYS {
            return self
                .entries
                .iter()
                .enumerate()
                .any(|(at, (key, _))| self.count_before(at, key) > 0);
        }
        let mut seen: HashMap<&str, &Value> = HashMap::with_capacity(self.len());
        self.iter()
            .any(|(key, value)| seen.insert(key.as_str(), value).is_some())
    }

    /// The keys held more than once, each named once, in the order their second members appear.
    pub fn repeated_keys(&self) -> Vec<&str> {
        if self.len() <= PAIRWISE_KEYS {
            return self
                .entries
                .iter()
                .enumerate()
                .filter(|(at, (key, _))| self.count_before(*at, key) == 1)
                .map(|(_, (key, _))| key.as_str())
                .collect();
        }
        let mut seen: HashMap<&str, &Value> = HashMap::with_capacity(self.len());
        let mut named: HashMap<&str, &Value> = HashMap::new();
        let mut repeated = Vec::new();
        for (key, value) in self.iter() {
            if seen.insert(key.as_str(), value).is_some()
                && named.insert(key.as_str(), value).is_none()
            {
                repeated.push(key.as_str());
            }
        }
        repeated
    }

    /// How many members before position `at` have the key `key`.
    fn count_before(&self, at: usize, key: &str) -> usize {
        self.entries.get(..at).map_or(0, |earlier| {
            earlier.iter().filter(|(other, _)| other == key).count()
        })
    }

    /// Keeps one member per key, in the key's first place with its last value (as Python's
    /// `json` and serde_json read repeated keys).
    pub fn drop_repeated_keys(&mut self) {
        let entries = std::mem::take(&mut self.entries);
        *self = Map::from_pairs(entries);
    }

    /// Members the caller knows have distinct keys, in order.
    pub(super) fn from_distinct(entries: Vec<(String, Value)>) -> Self {
        Map { entries }
    }

    /// Members from `pairs` in order; a repeated key keeps its first place and its last value,
    /// as inserting them one by one does.
    pub(super) fn from_pairs(pairs: Vec<(String, Value)>) -> Self {
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
    /// order-keeping map does, below and above the size where repeats are found by hash.
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

    /// Members pushed as written, repeats included, as `json::parse_dataset` reads them; the
    /// repeated keys are found and dropped alike below and above the size where a hash finds them.
    #[test]
    fn repeated_keys_are_found_in_order_and_dropped_keeping_the_last_value() {
        for size in [1, 2, 5, PAIRWISE_KEYS, PAIRWISE_KEYS + 1, 100] {
            for repeat_every in [0, 1, 3, 7] {
                let names: Vec<String> = (0..size)
                    .map(|n| match n % 7 {
                        _ if repeat_every == 0 => format!("k{n}"),
                        step if step < repeat_every => format!("k{}", n % 5),
                        _ => format!("k{n}"),
                    })
                    .collect();
                let mut map = Map::new();
                for (n, name) in names.iter().enumerate() {
                    map.push_new(name.clone(), Value::from(n));
                }
                let expected_repeats: Vec<&str> = names
                    .iter()
                    .enumerate()
                    .filter(|(at, name)| {
                        names[..*at].iter().filter(|other| other == name).count() == 1
                    })
                    .map(|(_, name)| name.as_str())
                    .collect();
                let case = format!("size {size}, repeats every {repeat_every}");
                assert_eq!(map.repeated_keys(), expected_repeats, "{case}");
                assert_eq!(
                    map.has_repeated_key(),
                    !expected_repeats.is_empty(),
                    "{case}"
                );
                let collected: Map<String, Value> = names
                    .iter()
                    .enumerate()
                    .map(|(n, name)| (name.clone(), Value::from(n)))
                    .collect();
                map.drop_repeated_keys();
                assert!(!map.has_repeated_key(), "{case}");
                assert_eq!(
                    map.iter().collect::<Vec<_>>(),
                    collected.iter().collect::<Vec<_>>(),
                    "{case}"
                );
            }
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
}
