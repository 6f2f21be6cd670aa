//! CPython 3.11 string and number behaviour that reference scores depend on: `str.lower()`,
//! `str.isspace()`, `re`'s `\w`, and `repr(float)`.
//!
//! Tables come from `py_unicode_tables.rs` (generated from CPython 3.11, Unicode 14.0), so results
//! do not drift with the Unicode version of Rust's standard library.

use crate::unicode_tables::{CASED, CASE_IGNORABLE, LENGTH_BITS, LOWER, WORD};

const CAPITAL_SIGMA: char = '\u{03A3}';

/// Whether `text` holds a capital sigma, whose lower case depends on its neighbours. Found with
/// `memchr`'s vectorised search for its first UTF-8 byte: the standard library's search for a
/// two-byte pattern is vectorised on x86-64 only, and was 2 % of the WebAssembly module's time.
pub fn has_capital_sigma(text: &str) -> bool {
    const LEAD: u8 = 0xCE;
    const TRAIL: u8 = 0xA3;
    let bytes = text.as_bytes();
    memchr::memchr_iter(LEAD, bytes).any(|at| bytes.get(at + 1) == Some(&TRAIL))
}
const CAPITAL_I_WITH_DOT: char = '\u{0130}';
const CAPITAL_I_WITH_DOT_LOWER: (char, char) = ('i', '\u{0307}');
/// Layout of a `LOWER` run (see `py_unicode_tables`): first code point, count - 1, stride - 1.
const RUN_FIRST_MASK: u32 = 0x1F_FFFF;
const RUN_COUNT_SHIFT: u32 = 21;
const RUN_COUNT_MASK: u32 = 0x3FF;
const RUN_STRIDE_SHIFT: u32 = 31;

/// Whether a packed range table (see `py_unicode_tables`) holds `c`.
fn in_ranges(table: &[u32], c: char) -> bool {
    let code = u32::from(c);
    let after = table.partition_point(|&run| run >> LENGTH_BITS <= code);
    let length_mask = (1 << LENGTH_BITS) - 1;
    after
        .checked_sub(1)
        .and_then(|index| table.get(index))
        .is_some_and(|&run| code - (run >> LENGTH_BITS) <= run & length_mask)
}

/// Python's `str.isspace()` for one character (what `str.split()` splits on).
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\u{09}'..='\u{0D}'
            | '\u{1C}'..='\u{20}'
            | '\u{85}'
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
    )
}

/// Whether Python `re` matches `c` with `\w` in a str pattern.
pub fn is_word(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    in_ranges(WORD, c)
}

/// Python's `str.split()` without arguments: runs of [`is_space`] separate, empty parts dropped.
pub fn split_whitespace(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_space).filter(|part| !part.is_empty())
}

/// `str.lower()` of `c` when it is one other code point (every case but [`CAPITAL_I_WITH_DOT`]).
fn lower_char(c: char) -> Option<char> {
    if c.is_ascii() {
        return None;
    }
    let code = u32::from(c);
    let after = LOWER.partition_point(|&(run, _)| run & RUN_FIRST_MASK <= code);
    let &(run, delta) = LOWER.get(after.checked_sub(1)?)?;
    let offset = code - (run & RUN_FIRST_MASK);
    let stride = (run >> RUN_STRIDE_SHIFT) + 1;
    let count = ((run >> RUN_COUNT_SHIFT) & RUN_COUNT_MASK) + 1;
    if !offset.is_multiple_of(stride) || offset / stride >= count {
        return None;
    }
    char::from_u32(code.checked_add_signed(delta)?)
}

/// `str.lower()` of `c`, a character that is not [`CAPITAL_SIGMA`]: one character, or two for
/// [`CAPITAL_I_WITH_DOT`].
pub fn lower_one(c: char) -> (char, Option<char>) {
    if c == CAPITAL_I_WITH_DOT {
        (CAPITAL_I_WITH_DOT_LOWER.0, Some(CAPITAL_I_WITH_DOT_LOWER.1))
    } else {
        (lower_char(c).unwrap_or(c.to_ascii_lowercase()), None)
    }
}

/// Appends `str.lower()` of `c`, a character that is not [`CAPITAL_SIGMA`].
fn push_lower(out: &mut String, c: char) {
    let (first, second) = lower_one(c);
    out.push(first);
    out.extend(second);
}

fn is_final_sigma(chars: &[char], index: usize) -> bool {
    let before = chars
        .get(..index)
        .unwrap_or_default()
        .iter()
        .rev()
        .find(|c| !in_ranges(CASE_IGNORABLE, **c));
    if !before.is_some_and(|c| in_ranges(CASED, *c)) {
        return false;
    }
    let after = chars
        .get(index + 1..)
        .unwrap_or_default()
        .iter()
        .find(|c| !in_ranges(CASE_IGNORABLE, **c));
    !after.is_some_and(|c| in_ranges(CASED, *c))
}

/// Python's `str.lower()`: full Unicode lower-casing (`İ` → `i̇`, final sigma → `ς`).
pub fn lower(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    if !has_capital_sigma(text) {
        let mut rest = text;
        while !rest.is_empty() {
            let ascii = rest
                .bytes()
                .position(|byte| !byte.is_ascii())
                .unwrap_or(rest.len());
            let (run, tail) = rest.split_at_checked(ascii).unwrap_or((rest, ""));
            let start = out.len();
            out.push_str(run);
            if let Some(pushed) = out.get_mut(start..) {
                pushed.make_ascii_lowercase();
            }
            let mut chars = tail.chars();
            if let Some(c) = chars.next() {
                push_lower(&mut out, c);
            }
            rest = chars.as_str();
        }
        return out;
    }
    let chars: Vec<char> = text.chars().collect();
    for (index, &c) in chars.iter().enumerate() {
        if c == CAPITAL_SIGMA {
            out.push(if is_final_sigma(&chars, index) {
                '\u{03C2}'
            } else {
                '\u{03C3}'
            });
        } else {
            push_lower(&mut out, c);
        }
    }
    out
}

/// Python's `type(x)` of a JSON value, as the reference prints it in messages (`<class 'int'>`).
pub fn class_name(value: &agenteval_json::Value) -> &'static str {
    use agenteval_json::Value;
    match value {
        Value::Null => "<class 'NoneType'>",
        Value::Bool(_) => "<class 'bool'>",
        Value::Number(number) if number.is_f64() => "<class 'float'>",
        Value::Number(_) => "<class 'int'>",
        Value::String(_) => "<class 'str'>",
        Value::Array(_) => "<class 'list'>",
        Value::Object(_) => "<class 'dict'>",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unicode_tables::reference;

    fn every_char() -> impl Iterator<Item = char> {
        (0..=0x10_FFFF).filter_map(char::from_u32)
    }

    #[test]
    fn capital_sigma_is_found_only_as_itself() {
        for text in ["Σ", "ΟΔΥΣΣΕΥΣ", "plain text then Σ", "Ξ then Σ"] {
            assert!(has_capital_sigma(text), "{text}");
        }
        for text in [
            "",
            "ascii only",
            "σς lower sigmas",
            "ΞΟΠ other Greek capitals",
            "£ and ¥",
        ] {
            assert!(!has_capital_sigma(text), "{text}");
        }
        for c in every_char() {
            let text = format!("a{c}b");
            assert_eq!(has_capital_sigma(&text), c == CAPITAL_SIGMA, "{c:?}");
        }
    }

    fn in_reference(table: &[(u32, u32)], c: char) -> bool {
        let code = u32::from(c);
        let after = table.partition_point(|&(start, _)| start <= code);
        after
            .checked_sub(1)
            .and_then(|index| table.get(index))
            .is_some_and(|&(_, end)| code <= end)
    }

    #[test]
    fn packed_range_tables_hold_exactly_the_reference_code_points() {
        let tables = [
            (WORD, reference::WORD),
            (CASE_IGNORABLE, reference::CASE_IGNORABLE),
            (CASED, reference::CASED),
        ];
        for (packed, plain) in tables {
            let mut held = 0;
            for c in every_char() {
                assert_eq!(
                    in_ranges(packed, c),
                    in_reference(plain, c),
                    "U+{:04X}",
                    u32::from(c)
                );
                held += usize::from(in_ranges(packed, c));
            }
            let listed: u32 = plain.iter().map(|&(start, end)| end - start + 1).sum();
            assert_eq!(held, listed as usize);
        }
    }

    #[test]
    fn lower_runs_give_the_reference_lowering_of_every_code_point() {
        let mut changed = 0;
        for c in every_char() {
            let expected = reference::LOWER
                .binary_search_by_key(&u32::from(c), |&(from, _)| from)
                .ok()
                .and_then(|index| reference::LOWER.get(index))
                .map_or_else(|| c.to_string(), |&(_, to)| to.to_owned());
            let mut lowered = String::new();
            push_lower(&mut lowered, c);
            if c != CAPITAL_SIGMA {
                assert_eq!(lowered, expected, "U+{:04X}", u32::from(c));
            }
            changed += usize::from(lowered != c.to_string());
        }
        assert_eq!(changed, reference::LOWER.len());
    }

    #[test]
    fn lower_matches_python_special_cases() {
        assert_eq!(lower("\u{212A}elvin"), "kelvin");
        assert_eq!(lower("İstanbul"), "i\u{307}stanbul");
        assert_eq!(lower("ΟΔΟΣ ΟΔΟΣ."), "οδος οδος.");
        assert_eq!(lower("Σ"), "σ");
        assert_eq!(lower("ΑΣΑ"), "ασα");
        assert_eq!(lower("ﬁ"), "ﬁ");
        assert_eq!(lower("ÀB"), "àb");
        assert_eq!(
            lower("Hello WÖRLD, Straße ÉTÉ \u{E200}CITE!"),
            "hello wörld, straße été \u{E200}cite!"
        );
    }

    #[test]
    fn lower_ignores_case_pairs_newer_than_unicode_14() {
        // U+A7CB LATIN CAPITAL LETTER RAMS HORN was added in Unicode 16.
        assert_eq!(lower("\u{A7CB}"), "\u{A7CB}");
    }

    #[test]
    fn whitespace_is_python_isspace() {
        assert!(is_space('\u{1F}') && is_space('\u{A0}') && is_space('\u{3000}'));
        assert!(!is_space('\u{200B}') && !is_space('x'));
        let parts: Vec<&str> = split_whitespace(" a\u{A0}b\u{1C}c  ").collect();
        assert_eq!(parts, ["a", "b", "c"]);
    }

    #[test]
    fn word_chars_follow_python_re() {
        assert!(is_word('é') && is_word('_') && is_word('٣') && is_word('中'));
        assert!(!is_word('\u{301}') && !is_word('-') && !is_word(' '));
        // Devanagari vowel sign AA is alphabetic in Rust but not `\w` in Python.
        assert!(!is_word('\u{93E}'));
    }
}
