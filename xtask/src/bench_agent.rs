//! `cargo xtask bench agent`: `agenteval run` sending 1 000 single-turn prompts to the local demo
//! agent as a chat completions endpoint answering after 50 ms, at the default
//! `--target-concurrency` (4), through the release CLI. Target (issue 41): at least 90 % of
//! concurrency ÷ latency, the rate a scheduler that never idles a slot would reach.

use std::path::Path;
use std::time::{Duration, Instant};

use agenteval_judge_server::{start, ServerConfig};

use crate::run::{cargo, Step};
use crate::wasm;

/// Prompts sent.
const ITEMS: usize = 1_000;
/// The demo agent's time to answer.
const LATENCY: Duration = Duration::from_millis(50);
/// `agenteval run`'s default `--target-concurrency`.
const CONCURRENCY: usize = 4;
/// Timed runs; the median is reported.
const ROUNDS: usize = 3;

/// Builds the release CLI and times the runs.
pub fn run_agent() -> Result<(), String> {
    cargo(["build", "--release", "-q", "-p", "agenteval-cli"]).run()?;
    agent_against(&wasm::target_dir().join("release/agenteval"))
}

/// Times `cli` running [`ITEMS`] prompts through the demo agent, [`ROUNDS`] times, and prints
/// every round and the median's share of the ideal rate.
pub fn agent_against(cli: &Path) -> Result<(), String> {
    let dir = wasm::target_dir().join("bench");
    std::fs::create_dir_all(&dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    let dataset = dir.join("agent-1000.json");
    let items: Vec<serde_json::Value> = (0..ITEMS)
        .map(|index| {
            serde_json::json!({
                "prompt": format!("Question {index}: how many vacation days do new employees get?"),
                "expected_response": "New employees get 20 vacation days per year."
            })
        })
        .collect();
    let document = serde_json::json!({"schemaVersion": "1.11.0", "items": items});
    std::fs::write(&dataset, document.to_string())
        .map_err(|error| format!("cannot write {}: {error}", dataset.display()))?;
    let server = start(ServerConfig {
        latency: LATENCY,
        ..ServerConfig::default()
    })
    .map_err(|error| format!("cannot start the local demo agent: {error}"))?;
    let target = dir.join("agent-target.json");
    let config = serde_json::json!({
        "kind": "chat",
        "endpoint": format!("{}/agent/v1", server.url()),
        "model": "demo"
    });
    std::fs::write(&target, config.to_string())
        .map_err(|error| format!("cannot write {}: {error}", target.display()))?;
    let out = dir.join("agent-1000.answered.json");
    let ideal = CONCURRENCY as f64 / LATENCY.as_secs_f64();
    println!(
        "\nAgent runs: {ITEMS} single-turn prompts, the local demo agent (chat) at {} ms, --target-concurrency {CONCURRENCY} (ideal {ideal:.0} prompts/s):",
        LATENCY.as_millis()
    );
    let mut rates = Vec::with_capacity(ROUNDS);
    for round in 1..=ROUNDS {
        server.reset_stats();
        let started = Instant::now();
        Step::new(cli)
            .arg("run")
            .arg(&dataset)
            .arg("--target")
            .arg(&target)
            .arg("--out")
            .arg(&out)
            .quiet_stderr()
            .run()?;
        let seconds = started.elapsed().as_secs_f64();
        let sent = server.stats().agent_requests.values().sum::<u64>();
        if sent != ITEMS as u64 {
            return Err(format!("the demo agent saw {sent} requests, not {ITEMS}"));
        }
        let rate = ITEMS as f64 / seconds;
        println!(
            "round {round}: {seconds:.3} s, {rate:.1} prompts/s ({:.1} % of the ideal)",
            100.0 * rate / ideal
        );
        rates.push(rate);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates.get(ROUNDS / 2).copied().unwrap_or_default();
    println!(
        "median round: {median:.1} prompts/s, {:.1} % of the ideal {ideal:.0} prompts/s (target 90 %)",
        100.0 * median / ideal
    );
    Ok(())
}
