//! A JSON number as the reader found it: serde_json's number, plus the one literal serde_json's
//! number cannot hold, the integer `-0`.
//!
//! serde_json reads `-0` as the float `-0.0` and writes it back as `-0.0`; Python reads it as the
//! integer 0 and writes `0`. Here `-0` is an integer (0, as Python reads it, so verdicts and
//! judge prompts stay Python's), and written back as `-0`, so data that passes through agenteval
//! keeps the literal its author wrote.

use std::fmt;

use serde::ser::{Serialize, Serializer};

/// A JSON number: an `i64`, a `u64`, a finite `f64`, or the integer literal `-0`.
#[derive(Clone, Debug, PartialEq)]
pub struct Number {
    value: serde_json::Number,
    written_as_negative_zero: bool,
}

impl Number {
    /// The finite float `value`; `None` for NaN and the infinities.
    pub fn from_f64(value: f64) -> Option<Number> {
        serde_json::Number::from_f64(value).map(Number::from)
    }

    /// The integer literal `-0`: 0 to every reader, `-0` when written.
    pub fn negative_zero_integer() -> Number {
        Number {
            value: serde_json::Number::from(0),
            written_as_negative_zero: true,
        }
    }

    /// Whether this was read from the integer literal `-0` (and is written so).
    pub fn is_negative_zero_integer(&self) -> bool {
        self.written_as_negative_zero
    }

    /// Whether this is held as a float.
    pub fn is_f64(&self) -> bool {
        self.value.is_f64()
    }

    /// Whether this is an integer that fits `i64`.
    pub fn is_i64(&self) -> bool {
        self.value.is_i64()
    }

    /// Whether this is a non-negative integer that fits `u64`.
    pub fn is_u64(&self) -> bool {
        self.value.is_u64()
    }

    /// The number as `f64` (integers converted, possibly rounded).
    pub fn as_f64(&self) -> Option<f64> {
        self.value.as_f64()
    }

    /// The number as `i64`, when it is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.value.as_i64()
    }

    /// The number as `u64`, when it is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        self.value.as_u64()
    }
}

impl From<serde_json::Number> for Number {
    fn from(value: serde_json::Number) -> Self {
        Number {
            value,
            written_as_negative_zero: false,
        }
    }
}

impl From<Number> for serde_json::Number {
    /// serde_json's number; the integer `-0` becomes the float `-0.0`, the nearest it holds.
    fn from(number: Number) -> Self {
        if number.written_as_negative_zero {
            serde_json::Number::from_f64(-0.0).unwrap_or(number.value)
        } else {
            number.value
        }
    }
}

macro_rules! from_integer {
    ($($integer:ty)*) => {$(
        impl From<$integer> for Number {
            fn from(integer: $integer) -> Self {
                Number::from(serde_json::Number::from(integer))
            }
        }
    )*};
}

from_integer!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

impl fmt::Display for Number {
    /// The number's value as serde_json writes it (`0` for the integer `-0`: the value, as
    /// Python's `str` shows it; writers of JSON text keep the literal, see [`Serialize`]).
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(formatter)
    }
}

impl Serialize for Number {
    /// As serde_json writes its number, and `-0` for the integer literal `-0` (through
    /// serde_json's raw values, so other serde formats see that as a one-field struct).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !self.written_as_negative_zero {
            return self.value.serialize(serializer);
        }
        match serde_json::from_str::<&serde_json::value::RawValue>("-0") {
            Ok(literal) => literal.serialize(serializer),
            Err(_) => serializer.serialize_f64(-0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_zero_integer_reads_as_zero_and_writes_as_written() {
        let number = Number::negative_zero_integer();
        assert_eq!(number.as_i64(), Some(0));
        assert_eq!(number.as_u64(), Some(0));
        assert!(!number.is_f64());
        assert_eq!(number.to_string(), "0");
        assert_eq!(serde_json::to_string(&number).unwrap(), "-0");
        assert_eq!(
            serde_json::to_string(&vec![number.clone()]).unwrap(),
            "[-0]"
        );
        assert_ne!(number, Number::from(0));
        assert_eq!(
            serde_json::Number::from(number)
                .as_f64()
                .map(f64::is_sign_negative),
            Some(true)
        );
    }

    #[test]
    fn other_numbers_write_as_serde_json_writes_them() {
        for number in [
            Number::from(0),
            Number::from(-7),
            Number::from(u64::MAX),
            Number::from_f64(-0.0).unwrap(),
            Number::from_f64(2.5).unwrap(),
        ] {
            let plain: serde_json::Number = number.clone().into();
            assert_eq!(
                serde_json::to_string(&number).unwrap(),
                serde_json::to_string(&plain).unwrap()
            );
        }
        assert_eq!(Number::from_f64(f64::NAN), None);
    }
}
