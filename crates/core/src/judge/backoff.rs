//! How long to wait before trying a judge call again: what the endpoint asked for
//! (`retry-after-ms`, `Retry-After`, `x-ratelimit-reset-*` when the remaining count is 0), or an
//! exponential back-off with jitter. The jitter is derived from the request and the attempt, so
//! the core needs no random source and runs replay exactly.

use std::time::Duration;

use super::http::HttpResponse;
use crate::text::float_parse;

/// The wait the response asks for, if it names one.
pub fn requested_wait(response: &HttpResponse) -> Option<Duration> {
    if let Some(ms) = response
        .header("retry-after-ms")
        .and_then(|value| float_parse::parse_f64(value.trim()))
    {
        return seconds(ms / 1000.0);
    }
    if let Some(secs) = response
        .header("retry-after")
        .and_then(|value| float_parse::parse_f64(value.trim()))
    {
        return seconds(secs);
    }
    ["requests", "tokens"]
        .iter()
        .filter(|kind| {
            response
                .header(&format!("x-ratelimit-remaining-{kind}"))
                .is_some_and(|remaining| remaining.trim() == "0")
        })
        .filter_map(|kind| response.header(&format!("x-ratelimit-reset-{kind}")))
        .filter_map(reset_duration)
        .max()
}

fn seconds(value: f64) -> Option<Duration> {
    (value.is_finite() && value >= 0.0).then(|| Duration::from_secs_f64(value.min(86_400.0)))
}

/// An OpenAI reset time: `1s`, `6m0s`, `250ms`, `1h2m3.5s`, or plain seconds.
fn reset_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    if let Some(secs) = float_parse::parse_f64(text) {
        return seconds(secs);
    }
    let mut total = 0.0;
    let mut number = String::new();
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(character) = chars.next() {
        if character.is_ascii_digit() || character == '.' {
            number.push(character);
            continue;
        }
        let value = float_parse::parse_f64(&number)?;
        number.clear();
        let unit = match (character, chars.peek()) {
            ('m', Some('s')) => {
                chars.next();
                0.001
            }
            ('h', _) => 3600.0,
            ('m', _) => 60.0,
            ('s', _) => 1.0,
            _ => return None,
        };
        total += value * unit;
        any = true;
    }
    (any && number.is_empty())
        .then_some(())
        .and_then(|()| seconds(total))
}

/// The exponential back-off before retry `attempt` (1 for the first retry): `base·2^(attempt-1)`,
/// capped at `cap`, scaled by a jitter in [0.5, 1) drawn from `seed` and the attempt.
pub fn backoff(base: Duration, cap: Duration, attempt: u32, seed: u64) -> Duration {
    let exponent = attempt.saturating_sub(1).min(30);
    let full = base.saturating_mul(1 << exponent).min(cap);
    full.mul_f64(
        0.5 + 0.5 * unit_interval(seed ^ u64::from(attempt).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
    )
}

/// A number in [0, 1) from `seed` (SplitMix64).
fn unit_interval(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(headers: &[(&str, &str)]) -> HttpResponse {
        HttpResponse {
            status: 429,
            headers: headers
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect(),
            body: String::new(),
        }
    }

    #[test]
    fn the_endpoints_own_wait_wins() {
        let both = response(&[("Retry-After", "2"), ("retry-after-ms", "150")]);
        assert_eq!(requested_wait(&both), Some(Duration::from_millis(150)));
        let seconds = response(&[("Retry-After", "3")]);
        assert_eq!(requested_wait(&seconds), Some(Duration::from_secs(3)));
        let openai = response(&[
            ("x-ratelimit-remaining-requests", "0"),
            ("x-ratelimit-reset-requests", "1m2.5s"),
            ("x-ratelimit-remaining-tokens", "100"),
            ("x-ratelimit-reset-tokens", "9m"),
        ]);
        assert_eq!(requested_wait(&openai), Some(Duration::from_millis(62_500)));
        let ms = response(&[
            ("x-ratelimit-remaining-tokens", "0"),
            ("x-ratelimit-reset-tokens", "250ms"),
        ]);
        assert_eq!(requested_wait(&ms), Some(Duration::from_millis(250)));
        assert_eq!(
            requested_wait(&response(&[("Retry-After", "Wed, 21 Oct 2015")])),
            None
        );
        assert_eq!(reset_duration("5x"), None);
    }

    #[test]
    fn backoff_grows_is_capped_and_jittered() {
        let base = Duration::from_millis(100);
        let cap = Duration::from_secs(2);
        for attempt in 1..=10 {
            let full = base.saturating_mul(1 << (attempt - 1)).min(cap);
            let wait = backoff(base, cap, attempt, 42);
            assert!(wait >= full / 2 && wait < full, "{attempt}: {wait:?}");
        }
        assert_eq!(backoff(base, cap, 3, 1), backoff(base, cap, 3, 1));
        assert_ne!(backoff(base, cap, 3, 1), backoff(base, cap, 3, 2));
    }
}
