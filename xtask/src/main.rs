//! Project tooling, all in Rust: `cargo xtask <command>`.
//!
//! - `example`: build the CLI and score the built-in example datasets with it.
//! - `test`: every check and test suite (the README's test command; CI runs it), with the check
//!   that no crate has a module cycle (`layers`); `test wasm` runs
//!   only the WebAssembly package's layers.
//! - `build`: release build of the CLI with profile-guided optimisation (`pgo`), and the npm
//!   package in `pkg/` (WebAssembly).
//! - `bench`: criterion benchmarks (profile-guided), the side-by-side comparison with azure-ai-evaluation, and the
//!   WebAssembly package's size, start-up time and throughput against the native CLI, and the
//!   judges' throughput and overhead per call; `bench wasm` runs only the package's figures,
//!   `bench compare` only the comparison, `bench judge` only the judges', `bench page` only the web
//!   page's (drop-to-rendered and scroll frame times on the 100 000-item document), `bench runs`
//!   only `agenteval compare` on two 100 000-item scored runs (`bench_runs`), `bench agent` only
//!   `agenteval run` against the local demo agent (`bench_agent`).
//! - `fuzz [seconds]`: run the document-parser fuzz target (installs cargo-fuzz when missing).
//! - `judge [--port P] [--latency-ms N] [--fault-rate F] [--seed S] [--key K]`: run the local
//!   OpenAI/Azure-compatible judge server (`crates/judge-server`) until killed.
//! - `serve [--port P] [--no-open]`: the README's main job: build what is missing (the package,
//!   then the CLI, which embeds the page) and run `agenteval view examples/m365-demo.json` with
//!   the local demo judge beside it, until killed.
//! - `dist`: the page as one self-contained file, `target/dist/agenteval.html`, for `file://`
//!   (esbuild bundles; the assembly is `agenteval_site::offline`'s).
//!
//! Each command installs what it needs when it is missing. Arguments are parsed with clap.

mod bench;
mod bench_agent;
mod bench_runs;
mod compare;
mod dist;
mod judge;
mod layers;
mod pgo;
mod run;
mod serve;
mod wasm;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use run::{cargo, project_root, Step};

/// The subcommands, as the usage line shows them.
const USAGE: &str = "cargo xtask <example|test [wasm]|build|bench [wasm|compare|judge|page|runs|agent]|fuzz [seconds]|judge [flags]|serve [--port P] [--no-open]|dist>";

/// The project's tooling.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask", override_usage = USAGE)]
struct Xtask {
    #[command(subcommand)]
    task: Task,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// Build the CLI and score the example datasets into every output format in target/example/.
    Example,
    /// Formatting, clippy, and every test suite; `test wasm`: only the package's layers.
    Test {
        /// Only this layer.
        #[arg(value_enum)]
        layer: Option<TestLayer>,
    },
    /// The release CLI with profile-guided optimisation, and the npm package in pkg/.
    Build,
    /// Every benchmark, or only the package's, the comparison, the judges', the page's, the
    /// comparison of two runs or the agent runs'.
    Bench {
        /// Only this benchmark.
        #[arg(value_enum)]
        which: Option<BenchKind>,
    },
    /// The document-parser fuzz target for SECONDS.
    Fuzz {
        /// How long it runs.
        #[arg(default_value_t = 60)]
        seconds: u64,
    },
    /// The local OpenAI/Azure-compatible judge server, until killed.
    Judge(judge::JudgeArgs),
    /// The README's main job: `agenteval view` on the example with the local demo judge.
    Serve(serve::ServeArgs),
    /// The page as one offline file, target/dist/agenteval.html.
    Dist,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TestLayer {
    /// The WebAssembly package's layers.
    Wasm,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BenchKind {
    /// The package's size, start-up and throughput.
    Wasm,
    /// Against azure-ai-evaluation.
    Compare,
    /// The judges' throughput and overhead per call.
    Judge,
    /// The page's drop-to-rendered and scroll frame times.
    Page,
    /// `agenteval compare` on two 100 000-item scored runs.
    Runs,
    /// `agenteval run` sending 1 000 prompts to the local demo agent.
    Agent,
}

fn main() -> ExitCode {
    let task = match Xtask::try_parse() {
        Ok(xtask) => xtask.task,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match task {
        Task::Example => example(),
        Task::Test {
            layer: Some(TestLayer::Wasm),
        } => wasm::test(),
        Task::Test { layer: None } => test(),
        Task::Build => build(),
        Task::Bench { which } => match which {
            Some(BenchKind::Wasm) => bench::run_wasm(),
            Some(BenchKind::Compare) => bench::run_compare(),
            Some(BenchKind::Judge) => bench::run_judge(),
            Some(BenchKind::Page) => bench::run_page(),
            Some(BenchKind::Runs) => bench_runs::run_runs(),
            Some(BenchKind::Agent) => bench_agent::run_agent(),
            None => bench::run(),
        },
        Task::Fuzz { seconds } => fuzz(seconds),
        Task::Judge(args) => judge::run(&args),
        Task::Serve(args) => serve::run(&args),
        Task::Dist => dist(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Scores the built-in examples with the release CLI and writes every output format.
fn example() -> Result<(), String> {
    build_cli()?;
    let root = project_root();
    let out = root.join("target/example");
    std::fs::create_dir_all(&out)
        .map_err(|error| format!("cannot create {}: {error}", out.display()))?;
    let cli = wasm::target_dir().join("release/agenteval");
    let m365 = root.join("examples/m365-demo.json");
    let foundry = root.join("examples/foundry-demo.jsonl");
    let foundry_config = root.join("examples/foundry-config.json");
    for (format, file) in [
        ("document", "m365-demo.scored.json"),
        ("report", "m365-demo.report.json"),
        ("csv", "m365-demo.csv"),
        ("junit", "m365-demo.junit.xml"),
        ("html", "m365-demo.html"),
    ] {
        Step::new(&cli)
            .args([
                "score",
                &m365.display().to_string(),
                "--format",
                format,
                "--out",
            ])
            .arg(out.join(file))
            .quiet_stderr()
            .allow_exit(1)
            .run()?;
    }
    println!("== agenteval score examples/m365-demo.json --format md");
    Step::new(&cli)
        .args(["score", &m365.display().to_string(), "--format", "md"])
        .allow_exit(1)
        .run()?;
    println!(
        "\n== agenteval score examples/foundry-demo.jsonl --config examples/foundry-config.json"
    );
    Step::new(&cli)
        .args(["score", &foundry.display().to_string(), "--config"])
        .arg(&foundry_config)
        .args(["--out"])
        .arg(out.join("foundry-demo.scored.jsonl"))
        .allow_exit(1)
        .run()?;
    judged_example(&cli, &m365, &out)?;
    agent_example(&cli, &root.join("examples/copilot-studio-import.csv"), &out)?;
    println!("\nAll outputs written to {}", out.display());
    Ok(())
}

/// The Copilot Studio import set (questions without answers) run through the demo agent over
/// Direct Line, then scored against the demo judge in the same pass (`agenteval score --target`),
/// both played by the local server started in-process.
fn agent_example(
    cli: &std::path::Path,
    import_set: &std::path::Path,
    out: &std::path::Path,
) -> Result<(), String> {
    let server = agenteval_judge_server::start(agenteval_judge_server::ServerConfig::default())
        .map_err(|error| format!("cannot start the local demo agent: {error}"))?;
    let target = out.join("demo-directline-target.json");
    let config = format!(
        "{{\"kind\": \"directline\", \"endpoint\": \"{}/agent/v3/directline\", \"secretEnv\": \"DIRECTLINE_SECRET\", \"quietMs\": 300}}\n",
        server.url()
    );
    std::fs::write(&target, config)
        .map_err(|error| format!("cannot write {}: {error}", target.display()))?;
    println!(
        "\n== the Copilot Studio import set run through the demo agent (Direct Line), then scored:\n   DIRECTLINE_SECRET=demo-directline-secret agenteval score examples/copilot-studio-import.csv --target {} --judge-kind openai --judge-endpoint {}/v1 --judge-model demo --format md",
        target.display(),
        server.url()
    );
    Step::new(cli)
        .args(["run", &import_set.display().to_string(), "--target"])
        .arg(&target)
        .arg("--out")
        .arg(out.join("copilot-studio-import.answered.csv"))
        .env("DIRECTLINE_SECRET", "demo-directline-secret")
        .allow_exit(1)
        .run()?;
    Step::new(cli)
        .args(["score", &import_set.display().to_string(), "--target"])
        .arg(&target)
        .args(["--judge-kind", "openai", "--judge-endpoint"])
        .arg(format!("{}/v1", server.url()))
        .args([
            "--judge-model",
            "demo",
            "--no-judge-cache",
            "--format",
            "md",
            "--out",
        ])
        .arg(out.join("copilot-studio-import.agent.md"))
        .env("DIRECTLINE_SECRET", "demo-directline-secret")
        .allow_exit(1)
        .run()
}

/// The M365 demo again with its judged evaluators, against the local demo judge (`cargo xtask
/// judge`, started in-process): deterministic verdicts derived from the request, no model, no
/// network. Point `AZURE_AI_OPENAI_ENDPOINT` at a real deployment for real verdicts.
fn judged_example(
    cli: &std::path::Path,
    m365: &std::path::Path,
    out: &std::path::Path,
) -> Result<(), String> {
    let judge = agenteval_judge_server::start(agenteval_judge_server::ServerConfig::default())
        .map_err(|error| format!("cannot start the local demo judge: {error}"))?;
    println!(
        "\n== with the local demo judge (deterministic replies, no model) at {}:\n   AZURE_AI_OPENAI_ENDPOINT={} AZURE_AI_MODEL_NAME=demo agenteval score examples/m365-demo.json --format md",
        judge.url(),
        judge.url()
    );
    Step::new(cli)
        .args(["score", &m365.display().to_string(), "--format", "md"])
        .args(["--no-judge-cache", "--out"])
        .arg(out.join("m365-demo.judged.md"))
        .env("AZURE_AI_OPENAI_ENDPOINT", judge.url())
        .env("AZURE_AI_MODEL_NAME", "demo")
        .env("AZURE_AI_API_KEY", "")
        .allow_exit(1)
        .run()?;
    let written = std::fs::read_to_string(out.join("m365-demo.judged.md"))
        .map_err(|error| format!("cannot read the judged example: {error}"))?;
    if let Some(judge_section) = written.split("\n## Judge").nth(1) {
        let table: String = judge_section
            .lines()
            .take_while(|line| !line.starts_with("## "))
            .collect::<Vec<_>>()
            .join("\n");
        println!("## Judge{table}");
    }
    Ok(())
}

/// Formatting, lints, and every test suite.
fn test() -> Result<(), String> {
    cargo(["fmt", "--all", "--", "--check"]).run()?;
    layers::check(&project_root())?;
    cargo([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])
    .run()?;
    cargo(["test", "--workspace"]).run()?;
    wasm::test()?;
    Ok(())
}

/// The npm package, then the release CLI built with profile-guided optimisation, which compiles
/// the page (`web/`, the package) in.
fn build() -> Result<(), String> {
    wasm::build()?;
    let cli = pgo::build_cli()?;
    println!(
        "CLI: {} (with the page, for `agenteval view`)",
        cli.display()
    );
    Ok(())
}

/// The page as one offline file (the package built first when missing or stale).
fn dist() -> Result<(), String> {
    wasm::ensure_package()?;
    wasm::ensure_npm_packages()?;
    let out = wasm::target_dir().join("dist/agenteval.html");
    let size = dist::write(&out, &wasm::esbuild())?;
    println!("{}: {size} bytes", out.display());
    Ok(())
}

fn build_cli() -> Result<(), String> {
    cargo(["build", "--release", "-p", "agenteval-cli"]).run()
}

/// Runs the parser fuzz target for `seconds` (needs cargo-fuzz; uses RUSTC_BOOTSTRAP on stable).
fn fuzz(seconds: u64) -> Result<(), String> {
    run::ensure_cargo_tool("cargo-fuzz", "cargo-fuzz", None)?;
    let root = project_root();
    let corpus = root.join("fuzz/corpus/parse_document");
    std::fs::create_dir_all(&corpus)
        .map_err(|error| format!("cannot create {}: {error}", corpus.display()))?;
    cargo(["fuzz", "run", "parse_document"])
        .arg(&corpus)
        .arg(root.join("fuzz/seeds"))
        .args(["--", &format!("-max_total_time={seconds}")])
        .dir(root.join("fuzz"))
        .env("RUSTC_BOOTSTRAP", "1")
        .run()
}
