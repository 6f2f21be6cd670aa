//! Running commands with clear failures, and installing tools when missing.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace root (the parent of `xtask/`).
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// One external command.
pub struct Step {
    command: Command,
    allowed_exit: Option<i32>,
}

impl Step {
    /// A command run from the project root.
    pub fn new(program: impl AsRef<OsStr>) -> Self {
        let mut command = Command::new(program);
        command.current_dir(project_root());
        Step {
            command,
            allowed_exit: None,
        }
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.command.args(args);
        self
    }

    /// Adds one argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.command.arg(arg);
        self
    }

    /// Sets an environment variable.
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Self {
        self.command.env(key, value);
        self
    }

    /// Runs in `dir` instead of the project root.
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.command.current_dir(dir);
        self
    }

    /// Discards stderr.
    pub fn quiet_stderr(mut self) -> Self {
        self.command.stderr(Stdio::null());
        self
    }

    /// Treats exit code `code` as success too (e.g. the CLI's "some verdict failed").
    pub fn allow_exit(mut self, code: i32) -> Self {
        self.allowed_exit = Some(code);
        self
    }

    fn describe(&self) -> String {
        let mut text = self.command.get_program().to_string_lossy().into_owned();
        for arg in self.command.get_args() {
            text.push(' ');
            text.push_str(&arg.to_string_lossy());
        }
        text
    }

    /// Runs to completion.
    ///
    /// # Errors
    /// When the command cannot start or exits with a code that is not allowed.
    pub fn run(mut self) -> Result<(), String> {
        let description = self.describe();
        eprintln!("$ {description}");
        let status = self
            .command
            .status()
            .map_err(|error| format!("cannot run `{description}`: {error}"))?;
        match status.code() {
            Some(0) => Ok(()),
            Some(code) if Some(code) == self.allowed_exit => Ok(()),
            _ => Err(format!("`{description}` failed ({status})")),
        }
    }

    /// Runs to completion and returns stdout.
    ///
    /// # Errors
    /// When the command cannot start or fails.
    pub fn output(mut self) -> Result<String, String> {
        let description = self.describe();
        eprintln!("$ {description}");
        let output = self
            .command
            .stderr(Stdio::inherit())
            .output()
            .map_err(|error| format!("cannot run `{description}`: {error}"))?;
        if !output.status.success() {
            return Err(format!("`{description}` failed ({})", output.status));
        }
        String::from_utf8(output.stdout)
            .map_err(|_| format!("`{description}` printed invalid UTF-8"))
    }
}

/// A `cargo` invocation from the project root.
pub fn cargo<I, S>(args: I) -> Step
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Step::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())).args(args)
}

/// Installs a cargo tool (`cargo install <krate> [--version v]`) unless `binary` already runs.
///
/// # Errors
/// When the installation fails.
pub fn ensure_cargo_tool(binary: &str, krate: &str, version: Option<&str>) -> Result<(), String> {
    let installed = Command::new(binary)
        .arg("--version")
        .output()
        .is_ok_and(|output| {
            output.status.success()
                && version
                    .is_none_or(|version| String::from_utf8_lossy(&output.stdout).contains(version))
        });
    if installed {
        return Ok(());
    }
    let mut step = cargo(["install", krate]);
    if let Some(version) = version {
        step = step.args(["--version", version]);
    }
    step.run()
}
