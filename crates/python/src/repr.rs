//! Python's text forms of the value `json.loads` makes of a JSON value: `repr()` and `str()`
//! (`{'k': [1, 'a'], 'b': None}`) and `json.dumps(value, ensure_ascii=False)`, as the
//! reference's prompts show data.

use agenteval_json::{Number, Value};

use crate::{decimal, strings};

/// Python's `repr()` of the value `json.loads` makes of `value` (`{'k': [1, 'a'], 'b': None}`).
pub fn py_repr(value: &Value) -> String {
    let mut out = String::new();
    write_python(value, &REPR, &mut out);
    out
}

/// Python's `str()` of the value: strings as they are, anything else as its `repr`.
pub fn py_str(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => py_repr(other),
    }
}

fn number_text(number: &Number) -> String {
    if number.is_f64() {
        decimal::python_repr(number.as_f64().unwrap_or(f64::NAN))
    } else {
        number.to_string()
    }
}

/// How a Python writer spells the scalars: `repr` (`None`, `True`, `'text'`) or `json.dumps`
/// (`null`, `true`, `"text"`). Lists and dicts are written alike by both, with `, ` and `: `.
struct Spelling {
    null: &'static str,
    yes: &'static str,
    no: &'static str,
    text: fn(&str, &mut String),
}

const REPR: Spelling = Spelling {
    null: "None",
    yes: "True",
    no: "False",
    text: repr_str,
};

const JSON: Spelling = Spelling {
    null: "null",
    yes: "true",
    no: "false",
    text: json_str,
};

fn write_python(value: &Value, spelling: &Spelling, out: &mut String) {
    match value {
        Value::Null => out.push_str(spelling.null),
        Value::Bool(true) => out.push_str(spelling.yes),
        Value::Bool(false) => out.push_str(spelling.no),
        Value::Number(number) => out.push_str(&number_text(number)),
        Value::String(text) => (spelling.text)(text, out),
        Value::Array(items) => {
            out.push('[');
            for (position, item) in items.iter().enumerate() {
                if position > 0 {
                    out.push_str(", ");
                }
                write_python(item, spelling, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (position, (key, item)) in map.iter().enumerate() {
                if position > 0 {
                    out.push_str(", ");
                }
                (spelling.text)(key, out);
                out.push_str(": ");
                write_python(item, spelling, out);
            }
            out.push('}');
        }
    }
}

fn repr_str(text: &str, out: &mut String) {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for character in text.chars() {
        match character {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ if character == quote => {
                out.push('\\');
                out.push(character);
            }
            _ if !is_printable(character) => {
                let code = u32::from(character);
                let escaped = if code < 0x100 {
                    format!("\\x{code:02x}")
                } else if code < 0x1_0000 {
                    format!("\\u{code:04x}")
                } else {
                    format!("\\U{code:08x}")
                };
                out.push_str(&escaped);
            }
            _ => out.push(character),
        }
    }
    out.push(quote);
}

/// Python's `str.isprintable()` for one character, for the classes that occur in practice:
/// controls, separators other than the space, format characters and private use are not
/// printable. (Unassigned code points, which Python also escapes, are shown as they are.)
fn is_printable(character: char) -> bool {
    if character == ' ' {
        return true;
    }
    if character.is_control() || strings::is_space(character) {
        return false;
    }
    !matches!(
        character,
        '\u{AD}'
            | '\u{600}'..='\u{605}'
            | '\u{61C}'
            | '\u{6DD}'
            | '\u{70F}'
            | '\u{890}'..='\u{891}'
            | '\u{8E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{E000}'..='\u{F8FF}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
            | '\u{F0000}'..='\u{FFFFD}'
            | '\u{100000}'..='\u{10FFFD}'
    )
}

/// Python's `json.dumps(value, ensure_ascii=False)`: `, ` and `: ` separators, floats as `repr`.
pub fn py_json(value: &Value) -> String {
    let mut out = String::new();
    write_python(value, &JSON, &mut out);
    out
}

fn json_str(text: &str, out: &mut String) {
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            _ if u32::from(character) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", u32::from(character)));
            }
            _ => out.push(character),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenteval_json::json;

    #[test]
    fn python_reprs_and_json_dumps() {
        let value = json!({"s": "It's", "q": "say \"hi\"", "both": "'\"", "n": [1, 2.5, 1e16, true, null], "u": "é\u{a0}\t"});
        assert_eq!(
            py_repr(&value),
            r#"{'s': "It's", 'q': 'say "hi"', 'both': '\'"', 'n': [1, 2.5, 1e+16, True, None], 'u': 'é\xa0\t'}"#
        );
        assert_eq!(
            py_json(&value),
            "{\"s\": \"It's\", \"q\": \"say \\\"hi\\\"\", \"both\": \"'\\\"\", \"n\": [1, 2.5, 1e+16, true, null], \"u\": \"é\u{a0}\\t\"}"
        );
        assert_eq!(py_str(&json!("text")), "text");
    }
}
