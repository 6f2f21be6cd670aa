//! The one way data reaches the terminal: every text that comes from a dataset, a config or a
//! server (evaluator and criterion names, JSON keys in diagnostics, model names) goes through
//! [`visible`] before it is printed to stderr, so control characters cannot clear the screen, set
//! the title, move the cursor or print over the summary.

use std::borrow::Cow;

/// `text` with control characters (C0, DEL, C1) and the bidirectional overrides shown as escapes
/// (`\x1b`, `\r`, `\n`, `\u{202e}`) instead of acting on the terminal.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden_action) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            '\t' => shown.push_str("\\t"),
            c if u32::from(c) < 0x100 && is_hidden_action(c) => {
                shown.push_str(&format!("\\x{:02x}", u32::from(c)));
            }
            c if is_hidden_action(c) => shown.push_str(&format!("\\u{{{:04x}}}", u32::from(c))),
            c => shown.push(c),
        }
    }
    Cow::Owned(shown)
}

fn is_hidden_action(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_overwrites_are_shown_not_acted_on() {
        assert_eq!(
            visible("name\x1b[2J\x07\rFAKE: all passed\n"),
            "name\\x1b[2J\\x07\\rFAKE: all passed\\n"
        );
        assert_eq!(
            visible("\u{9b}31m \u{202e}txt.exe"),
            "\\x9b31m \\u{202e}txt.exe"
        );
        assert!(matches!(visible("Relevance — ok é"), Cow::Borrowed(_)));
    }
}
