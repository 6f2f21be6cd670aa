//! Python numbers as the reference sees them after `json.loads`: `int` and `float` stay distinct
//! (serde_json keeps `1` and `1.0` apart too), and `int`/`float` comparisons are exact.

use std::cmp::Ordering;

use agenteval_json::{Number, Value};

/// A JSON number read the way Python reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PyNum {
    /// A JSON integer literal (`3`, `-7`).
    Int(i128),
    /// A JSON number with a fraction or exponent (`3.0`, `1e2`).
    Float(f64),
}

impl PyNum {
    /// The number in `value`; `None` for anything else, booleans included.
    pub fn from_json(value: &Value) -> Option<PyNum> {
        match value {
            Value::Number(number) => Some(PyNum::from_number(number)),
            _ => None,
        }
    }

    /// Reads a serde_json number.
    pub fn from_number(number: &Number) -> PyNum {
        if let Some(int) = number.as_i64() {
            PyNum::Int(i128::from(int))
        } else if let Some(int) = number.as_u64() {
            PyNum::Int(i128::from(int))
        } else {
            PyNum::Float(number.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// `float(x)`: integers are rounded to the nearest double.
    pub fn to_f64(self) -> f64 {
        match self {
            PyNum::Int(int) => int as f64,
            PyNum::Float(float) => float,
        }
    }

    /// Whether this is a Python `float`.
    pub fn is_float(self) -> bool {
        matches!(self, PyNum::Float(_))
    }

    /// The JSON value with the same kind (`int` stays an integer); NaN and infinities become `null`.
    pub fn to_json(self) -> Value {
        match self {
            PyNum::Int(int) => i64::try_from(int)
                .map(Value::from)
                .or_else(|_| u64::try_from(int).map(Value::from))
                .unwrap_or_else(|_| float_json(int as f64)),
            PyNum::Float(float) => float_json(float),
        }
    }

    /// Python's exact comparison of two numbers; `None` when either is NaN.
    pub fn py_cmp(self, other: PyNum) -> Option<Ordering> {
        match (self, other) {
            (PyNum::Int(a), PyNum::Int(b)) => Some(a.cmp(&b)),
            (PyNum::Float(a), PyNum::Float(b)) => a.partial_cmp(&b),
            (PyNum::Float(a), PyNum::Int(b)) => cmp_float_int(a, b),
            (PyNum::Int(a), PyNum::Float(b)) => cmp_float_int(b, a).map(Ordering::reverse),
        }
    }

    /// Python's `self >= other` (false when either is NaN).
    pub fn py_ge(self, other: PyNum) -> bool {
        matches!(
            self.py_cmp(other),
            Some(Ordering::Greater | Ordering::Equal)
        )
    }
}

/// A float as a JSON value; non-finite floats (which JSON cannot hold) become `null`.
pub fn float_json(value: f64) -> Value {
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}

fn cmp_float_int(float: f64, int: i128) -> Option<Ordering> {
    if float.is_nan() {
        return None;
    }
    const LIMIT: f64 = 1.7e38;
    if float >= LIMIT {
        return Some(Ordering::Greater);
    }
    if float <= -LIMIT {
        return Some(Ordering::Less);
    }
    let whole = float.trunc();
    match (whole as i128).cmp(&int) {
        Ordering::Equal => float.partial_cmp(&whole),
        other => Some(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenteval_json::json;

    #[test]
    fn keeps_int_and_float_apart() {
        assert_eq!(PyNum::from_json(&json!(1)), Some(PyNum::Int(1)));
        assert_eq!(PyNum::from_json(&json!(1.0)), Some(PyNum::Float(1.0)));
        assert_eq!(PyNum::from_json(&json!(true)), None);
        assert_eq!(PyNum::Int(50).to_json(), json!(50));
        assert_eq!(PyNum::Float(f64::NAN).to_json(), Value::Null);
    }

    #[test]
    fn compares_exactly() {
        let big = PyNum::Int(9_007_199_254_740_993);
        assert_eq!(
            big.py_cmp(PyNum::Float(9_007_199_254_740_992.0)),
            Some(Ordering::Greater)
        );
        assert!(PyNum::Float(2.5).py_ge(PyNum::Int(2)));
        assert!(!PyNum::Float(1.5).py_ge(PyNum::Int(2)));
        assert!(PyNum::Int(2).py_ge(PyNum::Float(2.0)));
        assert!(!PyNum::Int(-2).py_ge(PyNum::Float(-1.5)));
        assert!(!PyNum::Float(f64::NAN).py_ge(PyNum::Int(0)));
        assert!(PyNum::Float(f64::INFINITY).py_ge(PyNum::Int(i128::MAX)));
    }
}
