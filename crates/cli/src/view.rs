//! `agenteval view [FILE]`: the web page served on `127.0.0.1` from the files compiled into this
//! binary (`build.rs`), opening FILE (a dataset or a scored file) scored, with a judge offered
//! to the page's judge panel and an agent to its agent panel when they are named. The serving is `agenteval-site`'s; this module
//! reads the flags, checks FILE, prints the URL and opens a browser when it can.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agenteval_core::agent::target::Target;
use agenteval_core::judge::JudgeSettings;
use agenteval_site::{AgentOffer, Files, JudgeOffer, Opened, Site};
use clap::Args;

use crate::UsageError;

mod page {
    include!(concat!(env!("OUT_DIR"), "/page.rs"));
}

/// What a binary built without the page says, before exiting 2.
pub const WITHOUT_PAGE: &str = "agenteval view: this agenteval was built without the web page: \
     run `cargo xtask build` first (it builds the package into pkg/), then rebuild the CLI";

/// The label of an offered judge when `--judge-label` does not name it.
const JUDGE_LABEL: &str = "judge given to `agenteval view`";

/// Options of `view`.
#[derive(Debug, Clone, Args)]
pub struct ViewArgs {
    /// Dataset or scored file the page opens (an M365 document, Foundry JSONL, a Copilot Studio
    /// CSV, a scored document or runevals results); without it the page opens its built-in
    /// example, or the last run kept in the browser.
    pub file: Option<PathBuf>,
    /// Port on 127.0.0.1; when taken, the next free one; 0 picks any.
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Print the URL without trying to open a browser.
    #[arg(long)]
    pub no_open: bool,
    /// A judge endpoint to offer in the page's judge panel (no key is read or sent: a judge that
    /// needs one gets it typed into the panel).
    #[arg(long, value_name = "URL")]
    pub judge_endpoint: Option<String>,
    /// The offered judge's kind: azure, azure-v1 or openai.
    #[arg(
        long,
        value_name = "KIND",
        default_value = "azure",
        requires = "judge_endpoint"
    )]
    pub judge_kind: String,
    /// The offered judge's deployment (azure) or model.
    #[arg(long, value_name = "NAME", requires = "judge_endpoint")]
    pub judge_model: Option<String>,
    /// What the judge panel calls the offered judge.
    #[arg(long, value_name = "TEXT", requires = "judge_endpoint")]
    pub judge_label: Option<String>,
    /// An agent endpoint to offer in the page's agent panel (no secret is read or sent).
    #[arg(long, value_name = "URL")]
    pub agent_endpoint: Option<String>,
    /// The offered agent's kind: directline, responses, a2a, chat or http.
    #[arg(
        long,
        value_name = "KIND",
        default_value = "chat",
        requires = "agent_endpoint"
    )]
    pub agent_kind: String,
    /// The offered agent's model (chat, responses).
    #[arg(long, value_name = "NAME", requires = "agent_endpoint")]
    pub agent_model: Option<String>,
    /// What the agent panel calls the offered agent.
    #[arg(long, value_name = "TEXT", requires = "agent_endpoint")]
    pub agent_label: Option<String>,
}

/// The label of an offered agent when `--agent-label` does not name it.
const AGENT_LABEL: &str = "agent given to `agenteval view`";

/// Serves the page until the process is stopped.
///
/// # Errors
/// A binary built without the page, a FILE that cannot be read, a bad judge, or no port to bind.
pub fn view(args: &ViewArgs) -> Result<u8, UsageError> {
    let server = start(Files::from_static(page::FILES), args)?;
    let url = server.page_url();
    println!("page:  {url}");
    if let Some(judge) = &args.judge_endpoint {
        println!(
            "judge: {judge} ({}, model `{}`), offered in the page's judge panel",
            args.judge_label.as_deref().unwrap_or(JUDGE_LABEL),
            args.judge_model.as_deref().unwrap_or_default()
        );
    }
    if let Some(agent) = &args.agent_endpoint {
        println!(
            "agent: {agent} ({}, {}), offered in the page's agent panel",
            args.agent_label.as_deref().unwrap_or(AGENT_LABEL),
            args.agent_kind
        );
    }
    println!("Ctrl-C stops it");
    let _ = std::io::stdout().flush();
    if !args.no_open {
        open_browser(&url);
    }
    server.wait();
    Ok(0)
}

/// Checks the flags and starts serving `files`.
fn start(files: Files, args: &ViewArgs) -> Result<agenteval_site::Server, UsageError> {
    if !files.has_page() {
        return Err(UsageError(WITHOUT_PAGE.to_owned()));
    }
    let opened = args.file.as_deref().map(opened).transpose()?;
    let judge = args
        .judge_endpoint
        .as_deref()
        .map(|endpoint| offer(endpoint, args))
        .transpose()?;
    let agent = args
        .agent_endpoint
        .as_deref()
        .map(|endpoint| agent_offer(endpoint, args))
        .transpose()?;
    agenteval_site::start(
        Site {
            files,
            opened,
            judge,
            agent,
        },
        args.port,
    )
    .map_err(|error| {
        UsageError(format!(
            "agenteval view: cannot serve on 127.0.0.1 from port {}: {error}",
            args.port
        ))
    })
}

/// FILE, once it is known to be a readable file.
fn opened(path: &Path) -> Result<Opened, UsageError> {
    match std::fs::File::open(path).and_then(|file| file.metadata()) {
        Ok(meta) if meta.is_file() => Ok(Opened::new(path.to_path_buf())),
        Ok(_) => Err(UsageError(format!(
            "{}: expected a dataset or scored file, found a folder",
            path.display()
        ))),
        Err(error) => Err(UsageError(format!(
            "{}: cannot read it: {error}",
            path.display()
        ))),
    }
}

/// The judge offered to the page, checked as `score` checks its judge.
fn offer(endpoint: &str, args: &ViewArgs) -> Result<JudgeOffer, UsageError> {
    let model = args.judge_model.clone().ok_or_else(|| {
        UsageError("--judge-model: expected the deployment or model of --judge-endpoint".to_owned())
    })?;
    let requested = JudgeSettings {
        kind: Some(args.judge_kind.clone()),
        endpoint: endpoint.to_owned(),
        model: model.clone(),
        ..JudgeSettings::default()
    };
    let (checked, _) = requested
        .resolve()
        .map_err(|error| UsageError(error.for_cli()))?;
    Ok(JudgeOffer {
        kind: checked.kind.as_str().to_owned(),
        endpoint: endpoint.to_owned(),
        model,
        label: args
            .judge_label
            .clone()
            .unwrap_or_else(|| JUDGE_LABEL.to_owned()),
    })
}

/// The agent offered to the page, checked as `run --target` checks a target (the http kind's
/// endpoint is its `url`).
fn agent_offer(endpoint: &str, args: &ViewArgs) -> Result<AgentOffer, UsageError> {
    let mut target = serde_json::Map::new();
    target.insert("kind".to_owned(), args.agent_kind.as_str().into());
    let field = if args.agent_kind == "http" {
        "url"
    } else {
        "endpoint"
    };
    target.insert(field.to_owned(), endpoint.into());
    if let Some(model) = &args.agent_model {
        target.insert("model".to_owned(), model.as_str().into());
    }
    Target::from_value(&serde_json::Value::Object(target))
        .map_err(|error| UsageError(format!("--agent-endpoint: {error}")))?;
    Ok(AgentOffer {
        kind: args.agent_kind.clone(),
        endpoint: endpoint.to_owned(),
        model: args.agent_model.clone(),
        label: args
            .agent_label
            .clone()
            .unwrap_or_else(|| AGENT_LABEL.to_owned()),
    })
}

/// The program that opens a URL in the user's browser on `os`, when one may be shown: macOS's
/// `open`; elsewhere `xdg-open`, when a display is set.
fn opener(os: &str, display: bool) -> Option<&'static str> {
    match os {
        "macos" => Some("open"),
        "linux" | "freebsd" | "openbsd" | "netbsd" | "dragonfly" if display => Some("xdg-open"),
        _ => None,
    }
}

/// Tries to open `url` in a browser; not being able to is not an error.
fn open_browser(url: &str) {
    let display = ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|value| !value.is_empty()));
    let Some(program) = opener(std::env::consts::OS, display) else {
        return;
    };
    let _ = Command::new(program)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(file: Option<&str>) -> ViewArgs {
        ViewArgs {
            file: file.map(PathBuf::from),
            port: 0,
            no_open: true,
            judge_endpoint: None,
            judge_kind: "azure".into(),
            judge_model: None,
            judge_label: None,
            agent_endpoint: None,
            agent_kind: "chat".into(),
            agent_model: None,
            agent_label: None,
        }
    }

    static PAGE: &[(&str, &[u8])] = &[
        ("web/index.html", b"<!doctype html>"),
        ("pkg/agenteval_wasm_bg.wasm", b"\0asm"),
    ];

    #[test]
    fn a_binary_without_the_page_says_how_to_build_one() {
        let error = start(Files::default(), &args(None))
            .err()
            .map(|UsageError(message)| message);
        assert_eq!(error.as_deref(), Some(WITHOUT_PAGE));
        assert!(WITHOUT_PAGE.contains("cargo xtask build"));
    }

    #[test]
    fn a_missing_file_or_a_folder_is_refused_by_name() {
        let error = |file: &str| {
            start(Files::from_static(PAGE), &args(Some(file)))
                .err()
                .map(|UsageError(message)| message)
                .unwrap_or_default()
        };
        assert!(error("no/such.json").starts_with("no/such.json: cannot read it"));
        let folder = std::env::temp_dir();
        assert!(error(&folder.display().to_string())
            .ends_with("expected a dataset or scored file, found a folder"));
    }

    #[test]
    fn a_judge_needs_a_known_kind_and_a_model() {
        let mut judged = args(None);
        judged.judge_endpoint = Some("http://127.0.0.1:9".into());
        let error = |args: &ViewArgs| {
            offer("http://127.0.0.1:9", args)
                .err()
                .map(|UsageError(message)| message)
        };
        assert!(error(&judged).is_some_and(|message| message.starts_with("--judge-model")));
        judged.judge_model = Some("demo".into());
        judged.judge_kind = "vertex".into();
        assert!(error(&judged).is_some_and(|message| message.contains("azure, azure-v1, openai")));
        judged.judge_kind = "openai".into();
        assert_eq!(
            offer("http://127.0.0.1:9", &judged).ok(),
            Some(JudgeOffer {
                kind: "openai".into(),
                endpoint: "http://127.0.0.1:9".into(),
                model: "demo".into(),
                label: JUDGE_LABEL.into(),
            })
        );
    }

    #[test]
    fn an_agent_is_offered_as_a_target_it_could_run() {
        let mut offered = args(None);
        offered.agent_model = Some("demo-agent".into());
        let offer = agent_offer("http://127.0.0.1:9/agent/v1", &offered).ok();
        assert_eq!(
            offer,
            Some(AgentOffer {
                kind: "chat".into(),
                endpoint: "http://127.0.0.1:9/agent/v1".into(),
                model: Some("demo-agent".into()),
                label: AGENT_LABEL.into(),
            })
        );
        offered.agent_kind = "telepathy".into();
        let refused = agent_offer("http://127.0.0.1:9/agent/v1", &offered)
            .err()
            .map(|UsageError(message)| message)
            .unwrap_or_default();
        assert!(refused.starts_with("--agent-endpoint: "), "{refused}");
        assert!(refused.contains("telepathy"), "{refused}");
        offered.agent_kind = "chat".into();
        assert!(agent_offer("not a url", &offered).is_err());
    }

    #[test]
    fn a_browser_is_opened_only_where_one_can_show() {
        assert_eq!(opener("macos", false), Some("open"));
        assert_eq!(opener("linux", true), Some("xdg-open"));
        assert_eq!(opener("linux", false), None);
        assert_eq!(opener("windows", true), None);
    }

    #[test]
    fn the_page_is_served_with_the_file_to_open() {
        let dir = std::env::temp_dir().join(format!("agenteval-view-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("scored.json");
        std::fs::write(&file, "{}").unwrap();
        let server = start(
            Files::from_static(PAGE),
            &args(Some(&file.display().to_string())),
        )
        .unwrap();
        assert!(
            server.page_url().ends_with("/?dataset=/opened/scored.json"),
            "{}",
            server.page_url()
        );
    }
}
