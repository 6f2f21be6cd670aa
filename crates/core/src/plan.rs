//! The run plan: everything a host must know about an input before scoring it, decided here once
//! for the CLI, the package and the page. How the text is laid out (one JSON document, JSON Lines,
//! CSV) and so its dialect; where a Foundry config comes from (the config line rule); the output
//! formats that apply to the dialect and the default one; what the run will need (a judge,
//! embeddings, METEOR's WordNet table); and how many items, turns and entries it has.

pub use crate::dataset::layout::{first_lines, is_json_lines, is_m365_document, layout, Layout};
use crate::dataset::{self, foundry, Dataset, Loaded};
use crate::diagnostic::InputError;
use crate::evaluators::{self, EvaluatorKind};
use crate::json::{Map, Value};
use crate::report::Dialect;
use crate::resolve;
use crate::scored;

/// The config line rule: a JSON Lines line that holds `testing_criteria` and no row field is the
/// config, when it is the first non-empty line.
pub fn is_config_line(value: &Value) -> bool {
    foundry::is_config_line(value)
}

/// Where a Foundry run's config comes from.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfigSource {
    /// Not a Foundry dataset: no config is read.
    NotUsed,
    /// Given by the host (`--config`, `options.config`, the page's config control).
    Given,
    /// The dataset's own: its first JSON Lines line, or `testing_criteria` beside `data`.
    InDataset,
}

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum OutputFormat {
    /// The M365 eval document with scores, statuses and summaries filled in.
    Document,
    /// The run report (JSON).
    Report,
    /// Foundry rows with flat result keys (JSONL).
    Foundry,
    /// Foundry's result objects, one line per row (JSONL).
    #[serde(rename = "foundry-results")]
    FoundryResults,
    /// A Copilot Studio test set in the results export's shape (CSV).
    Copilot,
    /// One CSV row per item and turn.
    Csv,
    /// JUnit XML.
    Junit,
    /// Markdown summary.
    Md,
    /// Self-contained HTML report.
    Html,
}

impl OutputFormat {
    /// Every format, in the order the CLI lists them.
    pub const ALL: [OutputFormat; 9] = [
        OutputFormat::Document,
        OutputFormat::Report,
        OutputFormat::Foundry,
        OutputFormat::FoundryResults,
        OutputFormat::Copilot,
        OutputFormat::Csv,
        OutputFormat::Junit,
        OutputFormat::Md,
        OutputFormat::Html,
    ];

    /// Its name (`--format NAME`, `render(NAME)`).
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Document => "document",
            OutputFormat::Report => "report",
            OutputFormat::Foundry => "foundry",
            OutputFormat::FoundryResults => "foundry-results",
            OutputFormat::Copilot => "copilot",
            OutputFormat::Csv => "csv",
            OutputFormat::Junit => "junit",
            OutputFormat::Md => "md",
            OutputFormat::Html => "html",
        }
    }

    /// The format called `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|format| format.name() == name)
    }

    /// The dialect a format writes back into, if it is one of those.
    pub fn written_back(self) -> Option<Dialect> {
        match self {
            OutputFormat::Document => Some(Dialect::M365),
            OutputFormat::Foundry | OutputFormat::FoundryResults => Some(Dialect::Foundry),
            OutputFormat::Copilot => Some(Dialect::CopilotStudio),
            _ => None,
        }
    }

    /// Whether it can be written for a run of `dialect`: the report formats always, a dataset's
    /// own shape only for that dialect.
    pub fn applies_to(self, dialect: Dialect) -> bool {
        self.written_back().is_none_or(|own| own == dialect)
    }

    /// The dataset's own shape: the default output of a run of `dialect`.
    pub fn default_for(dialect: Dialect) -> Self {
        match dialect {
            Dialect::M365 => OutputFormat::Document,
            Dialect::Foundry => OutputFormat::Foundry,
            Dialect::CopilotStudio => OutputFormat::Copilot,
        }
    }

    /// The formats that apply to `dialect`: its own first, then its other shapes, then the reports.
    pub fn for_dialect(dialect: Dialect) -> Vec<Self> {
        let own = Self::default_for(dialect);
        let dataset_shapes = Self::ALL
            .into_iter()
            .filter(|format| *format != own && format.written_back() == Some(dialect));
        let reports = Self::ALL
            .into_iter()
            .filter(|format| format.written_back().is_none());
        std::iter::once(own)
            .chain(dataset_shapes)
            .chain(reports)
            .collect()
    }

    /// Why `self` cannot be written for `dialect` (`document does not apply to foundry input;
    /// use foundry, report, …`), or `None` when it can.
    pub fn refusal(self, dialect: Dialect) -> Option<String> {
        if self.applies_to(dialect) {
            return None;
        }
        let names: Vec<&str> = Self::for_dialect(dialect)
            .into_iter()
            .map(Self::name)
            .collect();
        Some(format!(
            "{} does not apply to {} input; use {}",
            self.name(),
            dialect.as_str(),
            names.join(", ")
        ))
    }
}

/// What a run will need beyond the core.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Needs {
    /// A judge endpoint for chat completions (judged evaluators; without one they are skipped).
    pub judge: bool,
    /// The judge endpoint's embeddings (TextSimilarity, a `cosine` grader).
    pub embeddings: bool,
    /// METEOR's WordNet table (`builtin.meteor_score`, a `meteor` grader).
    pub wordnet: bool,
    /// Calls the run makes to the judge endpoint (chat completions and embeddings), one per
    /// judged or embedded verdict, before retries and the cache: what a host says a run will
    /// cost before it sends anything.
    pub judge_calls: usize,
}

impl Needs {
    /// Counts one evaluator applied `times` times (to one entry, or to every row of a config).
    fn add_evaluator(&mut self, name: &str, options: &Map<String, Value>, times: usize) {
        let calls_endpoint = match name {
            "builtin.meteor_score" => {
                self.wordnet = true;
                false
            }
            "text_similarity" => match options.get("evaluation_metric").and_then(Value::as_str) {
                Some("meteor") => {
                    self.wordnet = true;
                    false
                }
                Some("cosine") => {
                    self.embeddings = true;
                    true
                }
                _ => false,
            },
            "score_model" | "label_model" => {
                self.judge = true;
                true
            }
            "TextSimilarity" => {
                self.embeddings = true;
                true
            }
            _ => {
                let judged = evaluators::find(name)
                    .is_some_and(|spec| spec.kind == EvaluatorKind::Judge)
                    || matches!(name, "GeneralQuality" | "CompareMeaning");
                self.judge |= judged;
                judged
            }
        };
        if calls_endpoint {
            self.judge_calls += times;
        }
    }
}

/// Everything decided about one input before it is scored.
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Plan {
    /// The dialect.
    pub dialect: Dialect,
    /// How its text is laid out.
    pub layout: Layout,
    /// Where a Foundry config comes from.
    pub config: ConfigSource,
    /// The 1-based line of a JSON Lines dataset that is its config (the config line rule), which
    /// is no row.
    pub config_line: Option<usize>,
    /// The formats that apply, the default first.
    pub formats: Vec<OutputFormat>,
    /// What the run will need.
    pub needs: Needs,
    /// Items (M365 items, Foundry rows, Copilot Studio questions).
    pub items: usize,
    /// Turns of M365 threads.
    pub turns: usize,
    /// Report entries: single-turn items, thread turns, rows.
    pub entries: usize,
    /// Whether the dataset already carries results (an M365 document whose items or turns have
    /// `scores` or `status`), which `read_report` opens without scoring.
    pub stored: bool,
}

/// Reads `bytes` (with the host's `config`, if any) and plans the run.
///
/// # Errors
/// As [`dataset::load`]: the text is no dataset, or is invalid as a whole.
pub fn inspect(bytes: &[u8], config: Option<&Value>) -> Result<(Plan, Loaded), InputError> {
    let loaded = dataset::load(bytes, config)?;
    let plan = plan(&loaded, layout(bytes, config.is_some()), config.is_some());
    Ok((plan, loaded))
}

/// The plan of a dataset already read, laid out as `layout`.
pub fn plan(loaded: &Loaded, layout: Layout, config_given: bool) -> Plan {
    let dialect = loaded.dataset.dialect();
    let mut needs = Needs::default();
    let (items, turns, entries) = match &loaded.dataset {
        Dataset::M365(document) => {
            let defaults = resolve::default_plan(document.default_evaluators());
            let mut entries = 0;
            let mut turns = 0;
            for case in document.cases() {
                entries += 1;
                turns += usize::from(case.turn.is_some());
                for planned in resolve::plan(&defaults, case.fields) {
                    needs.add_evaluator(planned.name, &planned.options, 1);
                }
            }
            (document.items().len(), turns, entries)
        }
        Dataset::Foundry(rows) => {
            for criterion in &rows.config.criteria {
                needs.add_evaluator(
                    &criterion.evaluator_name,
                    &criterion.initialization_parameters,
                    rows.rows.len(),
                );
            }
            (rows.rows.len(), 0, rows.rows.len())
        }
        Dataset::CopilotStudio(set) => {
            for row in &set.rows {
                for method in &set.columns.methods {
                    let name = row
                        .fields
                        .get(method.method_type)
                        .map(|name| name.trim())
                        .filter(|name| !name.is_empty())
                        .unwrap_or(dataset::copilot_studio::methods::DEFAULT_METHOD);
                    needs.add_evaluator(name, &Map::new(), 1);
                }
                if set.columns.methods.is_empty() {
                    needs.add_evaluator(
                        dataset::copilot_studio::methods::DEFAULT_METHOD,
                        &Map::new(),
                        1,
                    );
                }
            }
            (set.rows.len(), 0, set.rows.len())
        }
    };
    let config = match dialect {
        Dialect::Foundry if config_given => ConfigSource::Given,
        Dialect::Foundry => ConfigSource::InDataset,
        _ => ConfigSource::NotUsed,
    };
    let config_line = match &loaded.dataset {
        Dataset::Foundry(rows) => rows.config_line,
        _ => None,
    };
    let stored = match &loaded.dataset {
        Dataset::M365(document) => scored::read::m365::is_scored(document.items()),
        _ => false,
    };
    Plan {
        dialect,
        layout,
        config,
        config_line,
        formats: OutputFormat::for_dialect(dialect),
        needs,
        items,
        turns,
        entries,
        stored,
    }
}

#[cfg(test)]
mod tests;
