//! What the CLI's end-to-end test files share: the repository root, and running the binary with
//! bytes on its stdin.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root, where the tests run the binary.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
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
