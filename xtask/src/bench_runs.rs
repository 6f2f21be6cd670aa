//! `cargo xtask bench runs`: `agenteval compare` on two scored runs of 100 000 items each (ids,
//! three evaluators, one item in fifty a two-turn thread, the candidate's scores moved on one item
//! in ten and one item replaced), through the profile-guided release CLI, writing the JSON: read both, pair,
//! test every metric, write. Target: under 1 s. (`bench compare` is the comparison with
//! azure-ai-evaluation.)

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::pgo;
use crate::run::{project_root, Step};

/// Items of each run.
const ITEMS: usize = 100_000;
/// Timed runs; the best is reported (the machine is shared, so the others measure its load).
const ROUNDS: usize = 5;

/// Builds the release CLI with profile-guided optimisation, as the other figures are measured,
/// and times the comparison.
pub fn run_runs() -> Result<(), String> {
    runs_against(&pgo::build_cli()?)
}

/// Times `cli` comparing the two runs (written when missing), best of [`ROUNDS`], and prints
/// the figure.
pub fn runs_against(cli: &Path) -> Result<(), String> {
    let dir = project_root().join("target/bench");
    std::fs::create_dir_all(&dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    let baseline = written(&dir.join("run-100k-baseline.json"), false)?;
    let candidate = written(&dir.join("run-100k-candidate.json"), true)?;
    let out = dir.join("run-100k-comparison.json");
    let mut best = f64::INFINITY;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        Step::new(cli)
            .args([
                "compare",
                &baseline.display().to_string(),
                &candidate.display().to_string(),
                "--format",
                "json",
                "--out",
                &out.display().to_string(),
            ])
            .quiet_stderr()
            .allow_exit(1)
            .run()?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    let size = |path: &Path| std::fs::metadata(path).map_or(0, |meta| meta.len()) as f64 / 1e6;
    println!(
        "\nCLI, compare two 100 000-item runs ({:.1} MB and {:.1} MB) to JSON ({:.1} MB): {best:.3} s (best of {ROUNDS}; the two files read on two threads)",
        size(&baseline),
        size(&candidate),
        size(&out)
    );
    Ok(())
}

/// `path`, a scored M365 document of [`ITEMS`] items, written when missing.
fn written(path: &Path, candidate: bool) -> Result<PathBuf, String> {
    if !path.exists() {
        std::fs::write(path, run_document(candidate))
            .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
    }
    Ok(path.to_path_buf())
}

/// The document's text: deterministic (a 64-bit LCG), the candidate's scores moved from the
/// baseline's on one item in ten, its first item replaced by a new one.
fn run_document(candidate: bool) -> String {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut text = String::from("{\"schemaVersion\": \"1.11.0\", \"items\": [\n");
    for index in 0..ITEMS {
        let (partial, relevance, exact) = (next(), 1.0 + (next() * 5.0).floor().min(4.0), next());
        let moved = next() < 0.1;
        let (partial, relevance) = if candidate && moved {
            (
                (partial + next() * 0.3 - 0.1).clamp(0.0, 1.0),
                (relevance + 1.0).min(5.0),
            )
        } else {
            (partial, relevance)
        };
        let id = if candidate && index == 0 {
            "new-case".to_owned()
        } else {
            format!("case-{index}")
        };
        if index > 0 {
            text.push_str(",\n");
        }
        let case = |turn: usize| {
            format!(
                "{{\"prompt\": \"Question {index}.{turn}: how many vacation days do new employees get?\", \"response\": \"New employees receive {} vacation days.\", \"expected_response\": \"New employees get 20 vacation days per year.\", \"scores\": {{\"partialMatch\": {{\"score\": {partial:.3}, \"result\": \"{}\", \"threshold\": 0.5}}, \"relevance\": {{\"score\": {relevance}, \"result\": \"{}\", \"threshold\": 3}}, \"exactMatch\": {{\"match\": {}, \"result\": \"{}\"}}}}}}",
                index % 30,
                verdict(partial >= 0.5),
                verdict(relevance >= 3.0),
                exact < 0.2,
                verdict(exact < 0.2),
            )
        };
        if index % 50 == 0 {
            let _ = write!(
                text,
                "{{\"name\": \"{id}\", \"turns\": [{}, {}]}}",
                case(0),
                case(1)
            );
        } else {
            let body = case(0);
            let _ = write!(
                text,
                "{{\"extensions\": {{\"id\": \"{id}\"}}, {}",
                body.get(1..).unwrap_or_default()
            );
        }
    }
    text.push_str("\n]}\n");
    text
}

fn verdict(passed: bool) -> &'static str {
    if passed {
        "pass"
    } else {
        "fail"
    }
}
