//! NLTK's `NISTTokenizer().international_tokenize(text)` (`nltk/tokenize/nist.py`, a port of
//! `mteval-v14.pl`), with its defaults (no lower-casing, `split_non_ascii`): `<skipped>` removed,
//! U+2028 to a space, XML entities unescaped, every ASCII run padded with spaces, punctuation split
//! from an adjacent number, symbols padded, then split on Python whitespace. The `\p{N}`, `\p{P}`
//! and `\p{S}` classes are NLTK's perluniprops data (`nist_tables.rs`), not today's Unicode.

use super::nist_tables::{NUMBER, PUNCTUATION, SYMBOL};
use crate::text::python;

/// Tokenises `text` as `NISTTokenizer().international_tokenize(text)`.
pub fn international_tokenize(text: &str) -> Vec<String> {
    let text = text.replace("<skipped>", "").replace('\u{2028}', " ");
    let text = xml_unescape(&text);
    let chars: Vec<char> = pad_ascii_runs(&text);
    let chars = split_pairs(&chars, is_number, is_punctuation, |a, b| {
        [Some(a), Some(' '), Some(b), Some(' ')]
    });
    let chars = split_pairs(&chars, is_punctuation, is_number, |a, b| {
        [Some(' '), Some(a), Some(' '), Some(b)]
    });
    let mut padded = String::with_capacity(chars.len() + 16);
    for c in chars {
        if is_symbol(c) {
            padded.push(' ');
            padded.push(c);
            padded.push(' ');
        } else {
            padded.push(c);
        }
    }
    python::split_whitespace(&padded)
        .map(str::to_owned)
        .collect()
}

/// `nltk.tokenize.util.xml_unescape`: `xml.sax.saxutils.unescape` with Moses' extra entities,
/// each replaced in turn, `&amp;` last.
fn xml_unescape(text: &str) -> String {
    let mut text = text.replace("&lt;", "<").replace("&gt;", ">");
    for (entity, character) in [
        ("&apos;", "'"),
        ("&quot;", "\""),
        ("&#124;", "|"),
        ("&#91;", "["),
        ("&#93;", "]"),
    ] {
        text = text.replace(entity, character);
    }
    text.replace("&amp;", "&")
}

/// `([\x00-\x7f]+)` → ` \1 `.
fn pad_ascii_runs(text: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(text.len() + 16);
    let mut in_ascii = false;
    for c in text.chars() {
        if c.is_ascii() != in_ascii {
            out.push(' ');
            in_ascii = c.is_ascii();
        }
        out.push(c);
    }
    if in_ascii {
        out.push(' ');
    }
    out
}

/// `([first])([second])` → `replace(\1, \2)`, leftmost and non-overlapping.
fn split_pairs(
    chars: &[char],
    first: fn(char) -> bool,
    second: fn(char) -> bool,
    replace: fn(char, char) -> [Option<char>; 4],
) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len() + 16);
    let mut i = 0;
    while let Some(&a) = chars.get(i) {
        match chars.get(i + 1) {
            Some(&b) if first(a) && second(b) => {
                out.extend(replace(a, b).into_iter().flatten());
                i += 2;
            }
            _ => {
                out.push(a);
                i += 1;
            }
        }
    }
    out
}

fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    let code = u32::from(c);
    ranges
        .binary_search_by(|&(low, high)| {
            if high < code {
                std::cmp::Ordering::Less
            } else if low > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

fn is_number(c: char) -> bool {
    in_ranges(NUMBER, c)
}

fn is_punctuation(c: char) -> bool {
    in_ranges(PUNCTUATION, c)
}

fn is_symbol(c: char) -> bool {
    in_ranges(SYMBOL, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_sorted_and_disjoint() {
        for table in [NUMBER, PUNCTUATION, SYMBOL] {
            assert!(table.iter().all(|(low, high)| low <= high));
            assert!(table.windows(2).all(|w| w[0].1 + 1 < w[1].0));
        }
    }

    #[test]
    fn nltk_docstring_example() {
        assert_eq!(
            international_tokenize("this is a foo\u{2604}sentence."),
            ["this", "is", "a", "foo", "\u{2604}", "sentence", "."]
        );
    }
}
