//! The `string_check` grader: compares the rendered `input` with the rendered `reference` and
//! scores 1 (pass) or 0 (fail).
//!
//! OpenAI's documentation of the operations: `eq` passes when input and reference are the same
//! string (case-sensitive), `ne` when they differ, `like` when the input contains the reference
//! (case-sensitive) and `ilike` when it contains it ignoring case. `like` and `ilike` are plain
//! substring tests: `%` and `_` are literal characters, not SQL wildcards. `ilike` lower-cases both
//! texts as Python's `str.lower` does ([`crate::text::python::lower`]). An empty reference is
//! contained in every input.

use super::{choice, spec, texts, TextTemplate, COMMON_KEYS};
use crate::evaluators::{Evaluator, EvaluatorSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::EvalResult;
use crate::text::python;

/// The entry `string_check` criteria are reported under.
pub static SPEC: EvaluatorSpec = spec(
    "string_check",
    "input eq / ne / like (contains) / ilike (contains, ignoring case) reference: score 1 passes",
    build,
);

/// The comparison a `string_check` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// The same string.
    Eq,
    /// Different strings.
    Ne,
    /// The input contains the reference.
    Like,
    /// The input contains the reference, ignoring case.
    Ilike,
}

impl Operation {
    /// Whether `input` and `reference` satisfy the operation.
    pub fn holds(self, input: &str, reference: &str) -> bool {
        match self {
            Operation::Eq => input == reference,
            Operation::Ne => input != reference,
            Operation::Like => input.contains(reference),
            Operation::Ilike => python::lower(input).contains(&python::lower(reference)),
        }
    }
}

struct StringCheck {
    label: String,
    input: TextTemplate,
    reference: TextTemplate,
    operation: Operation,
}

/// Reads a `string_check` criterion.
///
/// # Errors
/// An unknown key, a missing or malformed `input` / `reference` template, or an `operation`
/// other than `eq`, `ne`, `like`, `ilike`, each naming its key.
pub fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    let mut allowed = COMMON_KEYS.to_vec();
    allowed.push("operation");
    options.deny_unknown(&allowed)?;
    let operation = match choice(&options, "operation", &["eq", "ne", "like", "ilike"])? {
        "eq" => Operation::Eq,
        "ne" => Operation::Ne,
        "like" => Operation::Like,
        _ => Operation::Ilike,
    };
    Ok(Box::new(StringCheck {
        label: label.to_owned(),
        input: TextTemplate::read(&options, "input")?,
        reference: TextTemplate::read(&options, "reference")?,
        operation,
    }))
}

impl Evaluator for StringCheck {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        match texts(&self.label, &self.input, &self.reference, inputs) {
            Ok((input, reference)) => {
                let passed = self.operation.holds(&input, &reference);
                EvalResult::scored(&self.label, passed, if passed { 1.0 } else { 0.0 }, 1.0)
            }
            Err(result) => *result,
        }
    }
}
