//! Azure AI Foundry datasets: JSONL (or JSON array) rows plus an evaluation config whose
//! `testing_criteria` name the evaluators and map row fields to their inputs with
//! `{{item.<path>}}` / `{{sample.output_text}}` / `{{sample.output_items}}` templates, or that
//! are OpenAI-style graders (`score_model`, `label_model`, `string_check`, `text_similarity`)
//! defined by their own fields.

use crate::json::{Map, Value};

use crate::diagnostic::{push_pointer, Diagnostic, InputError, Location};
use crate::evaluators;
use crate::inputs::Inputs;
use crate::json;

/// Where a criterion input comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Template {
    /// `{{item.a.b}}`: a (dotted) path into the row.
    Item(Vec<String>),
    /// `{{sample.output_text}}` or `{{sample.output_items}}`: the row's `response`.
    SampleOutput,
}

impl Template {
    /// Parses `{{item.response}}`-style text.
    pub fn parse(text: &str) -> Option<Self> {
        let inner = text.trim().strip_prefix("{{")?.strip_suffix("}}")?.trim();
        if let Some(path) = inner.strip_prefix("item.") {
            let segments: Vec<String> = path.split('.').map(str::to_owned).collect();
            return (!segments.iter().any(String::is_empty)).then_some(Template::Item(segments));
        }
        matches!(inner, "sample.output_text" | "sample.output_items")
            .then_some(Template::SampleOutput)
    }

    fn resolve<'a>(&self, row: &'a Map<String, Value>) -> Option<&'a Value> {
        match self {
            Template::SampleOutput => row.get("response"),
            Template::Item(path) => crate::inputs::field_at(row, path),
        }
    }
}

/// One testing criterion: which evaluator, under which name, with which parameters and inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Criterion {
    /// The criterion name; results and output keys carry it.
    pub name: String,
    /// The evaluator id (`builtin.f1_score`).
    pub evaluator_name: String,
    /// `initialization_parameters`: the evaluator's options.
    pub initialization_parameters: Map<String, Value>,
    /// Input name → where it comes from.
    pub data_mapping: Vec<(String, Template)>,
}

impl Criterion {
    /// The evaluator inputs for `row`; a template whose field is absent passes nothing.
    pub fn inputs<'a>(&'a self, row: &'a Map<String, Value>) -> Inputs<'a> {
        let mut inputs = Inputs::new();
        for (name, template) in &self.data_mapping {
            if let Some(value) = template.resolve(row) {
                inputs.set(name, value);
            }
        }
        inputs.set_fields(row);
        inputs
    }
}

/// The evaluation config: `{"testing_criteria": [...]}`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FoundryConfig {
    /// The criteria, in order.
    pub criteria: Vec<Criterion>,
}

impl FoundryConfig {
    /// Reads a config object.
    ///
    /// # Errors
    /// Every problem, each with its JSON pointer and what was expected.
    pub fn from_value(config: &Value) -> Result<Self, InputError> {
        let mut problems = Vec::new();
        let Some(list) = config.get("testing_criteria").and_then(Value::as_array) else {
            return Err(InputError::one(Diagnostic::at_pointer(
                "/testing_criteria",
                "expected an array of testing criteria ({type, name, evaluator_name, initialization_parameters, data_mapping})",
            )));
        };
        if list.is_empty() {
            problems.push(Diagnostic::at_pointer(
                "/testing_criteria",
                "expected at least one testing criterion, got 0",
            ));
        }
        let mut criteria = Vec::with_capacity(list.len());
        for (position, entry) in list.iter().enumerate() {
            let pointer = format!("/testing_criteria/{position}");
            match criterion(entry, &pointer, &mut problems) {
                Some(criterion)
                    if criteria
                        .iter()
                        .any(|c: &Criterion| c.name == criterion.name) =>
                {
                    problems.push(Diagnostic::at_pointer(
                        format!("{pointer}/name"),
                        format!(
                            "duplicate criterion name \"{}\"; names must be unique",
                            criterion.name
                        ),
                    ));
                }
                Some(criterion) => criteria.push(criterion),
                None => {}
            }
        }
        if problems.is_empty() {
            Ok(FoundryConfig { criteria })
        } else {
            Err(InputError {
                diagnostics: problems,
            })
        }
    }
}

fn criterion(entry: &Value, pointer: &str, problems: &mut Vec<Diagnostic>) -> Option<Criterion> {
    let Some(entry) = entry.as_object() else {
        problems.push(Diagnostic::at_pointer(
            pointer,
            "expected a testing criterion object",
        ));
        return None;
    };
    let before = problems.len();
    let mut text = |key: &str| match entry.get(key) {
        Some(Value::String(text)) if !text.is_empty() => Some(text.clone()),
        _ => {
            problems.push(Diagnostic::at_pointer(
                push_pointer(pointer, key),
                "missing or empty; expected a non-empty string",
            ));
            None
        }
    };
    let name = text("name");
    if let Some(grader) = entry.get("type").and_then(Value::as_str).filter(|kind| {
        ["score_model", "label_model"].contains(kind) || evaluators::GRADER_TYPES.contains(kind)
    }) {
        return model_grader(grader, name, entry, pointer, problems);
    }
    let evaluator_name = text("evaluator_name");
    let initialization_parameters = match entry.get("initialization_parameters") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(parameters)) => parameters.clone(),
        Some(dimensions @ Value::Array(_))
            if evaluator_name.as_deref() == Some(crate::evaluators::RUBRIC) =>
        {
            let mut parameters = Map::new();
            parameters.insert("dimensions".to_owned(), dimensions.clone());
            parameters
        }
        Some(_) => {
            problems.push(Diagnostic::at_pointer(
                push_pointer(pointer, "initialization_parameters"),
                "expected an object of evaluator parameters",
            ));
            Map::new()
        }
    };
    let data_mapping = match entry.get("data_mapping") {
        None | Some(Value::Null) => default_mapping(evaluator_name.as_deref()),
        Some(Value::Object(mapping)) => mapping
            .iter()
            .filter_map(|(input, template)| {
                let parsed = template.as_str().and_then(Template::parse);
                if parsed.is_none() {
                    problems.push(Diagnostic::at_pointer(
                        push_pointer(&push_pointer(pointer, "data_mapping"), input),
                        format!("expected a template like \"{{{{item.{input}}}}}\" or \"{{{{sample.output_text}}}}\", got {template}"),
                    ));
                }
                parsed.map(|template| (input.clone(), template))
            })
            .collect(),
        Some(_) => {
            problems.push(Diagnostic::at_pointer(
                push_pointer(pointer, "data_mapping"),
                "expected an object mapping input names to templates",
            ));
            Vec::new()
        }
    };
    if problems.len() > before {
        return None;
    }
    Some(Criterion {
        name: name?,
        evaluator_name: evaluator_name?,
        initialization_parameters,
        data_mapping,
    })
}

/// A grader criterion (`score_model`, `label_model`, `string_check`, `text_similarity`): its own
/// fields (`input`, `reference`, `range`, `labels`, `model`…) are the grader's definition, and its
/// placeholders read the whole row.
fn model_grader(
    grader: &str,
    name: Option<String>,
    entry: &Map<String, Value>,
    pointer: &str,
    problems: &mut Vec<Diagnostic>,
) -> Option<Criterion> {
    if entry.contains_key("data_mapping") {
        problems.push(Diagnostic::at_pointer(
            push_pointer(pointer, "data_mapping"),
            "a grader takes no data_mapping: its input names the row's fields ({{item.FIELD}})",
        ));
        return None;
    }
    Some(Criterion {
        name: name?,
        evaluator_name: grader.to_owned(),
        initialization_parameters: entry.clone(),
        data_mapping: vec![("response".to_owned(), Template::SampleOutput)],
    })
}

/// Without `data_mapping`, each input the evaluator reads comes from the row field of that name.
fn default_mapping(evaluator_name: Option<&str>) -> Vec<(String, Template)> {
    evaluator_name
        .and_then(evaluators::find)
        .map(|spec| {
            spec.inputs
                .iter()
                .map(|input| {
                    (
                        (*input).to_owned(),
                        Template::Item(vec![(*input).to_owned()]),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// One data row: its JSONL line (when read from JSONL) and the row object, or why it is unusable.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundryRow {
    /// 1-based JSONL line.
    pub line: Option<usize>,
    /// The row, or the problem that makes it unusable.
    pub row: Result<Map<String, Value>, Diagnostic>,
    /// An unusable row's text as written, clipped to [`ROW_TEXT_CLIP`] bytes; `None` for a
    /// usable row.
    pub text: Option<String>,
}

/// The most bytes of an unusable row's text kept for its error row.
pub const ROW_TEXT_CLIP: usize = 200;

/// `bytes` as text, clipped to [`ROW_TEXT_CLIP`] bytes at a character boundary (`…` marks a cut).
fn clipped(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes.trim_ascii());
    if text.len() <= ROW_TEXT_CLIP {
        return text.into_owned();
    }
    let mut end = ROW_TEXT_CLIP;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", text.get(..end).unwrap_or_default())
}

impl FoundryRow {
    /// Parses one JSONL line (without its newline); `line` is its 1-based number.
    pub fn parse_line(bytes: &[u8], line: usize) -> Self {
        let row = match json::parse(bytes) {
            Ok(Value::Object(row)) => Ok(row),
            Ok(other) => Err(Diagnostic::at_line(
                line,
                1,
                format!(
                    "expected a JSON object (a row), got {}",
                    crate::options::json_type_name(&other)
                ),
            )),
            Err(mut error) => {
                if let Location::LineColumn { line: row_line, .. } = &mut error.location {
                    *row_line = line;
                }
                Err(error)
            }
        };
        FoundryRow {
            line: Some(line),
            text: row.is_err().then(|| clipped(bytes)),
            row,
        }
    }
}

/// A config line in JSONL: an object with `testing_criteria` and no row fields.
pub fn is_config_line(value: &Value) -> bool {
    value.get("testing_criteria").is_some()
        && !super::FOUNDRY_FIELDS
            .iter()
            .any(|field| value.get(*field).is_some())
}

/// Rows and their criteria.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundryDataset {
    /// The evaluation config.
    pub config: FoundryConfig,
    /// The rows, in input order.
    pub rows: Vec<FoundryRow>,
    /// The 1-based JSON Lines line that held the config, when the dataset's first line did.
    pub config_line: Option<usize>,
}

/// The code of the diagnostic for rows without a config ([`Diagnostic::code`]): each host names
/// its own way of giving one (the CLI's `--config`, the page's config control).
pub const CONFIG_MISSING: &str = "configMissing";

fn missing_config() -> InputError {
    InputError::one(
        Diagnostic::whole(
            "Foundry rows need an evaluation config {\"testing_criteria\": [...]}: give one with the rows, or put it on the first JSONL line",
        )
        .with_code(CONFIG_MISSING),
    )
}

impl FoundryDataset {
    /// Reads JSONL text. A first line holding only `testing_criteria` is the config when `config`
    /// is `None`. Unusable lines become error rows; the others are kept.
    ///
    /// # Errors
    /// When there is no config, or the config is invalid.
    pub fn from_jsonl(
        bytes: &[u8],
        config: Option<&Value>,
    ) -> Result<(Self, Vec<Diagnostic>), InputError> {
        let mut rows = Vec::new();
        let mut inline_config = None;
        let mut config_line = None;
        for (number, line) in bytes.split(|byte| *byte == b'\n').enumerate() {
            if line.trim_ascii().is_empty() {
                continue;
            }
            let row = FoundryRow::parse_line(line, number + 1);
            if rows.is_empty() && inline_config.is_none() {
                if let Ok(object) = &row.row {
                    let value = Value::Object(object.clone());
                    if is_config_line(&value) {
                        inline_config = Some(value);
                        config_line = Some(number + 1);
                        continue;
                    }
                }
            }
            rows.push(row);
        }
        let config = config
            .or(inline_config.as_ref())
            .ok_or_else(missing_config)?;
        let config = FoundryConfig::from_value(config)?;
        let diagnostics = rows
            .iter()
            .filter_map(|row| row.row.as_ref().err().cloned())
            .collect();
        Ok((
            FoundryDataset {
                config,
                rows,
                config_line,
            },
            diagnostics,
        ))
    }

    /// Reads a JSON array of rows, or `{"testing_criteria": [...], "data": [...]}`.
    ///
    /// # Errors
    /// When there is no config, or the config is invalid.
    pub fn from_rows(
        value: Value,
        config: Option<&Value>,
    ) -> Result<(Self, Vec<Diagnostic>), InputError> {
        let (rows, inline_config, rows_at) = match value {
            Value::Array(rows) => (rows, None, Some("")),
            Value::Object(mut object) if object.contains_key("data") => {
                let rows = object.get_mut("data").map(Value::take);
                let mut inline_config = Value::Object(object);
                if let Some(problem) = crate::schema::limit_problems(&inline_config)
                    .into_iter()
                    .next()
                {
                    return Err(InputError::one(problem));
                }
                if let Value::Object(object) = &mut inline_config {
                    object.shift_remove("data");
                }
                let rows = match rows {
                    Some(Value::Array(rows)) => rows,
                    _ => Vec::new(),
                };
                (rows, Some(inline_config), Some("/data"))
            }
            row @ Value::Object(_) => (vec![row], None, None),
            _ => (Vec::new(), None, None),
        };
        let config = config
            .or(inline_config.as_ref())
            .ok_or_else(missing_config)?;
        let config = FoundryConfig::from_value(config)?;
        let mut diagnostics = Vec::new();
        let rows = rows
            .into_iter()
            .enumerate()
            .map(|(index, row)| {
                let pointer = rows_at.map_or_else(String::new, |rows| format!("{rows}/{index}"));
                let beyond_limits = limit_problem(&pointer, &row);
                let (row, text) = match (row, beyond_limits) {
                    (Value::Object(row), None) => (Ok(row), None),
                    (other, beyond_limits) => {
                        let diagnostic = beyond_limits.unwrap_or_else(|| {
                            let message = format!(
                                "expected a JSON object (a row), got {}",
                                crate::options::json_type_name(&other)
                            );
                            Diagnostic::at_pointer(pointer, message)
                        });
                        diagnostics.push(diagnostic.clone());
                        let written = serde_json::to_string(&other).unwrap_or_default();
                        (Err(diagnostic), Some(clipped(written.as_bytes())))
                    }
                };
                FoundryRow {
                    line: None,
                    row,
                    text,
                }
            })
            .collect();
        Ok((
            FoundryDataset {
                config,
                rows,
                config_line: None,
            },
            diagnostics,
        ))
    }
}

/// The first string of the row at `row_pointer` longer than the input limit, or key it holds
/// twice, at its pointer in the input: such a row is unusable, as it is in JSONL, where the strict
/// reader rejects its line.
fn limit_problem(row_pointer: &str, row: &Value) -> Option<Diagnostic> {
    let found = crate::schema::limit_problems(row).into_iter().next()?;
    let pointer = match &found.location {
        Location::Pointer { pointer, .. } => pointer.as_str(),
        _ => "",
    };
    Some(Diagnostic::at_pointer(
        format!("{row_pointer}{pointer}"),
        found.message,
    ))
}
