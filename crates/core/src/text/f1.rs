//! Token F1 exactly as azure-ai-evaluation's `F1ScoreEvaluator` computes it (shared by
//! `builtin.f1_score` and M365 `PartialMatch`).
//!
//! Normalisation, in the reference's order: Python `str.lower()` (optional here, for
//! `case_sensitive`), deletion of every ASCII punctuation character (not replaced by a space),
//! replacement of the whole words `a`/`an`/`the` (Python `re` `\b` semantics) by a space, and
//! splitting on Python whitespace.
//!
//! Speed: all four steps are one walk over the text. A token of ASCII letters and digits that
//! the normalisation leaves as it is (the common case) is only classified, byte by byte in a tight
//! loop, and kept as a span of the text itself; any other token (capitals to lower-case,
//! punctuation, control or non-ASCII characters) is written out by the general walk, with a
//! per-byte action table for ASCII and per-character lower-casing for the rest (the text is
//! lower-cased whole first only when a capital sigma makes Python's result depend on context).
//! The multiset intersection counts the tokens in a hash map.

use std::borrow::Cow;

use super::python;
use crate::byte_words::{self, HIGHS, ONES};
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

/// A text's tokens: spans of the text itself or of the bytes the walk wrote.
struct Tokens<'t> {
    text: Cow<'t, str>,
    written: Vec<u8>,
    spans: Vec<Span>,
}

/// Where a token's bytes are.
#[derive(Clone, Copy)]
enum Span {
    /// In the text, unchanged by the normalisation.
    Text(usize, usize),
    /// In the bytes the general walk wrote.
    Written(usize, usize),
}

impl<'t> Tokens<'t> {
    /// The tokens of `text`.
    fn of(text: &'t str, lowercase: bool) -> Self {
        let (text, lowercase) = sigma_lowered(text, lowercase);
        Tokens::read(text, lowercase)
    }

    /// The general walk alone, every token written out (the tests' second way to the tokens).
    #[cfg(test)]
    fn walked(text: &'t str, lowercase: bool) -> Self {
        let (text, lowercase) = sigma_lowered(text, lowercase);
        let mut tokenizer = Tokenizer::new(text.len());
        tokenizer.walk(&text, lowercase);
        tokenizer.end_token();
        Tokens {
            text: Cow::Borrowed(""),
            written: tokenizer.normalized,
            spans: tokenizer.spans,
        }
    }

    /// Walks `text` token by token. A token is first only classified: while its bytes are ASCII
    /// letters and digits the normalisation keeps as they are, it is one whole `\w` run, kept as a
    /// span of the text unless it is an article. At its first other byte the token so far goes to
    /// the general walk ([`Tokenizer`]), which writes it out and carries on up to the next ASCII
    /// whitespace, where the next token starts in the text again. Kept out of line: inlined into
    /// [`Tokens::of`] it took 8 % more instructions (callgrind).
    #[inline(never)]
    fn read(text: Cow<'t, str>, lowercase: bool) -> Self {
        let table = action_table(lowercase);
        let bytes = text.as_bytes();
        let mut tokenizer = Tokenizer::new(bytes.len());
        let mut at = 0;
        while at <= bytes.len() {
            let start = at;
            at += kept_run(bytes.get(at..).unwrap_or_default(), lowercase);
            let ended = bytes
                .get(at)
                .is_some_and(|&byte| table.get(usize::from(byte)) == Some(&SPACE));
            if ended || at == bytes.len() {
                push_kept_word(&mut tokenizer.spans, bytes, start, at);
            } else {
                tokenizer.start_token(bytes.len());
                let word = bytes.get(start..at).unwrap_or_default();
                tokenizer.normalized.extend_from_slice(word);
                at = tokenizer.walk_token(&text, at, table, lowercase);
                tokenizer.end_token();
            }
            at += 1;
        }
        Tokens {
            written: tokenizer.normalized,
            spans: tokenizer.spans,
            text,
        }
    }

    fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> {
        self.spans.iter().map(|&span| {
            match span {
                Span::Text(start, end) => self.text.as_bytes().get(start..end),
                Span::Written(start, end) => self.written.get(start..end),
            }
            .unwrap_or_default()
        })
    }

    fn len(&self) -> usize {
        self.spans.len()
    }
}

/// The text to walk and whether to lower-case it on the way. Python lower-cases a capital sigma
/// by its context, so text holding one is lower-cased whole first; other text is lower-cased one
/// character at a time as it is walked.
fn sigma_lowered(text: &str, lowercase: bool) -> (Cow<'_, str>, bool) {
    if lowercase && python::has_capital_sigma(text) {
        (Cow::Owned(python::lower(text)), false)
    } else {
        (Cow::Borrowed(text), lowercase)
    }
}

/// How many bytes at the start of `bytes` the normalisation keeps as they are: ASCII lower-case
/// letters and digits, and upper-case letters too without `lowercase`. Eight bytes are tested at
/// a time as one `u64` (the last few padded with a space): with each byte's top bit cleared, an
/// addition sets it exactly for the bytes at or above a bound, no carry crossing bytes.
fn kept_run(bytes: &[u8], lowercase: bool) -> usize {
    byte_words::first_flagged(bytes, b' ', |word| {
        let low = word & !HIGHS;
        let at_least = |bound: u8| low + ONES * u64::from(0x80 - bound);
        let within = |first: u8, last: u8| at_least(first) & !at_least(last + 1);
        let mut kept = within(b'a', b'z') | within(b'0', b'9');
        if !lowercase {
            kept |= within(b'A', b'Z');
        }
        !(kept & !word) & HIGHS
    })
}

/// Adds the unchanged word `bytes[start..end]` as a token unless it is empty or an article.
fn push_kept_word(spans: &mut Vec<Span>, bytes: &[u8], start: usize, end: usize) {
    if end > start && !bytes.get(start..end).is_some_and(is_article) {
        spans.push(Span::Text(start, end));
    }
}

fn action_table(lowercase: bool) -> &'static [u8; 256] {
    if lowercase {
        &ASCII_LOWERED
    } else {
        &ASCII_KEPT
    }
}

/// The reference's punctuation deletion, article replacement and whitespace split, done in one
/// walk over the (lower-cased) characters. Punctuation is never written, so `\w` runs join
/// across it as they do after the reference deletes it. The current `\w` run is everything
/// written since the token began or since the last kept non-word character, so word characters
/// are only appended; where a run ends it is checked, and an article is taken back and ends the
/// token, as the space the reference puts in its place would.
struct Tokenizer {
    normalized: Vec<u8>,
    spans: Vec<Span>,
    token_start: usize,
    run_start: usize,
}

impl Tokenizer {
    fn new(text_len: usize) -> Self {
        Tokenizer {
            normalized: Vec::new(),
            spans: Vec::with_capacity(text_len / 4 + 1),
            token_start: 0,
            run_start: 0,
        }
    }

    /// Takes over a token at its start: makes room to write it out the first time.
    fn start_token(&mut self, text_len: usize) {
        if self.normalized.capacity() == 0 {
            self.normalized.reserve(text_len);
        }
    }

    /// Walks all of `text`, from a token's start.
    #[cfg(test)]
    fn walk(&mut self, text: &str, lowercase: bool) {
        self.start_token(text.len());
        let table = action_table(lowercase);
        let mut at = 0;
        while at < text.len() {
            at = self.walk_token(text, at, table, lowercase);
            if at < text.len() {
                self.end_token();
                at += 1;
            }
        }
    }

    /// Walks `text` from `at` up to its next ASCII whitespace byte (not taken) or its end, and
    /// returns where it stopped.
    fn walk_token(
        &mut self,
        text: &str,
        mut at: usize,
        table: &[u8; 256],
        lowercase: bool,
    ) -> usize {
        while let Some(&byte) = text.as_bytes().get(at) {
            if byte.is_ascii() {
                if table.get(usize::from(byte)) == Some(&SPACE) {
                    return at;
                }
                self.push_ascii(table, byte);
                at += 1;
                continue;
            }
            let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
                break;
            };
            at += c.len_utf8();
            if lowercase {
                let (first, second) = python::lower_one(c);
                self.push_char(first);
                second.into_iter().for_each(|c| self.push_char(c));
            } else {
                self.push_char(c);
            }
        }
        text.len()
    }

    #[inline(always)]
    fn push_ascii(&mut self, table: &[u8; 256], byte: u8) {
        match table.get(usize::from(byte)).copied().unwrap_or(OTHER) {
            DROPPED => {}
            SPACE => self.end_token(),
            OTHER => self.push_non_word(&[byte]),
            kept => self.normalized.push(kept),
        }
    }

    /// A character already lower-cased when lower-casing applies.
    fn push_char(&mut self, c: char) {
        if let Ok(byte) = u8::try_from(c) {
            if byte.is_ascii() {
                return self.push_ascii(&ASCII_KEPT, byte);
            }
        }
        let mut buffer = [0; 4];
        let encoded = c.encode_utf8(&mut buffer).as_bytes();
        if python::is_space(c) {
            self.end_token();
        } else if python::is_word(c) {
            self.normalized.extend_from_slice(encoded);
        } else {
            self.push_non_word(encoded);
        }
    }

    /// A kept character that is not `\w`: it ends the current run and starts the next.
    fn push_non_word(&mut self, encoded: &[u8]) {
        self.close_run();
        self.normalized.extend_from_slice(encoded);
        self.run_start = self.normalized.len();
    }

    /// Ends the current `\w` run; an article run is replaced by a token break.
    fn close_run(&mut self) {
        if self
            .normalized
            .get(self.run_start..)
            .is_some_and(is_article)
        {
            self.normalized.truncate(self.run_start);
            self.end_token();
        }
    }

    /// Ends the current run and token (at whitespace, or where an article was taken back).
    fn end_token(&mut self) {
        self.close_run();
        let end = self.normalized.len();
        if end > self.token_start {
            self.spans.push(Span::Written(self.token_start, end));
        }
        self.token_start = end;
        self.run_start = end;
    }
}

/// [`Tokenizer`]'s action for an ASCII byte: punctuation is dropped, Python whitespace ends a
/// token, other control characters are kept outside any `\w` run, and letters and digits are
/// kept as the byte the table holds (lower-cased in [`ASCII_LOWERED`]).
const DROPPED: u8 = 0;
const SPACE: u8 = 1;
const OTHER: u8 = 2;

static ASCII_LOWERED: [u8; 256] = ascii_actions(true);
static ASCII_KEPT: [u8; 256] = ascii_actions(false);

#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time, where an index out of range fails the build"
)]
const fn ascii_actions(lowercase: bool) -> [u8; 256] {
    let mut table = [OTHER; 256];
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
    let common = multiset::intersection_len(predicted.iter(), expected.iter());
    if common == 0 {
        return 0.0;
    }
    let precision = 1.0 * common as f64 / predicted.len() as f64;
    let recall = 1.0 * common as f64 / expected.len() as f64;
    (2.0 * precision * recall) / (precision + recall)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

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
    fn tokens_sharing_a_long_prefix_are_told_apart() {
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

    /// The reference's steps one after another, on strings: `lower`, delete punctuation, replace
    /// each whole-word article (a maximal `\w` run) by a space, split on whitespace.
    fn reference_tokens(text: &str, lowercase: bool) -> Vec<String> {
        let lowered = if lowercase {
            python::lower(text)
        } else {
            text.to_owned()
        };
        let kept: Vec<char> = lowered
            .chars()
            .filter(|c| !c.is_ascii_punctuation())
            .collect();
        let mut replaced = String::new();
        let mut run = String::new();
        for c in kept.iter().copied().chain(std::iter::once(' ')) {
            if python::is_word(c) {
                run.push(c);
                continue;
            }
            if is_article(run.as_bytes()) {
                replaced.push(' ');
            } else {
                replaced.push_str(&run);
            }
            run.clear();
            replaced.push(c);
        }
        python::split_whitespace(&replaced)
            .map(str::to_owned)
            .collect()
    }

    /// Both ways to the tokens: [`tokens`] (fast path first) and the walk alone.
    fn both_ways(text: &str, lowercase: bool) -> [Vec<String>; 2] {
        let walked = Tokens::walked(text, lowercase)
            .iter()
            .map(|token| String::from_utf8_lossy(token).into_owned())
            .collect();
        [tokens(text, lowercase), walked]
    }

    #[test]
    fn one_walk_equals_the_reference_steps() {
        for text in [
            "The cat, a dog AND an owl!",
            "state-of-the-art a_the an",
            "tabs\tand\x0bvertical\x1cseparators the",
            "A\x01the control\x7fan\x00a",
            "THE An a",
            "\u{E200}cite\u{E202}turn1search0\u{E201} The answer [1]",
            "İstanbul THE\u{E200}the Kelvin \u{212A}elvin a\u{A0}an",
            "Ünïcödé—the “Quotes”, an Ωmega; ÀÉÎ the_ÿ",
            "日本語のテキスト the 東京 A",
            "e\u{301}a THE\u{301} a\u{85}an\u{2028}the",
            "ΟΔΟΣ ΣΑ the Σ a",
        ] {
            for lowercase in [true, false] {
                let expected = reference_tokens(text, lowercase);
                assert_eq!(
                    both_ways(text, lowercase),
                    [expected.clone(), expected],
                    "{text:?} lowercase={lowercase}"
                );
            }
        }
    }

    #[test]
    fn one_walk_equals_the_reference_steps_on_generated_text() {
        const PIECES: &[&str] = &[
            "a",
            "an",
            "the",
            "The",
            "A",
            "x",
            "th",
            "e",
            "_",
            "-",
            "'",
            ".",
            " ",
            "  ",
            "\t",
            "\x01",
            "\x1f",
            "\u{A0}",
            "\u{3000}",
            "\u{85}",
            "é",
            "É",
            "\u{301}",
            "Σ",
            "İ",
            "\u{212A}",
            "日",
            "\u{E200}",
            "“",
            "1",
            "9",
            "ß",
            "abcdefghij",
            "Zz09",
            "/",
            ":",
            "@",
            "[",
            "`",
            "{",
            "\x7f",
            "Q",
        ];
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
        let mut next = |bound: usize| rng.below(bound);
        for _ in 0..3000 {
            let text: String = (0..next(12)).map(|_| PIECES[next(PIECES.len())]).collect();
            for lowercase in [true, false] {
                let expected = reference_tokens(&text, lowercase);
                assert_eq!(
                    both_ways(&text, lowercase),
                    [expected.clone(), expected],
                    "{text:?} lowercase={lowercase}"
                );
            }
        }
    }

    #[test]
    fn kept_runs_stop_at_the_first_byte_the_normalisation_changes() {
        const WORD_BYTES: &[u8] = b"az09AZmq5/:@[`{ ";
        let mut rng = XorShift::new(0x0005_EED0_FF15_CA1E);
        for _ in 0..20_000 {
            let length = rng.below(40);
            let bytes: Vec<u8> = (0..length)
                .map(|_| match rng.below(10) {
                    0..=6 => WORD_BYTES
                        .get(rng.below(WORD_BYTES.len()))
                        .copied()
                        .unwrap_or(b'a'),
                    _ => rng.below(256) as u8,
                })
                .collect();
            for lowercase in [true, false] {
                let table = action_table(lowercase);
                let naive = bytes
                    .iter()
                    .position(|&byte| {
                        let action = table.get(usize::from(byte)).copied().unwrap_or(OTHER);
                        !(action == byte && action > OTHER)
                    })
                    .unwrap_or(bytes.len());
                assert_eq!(kept_run(&bytes, lowercase), naive, "{bytes:?} {lowercase}");
            }
        }
    }

    #[test]
    fn capital_sigma_is_lowered_by_its_context() {
        assert_eq!(toks("ΟΔΟΣ ΣΑ"), ["οδος", "σα"]);
        assert_eq!(toks("ΟΔΟΣ, the end"), ["οδος", "end"]);
    }
}
