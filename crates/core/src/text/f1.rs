//! Token F1 exactly as azure-ai-evaluation's `F1ScoreEvaluator` computes it (shared by
//! `builtin.f1_score` and M365 `PartialMatch`).
//!
//! Normalisation, in the reference's order: Python `str.lower()` (optional here, for
//! `case_sensitive`), deletion of every ASCII punctuation character (not replaced by a space),
//! replacement of the whole words `a`/`an`/`the` (Python `re` `\b` semantics) by a space, and
//! splitting on Python whitespace.
//!
//! Speed: ASCII text is normalised and split in one pass with a per-byte action table; other text
//! is lower-cased one non-ASCII run at a time (whole, when a capital sigma makes Python's result
//! depend on context). Tokens are spans of one buffer, and the multiset intersection sorts them by
//! a length-and-prefix integer before comparing bytes.

use super::python;
use crate::multiset;

fn is_article(word: &[u8]) -> bool {
    matches!(word, b"a" | b"an" | b"the")
}

/// Normalises `text` like the reference and returns its tokens.
///
/// With `lowercase` false the `str.lower()` step is skipped (PartialMatch `case_sensitive`).
pub fn tokens(text: &str, lowercase: bool) -> Vec<String> {
    Tokens::of(text, lowercase)
        .iter()
        .map(|token| String::from_utf8_lossy(token).into_owned())
        .collect()
}

/// A text's tokens: spans of its normalised bytes.
struct Tokens {
    normalized: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Tokens {
    fn of(text: &str, lowercase: bool) -> Self {
        ascii_tokens(text, lowercase)
            .unwrap_or_else(|| Tokens::split(general_normalized(text, lowercase)))
    }

    /// The words of a normalised text, split on Python whitespace. Articles that survive
    /// normalisation are whole-word tokens here and are dropped.
    fn split(normalized: String) -> Self {
        let mut tokens = Tokens::with_capacity(normalized.len());
        let mut start = 0;
        for (position, c) in normalized.char_indices() {
            if python::is_space(c) {
                tokens.push(start, position);
                start = position + c.len_utf8();
            }
        }
        tokens.normalized = normalized.into_bytes();
        tokens.push(start, tokens.normalized.len());
        tokens
    }

    fn with_capacity(text_len: usize) -> Self {
        Tokens {
            normalized: Vec::with_capacity(text_len),
            spans: Vec::with_capacity(text_len / 4 + 1),
        }
    }

    fn push(&mut self, start: usize, end: usize) {
        push_span(&mut self.spans, &self.normalized, start, end);
    }

    /// The tokens with their [`sort_key`]s.
    fn keyed(&self) -> Vec<(u64, &[u8])> {
        let mut keyed = Vec::with_capacity(self.spans.len());
        keyed.extend(self.iter().map(|token| (sort_key(token), token)));
        keyed
    }

    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.spans
            .iter()
            .filter_map(|&(start, end)| self.normalized.get(start..end))
    }
}

/// The normalisation for any text. Python lower-cases a capital sigma by its context, so text
/// holding one is lower-cased whole first; any other text is lower-cased segment by segment.
fn general_normalized(text: &str, lowercase: bool) -> String {
    if lowercase && text.contains(CAPITAL_SIGMA) {
        whole_normalized(text, lowercase)
    } else {
        segmented_normalized(text, lowercase)
    }
}

/// The normalisation as the reference states it: lower-case the whole text, then walk it.
fn whole_normalized(text: &str, lowercase: bool) -> String {
    let lowered;
    let source = if lowercase {
        lowered = python::lower(text);
        lowered.as_str()
    } else {
        text
    };
    let mut normalizer = Normalizer::for_text(source);
    source.chars().for_each(|c| normalizer.push(c));
    normalizer.finish()
}

const CAPITAL_SIGMA: char = '\u{03A3}';

/// Walks ASCII runs byte by byte and lower-cases each run of other characters as one piece,
/// which equals lower-casing the whole text when it holds no capital sigma.
fn segmented_normalized(text: &str, lowercase: bool) -> String {
    let mut normalizer = Normalizer::for_text(text);
    let mut rest = text;
    while !rest.is_empty() {
        let ascii_end = rest
            .bytes()
            .position(|b| !b.is_ascii())
            .unwrap_or(rest.len());
        let (ascii, tail) = rest.split_at_checked(ascii_end).unwrap_or((rest, ""));
        for byte in ascii.bytes() {
            normalizer.push_ascii(if lowercase {
                byte.to_ascii_lowercase()
            } else {
                byte
            });
        }
        let other_end = tail
            .bytes()
            .position(|b| b.is_ascii())
            .unwrap_or(tail.len());
        let (other, next) = tail.split_at_checked(other_end).unwrap_or((tail, ""));
        if lowercase {
            python::lower(other)
                .chars()
                .for_each(|c| normalizer.push(c));
        } else {
            other.chars().for_each(|c| normalizer.push(c));
        }
        rest = next;
    }
    normalizer.finish()
}

/// The reference's punctuation deletion and article replacement, one lower-cased character at a
/// time.
struct Normalizer {
    out: Vec<u8>,
    run_start: Option<usize>,
}

impl Normalizer {
    fn for_text(text: &str) -> Self {
        Normalizer {
            out: Vec::with_capacity(text.len()),
            run_start: None,
        }
    }

    fn push(&mut self, c: char) {
        match u8::try_from(c) {
            Ok(byte) if byte.is_ascii() => self.push_ascii(byte),
            _ => {
                self.mark(python::is_word(c));
                self.out
                    .extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
        }
    }

    #[inline(always)]
    fn push_ascii(&mut self, byte: u8) {
        if byte.is_ascii_punctuation() {
            return;
        }
        self.mark(byte.is_ascii_alphanumeric() || byte == b'_');
        self.out.push(byte);
    }

    #[inline(always)]
    fn mark(&mut self, is_word: bool) {
        if is_word {
            self.run_start.get_or_insert(self.out.len());
        } else {
            self.close_run();
        }
    }

    /// Ends the current `\w` run: an article run becomes one space, as the reference's
    /// `re.sub(r"\b(a|an|the)\b", " ", …)` does. Punctuation was never pushed, so runs join
    /// across it exactly as they do after the reference deletes it.
    fn close_run(&mut self) {
        if let Some(start) = self.run_start.take() {
            if self.out.get(start..).is_some_and(is_article) {
                self.out.truncate(start);
                self.out.push(b' ');
            }
        }
    }

    fn finish(mut self) -> String {
        self.close_run();
        String::from_utf8(self.out).unwrap_or_default()
    }
}

/// One pass over ASCII text whose punctuation-free form holds only letters, digits and Python
/// whitespace: then every word is a whole `\w` run, so dropping article words equals the
/// reference's `\b(a|an|the)\b` replacement. Whitespace only ends words and is not kept. `None`
/// sends other text down the general path.
fn ascii_tokens(text: &str, lowercase: bool) -> Option<Tokens> {
    if !text.is_ascii() {
        return None;
    }
    let table = if lowercase {
        &ASCII_LOWERED
    } else {
        &ASCII_KEPT
    };
    let mut normalized = Vec::with_capacity(text.len());
    let mut spans = Vec::with_capacity(text.len() / 4 + 1);
    let mut start = 0;
    for &byte in text.as_bytes() {
        match table.get(usize::from(byte)).copied().unwrap_or(OTHER) {
            DROPPED => {}
            SPACE => {
                push_span(&mut spans, &normalized, start, normalized.len());
                start = normalized.len();
            }
            OTHER => return None,
            kept => normalized.push(kept),
        }
    }
    push_span(&mut spans, &normalized, start, normalized.len());
    Some(Tokens { normalized, spans })
}

/// Adds the token `normalized[start..end]` unless it is empty or an article.
fn push_span(spans: &mut Vec<(usize, usize)>, normalized: &[u8], start: usize, end: usize) {
    if end > start && !normalized.get(start..end).is_some_and(is_article) {
        spans.push((start, end));
    }
}

/// [`ascii_tokens`]' action for a byte: punctuation is dropped, Python whitespace ends a word,
/// other control characters leave the text to the general path, and letters and digits are kept
/// as the byte the table holds (lower-cased in [`ASCII_LOWERED`]).
const DROPPED: u8 = 0;
const SPACE: u8 = 1;
const OTHER: u8 = 2;

static ASCII_LOWERED: [u8; 128] = ascii_actions(true);
static ASCII_KEPT: [u8; 128] = ascii_actions(false);

#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time, where an index out of range fails the build"
)]
const fn ascii_actions(lowercase: bool) -> [u8; 128] {
    let mut table = [OTHER; 128];
    let mut byte: u8 = 0;
    while byte < 128 {
        table[byte as usize] = match byte {
            b'a'..=b'z' | b'0'..=b'9' => byte,
            b'A'..=b'Z' if lowercase => byte.to_ascii_lowercase(),
            b'A'..=b'Z' => byte,
            b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1c..=0x20 => SPACE,
            _ if byte.is_ascii_punctuation() => DROPPED,
            _ => OTHER,
        };
        byte += 1;
    }
    table
}

/// The reference's token F1 of `prediction` against `reference`: 0.0 without common tokens, else
/// `2·P·R / (P + R)` evaluated in the reference's floating-point order.
pub fn f1_score(prediction: &str, reference: &str, lowercase: bool) -> f64 {
    let (predicted, expected) = (
        Tokens::of(prediction, lowercase),
        Tokens::of(reference, lowercase),
    );
    f1_of_tokens(predicted.keyed(), expected.keyed())
}

/// Token F1 of two normalised token lists (multiset intersection, counted by merging the sorted
/// lists).
fn f1_of_tokens<'t>(
    mut predicted: Vec<(u64, &'t [u8])>,
    mut expected: Vec<(u64, &'t [u8])>,
) -> f64 {
    let (predicted_len, expected_len) = (predicted.len(), expected.len());
    let common = multiset::intersection_len(&mut predicted, &mut expected);
    if common == 0 {
        return 0.0;
    }
    let precision = 1.0 * common as f64 / predicted_len as f64;
    let recall = 1.0 * common as f64 / expected_len as f64;
    (2.0 * precision * recall) / (precision + recall)
}

/// A token's length (capped) and first seven bytes in one number, so that most comparisons while
/// sorting are one integer comparison. Equal tokens have equal keys.
fn sort_key(token: &[u8]) -> u64 {
    let mut prefix = [0u8; 8];
    if let Some(length) = prefix.first_mut() {
        *length = u8::try_from(token.len()).unwrap_or(u8::MAX);
    }
    let head = token.len().min(7);
    if let (Some(slots), Some(bytes)) = (prefix.get_mut(1..=head), token.get(..head)) {
        slots.copy_from_slice(bytes);
    }
    u64::from_be_bytes(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<String> {
        tokens(text, true)
    }

    #[test]
    fn punctuation_is_deleted_not_spaced() {
        assert_eq!(toks("Don't stop"), ["dont", "stop"]);
        assert_eq!(toks("state-of-the-art"), ["stateoftheart"]);
        assert_eq!(toks("“quoted” – yes…"), ["“quoted”", "–", "yes…"]);
    }

    #[test]
    fn articles_are_whole_words_only() {
        assert_eq!(
            toks("The cat and a dog, an owl"),
            ["cat", "and", "dog", "owl"]
        );
        assert_eq!(toks("théa a-the-an the_cat"), ["théa", "athean", "thecat"]);
        assert_eq!(toks("e\u{301}a"), ["e\u{301}"]);
    }

    #[test]
    fn splits_on_python_whitespace() {
        assert_eq!(
            toks("a\u{A0}b\u{3000}c\u{1F}d\u{200B}e"),
            ["b", "c", "d\u{200B}e"]
        );
        assert!(toks("  \t\n ").is_empty());
    }

    #[test]
    fn case_sensitive_skips_lowering() {
        assert_eq!(tokens("The Cat", false), ["The", "Cat"]);
        assert_eq!(tokens("The Cat", true), ["cat"]);
    }

    #[test]
    fn f1_values() {
        assert_eq!(f1_score("", "", true), 0.0);
        assert_eq!(f1_score("a b c", "a b c", true), 1.0);
        assert_eq!(f1_score("x y z", "x y", true), 0.8);
        assert_eq!(f1_score("x x y", "x z", true), 0.4);
        assert_eq!(f1_score("\u{212A}elvin", "kelvin", true), 1.0);
        assert_eq!(f1_score("İ", "i", true), 0.0);
    }

    #[test]
    fn tokens_sharing_a_sort_key_are_told_apart_by_their_bytes() {
        assert_eq!(
            f1_score("abcdefgh1 abcdefgh2", "abcdefgh2 abcdefgh3", true),
            0.5
        );
        let long = |tail: &str| format!("{}{tail}", "x".repeat(300));
        let (one, two) = (long("1"), long("2"));
        assert_eq!(f1_score(&format!("{one} {two}"), &two, true), 2.0 / 3.0);
        assert_eq!(f1_score(&one, &two, true), 0.0);
        assert_eq!(f1_score("ab ab ab", "ab ab", true), 0.8);
    }

    #[test]
    fn ascii_fast_path_matches_the_general_path() {
        for text in [
            "The cat, a dog AND an owl!",
            "state-of-the-art a_the an",
            "tabs\tand\x0bvertical\x1cseparators the",
            "A\x01the control",
            "THE An a",
        ] {
            let general = general_normalized(text, true);
            let expected: Vec<&str> = python::split_whitespace(&general).collect();
            assert_eq!(tokens(text, true), expected, "{text:?}");
        }
    }

    #[test]
    fn segmented_lowering_matches_whole_lowering() {
        for text in [
            "\u{E200}cite\u{E202}turn1search0\u{E201} The answer [1]",
            "İstanbul THE\u{E200}the Kelvin \u{212A}elvin a\u{A0}an",
            "Ünïcödé—the “Quotes”, an Ωmega; ÀÉÎ the_ÿ",
            "日本語のテキスト the 東京 A",
            "e\u{301}a THE\u{301}",
        ] {
            for lowercase in [true, false] {
                assert_eq!(
                    segmented_normalized(text, lowercase),
                    whole_normalized(text, lowercase),
                    "{text:?} lowercase={lowercase}"
                );
            }
        }
    }

    #[test]
    fn capital_sigma_is_lowered_by_its_context() {
        assert_eq!(toks("ΟΔΟΣ ΣΑ"), ["οδος", "σα"]);
        assert_eq!(toks("ΟΔΟΣ, the end"), ["οδος", "end"]);
    }
}
