//! Markdown summary: the run's status counts, a per-evaluator table, the reviews (when any entry
//! has one: the counts, then each reviewed entry's notes and overrides beside the evaluators'
//! verdicts), and the items that did not pass with their reasons.
//!
//! Dataset and agent text is untrusted, and this output is rendered where it lands (CI job
//! summaries, pull-request comments): nothing from the data may become a link, an image, HTML or
//! formatting. Cells backslash-escape the punctuation that opens Markdown constructs (`|`, `\`,
//! `` ` ``, `*`, `_`, `~`, `[`, `]`, `(`, `)`, `!`, `#`, `:` and `@`, which also breaks GitHub's bare
//! `https://` and e-mail autolinks, and the `.` of a `www.` one), write `<`, `>`, `&` as entities
//! (renderers pass raw HTML through), show control characters as `\x1b`-style text and fold line
//! breaks into one space. No IO.

use crate::outcome::Verdict;
use crate::status::ItemStatus;

use super::format;
use super::{CaseOutcome, RunReport};

/// The report as a Markdown document.
pub fn write(report: &RunReport) -> String {
    let summary = &report.summary;
    let mut output = String::from("# agenteval results\n\n");
    output.push_str("| items | pass | fail | partial | error |\n|---:|---:|---:|---:|---:|\n");
    output.push_str(&format!(
        "| {} | {} | {} | {} | {} |\n\n",
        summary.items, summary.pass, summary.fail, summary.partial, summary.error
    ));
    output.push_str("## Evaluators\n\n");
    if summary.per_evaluator().is_empty() {
        output.push_str("No evaluator ran.\n");
    } else {
        output.push_str(
            "| evaluator | pass | fail | error | skipped | pass rate | mean | min | max |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        );
        for (name, tally) in summary.per_evaluator() {
            output.push_str(&format!(
                "| {} | {} |\n",
                cell(name),
                format::tally_cells(tally).join(" | ")
            ));
        }
    }
    output.push_str(&judge_section(report));
    output.push_str(&review_section(report));
    let problems: Vec<&CaseOutcome> = report
        .items
        .iter()
        .filter(|outcome| {
            matches!(
                outcome.status,
                Some(ItemStatus::Fail | ItemStatus::Partial | ItemStatus::Error)
            ) || outcome.problem.is_some()
        })
        .collect();
    output.push_str("\n## Items that did not pass\n\n");
    if problems.is_empty() {
        output.push_str("None.\n");
    }
    for outcome in problems {
        output.push_str(&item_section(outcome));
    }
    output
}

/// The judge's figures and each judged evaluator's tokens; empty without a judge.
fn judge_section(report: &RunReport) -> String {
    let Some(rows) = format::judge_rows(report) else {
        return String::new();
    };
    let mut section = String::from("\n## Judge\n\n| | |\n|---|---|\n");
    for (label, value) in rows {
        section.push_str(&format!("| {label} | {} |\n", cell(&value)));
    }
    let tokens = format::token_rows(report);
    if !tokens.is_empty() {
        section.push_str(
            "\n| evaluator | prompt tokens | completion tokens | total tokens |\n|---|---:|---:|---:|\n",
        );
        for (name, [prompt, completion, total]) in tokens {
            section.push_str(&format!(
                "| {} | {prompt} | {completion} | {total} |\n",
                cell(name)
            ));
        }
    }
    section
}

/// The review counts and each reviewed entry: its notes, then each override beside the
/// evaluator's verdict; empty when no entry was reviewed.
fn review_section(report: &RunReport) -> String {
    let Some(counts) = report.summary.review.describe() else {
        return String::new();
    };
    let mut section = format!("\n## Review\n\n{}\n\n", cell(&counts));
    for outcome in &report.items {
        let Some(review) = &outcome.review else {
            continue;
        };
        section.push_str(&format!(
            "- **{}**\n",
            format::case_label(outcome.index, outcome.turn)
        ));
        for note in format::review_notes(review) {
            section.push_str(&format!("  - {}\n", cell(&note)));
        }
        for entry in &review.overrides {
            let original = outcome
                .results
                .iter()
                .find(|result| result.evaluator == entry.evaluator)
                .map(|result| result.result);
            section.push_str(&format!(
                "  - {}: {}\n",
                cell(&entry.evaluator),
                cell(&format::override_text(original, entry))
            ));
        }
    }
    section
}

fn item_section(outcome: &CaseOutcome) -> String {
    let status = outcome.status.map_or("no status", ItemStatus::as_str);
    let mut section = format!(
        "- **{}** — {}\n",
        format::case_label(outcome.index, outcome.turn),
        status
    );
    if let Some(problem) = &outcome.problem {
        section.push_str(&format!("  - item problem: {}\n", cell(problem)));
    }
    for result in &outcome.results {
        let line = match result.result {
            Verdict::Pass | Verdict::Skipped => continue,
            Verdict::Fail => {
                let mut line = format!("  - {}: fail", cell(&result.evaluator));
                if let Some(score) = result.score {
                    line.push_str(&format!(" (score {}", format::rounded(score)));
                    if let Some(threshold) = result.threshold {
                        line.push_str(&format!(", threshold {}", format::rounded(threshold)));
                    }
                    line.push(')');
                }
                if let Some(reason) = &result.reason {
                    line.push_str(&format!(" — {}", cell(reason)));
                }
                line
            }
            Verdict::Error => match &result.error {
                Some(error) => format!(
                    "  - {}: error `{}` — {}",
                    cell(&result.evaluator),
                    error.code.as_str(),
                    cell(&error.message)
                ),
                None => format!("  - {}: error", cell(&result.evaluator)),
            },
        };
        section.push_str(&line);
        section.push('\n');
    }
    section
}

/// Untrusted text made safe for a table cell or list line.
pub(crate) fn cell(raw: &str) -> String {
    let mut escaped = String::with_capacity(raw.len());
    let mut previous_was_break = false;
    for c in raw.chars() {
        let is_break = c == '\n' || c == '\r';
        match c {
            '\n' | '\r' if previous_was_break => {}
            '\n' | '\r' => escaped.push(' '),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '&' => escaped.push_str("&amp;"),
            '|' | '\\' | '`' | '*' | '_' | '~' | '[' | ']' | '(' | ')' | '!' | '#' | ':' | '@' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '.' if ends_with_www(&escaped) => escaped.push_str("\\."),
            c if c.is_control()
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') =>
            {
                escaped.push_str(&format!("\\x{{{:x}}}", u32::from(c)));
            }
            _ => escaped.push(c),
        }
        previous_was_break = is_break;
    }
    escaped
}

fn ends_with_www(text: &str) -> bool {
    text.len() >= 3
        && text
            .get(text.len() - 3..)
            .is_some_and(|tail| tail.eq_ignore_ascii_case("www"))
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn nothing_from_the_data_becomes_a_link_an_image_or_html() {
        assert_eq!(
            cell("![b](http://evil.example/beacon.png)"),
            "\\!\\[b\\]\\(http\\://evil.example/beacon.png\\)"
        );
        assert_eq!(
            cell("[click](javascript:alert(1))"),
            "\\[click\\]\\(javascript\\:alert\\(1\\)\\)"
        );
        assert_eq!(
            cell("see https://evil.example"),
            "see https\\://evil.example"
        );
        assert_eq!(
            cell("www.evil.example and WWW.x"),
            "www\\.evil.example and WWW\\.x"
        );
        assert_eq!(cell("mail a@b.example"), "mail a\\@b.example");
        assert_eq!(
            cell("<img src=x onerror=alert(1)>"),
            "&lt;img src=x onerror=alert\\(1\\)&gt;"
        );
        assert_eq!(cell("name\u{1b}[2J\u{7}"), "name\\x{1b}\\[2J\\x{7}");
        assert_eq!(
            cell("_em_ ~~del~~ **b** # h"),
            "\\_em\\_ \\~\\~del\\~\\~ \\*\\*b\\*\\* \\# h"
        );
        assert_eq!(cell("line one\r\nline two"), "line one line two");
    }
}
