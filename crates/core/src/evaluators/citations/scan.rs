//! Hand-written scanners for the citation marker formats. Each appends the markers it finds, in
//! text order, without allocating per marker (ids and URLs borrow the response). Marker openings
//! are found by `memchr`'s vectorised search: every response is scanned once per format.

/// One citation marker found in the response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Marker<'a> {
    /// Byte offset of the marker's id in the response (orders markers of different formats).
    pub(super) position: usize,
    /// The citation id (`turn1search1`, `3`, or a markdown link label).
    pub(super) id: &'a str,
    /// The link target, for markdown links.
    pub(super) source: Option<&'a str>,
}

/// A scanner: appends the markers of one format found in the text.
pub(super) type Scanner = for<'a> fn(&'a str, &mut Vec<Marker<'a>>);

const OPEN: char = '\u{E200}';
const CLOSE: char = '\u{E201}';
const SEPARATOR: char = '\u{E202}';
const OAI_KEYWORD: &str = "cite";

/// Where `U+E200` first occurs in `text`: at one of the rare lead bytes it shares with the other
/// characters from `U+E000` to `U+EFFF`.
fn find_open(text: &str) -> Option<usize> {
    const LEAD: u8 = 0xEE;
    memchr::memchr_iter(LEAD, text.as_bytes())
        .find(|&at| text.get(at..).is_some_and(|rest| rest.starts_with(OPEN)))
}

/// Where `[` first occurs in `text`.
fn find_bracket(text: &str) -> Option<usize> {
    memchr::memchr(b'[', text.as_bytes())
}

/// `U+E200 "cite" (U+E202 id)+ U+E201`; each id is one or more characters other than the three
/// private-use delimiters.
pub(super) fn oai_unicode<'a>(text: &'a str, out: &mut Vec<Marker<'a>>) {
    let mut from = 0;
    while let Some(offset) = text.get(from..).and_then(find_open) {
        let after_open = from + offset + OPEN.len_utf8();
        from = after_open;
        let Some(body) = text
            .get(after_open..)
            .and_then(|rest| rest.strip_prefix(OAI_KEYWORD))
        else {
            continue;
        };
        let first_new = out.len();
        if !oai_ids(text, body, out) {
            out.truncate(first_new);
        }
    }
}

/// Reads `(U+E202 id)+ U+E201` at the start of `body`; false when the marker is malformed.
fn oai_ids<'a>(text: &'a str, mut body: &'a str, out: &mut Vec<Marker<'a>>) -> bool {
    let is_delimiter = |c: char| c == OPEN || c == CLOSE || c == SEPARATOR;
    loop {
        let Some(rest) = body.strip_prefix(SEPARATOR) else {
            return false;
        };
        let end = rest.find(is_delimiter).unwrap_or(rest.len());
        let Some((id, after)) = rest.split_at_checked(end) else {
            return false;
        };
        if id.is_empty() {
            return false;
        }
        out.push(Marker {
            position: text.len() - rest.len(),
            id,
            source: None,
        });
        if after.starts_with(CLOSE) {
            return true;
        }
        body = after;
    }
}

/// `[12]`: ASCII digits in square brackets, not followed by `(` (that would be a markdown link).
pub(super) fn bracket<'a>(text: &'a str, out: &mut Vec<Marker<'a>>) {
    let mut from = 0;
    while let Some(offset) = text.get(from..).and_then(find_bracket) {
        let start = from + offset;
        from = start + 1;
        let Some(rest) = text.get(from..) else {
            break;
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let Some((id, after)) = rest.split_at_checked(digits) else {
            continue;
        };
        let Some(after_close) = after.strip_prefix(']') else {
            continue;
        };
        if id.is_empty() || after_close.starts_with('(') {
            continue;
        }
        out.push(Marker {
            position: start,
            id,
            source: None,
        });
    }
}

/// `[label](http://…)` or `[label](https://…)`: a non-empty label without brackets or line
/// breaks, and a URL without whitespace up to the closing `)`. Images (`![alt](…)`) are not
/// citations.
pub(super) fn markdown<'a>(text: &'a str, out: &mut Vec<Marker<'a>>) {
    let mut from = 0;
    while let Some(offset) = text.get(from..).and_then(find_bracket) {
        let start = from + offset;
        from = start + 1;
        if text
            .get(..start)
            .is_some_and(|before| before.ends_with('!'))
        {
            continue;
        }
        let Some(rest) = text.get(from..) else {
            break;
        };
        if let Some((id, source)) = markdown_link(rest) {
            out.push(Marker {
                position: start,
                id,
                source: Some(source),
            });
        }
    }
}

/// Parses `label](url)` at the start of `rest`.
fn markdown_link(rest: &str) -> Option<(&str, &str)> {
    let label_end = rest.find(['[', ']', '\n', '\r'])?;
    let (label, after_label) = rest.split_at_checked(label_end)?;
    if label.trim().is_empty() {
        return None;
    }
    let target = after_label.strip_prefix("](")?;
    let url_end = target.find(|c: char| c == ')' || c.is_whitespace())?;
    let (url, after_url) = target.split_at_checked(url_end)?;
    if !after_url.starts_with(')') || !is_http_url(url) {
        return None;
    }
    Some((label, url))
}

fn is_http_url(url: &str) -> bool {
    let rest = ["https://", "http://"].iter().find_map(|scheme| {
        url.get(..scheme.len())
            .filter(|prefix| prefix.eq_ignore_ascii_case(scheme))
            .and_then(|_| url.get(scheme.len()..))
    });
    rest.is_some_and(|rest| !rest.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(scan: Scanner, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        scan(text, &mut out);
        out.iter().map(|m| m.id.to_owned()).collect()
    }

    #[test]
    fn oai_unicode_markers() {
        let text = "A\u{E200}cite\u{E202}turn1search1\u{E201} b \u{E200}cite\u{E202}turn1search4\u{E202}turn1search5\u{E201}";
        assert_eq!(
            ids(oai_unicode, text),
            ["turn1search1", "turn1search4", "turn1search5"]
        );
        let text = "\u{E000}\u{E2FF}\u{EFFF}\u{E201}\u{E200}cite\u{E202}x\u{E201}\u{E200}";
        assert_eq!(ids(oai_unicode, text), ["x"]);
    }

    #[test]
    fn malformed_oai_markers_are_ignored() {
        for text in [
            "\u{E200}cite\u{E202}turn1search1",
            "\u{E200}cite\u{E201}",
            "\u{E200}cite\u{E202}\u{E201}",
            "\u{E200}cit\u{E202}x\u{E201}",
            "\u{E200}cite\u{E202}a\u{E202}\u{E201}",
            "\u{E200}cite turn1\u{E201}",
        ] {
            assert!(ids(oai_unicode, text).is_empty(), "{text:?}");
        }
        let text = "\u{E200}cite\u{E202}bad\u{E200}cite\u{E202}good\u{E201}";
        assert_eq!(ids(oai_unicode, text), ["good"]);
    }

    #[test]
    fn positions_point_at_ids() {
        let text = "ab\u{E200}cite\u{E202}x\u{E201}";
        let mut out = Vec::new();
        oai_unicode(text, &mut out);
        assert_eq!(
            out.first().map(|m| &text[m.position..m.position + 1]),
            Some("x")
        );
    }

    #[test]
    fn bracket_markers() {
        assert_eq!(
            ids(bracket, "See [1], [12] and [3](https://x) or [a] [] [4"),
            ["1", "12"]
        );
        assert_eq!(ids(bracket, "[[2]] end [5]"), ["2", "5"]);
    }

    #[test]
    fn markdown_markers() {
        let text = "[1](https://a.example/doc#p2) [Docs](http://b.example) ![img](https://c) [x](ftp://d) [y](https://) [z](https://has space)";
        let mut out = Vec::new();
        markdown(text, &mut out);
        let found: Vec<(&str, Option<&str>)> = out.iter().map(|m| (m.id, m.source)).collect();
        assert_eq!(
            found,
            [
                ("1", Some("https://a.example/doc#p2")),
                ("Docs", Some("http://b.example"))
            ]
        );
    }
}
