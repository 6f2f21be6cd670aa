//! What the CLI's end-to-end test files share: the repository root, running the binary with
//! bytes on its stdin, and scoring rows against the local judge. Each test file is its own crate
//! and uses only some of these.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root, where the tests run the binary.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `agenteval args` from the repository root with nothing on its standard input.
pub fn agenteval(args: &[&str]) -> Output {
    with_stdin(args, b"")
}

/// Runs `agenteval args` from the repository root with `stdin` written to its standard input.
/// A run that ends before reading it all (a usage error) may close the pipe first; that is not a
/// failure of the test.
pub fn with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the agenteval binary starts");
    let written = child.stdin.take().expect("stdin is piped").write_all(stdin);
    if let Err(error) = written {
        assert_eq!(
            error.kind(),
            std::io::ErrorKind::BrokenPipe,
            "stdin: {error}"
        );
    }
    child.wait_with_output().expect("agenteval finishes")
}

/// The one Foundry row of `file` scored against an OpenAI-compatible judge at `judge_url` (see
/// [`rows_with_openai_judge`]).
pub fn score_with_openai_judge(file: &Path, judge_url: &str) -> serde_json::Value {
    rows_with_openai_judge(file, judge_url)
        .into_iter()
        .next()
        .unwrap_or_default()
}

/// The Foundry rows of `file` scored against an OpenAI-compatible judge at `judge_url` (its
/// `/v1` route, model `llama3`, no cache, no key), one per line of stdout.
pub fn rows_with_openai_judge(file: &Path, judge_url: &str) -> Vec<serde_json::Value> {
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(file)
        .args([
            "--no-judge-cache",
            "--judge-kind",
            "openai",
            "--judge-model",
            "llama3",
            "--judge-endpoint",
        ])
        .arg(format!("{judge_url}/v1"))
        .env_remove("AZURE_AI_OPENAI_ENDPOINT")
        .env_remove("OPENAI_API_KEY")
        .output()
        .expect("agenteval runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let rows: Vec<serde_json::Value> = stdout
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    assert!(
        !rows.is_empty() && rows.len() == stdout.lines().count(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    rows
}

/// The result of `evaluator` on entry `index` of a run report.
pub fn found<'r>(
    report: &'r serde_json::Value,
    index: usize,
    evaluator: &str,
) -> &'r serde_json::Value {
    report["items"][index]["results"]
        .as_array()
        .and_then(|results| {
            results
                .iter()
                .find(|result| result["evaluator"] == evaluator)
        })
        .unwrap_or_else(|| panic!("no {evaluator} result for item {index}: {report:#}"))
}

/// The run report of `agenteval score FILE --format report --no-judge-cache ARGS…` against the
/// local judge at `judge_url` as an Azure endpoint (deployment `gpt-4o-judge`, no key).
pub fn report_with_azure_judge(file: &Path, judge_url: &str, args: &[&str]) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(file)
        .args(["--format", "report", "--no-judge-cache"])
        .args(args)
        .current_dir(root())
        .env("AZURE_AI_OPENAI_ENDPOINT", judge_url)
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env_remove("AZURE_AI_API_KEY")
        .output()
        .expect("agenteval runs");
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)))
}
