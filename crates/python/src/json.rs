//! Python's `json.loads` for the task-navigation reference's string inputs: ints keep their
//! digits, `NaN`/`Infinity` are accepted, duplicate keys keep the first position and the last
//! value. Also the `json.dumps` encoding of floats and strings that [`super::pyview`] renders with.

use std::borrow::Cow;

use agenteval_json::float_parse;

use crate::decimal;

/// Deepest nesting accepted. The reference's recursive copies and encoders give out at a few
/// hundred levels (a raw `RecursionError`); we stop well before, with our own message.
pub const MAX_DEPTH: usize = 100;

/// CPython 3.11 refuses to convert integer literals longer than this (`ValueError`).
const MAX_INT_DIGITS: usize = 4300;

/// A value after `json.loads`.
#[derive(Debug, Clone, PartialEq)]
pub enum PyValue<'a> {
    /// `None`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// An `int`, as its canonical decimal digits (`-12`).
    Int(Cow<'a, str>),
    /// A `float`.
    Float(f64),
    /// A `str` (borrowed from the dataset when it came from parsed JSON).
    Str(Cow<'a, str>),
    /// A `list`.
    List(Vec<PyValue<'a>>),
    /// A `dict` in insertion order.
    Dict(Vec<(Cow<'a, str>, PyValue<'a>)>),
}

/// Why a string could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// Not valid JSON for Python: the reference keeps the string as it is.
    Invalid,
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// Valid for Python but holds a lone surrogate (`"\ud800"`), which Rust strings cannot hold.
    LoneSurrogate,
}

impl PyValue<'_> {
    /// `json.loads(text)`.
    ///
    /// # Errors
    /// See [`DecodeError`].
    pub fn parse(text: &str) -> Result<PyValue<'static>, DecodeError> {
        let mut parser = Parser {
            bytes: text.as_bytes(),
            text,
            pos: 0,
            lone_surrogates: 0,
        };
        parser.skip_ws();
        let value = parser.value(0)?;
        parser.skip_ws();
        if parser.pos != parser.bytes.len() {
            return Err(DecodeError::Invalid);
        }
        if parser.lone_surrogates > 0 {
            return Err(DecodeError::LoneSurrogate);
        }
        Ok(value)
    }
}

/// `json.dumps` of a float: `NaN`, `Infinity`, `-Infinity`, else its `repr`.
pub fn dump_float(value: f64) -> String {
    if value.is_nan() {
        "NaN".to_owned()
    } else if value.is_infinite() {
        if value > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else {
        decimal::python_repr(value)
    }
}

/// `json.dumps` of a string with `ensure_ascii`, appended to `out`.
pub fn dump_str(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0C}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    /// Lone surrogates in the strings of the value so far (less those of values a later duplicate
    /// key replaced): reported only once the whole text has parsed, since Python reports a syntax
    /// error anywhere in it instead, and only when one is left in the value Python would return.
    lone_surrogates: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, literal: &str) -> bool {
        if self
            .text
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(literal))
        {
            self.pos += literal.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<PyValue<'static>, DecodeError> {
        if depth > MAX_DEPTH {
            return Err(DecodeError::TooDeep);
        }
        match self.peek() {
            Some(b'"') => self.string().map(|text| PyValue::Str(Cow::Owned(text))),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'n') if self.eat("null") => Ok(PyValue::None),
            Some(b't') if self.eat("true") => Ok(PyValue::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(PyValue::Bool(false)),
            Some(b'N') if self.eat("NaN") => Ok(PyValue::Float(f64::NAN)),
            Some(b'I') if self.eat("Infinity") => Ok(PyValue::Float(f64::INFINITY)),
            Some(b'-') if self.eat("-Infinity") => Ok(PyValue::Float(f64::NEG_INFINITY)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(DecodeError::Invalid),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<PyValue<'static>, DecodeError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(DecodeError::Invalid),
        }
        let int_end = self.pos;
        let mut is_float = false;
        if self.peek() == Some(b'.') && matches!(self.bytes.get(self.pos + 1), Some(b'0'..=b'9')) {
            self.pos += 1;
            self.digits();
            is_float = true;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let mark = self.pos;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                self.pos = mark;
            } else {
                is_float = true;
            }
        }
        let literal = self.text.get(start..self.pos).unwrap_or_default();
        if is_float {
            return float_parse::parse_f64(literal)
                .map(PyValue::Float)
                .ok_or(DecodeError::Invalid);
        }
        let digits = self.text.get(start..int_end).unwrap_or_default();
        let unsigned = digits.trim_start_matches('-');
        if unsigned.len() > MAX_INT_DIGITS {
            return Err(DecodeError::Invalid);
        }
        Ok(PyValue::Int(Cow::Owned(if unsigned == "0" {
            "0".to_owned()
        } else {
            digits.to_owned()
        })))
    }

    fn hex4(&mut self) -> Result<u32, DecodeError> {
        let hex = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or(DecodeError::Invalid)?;
        self.pos += 4;
        u32::from_str_radix(hex, 16).map_err(|_| DecodeError::Invalid)
    }

    fn string(&mut self) -> Result<String, DecodeError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let rest = self.text.get(self.pos..).ok_or(DecodeError::Invalid)?;
            let c = rest.chars().next().ok_or(DecodeError::Invalid)?;
            self.pos += c.len_utf8();
            match c {
                '"' => break,
                '\u{0}'..='\u{1F}' => return Err(DecodeError::Invalid),
                '\\' => {
                    let escape = self.peek().ok_or(DecodeError::Invalid)?;
                    self.pos += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{08}'),
                        b'f' => out.push('\u{0C}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let unit = self.hex4()?;
                            match unit {
                                0xD800..=0xDBFF
                                    if self.text.get(self.pos..self.pos + 2) == Some("\\u") =>
                                {
                                    let mark = self.pos;
                                    self.pos += 2;
                                    let low = self.hex4()?;
                                    if (0xDC00..=0xDFFF).contains(&low) {
                                        let code =
                                            0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                                        out.push(char::from_u32(code).ok_or(DecodeError::Invalid)?);
                                    } else {
                                        self.lone_surrogates += 1;
                                        self.pos = mark;
                                    }
                                }
                                0xD800..=0xDFFF => self.lone_surrogates += 1,
                                _ => out.push(char::from_u32(unit).ok_or(DecodeError::Invalid)?),
                            }
                        }
                        _ => return Err(DecodeError::Invalid),
                    }
                }
                _ => out.push(c),
            }
        }
        Ok(out)
    }

    fn array(&mut self, depth: usize) -> Result<PyValue<'static>, DecodeError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(PyValue::List(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth + 1)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(PyValue::List(items));
                }
                _ => return Err(DecodeError::Invalid),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<PyValue<'static>, DecodeError> {
        self.pos += 1;
        let mut entries: Vec<(Cow<'static, str>, PyValue<'static>)> = Vec::new();
        let mut lone_surrogates_in_values: Vec<usize> = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(PyValue::Dict(entries));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(DecodeError::Invalid);
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(DecodeError::Invalid);
            }
            self.pos += 1;
            self.skip_ws();
            let before = self.lone_surrogates;
            let value = self.value(depth + 1)?;
            let inside = self.lone_surrogates.saturating_sub(before);
            let duplicate = entries
                .iter_mut()
                .zip(&mut lone_surrogates_in_values)
                .find(|((existing, _), _)| *existing == key);
            match duplicate {
                Some(((_, slot), replaced)) => {
                    self.lone_surrogates = self.lone_surrogates.saturating_sub(*replaced);
                    *replaced = inside;
                    *slot = value;
                }
                None => {
                    entries.push((Cow::Owned(key), value));
                    lone_surrogates_in_values.push(inside);
                }
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(PyValue::Dict(entries));
                }
                _ => return Err(DecodeError::Invalid),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_like_python_json_loads() {
        assert_eq!(
            PyValue::parse(" [1, 1.0, -0, 1e2] ").unwrap(),
            PyValue::List(vec![
                PyValue::Int("1".into()),
                PyValue::Float(1.0),
                PyValue::Int("0".into()),
                PyValue::Float(100.0),
            ])
        );
        assert!(matches!(PyValue::parse("NaN"), Ok(PyValue::Float(f)) if f.is_nan()));
        assert_eq!(
            PyValue::parse("-Infinity"),
            Ok(PyValue::Float(f64::NEG_INFINITY))
        );
        assert_eq!(
            PyValue::parse(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap(),
            PyValue::Dict(vec![
                ("a".into(), PyValue::Int("3".into())),
                ("b".into(), PyValue::Int("2".into())),
            ])
        );
        for bad in [
            "",
            "01",
            "[1,]",
            "{'a': 1}",
            "\u{feff}[]",
            "[1] x",
            "\"\t\"",
            "1.",
            "tru",
        ] {
            assert_eq!(PyValue::parse(bad), Err(DecodeError::Invalid), "{bad:?}");
        }
        assert_eq!(
            PyValue::parse(r#""\ud800""#),
            Err(DecodeError::LoneSurrogate)
        );
        assert_eq!(
            PyValue::parse(r#"["\ud800", {"a": "\udc00x"}]"#),
            Err(DecodeError::LoneSurrogate)
        );
        assert_eq!(
            PyValue::parse(r#"["\ud800", 01]"#),
            Err(DecodeError::Invalid),
            "a syntax error after a lone surrogate is what Python reports"
        );
        assert_eq!(
            PyValue::parse(r#"{"a": ["\ud800"], "b": 1, "a": "\ud83d\ude00"}"#),
            Ok(PyValue::Dict(vec![
                ("a".into(), PyValue::Str("😀".into())),
                ("b".into(), PyValue::Int("1".into())),
            ])),
            "a lone surrogate in a value a duplicate key replaces is gone, as in Python"
        );
        assert_eq!(
            PyValue::parse(r#"{"a": 1, "a": {"\udc00": 2}}"#),
            Err(DecodeError::LoneSurrogate)
        );
        assert_eq!(
            PyValue::parse(r#""\ud83d\ude00""#),
            Ok(PyValue::Str("😀".into()))
        );
        assert_eq!(PyValue::parse(&"[".repeat(200)), Err(DecodeError::TooDeep));
        assert_eq!(PyValue::parse(&"9".repeat(4301)), Err(DecodeError::Invalid));
    }
}
