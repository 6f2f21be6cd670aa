//! Profile-guided optimisation of the native builds: `cargo xtask build`'s CLI and `cargo xtask
//! bench`'s criterion run. An instrumented build in `target/pgo-generate` runs a training
//! workload, `llvm-profdata` (rustup's `llvm-tools` component, added when missing) merges its
//! counts, and the optimised build in `target/pgo` reads them. Both builds name the host target,
//! so the flags reach the project's code and not build scripts, and neither disturbs the
//! `target/` that tests use. Without `llvm-profdata` (a toolchain rustup does not manage), both
//! commands build as before, without profiles, and say so.
//!
//! The CLI is trained by scoring the built-in examples in every format and a generated 20 000-
//! item document (`compare_reference write-document`) as a document and as a report. A profile
//! only fits code compiled exactly as it was recorded, so the criterion benchmarks cannot read
//! the CLI's: they are trained by their own bench binary, every benchmark run for a few seconds
//! without measuring (`--profile-time`), as `cargo pgo bench` does.

use std::path::{Path, PathBuf};

use crate::compare;
use crate::run::{cargo, project_root, Step};
use crate::wasm;

/// Where the optimised builds go (`target/pgo/<host>/release/agenteval` for the CLI).
pub fn target_dir() -> PathBuf {
    wasm::target_dir().join("pgo")
}

fn generate_dir() -> PathBuf {
    wasm::target_dir().join("pgo-generate")
}

/// Builds the CLI with profile-guided optimisation and returns its path.
///
/// # Errors
/// When a build, the training or the merge fails.
pub fn build_cli() -> Result<PathBuf, String> {
    let host = host_triple()?;
    let Some(profdata) = llvm_profdata_or_warn(&host) else {
        cargo(["build", "--release", "-q", "-p", "agenteval-cli"]).run()?;
        return Ok(wasm::target_dir().join("release/agenteval"));
    };
    let training_document = generate_dir().join("training-20k.json");
    if !training_document.exists() {
        std::fs::create_dir_all(generate_dir())
            .map_err(|error| format!("cannot create {}: {error}", generate_dir().display()))?;
        compare::compare_reference(&[
            "write-document",
            &training_document.display().to_string(),
            "20000",
        ])
        .run()?;
    }
    let raw = fresh_dir(&generate_dir().join("cli-profiles"))?;
    let build = [
        "build",
        "--release",
        "-q",
        "-p",
        "agenteval-cli",
        "--target",
        &host,
    ];
    profiled(cargo(build), &generate_dir(), &generate_flag(&raw)).run()?;
    let instrumented = generate_dir().join(&host).join("release/agenteval");
    train_cli(&instrumented, &training_document)?;
    let profile = merge(&profdata, &raw, &target_dir().join("cli.profdata"))?;
    profiled(cargo(build), &target_dir(), &use_flag(&profile)).run()?;
    Ok(target_dir().join(&host).join("release/agenteval"))
}

/// Runs the criterion benchmarks with profile-guided optimisation, trained by the benchmarks
/// themselves (each run `seconds` without measuring).
///
/// # Errors
/// When a build, the training, the merge or a benchmark fails.
pub fn bench(seconds: u32) -> Result<(), String> {
    let host = host_triple()?;
    let Some(profdata) = llvm_profdata_or_warn(&host) else {
        return cargo(["bench", "-p", "agenteval-core", "--bench", "evaluators"]).run();
    };
    let raw = fresh_dir(&generate_dir().join("bench-profiles"))?;
    let bench_args = [
        "bench",
        "-p",
        "agenteval-core",
        "--bench",
        "evaluators",
        "--target",
        &host,
    ];
    let listing = profiled(cargo(bench_args), &generate_dir(), &generate_flag(&raw))
        .args(["--no-run", "--message-format=json"])
        .output()?;
    let instrumented = bench_executable(&listing)?;
    Step::new(&instrumented)
        .args(["--bench", "--profile-time", &seconds.to_string()])
        .run()?;
    let profile = merge(&profdata, &raw, &target_dir().join("bench.profdata"))?;
    profiled(cargo(bench_args), &target_dir(), &use_flag(&profile)).run()
}

/// `step` building into `dir` with `flag` added to the user's `RUSTFLAGS`.
fn profiled(step: Step, dir: &Path, flag: &str) -> Step {
    step.env("CARGO_TARGET_DIR", dir)
        .env("RUSTFLAGS", rustflags(flag))
}

/// The flag of an instrumented build that writes its counts into `raw`.
fn generate_flag(raw: &Path) -> String {
    format!("-Cprofile-generate={}", raw.display())
}

/// The flag of a build optimised by `profile`.
fn use_flag(profile: &Path) -> String {
    format!("-Cprofile-use={}", profile.display())
}

/// The training workload of the CLI.
fn train_cli(cli: &Path, document: &Path) -> Result<(), String> {
    let root = project_root();
    let out = generate_dir().join("training-output");
    let m365 = root.join("examples/m365-demo.json");
    for format in ["document", "report", "csv", "junit", "md", "html"] {
        score(cli, &m365, format, &out)?;
    }
    for format in ["document", "report"] {
        score(cli, document, format, &out)?;
    }
    Step::new(cli)
        .arg("score")
        .arg(root.join("examples/foundry-demo.jsonl"))
        .arg("--config")
        .arg(root.join("examples/foundry-config.json"))
        .arg("--out")
        .arg(&out)
        .quiet_stderr()
        .allow_exit(1)
        .run()?;
    Step::new(cli)
        .arg("validate")
        .arg(&m365)
        .quiet_stderr()
        .run()
}

fn score(cli: &Path, dataset: &Path, format: &str, out: &Path) -> Result<(), String> {
    Step::new(cli)
        .arg("score")
        .arg(dataset)
        .args(["--format", format, "--out"])
        .arg(out)
        .quiet_stderr()
        .allow_exit(1)
        .run()
}

/// Merges the raw profiles in `raw` into `merged` with `profdata` (llvm-profdata).
fn merge(profdata: &Path, raw: &Path, merged: &Path) -> Result<PathBuf, String> {
    if let Some(dir) = merged.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    }
    Step::new(profdata)
        .arg("merge")
        .arg("-o")
        .arg(merged)
        .arg(raw)
        .run()?;
    Ok(merged.to_path_buf())
}

/// [`llvm_profdata`], or `None` after saying why the build goes on without profiles (a toolchain
/// not managed by rustup, or rustup unable to add the component).
fn llvm_profdata_or_warn(host: &str) -> Option<PathBuf> {
    llvm_profdata(host)
        .inspect_err(|why| {
            eprintln!("xtask: {why}; building without profile-guided optimisation");
        })
        .ok()
}

/// `llvm-profdata` of the active toolchain, adding rustup's `llvm-tools` component when missing.
fn llvm_profdata(host: &str) -> Result<PathBuf, String> {
    let sysroot = Step::new("rustc").args(["--print", "sysroot"]).output()?;
    let tool = Path::new(sysroot.trim())
        .join("lib/rustlib")
        .join(host)
        .join("bin/llvm-profdata");
    if !tool.exists() {
        Step::new("rustup")
            .args(["component", "add", "llvm-tools"])
            .run()?;
    }
    if tool.exists() {
        Ok(tool)
    } else {
        Err(format!("no llvm-profdata at {}", tool.display()))
    }
}

/// The host's target triple, as rustc names it.
fn host_triple() -> Result<String, String> {
    let version = Step::new("rustc").arg("-vV").output()?;
    version
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_owned)
        .ok_or_else(|| format!("no host triple in `rustc -vV`: {version}"))
}

/// The user's `RUSTFLAGS` with `flag` added.
fn rustflags(flag: &str) -> String {
    joined_flags(std::env::var("RUSTFLAGS").ok().as_deref(), flag)
}

/// `flag` after the flags already set, if any.
fn joined_flags(existing: Option<&str>, flag: &str) -> String {
    match existing {
        Some(flags) if !flags.trim().is_empty() => format!("{flags} {flag}"),
        _ => flag.to_owned(),
    }
}

/// `dir`, emptied of an earlier run's profiles.
fn fresh_dir(dir: &Path) -> Result<PathBuf, String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)
            .map_err(|error| format!("cannot clear {}: {error}", dir.display()))?;
    }
    std::fs::create_dir_all(dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    Ok(dir.to_path_buf())
}

/// The bench binary named in `cargo bench --no-run --message-format=json`'s output.
fn bench_executable(listing: &str) -> Result<PathBuf, String> {
    listing
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["target"]["name"] == "evaluators")
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo named no bench executable for `evaluators`".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_executable_is_read_from_cargos_messages() {
        let listing = concat!(
            r#"{"reason":"compiler-artifact","target":{"name":"agenteval_core"},"executable":null}"#,
            "\n",
            "not json\n",
            r#"{"reason":"compiler-artifact","target":{"name":"other"},"executable":"/t/other-1"}"#,
            "\n",
            r#"{"reason":"compiler-artifact","target":{"name":"evaluators"},"executable":"/t/evaluators-2"}"#,
            "\n",
            r#"{"reason":"build-finished","success":true}"#,
        );
        assert_eq!(
            bench_executable(listing),
            Ok(PathBuf::from("/t/evaluators-2"))
        );
        assert!(bench_executable(r#"{"reason":"build-finished"}"#).is_err());
    }

    #[test]
    fn the_profile_flag_is_added_to_the_users_flags() {
        let flag = "-Cprofile-use=/t/cli.profdata";
        assert_eq!(
            joined_flags(Some("-Ctarget-cpu=native"), flag),
            "-Ctarget-cpu=native -Cprofile-use=/t/cli.profdata"
        );
        assert_eq!(joined_flags(Some("  "), flag), flag);
        assert_eq!(joined_flags(None, flag), flag);
    }

    #[test]
    fn the_host_triple_is_read_from_rustc() {
        let host = host_triple().expect("rustc -vV runs");
        assert!(host.contains('-'), "{host}");
        assert!(!host.contains(char::is_whitespace), "{host:?}");
    }
}
