//! `cargo xtask serve`: the README's main job. It builds what is missing (the npm package in
//! `pkg/`, then the CLI, whose build script compiles the page into it), starts the local demo
//! judge in-process (printing the endpoints of the demo agent it also plays), and runs
//! `agenteval view examples/m365-demo.json` offering that judge, in the foreground until killed.
//! The serving itself is the product's (`agenteval view`, `crates/site`).

use clap::Args;

use crate::run::{cargo, Step};
use crate::wasm;

/// The flags, as the usage line shows them.
pub const USAGE: &str = "cargo xtask serve [--port P] [--no-open]";

/// The label the page shows for the demo judge.
const JUDGE_LABEL: &str = "local demo judge (deterministic replies, no model)";

/// The label the page shows for the demo agent.
const AGENT_LABEL: &str = "local demo agent";

/// Flags of `serve`.
#[derive(Debug, Clone, PartialEq, Eq, Args)]
#[command(override_usage = USAGE)]
pub struct ServeArgs {
    /// Port on 127.0.0.1 (the next free one when taken); 0 picks any.
    #[arg(long, value_name = "P", default_value_t = 8000)]
    port: u16,
    /// Print the page's URL without trying to open a browser.
    #[arg(long)]
    no_open: bool,
}

/// Builds the package and the CLI when missing or stale, starts the demo judge, and runs
/// `agenteval view` on the example until the process is killed.
///
/// # Errors
/// A failed build, a judge that cannot start, or `agenteval view` failing.
pub fn run(args: &ServeArgs) -> Result<(), String> {
    wasm::ensure_package()?;
    cargo(["build", "-p", "agenteval-cli"]).run()?;
    let cli = wasm::target_dir().join("debug/agenteval");
    let judge = agenteval_judge_server::start(agenteval_judge_server::ServerConfig::default())
        .map_err(|error| format!("cannot start the local demo judge: {error}"))?;
    crate::judge::print_agent_endpoints(&judge.url(), false);
    Step::new(cli).args(view_args(args, &judge.url())).run()
}

/// The arguments of `agenteval view` for `args` and the judge at `judge`.
fn view_args(args: &ServeArgs, judge: &str) -> Vec<String> {
    let mut view = [
        "view",
        "examples/m365-demo.json",
        "--port",
        &args.port.to_string(),
        "--judge-endpoint",
        judge,
        "--judge-kind",
        "azure",
        "--judge-model",
        "demo",
        "--judge-label",
        JUDGE_LABEL,
        "--agent-endpoint",
        &format!("{judge}/agent/v1"),
        "--agent-kind",
        "chat",
        "--agent-model",
        "demo-agent",
        "--agent-label",
        AGENT_LABEL,
    ]
    .map(str::to_owned)
    .to_vec();
    if args.no_open {
        view.push("--no-open".to_owned());
    }
    view
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Command {
        #[command(flatten)]
        serve: ServeArgs,
    }

    fn parse(text: &str) -> Result<ServeArgs, String> {
        Command::try_parse_from(std::iter::once("serve").chain(text.split_whitespace()))
            .map(|command| command.serve)
            .map_err(|error| error.to_string())
    }

    #[test]
    fn flags_give_the_port_and_whether_to_open() {
        let serve = |port, no_open| ServeArgs { port, no_open };
        assert_eq!(parse(""), Ok(serve(8000, false)));
        assert_eq!(parse("--port 0 --no-open"), Ok(serve(0, true)));
        assert_eq!(parse("--port=8123"), Ok(serve(8123, false)));
        for bad in ["--port", "--port 70000", "--port x", "--verbose"] {
            assert!(parse(bad).is_err(), "`{bad}` accepted");
        }
    }

    #[test]
    fn the_cli_opens_the_example_offering_the_judge() {
        let args = view_args(
            &ServeArgs {
                port: 0,
                no_open: true,
            },
            "http://127.0.0.1:9",
        );
        assert_eq!(
            args.join(" "),
            format!(
                "view examples/m365-demo.json --port 0 --judge-endpoint http://127.0.0.1:9 \
                 --judge-kind azure --judge-model demo --judge-label {JUDGE_LABEL} \
                 --agent-endpoint http://127.0.0.1:9/agent/v1 --agent-kind chat \
                 --agent-model demo-agent --agent-label {AGENT_LABEL} --no-open"
            )
        );
    }
}
