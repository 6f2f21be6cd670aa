//! Strict JSON parsing into agenteval's [`Value`]: syntax errors at a 1-based line and column (in
//! characters), invalid UTF-8, duplicate object keys, over-long strings, non-finite numbers and
//! nesting deeper than serde_json's recursion limit are all rejected with a plain message
//! ([`parse_dataset`] lets over-long strings and duplicate keys through, for datasets, whose
//! validation confines them to their items). Floats are read correctly rounded, as Python's `json`
//! reads them (`build`).
//!
//! It only parses; what the document means is checked elsewhere (`schema`, `dataset`). It also
//! owns [`outline`], which checks a whole document and finds its items without parsing them
//! (mostly in one pass of its own, `scan`), and [`parse_checked`], which builds those items
//! without checking them again (`build`), or [`parse_checked_into`], which rebuilds the last
//! item's value into the next. The value type itself is `value`'s.

use std::borrow::Cow;
use std::collections::HashSet;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::diagnostic::Diagnostic;

mod build;
#[doc(hidden)]
pub mod byte_words;
pub mod diagnostic;
pub mod float_parse;
mod scan;
#[doc(hidden)]
pub mod test_rng;
mod value;

pub use value::{from_value, to_value, Index, Iter, IterMut, Map, Number, Value};

/// serde_json, for the [`json!`](crate::json!) macro.
#[doc(hidden)]
pub use serde_json as __serde_json;

/// The longest string (value or key) accepted, in bytes of UTF-8: 1 MiB.
pub const MAX_STRING_BYTES: usize = 1 << 20;

/// How many arrays and objects may nest inside each other (serde_json's recursion limit).
pub const MAX_DEPTH: usize = 127;

const DUPLICATE_KEY: &str = "duplicate key ";
const STRING_TOO_LONG: &str = "string is ";

/// Parses one JSON text given as bytes, which must be UTF-8 (a leading byte-order mark is skipped).
///
/// # Errors
/// A diagnostic at the line and column of the first problem.
pub fn parse(bytes: &[u8]) -> Result<Value, Diagnostic> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_str(text),
        Err(error) => Err(invalid_utf8(bytes, error.valid_up_to())),
    }
}

/// Parses one JSON text (a leading byte-order mark is skipped): checked by serde_json without
/// building anything, then built by `build`, which reads floats correctly rounded; text the check
/// rejects is parsed by serde_json again, for the diagnostic.
///
/// # Errors
/// A diagnostic at the line and column of the first problem.
pub fn parse_str(text: &str) -> Result<Value, Diagnostic> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if is_acceptable(text) {
        if let Some((value, _)) = build::value(text) {
            return Ok(value);
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = ValueSeed
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|error| diagnose(text, &error))?;
    Ok(value)
}

/// A JSON object whose members are parsed strictly, except the elements of one array member,
/// which are left as text to parse later (see [`parse_element`]).
#[derive(Debug)]
pub struct Outline<'t> {
    /// The members in order; the array member holds `null` in its place.
    pub members: Map<String, Value>,
    /// The array member's elements, unparsed.
    pub elements: Vec<&'t str>,
}

/// Reads `text` as an object with an array member `array_key` into an [`Outline`], after
/// checking that [`parse_str`] accepts the whole text, so that every element will parse. `None`
/// when the text is anything else or has any problem, and when the one fast pass that both
/// checks the text and finds the elements ([`scan`]) leaves it undecided (escaped keys, objects
/// of many members, numbers near the limits of `f64`, nesting near the limit): callers then
/// read the text whole with [`parse_str`], which accepts it or says precisely what is wrong.
pub fn outline<'t>(text: &'t str, array_key: &str) -> Option<Outline<'t>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    scanned_outline(text, array_key)
}

fn scanned_outline<'t>(text: &'t str, array_key: &str) -> Option<Outline<'t>> {
    let spans = scan::outline(text, array_key)?;
    let mut members = Map::new();
    for (key, value) in spans.members {
        let value = if key == array_key {
            Value::Null
        } else {
            parse_element(value).ok()?
        };
        members.insert(key.to_owned(), value);
    }
    Some(Outline {
        members,
        elements: spans.elements,
    })
}

/// [`outline`] by serde_json alone, the tests' oracle for [`scan`]: the members parsed strictly,
/// the elements only checked for syntax.
#[cfg(test)]
fn parse_outline<'t>(text: &'t str, array_key: &str) -> Option<Outline<'t>> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let outline = OutlineSeed { array_key }
        .deserialize(&mut deserializer)
        .ok()?;
    deserializer.end().ok()?;
    outline
}

/// Parses an element of an [`Outline`]'s array strictly, with the nesting limit counted from the
/// document root as [`parse_str`] counts it.
///
/// # Errors
/// As [`parse_str`], with lines and columns relative to the element.
pub fn parse_element(element: &str) -> Result<Value, Diagnostic> {
    let nested = format!("[[{element}]]");
    let mut value = parse_str(&nested)?;
    Ok(value
        .get_mut(0)
        .and_then(|inner| inner.get_mut(0))
        .map(Value::take)
        .unwrap_or_default())
}

/// Parses a part of a text [`parse_str`] was shown to accept (an element of its [`outline`]),
/// without repeating the checks: built directly (`build`), else by [`parse_str`].
///
/// # Errors
/// Only for text that is not JSON, at a line and column relative to it.
pub fn parse_checked(text: &str) -> Result<CheckedValue, Diagnostic> {
    let mut value = Value::Null;
    let has_escapes = parse_checked_into(text, &mut value)?;
    Ok(CheckedValue { value, has_escapes })
}

/// [`parse_checked`] into `slot`, reusing the strings, arrays and objects it holds where the
/// text has the same shape (the last item's tree, when a document is read item by item).
/// Returns whether a string or key of the text held an escape sequence.
///
/// # Errors
/// As [`parse_checked`], with `slot` left holding some other value.
pub fn parse_checked_into(text: &str, slot: &mut Value) -> Result<bool, Diagnostic> {
    match build::value_into(text, slot) {
        Some(has_escapes) => Ok(has_escapes),
        None => {
            *slot = parse_str(text)?;
            Ok(text.contains('\\'))
        }
    }
}

/// A value read by [`parse_checked`].
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedValue {
    /// The value.
    pub value: Value,
    /// Whether a string or key of its text held an escape sequence; without one, none of its
    /// strings holds a byte JSON escapes.
    pub has_escapes: bool,
}

/// Whether [`parse_str`] accepts `text`, checked without building the value.
pub fn is_acceptable(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    passes(text, true)
}

/// Parses a dataset: [`parse`], or, when over-long strings or duplicate keys are its only
/// objections, the value read without those two checks. `schema` then reports each at its JSON
/// pointer, so that one confined to an item makes only that item an error; the repeated keys stay
/// in their objects until `schema::drop_repeated_keys` keeps the last value of each.
///
/// # Errors
/// As [`parse`], for any other problem.
pub fn parse_dataset(bytes: &[u8]) -> Result<Value, Diagnostic> {
    parse(bytes).or_else(|error| parse_leniently(bytes).ok_or(error))
}

/// [`parse`] without the limit on the length of strings and keys and with repeated keys kept as
/// they are written; `None` when the text has any other problem.
fn parse_leniently(bytes: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(bytes).ok()?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    passes(text, false)
        .then(|| build::value(text))
        .flatten()
        .map(|(value, _)| value)
}

/// Whether `text` is one JSON value that [`parse_str`] accepts, apart from the length of its
/// strings and repeated keys when not `strict`.
fn passes(text: &str, strict: bool) -> bool {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    de::Deserializer::deserialize_any(&mut deserializer, Checker { strict }).is_ok()
        && deserializer.end().is_ok()
}

/// Visits a value with [`ValueVisitor`]'s checks (those on the length of strings and on repeated
/// keys only when `strict`), keeping nothing but each object's keys.
#[derive(Clone, Copy)]
struct Checker {
    strict: bool,
}

impl<'de> DeserializeSeed<'de> for Checker {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Checker {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        ValueVisitor.visit_f64(value).map(drop)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        limit_length(value, self.strict)
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<(), A::Error> {
        let mut seen = SeenKeys::default();
        let key_seed = BorrowedKey {
            limited: self.strict,
        };
        while let Some(key) = access.next_key_seed(key_seed)? {
            if self.strict && seen.repeats(key) {
                return Err(de::Error::custom(DUPLICATE_KEY));
            }
            access.next_value_seed(self)?;
        }
        Ok(())
    }
}

/// An object key, borrowed from the text when it has no escapes; its length is checked when
/// `limited`.
#[derive(Clone, Copy)]
struct BorrowedKey {
    limited: bool,
}

impl<'de> DeserializeSeed<'de> for BorrowedKey {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for BorrowedKey {
    type Value = Cow<'de, str>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<Self::Value, E> {
        limit_length(value, self.limited)?;
        Ok(Cow::Borrowed(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        limit_length(value, self.limited)?;
        Ok(Cow::Owned(value.to_owned()))
    }
}

#[cfg(test)]
struct OutlineSeed<'k> {
    array_key: &'k str,
}

#[cfg(test)]
impl<'de> DeserializeSeed<'de> for OutlineSeed<'_> {
    type Value = Option<Outline<'de>>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

#[cfg(test)]
impl<'de> Visitor<'de> for OutlineSeed<'_> {
    type Value = Option<Outline<'de>>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut members = Map::new();
        let mut elements = None;
        while let Some(key) = access.next_key_seed(BorrowedKey { limited: true })? {
            let key = key.into_owned();
            if members.contains_key(&key) {
                return Err(de::Error::custom(format!("{DUPLICATE_KEY}{key:?}")));
            }
            if key == self.array_key {
                let raw = access.next_value::<Vec<&'de serde_json::value::RawValue>>()?;
                elements = Some(
                    raw.into_iter()
                        .map(serde_json::value::RawValue::get)
                        .collect(),
                );
                members.insert(key, Value::Null);
            } else {
                let value = access.next_value_seed(ValueSeed)?;
                members.insert(key, value);
            }
        }
        Ok(elements.map(|elements| Outline { members, elements }))
    }
}

struct ValueSeed;

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| E::custom("number is not finite (too large to represent)"))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Value, E> {
        check_length(value)?;
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Value, E> {
        check_length(&value)?;
        Ok(Value::String(value))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(element) = seq.next_element_seed(ValueSeed)? {
            elements.push(element);
        }
        Ok(Value::Array(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        let mut seen = SeenKeys::default();
        while let Some(key) = access.next_key_seed(BorrowedKey { limited: true })? {
            if seen.repeats(key.clone()) {
                return Err(de::Error::custom(format!("{DUPLICATE_KEY}{key:?}")));
            }
            let value = access.next_value_seed(ValueSeed)?;
            object.push_new(key.into_owned(), value);
        }
        Ok(Value::Object(object))
    }
}

/// The keys of one object read so far, to find a repeat: compared in order while they are few,
/// by hash beyond.
#[derive(Default)]
struct SeenKeys<'k> {
    few: Vec<Cow<'k, str>>,
    many: HashSet<Cow<'k, str>>,
}

impl<'k> SeenKeys<'k> {
    const FEW: usize = 32;

    /// Records `key`; whether it was read before.
    fn repeats(&mut self, key: Cow<'k, str>) -> bool {
        if self.few.len() < Self::FEW {
            let repeated = self.few.contains(&key);
            self.few.push(key);
            return repeated;
        }
        if self.many.is_empty() {
            self.many.extend(self.few.iter().cloned());
        }
        !self.many.insert(key)
    }
}

fn check_length<E: de::Error>(value: &str) -> Result<(), E> {
    limit_length(value, true)
}

#[inline]
fn limit_length<E: de::Error>(value: &str, limited: bool) -> Result<(), E> {
    if limited && value.len() > MAX_STRING_BYTES {
        return Err(E::custom(format!(
            "{STRING_TOO_LONG}{}",
            too_long(value.len())
        )));
    }
    Ok(())
}

/// What is wrong with a string or key of `length` bytes, past [`MAX_STRING_BYTES`], after the
/// words naming it ("string is ", "a key is ").
pub fn too_long(length: usize) -> String {
    format!("{length} bytes long; the limit is {MAX_STRING_BYTES} bytes (1 MiB)")
}

/// Turns a serde_json error into a diagnostic with a clearer message and a character column.
fn diagnose(text: &str, error: &serde_json::Error) -> Diagnostic {
    let rendered = error.to_string();
    let base = rendered
        .strip_suffix(&format!(
            " at line {} column {}",
            error.line(),
            error.column()
        ))
        .unwrap_or(&rendered);
    let offset = byte_offset(text, error.line(), error.column());
    let offset = if base.starts_with(DUPLICATE_KEY) || base.starts_with(STRING_TOO_LONG) {
        string_start(text, offset)
    } else {
        offset
    };
    let (line, column) = line_column(text, offset);
    Diagnostic::at_line(line, column, explain(base))
}

fn explain(message: &str) -> String {
    let clear = match message {
        "EOF while parsing a value" => "unexpected end of input; expected a JSON value",
        "EOF while parsing a list" => "unexpected end of input inside an array; expected `,` or `]`",
        "EOF while parsing an object" => {
            "unexpected end of input inside an object; expected `,` or `}`"
        }
        "EOF while parsing a string" => "unexpected end of input inside a string; expected `\"`",
        "expected `:`" => "expected `:` after the object key",
        "expected `,` or `]`" => "expected `,` or `]` after the array element",
        "expected `,` or `}`" => "expected `,` or `}` after the object member",
        "expected ident" => "expected `true`, `false` or `null`",
        "expected value" => {
            "expected a JSON value (object, array, string, number, true, false or null)"
        }
        "expected `\"`" => "expected `\"` to start a string",
        "invalid escape" => "invalid escape sequence in string; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
        "invalid number" => "invalid number",
        "number out of range" => "number is not finite (too large to represent)",
        "key must be a string" => "expected an object key in double quotes",
        "trailing comma" => "trailing comma; expected another element or member after `,`",
        "trailing characters" => "unexpected text after the JSON value; expected end of input",
        "recursion limit exceeded" => {
            return format!(
                "arrays and objects are nested too deeply; at most {MAX_DEPTH} levels are allowed"
            )
        }
        other => other,
    };
    clear.to_owned()
}

/// Byte offset of the character serde_json's `line`/`column` (bytes consumed on the line) points
/// at: the last character it read.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        text.bytes()
            .enumerate()
            .filter(|&(_, byte)| byte == b'\n')
            .nth(line - 2)
            .map_or(text.len(), |(index, _)| index + 1)
    };
    let offset = (line_start + column.saturating_sub(1)).min(text.len());
    floor_char_boundary(text, offset)
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The offset of the opening quote of the string whose closing quote sits at (or just before)
/// `end`.
fn string_start(text: &str, end: usize) -> usize {
    let bytes = text.as_bytes();
    let closing = match bytes.get(end) {
        Some(b'"') => end,
        _ => end.saturating_sub(1),
    };
    let mut index = closing;
    while index > 0 {
        index -= 1;
        if bytes.get(index) == Some(&b'"') {
            let backslashes = bytes
                .get(..index)
                .unwrap_or_default()
                .iter()
                .rev()
                .take_while(|&&byte| byte == b'\\')
                .count();
            if backslashes % 2 == 0 {
                return index;
            }
        }
    }
    end
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |index| index + 1);
    let line = 1 + before.bytes().filter(|&byte| byte == b'\n').count();
    let column = 1 + before
        .get(line_start..)
        .map_or(0, |rest| rest.chars().count());
    (line, column)
}

fn invalid_utf8(bytes: &[u8], valid_up_to: usize) -> Diagnostic {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Diagnostic::at_line(
            1,
            1,
            "the input is UTF-16 encoded; expected UTF-8 (save the file as UTF-8)",
        );
    }
    let valid = bytes.get(..valid_up_to).unwrap_or_default();
    let text = std::str::from_utf8(valid).unwrap_or_default();
    let (line, column) = line_column(text, text.len());
    let byte = bytes.get(valid_up_to).copied().unwrap_or_default();
    Diagnostic::at_line(
        line,
        column,
        format!(
            "invalid UTF-8: byte 0x{byte:02X} at byte offset {valid_up_to} does not start a valid \
             UTF-8 sequence; expected UTF-8 text"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Location;
    use crate::test_rng::XorShift;

    fn error(text: &str) -> (usize, usize, String) {
        match parse(text.as_bytes()) {
            Ok(value) => panic!("expected an error, parsed {value}"),
            Err(diagnostic) => match diagnostic.location {
                Location::LineColumn { line, column } => (line, column, diagnostic.message),
                other => panic!("expected a line/column, got {other:?}"),
            },
        }
    }

    #[test]
    fn outlines_keep_member_order_and_leave_elements_raw() {
        let text = "\u{feff}{\"z\": 1, \"items\": [ {\"a\": [1, 2]}, 3 ], \"a\": {\"b\": null}}";
        let outlined = outline(text, "items").unwrap();
        let keys: Vec<&str> = outlined.members.keys().map(String::as_str).collect();
        assert_eq!(keys, ["z", "items", "a"]);
        assert_eq!(outlined.members["items"], Value::Null);
        assert_eq!(outlined.members["a"], json!({"b": null}));
        assert_eq!(outlined.elements, [r#"{"a": [1, 2]}"#, "3"]);
        assert_eq!(
            parse_element(outlined.elements[0]),
            Ok(json!({"a": [1, 2]}))
        );
        for rejected in [
            "[1]",
            r#"{"items": 1}"#,
            r#"{"a": 1}"#,
            r#"{"items": [], "items": []}"#,
            r#"{"a": 1, "a": 2, "items": []}"#,
            r#"{"items": [1,]}"#,
            r#"{"items": []} x"#,
        ] {
            assert!(outline(rejected, "items").is_none(), "{rejected}");
        }
    }

    #[test]
    fn acceptance_is_decided_as_parsing_decides_it() {
        let many_keys = |duplicate: bool| {
            let mut members: Vec<String> = (0..40).map(|n| format!("\"k{n}\": {n}")).collect();
            if duplicate {
                members.push("\"k3\": 0".to_owned());
            }
            format!("{{{}}}", members.join(", "))
        };
        let long = format!("[\"{}\"]", "x".repeat(MAX_STRING_BYTES + 1));
        let long_key = format!("{{\"{}\": 1}}", "x".repeat(MAX_STRING_BYTES + 1));
        let texts = [
            r#"{"a": [1, 2.5, -3, true, null, "s"], "b": {"c": {}}}"#.to_owned(),
            r#"{"a": 1, "\u0061": 2}"#.to_owned(),
            r#"[{"x": {"y": 1, "y": 2}}]"#.to_owned(),
            many_keys(false),
            many_keys(true),
            "[1e400]".to_owned(),
            long,
            long_key,
            format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH)),
            format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1)),
            "\u{feff}{}".to_owned(),
            "{} {}".to_owned(),
            "{\"a\": }".to_owned(),
        ];
        for text in &texts {
            assert_eq!(
                is_acceptable(text),
                parse_str(text).is_ok(),
                "{}",
                text.chars().take(60).collect::<String>()
            );
        }
        assert!(texts.iter().filter(|text| is_acceptable(text)).count() >= 4);
    }

    #[test]
    fn long_strings_and_repeated_keys_are_read_when_they_are_the_only_problems() {
        let long = "x".repeat(MAX_STRING_BYTES + 1);
        let escaped = format!(r#"{{"{long}": ["{long}\n", 1.5, null]}}"#);
        assert!(parse(escaped.as_bytes()).is_err());
        let value = parse_leniently(escaped.as_bytes()).expect("read without the limit");
        assert_eq!(value[long.as_str()][0], Value::from(format!("{long}\n")));
        assert_eq!(value[long.as_str()][1], Value::from(1.5));
        let plain = r#"{"a": [1, "b"]}"#;
        assert_eq!(
            parse_leniently(plain.as_bytes()),
            parse(plain.as_bytes()).ok()
        );
        let repeated = format!(r#"{{"k": "{long}", "j": [{{"k": 1, "k": 2}}], "k": 1}}"#);
        assert!(parse(repeated.as_bytes()).is_err());
        let members = |value: &Value| -> Vec<String> {
            value
                .as_object()
                .map(|object| object.iter().map(|(key, _)| key.clone()).collect())
                .unwrap_or_default()
        };
        let value = parse_leniently(repeated.as_bytes()).expect("read with its repeated keys");
        assert_eq!(members(&value), ["k", "j", "k"]);
        assert_eq!(members(&value["j"][0]), ["k", "k"]);
        for other_problem in [
            format!(r#"{{"k": "{long}", "k": 1,}}"#),
            format!(r#"["{long}", ]"#),
            format!(r#"["{long}", 1e999]"#),
            format!(r#"["{long}"] []"#),
            format!(
                "{}\"{long}\"{}",
                "[".repeat(MAX_DEPTH + 1),
                "]".repeat(MAX_DEPTH + 1)
            ),
        ] {
            assert_eq!(parse_leniently(other_problem.as_bytes()), None);
        }
        assert_eq!(parse_leniently(b"[\"\xff\"]"), None);
    }

    #[test]
    fn elements_are_held_to_the_whole_document_limits() {
        let document = |depth: usize| {
            format!(
                "{{\"items\": [{}{}]}}",
                "[".repeat(depth),
                "]".repeat(depth)
            )
        };
        let deepest_allowed = (1..=MAX_DEPTH)
            .rev()
            .find(|depth| parse_str(&document(*depth)).is_ok())
            .unwrap();
        for depth in [deepest_allowed - 1, deepest_allowed, deepest_allowed + 1] {
            let text = document(depth);
            let whole = parse_str(&text).is_ok();
            match outline(&text, "items") {
                Some(outline) => assert!(
                    whole && parse_element(outline.elements[0]).is_ok(),
                    "depth {depth}"
                ),
                None => assert!(depth >= deepest_allowed, "depth {depth} left undecided"),
            }
        }
        let duplicate = parse_outline(r#"{"items": [{"k": 1, "k": 2}]}"#, "items").unwrap();
        assert!(parse_element(duplicate.elements[0])
            .unwrap_err()
            .message
            .starts_with("duplicate key"));
    }

    /// Floats are the `f64` nearest their text, read whole or item by item. (serde_json's own
    /// reading is one unit in the last place off for some of these, but not in this test build,
    /// where a dev-dependency turns on its `float_roundtrip` feature.)
    #[test]
    fn floats_are_read_correctly_rounded() {
        let mut rng = XorShift::new(0x853c_49e6_748f_ea9b);
        let mut texts = Vec::new();
        while texts.len() < 4000 {
            let value = f64::from_bits(rng.next_u64() >> 1);
            if value.is_finite() {
                texts.push(format!("{value:.16e}"));
                texts.push(format!("{value:.19e}"));
            }
        }
        let array = format!("[{}]", texts.join(", "));
        let document = format!("{{\"items\": [{array}]}}");
        let whole = parse_str(&array).unwrap();
        let outlined = outline(&document, "items").unwrap();
        let item_by_item = parse_checked(outlined.elements[0]).unwrap().value;
        for read in [whole, item_by_item] {
            let read: Vec<u64> = read
                .as_array()
                .unwrap()
                .iter()
                .map(|number| number.as_f64().unwrap().to_bits())
                .collect();
            let exact: Vec<u64> = texts
                .iter()
                .map(|text| text.parse::<f64>().unwrap().to_bits())
                .collect();
            assert_eq!(read, exact);
        }
    }

    #[test]
    fn parses_values_in_order() {
        let value = parse(br#"{"b": [1, -2, 2.5, true, null], "a": "x\u00e9"}"#);
        assert_eq!(value, Ok(json!({"b": [1, -2, 2.5, true, null], "a": "xé"})));
        let keys: Vec<String> = value
            .ok()
            .and_then(|v| v.as_object().map(|o| o.keys().cloned().collect()))
            .unwrap_or_default();
        assert_eq!(keys, ["b", "a"]);
    }

    #[test]
    fn skips_a_byte_order_mark() {
        assert_eq!(parse("\u{feff}[1]".as_bytes()), Ok(json!([1])));
    }

    #[test]
    fn syntax_errors_name_line_column_and_expectation() {
        assert_eq!(
            error("{\n  \"a\": 1,\n  \"b\" 2\n}"),
            (3, 7, "expected `:` after the object key".to_owned())
        );
        assert_eq!(
            error("[1, 2"),
            (
                1,
                5,
                "unexpected end of input inside an array; expected `,` or `]`".to_owned()
            )
        );
        assert_eq!(
            error("[1,]"),
            (
                1,
                4,
                "trailing comma; expected another element or member after `,`".to_owned()
            )
        );
        assert_eq!(
            error(""),
            (
                1,
                1,
                "unexpected end of input; expected a JSON value".to_owned()
            )
        );
        assert_eq!(
            error("{} x"),
            (
                1,
                4,
                "unexpected text after the JSON value; expected end of input".to_owned()
            )
        );
        assert_eq!(
            error("{'a': 1}"),
            (1, 2, "expected an object key in double quotes".to_owned())
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(error("[\"éé\" 1]").1, 7);
    }

    #[test]
    fn invalid_utf8_is_located() {
        let (line, column, message) = match parse(b"{\"a\":\n \"x\xFFy\"}") {
            Err(Diagnostic {
                location: Location::LineColumn { line, column },
                message,
                ..
            }) => (line, column, message),
            other => panic!("unexpected {other:?}"),
        };
        assert_eq!((line, column), (2, 4));
        assert!(message.starts_with("invalid UTF-8: byte 0xFF at byte offset 9"));
        assert!(error_message(b"\xFF\xFE[\x00]\x00").contains("UTF-16"));
    }

    fn error_message(bytes: &[u8]) -> String {
        parse(bytes).err().map(|d| d.message).unwrap_or_default()
    }

    #[test]
    fn duplicate_keys_are_rejected_at_the_duplicate() {
        assert_eq!(
            error("{\n  \"prompt\": \"a\",\n  \"prompt\": \"b\"\n}"),
            (3, 3, "duplicate key \"prompt\"".to_owned())
        );
        assert_eq!(
            error(r#"[{"a\"b": 1, "a\"b": 2}]"#),
            (1, 14, "duplicate key \"a\\\"b\"".to_owned())
        );
        assert_eq!(
            parse(br#"[{"a": 1}, {"a": 2}]"#),
            Ok(json!([{"a": 1}, {"a": 2}]))
        );
    }

    #[test]
    fn objects_of_every_size_keep_their_order_and_reject_duplicates() {
        for size in [1, 2, 31, 32, 33, 40, 100] {
            let members: Vec<String> = (0..size)
                .rev()
                .map(|n| format!("\"k{n}\": {{\"v\": [{n}, [{n}]]}}"))
                .collect();
            let text = format!("[{{{}}}, [1, {{\"x\": 2}}]]", members.join(", "));
            let value = parse_str(&text).unwrap();
            let keys: Vec<&str> = value[0]
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            let expected: Vec<String> = (0..size).rev().map(|n| format!("k{n}")).collect();
            assert_eq!(keys, expected, "{size}");
            assert_eq!(value[0]["k0"], json!({"v": [0, [0]]}));
            assert_eq!(value[1], json!([1, {"x": 2}]));
            for repeated in [0, size / 2, size - 1] {
                let with_duplicate = format!("{{{}, \"k{repeated}\": null}}", members.join(", "));
                assert_eq!(
                    error(&with_duplicate).2,
                    format!("duplicate key \"k{repeated}\""),
                    "{size} {repeated}"
                );
            }
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        for open in ["[", "{\"a\":"] {
            let text = open.repeat(10_000);
            let (line, _, message) = error(&text);
            assert_eq!(line, 1);
            assert!(message.contains("nested too deeply"), "{message}");
        }
        let fits = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse_str(&fits).is_ok());
        let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(error(&too_deep).1, MAX_DEPTH + 1);
    }

    #[test]
    fn long_strings_are_rejected_with_size_and_limit() {
        let fits = format!("[\"{}\"]", "x".repeat(MAX_STRING_BYTES));
        assert!(parse_str(&fits).is_ok());
        let long = format!("[1,\n \"{}\"]", "x".repeat(MAX_STRING_BYTES + 1));
        assert_eq!(
            error(&long),
            (
                2,
                2,
                "string is 1048577 bytes long; the limit is 1048576 bytes (1 MiB)".to_owned()
            )
        );
        let escaped = format!("{{\"{}\\n\": 1}}", "k".repeat(MAX_STRING_BYTES));
        assert_eq!(
            error(&escaped).2,
            "string is 1048577 bytes long; the limit is 1048576 bytes (1 MiB)"
        );
    }

    #[test]
    fn non_finite_numbers_are_rejected() {
        for text in ["[1e999]", "[-1e999]", "{\"a\": 1E400}"] {
            let (_, _, message) = error(text);
            assert_eq!(message, "number is not finite (too large to represent)");
        }
        assert_eq!(parse(b"[1e308, 1e-999]"), Ok(json!([1e308, 0.0])));
    }

    #[test]
    fn large_integers_keep_their_value() {
        assert_eq!(
            parse(b"[18446744073709551615, -9223372036854775808]"),
            Ok(json!([u64::MAX, i64::MIN]))
        );
    }
}
