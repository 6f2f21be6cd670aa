//! The comparison written out: JSON (the contract, `docs/formats.md`), Markdown and a
//! self-contained HTML page, the same table in both with Foundry's colours (improved green,
//! degraded red, strong darker than weak, changed blue, inconclusive grey) and a plain sentence
//! when nothing differs significantly. Item keys and evaluator names are untrusted text: escaped
//! as the run report's writers escape them. Decides nothing.

use super::model::{
    Comparison, Effect, Metric, MetricName, MetricType, PairingSummary, Side, Strength,
};
use super::pairing::PairingKey;
use crate::report::{format, html, markdown};
use crate::text::decimal;

/// The formats a comparison is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The JSON contract.
    Json,
    /// A Markdown summary.
    Markdown,
    /// A standalone HTML page.
    Html,
}

impl Format {
    /// `json`, `md` (or `markdown`) or `html`.
    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "json" => Some(Format::Json),
            "md" | "markdown" => Some(Format::Markdown),
            "html" => Some(Format::Html),
            _ => None,
        }
    }
}

/// `comparison` in `format`.
pub fn render(comparison: &Comparison, format: Format) -> String {
    match format {
        Format::Json => json(comparison),
        Format::Markdown => markdown(comparison),
        Format::Html => html(comparison),
    }
}

/// The JSON contract, compact (a comparison lists every paired item), with a final newline.
pub fn json(comparison: &Comparison) -> String {
    let mut text = serde_json::to_string(comparison).unwrap_or_default();
    text.push('\n');
    text
}

/// Writes [`render`]'s text to `out`, the JSON as it is produced, without holding it.
///
/// # Errors
/// Whatever `out` returns.
pub fn write(
    comparison: &Comparison,
    format: Format,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer(&mut *out, comparison).map_err(std::io::Error::from)?;
            out.write_all(b"\n")
        }
        Format::Markdown | Format::Html => out.write_all(render(comparison, format).as_bytes()),
    }
}

/// The sentence said when no metric differs significantly.
pub const NOTHING_SIGNIFICANT: &str =
    "No metric differs significantly between the two runs (p > 0.05, or too few pairs to tell).";

const HEADERS: [&str; 12] = [
    "Evaluator",
    "Metric",
    "Type",
    "n",
    "Excluded",
    "Baseline",
    "Candidate",
    "Δ",
    "p",
    "Effect",
    "Flips (pass→fail / fail→pass)",
    "Detectable Δ (80 % power)",
];

/// The Markdown summary.
pub fn markdown(comparison: &Comparison) -> String {
    let mut text = format!(
        "# Comparison: {} → {}\n\n{}\n\n",
        markdown::cell(&comparison.baseline.name),
        markdown::cell(&comparison.candidate.name),
        pairing_sentence(&comparison.pairing)
    );
    text.push_str(&format!("| {} |\n", HEADERS.join(" | ")));
    text.push_str(&format!("|{}\n", "---|".repeat(HEADERS.len())));
    for metric in &comparison.metrics {
        let mut cells = cells(metric);
        cells[0] = markdown::cell(&metric.evaluator);
        cells[9] = format!("{} {}", marker(metric), cells[9]);
        text.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    if !comparison.any_significant() {
        text.push_str(&format!("\n{NOTHING_SIGNIFICANT}\n"));
    }
    if !comparison.pairing.unmatched.is_empty() {
        text.push_str("\n## Unmatched items\n\n");
        for item in &comparison.pairing.unmatched {
            text.push_str(&format!(
                "- only in the {}: item {}, {}\n",
                side(item.run),
                item.index,
                markdown::cell(&item.key)
            ));
        }
    }
    text
}

/// The standalone HTML page.
pub fn html(comparison: &Comparison) -> String {
    const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem;color:#1f2328;background:#fff}\
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}\
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;vertical-align:top}\
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}\
.improved-strong{background:#1a7f37;color:#fff}.improved-weak{background:#aceebb}\
.degraded-strong{background:#cf222e;color:#fff}.degraded-weak{background:#ffcecb}\
.changed{background:#ddf4ff;color:#0550ae}.inconclusive{background:#eaeef2;color:#424a53}";
    let title = html::escape(&format!(
        "Comparison: {} → {}",
        comparison.baseline.name, comparison.candidate.name
    ));
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n<p>{}</p>\n<table>\n<tr>",
        html::escape(&pairing_sentence(&comparison.pairing))
    );
    for header in HEADERS {
        page.push_str(&format!("<th>{}</th>", html::escape(header)));
    }
    page.push_str("</tr>\n");
    for metric in &comparison.metrics {
        page.push_str("<tr>");
        for (column, cell) in cells(metric).iter().enumerate() {
            let class = match column {
                0..=2 => String::new(),
                9 => format!(" class=\"{}\"", effect_class(metric)),
                _ => " class=\"num\"".to_owned(),
            };
            page.push_str(&format!("<td{class}>{}</td>", html::escape(cell)));
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</table>\n");
    if !comparison.any_significant() {
        page.push_str(&format!("<p>{}</p>\n", html::escape(NOTHING_SIGNIFICANT)));
    }
    if !comparison.pairing.unmatched.is_empty() {
        page.push_str("<h2>Unmatched items</h2>\n<ul>\n");
        for item in &comparison.pairing.unmatched {
            page.push_str(&format!(
                "<li>only in the {}: item {}, {}</li>\n",
                side(item.run),
                item.index,
                html::escape(&item.key)
            ));
        }
        page.push_str("</ul>\n");
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// How the runs were paired, in a sentence or two.
fn pairing_sentence(pairing: &PairingSummary) -> String {
    let key = match (pairing.key, &pairing.field) {
        (PairingKey::Id, Some(field)) => format!("`{field}`"),
        (PairingKey::Id, None) => "id".to_owned(),
        (PairingKey::Prompt, _) => "prompt".to_owned(),
        (PairingKey::Index, _) => {
            "item index (a run report carries neither ids nor prompts)".to_owned()
        }
    };
    let mut sentence = format!(
        "Paired by {key}: {} matched, {} only in the baseline, {} only in the candidate.",
        pairing.matched, pairing.only_baseline, pairing.only_candidate
    );
    if pairing.threads > 0 {
        sentence.push_str(&format!(
            " {} paired thread{} counted as one sample each (the mean of its turns' scores; it passes when all its turns pass).",
            pairing.threads,
            if pairing.threads == 1 { " is" } else { "s are" }
        ));
    }
    sentence
}

/// A metric's row, as plain text.
fn cells(metric: &Metric) -> [String; 12] {
    let rate = metric.metric == MetricName::PassRate;
    let value = |mean: Option<f64>, interval: Option<[f64; 2]>| match mean {
        None => "–".to_owned(),
        Some(mean) => {
            let shown = number(mean, rate);
            match interval {
                Some([low, high]) => {
                    format!("{shown} [{}, {}]", number(low, rate), number(high, rate))
                }
                None => shown,
            }
        }
    };
    [
        metric.evaluator.clone(),
        if rate { "pass rate" } else { "score" }.to_owned(),
        match metric.kind {
            MetricType::Boolean => "boolean",
            MetricType::Ordinal => "ordinal",
            MetricType::Continuous => "continuous",
        }
        .to_owned(),
        metric.n.to_string(),
        metric.excluded.to_string(),
        value(metric.baseline_mean, metric.baseline_ci),
        value(metric.candidate_mean, metric.candidate_ci),
        metric
            .delta
            .map_or("–".to_owned(), |delta| signed(delta, rate)),
        metric.p_value.map_or("–".to_owned(), p_value),
        effect_text(metric),
        metric.flips.map_or("–".to_owned(), |flips| {
            format!("{} / {}", flips.pass_to_fail, flips.fail_to_pass)
        }),
        metric
            .detectable_delta
            .map_or("–".to_owned(), |delta| number(delta, rate)),
    ]
}

/// A mean or bound: a pass rate as a percentage, a score to three decimals.
fn number(value: f64, rate: bool) -> String {
    if rate {
        format::percent(value)
    } else {
        format::rounded(value)
    }
}

/// A difference with its sign: percentage points for a pass rate.
fn signed(delta: f64, rate: bool) -> String {
    let sign = if delta > 0.0 { "+" } else { "" };
    if rate {
        format!("{sign}{} pp", decimal::fixed(delta * 100.0, 1))
    } else {
        format!("{sign}{}", format::rounded(delta))
    }
}

fn p_value(p: f64) -> String {
    if p < 0.001 {
        "<0.001".to_owned()
    } else {
        format::rounded(p)
    }
}

fn effect_text(metric: &Metric) -> String {
    let effect = match metric.effect {
        Effect::ZeroSamples => "zero samples",
        Effect::TooFewSamples => "too few samples",
        Effect::Inconclusive => "inconclusive",
        Effect::Improved => "improved",
        Effect::Degraded => "degraded",
        Effect::Changed => "changed",
    };
    match metric.strength {
        Some(Strength::Strong) => format!("{effect} (strong)"),
        Some(Strength::Weak) => format!("{effect} (weak)"),
        None => effect.to_owned(),
    }
}

/// The colour of an effect in Markdown, where no style reaches a table cell.
fn marker(metric: &Metric) -> &'static str {
    match (metric.effect, metric.strength) {
        (Effect::Improved, Some(Strength::Strong)) => "🟩",
        (Effect::Improved, _) => "🟢",
        (Effect::Degraded, Some(Strength::Strong)) => "🟥",
        (Effect::Degraded, _) => "🔴",
        (Effect::Changed, _) => "🔵",
        _ => "⚪",
    }
}

/// The HTML class of an effect's cell.
fn effect_class(metric: &Metric) -> &'static str {
    match (metric.effect, metric.strength) {
        (Effect::Improved, Some(Strength::Strong)) => "improved-strong",
        (Effect::Improved, _) => "improved-weak",
        (Effect::Degraded, Some(Strength::Strong)) => "degraded-strong",
        (Effect::Degraded, _) => "degraded-weak",
        (Effect::Changed, _) => "changed",
        _ => "inconclusive",
    }
}

fn side(side: Side) -> &'static str {
    match side {
        Side::Baseline => "baseline",
        Side::Candidate => "candidate",
    }
}
