//! Soak: thousands of judge calls through the `agenteval` binary against the local judge server,
//! with random transient faults (429, 500, 503, truncated bodies) on the first attempt of 30 % of
//! the requests and permanent faults planted by directive on a few items. No call may be lost and
//! none may end differently from what a fault-free judge gives it: the expected verdicts come
//! from a second run of the same dataset against a fresh server without faults (each result must
//! equal that run's, score, reason, usage and all), and the expected error codes from the
//! directives. No timing is asserted; the wall times are printed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use agenteval_judge_server::{start, ServerConfig, Stats};
use serde_json::{json, Value};

const KEY: &str = "sk-soak-key-51c2";

/// 2 600 items × 2 judged evaluators: 5 200 judge calls.
const ITEMS: usize = 2_600;
const EVALUATORS: [&str; 2] = ["Relevance", "Coherence"];
const CONCURRENCY: u64 = 16;

/// A permanent fault planted in an item's response, for both of its judge calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Planted {
    None,
    /// The reply's content is not JSON (3 % of the items).
    Malformed,
    /// The judge scores 9 on the 1–5 scale (2 %).
    OffScale,
    /// The endpoint refuses the credentials (1 %).
    Unauthorized,
    /// The judge says there is nothing to judge (0.3 %).
    Skip,
}

impl Planted {
    /// Scattered over the items by a hash of the index, the same on every run.
    fn for_item(index: usize) -> Self {
        match mix(index as u64) % 1000 {
            0..30 => Planted::Malformed,
            30..50 => Planted::OffScale,
            50..60 => Planted::Unauthorized,
            60..63 => Planted::Skip,
            _ => Planted::None,
        }
    }

    fn directive(self) -> &'static str {
        match self {
            Planted::None => "",
            Planted::Malformed => " [[judge:fault=malformed]]",
            Planted::OffScale => " [[judge:score=9]]",
            Planted::Unauthorized => " [[judge:fault=401]]",
            Planted::Skip => " [[judge:skip]]",
        }
    }

    /// The verdict and error code the directive leads to; `None` for an unplanted item, whose
    /// verdict is the fault-free run's.
    fn expected(self) -> Option<(&'static str, &'static str)> {
        match self {
            Planted::None => None,
            Planted::Malformed | Planted::OffScale => Some(("error", "judgeOutputUnparseable")),
            Planted::Unauthorized => Some(("error", "judgeAuthenticationError")),
            Planted::Skip => Some(("skipped", "")),
        }
    }
}

/// SplitMix64's finaliser.
fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every item unique, so no two requests share a body (the server counts attempts per body, and
/// the run's memory cache would answer a repeated request).
fn dataset() -> Value {
    let items: Vec<Value> = (0..ITEMS)
        .map(|index| {
            json!({
                "prompt": format!("Question {index}: what is the capital of France?"),
                "response": format!(
                    "Answer {index}: Paris is the capital of France.{}",
                    Planted::for_item(index).directive()
                ),
            })
        })
        .collect();
    let evaluators: serde_json::Map<String, Value> = EVALUATORS
        .iter()
        .map(|name| ((*name).to_owned(), json!({})))
        .collect();
    json!({"schemaVersion": "1.11.0", "default_evaluators": evaluators, "items": items})
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agenteval-judge-soak-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// A fresh local judge with `fault_rate`, answering after 5 ms (so that requests overlap and the
/// concurrency bound is tested); 429s ask for 5 ms.
fn judge(fault_rate: f64) -> agenteval_judge_server::RunningServer {
    start(ServerConfig {
        fault_rate,
        latency: Duration::from_millis(5),
        retry_after_ms: 5,
        key: Some(KEY.into()),
        ..ServerConfig::default()
    })
    .expect("the local judge starts")
}

/// `agenteval score FILE --format report` against `url`; the output, the report and the server's
/// figures after the run.
fn score(file: &Path, server: &agenteval_judge_server::RunningServer) -> (Output, Value, Stats) {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .arg("score")
        .arg(file)
        .args(["--format", "report", "--no-judge-cache"])
        .args(["--judge-concurrency", &CONCURRENCY.to_string()])
        .args(["--judge-backoff-ms", "5"])
        .env("AZURE_AI_OPENAI_ENDPOINT", server.url())
        .env("AZURE_AI_MODEL_NAME", "gpt-4o-judge")
        .env("AZURE_AI_API_KEY", KEY)
        .env("AZURE_AI_API_VERSION", "2024-10-21")
        .output()
        .expect("agenteval runs");
    eprintln!(
        "soak: {} judged in {:.1} s",
        file.display(),
        started.elapsed().as_secs_f64()
    );
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "no report ({error}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, report, server.stats())
}

/// The item's result of `evaluator`; exactly one must be there.
fn result<'r>(report: &'r Value, index: usize, evaluator: &str) -> &'r Value {
    let found: Vec<&Value> = report["items"][index]["results"]
        .as_array()
        .map(|results| {
            results
                .iter()
                .filter(|result| result["evaluator"] == evaluator)
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        found.len(),
        1,
        "item {index} has {} {evaluator} results",
        found.len()
    );
    found[0]
}

fn verdict(result: &Value) -> (&str, &str) {
    (
        result["result"].as_str().unwrap_or(""),
        result["error"]["code"].as_str().unwrap_or(""),
    )
}

fn figure(report: &Value, name: &str) -> u64 {
    report["judge"][name]
        .as_u64()
        .unwrap_or_else(|| panic!("no judge.{name} in the report: {}", report["judge"]))
}

#[test]
fn thousands_of_judge_calls_under_random_faults_end_as_a_fault_free_run_does() {
    let dir = scratch();
    let file = dir.join("soak.json");
    std::fs::write(&file, dataset().to_string()).expect("dataset written");
    let started = Instant::now();

    let faulty = judge(0.3);
    let (output, report, stats) = score(&file, &faulty);
    faulty.stop();
    assert_eq!(output.status.code(), Some(1), "errors were planted");
    let clean = judge(0.0);
    let (_, baseline, clean_stats) = score(&file, &clean);
    clean.stop();
    assert_eq!(clean_stats.random_faults, 0);
    assert!(clean_stats.max_in_flight <= CONCURRENCY);

    let items = report["items"].as_array().expect("items");
    assert_eq!(items.len(), ITEMS, "items lost");
    let mut checked = 0;
    let mut planted_results = 0;
    let mut unauthorized_results = 0;
    for (index, item) in items.iter().enumerate() {
        assert_eq!(item["index"], index, "items out of order");
        let planted = Planted::for_item(index);
        for evaluator in EVALUATORS {
            let got = result(&report, index, evaluator);
            let fault_free = result(&baseline, index, evaluator);
            match planted.expected() {
                Some(expected) => {
                    planted_results += 1;
                    if planted == Planted::Unauthorized {
                        unauthorized_results += 1;
                    }
                    assert_eq!(verdict(got), expected, "item {index} {evaluator}: {got}");
                    assert_eq!(
                        verdict(fault_free),
                        expected,
                        "item {index} {evaluator}, fault-free: {fault_free}"
                    );
                }
                None => {
                    let (fault_free_verdict, _) = verdict(fault_free);
                    assert!(
                        fault_free_verdict == "pass" || fault_free_verdict == "fail",
                        "item {index} {evaluator}, fault-free: {fault_free}"
                    );
                    assert_eq!(
                        verdict(got),
                        (fault_free_verdict, ""),
                        "item {index} {evaluator}: {got}"
                    );
                }
            }
            assert_eq!(
                got, fault_free,
                "item {index} {evaluator}: the whole result as without faults"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, ITEMS * EVALUATORS.len());
    assert!(planted_results > 0 && unauthorized_results > 0);

    let calls = (ITEMS * EVALUATORS.len()) as u64;
    assert!(
        stats.completions >= 5_000,
        "{} chat completions",
        stats.completions
    );
    assert!(
        stats.random_faults * 4 >= calls,
        "{} random faults on {calls} first attempts",
        stats.random_faults
    );
    assert!(
        stats.max_in_flight <= CONCURRENCY,
        "{} in flight",
        stats.max_in_flight
    );
    assert_eq!(stats.unauthorized, 0);

    assert_eq!(figure(&report, "calls"), calls);
    assert_eq!(figure(&report, "cache_hits"), 0);
    assert_eq!(figure(&report, "cache_misses"), calls);
    let retries = figure(&report, "retries");
    assert!(
        retries >= stats.random_faults,
        "every random fault is retried: {retries} retries, {} faults",
        stats.random_faults
    );
    assert_eq!(
        figure(&report, "requests"),
        calls + retries,
        "each call is one request and its retries"
    );
    assert_eq!(figure(&report, "requests"), stats.completions);
    assert_eq!(
        figure(&report, "rate_limited"),
        stats.faults.get("429").copied().unwrap_or(0)
    );
    assert!(figure(&report, "rate_limited") > 0);
    let error_results = report["items"].as_array().map_or(0, |items| {
        items
            .iter()
            .flat_map(|item| item["results"].as_array().into_iter().flatten())
            .filter(|result| result["result"] == "error")
            .count()
    }) as u64;
    assert!(error_results > unauthorized_results);
    assert_eq!(
        figure(&report, "failures"),
        error_results,
        "failed calls: refused credentials and replies that gave no verdict"
    );
    assert!(figure(&report, "peak_in_flight") <= CONCURRENCY);
    assert_eq!(
        report["judge"]["usage"]["total_tokens"],
        stats.prompt_tokens + stats.completion_tokens,
        "the tokens of every complete reply, counted once"
    );
    assert_eq!(report["judge"]["cancelled"], false);

    eprintln!(
        "soak: {checked} results checked ({planted_results} planted faults), {} completions, \
         {} random faults {:?}, {retries} retries, peak {} in flight; {:.1} s in all",
        stats.completions,
        stats.random_faults,
        stats.faults,
        stats.max_in_flight,
        started.elapsed().as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
