//! The pieces evaluators' reasons are made of (`2 queries`, `'a', 'b'`), appended straight to a
//! `String`: reasons are written for every item, and `format!`'s machinery cost several times the
//! copying itself.

/// Appends `count` in decimal.
pub fn push_count(text: &mut String, count: impl itoa::Integer) {
    text.push_str(itoa::Buffer::new().format(count));
}

/// Appends `1 query` or `2 queries`.
pub fn push_counted(text: &mut String, count: usize, singular: &str, plural: &str) {
    push_count(text, count);
    text.push(' ');
    text.push_str(if count == 1 { singular } else { plural });
}

/// Appends `'a', 'b'`.
pub fn push_quoted_list(text: &mut String, items: &[&str]) {
    for (position, item) in items.iter().enumerate() {
        if position > 0 {
            text.push_str(", ");
        }
        text.push('\'');
        text.push_str(item);
        text.push('\'');
    }
}

/// Appends each of `pieces` in turn.
pub fn push_all(text: &mut String, pieces: &[&str]) {
    pieces.iter().for_each(|piece| text.push_str(piece));
}

/// Concatenates `pieces` into one string of exactly their length.
pub fn concat(pieces: &[&str]) -> String {
    let mut text = String::with_capacity(pieces.iter().map(|piece| piece.len()).sum());
    push_all(&mut text, pieces);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_noun_for_their_number() {
        let mut text = String::new();
        push_counted(&mut text, 0, "query", "queries");
        text.push_str(", ");
        push_counted(&mut text, 1, "query", "queries");
        text.push_str(", ");
        push_counted(&mut text, 12_345, "hit", "hits");
        assert_eq!(text, "0 queries, 1 query, 12345 hits");
    }

    #[test]
    fn counts_are_written_as_display_writes_them() {
        for count in [0, 9, 10, 99, 100, 1_000_007, usize::MAX] {
            let mut text = String::from("n=");
            push_count(&mut text, count);
            assert_eq!(text, format!("n={count}"));
        }
    }

    #[test]
    fn quoted_lists_are_comma_separated() {
        let mut text = String::new();
        push_quoted_list(&mut text, &[]);
        assert_eq!(text, "");
        push_quoted_list(&mut text, &["a"]);
        assert_eq!(text, "'a'");
        text.clear();
        push_quoted_list(&mut text, &["a", "b c", "it's"]);
        assert_eq!(text, "'a', 'b c', 'it's'");
    }

    #[test]
    fn concatenation_keeps_the_order_and_the_exact_length() {
        let joined = concat(&["No ", "queryString", "", " for '", "x", "'"]);
        assert_eq!(joined, "No queryString for 'x'");
        assert_eq!(joined.capacity(), joined.len());
    }
}
