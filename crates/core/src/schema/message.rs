//! Plain-words phrases for validation messages: what a value is ("got \"version-one\"", "got an
//! array") and what a schema node expects ("a number between 1 and 5", "one of \"all\", \"any\"").

use crate::json::Value;

use super::compile::{Node, Types};
use crate::text::python;

const SHOWN_STRING_CHARS: usize = 60;

/// The value as quoted in a message: scalars literally (long strings cut short), containers by kind.
pub(crate) fn show(value: &Value) -> String {
    match value {
        Value::String(text) => {
            let mut chars = text.chars();
            let shown: String = chars.by_ref().take(SHOWN_STRING_CHARS).collect();
            if chars.next().is_some() {
                format!("{}…", Value::String(shown))
            } else {
                value.to_string()
            }
        }
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
        scalar => scalar.to_string(),
    }
}

/// The JSON type of `value`, with an article.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(number) if number.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `got …` for `value`: its literal for scalars, its kind for containers.
pub fn got(value: &Value) -> String {
    match value {
        Value::Array(_) | Value::Object(_) => format!("got {}", kind(value)),
        Value::String(_) => format!("got {}", show(value)),
        _ => format!("got {} ({})", kind(value), show(value)),
    }
}

/// The types in `types`, with articles, joined by "or".
pub(crate) fn types(types: Types) -> String {
    types
        .members()
        .map(|member| match member {
            Types::OBJECT => "an object",
            Types::ARRAY => "an array",
            Types::STRING => "a string",
            Types::INTEGER => "an integer",
            Types::NUMBER => "a number",
            Types::BOOLEAN => "a boolean (true or false)",
            _ => "null",
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

/// What a node with `enum` or `const` accepts: `"a", "b"`.
pub(crate) fn choices(values: &[Value]) -> String {
    values.iter().map(show).collect::<Vec<_>>().join(", ")
}

/// The numeric type the node wants (`an integer` or `a number`).
pub(crate) fn numeric(node: &Node) -> &'static str {
    match node.types {
        Some(types) if types.contains(Types::INTEGER) && !types.contains(Types::NUMBER) => {
            "an integer"
        }
        _ => "a number",
    }
}

/// The range the node allows: `between 1 and 5`, `of at least 0`, `of at most 20`.
pub(crate) fn range(node: &Node) -> String {
    match (node.minimum, node.maximum) {
        (Some(low), Some(high)) => format!("between {} and {}", number(low), number(high)),
        (Some(low), None) => format!("of at least {}", number(low)),
        (None, Some(high)) => format!("of at most {}", number(high)),
        (None, None) => String::new(),
    }
}

fn number(value: f64) -> String {
    crate::text::decimal::plain(value)
}

/// A gloss for the patterns the schema uses, so users need not read regular expressions.
pub(crate) fn pattern_hint(source: &str) -> Option<&'static str> {
    match source {
        r"^1\.\d+\.\d+$" => Some("a version like \"1.6.0\""),
        "^[a-zA-Z][a-zA-Z0-9_]*$" => {
            Some("an identifier: a letter, then letters, digits or underscores")
        }
        r"\S" => Some("at least one non-whitespace character"),
        _ => None,
    }
}

/// `a, b, c` for the message listing allowed fields.
pub(crate) fn field_list(names: &[&str]) -> String {
    names.join(", ")
}

/// The allowed name closest to `unknown`, if it is plausibly a typo.
pub(crate) fn closest<'n>(unknown: &str, names: &[&'n str]) -> Option<&'n str> {
    let lowered = python::lower(unknown);
    names
        .iter()
        .map(|name| (strsim::jaro_winkler(&lowered, &python::lower(name)), *name))
        .filter(|(similarity, _)| *similarity >= 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn shows_values_briefly() {
        assert_eq!(got(&json!("x")), "got \"x\"");
        assert_eq!(got(&json!(3)), "got an integer (3)");
        assert_eq!(got(&json!(2.5)), "got a number (2.5)");
        assert_eq!(got(&json!(null)), "got null (null)");
        assert_eq!(got(&json!([1])), "got an array");
        let long = show(&json!("y".repeat(100)));
        assert_eq!(long, format!("\"{}\"…", "y".repeat(60)));
    }

    #[test]
    fn describes_ranges_and_types() {
        let node = Node {
            minimum: Some(1.0),
            maximum: Some(5.0),
            ..Node::default()
        };
        assert_eq!(range(&node), "between 1 and 5");
        let half = Node {
            minimum: Some(0.5),
            ..Node::default()
        };
        assert_eq!(range(&half), "of at least 0.5");
        assert_eq!(types(Types::STRING.union(Types::NULL)), "a string or null");
    }

    #[test]
    fn suggests_close_names_only() {
        let names = ["prompt", "expected_response", "response"];
        assert_eq!(
            closest("expeceted_response", &names),
            Some("expected_response")
        );
        assert_eq!(closest("banana", &names), None);
    }
}
