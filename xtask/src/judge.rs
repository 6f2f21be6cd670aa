//! `cargo xtask judge`: runs the local OpenAI/Azure-compatible judge server
//! (`agenteval-judge-server`, also the demo agent) in the foreground until killed, and says how
//! to point judge and agent clients at it. Only flag parsing and printing live here; the server
//! is the library's.

use std::time::Duration;

use agenteval_judge_server::{start, ServerConfig};
use clap::Args;

/// The flags, as the usage line shows them.
pub const USAGE: &str = "cargo xtask judge [--port P] [--latency-ms N] [--fault-rate F] \
                         [--seed S] [--key K] [--retry-after-ms N] [--hang-ms N]";

/// Flags of `judge`; unset ones keep [`ServerConfig::default`]'s values.
#[derive(Debug, Clone, Default, PartialEq, Args)]
#[command(override_usage = USAGE)]
pub struct JudgeArgs {
    /// Port on 127.0.0.1; 0 picks any free port.
    #[arg(long, value_name = "P")]
    port: Option<u16>,
    /// Milliseconds every answer waits.
    #[arg(long, value_name = "N")]
    latency_ms: Option<u64>,
    /// Share of requests answered with a random fault, 0 to 1.
    #[arg(long, value_name = "F", value_parser = fault_rate)]
    fault_rate: Option<f64>,
    /// Seed of the random faults.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Key every request must carry.
    #[arg(long, value_name = "K", value_parser = key)]
    key: Option<String>,
    /// The Retry-After of throttling faults, in milliseconds.
    #[arg(long, value_name = "N")]
    retry_after_ms: Option<u64>,
    /// How long a hang fault sends nothing, in milliseconds.
    #[arg(long, value_name = "N")]
    hang_ms: Option<u64>,
}

fn fault_rate(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|rate| (0.0..=1.0).contains(rate))
        .ok_or_else(|| format!("expected a number from 0 to 1, not `{text}`"))
}

fn key(text: &str) -> Result<String, String> {
    if text.is_empty() {
        Err("expected a non-empty key".to_owned())
    } else {
        Ok(text.to_owned())
    }
}

impl JudgeArgs {
    /// The server configuration the flags ask for.
    fn config(&self) -> ServerConfig {
        let defaults = ServerConfig::default();
        ServerConfig {
            port: self.port.unwrap_or(defaults.port),
            latency: self
                .latency_ms
                .map_or(defaults.latency, Duration::from_millis),
            fault_rate: self.fault_rate.unwrap_or(defaults.fault_rate),
            seed: self.seed.unwrap_or(defaults.seed),
            key: self.key.clone().or_else(|| defaults.key.clone()),
            retry_after_ms: self.retry_after_ms.unwrap_or(defaults.retry_after_ms),
            hang: self.hang_ms.map_or(defaults.hang, Duration::from_millis),
        }
    }
}

/// Starts the server `args` ask for and serves until the process is killed.
///
/// # Errors
/// When the server cannot start.
pub fn run(args: &JudgeArgs) -> Result<(), String> {
    let config = args.config();
    let key = config.key.is_some();
    let server = start(config.clone()).map_err(|error| match config.port {
        0 => format!("cannot start the local judge: {error}"),
        port => format!("cannot start the local judge on port {port}: {error}"),
    })?;
    let url = server.url();
    println!("local judge listening on {url}");
    println!("  azure:    endpoint {url}  (any deployment name, any api-version)");
    println!("  azure-v1: base URL {url}/openai/v1");
    println!("  openai:   base URL {url}/v1");
    println!("  stats:    GET {url}/stats   reset: POST {url}/reset");
    print_agent_endpoints(&url, key);
    println!(
        "  latency {} ms, fault rate {}, seed {}, {}; Ctrl-C stops it",
        config.latency.as_millis(),
        config.fault_rate,
        config.seed,
        if key { "key required" } else { "no key" }
    );
    loop {
        std::thread::park();
    }
}

/// Says how to point each kind of agent target at the demo agent of the server at `url`
/// (`key`: whether the server has one, which is then the Direct Line secret).
pub fn print_agent_endpoints(url: &str, key: bool) {
    println!("demo agent on the same server (crates/judge-server/README.md, \"Demo agent\"):");
    println!(
        "  directline: endpoint {url}/agent/v3/directline  (secret {}), token endpoint {url}/agent/directline/token",
        if key { "the key" } else { "demo-directline-secret" }
    );
    println!("  responses:  endpoint {url}/agent/openai/v1   chat: endpoint {url}/agent/v1");
    println!("  a2a:        {url}/agent/a2a   http: POST {url}/agent/http");
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Command {
        #[command(flatten)]
        judge: JudgeArgs,
    }

    fn parse(text: &str) -> Result<ServerConfig, String> {
        Command::try_parse_from(std::iter::once("judge").chain(text.split_whitespace()))
            .map(|command| command.judge.config())
            .map_err(|error| error.to_string())
    }

    #[test]
    fn flags_fill_the_configuration() {
        let config =
            parse("--port 8123 --latency-ms=100 --fault-rate 0.3 --seed 7 --key k --hang-ms 5")
                .unwrap_or_default();
        assert_eq!(config.port, 8123);
        assert_eq!(config.latency, Duration::from_millis(100));
        assert_eq!(config.fault_rate, 0.3);
        assert_eq!(config.seed, 7);
        assert_eq!(config.key.as_deref(), Some("k"));
        assert_eq!(config.hang, Duration::from_millis(5));
        assert_eq!(config.retry_after_ms, 50);
        assert_eq!(parse(""), Ok(ServerConfig::default()));
    }

    #[test]
    fn bad_flags_are_refused() {
        for bad in [
            "--port",
            "--port 70000",
            "--latency-ms -1",
            "--fault-rate 1.5",
            "--fault-rate x",
            "--key=",
            "--verbose",
        ] {
            let error = parse(bad).err().unwrap_or_default();
            assert!(!error.is_empty(), "`{bad}` accepted");
        }
        assert!(parse("--fault-rate 1.5")
            .err()
            .unwrap_or_default()
            .contains("expected a number from 0 to 1"));
    }
}
