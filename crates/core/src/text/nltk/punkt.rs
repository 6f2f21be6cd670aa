//! NLTK's Punkt sentence splitter (`PunktTokenizer("english").tokenize`, `nltk/tokenize/punkt.py`)
//! with the English `punkt_tab` parameters, for ASCII text: candidate sentence ends (`.`, `?`,
//! `!` followed by punctuation or by whitespace and a token), the decision on each from the
//! annotated tokens around it (abbreviations, ellipses, initials, numbers, collocations, sentence
//! starters, the orthographic heuristic), and the realignment of closing quotes and brackets.
//!
//! Whitespace is that of the `regex` module (`[\t\n\v\f\r ]`) inside patterns, and that of
//! Python's `str` (also `\x1c`–`\x1f`) for `strip`/`rstrip`, as in NLTK. Only ASCII behaviour is
//! reproduced; every slice is cut at an ASCII byte, so other text never panics.

use super::punkt_english::{
    ABBREV_TYPES, COLLOCATIONS, ORTHO_CONTEXT, ORTHO_DEFAULT, SENT_STARTERS,
};
use super::{is_py_space, is_regex_space};

/// Splits `text` into sentences as `PunktTokenizer("english").tokenize(text)` does.
pub fn sentences(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut slices = Vec::new();
    let mut last_break = 0;
    for (end, context) in potential_end_contexts(bytes) {
        if contains_sentbreak(context_text(bytes, context)) {
            slices.push((last_break, end.start + 1));
            last_break = end.next_token.unwrap_or(end.start + 1);
        }
    }
    slices.push((last_break, rstrip_len(bytes)));
    realign_boundaries(bytes, &slices)
        .into_iter()
        .map(|(start, stop)| text.get(start..stop).unwrap_or_default())
        .collect()
}

/// A match of `period_context_re`: a sentence-end character and the lookahead after it.
#[derive(Clone, Copy)]
struct EndMatch {
    start: usize,
    /// End of the `after_tok` group.
    after_end: usize,
    /// Start of the `next_tok` group, when the end is followed by whitespace and a token.
    next_token: Option<usize>,
}

/// Characters that cannot appear within words (`_re_non_word_chars`, ASCII part).
fn non_word(byte: u8) -> bool {
    b")\";}]*:@'({[?!".contains(&byte)
}

fn end_matches(text: &[u8]) -> impl Iterator<Item = EndMatch> + '_ {
    text.iter().enumerate().filter_map(move |(start, &byte)| {
        if !matches!(byte, b'.' | b'?' | b'!') {
            return None;
        }
        let next = *text.get(start + 1)?;
        if non_word(next) {
            return Some(EndMatch {
                start,
                after_end: start + 2,
                next_token: None,
            });
        }
        let token_start = run_end(text, start + 1, is_regex_space);
        if token_start == start + 1 || token_start == text.len() {
            return None;
        }
        Some(EndMatch {
            start,
            after_end: run_end(text, token_start, |b| !is_regex_space(b)),
            next_token: Some(token_start),
        })
    })
}

/// `_match_potential_end_contexts`: each candidate with the span of its context (the word before
/// it, the end character and what follows), the overlapping ones dropped as NLTK drops them.
fn potential_end_contexts(text: &[u8]) -> Vec<(EndMatch, (usize, usize))> {
    let mut contexts = Vec::new();
    let mut previous_slice = (0, 0);
    let mut previous_match: Option<EndMatch> = None;
    for found in end_matches(text) {
        let before = text.get(previous_slice.1..found.start).unwrap_or_default();
        let last_space = before.iter().rposition(|&b| is_regex_space(b)).unwrap_or(0);
        let word_start = if last_space != 0 {
            last_space + previous_slice.1 + 1
        } else {
            previous_slice.0
        };
        if let Some(previous) = previous_match {
            if previous_slice.1 <= word_start {
                contexts.push((previous, (previous_slice.0, previous.after_end)));
            }
        }
        previous_match = Some(found);
        previous_slice = (word_start, found.start);
    }
    if let Some(previous) = previous_match {
        contexts.push((previous, (previous_slice.0, previous.after_end)));
    }
    contexts
}

fn context_text(text: &[u8], (start, end): (usize, usize)) -> &[u8] {
    text.get(start..end).unwrap_or_default()
}

/// `_realign_boundaries`: closing quotes and brackets after a sentence end join that sentence.
fn realign_boundaries(text: &[u8], slices: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(slices.len());
    let mut realign = 0;
    for (index, &(start, stop)) in slices.iter().enumerate() {
        let sentence = (start + realign, stop);
        let non_empty = sentence.0 < sentence.1;
        let Some(&(next_start, next_stop)) = slices.get(index + 1) else {
            if non_empty {
                out.push(sentence);
            }
            continue;
        };
        let next = text.get(next_start..next_stop).unwrap_or_default();
        match realignment(next) {
            Some(end) => {
                out.push((
                    sentence.0,
                    next_start + rstrip_len(next.get(..end).unwrap_or_default()),
                ));
                realign = end;
            }
            None => {
                realign = 0;
                if non_empty {
                    out.push(sentence);
                }
            }
        }
    }
    out
}

/// The end of `re_boundary_realignment`'s match at the start of `text`:
/// `["')\]}]+?(?:\s+|(?=--)|$)` (multi-line).
fn realignment(text: &[u8]) -> Option<usize> {
    let mut position = 0;
    while text.get(position).is_some_and(|&b| b"\"')]}".contains(&b)) {
        position += 1;
        match text.get(position) {
            None | Some(b'\n') => return Some(run_end(text, position, is_regex_space)),
            Some(&b) if is_regex_space(b) => return Some(run_end(text, position, is_regex_space)),
            Some(_)
                if text
                    .get(position..)
                    .is_some_and(|rest| rest.starts_with(b"--")) =>
            {
                return Some(position)
            }
            Some(_) => {}
        }
    }
    None
}

/// Length of `text` without its trailing Python whitespace (`len(text.rstrip())`).
fn rstrip_len(text: &[u8]) -> usize {
    text.iter()
        .rposition(|&b| !is_py_space(b))
        .map_or(0, |p| p + 1)
}

/// `text_contains_sentbreak`: whether a token other than the last one ends a sentence.
fn contains_sentbreak(context: &[u8]) -> bool {
    let mut tokens = tokenize_words(context);
    for index in 0..tokens.len() {
        let (head, tail) = tokens.split_at_mut(index + 1);
        if let (Some(token), Some(next)) = (head.last_mut(), tail.first()) {
            second_pass(token, next);
            if token.sentbreak {
                return true;
            }
        }
    }
    false
}

/// A word token with Punkt's annotations.
struct Token<'a> {
    tok: &'a [u8],
    kind: Vec<u8>,
    sentbreak: bool,
    abbr: bool,
    ellipsis: bool,
}

const NUMBER_TYPE: &[u8] = b"##number##";

impl<'a> Token<'a> {
    /// A token with its type and first-pass annotation (`_first_pass_annotation`).
    fn new(tok: &'a [u8]) -> Self {
        let lower = tok.to_ascii_lowercase();
        let kind = if is_numeric(&lower) {
            NUMBER_TYPE.to_vec()
        } else {
            lower
        };
        let mut token = Token {
            tok,
            kind,
            sentbreak: false,
            abbr: false,
            ellipsis: false,
        };
        if matches!(tok, b"." | b"?" | b"!") {
            token.sentbreak = true;
        } else if tok.len() >= 2 && tok.iter().all(|&b| b == b'.') {
            token.ellipsis = true;
        } else if let Some(stem) = tok.strip_suffix(b".").filter(|_| !tok.ends_with(b"..")) {
            let stem = stem.to_ascii_lowercase();
            let last_part = stem.rsplit(|&b| b == b'-').next().unwrap_or_default();
            if is_abbreviation(&stem) || is_abbreviation(last_part) {
                token.abbr = true;
            } else {
                token.sentbreak = true;
            }
        }
        token
    }

    fn period_final(&self) -> bool {
        self.tok.ends_with(b".")
    }

    fn type_no_period(&self) -> &[u8] {
        match self.kind.strip_suffix(b".") {
            Some(stem) if !stem.is_empty() => stem,
            _ => &self.kind,
        }
    }

    fn type_no_sentperiod(&self) -> &[u8] {
        if self.sentbreak {
            self.type_no_period()
        } else {
            &self.kind
        }
    }

    fn first_upper(&self) -> bool {
        self.tok.first().is_some_and(u8::is_ascii_uppercase)
    }

    fn first_lower(&self) -> bool {
        self.tok.first().is_some_and(u8::is_ascii_lowercase)
    }

    /// `[^\W\d]\.$`: one letter (or `_`) and a period.
    fn is_initial(&self) -> bool {
        matches!(self.tok, [first, b'.'] if first.is_ascii_alphabetic() || *first == b'_')
    }
}

/// `^-?[\.,]?\d[\d,\.-]*\.?$` on the whole (lower-cased) token.
fn is_numeric(token: &[u8]) -> bool {
    let rest = token.strip_prefix(b"-").unwrap_or(token);
    let rest = rest
        .strip_prefix(b".")
        .or_else(|| rest.strip_prefix(b","))
        .unwrap_or(rest);
    match rest.split_first() {
        Some((first, tail)) => {
            first.is_ascii_digit()
                && tail
                    .iter()
                    .all(|&b| b.is_ascii_digit() || matches!(b, b',' | b'.' | b'-'))
        }
        None => false,
    }
}

fn as_str(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or_default()
}

fn is_abbreviation(kind: &[u8]) -> bool {
    ABBREV_TYPES.binary_search(&as_str(kind)).is_ok()
}

/// What `_ortho_heuristic` says of a token: starts a sentence, does not, or unknown.
#[derive(PartialEq, Eq)]
enum Ortho {
    Starts,
    DoesNotStart,
    Unknown,
}

const ORTHO_UPPER_STARTS: u8 = 1;
const ORTHO_LOWER_DOES_NOT_START: u8 = 2;
const ORTHO_LOWER_SEEN: u8 = 4;

/// The orthographic bits of a type (see [`ORTHO_CONTEXT`]): a binary search over its sorted lines.
fn ortho_bits(kind: &[u8]) -> u8 {
    let blob = ORTHO_CONTEXT.as_bytes();
    let (mut low, mut high) = (0, blob.len());
    while low < high {
        let middle = low + (high - low) / 2;
        let line_start = blob
            .get(low..middle)
            .and_then(|before| before.iter().rposition(|&b| b == b'\n'))
            .map_or(low, |p| low + p + 1);
        let Some(line_length) = blob
            .get(line_start..)
            .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
        else {
            break;
        };
        let line = blob
            .get(line_start..line_start + line_length)
            .unwrap_or_default();
        let Some((key, bits)) = line
            .iter()
            .position(|&b| b == b'\t')
            .map(|tab| line.split_at(tab))
        else {
            break;
        };
        match key.cmp(kind) {
            std::cmp::Ordering::Equal => {
                return bits.get(1).map_or(ORTHO_DEFAULT, |b| b.wrapping_sub(b'0'));
            }
            std::cmp::Ordering::Less => low = line_start + line_length + 1,
            std::cmp::Ordering::Greater => high = line_start,
        }
    }
    ORTHO_DEFAULT
}

fn ortho_heuristic(token: &Token<'_>) -> Ortho {
    if matches!(token.tok, b";" | b":" | b"," | b"." | b"!" | b"?") {
        return Ortho::DoesNotStart;
    }
    let bits = ortho_bits(token.type_no_sentperiod());
    if token.first_upper() && bits & ORTHO_UPPER_STARTS != 0 {
        return Ortho::Starts;
    }
    if token.first_lower() && bits & ORTHO_LOWER_DOES_NOT_START != 0 {
        return Ortho::DoesNotStart;
    }
    Ortho::Unknown
}

/// `_second_pass_annotation`: decides the token before `next` from the pair.
fn second_pass(token: &mut Token<'_>, next: &Token<'_>) {
    if !token.period_final() {
        return;
    }
    let kind = as_str(token.type_no_period());
    let next_kind = as_str(next.type_no_sentperiod());
    let initial = token.is_initial();
    if COLLOCATIONS.binary_search(&(kind, next_kind)).is_ok() {
        token.sentbreak = false;
        token.abbr = true;
        return;
    }
    if (token.abbr || token.ellipsis) && !initial {
        if ortho_heuristic(next) == Ortho::Starts {
            token.sentbreak = true;
            return;
        }
        if next.first_upper() && SENT_STARTERS.binary_search(&next_kind).is_ok() {
            token.sentbreak = true;
            return;
        }
    }
    if initial || kind.as_bytes() == NUMBER_TYPE {
        let heuristic = ortho_heuristic(next);
        if heuristic == Ortho::DoesNotStart {
            token.sentbreak = false;
            token.abbr = true;
            return;
        }
        if heuristic == Ortho::Unknown
            && initial
            && next.first_upper()
            && ortho_bits(next.type_no_sentperiod()) & ORTHO_LOWER_SEEN == 0
        {
            token.sentbreak = false;
            token.abbr = true;
        }
    }
}

/// `_tokenize_words`: the annotated word tokens of each non-blank line.
fn tokenize_words(text: &[u8]) -> Vec<Token<'_>> {
    text.split(|&b| b == b'\n')
        .filter(|line| line.iter().any(|&b| !is_py_space(b)))
        .flat_map(line_words)
        .map(Token::new)
        .collect()
}

/// `PunktLanguageVars.word_tokenize` on one line: multi-character punctuation, words up to
/// whitespace or punctuation, or single non-space characters.
fn line_words(line: &[u8]) -> Vec<&[u8]> {
    let mut words = Vec::new();
    let mut i = 0;
    while let Some(&byte) = line.get(i) {
        let length = if let Some(length) = multi_char(line, i) {
            length
        } else if is_regex_space(byte) {
            i += 1;
            continue;
        } else if b"(\"`{[:;&#*@)}]-,".contains(&byte) {
            1
        } else {
            let mut end = i + 1;
            while !word_ends_at(line, end) {
                end += 1;
            }
            end - i
        };
        words.push(line.get(i..i + length).unwrap_or_default());
        i += length;
    }
    words
}

/// `(?:\-{2,}|\.{2,}|(?:\.\s){2,}\.)` at `i`: its length.
fn multi_char(line: &[u8], i: usize) -> Option<usize> {
    for mark in [b'-', b'.'] {
        let length = run_end(line, i, |b| b == mark) - i;
        if length >= 2 {
            return Some(length);
        }
    }
    let mut pairs = 0;
    while line.get(i + 2 * pairs) == Some(&b'.')
        && line
            .get(i + 2 * pairs + 1)
            .is_some_and(|&b| is_regex_space(b))
    {
        pairs += 1;
    }
    if pairs >= 2 && line.get(i + 2 * pairs) == Some(&b'.') {
        Some(2 * pairs + 1)
    } else if pairs >= 3 {
        Some(2 * pairs - 1)
    } else {
        None
    }
}

/// Whether a word that started before `j` ends at `j`.
fn word_ends_at(line: &[u8], j: usize) -> bool {
    let Some(&byte) = line.get(j) else {
        return true;
    };
    let punctuation_at = |k: usize| match line.get(k) {
        None => true,
        Some(&b) => is_regex_space(b) || non_word(b) || multi_char(line, k).is_some(),
    };
    is_regex_space(byte)
        || non_word(byte)
        || multi_char(line, j).is_some()
        || (byte == b',' && punctuation_at(j + 1))
}

/// The end of the run of bytes matching `part` that starts at `start`.
fn run_end(text: &[u8], start: usize, part: impl Fn(u8) -> bool) -> usize {
    start
        + text
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&b| part(b))
            .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(ABBREV_TYPES.windows(2).all(|w| w[0] < w[1]));
        assert!(SENT_STARTERS.windows(2).all(|w| w[0] < w[1]));
        assert!(COLLOCATIONS.windows(2).all(|w| w[0] < w[1]));
        let keys: Vec<&str> = ORTHO_CONTEXT
            .lines()
            .map(|line| line.split('\t').next().unwrap_or_default())
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        for line in ORTHO_CONTEXT.lines() {
            let (key, bits) = line.split_once('\t').unwrap_or_default();
            assert_eq!(Some(ortho_bits(key.as_bytes())), bits.parse().ok(), "{key}");
        }
        assert_eq!(ortho_bits(b"zzzz-not-a-word"), ORTHO_DEFAULT);
        assert_eq!(ortho_bits(b""), ORTHO_DEFAULT);
    }

    #[test]
    fn numbers_and_initials() {
        assert!(is_numeric(b"3.88") && is_numeric(b"-.5") && is_numeric(b"1,000."));
        assert!(!is_numeric(b"-") && !is_numeric(b"a1") && !is_numeric(b".,1"));
        assert!(Token::new(b"J.").is_initial() && !Token::new(b"JJ.").is_initial());
    }
}
