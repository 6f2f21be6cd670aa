//! `cargo xtask bench`: the criterion benchmarks, the 100 000-item document through the release
//! CLI, and the side-by-side comparison with azure-ai-evaluation 1.18.10 on identical inputs.

use std::time::Instant;

use crate::run::{cargo, project_root, Step};

/// The reference implementation the comparison runs against.
const REFERENCE: &str = "azure-ai-evaluation==1.18.10";

/// Runs every benchmark and prints the figures the README's performance table records.
pub fn run() -> Result<(), String> {
    let root = project_root();
    let dir = root.join("target/bench");
    std::fs::create_dir_all(&dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    cargo(["bench", "-p", "agenteval-core", "--bench", "evaluators"]).run()?;

    let inputs = dir.join("reference-inputs.json");
    let document = dir.join("document-100k.json");
    let example = |args: &[&str]| {
        cargo([
            "run",
            "--release",
            "-q",
            "-p",
            "agenteval-core",
            "--example",
            "compare_reference",
            "--",
        ])
        .args(args)
    };
    example(&["write-inputs", &inputs.display().to_string(), "2000"]).run()?;
    example(&["write-document", &document.display().to_string(), "100000"]).run()?;
    cargo(["build", "--release", "-q", "-p", "agenteval-cli"]).run()?;

    let cli = root.join("target/release/agenteval");
    let scored = dir.join("document-100k.scored.json");
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let start = Instant::now();
        Step::new(&cli)
            .args([
                "score",
                &document.display().to_string(),
                "--out",
                &scored.display().to_string(),
            ])
            .quiet_stderr()
            .allow_exit(1)
            .run()?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    let size = std::fs::metadata(&document)
        .map(|meta| meta.len())
        .unwrap_or(0);
    println!(
        "\nCLI, 100 000-item document ({:.1} MB), parse + validate + 5 evaluators + write: {best:.3} s (best of 3, one core)",
        size as f64 / 1e6
    );

    let ours = json_figures(&example(&["time", &inputs.display().to_string()]).output()?)?;
    ensure_reference()?;
    let reference = json_figures(
        &Step::new("python3")
            .arg(root.join("tests/parity/bench_reference.py"))
            .arg(&inputs)
            .output()?,
    )?;
    println!("\nPer item, same inputs (2 000 cases each):");
    println!(
        "{:<36} {:>14} {:>16} {:>9}",
        "evaluator", "agenteval (ns)", "reference (ns)", "ratio"
    );
    for key in [
        "f1_score_ns_per_item",
        "task_navigation_efficiency_ns_per_item",
    ] {
        let (mine, theirs) = (figure(&ours, key)?, figure(&reference, key)?);
        println!(
            "{:<36} {mine:>14.0} {theirs:>16.0} {:>8.0}x",
            key.trim_end_matches("_ns_per_item"),
            theirs / mine
        );
    }
    Ok(())
}

/// The JSON object on the last line of a helper's output.
fn json_figures(text: &str) -> Result<serde_json::Value, String> {
    let line = text.lines().last().unwrap_or_default();
    serde_json::from_str(line).map_err(|error| format!("unexpected output {line:?}: {error}"))
}

fn figure(figures: &serde_json::Value, key: &str) -> Result<f64, String> {
    figures[key]
        .as_f64()
        .ok_or_else(|| format!("no `{key}` figure in {figures}"))
}

/// Installs the reference implementation with pip when it is missing.
fn ensure_reference() -> Result<(), String> {
    let present = Step::new("python3")
        .args(["-c", "import azure.ai.evaluation"])
        .quiet_stderr()
        .run()
        .is_ok();
    if present {
        return Ok(());
    }
    Step::new("python3")
        .args(["-m", "pip", "install", "-q", REFERENCE])
        .run()
}
