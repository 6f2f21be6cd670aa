//! Problems found in the input: where (file, line/column or JSON pointer) and what was expected.

use serde::Serialize;

/// How bad a problem is.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input (or the item it points into) cannot be used.
    Error,
    /// The input is used, but something is off (legacy form, ignored field…).
    Warning,
}

/// Where in the input a problem sits.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Location {
    /// 1-based line and column in the text (JSON syntax errors, JSONL rows).
    LineColumn {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// RFC 6901 JSON pointer into the parsed document (`/items/0/prompt`); optionally the JSONL
    /// line the pointer is relative to.
    Pointer {
        /// The JSON pointer (empty string for the root).
        pointer: String,
        /// For JSONL input, the 1-based line of the row.
        line: Option<usize>,
    },
    /// The input as a whole.
    Whole,
}

/// One problem in the input.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Name of the file or stream (`-` for stdin), when known.
    pub source: Option<String>,
    /// Where the problem is.
    pub location: Location,
    /// What is wrong and what was expected.
    pub message: String,
    /// A stable name for a problem a host answers with one of its own controls (`configMissing`:
    /// Foundry rows without an evaluation config), so that each host can say how to fix it in its
    /// own words; absent for every other problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub code: Option<&'static str>,
}

impl Diagnostic {
    /// An error at a JSON pointer.
    pub fn at_pointer(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            source: None,
            location: Location::Pointer {
                pointer: pointer.into(),
                line: None,
            },
            message: message.into(),
            code: None,
        }
    }

    /// An error at a line and column.
    pub fn at_line(line: usize, column: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            source: None,
            location: Location::LineColumn { line, column },
            message: message.into(),
            code: None,
        }
    }

    /// An error about the input as a whole.
    pub fn whole(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            source: None,
            location: Location::Whole,
            message: message.into(),
            code: None,
        }
    }

    /// The same diagnostic, with the stable `code` a host can answer in its own words.
    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    /// The same diagnostic as a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// The same diagnostic, naming its source file.
    pub fn in_source(mut self, source: &str) -> Self {
        self.source = Some(source.to_owned());
        self
    }

    /// The same diagnostic, attached to JSONL line `line` (pointer locations only).
    pub fn on_line(mut self, row_line: usize) -> Self {
        if let Location::Pointer { line, .. } = &mut self.location {
            *line = Some(row_line);
        }
        self
    }
}

impl Diagnostic {
    /// Location and message without the source name or level: `line 3, column 7: …`,
    /// `at /items/0/prompt: …`.
    pub fn describe(&self) -> String {
        match &self.location {
            Location::LineColumn { line, column } => {
                format!("line {line}, column {column}: {}", self.message)
            }
            Location::Pointer {
                pointer,
                line: Some(line),
            } => format!(
                "line {line}, at {}: {}",
                display_pointer(pointer),
                self.message
            ),
            Location::Pointer {
                pointer,
                line: None,
            } => {
                format!("at {}: {}", display_pointer(pointer), self.message)
            }
            Location::Whole => self.message.clone(),
        }
    }
}

impl std::fmt::Display for Diagnostic {
    /// `file:line:column: message`, `file:line: at /pointer: message` or `file: at /pointer: message`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let source = self.source.as_deref().unwrap_or("<input>");
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match &self.location {
            Location::LineColumn { line, column } => {
                write!(f, "{source}:{line}:{column}: {level}: {}", self.message)
            }
            Location::Pointer {
                pointer,
                line: Some(line),
            } => write!(
                f,
                "{source}:{line}: {level}: at {}: {}",
                display_pointer(pointer),
                self.message
            ),
            Location::Pointer {
                pointer,
                line: None,
            } => write!(
                f,
                "{source}: {level}: at {}: {}",
                display_pointer(pointer),
                self.message
            ),
            Location::Whole => write!(f, "{source}: {level}: {}", self.message),
        }
    }
}

fn display_pointer(pointer: &str) -> &str {
    if pointer.is_empty() {
        "/"
    } else {
        pointer
    }
}

/// Appends one RFC 6901 reference token to `pointer` (escaping `~` and `/`).
pub fn push_pointer(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    out.push('/');
    for ch in token.chars() {
        match ch {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            other => out.push(other),
        }
    }
    out
}

/// The input was rejected; every problem found is listed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", render(.diagnostics))]
pub struct InputError {
    /// The problems, errors first.
    pub diagnostics: Vec<Diagnostic>,
}

impl InputError {
    /// Rejection with one problem.
    pub fn one(diagnostic: Diagnostic) -> Self {
        InputError {
            diagnostics: vec![diagnostic],
        }
    }
}

fn render(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}
