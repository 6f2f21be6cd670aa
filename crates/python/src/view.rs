//! A borrowed, Python-semantics view of a value that is either still the dataset's JSON or was
//! decoded from a string by [`PyValue::parse`]: the evaluator reads the dataset in place instead
//! of copying it into a [`PyValue`] tree.

use std::borrow::Cow;

use agenteval_json::{Map, Number, Value};

use crate::decimal;
use crate::json::{dump_float, dump_str, DecodeError, PyValue, MAX_DEPTH};

/// A value as the reference sees it after `json.loads`.
#[derive(Debug, Clone, Copy)]
pub enum Py<'a> {
    /// Part of the dataset's JSON.
    Json(&'a Value),
    /// Part of a value decoded from a string.
    Tree(&'a PyValue<'a>),
}

/// The elements of a Python list.
#[derive(Debug, Clone, Copy)]
pub enum PyList<'a> {
    /// A JSON array.
    Json(&'a [Value]),
    /// A decoded list.
    Tree(&'a [PyValue<'a>]),
}

/// The entries of a Python dict, in insertion order, keys unique.
#[derive(Debug, Clone, Copy)]
pub enum PyDict<'a> {
    /// A JSON object.
    Json(&'a Map<String, Value>),
    /// A decoded dict.
    Tree(&'a [(Cow<'a, str>, PyValue<'a>)]),
}

/// A Python `int`, still in its source form.
#[derive(Debug, Clone, Copy)]
pub enum PyInt<'a> {
    /// A JSON integer.
    Json(&'a Number),
    /// Canonical decimal digits.
    Digits(&'a str),
}

/// What kind of Python value a view holds.
#[derive(Debug, Clone, Copy)]
pub enum Kind<'a> {
    /// `None`.
    None,
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(PyInt<'a>),
    /// `float`.
    Float(f64),
    /// `str`.
    Str(&'a str),
    /// `list`.
    List(PyList<'a>),
    /// `dict`.
    Dict(PyDict<'a>),
}

impl<'a> Py<'a> {
    /// What the value is.
    pub fn kind(self) -> Kind<'a> {
        match self {
            Py::Json(value) => match value {
                Value::Null => Kind::None,
                Value::Bool(flag) => Kind::Bool(*flag),
                Value::Number(number) if number.is_f64() => {
                    Kind::Float(number.as_f64().unwrap_or(f64::NAN))
                }
                Value::Number(number) => Kind::Int(PyInt::Json(number)),
                Value::String(text) => Kind::Str(text),
                Value::Array(items) => Kind::List(PyList::Json(items)),
                Value::Object(map) => Kind::Dict(PyDict::Json(map)),
            },
            Py::Tree(value) => match value {
                PyValue::None => Kind::None,
                PyValue::Bool(flag) => Kind::Bool(*flag),
                PyValue::Int(digits) => Kind::Int(PyInt::Digits(digits)),
                PyValue::Float(float) => Kind::Float(*float),
                PyValue::Str(text) => Kind::Str(text),
                PyValue::List(items) => Kind::List(PyList::Tree(items)),
                PyValue::Dict(entries) => Kind::Dict(PyDict::Tree(entries)),
            },
        }
    }

    /// The text of a `str`.
    pub fn as_str(self) -> Option<&'a str> {
        match self.kind() {
            Kind::Str(text) => Some(text),
            _ => None,
        }
    }

    /// The elements of a `list`.
    pub fn as_list(self) -> Option<PyList<'a>> {
        match self.kind() {
            Kind::List(list) => Some(list),
            _ => None,
        }
    }

    /// The entries of a `dict`.
    pub fn as_dict(self) -> Option<PyDict<'a>> {
        match self.kind() {
            Kind::Dict(dict) => Some(dict),
            _ => None,
        }
    }

    /// Whether this is `None`.
    pub fn is_none(self) -> bool {
        matches!(self.kind(), Kind::None)
    }

    /// Whether this is a `dict`.
    pub fn is_dict(self) -> bool {
        matches!(self.kind(), Kind::Dict(_))
    }

    /// Whether this is the `str` `expected`.
    pub fn is_str(self, expected: &str) -> bool {
        self.as_str() == Some(expected)
    }

    /// The value of `key` when this is a dict.
    pub fn get(self, key: &str) -> Option<Py<'a>> {
        self.as_dict()?.get(key)
    }

    /// Python's truth value.
    pub fn is_truthy(self) -> bool {
        match self.kind() {
            Kind::None => false,
            Kind::Bool(flag) => flag,
            Kind::Int(int) => int.digits() != "0",
            Kind::Float(float) => float != 0.0,
            Kind::Str(text) => !text.is_empty(),
            Kind::List(list) => !list.is_empty(),
            Kind::Dict(dict) => !dict.is_empty(),
        }
    }

    /// `type(v).__name__`.
    pub fn type_name(self) -> &'static str {
        match self.kind() {
            Kind::None => "NoneType",
            Kind::Bool(_) => "bool",
            Kind::Int(_) => "int",
            Kind::Float(_) => "float",
            Kind::Str(_) => "str",
            Kind::List(_) => "list",
            Kind::Dict(_) => "dict",
        }
    }

    /// Python's `str(v)` for scalars; `None` for lists and dicts (whose `repr` we do not render).
    pub fn scalar_str(self) -> Option<Cow<'a, str>> {
        Some(match self.kind() {
            Kind::None => Cow::Borrowed("None"),
            Kind::Bool(true) => Cow::Borrowed("True"),
            Kind::Bool(false) => Cow::Borrowed("False"),
            Kind::Int(int) => int.digits(),
            Kind::Float(float) => Cow::Owned(decimal::python_repr(float)),
            Kind::Str(text) => Cow::Borrowed(text),
            Kind::List(_) | Kind::Dict(_) => return None,
        })
    }

    /// `json.dumps(v, sort_keys=True)` with Python's defaults (`", "`/`": "` separators,
    /// `ensure_ascii`, `NaN`/`Infinity` allowed).
    ///
    /// # Errors
    /// [`DecodeError::TooDeep`] past [`MAX_DEPTH`] levels.
    pub fn dumps_sorted(self) -> Result<String, DecodeError> {
        let mut out = String::new();
        self.dump_into(&mut out, 0)?;
        Ok(out)
    }

    fn dump_into(self, out: &mut String, depth: usize) -> Result<(), DecodeError> {
        if depth > MAX_DEPTH {
            return Err(DecodeError::TooDeep);
        }
        match self.kind() {
            Kind::None => out.push_str("null"),
            Kind::Bool(flag) => out.push_str(if flag { "true" } else { "false" }),
            Kind::Int(int) => out.push_str(&int.digits()),
            Kind::Float(float) => out.push_str(&dump_float(float)),
            Kind::Str(text) => dump_str(text, out),
            Kind::List(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    item.dump_into(out, depth + 1)?;
                }
                out.push(']');
            }
            Kind::Dict(dict) => {
                let mut sorted: Vec<(&str, Py<'_>)> = dict.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(b.0));
                out.push('{');
                for (index, (key, item)) in sorted.into_iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    dump_str(key, out);
                    out.push_str(": ");
                    item.dump_into(out, depth + 1)?;
                }
                out.push('}');
            }
        }
        Ok(())
    }
}

impl<'a> PyInt<'a> {
    /// The canonical decimal digits.
    pub fn digits(self) -> Cow<'a, str> {
        match self {
            PyInt::Json(number) => Cow::Owned(number.to_string()),
            PyInt::Digits(digits) => Cow::Borrowed(digits),
        }
    }

    /// The value when it fits an `i128`.
    pub fn as_i128(self) -> Option<i128> {
        match self {
            PyInt::Json(number) => number
                .as_i64()
                .map(i128::from)
                .or_else(|| number.as_u64().map(i128::from)),
            PyInt::Digits(digits) => digits.parse().ok(),
        }
    }
}

impl<'a> PyList<'a> {
    /// Number of elements.
    pub fn len(self) -> usize {
        match self {
            PyList::Json(items) => items.len(),
            PyList::Tree(items) => items.len(),
        }
    }

    /// Whether it has no elements.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The first element.
    pub fn first(self) -> Option<Py<'a>> {
        self.iter().next()
    }

    /// The elements in order.
    pub fn iter(self) -> impl Iterator<Item = Py<'a>> {
        let (json, tree) = match self {
            PyList::Json(items) => (items, &[][..]),
            PyList::Tree(items) => (&[][..], items),
        };
        json.iter().map(Py::Json).chain(tree.iter().map(Py::Tree))
    }
}

impl<'a> PyDict<'a> {
    /// Number of entries.
    pub fn len(self) -> usize {
        match self {
            PyDict::Json(map) => map.len(),
            PyDict::Tree(entries) => entries.len(),
        }
    }

    /// Whether it has no entries.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The value of `key`.
    pub fn get(self, key: &str) -> Option<Py<'a>> {
        match self {
            PyDict::Json(map) => map
                .iter()
                .find(|(entry, _)| *entry == key)
                .map(|(_, value)| Py::Json(value)),
            PyDict::Tree(entries) => entries
                .iter()
                .find(|(entry, _)| entry == key)
                .map(|(_, value)| Py::Tree(value)),
        }
    }

    /// The entries in insertion order.
    pub fn iter(self) -> impl Iterator<Item = (&'a str, Py<'a>)> {
        let (json, tree) = match self {
            PyDict::Json(map) => (Some(map), &[][..]),
            PyDict::Tree(entries) => (None, entries),
        };
        json.into_iter()
            .flat_map(|map| {
                map.iter()
                    .map(|(key, value)| (key.as_str(), Py::Json(value)))
            })
            .chain(
                tree.iter()
                    .map(|(key, value)| (key.as_ref(), Py::Tree(value))),
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::PyValue;

    fn dumps(text: &str) -> String {
        Py::Tree(&PyValue::parse(text).unwrap())
            .dumps_sorted()
            .unwrap()
    }

    fn scalar(text: &str) -> Option<String> {
        Py::Tree(&PyValue::parse(text).unwrap())
            .scalar_str()
            .map(|text| text.into_owned())
    }

    #[test]
    fn renders_like_python() {
        assert_eq!(
            dumps(r#"{"b": 1, "a": [true, null, 1.5e300, "é\n"]}"#),
            r#"{"a": [true, null, 1.5e+300, "\u00e9\n"], "b": 1}"#
        );
        assert_eq!(
            dumps(r#"["😀", NaN, -Infinity, 1e16, 0.1]"#),
            r#"["\ud83d\ude00", NaN, -Infinity, 1e+16, 0.1]"#
        );
        assert_eq!(scalar("1.0").as_deref(), Some("1.0"));
        assert_eq!(scalar("true").as_deref(), Some("True"));
        assert_eq!(scalar("null").as_deref(), Some("None"));
        assert_eq!(scalar("[]"), None);
    }
}
