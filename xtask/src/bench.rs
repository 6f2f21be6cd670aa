//! `cargo xtask bench`: the criterion benchmarks, the 100 000-item document through the release
//! CLI, the side-by-side comparison with azure-ai-evaluation 1.18.10 on identical inputs, the
//! WebAssembly package's size, start-up time and throughput (`cargo xtask bench wasm` runs only
//! that part), and the judges' throughput against the local judge and the scheduler's overhead
//! per call (`cargo xtask bench judge` runs only those), and `agenteval compare` on two
//! 100 000-item runs (`bench_runs`; `cargo xtask bench runs` runs only that).

use std::path::Path;
use std::time::{Duration, Instant};

use agenteval_judge_server::{start, ServerConfig};

use crate::compare;
use crate::pgo;
use crate::run::{cargo, project_root, Step};
use crate::wasm;

/// How long the profile-guided build of the criterion benchmarks runs each benchmark to train.
const PGO_TRAINING_SECONDS: u32 = 3;

/// The reference implementation the comparison runs against.
const REFERENCE: &str = "azure-ai-evaluation==1.18.10";

/// The WebAssembly package against the native CLI on the 100 000-item document: module size (raw
/// and gzipped), start-up time, and throughput in Node and headless Chromium.
pub fn run_wasm() -> Result<(), String> {
    wasm_against(&pgo::build_cli()?)
}

/// The package's size budget: its one module, gzipped, at most 700 KB.
const WASM_BUDGET_GZIPPED: f64 = 700.0 * 1024.0;

/// [`run_wasm`] against `cli`, the profile-guided CLI already built.
fn wasm_against(cli: &Path) -> Result<(), String> {
    let document = benchmark_document()?;
    wasm::ensure_chromium()?;
    wasm::ensure_npm_packages()?;
    wasm::build()?;
    cargo(["build", "--release", "-q", "-p", "agenteval-cli"]).run()?;
    let plain_cli = wasm::target_dir().join("release/agenteval");
    let figures = json_figures(
        &Step::new("node")
            .arg("--expose-gc")
            .arg("bench.mjs")
            .arg(&document)
            .arg(cli)
            .arg(&plain_cli)
            .env("CHROMIUM", wasm::CHROMIUM)
            .dir(wasm::js_tests_dir())
            .output()?,
    )?;
    let size = figure(&figures, "wasmBytes")?;
    let gzipped = figure(&figures, "wasmGzipBytes")?;
    let verdict = if gzipped <= WASM_BUDGET_GZIPPED {
        "met"
    } else {
        "MISSED"
    };
    println!(
        "\nWebAssembly package, one module: agenteval_wasm_bg.wasm {size:.0} bytes raw, {gzipped:.0} gzipped ({:.1} KB; budget 700 KB gzipped: {verdict})",
        gzipped / 1024.0
    );
    println!(
        "100 000-item document ({:.1} MB), start-up: Node {:.1} ms, Chromium {:.1} ms",
        figure(&figures, "documentBytes")? / 1e6,
        figure(&figures["startupMs"], "node")?,
        figure(&figures["startupMs"], "chromium")?
    );
    for runtime in ["node", "chromium"] {
        let first = &figures["firstRound"][runtime];
        println!(
            "first calls after start-up, {runtime:<8}: score → report {:.3}s, doc → stream {:.3}s, doc → bytes {:.3}s, text → bytes {:.3}s, text → string {:.3}s",
            figure(first, "scoreSeconds")?,
            figure(first, "documentStreamSeconds")?,
            figure(first, "documentSeconds")?,
            figure(first, "documentFromTextSeconds")?,
            figure(first, "documentStringSeconds")?
        );
    }
    let rounds = figures["rounds"]
        .as_array()
        .ok_or_else(|| format!("no rounds in {figures}"))?;
    println!(
        "{:<22} {:>16} {:>16} {:>16} {:>16} {:>16} {:>16} {:>19}",
        "seconds (× native)",
        "score → report",
        "doc → stream",
        "doc → bytes",
        "bytes vs file",
        "text → bytes",
        "text → string",
        "evaluate + render"
    );
    const RUNTIMES: [&str; 2] = ["node", "chromium"];
    let mut ratios: [[Vec<f64>; 7]; 2] = Default::default();
    for (index, round) in rounds.iter().enumerate() {
        let native_report = figure(&round["native"], "reportSeconds")?;
        let native_document = figure(&round["native"], "documentSeconds")?;
        let native_in_memory = figure(&round["native"], "documentToMemorySeconds")?;
        let plain_document = figure(&round["native"], "plainDocumentSeconds")?;
        println!(
            "{:<22} {:>15.3}s {:>15.3}s {:>16} {:>15.3}s {:>16} {:>16} {:>19}",
            format!("round {}: native CLI", index + 1),
            native_report,
            native_document,
            "—",
            native_in_memory,
            "—",
            "—",
            "—"
        );
        println!(
            "{:<22} {:>16} {:>15.3}s",
            format!("round {}: without PGO", index + 1),
            "—",
            plain_document
        );
        for (runtime, runtime_ratios) in RUNTIMES.into_iter().zip(ratios.iter_mut()) {
            let entry = &round[runtime];
            let to_bytes = figure(entry, "documentSeconds")?;
            let measured = [
                (figure(entry, "scoreSeconds")?, native_report),
                (figure(entry, "documentStreamSeconds")?, native_document),
                (to_bytes, native_document),
                (to_bytes, native_in_memory),
                (figure(entry, "documentFromTextSeconds")?, native_document),
                (figure(entry, "documentStringSeconds")?, native_document),
                (to_bytes, plain_document),
            ];
            let cells = measured
                .map(|(seconds, native)| format!("{seconds:.3}s ({:.2}×)", seconds / native));
            println!(
                "{:<22} {:>16} {:>16} {:>16} {:>16} {:>16} {:>16} {:>18.3}s",
                format!("round {}: {runtime}", index + 1),
                cells[0],
                cells[1],
                cells[2],
                cells[3],
                cells[4],
                cells[5],
                figure(entry, "evaluateDocumentSeconds")?
            );
            for (values, (seconds, native)) in runtime_ratios.iter_mut().zip(measured) {
                values.push(seconds / native);
            }
        }
    }
    for (runtime, [score, stream, document, kept, from_text, string, against_plain]) in
        RUNTIMES.into_iter().zip(&ratios)
    {
        let median = |values: &[f64]| median_by(values, |ratio| *ratio).unwrap_or(f64::NAN);
        println!(
            "median ratio, {runtime:<8}: score → report {:.2}×, doc → stream {:.2}×, doc → bytes {:.2}× (against the CLI's file in memory {:.2}×, against the CLI built without PGO {:.2}×), text → bytes {:.2}×, text → string {:.2}× (target 1.5×)",
            median(score),
            median(stream),
            median(document),
            median(kept),
            median(against_plain),
            median(from_text),
            median(string)
        );
    }
    Ok(())
}

/// Runs every benchmark and prints the figures the README's performance table records.
pub fn run() -> Result<(), String> {
    let dir = bench_dir()?;
    pgo::bench(PGO_TRAINING_SECONDS)?;

    let inputs = dir.join("reference-inputs.json");
    let document = dir.join("document-100k.json");
    let example = compare::compare_reference;
    example(&["write-inputs", &inputs.display().to_string(), "2000"]).run()?;
    example(&["write-document", &document.display().to_string(), "100000"]).run()?;
    let cli = pgo::build_cli()?;
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

    crate::bench_runs::runs_against(&cli)?;

    ensure_reference()?;
    compare_with_reference(&inputs)?;
    wasm_against(&cli)?;
    run_judge()?;
    crate::bench_agent::agent_against(&wasm::target_dir().join("release/agenteval"))?;
    run_page()
}

/// Rounds of the side-by-side comparison. This virtual machine's speed drifts by up to ±30 %
/// over minutes, so each round times both sides back to back and the median round is reported.
const COMPARISON_ROUNDS: usize = 3;

const COMPARED: [&str; 5] = [
    "f1_score_ns_per_item",
    "task_navigation_efficiency_ns_per_item",
    "bleu_score_ns_per_item",
    "gleu_score_ns_per_item",
    "meteor_score_ns_per_item",
];

/// The two ways both sides are timed on the same cases: the pre-read cases cycled (2 000 cases'
/// values no longer in cache when their turn comes again), and each case read from its JSON text
/// just before its evaluation, as a run evaluates the item it has just read.
const METHODS: [(&str, &str, Option<&str>, &str); 2] = [
    ("time", "cases read once, then cycled", None, "cycled"),
    (
        "time-fresh",
        "each case read just before it is evaluated",
        Some("--fresh"),
        "fresh",
    ),
];

/// Times our evaluators and azure-ai-evaluation's on the same inputs, both ways, alternating, and
/// prints every round and the median ratio.
fn compare_with_reference(inputs: &Path) -> Result<(), String> {
    let reference_script = project_root().join("tests/parity/bench_reference.py");
    let mut rounds: [Vec<[(f64, f64); COMPARED.len()]>; METHODS.len()] = Default::default();
    for _ in 0..COMPARISON_ROUNDS {
        for ((command, _, reference_flag, _), method_rounds) in METHODS.iter().zip(&mut rounds) {
            let ours = json_figures(
                &compare::compare_reference(&[command, &inputs.display().to_string()]).output()?,
            )?;
            let reference = json_figures(
                &Step::new("python3")
                    .arg(&reference_script)
                    .arg(inputs)
                    .args(reference_flag.iter().copied())
                    .output()?,
            )?;
            let mut round = [(0.0, 0.0); COMPARED.len()];
            for (slot, key) in round.iter_mut().zip(COMPARED) {
                *slot = (figure(&ours, key)?, figure(&reference, key)?);
            }
            method_rounds.push(round);
        }
    }
    for ((_, title, _, short), method_rounds) in METHODS.iter().zip(&rounds) {
        println!(
            "\nPer item, same inputs (2 000 cases each), {title}, {COMPARISON_ROUNDS} alternating rounds:"
        );
        println!(
            "{:<44} {:>14} {:>16} {:>9}",
            "evaluator", "agenteval (ns)", "reference (ns)", "ratio"
        );
        for (index, key) in COMPARED.iter().enumerate() {
            let name = key.trim_end_matches("_ns_per_item");
            let measured: Vec<(f64, f64)> = method_rounds
                .iter()
                .filter_map(|round| round.get(index).copied())
                .collect();
            for (round, (mine, theirs)) in measured.iter().enumerate() {
                println!(
                    "{:<44} {mine:>14.0} {theirs:>16.0} {:>8.0}x",
                    format!("{name}, {short} (round {})", round + 1),
                    theirs / mine
                );
            }
            if let Some((mine, theirs)) = median_by(&measured, |(mine, theirs)| theirs / mine) {
                println!(
                    "{:<44} {mine:>14.0} {theirs:>16.0} {:>8.0}x",
                    format!("{name}, {short} (median round)"),
                    theirs / mine
                );
            }
        }
    }
    Ok(())
}

/// Only the side-by-side comparison with azure-ai-evaluation.
pub fn run_compare() -> Result<(), String> {
    let inputs = bench_dir()?.join("reference-inputs.json");
    compare::compare_reference(&["write-inputs", &inputs.display().to_string(), "2000"]).run()?;
    ensure_reference()?;
    compare_with_reference(&inputs)
}

/// The middle of `items` ordered by `key` (the upper middle of an even count).
fn median_by<T: Copy>(items: &[T], key: impl Fn(&T) -> f64) -> Option<T> {
    let mut sorted = items.to_vec();
    sorted.sort_by(|a, b| key(a).total_cmp(&key(b)));
    sorted.get(sorted.len() / 2).copied()
}

/// `target/bench`, created when missing.
/// The 100 000-item benchmark document, written when missing.
fn benchmark_document() -> Result<std::path::PathBuf, String> {
    let document = bench_dir()?.join("document-100k.json");
    if !document.exists() {
        compare::compare_reference(&["write-document", &document.display().to_string(), "100000"])
            .run()?;
    }
    Ok(document)
}

fn bench_dir() -> Result<std::path::PathBuf, String> {
    let dir = project_root().join("target/bench");
    std::fs::create_dir_all(&dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    Ok(dir)
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

/// The local judge's latency in the throughput benchmark.
const JUDGE_LATENCY: Duration = Duration::from_millis(100);
/// `--judge-concurrency` of the throughput benchmark.
const JUDGE_CONCURRENCY: usize = 16;
/// Items of the throughput benchmark, each judged once (Relevance).
const JUDGE_ITEMS: usize = 800;
/// Rounds of the throughput benchmark; the median round is reported.
const JUDGE_ROUNDS: usize = 3;
/// What the judge bench's criterion benchmarks time, and the calls in one iteration of each.
const JUDGE_OVERHEAD: [(&str, &str, f64, &str); 2] = [
    (
        "scheduler_1000_calls",
        "Scheduler::call + Reading::result",
        1000.0,
        "schedulerMicrosPerCall",
    ),
    (
        "run_400_calls",
        "engine::judged::run over an M365 session",
        400.0,
        "runMicrosPerCall",
    ),
];

/// The judges' figures: throughput of the release CLI against the local judge at 100 ms latency
/// (against the ideal of concurrency ÷ latency), and the core's overhead per call (criterion,
/// `crates/core/benches/judge.rs`, with a transport that answers at once).
pub fn run_judge() -> Result<(), String> {
    cargo(["build", "--release", "-q", "-p", "agenteval-cli"]).run()?;
    let cli = wasm::target_dir().join("release/agenteval");
    let throughput = judge_throughput(&cli)?;
    cargo(["bench", "-p", "agenteval-core", "--bench", "judge"]).run()?;
    let criterion = wasm::target_dir().join("criterion/judge");
    println!("\nJudge overhead per call (criterion, a transport that answers at once):");
    let mut overhead = serde_json::Map::new();
    for (id, what, calls, key) in JUDGE_OVERHEAD {
        let file = criterion.join(id).join("new/estimates.json");
        let text = std::fs::read_to_string(&file)
            .map_err(|error| format!("cannot read {}: {error}", file.display()))?;
        let estimates: serde_json::Value = serde_json::from_str(&text)
            .map_err(|error| format!("{} is not JSON: {error}", file.display()))?;
        let nanoseconds = figure(&estimates["slope"], "point_estimate")
            .or_else(|_| figure(&estimates["mean"], "point_estimate"))?;
        let micros = nanoseconds / calls / 1000.0;
        println!("{what:<40} {micros:>8.2} µs per call ({calls:.0} calls per iteration)");
        overhead.insert(key.to_owned(), serde_json::json!(micros));
    }
    let mut figures = throughput;
    figures.append(&mut overhead);
    figures.insert("composites".to_owned(), composite_calls(&cli)?);
    figures.insert("package".to_owned(), judge_package()?);
    println!("{}", serde_json::Value::Object(figures));
    Ok(())
}

/// Rows of the composite benchmark.
const COMPOSITE_ROWS: usize = 50;

/// The member judges of `builtin.output_quality` and `builtin.tool_use_quality`.
const COMPOSITE_MEMBERS: [&str; 11] = [
    "fluency",
    "coherence",
    "intent_resolution",
    "task_adherence",
    "groundedness",
    "task_completion",
    "tool_call_accuracy",
    "tool_call_success",
    "tool_input_accuracy",
    "tool_output_utilization",
    "tool_selection",
];

/// Judge calls per row of the two composites against their eleven member judges run one by one,
/// on Foundry rows with tool calls and a context (issue 29: at least 4× fewer).
fn composite_calls(cli: &Path) -> Result<serde_json::Value, String> {
    let dir = bench_dir()?;
    let server = start(ServerConfig::default())
        .map_err(|error| format!("cannot start the local judge: {error}"))?;
    let row = |index: usize| {
        serde_json::json!({
            "query": format!("Row {index}: what is the weather in Paris?"),
            "response": [
                {"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": "c1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": [{"type": "tool_result", "tool_result": {"temp": 21}}]},
                {"role": "assistant", "content": [{"type": "text", "text": format!("Row {index}: it is 21 degrees in Paris.")}]}
            ],
            "context": "Paris weather: 21 degrees.",
            "tool_definitions": [{"name": "get_weather", "description": "Weather by city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
        })
    };
    let calls = |criteria: Vec<serde_json::Value>, name: &str| -> Result<f64, String> {
        let file = dir.join(format!("composites-{name}.jsonl"));
        let mut text = serde_json::json!({"testing_criteria": criteria}).to_string();
        for index in 0..COMPOSITE_ROWS {
            text.push('\n');
            text.push_str(&row(index).to_string());
        }
        std::fs::write(&file, text)
            .map_err(|error| format!("cannot write {}: {error}", file.display()))?;
        server.reset_stats();
        Step::new(cli)
            .arg("score")
            .arg(&file)
            .args(["--format", "report", "--no-judge-cache", "--out"])
            .arg(dir.join(format!("composites-{name}.report.json")))
            .env("AZURE_AI_OPENAI_ENDPOINT", server.url())
            .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
            .quiet_stderr()
            .allow_exit(1)
            .run()?;
        Ok(server.stats().completions as f64 / COMPOSITE_ROWS as f64)
    };
    let criterion = |id: &str| serde_json::json!({"type": "azure_ai_evaluator", "name": id, "evaluator_name": format!("builtin.{id}")});
    let composite = calls(
        vec![criterion("output_quality"), criterion("tool_use_quality")],
        "composite",
    )?;
    let members = calls(
        COMPOSITE_MEMBERS.iter().map(|id| criterion(id)).collect(),
        "members",
    )?;
    let fewer = members / composite;
    println!(
        "\nComposites: {composite:.1} judge calls per row for output_quality and tool_use_quality, {members:.1} for their {} member judges one by one: {fewer:.1}× fewer (target 4×)",
        COMPOSITE_MEMBERS.len()
    );
    Ok(serde_json::json!({"callsPerRow": composite, "memberCallsPerRow": members, "fewer": fewer}))
}

/// The package's judged calls per second through `fetch` in Node and a Chromium page, against
/// the local judge at the same latency and concurrency as the CLI (`tests/js/bench-judge.mjs`).
fn judge_package() -> Result<serde_json::Value, String> {
    wasm::ensure_chromium()?;
    wasm::build()?;
    let judge = start(ServerConfig {
        latency: JUDGE_LATENCY,
        ..ServerConfig::default()
    })
    .map_err(|error| format!("cannot start the local judge: {error}"))?;
    let figures = json_figures(
        &Step::new("node")
            .arg("bench-judge.mjs")
            .arg(judge.url())
            .arg(JUDGE_LATENCY.as_millis().to_string())
            .arg(JUDGE_CONCURRENCY.to_string())
            .arg(JUDGE_ITEMS.to_string())
            .env("CHROMIUM", wasm::CHROMIUM)
            .dir(wasm::js_tests_dir())
            .output()?,
    )?;
    println!("\nJudge throughput of the package (same dataset, latency and concurrency):");
    for runtime in ["node", "chromium"] {
        let rate = figure(&figures[runtime], "callsPerSecond")?;
        let share = figure(&figures[runtime], "shareOfIdeal")?;
        println!(
            "{runtime:<9} {rate:.1} calls/s, {:.1} % of the ideal (target 90 %)",
            100.0 * share
        );
    }
    println!(
        "chromium  {:.1} % of {:.0} calls/s, the ideal within the browser's 6 HTTP/1.1 connections to one origin (the local judge speaks HTTP/1.1)",
        100.0 * figure(&figures["chromium"], "shareOfHttp1Ideal")?,
        figure(&figures["chromium"], "http1IdealCallsPerSecond")?
    );
    Ok(figures)
}

/// Times `cli` scoring [`JUDGE_ITEMS`] items through the local judge, each round against the
/// same command with `--no-judge` (process start, reading, writing), and prints every round and
/// the median.
fn judge_throughput(cli: &Path) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let dir = bench_dir()?;
    let dataset = dir.join("judge-800.json");
    let items: Vec<serde_json::Value> = (0..JUDGE_ITEMS)
        .map(|index| {
            serde_json::json!({
                "prompt": format!("Question {index}: what is the capital of France?"),
                "response": format!("Answer {index}: Paris is the capital of France."),
            })
        })
        .collect();
    let document = serde_json::json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"Relevance": {}},
        "items": items
    });
    std::fs::write(&dataset, document.to_string())
        .map_err(|error| format!("cannot write {}: {error}", dataset.display()))?;
    let server = start(ServerConfig {
        latency: JUDGE_LATENCY,
        ..ServerConfig::default()
    })
    .map_err(|error| format!("cannot start the local judge: {error}"))?;
    let report = dir.join("judge-800.report.json");
    let score = |extra: &[&str]| -> Result<f64, String> {
        let start = Instant::now();
        Step::new(cli)
            .arg("score")
            .arg(&dataset)
            .args([
                "--format",
                "report",
                "--no-judge-cache",
                "--judge-concurrency",
            ])
            .arg(JUDGE_CONCURRENCY.to_string())
            .arg("--out")
            .arg(&report)
            .args(extra)
            .env("AZURE_AI_OPENAI_ENDPOINT", server.url())
            .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
            .quiet_stderr()
            .allow_exit(1)
            .run()?;
        Ok(start.elapsed().as_secs_f64())
    };
    let ideal = JUDGE_CONCURRENCY as f64 / JUDGE_LATENCY.as_secs_f64();
    println!(
        "\nJudge throughput: {JUDGE_ITEMS} items × Relevance, the local judge at {} ms latency, --judge-concurrency {JUDGE_CONCURRENCY}, no cache (ideal {ideal:.0} calls/s):",
        JUDGE_LATENCY.as_millis()
    );
    let mut rounds = Vec::new();
    for round in 1..=JUDGE_ROUNDS {
        server.reset_stats();
        let judged = score(&[])?;
        let stats = server.stats();
        let figures: serde_json::Value = std::fs::read_to_string(&report)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        let peak = figures["judge"]["peak_in_flight"].as_u64().unwrap_or(0);
        if stats.completions != JUDGE_ITEMS as u64 {
            return Err(format!(
                "the local judge saw {} completions, not {JUDGE_ITEMS}",
                stats.completions
            ));
        }
        let without = score(&["--no-judge"])?;
        let rate = JUDGE_ITEMS as f64 / (judged - without);
        println!(
            "round {round}: {judged:.3} s, {without:.3} s with --no-judge: {rate:.1} calls/s ({:.1} % of the ideal), peak {peak} in flight (server: {})",
            100.0 * rate / ideal,
            stats.max_in_flight
        );
        rounds.push((rate, judged, without));
    }
    let (rate, judged, without) =
        median_by(&rounds, |(rate, _, _)| *rate).ok_or("no judge rounds")?;
    println!(
        "median round: {rate:.1} calls/s, {:.1} % of the ideal {ideal:.0} calls/s (target 90 %)",
        100.0 * rate / ideal
    );
    let mut figures = serde_json::Map::new();
    for (key, value) in [
        ("judgeCalls", JUDGE_ITEMS as f64),
        ("latencyMs", JUDGE_LATENCY.as_millis() as f64),
        ("concurrency", JUDGE_CONCURRENCY as f64),
        ("judgedSeconds", judged),
        ("noJudgeSeconds", without),
        ("callsPerSecond", rate),
        ("idealCallsPerSecond", ideal),
        ("shareOfIdeal", rate / ideal),
    ] {
        figures.insert(key.to_owned(), serde_json::json!(value));
    }
    Ok(figures)
}

/// The web page in headless Chromium on the 100 000-item document (`tests/js/bench-page.mjs`):
/// drop-to-fully-rendered and the main thread's longest task meanwhile, then the results table's
/// frame times while it scrolls through every row. Targets: under 4 s, no frame over 50 ms.
pub fn run_page() -> Result<(), String> {
    let document = benchmark_document()?;
    wasm::ensure_chromium()?;
    wasm::ensure_npm_packages()?;
    wasm::ensure_package()?;
    cargo(["build", "-p", "agenteval-cli"]).run()?;
    let figures = json_figures(
        &Step::new("node")
            .arg("bench-page.mjs")
            .arg(&document)
            .env("CHROMIUM", wasm::CHROMIUM)
            .env("AGENTEVAL_CLI", wasm::target_dir().join("debug/agenteval"))
            .dir(wasm::js_tests_dir())
            .output()?,
    )?;
    let list = |key: &str| -> Result<Vec<f64>, String> {
        figures[key]
            .as_array()
            .ok_or_else(|| format!("bench-page.mjs printed no {key}"))?
            .iter()
            .map(|value| value.as_f64().ok_or_else(|| format!("{key}: not a number")))
            .collect()
    };
    let drop = list("dropSeconds")?;
    let frames = list("scrollFrameMaxMs")?;
    let longest = list("loadLongestTaskMs")?;
    let best = drop.iter().copied().fold(f64::INFINITY, f64::min);
    let worst_frame = frames.iter().copied().fold(0.0, f64::max);
    println!(
        "\nThe page, 100 000-item document dropped: fully rendered in {} s (best {best:.2} s; target under 4 s: {}); longest main-thread task while it loads {} ms",
        join(&drop, 2),
        if best < 4.0 { "met" } else { "missed" },
        join(&longest, 0),
    );
    println!(
        "Scrolling the table through all rows: longest frame {} ms per round (target none over 50 ms: {}), 95th percentile {:.1} ms, median {:.1} ms",
        join(&frames, 1),
        if worst_frame <= 50.0 { "met" } else { "missed" },
        figure(&figures, "scrollFrameP95Ms")?,
        figure(&figures, "scrollFrameMedianMs")?,
    );
    print_first_view(&figures["firstView"])?;
    println!("{figures}");
    Ok(())
}

/// The first view's transfer size as `bench-first-view.mjs` measured it.
fn print_first_view(view: &serde_json::Value) -> Result<(), String> {
    let bytes = |value: &serde_json::Value, what: &str| {
        value
            .as_u64()
            .ok_or_else(|| format!("bench-page.mjs printed no first-view {what}"))
    };
    let total = bytes(&view["total"], "total")?;
    let kinds = view["byKind"]
        .as_object()
        .ok_or("bench-page.mjs printed no first-view sizes by kind")?
        .iter()
        .map(|(kind, size)| Ok(format!("{kind} {}", bytes(size, kind)?)))
        .collect::<Result<Vec<_>, String>>()?;
    println!(
        "First view as `agenteval view` serves it: {total} bytes transferred ({:.1} KB; {} uncompressed), {} files, {} wasm module(s); by kind: {}",
        total as f64 / 1024.0,
        bytes(&view["raw"], "raw size")?,
        view["files"].as_array().map_or(0, Vec::len),
        bytes(&view["wasmModules"], "module count")?,
        kinds.join(", "),
    );
    Ok(())
}

fn join(values: &[f64], decimals: usize) -> String {
    values
        .iter()
        .map(|value| format!("{value:.decimals$}"))
        .collect::<Vec<_>>()
        .join(" / ")
}
