//! JSON Schema's notions of type and equality over JSON values: `1.0` is an integer and
//! equals `1`.

use crate::json::Value;

use super::compile::Types;

/// Whether `value` is one of `types` (a number with no fraction counts as an integer).
pub(super) fn has_type(types: Types, value: &Value) -> bool {
    match value {
        Value::Null => types.contains(Types::NULL),
        Value::Bool(_) => types.contains(Types::BOOLEAN),
        Value::Object(_) => types.contains(Types::OBJECT),
        Value::Array(_) => types.contains(Types::ARRAY),
        Value::String(_) => types.contains(Types::STRING),
        Value::Number(number) => {
            types.contains(Types::NUMBER)
                || (types.contains(Types::INTEGER)
                    && (number.is_i64()
                        || number.is_u64()
                        || number.as_f64().is_some_and(|float| float.fract() == 0.0)))
        }
    }
}

/// JSON equality, with numbers compared by value (`1` equals `1.0`).
pub(super) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| equal(x, y))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .all(|(key, x)| ys.get(key).is_some_and(|y| equal(x, y)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn numbers_compare_by_value() {
        assert!(equal(&json!(1), &json!(1.0)));
        assert!(!equal(&json!(1), &json!(1.5)));
        assert!(equal(&json!({"a": [1.0]}), &json!({"a": [1]})));
        assert!(!equal(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(equal(&json!(u64::MAX), &json!(u64::MAX)));
    }

    #[test]
    fn integers_include_whole_floats() {
        assert!(has_type(Types::INTEGER, &json!(2.0)));
        assert!(!has_type(Types::INTEGER, &json!(2.5)));
        assert!(has_type(Types::NUMBER, &json!(2)));
        assert!(!has_type(Types::STRING.union(Types::NULL), &json!(false)));
    }
}
