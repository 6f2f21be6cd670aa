//! Token F1 exactly as azure-ai-evaluation's `F1ScoreEvaluator` computes it (shared by
//! `builtin.f1_score` and M365 `PartialMatch`).
//!
//! Normalisation, in the reference's order: Python `str.lower()` (optional here, for
//! `case_sensitive`), deletion of every ASCII punctuation character (not replaced by a space),
//! replacement of the whole words `a`/`an`/`the` (Python `re` `\b` semantics) by a space, and
//! splitting on Python whitespace.

use std::collections::HashMap;

use super::python;

fn is_ascii_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
}

fn is_article(word: &str) -> bool {
    matches!(word, "a" | "an" | "the")
}

/// Normalises `text` like the reference and returns its tokens.
///
/// With `lowercase` false the `str.lower()` step is skipped (PartialMatch `case_sensitive`).
pub fn tokens(text: &str, lowercase: bool) -> Vec<String> {
    let lowered;
    let source = if lowercase {
        lowered = python::lower(text);
        lowered.as_str()
    } else {
        text
    };
    let stripped: String = source
        .chars()
        .filter(|c| !is_ascii_punctuation(*c))
        .collect();
    let without_articles = replace_articles(&stripped);
    python::split_whitespace(&without_articles)
        .map(str::to_owned)
        .collect()
}

/// `re.sub(r"\b(a|an|the)\b", " ", text)`: a maximal run of `\w` characters equal to an article
/// is replaced by one space.
fn replace_articles(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run_start: Option<usize> = None;
    let flush = |out: &mut String, run: &str| {
        if is_article(run) {
            out.push(' ');
        } else {
            out.push_str(run);
        }
    };
    for (index, c) in text.char_indices() {
        if python::is_word(c) {
            if run_start.is_none() {
                run_start = Some(index);
            }
        } else {
            if let Some(start) = run_start.take() {
                flush(&mut out, text.get(start..index).unwrap_or_default());
            }
            out.push(c);
        }
    }
    if let Some(start) = run_start {
        flush(&mut out, text.get(start..).unwrap_or_default());
    }
    out
}

/// The reference's token F1 of `prediction` against `reference`: 0.0 without common tokens, else
/// `2·P·R / (P + R)` evaluated in the reference's floating-point order.
pub fn f1_score(prediction: &str, reference: &str, lowercase: bool) -> f64 {
    let predicted = tokens(prediction, lowercase);
    let expected = tokens(reference, lowercase);
    f1_of_tokens(&predicted, &expected)
}

/// Token F1 of two already-normalised token lists (multiset intersection).
pub fn f1_of_tokens(predicted: &[String], expected: &[String]) -> f64 {
    let mut expected_counts: HashMap<&str, usize> = HashMap::new();
    for token in expected {
        *expected_counts.entry(token.as_str()).or_default() += 1;
    }
    let mut common = 0usize;
    for token in predicted {
        if let Some(count) = expected_counts.get_mut(token.as_str()) {
            if *count > 0 {
                *count -= 1;
                common += 1;
            }
        }
    }
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
}
