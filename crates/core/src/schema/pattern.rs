//! Compiled `pattern` keywords. The embedded schema uses three patterns; each is matched by
//! hand-written code following ECMA-262 semantics, as JSON Schema asks (they run per evaluator
//! name and per item in large documents, and a regex engine would add to the wasm size). Any other
//! pattern is refused when the schema is compiled, so a schema edit cannot silently skip a check.

/// A compiled `pattern`.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    /// The pattern as written in the schema.
    pub(crate) source: String,
    matcher: Matcher,
}

#[derive(Debug, Clone)]
enum Matcher {
    /// `^1\.\d+\.\d+$`
    Version1,
    /// `^[a-zA-Z][a-zA-Z0-9_]*$`
    Identifier,
    /// `\S`
    NonWhitespace,
}

impl Pattern {
    /// Compiles `source`.
    ///
    /// # Errors
    /// When `source` is not one of the patterns this module implements.
    pub(crate) fn new(source: &str) -> Result<Pattern, String> {
        let matcher = match source {
            r"^1\.\d+\.\d+$" => Matcher::Version1,
            "^[a-zA-Z][a-zA-Z0-9_]*$" => Matcher::Identifier,
            r"\S" => Matcher::NonWhitespace,
            _ => return Err(format!("unsupported pattern {source:?}")),
        };
        Ok(Pattern {
            source: source.to_owned(),
            matcher,
        })
    }

    /// Whether `text` contains a match (JSON Schema patterns are not implicitly anchored).
    pub(crate) fn is_match(&self, text: &str) -> bool {
        match &self.matcher {
            Matcher::Version1 => is_version1(text),
            Matcher::Identifier => is_identifier(text),
            Matcher::NonWhitespace => text.chars().any(|ch| !is_ecma_whitespace(ch)),
        }
    }
}

fn is_version1(text: &str) -> bool {
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let mut parts = text.split('.');
    matches!(
        (parts.next(), parts.next(), parts.next(), parts.next()),
        (Some("1"), Some(minor), Some(patch), None) if digits(minor) && digits(patch)
    )
}

fn is_identifier(text: &str) -> bool {
    let mut bytes = text.bytes();
    bytes
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// ECMA-262 `\s`: WhiteSpace and LineTerminator code points.
fn is_ecma_whitespace(ch: char) -> bool {
    matches!(
        ch,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

#[cfg(test)]
mod tests {
    use regex_lite::Regex;

    use super::*;

    const SAMPLES: &[&str] = &[
        "",
        "1",
        "1.0.0",
        "1.11.3",
        "1.0",
        "1.0.0.0",
        "2.0.0",
        "1.a.0",
        "01.0.0",
        "1..0",
        "1.0.",
        " 1.0.0",
        "1.0.0\n",
        "x1.0.0",
        "a",
        "Z9_",
        "_a",
        "9a",
        "ab-c",
        "Relevance",
        "a b",
        " ",
        "\t\n",
        " x ",
        "ExactMatch",
        "tool_name",
    ];

    #[test]
    fn hand_written_matchers_agree_with_regex_lite_on_ascii() {
        for source in [r"^1\.\d+\.\d+$", "^[a-zA-Z][a-zA-Z0-9_]*$", r"\S"] {
            let fast = Pattern::new(source).unwrap_or_else(|error| panic!("{error}"));
            let slow = Regex::new(source).unwrap_or_else(|error| panic!("{error}"));
            for sample in SAMPLES {
                assert_eq!(
                    fast.is_match(sample),
                    slow.is_match(sample),
                    "{source} on {sample:?}"
                );
            }
        }
    }

    #[test]
    fn non_whitespace_follows_ecma_262() {
        let pattern = Pattern::new(r"\S").unwrap_or_else(|error| panic!("{error}"));
        assert!(!pattern.is_match("\u{3000}\u{a0}\u{feff}"));
        assert!(pattern.is_match("\u{3000}x"));
    }

    #[test]
    fn other_patterns_are_refused() {
        assert!(Pattern::new("^ab+$").is_err());
    }
}
