//! JUnit XML output: one test suite, one test case per item (or turn) and evaluator.
//!
//! `classname` is `item-N` or `item-N.turn-M` (0-based), `name` the evaluator. A fail is a
//! `<failure>`, an error an `<error type="<code>">`, a skip a `<skipped>`. An item that could not be
//! scored (`problem`) adds one test case named `item` with `<error type="invalidItem">`. On a
//! reviewed entry each test case carries its review as `<properties>` (`review.needs_review`,
//! `review.entry_comment`, and the reviewer's `review.verdict`, `review.comment`,
//! `review.reviewer`, `review.at` on that evaluator); the outcome element stays the evaluator's. All text is
//! XML-escaped and characters XML 1.0 forbids are dropped. No IO.

use crate::outcome::{EvalResult, Verdict};

use super::format;
use super::{CaseOutcome, RunReport};

/// `type` of the error test case written for an item that could not be scored.
pub const INVALID_ITEM_TYPE: &str = "invalidItem";

/// The report as a JUnit XML document whose suite is called `suite_name`.
pub fn write(report: &RunReport, suite_name: &str) -> String {
    let mut cases = String::new();
    let mut counts = Counts::default();
    for outcome in &report.items {
        let classname = format::case_label(outcome.index, outcome.turn);
        if let Some(problem) = &outcome.problem {
            counts.tests += 1;
            counts.errors += 1;
            cases.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"item\">\n      <error type=\"{INVALID_ITEM_TYPE}\" message=\"{}\"/>\n    </testcase>\n",
                attribute(&classname),
                attribute(problem),
            ));
        }
        for result in &outcome.results {
            counts.add(result.result);
            cases.push_str(&test_case(&classname, outcome, result));
        }
    }
    let counts_attributes = format!(
        "tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"",
        counts.tests, counts.failures, counts.errors, counts.skipped
    );
    let name = attribute(suite_name);
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"{name}\" {counts_attributes}>\n  <testsuite name=\"{name}\" {counts_attributes}>\n{cases}  </testsuite>\n</testsuites>\n"
    )
}

#[derive(Default)]
struct Counts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
}

impl Counts {
    fn add(&mut self, verdict: Verdict) {
        self.tests += 1;
        match verdict {
            Verdict::Pass => {}
            Verdict::Fail => self.failures += 1,
            Verdict::Error => self.errors += 1,
            Verdict::Skipped => self.skipped += 1,
        }
    }
}

fn test_case(classname: &str, outcome: &CaseOutcome, result: &EvalResult) -> String {
    let open = format!(
        "    <testcase classname=\"{}\" name=\"{}\"",
        attribute(classname),
        attribute(&result.evaluator)
    );
    let reason = result.reason.as_deref().unwrap_or("");
    let properties = review_properties(outcome, result);
    let body = match result.result {
        Verdict::Pass if properties.is_empty() => return format!("{open}/>\n"),
        Verdict::Pass => String::new(),
        Verdict::Fail => {
            let message = if reason.is_empty() { "fail" } else { reason };
            format!(
                "      <failure message=\"{}\" type=\"fail\">{}</failure>\n",
                attribute(message),
                text(&failure_details(outcome, result))
            )
        }
        Verdict::Error => {
            let (code, message) = result
                .error
                .as_ref()
                .map_or(("evaluatorError", reason), |error| {
                    (error.code.as_str(), error.message.as_str())
                });
            format!(
                "      <error type=\"{}\" message=\"{}\"/>\n",
                attribute(code),
                attribute(message)
            )
        }
        Verdict::Skipped => format!("      <skipped message=\"{}\"/>\n", attribute(reason)),
    };
    format!("{open}>\n{properties}{body}    </testcase>\n")
}

/// The `<properties>` of a test case on a reviewed entry: `review.needs_review` and
/// `review.comment` of the entry, then the reviewer's `review.verdict`, `review.comment`,
/// `review.reviewer` and `review.at` on this result; empty without a review.
fn review_properties(outcome: &CaseOutcome, result: &EvalResult) -> String {
    let Some(review) = &outcome.review else {
        return String::new();
    };
    let mut properties: Vec<(&str, &str)> = Vec::new();
    if review.needs_review {
        properties.push(("review.needs_review", "true"));
    }
    if let Some(comment) = &review.comment {
        properties.push(("review.entry_comment", comment));
    }
    if let Some(entry) = review.override_of(&result.evaluator) {
        properties.push(("review.verdict", entry.verdict.as_str()));
        properties.push(("review.comment", &entry.comment));
        properties.extend(
            entry
                .reviewer
                .as_deref()
                .map(|who| ("review.reviewer", who)),
        );
        properties.extend(entry.at.as_deref().map(|at| ("review.at", at)));
    }
    if properties.is_empty() {
        return String::new();
    }
    let mut written = String::from("      <properties>\n");
    for (name, value) in properties {
        written.push_str(&format!(
            "        <property name=\"{name}\" value=\"{}\"/>\n",
            attribute(value)
        ));
    }
    written.push_str("      </properties>\n");
    written
}

fn failure_details(outcome: &CaseOutcome, result: &EvalResult) -> String {
    let mut lines = Vec::new();
    if let Some(score) = result.score {
        lines.push(format!("score: {}", format::number(score)));
    }
    if let Some(threshold) = result.threshold {
        lines.push(format!("threshold: {}", format::number(threshold)));
    }
    if let Some(reason) = &result.reason {
        lines.push(format!("reason: {reason}"));
    }
    if let Some(status) = outcome.status {
        lines.push(format!("item status: {}", status.as_str()));
    }
    lines.join("\n")
}

/// Whether XML 1.0 allows `c` at all (`Char` production; Rust chars are never surrogates).
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Escaped element text.
fn text(raw: &str) -> String {
    escape(raw, false)
}

/// Escaped attribute value; quotes and whitespace are written as character references so
/// parsers keep them.
fn attribute(raw: &str) -> String {
    escape(raw, true)
}

fn escape(raw: &str, in_attribute: bool) -> String {
    let mut escaped = String::with_capacity(raw.len());
    for c in raw.chars().filter(|c| is_xml_char(*c)) {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' if in_attribute => escaped.push_str("&quot;"),
            '\'' if in_attribute => escaped.push_str("&apos;"),
            '\n' if in_attribute => escaped.push_str("&#10;"),
            '\r' if in_attribute => escaped.push_str("&#13;"),
            '\t' if in_attribute => escaped.push_str("&#9;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_characters_xml_forbids() {
        assert_eq!(text("a\u{0}b\u{8}c\u{FFFE}d\u{1F600}"), "abcd\u{1F600}");
        assert_eq!(
            attribute("\"x\"\n\t'y'"),
            "&quot;x&quot;&#10;&#9;&apos;y&apos;"
        );
        assert_eq!(text("]]> & <"), "]]&gt; &amp; &lt;");
    }
}
