//! Builds the [`Value`] of JSON text that has already been checked, without serde's
//! visitor machinery: strings without escapes are copied as they are, escaped strings are handed
//! to serde_json, and numbers are read here, floats correctly rounded (so a float is the `f64`
//! Python's `json` reads, where serde_json's own reading can be one unit in the last place off).
//! `None` for anything else the checked text cannot hold,
//! so the caller can fall back to serde_json for the whole text; strings are not searched for the
//! control characters the check has already ruled out.

use crate::{Map, Number, Value};

use crate::float_parse;

/// The value of `text`, one JSON value with optional surrounding whitespace, and whether any of
/// its strings or keys held an escape sequence (in JSON text, whether it holds a backslash).
pub(super) fn value(text: &str) -> Option<(Value, bool)> {
    let mut value = Value::Null;
    let escaped = value_into(text, &mut value)?;
    Some((value, escaped))
}

/// [`value`] built into `slot`, reusing the strings, arrays and objects `slot` holds where
/// `text` has a string, array or object in the same place: a streamed document's items mostly
/// share one shape, so rebuilding the last item's tree spares an allocation and a free for
/// nearly every string, key and container. `None` as [`value`], with `slot` left holding some
/// other value.
pub(super) fn value_into(text: &str, slot: &mut Value) -> Option<bool> {
    let mut builder = Builder {
        text,
        pos: 0,
        escaped: false,
    };
    builder.value_into(slot)?;
    builder.skip_whitespace();
    (builder.pos == text.len()).then_some(builder.escaped)
}

/// Room beyond this many bytes that a rebuilt string, array or object no longer needs (over four
/// times what it holds) is given back, so that one large item does not keep its memory for the
/// rest of a document.
const KEPT_SPARE_BYTES: usize = 64 * 1024;

/// Whether a rebuilt buffer of `capacity` elements of `T`, now holding `len`, should give back
/// its room (see [`KEPT_SPARE_BYTES`]).
fn has_too_much_room<T>(capacity: usize, len: usize) -> bool {
    capacity.saturating_mul(std::mem::size_of::<T>()) > KEPT_SPARE_BYTES && capacity / 4 > len
}

/// Keeps the first `len` items of a rebuilt array or object, giving back room it no longer needs.
#[inline]
pub(super) fn keep_first<T>(items: &mut Vec<T>, len: usize) {
    items.truncate(len);
    if has_too_much_room::<T>(items.capacity(), len) {
        items.shrink_to_fit();
    }
}

/// Puts `value` in `slot`. What `slot` held is dropped by its own kind: a `null` or a boolean
/// (what a fresh slot holds, and many rebuilt ones) owns nothing, so it is forgotten rather than
/// handed to the whole value's drop code, a call that would free nothing; a number is moved out
/// and dropped as a number (it owns memory only with serde_json's `arbitrary_precision`).
#[inline]
fn put(slot: &mut Value, value: Value) {
    let old = std::mem::replace(slot, value);
    match old {
        Value::Null | Value::Bool(_) => std::mem::forget(old),
        Value::Number(_number) => {}
        owner => drop(owner),
    }
}

/// Sets `target` to `text`, in its own buffer when it has room for it and not far more.
#[inline]
fn overwrite(target: &mut String, text: &str) {
    let room = target.capacity();
    if room < text.len() || has_too_much_room::<u8>(room, text.len()) {
        *target = text.to_owned();
    } else {
        target.clear();
        target.push_str(text);
    }
}

/// Where the first `"` or `\\` of `bytes` is (their length when there is none): in checked text,
/// the only bytes of a string that need attention, as a control character cannot occur there.
fn quote_or_backslash(bytes: &[u8]) -> usize {
    memchr::memchr2(b'"', b'\\', bytes).unwrap_or(bytes.len())
}

struct Builder<'t> {
    text: &'t str,
    pos: usize,
    escaped: bool,
}

impl Builder<'_> {
    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.pos += 1;
        }
    }

    /// Steps over `byte` after any whitespace; `None` when something else comes.
    fn consume(&mut self, byte: u8) -> Option<()> {
        self.skip_whitespace();
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    /// Builds the value at `pos` into `slot`, reusing what `slot` holds (see [`value_into`]).
    fn value_into(&mut self, slot: &mut Value) -> Option<()> {
        self.skip_whitespace();
        match self.peek()? {
            b'{' => {
                if !matches!(slot, Value::Object(_)) {
                    put(slot, Value::Object(Map::with_capacity(7)));
                }
                let Value::Object(members) = slot else {
                    return None;
                };
                self.object_into(members)
            }
            b'[' => {
                if !matches!(slot, Value::Array(_)) {
                    put(slot, Value::Array(Vec::new()));
                }
                let Value::Array(elements) = slot else {
                    return None;
                };
                self.array_into(elements)
            }
            b'"' => {
                if !matches!(slot, Value::String(_)) {
                    put(slot, Value::String(String::new()));
                }
                let Value::String(text) = slot else {
                    return None;
                };
                self.string_into(text)
            }
            b't' => self.literal("true", Value::Bool(true), slot),
            b'f' => self.literal("false", Value::Bool(false), slot),
            b'n' => self.literal("null", Value::Null, slot),
            _ => {
                put(slot, Value::Number(self.number()?));
                Some(())
            }
        }
    }

    fn literal(&mut self, word: &str, value: Value, slot: &mut Value) -> Option<()> {
        let end = self.pos + word.len();
        (self.text.get(self.pos..end)? == word).then(|| {
            self.pos = end;
            put(slot, value);
        })
    }

    fn object_into(&mut self, members: &mut Map<String, Value>) -> Option<()> {
        let mut count = 0;
        self.sequence(b'}', |builder| {
            builder.skip_whitespace();
            let (key, value) = members.member_to_rebuild(count)?;
            builder.string_into(key)?;
            builder.consume(b':')?;
            builder.value_into(value)?;
            count += 1;
            Some(())
        })?;
        if count < members.len() {
            members.keep_first(count);
        }
        Some(())
    }

    fn array_into(&mut self, elements: &mut Vec<Value>) -> Option<()> {
        let mut count = 0;
        self.sequence(b']', |builder| {
            if count == elements.len() {
                elements.push(Value::Null);
            }
            builder.value_into(elements.get_mut(count)?)?;
            count += 1;
            Some(())
        })?;
        if count < elements.len() {
            keep_first(elements, count);
        }
        Some(())
    }

    /// The comma-separated entries of an array or object from its opening bracket at `pos` to
    /// `close`, each read by `entry`.
    fn sequence(
        &mut self,
        close: u8,
        mut entry: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        self.pos += 1;
        self.skip_whitespace();
        if self.peek()? == close {
            self.pos += 1;
            return Some(());
        }
        loop {
            entry(self)?;
            self.skip_whitespace();
            match self.peek()? {
                b',' => self.pos += 1,
                byte if byte == close => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The string at `pos` (its opening quote) written over `target`: copied when it holds no
    /// escape, else decoded by serde_json.
    fn string_into(&mut self, target: &mut String) -> Option<()> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.pos + 1;
        let end = start + quote_or_backslash(self.bytes().get(start..)?);
        match self.bytes().get(end)? {
            b'"' => {
                self.pos = end + 1;
                overwrite(target, self.text.get(start..end)?);
                Some(())
            }
            b'\\' => {
                self.escaped = true;
                let close = self.escaped_string_end(end)?;
                let quoted = self.text.get(start - 1..=close)?;
                self.pos = close + 1;
                match serde_json::from_str(quoted) {
                    Ok(Value::String(unescaped)) => {
                        *target = unescaped;
                        Some(())
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The position of the closing quote of a string with an escape at `backslash`.
    fn escaped_string_end(&self, mut backslash: usize) -> Option<usize> {
        loop {
            let after = backslash + 2;
            let end = after + quote_or_backslash(self.bytes().get(after..)?);
            match self.bytes().get(end)? {
                b'"' => return Some(end),
                b'\\' => backslash = end,
                _ => return None,
            }
        }
    }

    /// A number as serde_json types it (integers that fit `i64` or `u64` as integers, everything
    /// else as floats) except `-0`, an integer that keeps its literal; the floats correctly
    /// rounded, which serde_json's reading (without its `float_roundtrip` feature) is not always.
    fn number(&mut self) -> Option<Number> {
        let start = self.pos;
        let negative = self.peek()? == b'-';
        let digits_start = start + usize::from(negative);
        let mut end = digits_start;
        let mut magnitude: u64 = 0;
        while let Some(digit) = self.bytes().get(end).filter(|byte| byte.is_ascii_digit()) {
            magnitude = magnitude
                .wrapping_mul(10)
                .wrapping_add(u64::from(digit - b'0'));
            end += 1;
        }
        let is_plain_integer = end > digits_start
            && end - digits_start <= 18
            && !(negative && magnitude == 0)
            && !matches!(self.bytes().get(end), Some(b'.' | b'e' | b'E'));
        if is_plain_integer {
            self.pos = end;
            let magnitude = i64::try_from(magnitude).ok()?;
            return Some(if negative {
                Number::from(-magnitude)
            } else {
                Number::from(magnitude)
            });
        }
        while matches!(
            self.bytes().get(end),
            Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
        ) {
            end += 1;
        }
        let literal = self.text.get(start..end)?;
        let is_integer = !literal
            .bytes()
            .any(|byte| matches!(byte, b'.' | b'e' | b'E'));
        let integer = match (is_integer, negative) {
            (false, _) => None,
            (true, true) if literal == "-0" => Some(Number::negative_zero_integer()),
            (true, true) => literal.parse::<i64>().ok().map(Number::from),
            (true, false) => literal.parse::<u64>().ok().map(Number::from),
        };
        let number = match integer {
            Some(integer) => integer,
            None => Number::from_f64(float_parse::parse_f64(literal)?)?,
        };
        self.pos = end;
        Some(number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

    fn same_as_serde_json(text: &str) {
        let expected: Value = serde_json::from_str(text).unwrap();
        let (built, escaped) = value(text).unwrap_or_else(|| panic!("not built: {text}"));
        let built = built.as_serde_json_reads_it();
        assert_eq!(escaped, text.contains('\\'), "{text}");
        assert_eq!(built, expected, "{text}");
        assert_eq!(built.to_string(), expected.to_string(), "{text}");
    }

    #[test]
    fn keeps_the_integer_literal_negative_zero() {
        for (text, written) in [
            ("-0", "-0"),
            ("[-0, -0.0, 0, -0e0]", "[-0,-0.0,0,-0.0]"),
            (r#"{"n": -0}"#, r#"{"n":-0}"#),
        ] {
            let (built, _) = value(text).unwrap_or_else(|| panic!("not built: {text}"));
            assert_eq!(built.to_string(), written);
        }
        let (zero, _) = value("-0").unwrap();
        assert_eq!(zero.as_i64(), Some(0));
        assert!(zero.is_i64());
    }

    #[test]
    fn builds_what_serde_json_builds() {
        for text in [
            "0",
            "7",
            "-7",
            "123456789012345678",
            "-123456789012345678",
            "1234567890123456789",
            "-1234567890123456789",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "1.5",
            "-0.0",
            "1e5",
            "1E+5",
            "-2.5e-3",
            "100.0",
            "true",
            "false",
            "null",
            r#""""#,
            r#""plain text é 日本 😀""#,
            r#""say \"hi\" \\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 \u0000 end""#,
            r#""\\""#,
            "[]",
            "{}",
            " \n\t[ 1 , [ ] , { } , \"x\" ]\r\n",
            r#"{"a": {"b": [1, {"c": null}], "d\"e": "f"}, "g": -0.5}"#,
            r#"{"z": 1, "a": 2, "m": 3}"#,
        ] {
            same_as_serde_json(text);
        }
    }

    const ALPHABET: &[&str] = &[
        "a", "Z", " ", "\"", "\\", "/", "\n", "\u{1}", "é", "日", "😀", "\u{7f}",
    ];

    fn random_value(depth: u32, next: &mut dyn FnMut(u64) -> u64) -> Value {
        let string = |next: &mut dyn FnMut(u64) -> u64| -> String {
            (0..next(12))
                .map(|_| ALPHABET[next(ALPHABET.len() as u64) as usize])
                .collect()
        };
        match next(if depth > 3 { 6 } else { 8 }) {
            0 => Value::Null,
            1 => Value::Bool(next(2) == 0),
            2 => Value::from(next(u64::MAX) >> next(64)),
            3 => Value::from(-((next(u64::MAX) >> (next(63) + 1)) as i64)),
            4 => Value::from(f64::from_bits(next(u64::MAX)).clamp(-1e300, 1e300) / 3.0),
            5 => Value::String(string(next)),
            6 => Value::Array(
                (0..next(5))
                    .map(|_| random_value(depth + 1, next))
                    .collect(),
            ),
            _ => Value::Object(
                (0..next(6))
                    .map(|_| (string(next), random_value(depth + 1, next)))
                    .collect(),
            ),
        }
    }

    fn random_text(round: usize, next: &mut dyn FnMut(u64) -> u64) -> String {
        let value = random_value(0, next);
        if round.is_multiple_of(2) {
            serde_json::to_string(&value).unwrap()
        } else {
            serde_json::to_string_pretty(&value).unwrap()
        }
    }

    #[test]
    fn builds_random_values_as_serde_json_does() {
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move |below: u64| rng.next_u64() % below;
        for round in 0..5_000 {
            same_as_serde_json(&random_text(round, &mut next));
        }
    }

    #[test]
    fn rebuilding_over_any_value_gives_what_building_afresh_gives() {
        let mut rng = XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |below: u64| rng.next_u64() % below;
        let mut slot = Value::Null;
        for round in 0..5_000 {
            let text = random_text(round, &mut next);
            if round.is_multiple_of(7) {
                slot = random_value(0, &mut next);
            }
            let escaped = value_into(&text, &mut slot).unwrap();
            assert_eq!(Some((slot.clone(), escaped)), value(&text), "{text}");
        }
        let item =
            |prompt: &str| format!(r#"{{"prompt": "{prompt}", "tags": ["a", "b"], "n": 1}}"#);
        let mut slot = value(&item("first")).unwrap().0;
        for text in [
            item("second"),
            "[1, 2]".to_owned(),
            item("third"),
            "\"x\"".to_owned(),
        ] {
            value_into(&text, &mut slot).unwrap();
            assert_eq!(slot, value(&text).unwrap().0, "{text}");
        }
    }

    #[test]
    fn rebuilding_keeps_room_for_the_next_item_but_not_a_large_items_room() {
        let large = "x".repeat(4 * KEPT_SPARE_BYTES);
        let mut slot = value(&format!(
            r#"{{"text": "{large}", "list": [{}]}}"#,
            "0,".repeat(20_000) + "0"
        ))
        .unwrap()
        .0;
        value_into(r#"{"text": "short", "list": [1]}"#, &mut slot).unwrap();
        let (Some(Value::String(text)), Some(Value::Array(list))) =
            (slot.get("text"), slot.get("list"))
        else {
            panic!("not rebuilt: {slot}");
        };
        assert_eq!((text.as_str(), list.len()), ("short", 1));
        assert!(text.capacity() < KEPT_SPARE_BYTES, "{}", text.capacity());
        assert!(list.capacity() < 20_000, "{}", list.capacity());

        let mut slot = value(r#"{"text": "a longer text than the next one"}"#)
            .unwrap()
            .0;
        let before = slot
            .get("text")
            .and_then(Value::as_str)
            .map(|text| text.as_ptr());
        value_into(r#"{"text": "shorter"}"#, &mut slot).unwrap();
        let after = slot
            .get("text")
            .and_then(Value::as_str)
            .map(|text| text.as_ptr());
        assert_eq!(before, after, "the string's buffer is reused");
    }

    #[test]
    fn a_failed_rebuild_is_reported() {
        let mut slot = value(r#"{"a": [1, 2, 3]}"#).unwrap().0;
        assert_eq!(value_into(r#"{"a": [1, 2"#, &mut slot), None);
        assert_eq!(value_into("[1] 2", &mut slot), None);
    }
}
