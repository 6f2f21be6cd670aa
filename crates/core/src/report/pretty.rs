//! JSON written as `serde_json::to_writer_pretty` writes it inside an enclosing document, at a
//! given nesting depth, so a document can be written one member or one element at a time. Values
//! are written by hand: strings that need no escaping are copied as they are.

use std::io;

use crate::json::{Number, Value};
use crate::short_copy;

const INDENT: &[u8] = b"  ";

/// Appends `value` pretty-printed as if it sat `depth` levels deep in a pretty-printed document,
/// byte for byte as `serde_json::to_writer_pretty` writes it there.
///
/// # Errors
/// Only if serde_json fails to write an escaped string.
pub fn write_value(buffer: &mut Vec<u8>, value: &Value, depth: usize) -> io::Result<()> {
    write_value_as::<true>(buffer, value, depth)
}

/// [`write_value`]; with `CHECKED` false every string is copied without looking for bytes to
/// escape, for values the caller knows hold none.
fn write_value_as<const CHECKED: bool>(
    buffer: &mut Vec<u8>,
    value: &Value,
    depth: usize,
) -> io::Result<()> {
    match value {
        Value::Null => buffer.extend_from_slice(b"null"),
        Value::Bool(true) => buffer.extend_from_slice(b"true"),
        Value::Bool(false) => buffer.extend_from_slice(b"false"),
        Value::Number(number) => write_number(buffer, number),
        Value::String(text) => write_string::<CHECKED>(buffer, text)?,
        Value::Array(items) => {
            if items.is_empty() {
                buffer.extend_from_slice(b"[]");
                return Ok(());
            }
            buffer.push(b'[');
            for (index, item) in items.iter().enumerate() {
                push_entry_start(buffer, depth + 1, index == 0);
                write_value_as::<CHECKED>(buffer, item, depth + 1)?;
            }
            push_newline(buffer, depth);
            buffer.push(b']');
        }
        Value::Object(members) => {
            let mut object = ObjectWriter::open(buffer, depth);
            for (key, member) in members {
                object.key::<CHECKED>(key)?;
                write_value_as::<CHECKED>(object.buffer, member, depth + 1)?;
            }
            object.close();
        }
    }
    Ok(())
}

/// An object being appended to a buffer member by member, laid out as [`write_value`] lays out a
/// whole object at the same depth.
pub struct ObjectWriter<'b> {
    buffer: &'b mut Vec<u8>,
    depth: usize,
    members: usize,
}

impl<'b> ObjectWriter<'b> {
    /// Opens an object that sits `depth` levels deep.
    pub fn open(buffer: &'b mut Vec<u8>, depth: usize) -> Self {
        buffer.push(b'{');
        ObjectWriter {
            buffer,
            depth,
            members: 0,
        }
    }

    /// Adds a member holding `value`.
    ///
    /// # Errors
    /// As [`write_value`].
    pub fn value(&mut self, key: &str, value: &Value) -> io::Result<()> {
        self.key::<true>(key)?;
        write_value(self.buffer, value, self.depth + 1)
    }

    /// Adds a member holding `value`, when the caller knows that neither `key` nor any string in
    /// `value` holds a byte JSON escapes (`"`, `\\` or a control character): they are copied
    /// without being looked at.
    ///
    /// # Errors
    /// As [`write_value`].
    pub fn value_without_escapes(&mut self, key: &str, value: &Value) -> io::Result<()> {
        self.key::<false>(key)?;
        write_value_as::<false>(self.buffer, value, self.depth + 1)
    }

    /// Adds a member holding the string `text`.
    ///
    /// # Errors
    /// As [`write_value`].
    pub fn text(&mut self, key: &str, text: &str) -> io::Result<()> {
        self.key::<true>(key)?;
        write_string::<true>(self.buffer, text)
    }

    /// Adds a member holding `number`.
    ///
    /// # Errors
    /// As [`write_value`].
    pub fn number(&mut self, key: &str, number: &Number) -> io::Result<()> {
        self.key::<true>(key)?;
        write_number(self.buffer, number);
        Ok(())
    }

    /// Adds a member holding an object, which the caller fills and closes.
    ///
    /// # Errors
    /// As [`write_value`].
    pub fn object(&mut self, key: &str) -> io::Result<ObjectWriter<'_>> {
        self.key::<true>(key)?;
        Ok(ObjectWriter::open(self.buffer, self.depth + 1))
    }

    /// Closes the object.
    pub fn close(self) {
        if self.members > 0 {
            push_newline(self.buffer, self.depth);
        }
        self.buffer.push(b'}');
    }

    fn key<const CHECKED: bool>(&mut self, key: &str) -> io::Result<()> {
        push_entry_start(self.buffer, self.depth + 1, self.members == 0);
        self.members += 1;
        write_string::<CHECKED>(self.buffer, key)?;
        self.buffer.extend_from_slice(b": ");
        Ok(())
    }
}

/// A number as serde_json writes it: integers in decimal, floats in zmij's shortest form that
/// reads back the same, and a float that is not finite (which a `Number` never holds) as `null`.
/// A whole float below 10^15 (a score of 0 or 1, a count) is written as zmij writes it, the
/// integer and `.0`, without zmij's 128-bit arithmetic (a library call in WebAssembly).
fn write_number(buffer: &mut Vec<u8>, number: &Number) {
    let mut integer = itoa::Buffer::new();
    let mut float = zmij::Buffer::new();
    let text = if number.is_negative_zero_integer() {
        "-0"
    } else if let Some(unsigned) = number.as_u64() {
        integer.format(unsigned)
    } else if let Some(signed) = number.as_i64() {
        integer.format(signed)
    } else {
        match number.as_f64() {
            Some(value) if value.is_finite() => match small_whole(value) {
                Some(whole) => {
                    short_copy::append(buffer, integer.format(whole).as_bytes());
                    ".0"
                }
                None => float.format_finite(value),
            },
            _ => "null",
        }
    };
    short_copy::append(buffer, text.as_bytes());
}

/// `value` as an integer when it is a whole number below 10^15 in magnitude, other than `-0.0`
/// (whose sign an integer cannot hold).
fn small_whole(value: f64) -> Option<i64> {
    const LIMIT: f64 = 1e15;
    let whole = value.fract() == 0.0 && value.abs() < LIMIT;
    #[allow(
        clippy::cast_possible_truncation,
        reason = "a whole number below 10^15 in magnitude converts exactly"
    )]
    (whole && !(value == 0.0 && value.is_sign_negative())).then_some(value as i64)
}

/// A string as JSON: copied between quotes when nothing in it needs escaping (not looked for
/// when `CHECKED` is false), else escaped by serde_json.
fn write_string<const CHECKED: bool>(buffer: &mut Vec<u8>, text: &str) -> io::Result<()> {
    if CHECKED && needs_escape(text.as_bytes()) {
        return serde_json::to_writer(&mut *buffer, text).map_err(io::Error::from);
    }
    buffer.reserve(text.len() + 2);
    buffer.push(b'"');
    short_copy::append(buffer, text.as_bytes());
    buffer.push(b'"');
    Ok(())
}

/// Whether `bytes` holds a control character, `"` or `\\`. Bytes are tested in windows of a
/// constant size, compiled to vector compares (SSE2 or WebAssembly SIMD): whole windows, then one
/// last window that ends where the bytes end (overlapping, which changes nothing for a test).
fn needs_escape(bytes: &[u8]) -> bool {
    match bytes.len() {
        0..=3 => bytes.iter().any(|&byte| is_escaped(byte)),
        4..=7 => windows_need_escape::<4>(bytes),
        8..=15 => windows_need_escape::<8>(bytes),
        _ => windows_need_escape::<16>(bytes),
    }
}

/// [`needs_escape`] for `bytes` at least `W` long.
fn windows_need_escape<const W: usize>(bytes: &[u8]) -> bool {
    let holds_escaped = |window: &[u8; W]| {
        window
            .iter()
            .fold(0u8, |found, &byte| found | u8::from(is_escaped(byte)))
            != 0
    };
    bytes
        .chunks_exact(W)
        .filter_map(|window| <&[u8; W]>::try_from(window).ok())
        .any(holds_escaped)
        || bytes.last_chunk::<W>().is_some_and(holds_escaped)
}

/// Whether JSON escapes `byte` in a string.
fn is_escaped(byte: u8) -> bool {
    (byte < 0x20) | (byte == b'"') | (byte == b'\\')
}

/// Starts a new member or element at `depth` (after `,` when it is not the first).
pub fn push_entry_start(buffer: &mut Vec<u8>, depth: usize, first: bool) {
    if !first {
        buffer.push(b',');
    }
    push_newline(buffer, depth);
}

/// A newline and the indentation of `depth`, in one copy for the usual depths.
fn push_newline(buffer: &mut Vec<u8>, depth: usize) {
    const LINE: &[u8; 65] = b"\n                                                                ";
    let width = depth * INDENT.len();
    if let Some(line) = LINE.get(..=width) {
        short_copy::append(buffer, line);
        return;
    }
    buffer.push(b'\n');
    for _ in 0..depth {
        buffer.extend_from_slice(INDENT);
    }
}

/// Ends an object or array whose entries sat at `depth + 1`, with `close` (`}` or `]`).
pub fn push_end(buffer: &mut Vec<u8>, depth: usize, close: u8) {
    push_newline(buffer, depth);
    buffer.push(close);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn escape_test_finds_every_byte_that_needs_escaping() {
        for length in 1..=40 {
            assert!(!needs_escape(&vec![b'x'; length]), "length {length}");
            for position in 0..length {
                for byte in 0u8..=0x7f {
                    let mut text = vec![b'x'; length];
                    if let Some(slot) = text.get_mut(position) {
                        *slot = byte;
                    }
                    let expected = byte < 0x20 || byte == b'"' || byte == b'\\';
                    assert_eq!(
                        needs_escape(&text),
                        expected,
                        "byte {byte:#x} at {position} of {length}"
                    );
                }
            }
        }
        assert!(!needs_escape(b""));
        assert!(!needs_escape("é日本\u{E200}\u{7f}".as_bytes()));
    }

    #[test]
    fn floats_are_written_as_serde_json_writes_them() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -2.5,
            1e15,
            -1e15,
            1e16,
            9_007_199_254_740_992.0,
        ];
        for exponent in 0..=16 {
            let power = 10f64.powi(exponent);
            values.extend([power, -power, power - 1.0, power + 1.0, power * 1.5]);
        }
        let mut rng = crate::test_rng::XorShift::new(0x1234_5678_9ABC_DEF1);
        for _ in 0..2000 {
            let bits = rng.next_u64();
            values.push(f64::from_bits(bits));
            values.push((bits >> 14) as f64);
            values.push((bits >> 11) as f64 / 1024.0);
            values.push(-((bits >> 20) as f64));
        }
        for value in values.into_iter().filter(|value| value.is_finite()) {
            let Some(number) = Number::from_f64(value) else {
                continue;
            };
            let mut written = Vec::new();
            write_number(&mut written, &number);
            let expected = serde_json::to_string(&value).unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), expected, "{value:?}");
        }
    }

    #[test]
    fn nested_values_match_the_whole_document() {
        let inner = json!({
            "a": [1, {"b": "x\ny"}],
            "c": {},
            "d": [],
            "e": [[[]], [{}], null, true, false],
            "f": ["quote \" back \\ tab \t bell \u{7} del \u{7f}", "é 日本 \u{E200}", ""],
            "g": [0, -1, 1.0, 0.1, 1e300, -2.5e-8, 12345678901234567890u64, 0.43243243243243246, i64::MIN, u64::MAX, -0.0, 5e-324, f64::MAX],
            "esc\"aped key": {"x": {"y": {"z": [1]}}},
            "deep": (0..40).fold(json!({"bottom": [1, 2]}), |inner, depth| if depth % 2 == 0 {
                json!([inner, depth])
            } else {
                json!({"level": depth, "next": inner})
            })
        });
        let whole = serde_json::to_vec_pretty(&json!({"k": [inner]})).unwrap();
        let mut out = Vec::new();
        out.push(b'{');
        push_entry_start(&mut out, 1, true);
        out.extend_from_slice(b"\"k\": [");
        push_entry_start(&mut out, 2, true);
        write_value(&mut out, &inner, 2).unwrap();
        push_end(&mut out, 1, b']');
        push_end(&mut out, 0, b'}');
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(whole).unwrap()
        );
    }
}
