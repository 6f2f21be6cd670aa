//! The input limits a JSON Schema cannot express: no string or object key longer than
//! [`MAX_STRING_BYTES`], and no key twice in one object. The strict JSON reader rejects such text
//! at its line and column; a dataset read without those two checks (`json::parse_dataset`) is
//! checked here instead, so that a problem inside one item makes only that item an error. Its
//! repeated keys are then dropped ([`drop_repeated_keys`]), so that what is written out holds
//! each key once.

use crate::diagnostic::Diagnostic;
use crate::json::{too_long, Map, Value, MAX_STRING_BYTES};

use super::path::Path;

/// What [`limit_problems`] says of a key held twice, after the key.
const REPEATED_KEY: &str = "is held more than once in its object; expected each key once";

/// Every string longer than [`MAX_STRING_BYTES`] in `value`, at its JSON pointer; every such
/// key, at the pointer of its object; and every key an object holds more than once, at the
/// member's pointer.
pub fn limit_problems(value: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    if holds_problem(value) {
        walk(value, &Path::ROOT, &mut found);
    }
    found
}

/// Whether `diagnostic` is one of [`limit_problems`]' repeated keys.
pub(crate) fn is_repeated_key(diagnostic: &Diagnostic) -> bool {
    diagnostic.message.ends_with(REPEATED_KEY)
}

/// Keeps one member per key in every object of `value`: the key's first place, with its last
/// value, as Python's `json` reads repeated keys.
pub(crate) fn drop_repeated_keys(value: &mut Value) {
    match value {
        Value::Array(elements) => elements.iter_mut().for_each(drop_repeated_keys),
        Value::Object(members) => {
            if members.has_repeated_key() {
                members.drop_repeated_keys();
            }
            members.values_mut().for_each(drop_repeated_keys);
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

/// Whether `value` holds a problem: the quick test that spares the walk, which keeps track of
/// where it is, on every value the strict reader read.
fn holds_problem(value: &Value) -> bool {
    match value {
        Value::String(text) => text.len() > MAX_STRING_BYTES,
        Value::Array(elements) => elements.iter().any(holds_problem),
        Value::Object(members) => {
            members.has_repeated_key()
                || members
                    .iter()
                    .any(|(key, member)| key.len() > MAX_STRING_BYTES || holds_problem(member))
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

fn walk(value: &Value, path: &Path<'_>, found: &mut Vec<Diagnostic>) {
    match value {
        Value::String(text) if text.len() > MAX_STRING_BYTES => {
            found.push(Diagnostic::at_pointer(
                path.pointer(),
                format!("string is {}", too_long(text.len())),
            ));
        }
        Value::Array(elements) => {
            for (index, element) in elements.iter().enumerate() {
                walk(element, &path.index(index), found);
            }
        }
        Value::Object(members) => walk_object(members, path, found),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

fn walk_object(members: &Map<String, Value>, path: &Path<'_>, found: &mut Vec<Diagnostic>) {
    if members.has_repeated_key() {
        let repeated = members.repeated_keys();
        for key in repeated
            .into_iter()
            .filter(|key| key.len() <= MAX_STRING_BYTES)
        {
            found.push(Diagnostic::at_pointer(
                path.key(key).pointer(),
                format!("key {key:?} {REPEATED_KEY}"),
            ));
        }
    }
    for (key, member) in members {
        if key.len() > MAX_STRING_BYTES {
            found.push(Diagnostic::at_pointer(
                path.pointer(),
                format!("a key is {}", too_long(key.len())),
            ));
        } else {
            walk(member, &path.key(key), found);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Location;
    use crate::json;

    fn pointers(value: &Value) -> Vec<(String, String)> {
        limit_problems(value)
            .into_iter()
            .map(|diagnostic| match diagnostic.location {
                Location::Pointer { pointer, .. } => (pointer, diagnostic.message),
                other => panic!("expected a pointer, got {other:?}"),
            })
            .collect()
    }

    #[test]
    fn strings_and_keys_past_the_limit_are_found_at_their_pointers() {
        let fits = "x".repeat(MAX_STRING_BYTES);
        let long = "y".repeat(MAX_STRING_BYTES + 1);
        let mut value = json!({"items": [{"prompt": fits, "response": long, "a/b": [1, long]}]});
        let item = value
            .get_mut("items")
            .and_then(|items| items.get_mut(0))
            .and_then(Value::as_object_mut)
            .expect("the item");
        item.insert(long.clone(), Value::from(1));
        let limit = format!(
            "{} bytes long; the limit is 1048576 bytes (1 MiB)",
            long.len()
        );
        assert_eq!(
            pointers(&value),
            [
                ("/items/0/response".to_owned(), format!("string is {limit}")),
                ("/items/0/a~1b/1".to_owned(), format!("string is {limit}")),
                ("/items/0".to_owned(), format!("a key is {limit}")),
            ]
        );
        assert!(pointers(&json!({"items": [{"prompt": fits}], "n": 1.5, "t": true})).is_empty());
    }

    #[test]
    fn repeated_keys_are_found_at_their_members_and_dropped() {
        let text = br#"{"items": [{"a/b": 1, "p": [{"x": 0, "x": 1}], "a/b": 2, "a/b": 3}],
            "top": {"y": 1}}"#;
        let mut value = json::parse_dataset(text).expect("read leniently");
        let repeated = |key: &str| {
            format!("key {key:?} is held more than once in its object; expected each key once")
        };
        let found = pointers(&value);
        assert_eq!(
            found,
            [
                ("/items/0/a~1b".to_owned(), repeated("a/b")),
                ("/items/0/p/0/x".to_owned(), repeated("x")),
            ]
        );
        assert!(limit_problems(&value).iter().all(is_repeated_key));
        drop_repeated_keys(&mut value);
        assert!(pointers(&value).is_empty());
        assert_eq!(
            value,
            json!({"items": [{"a/b": 3, "p": [{"x": 1}]}], "top": {"y": 1}})
        );

        let long = "k".repeat(MAX_STRING_BYTES + 1);
        let twice = format!(r#"{{"{long}": 1, "{long}": 2}}"#);
        let value = json::parse_dataset(twice.as_bytes()).expect("read leniently");
        let found = limit_problems(&value);
        assert_eq!(found.len(), 2, "the long key, once for each member");
        assert!(found.iter().all(|problem| !is_repeated_key(problem)));
    }
}
