//! NLTK's `NLTKWordTokenizer.tokenize` (the improved Treebank word tokeniser of
//! `nltk/tokenize/destructive.py`) for one sentence of ASCII text: its chain of regular-expression
//! substitutions, each written out as a scan with the same leftmost, non-overlapping matches.
//!
//! Only the ASCII behaviour is reproduced (the reference sends non-ASCII text to the NIST
//! tokeniser instead): the rules for `«“‘„»”’` and the Unicode dashes never fire. Bytes of
//! non-ASCII characters are treated as letters and never split.

use super::{is_py_space, is_regex_space, is_word_byte};

/// Tokenises one sentence as `NLTKWordTokenizer().tokenize(sentence)`.
pub fn word_tokenize_sentence(sentence: &str) -> Vec<String> {
    let mut text = sentence.as_bytes().to_vec();
    text = starting_quotes(&text);
    text = punctuation(&text);
    text = pad_each(&text, |b| b"[](){}<>".contains(&b));
    text = replace_all(&text, b"--", b" -- ");
    let mut padded = Vec::with_capacity(text.len() + 2);
    padded.push(b' ');
    padded.extend_from_slice(&text);
    padded.push(b' ');
    text = ending_quotes(&padded);
    text = contractions(&text);
    split_py_whitespace(&text)
}

fn split_py_whitespace(text: &[u8]) -> Vec<String> {
    text.split(|&b| is_py_space(b))
        .filter(|token| !token.is_empty())
        .map(|token| String::from_utf8_lossy(token).into_owned())
        .collect()
}

/// `STARTING_QUOTES`.
fn starting_quotes(text: &[u8]) -> Vec<u8> {
    if memchr::memchr3(b'`', b'"', b'\'', text).is_none() {
        return text.to_vec();
    }
    let text = rewrite(text, |text, i, out| {
        let end = run_end(text, i, |b| b == b'`');
        if end > i {
            out.push(b' ');
            out.extend_from_slice(part(text, i, end));
            out.push(b' ');
        }
        end - i
    });
    let text = match text.strip_prefix(b"\"") {
        Some(rest) => [b"``", rest].concat(),
        None => text,
    };
    let text = replace_all(&text, b"``", b" `` ");
    let text = rewrite(&text, |text, i, out| {
        let opener = text.get(i).is_some_and(|b| b" ([{<".contains(b));
        let quote_len = match tail(text, i + 1) {
            [b'"', ..] => 1,
            [b'\'', b'\'', ..] => 2,
            _ => 0,
        };
        if !opener || quote_len == 0 {
            return 0;
        }
        out.extend_from_slice(part(text, i, i + 1));
        out.extend_from_slice(b" `` ");
        1 + quote_len
    });
    rewrite(&text, |text, i, out| {
        if text.get(i) == Some(&b'\'') && opening_single_quote(text, i) {
            out.extend_from_slice(b"' ");
            1
        } else {
            0
        }
    })
}

/// `(?i)(?<!\w)(\')(?!(?:re|ve|ll|m|t|s|d|n)\b)(?=\w)` at the quote at `i`.
fn opening_single_quote(text: &[u8], i: usize) -> bool {
    let preceded_by_word = i > 0 && text.get(i - 1).is_some_and(|&b| word_char(b));
    let rest = tail(text, i + 1);
    if preceded_by_word || !rest.first().is_some_and(|&b| word_char(b)) {
        return false;
    }
    let clitic = ["re", "ve", "ll", "m", "t", "s", "d", "n"]
        .iter()
        .any(|clitic| {
            rest.get(..clitic.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(clitic.as_bytes()))
                && !rest.get(clitic.len()).is_some_and(|&b| word_char(b))
        });
    !clitic
}

/// `\w` with non-ASCII bytes counted as letters.
fn word_char(byte: u8) -> bool {
    is_word_byte(byte) || byte >= 0x80
}

/// `PUNCTUATION`, in order.
fn punctuation(text: &[u8]) -> Vec<u8> {
    let text = final_period(text, true);
    let text = colon_comma_before_non_digit(&text);
    let text = colon_comma_at_end(&text);
    let text = pad_period_runs(&text);
    let text = pad_each(&text, |b| b";@#$%&".contains(&b));
    let text = final_period(&text, false);
    let text = pad_each(&text, |b| b == b'?' || b == b'!');
    let text = quote_before_space(&text);
    pad_each(&text, |b| b == b'*')
}

/// The two final-period rules: `([^\.])(\.)([\]\)}>"\' ]*+)\s*$` → `\1 \2 \3 ` (`possessive`,
/// whose class has a space) and `([^\.])(\.)([\]\)}>"\']*)\s*$` → `\1 \2\3 `.
fn final_period(text: &[u8], possessive: bool) -> Vec<u8> {
    let closing = |b: u8| b"])}>\"'".contains(&b) || (possessive && b == b' ');
    let trailing_space = text
        .iter()
        .rposition(|&b| !is_regex_space(b))
        .map_or(0, |last| last + 1);
    for (p, pair) in text.windows(2).enumerate() {
        if !matches!(pair, [before, b'.'] if *before != b'.') {
            continue;
        }
        let run_end = run_end(text, p + 2, closing);
        if run_end < trailing_space {
            continue;
        }
        let mut out = Vec::with_capacity(text.len() + 4);
        out.extend_from_slice(part(text, 0, p + 1));
        out.extend_from_slice(if possessive { b" . " } else { b" ." });
        out.extend_from_slice(part(text, p + 2, run_end));
        out.push(b' ');
        return out;
    }
    text.to_vec()
}

/// `([:,])([^\d])` → ` \1 \2`.
fn colon_comma_before_non_digit(text: &[u8]) -> Vec<u8> {
    if memchr::memchr2(b':', b',', text).is_none() {
        return text.to_vec();
    }
    rewrite(text, |text, i, out| match tail(text, i) {
        [mark @ (b':' | b','), next, ..] if !next.is_ascii_digit() => {
            out.extend_from_slice(&[b' ', *mark, b' ', *next]);
            2
        }
        _ => 0,
    })
}

/// `([:,])$` → ` \1 ` (`$`: the end, or before a final newline).
fn colon_comma_at_end(text: &[u8]) -> Vec<u8> {
    let (head, mark, rest): (&[u8], u8, &[u8]) = match text {
        [head @ .., mark @ (b':' | b',')] => (head, *mark, b""),
        [head @ .., mark @ (b':' | b','), b'\n'] => (head, *mark, b"\n"),
        _ => return text.to_vec(),
    };
    [head, &[b' ', mark, b' '], rest].concat()
}

/// `\.{2,}` → ` \g<0> `.
fn pad_period_runs(text: &[u8]) -> Vec<u8> {
    if memchr::memmem::find(text, b"..").is_none() {
        return text.to_vec();
    }
    rewrite(text, |text, i, out| {
        let end = run_end(text, i, |b| b == b'.');
        if end - i < 2 {
            return 0;
        }
        out.push(b' ');
        out.extend_from_slice(part(text, i, end));
        out.push(b' ');
        end - i
    })
}

/// `([^'])' ` → `\1 ' `.
fn quote_before_space(text: &[u8]) -> Vec<u8> {
    if memchr::memchr(b'\'', text).is_none() {
        return text.to_vec();
    }
    rewrite(text, |text, i, out| match tail(text, i) {
        [byte, b'\'', b' ', ..] if *byte != b'\'' => {
            out.extend_from_slice(&[*byte, b' ', b'\'', b' ']);
            3
        }
        _ => 0,
    })
}

/// `ENDING_QUOTES` (after the text was padded with a space on each side).
fn ending_quotes(text: &[u8]) -> Vec<u8> {
    let text = replace_all(text, b"''", b" '' ");
    let text = replace_all(&text, b"\"", b" '' ");
    let mut collapsed = Vec::with_capacity(text.len());
    let mut in_space = false;
    for &byte in &text {
        let space = is_regex_space(byte);
        if !(space && in_space) {
            collapsed.push(if space { b' ' } else { byte });
        }
        in_space = space;
    }
    let text = split_clitics(
        &collapsed,
        &[b"'s", b"'S", b"'m", b"'M", b"'d", b"'D", b"'"],
    );
    split_clitics(
        &text,
        &[
            b"'ll", b"'LL", b"'re", b"'RE", b"'ve", b"'VE", b"n't", b"N'T",
        ],
    )
}

/// `([^' ])(CLITIC|…) ` → `\1 \2 `, the alternatives tried in order.
fn split_clitics(text: &[u8], clitics: &[&[u8]]) -> Vec<u8> {
    if memchr::memchr(b'\'', text).is_none() {
        return text.to_vec();
    }
    rewrite(text, |text, i, out| {
        let Some((&byte, rest)) = tail(text, i).split_first() else {
            return 0;
        };
        if byte == b'\'' || byte == b' ' {
            return 0;
        }
        let Some(clitic) = clitics
            .iter()
            .find(|clitic| rest.starts_with(clitic) && rest.get(clitic.len()) == Some(&b' '))
        else {
            return 0;
        };
        out.extend_from_slice(&[byte, b' ']);
        out.extend_from_slice(clitic);
        out.push(b' ');
        clitic.len() + 2
    })
}

/// `CONTRACTIONS2` and `CONTRACTIONS3` (Python `re`, case-insensitive), in order. A rule whose
/// word is nowhere in the text (letter case aside) is skipped.
fn contractions(text: &[u8]) -> Vec<u8> {
    let mut text = text.to_vec();
    let lower = text.to_ascii_lowercase();
    let present = |first: &[u8], second: &[u8]| {
        memchr::memmem::find_iter(&lower, first).any(|at| {
            lower
                .get(at + first.len()..)
                .is_some_and(|rest| rest.starts_with(second))
        })
    };
    let rules: [(&[u8], &[u8], WordEnd); 10] = [
        (b"can", b"not", WordEnd::Boundary),
        (b"d", b"'ye", WordEnd::Boundary),
        (b"gim", b"me", WordEnd::Boundary),
        (b"gon", b"na", WordEnd::Boundary),
        (b"got", b"ta", WordEnd::Boundary),
        (b"lem", b"me", WordEnd::Boundary),
        (b"more", b"'n", WordEnd::Boundary),
        (b"wan", b"na", WordEnd::Space),
        (b"'t", b"is", WordEnd::AfterSpace),
        (b"'t", b"was", WordEnd::AfterSpace),
    ];
    for (first, second, end) in rules {
        if present(first, second) {
            text = split_word(&text, first, second, end);
        }
    }
    text
}

/// Where a split word sits.
#[derive(Clone, Copy)]
enum WordEnd {
    /// `\b(first)(second)\b`.
    Boundary,
    /// `\b(first)(second)(?=\s)` (Python `re`'s `\s`).
    Space,
    /// ` (first)(second)\b`: after a space, which the match consumes.
    AfterSpace,
}

/// `(?i)\b(first)(second)END` → ` \1 \2 ` (or `(?i) (first)(second)\b`).
fn split_word(text: &[u8], first: &[u8], second: &[u8], end: WordEnd) -> Vec<u8> {
    let lead = usize::from(matches!(end, WordEnd::AfterSpace));
    rewrite(text, |text, i, out| {
        let head = part(text, i + lead, i + lead + first.len());
        let body = part(
            text,
            i + lead + first.len(),
            i + lead + first.len() + second.len(),
        );
        let after = i + lead + first.len() + second.len();
        let matches = head.eq_ignore_ascii_case(first)
            && body.eq_ignore_ascii_case(second)
            && match end {
                WordEnd::Boundary => boundary(text, i) && boundary(text, after),
                WordEnd::Space => {
                    boundary(text, i) && text.get(after).is_some_and(|&b| is_py_space(b))
                }
                WordEnd::AfterSpace => text.get(i) == Some(&b' ') && boundary(text, after),
            };
        if !matches {
            return 0;
        }
        out.push(b' ');
        out.extend_from_slice(head);
        out.push(b' ');
        out.extend_from_slice(body);
        out.push(b' ');
        after - i
    })
}

/// `\b` at `i`: a word character on exactly one side.
fn boundary(text: &[u8], i: usize) -> bool {
    let before = i > 0 && text.get(i - 1).is_some_and(|&b| word_char(b));
    let after = text.get(i).is_some_and(|&b| word_char(b));
    before != after
}

/// Every byte matching `pad` → ` byte `.
fn pad_each(text: &[u8], pad: impl Fn(u8) -> bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 8);
    for &byte in text {
        if pad(byte) {
            out.extend_from_slice(&[b' ', byte, b' ']);
        } else {
            out.push(byte);
        }
    }
    out
}

/// Every non-overlapping `from`, left to right, → `to`.
fn replace_all(text: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    if memchr::memmem::find(text, from).is_none() {
        return text.to_vec();
    }
    rewrite(text, |text, i, out| {
        if tail(text, i).starts_with(from) {
            out.extend_from_slice(to);
            from.len()
        } else {
            0
        }
    })
}

/// Rewrites `text` left to right, as a regular-expression substitution does: at each position
/// `rule` either writes a replacement and returns how many bytes it consumed, or returns 0 and
/// the byte is copied.
fn rewrite(text: &[u8], mut rule: impl FnMut(&[u8], usize, &mut Vec<u8>) -> usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 16);
    let mut i = 0;
    while let Some(&byte) = text.get(i) {
        match rule(text, i, &mut out) {
            0 => {
                out.push(byte);
                i += 1;
            }
            consumed => i += consumed,
        }
    }
    out
}

/// `text[start..end]`, empty when out of range.
fn part(text: &[u8], start: usize, end: usize) -> &[u8] {
    text.get(start..end).unwrap_or_default()
}

/// `text[start..]`, empty when out of range.
fn tail(text: &[u8], start: usize) -> &[u8] {
    text.get(start..).unwrap_or_default()
}

/// The end of the run of bytes matching `part` that starts at `start`.
fn run_end(text: &[u8], start: usize, part: impl Fn(u8) -> bool) -> usize {
    start + tail(text, start).iter().take_while(|&&b| part(b)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nltk_docstring_example() {
        let text = "Good muffins cost $3.88 (roughly 3,36 euros)\nin New York.  Please buy me\ntwo of them.\nThanks.";
        assert_eq!(
            word_tokenize_sentence(text),
            [
                "Good", "muffins", "cost", "$", "3.88", "(", "roughly", "3,36", "euros", ")", "in",
                "New", "York.", "Please", "buy", "me", "two", "of", "them.", "Thanks", "."
            ]
        );
    }

    #[test]
    fn contractions_and_quotes() {
        assert_eq!(
            word_tokenize_sentence("\"I can't,\" he said, 'cannot'."),
            ["``", "I", "ca", "n't", ",", "''", "he", "said", ",", "'", "can", "not", "'", "."]
        );
    }
}
