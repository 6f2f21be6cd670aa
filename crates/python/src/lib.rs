//! CPython 3.11's behaviour that the reference tools' verdicts and prompts depend on, in one
//! place: `str` methods and character classes (`strings`, with tables generated from CPython,
//! Unicode 14.0, `unicode_tables`), `repr(float)` and `format` (`decimal`), numbers as Python
//! reads JSON ones (`number`), `json.loads` into Python values and `json.dumps` of them (`json`),
//! a Python view over JSON or decoded values (`view`), and `repr()`/`str()`/`json.dumps` of
//! JSON values (`repr`).

pub mod decimal;
pub mod json;
pub mod number;
pub mod repr;
pub mod strings;
mod unicode_tables;
pub mod view;
