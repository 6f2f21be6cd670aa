//! `cargo xtask judge`: runs the local OpenAI/Azure-compatible judge server
//! (`agenteval-judge-server`) in the foreground until killed, and says how to point clients at
//! it. Only flag parsing and printing live here; the server is the library's.

use std::time::Duration;

use agenteval_judge_server::{start, ServerConfig};

const USAGE: &str = "usage: cargo xtask judge [--port P] [--latency-ms N] [--fault-rate F] \
                     [--seed S] [--key K] [--retry-after-ms N] [--hang-ms N]";

/// Parses `args` (after `judge`), starts the server and serves until the process is killed.
pub fn run(args: &[String]) -> Result<(), String> {
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    let config = parse(args)?;
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

/// The server configuration `args` ask for.
fn parse(args: &[String]) -> Result<ServerConfig, String> {
    let mut config = ServerConfig::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| rest.next().cloned())
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        match flag {
            "--port" => config.port = number(flag, &value()?)?,
            "--latency-ms" => config.latency = Duration::from_millis(number(flag, &value()?)?),
            "--fault-rate" => {
                let text = value()?;
                config.fault_rate = text
                    .parse::<f64>()
                    .ok()
                    .filter(|rate| (0.0..=1.0).contains(rate))
                    .ok_or_else(|| {
                        format!("--fault-rate must be a number from 0 to 1, not `{text}`")
                    })?;
            }
            "--seed" => config.seed = number(flag, &value()?)?,
            "--key" => {
                let key = value()?;
                if key.is_empty() {
                    return Err(format!("--key must not be empty\n{USAGE}"));
                }
                config.key = Some(key);
            }
            "--retry-after-ms" => config.retry_after_ms = number(flag, &value()?)?,
            "--hang-ms" => config.hang = Duration::from_millis(number(flag, &value()?)?),
            _ => return Err(format!("unknown argument `{arg}`\n{USAGE}")),
        }
    }
    Ok(config)
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag} must be a whole number, not `{text}`\n{USAGE}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_fill_the_configuration() {
        let config = parse(&args(
            "--port 8123 --latency-ms=100 --fault-rate 0.3 --seed 7 --key k --hang-ms 5",
        ))
        .unwrap_or_default();
        assert_eq!(config.port, 8123);
        assert_eq!(config.latency, Duration::from_millis(100));
        assert_eq!(config.fault_rate, 0.3);
        assert_eq!(config.seed, 7);
        assert_eq!(config.key.as_deref(), Some("k"));
        assert_eq!(config.hang, Duration::from_millis(5));
        assert_eq!(config.retry_after_ms, 50);
    }

    #[test]
    fn bad_flags_are_refused_with_the_usage() {
        for bad in [
            "--port",
            "--port 70000",
            "--latency-ms -1",
            "--fault-rate 1.5",
            "--fault-rate x",
            "--key=",
            "--verbose",
        ] {
            let error = parse(&args(bad)).err().unwrap_or_default();
            assert!(!error.is_empty(), "`{bad}` accepted");
        }
        assert!(parse(&args("--port 70000"))
            .err()
            .unwrap_or_default()
            .contains("--port must be a whole number"));
    }
}
