//! The `RetrievalQuery` evaluator (M365): did the agent issue a retrieval query, for the configured
//! capability, that contains the selector, every `includes` term and no `excludes` term?
//!
//! Reads `diagnostics.retrieval_executions` only. Capability, selector and terms are compared
//! case-insensitively; only `queryString` is searched, never `filterExpression`. Includes may be
//! satisfied across all matched queries (union). See the reference notes §4.4.

pub(super) mod evidence;
pub(super) mod fold;

use crate::json::Value;

use self::evidence::ScopedExecution;
use self::evidence::{array_at, as_object, execution_path, scoped_executions, str_at, Malformed};
use self::fold::{Haystack, Term};
use super::{Evaluator, EvaluatorKind, EvaluatorSpec, OptionSpec};
use crate::inputs::Inputs;
use crate::options::{ConfigError, Options};
use crate::outcome::EvalResult;
use crate::text::phrase::{push_all, push_counted, push_quoted_list};

/// Catalog entry for `RetrievalQuery`.
pub const SPEC: EvaluatorSpec = EvaluatorSpec {
    name: "RetrievalQuery",
    kind: EvaluatorKind::Deterministic,
    inputs: &["diagnostics"],
    needs_response: false,
    m365_reports_score: true,
    options: &[
        OptionSpec {
            name: "capability",
            kind: "string",
            default: "required",
            description: "retrieval capability whose executions are checked (compared case-insensitively), e.g. OneDriveAndSharePoint",
        },
        OptionSpec {
            name: "selector",
            kind: "string",
            default: "required",
            description: "case-insensitive substring a queryString must contain to be checked",
        },
        OptionSpec {
            name: "includes",
            kind: "array of strings",
            default: "[]",
            description: "terms that must each appear in at least one matched queryString",
        },
        OptionSpec {
            name: "excludes",
            kind: "array of strings",
            default: "[]",
            description: "terms that must not appear in any matched queryString",
        },
    ],
    pass_rule: "a matching query exists with every include and no exclude",
    build,
};

const OPTION_NAMES: [&str; 4] = ["capability", "selector", "includes", "excludes"];

fn build(label: &str, options: Options<'_>) -> Result<Box<dyn Evaluator>, ConfigError> {
    options.deny_unknown(&OPTION_NAMES)?;
    Ok(Box::new(RetrievalQuery {
        label: label.to_owned(),
        capability: Term::new(options.required_string("capability")?),
        selector: Term::new(options.required_string("selector")?),
        includes: terms(options.string_list("includes")?),
        excludes: terms(options.string_list("excludes")?),
    }))
}

fn terms(texts: Vec<&str>) -> Vec<Term> {
    texts.into_iter().map(Term::new).collect()
}

/// The schema's `diagnostic_code` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DiagnosticCode {
    Pass,
    NoMatchingQuery,
    RequiredTermsMissing,
    ExcludedTermsFound,
    MixedTermFailure,
    RetrievalFailure,
}

impl DiagnosticCode {
    fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::Pass => "pass",
            DiagnosticCode::NoMatchingQuery => "no_matching_query",
            DiagnosticCode::RequiredTermsMissing => "required_terms_missing",
            DiagnosticCode::ExcludedTermsFound => "excluded_terms_found",
            DiagnosticCode::MixedTermFailure => "mixed_term_failure",
            DiagnosticCode::RetrievalFailure => "retrieval_failure",
        }
    }
}

struct RetrievalQuery {
    label: String,
    capability: Term,
    selector: Term,
    includes: Vec<Term>,
    excludes: Vec<Term>,
}

/// What the scoped queries showed.
struct QueryFindings<'a> {
    queries_checked: usize,
    matched: Vec<&'a str>,
    includes_missing: Vec<&'a str>,
    excludes_found: Vec<&'a str>,
}

impl Evaluator for RetrievalQuery {
    fn evaluate(&self, inputs: &Inputs<'_>) -> EvalResult {
        let scoped =
            match scoped_executions(inputs.get("diagnostics"), Some(&self.capability.folded)) {
                Ok(scoped) => scoped,
                Err(malformed) => return malformed.into_result(&self.label),
            };
        let scoped = match scoped {
            None => {
                return self.retrieval_failure(
                    "No retrieval diagnostics: diagnostics.retrieval_executions is absent"
                        .to_owned(),
                )
            }
            Some(scoped) if scoped.is_empty() => {
                return self.retrieval_failure(format!(
                    "No retrieval execution for capability '{}'",
                    self.capability.original
                ))
            }
            Some(scoped) => scoped,
        };
        match self.inspect(&scoped) {
            Ok(findings) => self.judge(&findings),
            Err(malformed) => malformed.into_result(&self.label),
        }
    }
}

impl RetrievalQuery {
    fn inspect<'a>(
        &'a self,
        scoped: &[ScopedExecution<'a>],
    ) -> Result<QueryFindings<'a>, Malformed> {
        let mut findings = QueryFindings {
            queries_checked: 0,
            matched: Vec::new(),
            includes_missing: Vec::new(),
            excludes_found: Vec::new(),
        };
        let mut include_seen = vec![false; self.includes.len()];
        let mut exclude_seen = vec![false; self.excludes.len()];
        for ScopedExecution { index, execution } in scoped {
            let queries = array_at(execution, "queries", || execution_path(*index, ".queries"))?;
            for (position, query) in queries.iter().enumerate() {
                let query_path = || execution_path(*index, &format!(".queries[{position}]"));
                let query = as_object(query, query_path)?;
                let query_string = str_at(query, "queryString", || {
                    execution_path(*index, &format!(".queries[{position}].queryString"))
                })?;
                let Some(query_string) = query_string else {
                    continue;
                };
                findings.queries_checked += 1;
                let haystack = Haystack::new(query_string);
                if !haystack.contains(&self.selector.folded) {
                    continue;
                }
                findings.matched.push(query_string);
                mark_found(&self.includes, &mut include_seen, &haystack);
                mark_found(&self.excludes, &mut exclude_seen, &haystack);
            }
        }
        findings.includes_missing = select(&self.includes, &include_seen, false);
        findings.excludes_found = select(&self.excludes, &exclude_seen, true);
        Ok(findings)
    }

    fn judge(&self, findings: &QueryFindings<'_>) -> EvalResult {
        let code = match (
            findings.matched.is_empty(),
            findings.includes_missing.is_empty(),
            findings.excludes_found.is_empty(),
        ) {
            (true, _, _) => DiagnosticCode::NoMatchingQuery,
            (false, true, true) => DiagnosticCode::Pass,
            (false, false, true) => DiagnosticCode::RequiredTermsMissing,
            (false, true, false) => DiagnosticCode::ExcludedTermsFound,
            (false, false, false) => DiagnosticCode::MixedTermFailure,
        };
        let reason = self.reason(code, findings);
        self.result(code, reason, findings)
    }

    fn reason(&self, code: DiagnosticCode, findings: &QueryFindings<'_>) -> String {
        let (capability, selector) = (&self.capability.original, &self.selector.original);
        let mut reason = String::with_capacity(96 + capability.len() + selector.len());
        match code {
            DiagnosticCode::Pass => {
                push_counted(&mut reason, findings.matched.len(), "query", "queries");
                push_all(
                    &mut reason,
                    &[
                        " for capability '",
                        capability,
                        "' matched selector '",
                        selector,
                        "' with every required term and no excluded term",
                    ],
                );
            }
            DiagnosticCode::NoMatchingQuery => {
                push_all(
                    &mut reason,
                    &[
                        "No queryString for capability '",
                        capability,
                        "' contains selector '",
                        selector,
                        "' (",
                    ],
                );
                push_counted(&mut reason, findings.queries_checked, "query", "queries");
                reason.push_str(" checked)");
            }
            _ => {
                push_counted(&mut reason, findings.matched.len(), "query", "queries");
                push_all(&mut reason, &[" matched selector '", selector, "'"]);
                if !findings.includes_missing.is_empty() {
                    reason.push_str("; required terms missing: ");
                    push_quoted_list(&mut reason, &findings.includes_missing);
                }
                if !findings.excludes_found.is_empty() {
                    reason.push_str("; excluded terms found: ");
                    push_quoted_list(&mut reason, &findings.excludes_found);
                }
            }
        }
        reason
    }

    fn retrieval_failure(&self, reason: String) -> EvalResult {
        let findings = QueryFindings {
            queries_checked: 0,
            matched: Vec::new(),
            includes_missing: Vec::new(),
            excludes_found: Vec::new(),
        };
        self.result(DiagnosticCode::RetrievalFailure, reason, &findings)
    }

    fn result(
        &self,
        code: DiagnosticCode,
        reason: String,
        findings: &QueryFindings<'_>,
    ) -> EvalResult {
        let passed = code == DiagnosticCode::Pass;
        EvalResult::scored(&self.label, passed, if passed { 1.0 } else { 0.0 }, 1.0)
            .with_reason(reason)
            .with_detail("diagnostic_code", code.as_str())
            .with_detail("matched_queries", strings(&findings.matched))
            .with_detail("includes_missing", strings(&findings.includes_missing))
            .with_detail("excludes_found", strings(&findings.excludes_found))
    }
}

fn mark_found(terms: &[Term], seen: &mut [bool], haystack: &Haystack<'_>) {
    for (term, seen) in terms.iter().zip(seen.iter_mut()) {
        if !*seen && haystack.contains(&term.folded) {
            *seen = true;
        }
    }
}

fn select<'a>(terms: &'a [Term], seen: &[bool], wanted: bool) -> Vec<&'a str> {
    terms
        .iter()
        .zip(seen)
        .filter(|(_, seen)| **seen == wanted)
        .map(|(term, _)| term.original.as_str())
        .collect()
}

fn strings(texts: &[&str]) -> Value {
    Value::Array(texts.iter().map(|text| Value::from(*text)).collect())
}

#[cfg(test)]
mod tests;
