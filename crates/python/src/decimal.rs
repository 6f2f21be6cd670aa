//! Python's text of a float: `repr(float)` (the shortest decimal digits that read back as the
//! same `f64`, with CPython's tie-breaking and layout) and `format(x, ".Nf")` (exactly rounded
//! fixed point, as Rust's `{:.N}` also writes it). The shortest digits come from zmij, serde_json's
//! float writer, which breaks ties to the even digit as CPython does; fixed point is computed
//! exactly here, so the standard library's float formatting is not needed.

use std::fmt::Write as _;

/// The most significant digits a shortest round-trip `f64` needs.
const MAX_DIGITS: usize = 17;

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

impl Shortest {
    /// The shortest digits of a finite `value`, read from zmij's text of it (`1.5e-7`,
    /// `123.0`, `1e16`, `0.001`).
    fn of(value: f64) -> Shortest {
        let mut buffer = zmij::Buffer::new();
        let text = buffer.format_finite(value.abs()).as_bytes();
        let split = text
            .iter()
            .position(|&byte| byte == b'e' || byte == b'E')
            .unwrap_or(text.len());
        let (mantissa, power) = text.split_at_checked(split).unwrap_or((text, &[]));
        let power: i32 = std::str::from_utf8(power.get(1..).unwrap_or_default())
            .ok()
            .and_then(|power| power.parse().ok())
            .unwrap_or(0);
        let point = mantissa
            .iter()
            .position(|&byte| byte == b'.')
            .unwrap_or(mantissa.len());
        let mut shortest = Shortest {
            negative: value.is_sign_negative(),
            digits: [b'0'; MAX_DIGITS],
            len: 0,
            exponent: 0,
        };
        let mut first = None;
        for (position, &digit) in mantissa.iter().enumerate() {
            if !digit.is_ascii_digit() || (first.is_none() && digit == b'0') {
                continue;
            }
            let position = position as i32;
            first.get_or_insert(if position < point as i32 {
                position
            } else {
                position - 1
            });
            if let Some(slot) = shortest.digits.get_mut(shortest.len) {
                *slot = digit;
                shortest.len += 1;
            }
        }
        while shortest.len > 1 && shortest.digits().last() == Some(&b'0') {
            shortest.len -= 1;
        }
        match first {
            Some(first) => shortest.exponent = power + point as i32 - 1 - first,
            None => shortest.len = 1,
        }
        shortest
    }

    fn digits(&self) -> &[u8] {
        self.digits.get(..self.len).unwrap_or_default()
    }

    fn digit_text(&self) -> &str {
        std::str::from_utf8(self.digits()).unwrap_or_default()
    }

    /// The number written out without an exponent (`0.00015`, `120`, `1.5`), with `.0` after a
    /// whole number when `whole_gets_fraction`; the sign first when negative.
    fn positional(&self, whole_gets_fraction: bool) -> String {
        let digits = self.digit_text();
        let point = self.exponent + 1;
        let mut out = String::with_capacity(digits.len() + point.unsigned_abs() as usize + 4);
        if self.negative {
            out.push('-');
        }
        if point <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
            out.push_str(digits);
            return out;
        }
        let point = point.unsigned_abs() as usize;
        let (whole, fraction) = digits.split_at_checked(point).unwrap_or((digits, ""));
        out.push_str(whole);
        out.extend(std::iter::repeat_n('0', point.saturating_sub(digits.len())));
        if !fraction.is_empty() {
            out.push('.');
            out.push_str(fraction);
        } else if whole_gets_fraction {
            out.push_str(".0");
        }
        out
    }

    /// The number in Python's exponent form (`1e+16`, `1.5e-07`).
    fn scientific(&self) -> String {
        let digits = self.digit_text();
        let (lead, fraction) = digits.split_at_checked(1).unwrap_or((digits, ""));
        let mut out = String::with_capacity(digits.len() + 6);
        if self.negative {
            out.push('-');
        }
        out.push_str(lead);
        if !fraction.is_empty() {
            out.push('.');
            out.push_str(fraction);
        }
        let sign = if self.exponent < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", self.exponent.unsigned_abs());
        out
    }
}

/// The text of NaN (`nan` for Python, `NaN` for Rust) and of the infinities; `None` for finite
/// numbers.
fn non_finite(value: f64, nan: &str) -> Option<String> {
    if value.is_nan() {
        Some(nan.to_owned())
    } else if value.is_infinite() {
        Some(if value > 0.0 { "inf" } else { "-inf" }.to_owned())
    } else {
        None
    }
}

/// Python's `repr(float)` (also `str(float)`): shortest round-trip digits, exponent form outside
/// `1e-4 <= |x| < 1e16`, at least one fractional digit in fixed form (`1.0`, `1e+16`, `1.5e-07`).
pub fn python_repr(value: f64) -> String {
    if let Some(text) = non_finite(value, "nan") {
        return text;
    }
    let shortest = Shortest::of(value);
    if FIXED_EXPONENTS.contains(&shortest.exponent) {
        shortest.positional(true)
    } else {
        shortest.scientific()
    }
}

/// Rust's `{}` of an `f64`: the shortest round-trip digits, never in exponent form, without a
/// fractional part when there is none (`1`, `0.5`, `0.0000001`, `-0`, `NaN`, `inf`).
pub fn plain(value: f64) -> String {
    non_finite(value, "NaN").unwrap_or_else(|| Shortest::of(value).positional(false))
}

/// The most decimal places [`fixed`] writes.
pub const MAX_PLACES: u32 = 9;

/// `value` with `places` decimals (at most [`MAX_PLACES`]), exactly rounded with ties to even:
/// Python's `format(value, ".Nf")` and Rust's `{:.N}` (`0.667`, `-0.000`, `2.500`). NaN and the
/// infinities are written as Python writes them.
pub fn fixed(value: f64, places: u32) -> String {
    if let Some(text) = non_finite(value, "nan") {
        return text;
    }
    let places = places.min(MAX_PLACES);
    let mut digits = scaled_digits(value.abs(), places);
    let width = places as usize + 1;
    if digits.len() < width {
        digits.splice(0..0, std::iter::repeat_n(b'0', width - digits.len()));
    }
    let mut text = String::with_capacity(digits.len() + 2);
    if value.is_sign_negative() {
        text.push('-');
    }
    let (whole, fraction) = digits
        .split_at_checked(digits.len().saturating_sub(places as usize))
        .unwrap_or((&digits, &[]));
    text.push_str(std::str::from_utf8(whole).unwrap_or_default());
    if places > 0 {
        text.push('.');
        text.push_str(std::str::from_utf8(fraction).unwrap_or_default());
    }
    text
}

/// The decimal digits of `magnitude × 10^places` rounded to an integer with ties to even.
fn scaled_digits(magnitude: f64, places: u32) -> Vec<u8> {
    let (mantissa, exponent) = decompose(magnitude);
    let scale = 10u128.pow(places);
    let product = u128::from(mantissa) * scale;
    if exponent >= 0 {
        if exponent <= 40 {
            return decimal_digits(product << exponent);
        }
        let mut digits = big_shifted_digits(mantissa, exponent.unsigned_abs());
        digits.extend(std::iter::repeat_n(b'0', places as usize));
        return digits;
    }
    let shift = exponent.unsigned_abs();
    if shift >= 128 {
        return b"0".to_vec();
    }
    let quotient = product >> shift;
    let remainder = product - (quotient << shift);
    let half = 1u128 << (shift - 1);
    let rounded = if remainder > half || (remainder == half && quotient & 1 == 1) {
        quotient + 1
    } else {
        quotient
    };
    decimal_digits(rounded)
}

/// The decimal digits of `value`; through `u64` when it fits, whose formatting needs no 128-bit
/// division (a library call in WebAssembly).
fn decimal_digits(value: u128) -> Vec<u8> {
    match u64::try_from(value) {
        Ok(small) => itoa::Buffer::new().format(small).as_bytes().to_vec(),
        Err(_) => value.to_string().into_bytes(),
    }
}

/// A finite, non-negative `magnitude` as `mantissa × 2^exponent`.
fn decompose(magnitude: f64) -> (u64, i32) {
    let bits = magnitude.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    }
}

/// The decimal digits of `mantissa × 2^shift`, through base-10⁹ limbs (least significant first).
fn big_shifted_digits(mantissa: u64, shift: u32) -> Vec<u8> {
    const BASE: u64 = 1_000_000_000;
    let mut limbs = vec![
        mantissa % BASE,
        mantissa / BASE % BASE,
        mantissa / (BASE * BASE),
    ];
    let mut left = shift;
    while left > 0 {
        let step = left.min(32);
        let mut carry = 0u64;
        for limb in &mut limbs {
            let value = (*limb << step) + carry;
            *limb = value % BASE;
            carry = value / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
        left -= step;
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut text = String::new();
    for (position, limb) in limbs.iter().rev().enumerate() {
        if position == 0 {
            text.push_str(&limb.to_string());
        } else {
            text.push_str(&format!("{limb:09}"));
        }
    }
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenteval_json::test_rng::XorShift;

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

    /// Numbers from every binade, integers and quarters where shortest digits tie.
    fn sample_values() -> Vec<f64> {
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move || rng.next_u64();
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
        values.retain(|value| value.is_finite() && *value != 0.0);
        values
    }

    /// Checks `ours` against `oracle`, the standard library's text of `value`: the same shortest
    /// digits, or a tie that the standard library breaks upwards and CPython to the even digit.
    /// True for a tie.
    fn same_or_even_tie(value: f64, ours: &str, oracle: &str) -> bool {
        let (digits, exponent) = digits_and_exponent(ours);
        let (std_digits, std_exponent) = digits_and_exponent(oracle);
        assert_eq!(ours.starts_with('-'), value.is_sign_negative(), "{value:e}");
        assert_eq!(ours.parse::<f64>().unwrap(), value, "{ours}");
        assert_eq!(digits.len(), std_digits.len(), "{value:e}: {ours}");
        if (digits.as_str(), exponent) == (std_digits.as_str(), std_exponent) {
            return false;
        }
        let last = digits.len() - 1;
        let (ours_last, std_last) = (digits.as_bytes()[last], std_digits.as_bytes()[last]);
        assert!(
            ours_last % 2 == 0 && std_last == ours_last + 1,
            "{value:e}: {ours} against {oracle}"
        );
        assert_eq!(digits[..last], std_digits[..last], "{value:e}");
        true
    }

    #[test]
    fn digits_are_the_nearest_shortest_with_ties_to_even() {
        let ties = sample_values()
            .into_iter()
            .filter(|&value| same_or_even_tie(value, &python_repr(value), &format!("{value:e}")))
            .count();
        assert!(ties > 100, "the sample holds ties: {ties}");
    }

    /// The standard library's `{}` is the oracle, in every binade: the same layout, and the same
    /// digits except at ties.
    #[test]
    fn plain_matches_the_standard_library_but_ties_go_to_even() {
        let mut ties = 0;
        for value in sample_values() {
            let (ours, oracle) = (plain(value), format!("{value}"));
            assert!(!ours.contains('e'), "{value:e}: {ours}");
            assert_eq!(
                ours.contains('.'),
                oracle.contains('.'),
                "{value:e}: {ours}"
            );
            if same_or_even_tie(value, &ours, &oracle) {
                ties += 1;
            } else {
                assert_eq!(ours, oracle);
            }
        }
        assert!(ties > 100, "the sample holds ties: {ties}");
        for value in [
            0.0,
            -0.0,
            1.0,
            1e300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(plain(value), format!("{value}"), "{value:e}");
        }
    }

    #[test]
    fn fixed_matches_python_format() {
        let cases = [
            (0.6666666666666666, 3, "0.667"),
            (0.0625, 3, "0.062"),
            (0.0625, 2, "0.06"),
            (0.165, 2, "0.17"),
            (0.125, 2, "0.12"),
            (0.375, 2, "0.38"),
            (2.5, 0, "2"),
            (3.5, 0, "4"),
            (-0.0001, 3, "-0.000"),
            (-0.0, 1, "-0.0"),
            (66.66666666666667, 1, "66.7"),
            (1e22, 1, "10000000000000000000000.0"),
            (1e300, 0, "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160"),
            (5e-324, 3, "0.000"),
            (f64::NAN, 3, "nan"),
            (f64::NEG_INFINITY, 3, "-inf"),
        ];
        for (value, places, expected) in cases {
            assert_eq!(
                fixed(value, places),
                expected,
                "{value:e} to {places} places"
            );
        }
    }

    /// The standard library's `{:.N}`, which also rounds the exact value with ties to even, is
    /// the oracle for every binade and every number of places.
    #[test]
    fn fixed_matches_the_standard_library() {
        for (index, value) in sample_values().into_iter().enumerate() {
            let places = (index % (MAX_PLACES as usize + 1)) as u32;
            assert_eq!(
                fixed(value, places),
                format!("{value:.*}", places as usize),
                "{value:e} to {places} places"
            );
        }
        for places in 0..=MAX_PLACES {
            for value in [
                0.5,
                1.5,
                2.5,
                0.25,
                0.125,
                0.0625,
                1.0 / 1024.0,
                4503599627370496.5,
            ] {
                assert_eq!(fixed(value, places), format!("{value:.*}", places as usize));
                assert_eq!(
                    fixed(-value, places),
                    format!("{:.*}", places as usize, -value)
                );
            }
        }
    }
}
