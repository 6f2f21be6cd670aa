//! Light checks for the `format` values the schema uses: `uri` (a scheme, then no whitespace) and
//! `date-time` (RFC 3339: `2026-05-01T12:30:00Z`, optional fraction, `Z` or `±hh:mm` offset).

/// A supported `format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// An absolute URI.
    Uri,
    /// An RFC 3339 date and time with an offset.
    DateTime,
}

impl Format {
    /// The format called `name` in a schema.
    pub(crate) fn named(name: &str) -> Option<Format> {
        match name {
            "uri" => Some(Format::Uri),
            "date-time" => Some(Format::DateTime),
            _ => None,
        }
    }

    /// Whether `text` has this format.
    pub(crate) fn accepts(self, text: &str) -> bool {
        match self {
            Format::Uri => is_uri(text),
            Format::DateTime => is_date_time(text),
        }
    }

    /// The expectation, in words.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Format::Uri => "an absolute URI such as \"https://example.com/schema.json\"",
            Format::DateTime => "an RFC 3339 date-time such as \"2026-05-01T12:30:00Z\"",
        }
    }
}

fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut scheme_chars = scheme.chars();
    scheme_chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && scheme_chars.all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '+' | '-' | '.'))
        && !rest.is_empty()
        && !text.chars().any(|ch| ch.is_whitespace() || ch.is_control())
}

fn is_date_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    let Some((date, rest)) = text.split_at_checked(10) else {
        return false;
    };
    if !matches!(bytes.get(10), Some(b'T' | b't' | b' ')) {
        return false;
    }
    let time = rest.get(1..).unwrap_or_default();
    is_date(date) && is_time(time)
}

fn digits(text: &str, from: usize, len: usize) -> Option<u32> {
    let part = text.get(from..from + len)?;
    if part.bytes().all(|byte| byte.is_ascii_digit()) {
        part.parse().ok()
    } else {
        None
    }
}

fn is_date(date: &str) -> bool {
    let bytes = date.as_bytes();
    if bytes.get(4) != Some(&b'-') || bytes.get(7) != Some(&b'-') {
        return false;
    }
    let (Some(year), Some(month), Some(day)) =
        (digits(date, 0, 4), digits(date, 5, 2), digits(date, 8, 2))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

fn is_time(time: &str) -> bool {
    let bytes = time.as_bytes();
    if bytes.get(2) != Some(&b':') || bytes.get(5) != Some(&b':') {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (digits(time, 0, 2), digits(time, 3, 2), digits(time, 6, 2))
    else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut rest = time.get(8..).unwrap_or_default();
    if let Some(fraction) = rest.strip_prefix('.') {
        let length = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if length == 0 {
            return false;
        }
        rest = fraction.get(length..).unwrap_or_default();
    }
    is_offset(rest)
}

fn is_offset(offset: &str) -> bool {
    if offset == "Z" || offset == "z" {
        return true;
    }
    let bytes = offset.as_bytes();
    offset.len() == 6
        && matches!(bytes.first(), Some(b'+' | b'-'))
        && bytes.get(3) == Some(&b':')
        && digits(offset, 1, 2).is_some_and(|hours| hours <= 23)
        && digits(offset, 4, 2).is_some_and(|minutes| minutes <= 59)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_times() {
        for good in [
            "2026-05-01T12:30:00Z",
            "2024-02-29T23:59:60.123+05:30",
            "2026-01-01t00:00:00z",
            "2026-01-01 00:00:00-00:00",
        ] {
            assert!(Format::DateTime.accepts(good), "{good}");
        }
        for bad in [
            "2026-05-01",
            "2026-05-01T12:30:00",
            "2025-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-05-01T24:00:00Z",
            "2026-05-01T12:30:00.Z",
            "2026-05-01T12:30:00+0530",
            "yesterday",
            "2026-05-01T12:30:00Zé",
        ] {
            assert!(!Format::DateTime.accepts(bad), "{bad}");
        }
    }

    #[test]
    fn uris() {
        for good in [
            "https://example.com/a.json",
            "urn:isbn:123",
            "file:///tmp/x",
        ] {
            assert!(Format::Uri.accepts(good), "{good}");
        }
        for bad in [
            "example.com",
            "1http://x",
            "https://exa mple.com",
            "https:",
            "",
        ] {
            assert!(!Format::Uri.accepts(bad), "{bad}");
        }
    }
}
