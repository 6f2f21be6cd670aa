//! Benchmark helper for `cargo xtask bench`: writes the shared benchmark inputs, and times this
//! crate's F1, BLEU, GLEU and task-navigation evaluators on the inputs azure-ai-evaluation is timed
//! on (BLEU and GLEU on the F1 text pairs).
//!
//! Usage: `compare_reference write-inputs FILE [COUNT]`, `compare_reference write-document FILE [ITEMS]`,
//! `compare_reference time FILE` (prints JSON with nanoseconds per item),
//! `compare_reference time-fresh FILE` (the same, each case read from its JSON text just before
//! its evaluation, which alone is timed, as a run evaluates the item it has just read),
//! `compare_reference once FILE` (one untimed pass of each evaluator, for instruction counts under
//! callgrind: divide by the item count).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "../../cli/src/allocator.rs"]
mod allocator;
#[path = "../benches/support/mod.rs"]
mod support;

use std::hint::black_box;
use std::time::Instant;

use agenteval_core::json;
use agenteval_core::json::{Map, Value};
use agenteval_core::{evaluators, Inputs, Options};

/// The allocator the shipped `agenteval` binary uses, so per-item figures are the CLI's.
#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::allocator();

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.get(1).ok_or("missing FILE argument")?;
    let count = |default: usize| args.get(2).and_then(|n| n.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str) {
        Some("write-inputs") => {
            let count = count(2_000);
            let inputs = json!({
                "f1": support::f1_inputs(count),
                "task_navigation": support::navigation_inputs(count),
            });
            std::fs::write(path, inputs.to_string()).map_err(|error| error.to_string())
        }
        Some("write-document") => std::fs::write(path, support::m365_document(count(100_000)))
            .map_err(|error| error.to_string()),
        Some(mode @ ("time" | "time-fresh")) => {
            let text = std::fs::read_to_string(path).map_err(|error| error.to_string())?;
            let inputs: Value = serde_json::from_str(&text).map_err(|error| error.to_string())?;
            let time = if mode == "time" {
                time_per_item
            } else {
                time_per_fresh_item
            };
            let f1 = time("builtin.f1_score", &inputs["f1"])?;
            let navigation = time(
                "builtin.task_navigation_efficiency",
                &inputs["task_navigation"],
            )?;
            let bleu = time("builtin.bleu_score", &inputs["f1"])?;
            let gleu = time("builtin.gleu_score", &inputs["f1"])?;
            install_wordnet()?;
            let meteor = time("builtin.meteor_score", &inputs["f1"])?;
            println!(
                "{}",
                json!({
                    "f1_score_ns_per_item": f1,
                    "task_navigation_efficiency_ns_per_item": navigation,
                    "bleu_score_ns_per_item": bleu,
                    "gleu_score_ns_per_item": gleu,
                    "meteor_score_ns_per_item": meteor,
                })
            );
            Ok(())
        }
        Some("once") => {
            let text = std::fs::read_to_string(path).map_err(|error| error.to_string())?;
            let inputs: Value = serde_json::from_str(&text).map_err(|error| error.to_string())?;
            install_wordnet()?;
            for (name, key) in [
                ("builtin.f1_score", "f1"),
                ("builtin.task_navigation_efficiency", "task_navigation"),
                ("builtin.bleu_score", "f1"),
                ("builtin.gleu_score", "f1"),
                ("builtin.meteor_score", "f1"),
            ] {
                let (evaluator, cases) = prepare(name, &inputs[key])?;
                for case in &cases {
                    black_box(evaluator.evaluate(black_box(case)));
                }
            }
            Ok(())
        }
        _ => Err(
            "usage: compare_reference write-inputs|write-document|time|time-fresh|once FILE [COUNT]"
                .into(),
        ),
    }
}

/// METEOR's WordNet table, installed as the CLI installs it.
fn install_wordnet() -> Result<(), String> {
    use std::io::Read;
    let compressed = include_bytes!("../data/wordnet-meteor.bin.gz");
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(&compressed[..])
        .read_to_end(&mut raw)
        .map_err(|error| error.to_string())?;
    agenteval_core::wordnet::install(raw).map_err(|error| error.to_string())
}

/// The evaluator `name` with default options, and its inputs from `cases`.
fn prepare<'c>(
    name: &str,
    cases: &'c Value,
) -> Result<(Box<dyn evaluators::Evaluator>, Vec<Inputs<'c>>), String> {
    let cases = cases.as_array().ok_or("inputs must be an array")?;
    Ok((build(name)?, cases.iter().map(case_inputs).collect()))
}

/// The evaluator `name` with default options.
fn build(name: &str) -> Result<Box<dyn evaluators::Evaluator>, String> {
    let spec = evaluators::find(name).ok_or_else(|| format!("{name} is not in the catalog"))?;
    (spec.build)(name, Options::new(&Map::new())).map_err(|error| error.message)
}

/// A case's fields as the evaluator's named inputs.
fn case_inputs(case: &Value) -> Inputs<'_> {
    let mut inputs = Inputs::new();
    if let Some(fields) = case.as_object() {
        for (key, value) in fields {
            inputs.set(key, value);
        }
    }
    inputs
}

/// Mean nanoseconds per item over several passes (after one warm-up pass).
fn time_per_item(name: &str, cases: &Value) -> Result<f64, String> {
    let (evaluator, inputs) = prepare(name, cases)?;
    for case in &inputs {
        black_box(evaluator.evaluate(black_box(case)));
    }
    let mut passes = 0u32;
    let start = Instant::now();
    while passes < 5 || start.elapsed().as_secs_f64() < 1.0 {
        for case in &inputs {
            black_box(evaluator.evaluate(black_box(case)));
        }
        passes += 1;
    }
    let total = start.elapsed().as_nanos() as f64;
    Ok(total / f64::from(passes) / inputs.len().max(1) as f64)
}

/// Mean nanoseconds per evaluation when each case is read from its JSON text (by the engine's
/// parser, not timed) just before it is evaluated, over several passes after one warm-up pass.
fn time_per_fresh_item(name: &str, cases: &Value) -> Result<f64, String> {
    let evaluator = build(name)?;
    let texts: Vec<String> = cases
        .as_array()
        .ok_or("inputs must be an array")?
        .iter()
        .map(Value::to_string)
        .collect();
    let evaluate_fresh = |text: &str| -> Result<std::time::Duration, String> {
        let case = agenteval_core::json::parse(text.as_bytes()).map_err(|error| error.message)?;
        let inputs = case_inputs(&case);
        let start = Instant::now();
        black_box(evaluator.evaluate(black_box(&inputs)));
        Ok(start.elapsed())
    };
    for text in &texts {
        evaluate_fresh(text)?;
    }
    let (mut evaluations, mut timed) = (0u32, std::time::Duration::ZERO);
    let start = Instant::now();
    while evaluations < 5 * texts.len() as u32 || start.elapsed().as_secs_f64() < 1.0 {
        for text in &texts {
            timed += evaluate_fresh(text)?;
        }
        evaluations += texts.len() as u32;
    }
    Ok(timed.as_nanos() as f64 / f64::from(evaluations.max(1)))
}
