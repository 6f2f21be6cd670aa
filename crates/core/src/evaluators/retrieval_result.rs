//! The `RetrievalResult` evaluator (M365): did the retrieval for the configured capability (or,
//! without one, every retrieval execution, as the evaluator reference's example configures it;
//! `schema::advisories` warns) return hits, within `max_rank`, whose extracts contain every
//! expected text (and at least `min_expected_count` hits)?
//!
//! Deterministic matching is the schema 1.5 rule (case-insensitive substring of any
//! `extracts[].text`). `"match": "entailment"` (the schema ≥1.6 rule) asks an LLM judge, in one
//! call per item, which hits entail each expected item (`judged::entailment`); without a judge it
//! is `skipped`. See the reference notes §4.5.

use crate::json::{Map, Value};

use super::judged::entailment::{self, ShownHit};
use super::retrieval_query::evidence::{
    array_at, as_object, execution_path, int_at, scoped_executions, str_at, Malformed,
    ScopedExecution,
};
use super::retrieval_query::fold::{Haystack, Term};
use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::judge::JudgeCall;
use crate::options::{json_type_name, ConfigError, Options};
use crate::outcome::EvalResult;
use crate::sorting;
use crate::text::phrase::{push_count, push_counted, push_quoted_list};

/// Catalog entry for `RetrievalResult`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "RetrievalResult",
    kind: EvaluatorKind::Deterministic,
    inputs: &["diagnostics"],
    needs_response: false,
    m365_reports_score: true,
    options: &[
        OptionSpec {
            name: "capability",
            kind: "string",
            default: "every execution",
            description: "retrieval capability whose hits are checked (compared case-insensitively); without it every retrieval execution is searched, with a warning",
        },
        OptionSpec {
            name: "max_rank",
            kind: "integer >=1",
            default: "10",
            description: "only hits with rank <= max_rank are candidates (ranks are 1-based)",
        },
        OptionSpec {
            name: "min_expected_count",
            kind: "integer >=1",
            default: "none",
            description: "minimum number of candidate hits; required unless expected_items is given",
        },
        OptionSpec {
            name: "expected_items",
            kind: "array of {retrievalExtract_contains: string}",
            default: "none",
            description: "texts that must each occur (case-insensitively) in an extract of a candidate hit; required unless min_expected_count is given",
        },
        OptionSpec {
            name: "match",
            kind: "\"substring\" | \"entailment\"",
            default: "\"substring\"",
            description: "substring: schema 1.5 rule; entailment: an LLM judge decides, one call per item (skipped when no judge is configured)",
        },
    ],
    pass_rule: "every expected item matched within max_rank and the count check holds",
    build,
};

const OPTION_NAMES: [&str; 5] = [
    "capability",
    "max_rank",
    "min_expected_count",
    "expected_items",
    "match",
];
const EXPECTED_TEXT_KEY: &str = "retrievalExtract_contains";

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&OPTION_NAMES)?;
    let capability = options.string("capability")?.map(Term::new);
    let max_rank = options.integer_at_least("max_rank", 10, 1)?;
    let min_expected_count = match options.get("min_expected_count") {
        None => None,
        Some(_) => Some(options.integer_at_least("min_expected_count", 1, 1)?),
    };
    let expected_items = expected_items(options.get("expected_items"))?;
    if expected_items.is_empty() && min_expected_count.is_none() {
        return Err(ConfigError::new(
            "RetrievalResult needs `expected_items` or `min_expected_count` (or both)",
        ));
    }
    let entailment = match options.string("match")? {
        None | Some("substring") => false,
        Some("entailment") => true,
        Some(other) => {
            return Err(ConfigError::new(format!(
                "option `match` must be \"substring\" or \"entailment\", got \"{other}\""
            )))
        }
    };
    Ok(Box::new(RetrievalResult {
        label: label.to_owned(),
        capability,
        max_rank,
        min_expected_count: min_expected_count.and_then(|count| usize::try_from(count).ok()),
        expected_items,
        entailment,
    }))
}

fn expected_items(value: Option<&Value>) -> Result<Vec<Term>, ConfigError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let items = value.as_array().filter(|items| !items.is_empty()).ok_or_else(|| {
        ConfigError::new(format!(
            "option `expected_items` must be a non-empty array of {{\"{EXPECTED_TEXT_KEY}\": string}} objects, got {value}"
        ))
    })?;
    items
        .iter()
        .enumerate()
        .map(|(index, item)| expected_item(index, item))
        .collect()
}

fn expected_item(index: usize, item: &Value) -> Result<Term, ConfigError> {
    let at = format!("option `expected_items[{index}]`");
    let object = item.as_object().ok_or_else(|| {
        ConfigError::new(format!(
            "{at} must be an object, got {}",
            json_type_name(item)
        ))
    })?;
    if object.contains_key("webUrl") {
        return Err(ConfigError::new(format!(
            "{at}: `webUrl` is not supported (URL-based matching is not supported in V1); use `{EXPECTED_TEXT_KEY}` with a distinctive phrase"
        )));
    }
    if let Some(key) = object.keys().find(|key| key.as_str() != EXPECTED_TEXT_KEY) {
        return Err(ConfigError::new(format!(
            "{at}: unknown key `{key}`; expected `{EXPECTED_TEXT_KEY}`"
        )));
    }
    match object.get(EXPECTED_TEXT_KEY).and_then(Value::as_str) {
        Some(text) if !text.is_empty() => Ok(Term::new(text)),
        _ => Err(ConfigError::new(format!(
            "{at}: `{EXPECTED_TEXT_KEY}` is required and must be a non-empty string"
        ))),
    }
}

/// The schema's `diagnostic_code` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DiagnosticCode {
    Pass,
    NotRetrieved,
    CountBelowMinimum,
    Error,
}

impl DiagnosticCode {
    fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::Pass => "pass",
            DiagnosticCode::NotRetrieved => "not_retrieved",
            DiagnosticCode::CountBelowMinimum => "count_below_minimum",
            DiagnosticCode::Error => "error",
        }
    }
}

#[derive(Clone)]
struct RetrievalResult {
    label: String,
    /// `None`: every retrieval execution is searched.
    capability: Option<Term>,
    max_rank: i64,
    min_expected_count: Option<usize>,
    expected_items: Vec<Term>,
    entailment: bool,
}

/// A hit within `max_rank`; its extracts are `Hits::extracts[extracts]`.
struct Candidate<'a> {
    rank: i64,
    url: Option<&'a str>,
    extracts: std::ops::Range<usize>,
}

/// Where the hits came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HitSource {
    /// The item has no `diagnostics.retrieval_executions`.
    NoDiagnostics,
    /// No execution is for the configured capability.
    NoExecution,
    /// The scoped executions.
    Executions,
}

/// All hits of the scoped executions: how many there were, and the candidates among them.
struct Hits<'a> {
    total: usize,
    candidates: Vec<Candidate<'a>>,
    extracts: Vec<Haystack<'a>>,
    /// The extracts' text as written, parallel to `extracts` (shown to an entailment judge).
    texts: Vec<&'a str>,
    source: HitSource,
}

impl Evaluator for RetrievalResult {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        if self.entailment {
            return EvalResult::skipped(
                &self.label,
                "no judge configured: `match: \"entailment\"` needs an LLM judge",
            );
        }
        match self.hits(inputs.get("diagnostics")) {
            Ok(hits) => self.by_substring(&hits),
            Err(malformed) => malformed.into_result(&self.label),
        }
    }

    fn judge(&self, inputs: &Inputs<'_>) -> Option<Result<JudgeCall, Box<EvalResult>>> {
        self.entailment.then(|| self.entailment_call(inputs))
    }
}

impl RetrievalResult {
    /// The judge call asking which candidates entail each expected item, or the result reached
    /// without one: malformed diagnostics, no expected item (the count alone decides), or no
    /// candidate to ask about.
    fn entailment_call(&self, inputs: &Inputs<'_>) -> Result<JudgeCall, Box<EvalResult>> {
        let hits = self
            .hits(inputs.get("diagnostics"))
            .map_err(|malformed| Box::new(malformed.into_result(&self.label)))?;
        if self.expected_items.is_empty() || hits.candidates.is_empty() {
            return Err(Box::new(self.by_substring(&hits)));
        }
        let shown: Vec<ShownHit<'_>> = hits
            .candidates
            .iter()
            .map(|candidate| ShownHit {
                rank: candidate.rank,
                url: candidate.url,
                extracts: hits
                    .texts
                    .get(candidate.extracts.clone())
                    .unwrap_or_default()
                    .to_vec(),
            })
            .collect();
        let items: Vec<&str> = self
            .expected_items
            .iter()
            .map(|item| item.original.as_str())
            .collect();
        let evaluator = self.clone();
        let (total, source) = (hits.total, hits.source);
        let candidates: Vec<(i64, Option<String>)> = hits
            .candidates
            .iter()
            .map(|candidate| (candidate.rank, candidate.url.map(str::to_owned)))
            .collect();
        let finish = move |matches: &[Option<usize>]| {
            evaluator.verdict(total, source, candidates.len(), matches, |index| {
                candidates
                    .get(index)
                    .map(|(rank, url)| (*rank, url.as_deref()))
            })
        };
        Ok(entailment::call(
            &self.label,
            &items,
            &shown,
            std::sync::Arc::new(finish),
        ))
    }
}

impl RetrievalResult {
    /// The hits of the scoped executions, or why there are none to look at.
    fn hits<'a>(&self, diagnostics: Option<&'a Value>) -> Result<Hits<'a>, Malformed> {
        let mut hits = Hits {
            total: 0,
            candidates: Vec::new(),
            extracts: Vec::new(),
            texts: Vec::new(),
            source: HitSource::Executions,
        };
        let capability = self.capability.as_ref().map(|term| term.folded.as_str());
        let scoped = match scoped_executions(diagnostics, capability)? {
            None => {
                hits.source = HitSource::NoDiagnostics;
                return Ok(hits);
            }
            Some(scoped) if scoped.is_empty() => {
                hits.source = HitSource::NoExecution;
                return Ok(hits);
            }
            Some(scoped) => scoped,
        };
        for ScopedExecution { index, execution } in &scoped {
            self.collect_hits(*index, execution, &mut hits)?;
        }
        sorting::sort_stable_by_key(&mut hits.candidates, |candidate| candidate.rank);
        Ok(hits)
    }

    /// The reason given with diagnostic code `error`.
    fn no_hits_reason(&self, source: HitSource) -> String {
        match source {
            HitSource::NoDiagnostics => {
                "No retrieval diagnostics: diagnostics.retrieval_executions is absent".to_owned()
            }
            HitSource::NoExecution => match &self.capability {
                Some(capability) => format!(
                    "No retrieval execution for capability '{}'",
                    capability.original
                ),
                None => "No retrieval execution in diagnostics.retrieval_executions".to_owned(),
            },
            HitSource::Executions => match &self.capability {
                Some(capability) => format!(
                    "Capability '{}' returned no retrieval hits",
                    capability.original
                ),
                None => "The retrieval executions returned no hits".to_owned(),
            },
        }
    }

    fn collect_hits<'a>(
        &self,
        index: usize,
        execution: &'a Map<String, Value>,
        hits: &mut Hits<'a>,
    ) -> Result<(), Malformed> {
        let hit_values = array_at(execution, "retrievalHits", || {
            execution_path(index, ".retrievalHits")
        })?;
        for (position, hit) in hit_values.iter().enumerate() {
            let hit_path = |suffix: &str| {
                execution_path(index, &format!(".retrievalHits[{position}]{suffix}"))
            };
            let hit = as_object(hit, || hit_path(""))?;
            hits.total += 1;
            let Some(rank) = int_at(hit, "rank", || hit_path(".rank"))? else {
                continue;
            };
            if rank > self.max_rank {
                continue;
            }
            let url = str_at(hit, "webUrl", || hit_path(".webUrl"))?;
            let extract_values = array_at(hit, "extracts", || hit_path(".extracts"))?;
            let first_extract = hits.extracts.len();
            for (number, extract) in extract_values.iter().enumerate() {
                let extract_path = || hit_path(&format!(".extracts[{number}]"));
                let extract = as_object(extract, extract_path)?;
                let text = str_at(extract, "text", || {
                    hit_path(&format!(".extracts[{number}].text"))
                })?;
                if let Some(text) = text {
                    hits.extracts.push(Haystack::new(text));
                    hits.texts.push(text);
                }
            }
            hits.candidates.push(Candidate {
                rank,
                url,
                extracts: first_extract..hits.extracts.len(),
            });
        }
        Ok(())
    }

    /// The result when each expected item is matched by a hit whose extract contains it.
    fn by_substring(&self, hits: &Hits<'_>) -> EvalResult {
        let matches: Vec<Option<usize>> = self
            .expected_items
            .iter()
            .map(|item| {
                hits.candidates.iter().position(|candidate| {
                    hits.extracts
                        .get(candidate.extracts.clone())
                        .unwrap_or_default()
                        .iter()
                        .any(|extract| extract.contains(&item.folded))
                })
            })
            .collect();
        self.verdict(
            hits.total,
            hits.source,
            hits.candidates.len(),
            &matches,
            |index| {
                hits.candidates
                    .get(index)
                    .map(|candidate| (candidate.rank, candidate.url))
            },
        )
    }

    /// The result from the hits: `total` of them, `evaluated` candidates within `max_rank`
    /// (`candidate` gives one's rank and URL), and for each expected item the candidate that
    /// matched it.
    fn verdict<'c>(
        &self,
        total: usize,
        source: HitSource,
        evaluated: usize,
        matches: &[Option<usize>],
        candidate: impl Fn(usize) -> Option<(i64, Option<&'c str>)>,
    ) -> EvalResult {
        let mut matched_items = Vec::new();
        let mut missing_items = Vec::new();
        let mut missing_texts = Vec::new();
        let mut missing_reason = None;
        for (item, found) in self.expected_items.iter().zip(matches) {
            match found.and_then(&candidate) {
                Some(candidate) => matched_items.push(matched_item(item, candidate)),
                None => {
                    missing_texts.push(item.original.as_str());
                    let reason =
                        missing_reason.get_or_insert_with(|| self.missing_reason(evaluated));
                    missing_items.push(missing_item(item, reason));
                }
            }
        }
        let count_ok = !matches!(self.min_expected_count, Some(minimum) if evaluated < minimum);
        let code = if total == 0 {
            DiagnosticCode::Error
        } else if !count_ok {
            DiagnosticCode::CountBelowMinimum
        } else if !missing_items.is_empty() {
            DiagnosticCode::NotRetrieved
        } else {
            DiagnosticCode::Pass
        };
        let passed = code == DiagnosticCode::Pass;
        let score = if self.expected_items.is_empty() {
            if passed {
                1.0
            } else {
                0.0
            }
        } else {
            matched_items.len() as f64 / self.expected_items.len() as f64
        };
        let reason = if code == DiagnosticCode::Error {
            self.no_hits_reason(source)
        } else {
            self.reason(evaluated, matched_items.len(), &missing_texts, count_ok)
        };
        let extract_failures = if evaluated > 0 {
            missing_items.clone()
        } else {
            Vec::new()
        };
        EvalResult::scored(&self.label, passed, score, 1.0)
            .with_reason(reason)
            .with_detail("diagnostic_code", code.as_str())
            .with_detail("results_evaluated", evaluated)
            .with_detail("matched_items", matched_items)
            .with_detail("missing_items", missing_items)
            .with_detail("extract_failures", extract_failures)
    }

    /// Why an expected item counts as missing, the same for every missing item.
    fn missing_reason(&self, evaluated: usize) -> String {
        let mut reason = String::with_capacity(64);
        if evaluated == 0 {
            reason.push_str("No retrieval hits within rank ");
        } else {
            reason.push_str("Not found in the extracts of the ");
            push_counted(&mut reason, evaluated, "hit", "hits");
            reason.push_str(" within rank ");
        }
        push_count(&mut reason, self.max_rank);
        reason
    }

    fn reason(&self, evaluated: usize, matched: usize, missing: &[&str], count_ok: bool) -> String {
        let mut reason = String::with_capacity(128);
        let expected = self.expected_items.len();
        if expected > 0 {
            if missing.is_empty() {
                reason.push_str("All ");
            } else {
                push_count(&mut reason, matched);
                reason.push_str(" of ");
            }
            push_counted(&mut reason, expected, "expected item", "expected items");
            reason.push_str(" found within rank ");
            push_count(&mut reason, self.max_rank);
            if !missing.is_empty() {
                reason.push_str("; missing: ");
                push_quoted_list(&mut reason, missing);
            }
            reason.push_str("; ");
        }
        let starts_the_reason = reason.is_empty();
        match self.min_expected_count {
            Some(minimum) => {
                if !count_ok {
                    reason.push_str(if starts_the_reason { "Only " } else { "only " });
                }
                push_counted(&mut reason, evaluated, "result", "results");
                reason.push_str(" within rank ");
                push_count(&mut reason, self.max_rank);
                reason.push_str(" (minimum ");
                push_count(&mut reason, minimum);
                reason.push(')');
            }
            None => {
                push_counted(&mut reason, evaluated, "result", "results");
                reason.push_str(" evaluated");
            }
        }
        reason
    }
}

fn missing_item(item: &Term, reason: &str) -> Value {
    let mut object = Map::with_capacity(2);
    object.insert(
        "extractMatch".to_owned(),
        Value::from(item.original.as_str()),
    );
    object.insert("reason".to_owned(), Value::from(reason));
    Value::Object(object)
}

fn matched_item(item: &Term, (rank, url): (i64, Option<&str>)) -> Value {
    let mut object = Map::with_capacity(3);
    object.insert(
        "extractMatch".to_owned(),
        Value::from(item.original.as_str()),
    );
    if let Some(url) = url {
        object.insert("matchedHitUrl".to_owned(), Value::from(url));
    }
    object.insert("matchedHitRank".to_owned(), Value::from(rank));
    Value::Object(object)
}

#[cfg(test)]
mod tests;
