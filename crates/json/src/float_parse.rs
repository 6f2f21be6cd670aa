//! Decimal text to the nearest `f64`, correctly rounded (ties to even) as Python's `float()` and
//! JavaScript's `Number()` read it: every float agenteval reads comes through here. It replaces the
//! standard library's parser, whose 10 KB table of powers of five the WebAssembly module would
//! otherwise carry, and serde_json's, which is not always correctly rounded.
//!
//! Short numbers (at most 15 significant digits, scaled by at most 10^22) take one exact
//! division or multiplication, read without allocating. The rest are settled exactly: a binary
//! search over the bit patterns of the positive floats for the last one not above the value,
//! comparing big integers, then the value against the midpoint to its successor.

/// Digits kept exactly; later ones only tell whether the value lies above the kept ones (a
/// midpoint between two floats has at most 767 significant digits).
const MAX_DIGITS: usize = 800;
/// Beyond these decimal exponents of the first digit, every value is 0 or infinite.
const SMALLEST_EXPONENT: i64 = -345;
const LARGEST_EXPONENT: i64 = 310;
/// 10^0 to 10^22, each exact in an `f64`.
const EXACT_POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
const INFINITY_BITS: u64 = 0x7FF0_0000_0000_0000;
const MANTISSA_BITS: u32 = 52;
const EXPONENT_BIAS: i64 = 1075;

/// The `f64` nearest to `text`, a decimal number in JSON's grammar (an optional `-`, digits, an
/// optional fraction and exponent); a leading `+`, `1.` and `.5` are accepted too. Values
/// beyond the largest `f64` read as infinity, as in Python and JavaScript. `None` for anything
/// else, `inf` and `nan` included.
pub fn parse_f64(text: &str) -> Option<f64> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, text.get(1..)?),
        b'+' => (false, text.get(1..)?),
        _ => (false, text),
    };
    let magnitude = match short(unsigned.as_bytes()) {
        Some(magnitude) => magnitude,
        None => Decimal::read(unsigned)?.nearest(),
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// The value of the common short number, read straight from its text without allocating: at
/// most 15 significant digits, scaled by at most 10^22 (Clinger's fast path, one rounding).
/// `None` for anything else, valid or not, which [`Decimal::read`] then reads or rejects.
fn short(text: &[u8]) -> Option<f64> {
    let mut integer = 0u64;
    let mut significant = 0;
    let mut scale = 0i32;
    let mut any_digit = false;
    let mut after_point = false;
    let mut rest = text;
    while let Some((&byte, tail)) = rest.split_first() {
        match byte {
            b'0'..=b'9' => {
                any_digit = true;
                if integer != 0 || byte != b'0' {
                    significant += 1;
                    if significant > 15 {
                        return None;
                    }
                    integer = integer * 10 + u64::from(byte - b'0');
                }
                scale -= i32::from(after_point);
            }
            b'.' if !after_point => after_point = true,
            b'e' | b'E' if any_digit => {
                scale += short_exponent(tail)?;
                rest = &[];
                continue;
            }
            _ => return None,
        }
        rest = tail;
    }
    if !any_digit {
        return None;
    }
    let power = EXACT_POWERS.get(usize::try_from(scale.unsigned_abs()).ok()?)?;
    let integer = integer as f64;
    Some(if scale >= 0 {
        integer * power
    } else {
        integer / power
    })
}

/// An exponent of at most three digits, with an optional sign.
fn short_exponent(text: &[u8]) -> Option<i32> {
    let (negative, digits) = match text.split_first()? {
        (b'-', digits) => (true, digits),
        (b'+', digits) => (false, digits),
        _ => (false, text),
    };
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let magnitude = digits
        .iter()
        .fold(0, |acc, &digit| acc * 10 + i32::from(digit - b'0'));
    Some(if negative { -magnitude } else { magnitude })
}

/// A non-negative decimal `digits × 10^exponent`, its significant digits without leading or
/// trailing zeros.
struct Decimal {
    digits: Vec<u8>,
    exponent: i64,
}

impl Decimal {
    fn read(text: &str) -> Option<Decimal> {
        let bytes = text.as_bytes();
        let (mantissa, power) = match bytes.iter().position(|&b| b == b'e' || b == b'E') {
            Some(at) => (bytes.get(..at)?, Some(bytes.get(at + 1..)?)),
            None => (bytes, None),
        };
        let (whole, fraction) = match mantissa.iter().position(|&b| b == b'.') {
            Some(at) => (mantissa.get(..at)?, mantissa.get(at + 1..)?),
            None => (mantissa, &[][..]),
        };
        let all_digits = |part: &[u8]| part.iter().all(u8::is_ascii_digit);
        if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
            return None;
        }
        let mut exponent = power.map_or(Some(0), read_exponent)?;
        exponent = exponent.saturating_sub(fraction.len() as i64);
        let mut digits: Vec<u8> = whole
            .iter()
            .chain(fraction)
            .map(|digit| digit - b'0')
            .skip_while(|&digit| digit == 0)
            .collect();
        while digits.last() == Some(&0) {
            digits.pop();
            exponent = exponent.saturating_add(1);
        }
        if digits.len() > MAX_DIGITS {
            let dropped_nonzero = digits
                .get(MAX_DIGITS..)
                .is_some_and(|rest| rest.iter().any(|&d| d != 0));
            exponent = exponent.saturating_add((digits.len() - MAX_DIGITS) as i64);
            digits.truncate(MAX_DIGITS);
            if dropped_nonzero {
                digits.push(1);
                exponent = exponent.saturating_sub(1);
            }
        }
        Some(Decimal { digits, exponent })
    }

    fn nearest(&self) -> f64 {
        if self.digits.is_empty() {
            return 0.0;
        }
        let first_digit_exponent = self.exponent.saturating_add(self.digits.len() as i64 - 1);
        if first_digit_exponent < SMALLEST_EXPONENT {
            return 0.0;
        }
        if first_digit_exponent > LARGEST_EXPONENT {
            return f64::INFINITY;
        }
        self.settled()
    }

    /// The correctly rounded value by exact comparisons (see the module header).
    fn settled(&self) -> f64 {
        let scale = Scale::of(self);
        let (mut below, mut above) = (0u64, INFINITY_BITS);
        while above - below > 1 {
            let middle = below + (above - below) / 2;
            let (mantissa, power_of_two) = parts(middle);
            if scale.compare(mantissa, power_of_two).is_lt() {
                above = middle;
            } else {
                below = middle;
            }
        }
        let (mantissa, power_of_two) = parts(below);
        let to_midpoint = scale.compare(2 * mantissa + 1, power_of_two - 1);
        let rounded = match to_midpoint {
            std::cmp::Ordering::Less => below,
            std::cmp::Ordering::Greater => above,
            std::cmp::Ordering::Equal if below % 2 == 0 => below,
            std::cmp::Ordering::Equal => above,
        };
        f64::from_bits(rounded)
    }
}

/// Reads an exponent's digits (with an optional sign), saturating far beyond any `f64`.
fn read_exponent(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text.first()? {
        b'-' => (true, text.get(1..)?),
        b'+' => (false, text.get(1..)?),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let magnitude = digits.iter().fold(0i64, |acc, &d| {
        acc.saturating_mul(10)
            .saturating_add(i64::from(d - b'0'))
            .min(1 << 40)
    });
    Some(if negative { -magnitude } else { magnitude })
}

/// A finite positive float's bits as `mantissa × 2^power_of_two`.
fn parts(bits: u64) -> (u64, i64) {
    let fraction = bits & ((1 << MANTISSA_BITS) - 1);
    let biased = (bits >> MANTISSA_BITS) as i64;
    if biased == 0 {
        (fraction, 1 - EXPONENT_BIAS)
    } else {
        (fraction | 1 << MANTISSA_BITS, biased - EXPONENT_BIAS)
    }
}

/// The decimal as the exact fraction `numerator × 2^exponent / denominator` whose sides are
/// big integers, set up once for the comparisons of one search.
struct Scale {
    /// The digits, times 5^exponent when the exponent is positive.
    numerator: Big,
    /// 5^-exponent when the exponent is negative, else 1.
    denominator: Big,
    /// The decimal exponent, which is also the power of two of the value.
    exponent: i64,
}

impl Scale {
    fn of(decimal: &Decimal) -> Scale {
        let mut numerator = Big::from_digits(&decimal.digits);
        let mut denominator = Big::one();
        let powers_of_five = decimal.exponent.unsigned_abs();
        if decimal.exponent >= 0 {
            numerator.multiply_by_power_of_five(powers_of_five);
        } else {
            denominator.multiply_by_power_of_five(powers_of_five);
        }
        Scale {
            numerator,
            denominator,
            exponent: decimal.exponent,
        }
    }

    /// The value against `mantissa × 2^power_of_two`.
    fn compare(&self, mantissa: u64, power_of_two: i64) -> std::cmp::Ordering {
        let mut value = self.numerator.clone();
        let mut other = self.denominator.clone();
        other.multiply_by(mantissa);
        let shift = self.exponent - power_of_two;
        if shift >= 0 {
            value.shift_left(shift.unsigned_abs());
        } else {
            other.shift_left(shift.unsigned_abs());
        }
        value.compare(&other)
    }
}

/// An unsigned big integer, little-endian 32-bit limbs without high zero limbs.
#[derive(Clone)]
struct Big {
    limbs: Vec<u32>,
}

impl Big {
    fn one() -> Big {
        Big { limbs: vec![1] }
    }

    fn from_digits(digits: &[u8]) -> Big {
        let mut big = Big { limbs: Vec::new() };
        for chunk in digits.chunks(9) {
            let scale = 10u32.pow(chunk.len() as u32);
            let value = chunk.iter().fold(0u32, |acc, &d| acc * 10 + u32::from(d));
            big.multiply_add(scale, value);
        }
        big
    }

    fn multiply_add(&mut self, factor: u32, addend: u32) {
        let mut carry = u64::from(addend);
        for limb in &mut self.limbs {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.limbs.push(carry as u32);
        }
        self.trim();
    }

    fn multiply_by(&mut self, factor: u64) {
        let low = Big {
            limbs: self.limbs.clone(),
        };
        self.multiply_add(factor as u32, 0);
        let mut high = low;
        high.multiply_add((factor >> 32) as u32, 0);
        if !high.limbs.is_empty() {
            high.limbs.insert(0, 0);
            self.add(&high);
        }
    }

    fn add(&mut self, other: &Big) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = 0u64;
        for (index, limb) in self.limbs.iter_mut().enumerate() {
            let sum =
                u64::from(*limb) + u64::from(other.limbs.get(index).copied().unwrap_or(0)) + carry;
            *limb = sum as u32;
            carry = sum >> 32;
        }
        if carry > 0 {
            self.limbs.push(carry as u32);
        }
    }

    fn multiply_by_power_of_five(&mut self, mut count: u64) {
        const FIVE_TO_THE_13: u32 = 1_220_703_125;
        while count >= 13 {
            self.multiply_add(FIVE_TO_THE_13, 0);
            count -= 13;
        }
        self.multiply_add(5u32.pow(count as u32), 0);
    }

    fn shift_left(&mut self, bits: u64) {
        let whole = (bits / 32) as usize;
        let rest = (bits % 32) as u32;
        if rest > 0 {
            let mut carry = 0u32;
            for limb in &mut self.limbs {
                let shifted = (*limb << rest) | carry;
                carry = *limb >> (32 - rest);
                *limb = shifted;
            }
            if carry > 0 {
                self.limbs.push(carry);
            }
        }
        if !self.limbs.is_empty() {
            self.limbs.splice(0..0, std::iter::repeat_n(0, whole));
        }
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    fn compare(&self, other: &Big) -> std::cmp::Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

    fn check(text: &str) {
        let expected: f64 = text.parse().unwrap();
        let ours = parse_f64(text).unwrap_or_else(|| panic!("{text} not read"));
        assert_eq!(ours.to_bits(), expected.to_bits(), "{text}");
    }

    /// `mantissa × 2^power` written exactly in decimal.
    fn exact_decimal(mantissa: u64, power: i64) -> String {
        let mut big = Big::one();
        big.multiply_by(mantissa);
        let exponent = if power >= 0 {
            big.shift_left(power.unsigned_abs());
            0
        } else {
            big.multiply_by_power_of_five(power.unsigned_abs());
            power
        };
        let mut chunks = Vec::new();
        while !big.limbs.is_empty() {
            let mut remainder = 0u64;
            for limb in big.limbs.iter_mut().rev() {
                let current = remainder << 32 | u64::from(*limb);
                *limb = (current / 1_000_000_000) as u32;
                remainder = current % 1_000_000_000;
            }
            big.trim();
            chunks.push(remainder);
        }
        let mut text = chunks.pop().unwrap_or(0).to_string();
        for chunk in chunks.iter().rev() {
            text.push_str(&format!("{chunk:09}"));
        }
        format!("{text}e{exponent}")
    }

    #[test]
    fn midpoints_between_floats_round_to_even() {
        for value in [
            1.0,
            0.1,
            5e-324,
            2.2250738585072014e-308,
            1.7976931348623157e308,
            9007199254740992.0,
        ] {
            let (mantissa, power) = parts(f64::to_bits(value));
            check(&exact_decimal(2 * mantissa + 1, power - 1));
            check(&exact_decimal(2 * mantissa - 1, power - 1));
        }
    }

    #[test]
    fn edge_cases_read_as_the_standard_library_reads_them() {
        for text in [
            "0",
            "-0",
            "0.0",
            "1",
            "-1",
            "0.1",
            "0.30000000000000004",
            "123.456e7",
            "1E22",
            "1e23",
            "9007199254740993",
            "9007199254740992.5",
            "9007199254740993.0000001",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "5e-324",
            "1e-400",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1e309",
            "-1e400",
            "0.000000000000000000000000000000001",
            "1e-5",
            "123456789012345678901234567890",
            "8.988465674311579e307",
            "4.35679e-10",
            "1.5",
            "+2.5",
            "7.",
            ".25",
            "00012.5000",
            "1e+0",
            "1e-0",
            "1e99999999999999999999",
            "1e-99999999999999999999",
            "0e999999",
        ] {
            check(text);
        }
    }

    #[test]
    fn long_digit_strings_read_exactly() {
        let halfway = format!("9007199254740993{}", "0".repeat(900));
        check(&format!("{halfway}e-900"));
        check(&format!("{halfway}1e-901"));
        check(&format!("0.{}1", "0".repeat(1200)));
        check(&format!("{}e-1000", "7".repeat(1500)));
        check(&exact_decimal(1, -1075));
        check(&exact_decimal(3, -1075));
    }

    #[test]
    fn random_decimals_read_as_the_standard_library_reads_them() {
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move || rng.next_u64();
        for _ in 0..8_000 {
            let length = 1 + next() % 25;
            let digits: String = (0..length)
                .map(|_| char::from(b'0' + (next() % 10) as u8))
                .collect();
            let exponent = (next() % 700) as i64 - 350;
            check(&format!("{digits}e{exponent}"));
            let point = next() as usize % digits.len();
            check(&format!("{}.{}", &digits[..point], &digits[point..]));
        }
        for _ in 0..8_000 {
            let value = f64::from_bits(next() >> 1);
            if value.is_finite() {
                check(&format!("{value:e}"));
                check(&format!("{:.17e}", value));
                let (mantissa, power) = parts(value.to_bits());
                check(&exact_decimal(2 * mantissa + 1, power - 1));
            }
        }
    }

    #[test]
    fn rejects_what_is_not_a_decimal_number() {
        for text in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "inf", "NaN", "Infinity", "1x", "--1",
            " 1", "0x10", "1_000",
        ] {
            assert_eq!(parse_f64(text), None, "{text:?}");
        }
    }
}
