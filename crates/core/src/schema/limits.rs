//! The input limit a JSON Schema cannot express: no string or object key longer than
//! [`MAX_STRING_BYTES`]. The strict JSON reader rejects such text at its line and column; a
//! dataset read without that limit (`json::parse_dataset`) is checked here instead, so
//! that an over-long string inside one item makes only that item an error.

use crate::diagnostic::Diagnostic;
use crate::json::{too_long, Value, MAX_STRING_BYTES};

use super::path::Path;

/// Every string longer than [`MAX_STRING_BYTES`] in `value`, at its JSON pointer, and every such
/// key, at the pointer of its object.
pub fn oversized_strings(value: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    if holds_oversized(value) {
        walk(value, &Path::ROOT, &mut found);
    }
    found
}

/// Whether `value` holds a string or key past the limit: the quick test that spares the walk,
/// which keeps track of where it is, on every value the strict reader read.
fn holds_oversized(value: &Value) -> bool {
    match value {
        Value::String(text) => text.len() > MAX_STRING_BYTES,
        Value::Array(elements) => elements.iter().any(holds_oversized),
        Value::Object(members) => members
            .iter()
            .any(|(key, member)| key.len() > MAX_STRING_BYTES || holds_oversized(member)),
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
        Value::Object(members) => {
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
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Location;
    use crate::json;

    fn pointers(value: &Value) -> Vec<(String, String)> {
        oversized_strings(value)
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
}
