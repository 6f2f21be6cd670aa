//! Case-insensitive substring search shared by the M365 evaluators (RetrievalQuery,
//! RetrievalResult, KeywordMatch).
//!
//! Mirrors Python's `needle.lower() in haystack.lower()`: search terms are lower-cased once when the
//! evaluator is built, and a haystack is lower-cased at most once per item (never for ASCII text,
//! which is compared in place).

use crate::text::python;

/// Lower-cases `text` as Python's `str.lower()` does (CPython 3.11's Unicode tables).
pub(crate) fn fold(text: &str) -> String {
    python::lower(text)
}

/// A configured search term: the text as written (for reports) and its lower-cased form.
#[derive(Debug, Clone)]
pub(crate) struct Term {
    /// As written in the options.
    pub(crate) original: String,
    /// Passed through [`fold`].
    pub(crate) folded: String,
}

impl Term {
    /// A term from its configured text.
    pub(crate) fn new(text: &str) -> Self {
        Term {
            original: text.to_owned(),
            folded: fold(text),
        }
    }
}

/// A text prepared for repeated case-insensitive searches.
pub(crate) enum Haystack<'a> {
    /// ASCII text, compared in place.
    Ascii(&'a str),
    /// Non-ASCII text, lower-cased once.
    Folded(String),
}

impl<'a> Haystack<'a> {
    /// Prepares `text`; allocates only when it is not ASCII.
    pub(crate) fn new(text: &'a str) -> Self {
        if text.is_ascii() {
            Haystack::Ascii(text)
        } else {
            Haystack::Folded(python::lower(text))
        }
    }

    /// Whether the text contains `folded_needle` (already passed through [`fold`]).
    pub(crate) fn contains(&self, folded_needle: &str) -> bool {
        match self {
            Haystack::Ascii(text) => {
                folded_needle.is_ascii()
                    && ascii_contains_ignore_case(text.as_bytes(), folded_needle.as_bytes())
            }
            Haystack::Folded(text) => text.contains(folded_needle),
        }
    }
}

/// Whether `text` equals `folded` (already passed through [`fold`]) ignoring case.
pub(crate) fn eq_folded(text: &str, folded: &str) -> bool {
    if text.is_ascii() {
        text.eq_ignore_ascii_case(folded)
    } else {
        python::lower(text) == folded
    }
}

/// Whether `haystack` holds `lower_needle` (lower-case ASCII) ignoring ASCII case. Places where
/// the needle could start are found by `memchr`'s vectorised search for its first byte in either
/// case, and only those are compared.
fn ascii_contains_ignore_case(haystack: &[u8], lower_needle: &[u8]) -> bool {
    let Some(&first) = lower_needle.first() else {
        return true;
    };
    let Some(last_start) = haystack.len().checked_sub(lower_needle.len()) else {
        return false;
    };
    let starts = haystack.get(..=last_start).unwrap_or_default();
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), starts).any(|start| {
        haystack
            .get(start..start + lower_needle.len())
            .is_some_and(|window| window.eq_ignore_ascii_case(lower_needle))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contains_folded(text: &str, folded_needle: &str) -> bool {
        Haystack::new(text).contains(folded_needle)
    }

    #[test]
    fn ascii_search_ignores_case() {
        assert!(contains_folded(
            "Mortgage JOINT check",
            &fold("joint Check")
        ));
        assert!(!contains_folded("mortgage", &fold("mortgages")));
        assert!(contains_folded("anything", ""));
    }

    #[test]
    fn non_ascii_text_is_lowercased_like_python() {
        assert!(contains_folded("ÉTÉ à Paris", &fold("été")));
        assert!(contains_folded(
            "5–15 Business Days",
            &fold("5–15 business")
        ));
        // U+212A KELVIN SIGN lower-cases to ASCII `k`.
        assert!(contains_folded("10 \u{212A}m", "10 km"));
        assert!(!contains_folded("plain ascii", &fold("ascii é")));
    }

    #[test]
    fn equality_ignores_case() {
        assert!(eq_folded(
            "OneDriveAndSharePoint",
            &fold("onedriveandsharepoint")
        ));
        assert!(eq_folded("ÉMAIL", &fold("émail")));
        assert!(!eq_folded("Email", &fold("Emails")));
    }

    #[test]
    fn ascii_search_finds_what_a_naive_search_finds() {
        let naive = |haystack: &[u8], needle: &[u8]| {
            needle.is_empty()
                || haystack
                    .windows(needle.len())
                    .any(|window| window.eq_ignore_ascii_case(needle))
        };
        let mut rng = crate::test_rng::XorShift::new(0x5DEE_CE66_D1CE_4E5B);
        for _ in 0..20_000 {
            let text = |rng: &mut crate::test_rng::XorShift, longest: usize| -> Vec<u8> {
                let length = rng.below(longest + 1);
                (0..length).map(|_| b"aAbB1 -"[rng.below(7)]).collect()
            };
            let haystack = text(&mut rng, 24);
            let needle = text(&mut rng, 4).to_ascii_lowercase();
            assert_eq!(
                ascii_contains_ignore_case(&haystack, &needle),
                naive(&haystack, &needle),
                "{:?} in {:?}",
                String::from_utf8_lossy(&needle),
                String::from_utf8_lossy(&haystack)
            );
        }
    }

    #[test]
    fn haystack_is_reusable() {
        let haystack = Haystack::new("Claim inspection FORM");
        assert!(haystack.contains("inspection"));
        assert!(haystack.contains("form"));
        assert!(!haystack.contains("unicorn"));
    }
}
