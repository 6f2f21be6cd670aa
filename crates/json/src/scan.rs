//! One fast pass over a whole JSON document that both checks it and finds where its top-level
//! members and the elements of one array member are, without building any value.
//!
//! The check is conservative: whatever it accepts, [`super::parse_str`] accepts too (syntax,
//! duplicate keys, string lengths, finite numbers, nesting), so a streaming reader can rely on it
//! before writing anything. It gives up (`None`) on what it does not decide cheaply: escaped
//! object keys, objects of many members, numbers near the limits of `f64`, nesting near the
//! limit. Callers then take the slower exact path.

use super::{MAX_DEPTH, MAX_STRING_BYTES};
use crate::byte_words::{self, HIGHS, ONES};
use crate::float_parse;

/// Objects with more members than this are left to the exact path (duplicate keys are found by
/// comparing each key with the ones before it).
const MAX_SCANNED_MEMBERS: usize = 64;

/// The deepest nesting accepted here, one short of the limit, so that a top-level member's value
/// still parses within the limit when parsed apart from its document.
const MAX_SCANNED_DEPTH: usize = MAX_DEPTH - 1;

/// Digits an integer may have and still be an `i64` or `u64`-sized number for certain.
const SURE_INTEGER_DIGITS: usize = 18;

/// The largest magnitude a number may have here; beyond it serde_json's float parsing, which is
/// not always correctly rounded, might overflow where a correctly rounded reading does not.
const MAX_SURE_MAGNITUDE: f64 = 1e308;

/// Where a document's parts are, as found by [`outline`].
#[derive(Debug)]
pub(super) struct Spans<'t> {
    /// Each top-level member's key (it has no escapes) and value text, in order.
    pub members: Vec<(&'t str, &'t str)>,
    /// The text of each element of the array member.
    pub elements: Vec<&'t str>,
}

/// Checks `text` (a document without a byte-order mark) and finds its parts: `None` unless it is
/// an object with an array member `array_key` that [`super::parse_str`] accepts and this pass
/// can decide.
pub(super) fn outline<'t>(text: &'t str, array_key: &str) -> Option<Spans<'t>> {
    let mut scanner = Scanner {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        containers: Vec::new(),
        keys: Vec::new(),
        spans: Spans {
            members: Vec::new(),
            elements: Vec::new(),
        },
        member: None,
        element_start: 0,
        array_key,
        found_array: false,
    };
    scanner.skip_whitespace();
    if scanner.peek() != Some(b'{') {
        return None;
    }
    scanner.document()?;
    scanner.skip_whitespace();
    (scanner.pos == scanner.bytes.len() && scanner.found_array).then_some(scanner.spans)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Container {
    /// An object whose keys so far start at this index of `Scanner::keys`.
    Object {
        keys_from: usize,
    },
    Array,
}

struct Scanner<'t, 'k> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    containers: Vec<Container>,
    keys: Vec<&'t str>,
    spans: Spans<'t>,
    /// The top-level member being read: its key, where its value starts, and whether it is the
    /// array member.
    member: Option<(&'t str, usize, bool)>,
    /// Where the array member's current element starts.
    element_start: usize,
    array_key: &'k str,
    found_array: bool,
}

impl<'t> Scanner<'t, '_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_whitespace();
        (self.peek() == Some(byte)).then(|| self.pos += 1)
    }

    fn in_array_member(&self) -> bool {
        self.containers.len() == 2 && matches!(self.member, Some((_, _, true)))
    }

    /// Reads the document's root value, keeping the spans as values start and end.
    fn document(&mut self) -> Option<()> {
        loop {
            self.skip_whitespace();
            let start = self.pos;
            if self.in_array_member() {
                self.element_start = start;
            }
            if self.containers.len() == 1 {
                let (key, _, _) = self.member?;
                let is_array = key == self.array_key;
                if is_array && (self.found_array || self.peek() != Some(b'[')) {
                    return None;
                }
                self.found_array |= is_array;
                self.member = Some((key, start, is_array));
            }
            let opened = match self.peek()? {
                b'{' => self.open(Container::Object {
                    keys_from: self.keys.len(),
                })?,
                b'[' => self.open(Container::Array)?,
                b'"' => {
                    self.string()?;
                    false
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                _ => self.number()?,
            };
            if opened {
                continue;
            }
            if !self.after_value()? {
                return Some(());
            }
        }
    }

    /// Opens a container and, unless it is empty, reads up to where its first value starts.
    /// `Some(true)` when a value is expected next; `Some(false)` when the container closed at once.
    fn open(&mut self, container: Container) -> Option<bool> {
        if self.containers.len() >= MAX_SCANNED_DEPTH {
            return None;
        }
        self.pos += 1;
        self.containers.push(container);
        self.skip_whitespace();
        let close = match container {
            Container::Object { .. } => b'}',
            Container::Array => b']',
        };
        if self.peek() == Some(close) {
            self.pos += 1;
            self.containers.pop();
            return Some(false);
        }
        if matches!(container, Container::Object { .. }) {
            self.key()?;
        }
        Some(true)
    }

    /// After a value: records the spans it ends, then reads separators and closing brackets up
    /// to the next value. `Some(true)` when a value follows; `Some(false)` at the document's end.
    fn after_value(&mut self) -> Option<bool> {
        loop {
            self.close_spans(self.pos)?;
            self.skip_whitespace();
            let Some(&container) = self.containers.last() else {
                return Some(false);
            };
            match (container, self.peek()?) {
                (_, b',') => {
                    self.pos += 1;
                    if matches!(container, Container::Object { .. }) {
                        self.key()?;
                    }
                    return Some(true);
                }
                (Container::Object { keys_from }, b'}') => {
                    self.pos += 1;
                    self.keys.truncate(keys_from);
                    self.containers.pop();
                }
                (Container::Array, b']') => {
                    self.pos += 1;
                    self.containers.pop();
                }
                _ => return None,
            }
        }
    }

    /// Completes the element or top-level member whose value ended at `end`.
    fn close_spans(&mut self, end: usize) -> Option<()> {
        if self.in_array_member() {
            let element = self.text.get(self.element_start..end)?;
            self.spans.elements.push(element);
        } else if self.containers.len() == 1 {
            let (key, start, _) = self.member.take()?;
            self.spans.members.push((key, self.text.get(start..end)?));
        }
        Some(())
    }

    /// Reads an object key and the `:` after it, rejecting duplicates.
    fn key(&mut self) -> Option<()> {
        self.skip_whitespace();
        if self.peek() != Some(b'"') {
            return None;
        }
        let (key, escaped) = self.string()?;
        let Some(&Container::Object { keys_from }) = self.containers.last() else {
            return None;
        };
        let earlier = self.keys.get(keys_from..)?;
        if escaped || earlier.len() >= MAX_SCANNED_MEMBERS || earlier.contains(&key) {
            return None;
        }
        self.keys.push(key);
        if self.containers.len() == 1 {
            self.member = Some((key, self.pos, false));
        }
        self.eat(b':')
    }

    /// Reads a string from its opening quote: its raw text between the quotes and whether it has
    /// escapes. Rejects control characters, bad escapes, lone surrogates and over-long strings.
    fn string(&mut self) -> Option<(&'t str, bool)> {
        let start = self.pos + 1;
        let mut pos = start;
        let mut escaped = false;
        loop {
            pos += plain_run(self.bytes.get(pos..)?);
            match self.bytes.get(pos)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    pos = escape_end(self.bytes, pos)?;
                }
                _ => return None,
            }
        }
        if pos - start > MAX_STRING_BYTES {
            return None;
        }
        self.pos = pos + 1;
        Some((self.text.get(start..pos)?, escaped))
    }

    fn literal(&mut self, word: &[u8]) -> Option<bool> {
        let end = self.pos + word.len();
        (self.bytes.get(self.pos..end)? == word).then(|| self.pos = end)?;
        Some(false)
    }

    /// Reads a number by JSON's grammar, making sure it is finite and well within `f64`'s range.
    fn number(&mut self) -> Option<bool> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek()? {
            b'0' => self.pos += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        let mut is_integer = true;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.required_digits()?;
            is_integer = false;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            self.required_digits()?;
            is_integer = false;
        }
        let number = self.text.get(start..self.pos)?;
        let digits = number.trim_start_matches('-').len();
        if !is_integer || digits > SURE_INTEGER_DIGITS {
            let value = float_parse::parse_f64(number)?;
            (value.abs() <= MAX_SURE_MAGNITUDE).then_some(())?;
        }
        Some(false)
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }

    fn required_digits(&mut self) -> Option<()> {
        let start = self.pos;
        self.digits();
        (self.pos > start).then_some(())
    }
}

/// How many bytes at the start of `bytes` need no attention inside a string: no `"`, `\\` or
/// control character. Eight bytes are tested at a time as one `u64` (the last few padded with
/// spaces): in each test's mask the lowest flagged byte is exact (a false flag can only follow a
/// true one), so the lowest flag of all three is the first byte that needs attention.
pub(super) fn plain_run(bytes: &[u8]) -> usize {
    let below = |word: u64, limit: u8| word.wrapping_sub(ONES * u64::from(limit)) & !word;
    byte_words::first_flagged(bytes, b' ', |word| {
        (below(word, 0x20)
            | below(word ^ (ONES * u64::from(b'"')), 1)
            | below(word ^ (ONES * u64::from(b'\\')), 1))
            & HIGHS
    })
}

/// The position after the escape sequence starting at `backslash`; `None` for an invalid escape
/// or a `\u` surrogate that is not a high-low pair.
fn escape_end(bytes: &[u8], backslash: usize) -> Option<usize> {
    match bytes.get(backslash + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(backslash + 2),
        b'u' => {
            let unit = hex4(bytes, backslash + 2)?;
            match unit {
                0xD800..=0xDBFF => {
                    let low_at = backslash + 6;
                    if bytes.get(low_at..low_at + 2)? != b"\\u" {
                        return None;
                    }
                    let low = hex4(bytes, low_at + 2)?;
                    (0xDC00..=0xDFFF).contains(&low).then_some(low_at + 6)
                }
                0xDC00..=0xDFFF => None,
                _ => Some(backslash + 6),
            }
        }
        _ => None,
    }
}

fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
    if !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::super::{is_acceptable, parse_checked, parse_element, parse_outline};
    use super::*;
    use crate::test_rng::XorShift;

    /// Whether the scan decided `text`; when it did, the text must be acceptable and the spans
    /// must be exactly serde_json's outline.
    fn decided(text: &str) -> bool {
        let Some(spans) = outline(text, "items") else {
            return false;
        };
        let shown = text.chars().take(80).collect::<String>();
        assert!(
            is_acceptable(text),
            "accepted what parsing rejects: {shown}"
        );
        let exact = parse_outline(text, "items").expect("serde_json outlines it");
        assert_eq!(spans.elements, exact.elements, "{shown}");
        for element in &spans.elements {
            let expected: crate::Value = serde_json::from_str(element).unwrap();
            let checked = parse_checked(element).unwrap();
            assert_eq!(checked.value.as_serde_json_reads_it(), expected, "{shown}");
            assert_eq!(checked.has_escapes, element.contains('\\'), "{shown}");
        }
        let keys: Vec<&str> = spans.members.iter().map(|(key, _)| *key).collect();
        let exact_keys: Vec<&str> = exact.members.keys().map(String::as_str).collect();
        assert_eq!(keys, exact_keys, "{shown}");
        for (key, value) in &spans.members {
            if *key != "items" {
                assert_eq!(parse_element(value).ok().as_ref(), exact.members.get(key));
            }
        }
        true
    }

    fn document(items: &str) -> String {
        format!(
            "{{\"schemaVersion\": \"1.0.0\", \"items\": [{items}], \"metadata\": {{\"n\": 1}}}}"
        )
    }

    #[test]
    fn ordinary_documents_are_decided_and_outlined_exactly() {
        for text in [
            document(""),
            document(r#"{"prompt": "a", "n": [1, -2.5e3, 0, true, false, null]}"#),
            document(r#" {"s": "tab\t quote\" slash\/ \u00e9 \ud83d\ude00 é 😀"} , [] , {} , 7 "#),
            "\n{ \"items\" : [ 1 ,2 ] }\r\n\t".to_owned(),
            r#"{"items": [{"a": {"b": {"c": [[], {}]}}}], "z": "\\"}"#.to_owned(),
            r#"{"items": [-0, 0.5, 1E+2, 1e-400, 123456789012345678901234567890, 1e308]}"#
                .to_owned(),
        ] {
            assert!(decided(&text), "{text}");
        }
    }

    #[test]
    fn what_parsing_rejects_is_never_decided() {
        let long = "x".repeat(MAX_STRING_BYTES + 1);
        let rejected = [
            document(r#"{"a": 1, "a": 2}"#),
            r#"{"items": [], "items": []}"#.to_owned(),
            document(r#""\ud800""#),
            document(r#""\udc00\ud800""#),
            document(r#""\udc00""#),
            document(r#""\ud800\u0041""#),
            document(r#""\x""#),
            document(r#""\u12G4""#),
            document("\"raw\ttab\""),
            document("\"unterminated"),
            document("01"),
            document("1."),
            document(".5"),
            document("-"),
            document("1e"),
            document("+1"),
            document("1e400"),
            document(&"9".repeat(400)),
            document("tru"),
            document("nul"),
            document("[1,]"),
            document("{\"a\": 1,}"),
            document("{\"a\" 1}"),
            document("{1: 2}"),
            document(&format!("\"{long}\"")),
            document(&format!("{{\"{long}\": 1}}")),
            r#"{"items": [1]} x"#.to_owned(),
            r#"{"items": [1]"#.to_owned(),
            r#"{"items": 1}"#.to_owned(),
            r#"{"other": []}"#.to_owned(),
            "[1]".to_owned(),
            String::new(),
        ];
        for text in &rejected {
            assert!(
                !decided(text),
                "{}",
                text.chars().take(80).collect::<String>()
            );
        }
    }

    #[test]
    fn hard_cases_are_left_to_the_exact_path() {
        let many_members: Vec<String> = (0..=MAX_SCANNED_MEMBERS)
            .map(|n| format!("\"k{n}\": {n}"))
            .collect();
        for text in [
            document(r#"{"\u0061": 1}"#),
            document(&format!("{{{}}}", many_members.join(", "))),
            document("1.7976931348623157e308"),
        ] {
            assert!(!decided(&text), "{text}");
            assert!(super::super::outline(&text, "items").is_none(), "{text}");
            let whole = super::super::parse_str(&text).expect("reading it whole accepts it");
            assert_eq!(whole["items"].as_array().map(Vec::len), Some(1), "{text}");
        }
    }

    #[test]
    fn plain_runs_stop_at_the_first_byte_that_needs_attention() {
        let naive = |bytes: &[u8]| {
            bytes
                .iter()
                .position(|&byte| byte < 0x20 || byte == b'"' || byte == b'\\')
                .unwrap_or(bytes.len())
        };
        let alphabet = [
            b'a', b'"', b'\\', 0x00, 0x1F, 0x20, 0x21, 0x5B, 0x5D, 0x7F, 0x80, 0xFF, b'!',
        ];
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20_000 {
            let state = rng.next_u64();
            let len = (state % 40) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|at| {
                    let pick = (state >> (at % 60)) as usize % (alphabet.len() * 4);
                    alphabet.get(pick).copied().unwrap_or(b'x')
                })
                .collect();
            assert_eq!(plain_run(&bytes), naive(&bytes), "{bytes:?}");
        }
    }

    #[test]
    fn nesting_is_decided_only_below_the_limit() {
        for depth in 1..=MAX_DEPTH + 1 {
            let text = document(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
            let within = depth + 2 <= MAX_SCANNED_DEPTH;
            assert_eq!(decided(&text), within, "depth {depth}");
        }
    }

    /// Random edits of a document (bytes that matter to JSON inserted, removed or swapped) are
    /// either left undecided or outlined exactly as serde_json outlines them.
    #[test]
    fn edited_documents_are_decided_soundly() {
        const PIECES: &[&str] = &[
            "{",
            "}",
            "[",
            "]",
            "\"",
            ",",
            ":",
            "\\",
            "\\u",
            "d800",
            "0",
            "1",
            "-",
            ".",
            "e",
            "+",
            " ",
            "\t",
            "\n",
            "t",
            "true",
            "null",
            "\"items\"",
            "\"a\"",
            "é",
            "\u{1}",
        ];
        let base = document(
            r#"{"prompt": "hi \"there\"", "n": [1, 2.5, -3e2], "ok": true, "x": null},
               {"prompt": "second", "tags": {"a": "b", "c": ["d", {"e": 0}]}}"#,
        );
        let mut rng = XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut next = |below: usize| rng.below(below);
        let mut decided_count = 0;
        for _ in 0..20_000 {
            let mut text = base.clone();
            for _ in 0..1 + next(3) {
                let boundaries: Vec<usize> = text
                    .char_indices()
                    .map(|(at, _)| at)
                    .chain([text.len()])
                    .collect();
                let at = boundaries[next(boundaries.len())];
                match next(3) {
                    0 => text.insert_str(at, PIECES[next(PIECES.len())]),
                    1 if at < text.len() => {
                        text.remove(at);
                    }
                    _ => {
                        let piece = PIECES[next(PIECES.len())];
                        text.insert_str(at, piece);
                        let from = boundaries[next(boundaries.len())].min(text.len());
                        if text.is_char_boundary(from) {
                            text.truncate(from.max(at + piece.len()).min(text.len()));
                            text.push_str(&base[base.len().min(from)..]);
                        }
                    }
                }
            }
            decided_count += usize::from(decided(&text));
        }
        assert!(
            decided_count > 100,
            "only {decided_count} edits were decided"
        );
    }
}
