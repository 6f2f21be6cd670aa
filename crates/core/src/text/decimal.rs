//! Python's `repr(float)`: the shortest decimal digits that read back as the same `f64`, with
//! CPython's tie-breaking and layout. The digits come from the standard library's shortest
//! formatting, so the module carries no float tables of its own.

use std::fmt::Write as _;

/// The most significant digits a shortest round-trip `f64` needs.
const MAX_DIGITS: usize = 17;

/// Room for the longest text of an `f64` in any layout here.
const TEXT_BYTES: usize = 32;

/// A finite number as `0.d1d2…dn × 10^(exponent + 1)`: its sign, its shortest significant digits
/// and the decimal exponent of the first of them.
struct Shortest {
    negative: bool,
    digits: [u8; MAX_DIGITS],
    len: usize,
    exponent: i32,
}

/// The first-digit exponents `repr` writes in fixed notation (`0.0001` to `9999999999999998.0`).
const FIXED_EXPONENTS: std::ops::Range<i32> = -4..16;

/// The fewest shortest digits at which two candidates can lie equally near the number: shorter
/// ones are always more than half an ulp apart.
const TIE_DIGITS: usize = 16;

/// Whether `magnitude`'s exact decimal expansion has at most 18 significant digits, the only case
/// in which the shortest digits can end in a tie. The standard library breaks such ties upwards;
/// CPython and serde_json pick the even digit (`1690060720831323.25` is `…323.2`).
fn has_short_expansion(magnitude: f64) -> bool {
    const MAX_EXACT: u128 = 1_000_000_000_000_000_000;
    let bits = magnitude.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    if mantissa == 0 {
        return false;
    }
    let zeros = mantissa.trailing_zeros();
    let (odd, exponent) = (u128::from(mantissa >> zeros), exponent + zeros as i32);
    match exponent {
        0.. => magnitude < 1e18,
        -25..0 => odd * 5u128.pow(exponent.unsigned_abs()) < MAX_EXACT,
        _ => false,
    }
}

/// A number's text, built in place: `{:e}` output or a finished layout (at most 25 bytes).
struct Text {
    bytes: [u8; TEXT_BYTES],
    len: usize,
}

impl Default for Text {
    fn default() -> Text {
        Text {
            bytes: [0; TEXT_BYTES],
            len: 0,
        }
    }
}

impl Text {
    fn push(&mut self, bytes: &[u8]) {
        let end = (self.len + bytes.len()).min(TEXT_BYTES);
        if let Some(slot) = self.bytes.get_mut(self.len..end) {
            slot.copy_from_slice(bytes.get(..end - self.len).unwrap_or_default());
            self.len = end;
        }
    }

    fn zeros(&mut self, count: usize) {
        let end = (self.len + count).min(TEXT_BYTES);
        if let Some(slot) = self.bytes.get_mut(self.len..end) {
            slot.fill(b'0');
            self.len = end;
        }
    }

    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or_default()
    }
}

impl std::fmt::Write for Text {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        if self.len + text.len() > TEXT_BYTES {
            return Err(std::fmt::Error);
        }
        self.push(text.as_bytes());
        Ok(())
    }
}

impl Shortest {
    fn of(value: f64) -> Shortest {
        let magnitude = value.abs();
        let mut shortest = Shortest::read(value.is_sign_negative(), format_args!("{magnitude:e}"));
        if shortest.len >= TIE_DIGITS && has_short_expansion(magnitude) {
            let nearest = Shortest::read(
                shortest.negative,
                format_args!("{magnitude:.*e}", shortest.len - 1),
            );
            if nearest.reads_back_as(magnitude) {
                shortest = nearest;
            }
        }
        shortest
    }

    /// Reads the digits and exponent of `scientific`, a number written by `{:e}`.
    fn read(negative: bool, scientific: std::fmt::Arguments<'_>) -> Shortest {
        let mut buffer = Text::default();
        let mut shortest = Shortest {
            negative,
            digits: [b'0'; MAX_DIGITS],
            len: 1,
            exponent: 0,
        };
        if buffer.write_fmt(scientific).is_err() {
            return shortest;
        }
        let text = buffer.as_bytes();
        let split = text
            .iter()
            .position(|&byte| byte == b'e')
            .unwrap_or(text.len());
        let (mantissa, exponent) = text.split_at(split);
        let mut len = 0;
        for (slot, &digit) in shortest
            .digits
            .iter_mut()
            .zip(mantissa.iter().filter(|byte| byte.is_ascii_digit()))
        {
            *slot = digit;
            len += 1;
        }
        shortest.len = len.max(1);
        shortest.exponent = std::str::from_utf8(exponent.get(1..).unwrap_or_default())
            .ok()
            .and_then(|exponent| exponent.parse().ok())
            .unwrap_or(0);
        shortest
    }

    fn reads_back_as(&self, magnitude: f64) -> bool {
        let mut text = Text::default();
        text.push(self.digits());
        let _ = write!(text, "e{}", self.exponent + 1 - self.len as i32);
        std::str::from_utf8(text.as_bytes())
            .ok()
            .and_then(|text| text.parse::<f64>().ok())
            == Some(magnitude)
    }

    fn digits(&self) -> &[u8] {
        self.digits.get(..self.len).unwrap_or_default()
    }

    fn python_layout(&self) -> Text {
        let mut out = Text::default();
        if self.negative {
            out.push(b"-");
        }
        let digits = self.digits();
        if FIXED_EXPONENTS.contains(&self.exponent) {
            let point = self.exponent + 1;
            if point <= 0 {
                out.push(b"0.");
                out.zeros(point.unsigned_abs() as usize);
                out.push(digits);
            } else {
                let point = point as usize;
                let (whole, fraction) = digits.split_at(point.min(digits.len()));
                out.push(whole);
                out.zeros(point - whole.len());
                out.push(b".");
                out.push(if fraction.is_empty() { b"0" } else { fraction });
            }
        } else {
            let (lead, fraction) = digits.split_at(1);
            out.push(lead);
            if !fraction.is_empty() {
                out.push(b".");
                out.push(fraction);
            }
            out.push(if self.exponent < 0 { b"e-" } else { b"e+" });
            let _ = write!(out, "{:02}", self.exponent.unsigned_abs());
        }
        out
    }
}

/// Python's `repr(float)` (also `str(float)`): shortest round-trip digits, exponent form outside
/// `1e-4 <= |x| < 1e16`, at least one fractional digit in fixed form (`1.0`, `1e+16`, `1.5e-07`).
pub fn python_repr(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_owned();
    }
    if value.is_infinite() {
        return if value > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    String::from_utf8_lossy(Shortest::of(value).python_layout().as_bytes()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The significant digits and the exponent of the first, from any decimal text of a number.
    fn digits_and_exponent(text: &str) -> (String, i32) {
        let (mantissa, exponent) = text.split_once(['e', 'E']).unwrap_or((text, "0"));
        let exponent: i32 = exponent.parse().unwrap();
        let mantissa = mantissa.trim_start_matches('-');
        let point = mantissa.find('.').unwrap_or(mantissa.len()) as i32;
        let all: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        let leading = (all.len() - all.trim_start_matches('0').len()) as i32;
        let digits = all.trim_matches('0').to_owned();
        (digits, exponent + point - leading - 1)
    }

    #[test]
    fn python_repr_matches_python() {
        let cases = [
            (1.0, "1.0"),
            (0.5, "0.5"),
            (-2.5, "-2.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e16, "1e+16"),
            (1.5e-7, "1.5e-07"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (123456789012345.6, "123456789012345.6"),
            (9999999999999998.0, "9999999999999998.0"),
            (1e100, "1e+100"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (2.5e-310, "2.5e-310"),
            (f64::MAX, "1.7976931348623157e+308"),
            (1_690_060_720_831_323.0 + 0.25, "1690060720831323.2"),
            (1_690_060_720_831_323.0 + 0.75, "1690060720831323.8"),
        ];
        for (value, expected) in cases {
            assert_eq!(python_repr(value), expected, "{value:e}");
        }
    }

    /// Numbers from every binade, integers and quarters where shortest digits tie: the same
    /// digits as serde_json's own shortest float writer, which also breaks ties to even.
    #[test]
    fn digits_are_the_nearest_shortest_with_ties_to_even() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut values = vec![5e-324, f64::MIN_POSITIVE, f64::MAX, f64::MIN];
        for exponent in -330..310 {
            let power = 10f64.powi(exponent);
            for factor in [
                1.0,
                1.5,
                9.999_999_999_999_999,
                0.999_999_999_999_999_9,
                123.456,
            ] {
                values.push(power * factor);
                values.push(-power * factor);
            }
        }
        for _ in 0..50_000 {
            values.push(f64::from_bits(next()));
            values.push((next() % 2_000_001) as f64 / 1000.0);
            let whole = (1 << 50) + next() % (1 << 53);
            values.push(whole as f64 + (next() % 4) as f64 / 4.0);
            values.push((10_000_000_000_000_000 + next() % 990_000_000_000_000_000) as f64);
        }
        for value in values
            .into_iter()
            .filter(|value| value.is_finite() && *value != 0.0)
        {
            let ours = python_repr(value);
            assert_eq!(
                digits_and_exponent(&ours),
                digits_and_exponent(&serde_json::to_string(&value).unwrap()),
                "{value:e}"
            );
            assert_eq!(ours.starts_with('-'), value < 0.0, "{value:e}");
            assert_eq!(ours.parse::<f64>().unwrap(), value, "{ours}");
        }
    }
}
