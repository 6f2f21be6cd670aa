//! The vendored `rouge_score` tokeniser of azure-ai-evaluation: Python `str.lower()`, every run of
//! characters outside `[a-z0-9]` becomes a separator, tokens are the remaining `[a-z0-9]+` runs.
//! No stemming. Non-ASCII letters vanish (`café` → `caf`).

use super::python;

/// Tokenises `text` like the reference's `rouge_score.tokenize.tokenize(text, None)`.
pub fn tokens(text: &str) -> Vec<String> {
    python::lower(text)
        .split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
        .filter(|token| !token.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_ascii_alphanumeric_runs() {
        assert_eq!(tokens("Café, N°5 — résumé!"), ["caf", "n", "5", "r", "sum"]);
        assert_eq!(tokens("İstanbul \u{212A}"), ["i", "stanbul", "k"]);
        assert_eq!(tokens("don't_stop"), ["don", "t", "stop"]);
        assert!(tokens(" ... ").is_empty());
    }
}
