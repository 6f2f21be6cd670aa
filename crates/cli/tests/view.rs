//! `agenteval view` end to end. Which test runs depends on how this binary was built: with the
//! page compiled in (`cfg(agenteval_page)`, set by the build script when `pkg/` was built), the
//! page, the package and FILE are fetched over HTTP; without it, the message and exit code 2 are
//! checked. `cargo xtask test` runs the Rust tests before it builds the package on a fresh
//! checkout, and the JS suite (page-serve.test.js) against a CLI built with the page.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::process::Command;

use support::root;

#[cfg(agenteval_page)]
mod with_page {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    use std::process::{Child, Command, Stdio};

    use super::root;

    /// The child, killed when the test ends, however it ends.
    struct Viewing(Child);

    impl Drop for Viewing {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// Status line and body of `GET path` at `address` (`127.0.0.1:PORT`).
    fn get(address: &str, path: &str) -> (String, Vec<u8>) {
        let mut stream = TcpStream::connect(address).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).unwrap();
        let split = reply
            .windows(4)
            .position(|window| window == b"\r\n\r\n")
            .unwrap();
        let head = String::from_utf8_lossy(&reply[..split]).into_owned();
        let status = head.lines().next().unwrap_or_default().to_owned();
        (status, reply[split + 4..].to_vec())
    }

    #[test]
    fn the_page_the_package_and_the_file_are_served() {
        let file = root().join("examples/foundry-demo.jsonl");
        let child = Command::new(env!("CARGO_BIN_EXE_agenteval"))
            .args(["view", "--no-open", "--port", "0"])
            .arg(&file)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut viewing = Viewing(child);
        let mut stdout = BufReader::new(viewing.0.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let url = line.strip_prefix("page:").unwrap_or_default().trim();
        let address = url
            .strip_prefix("http://")
            .and_then(|rest| rest.split_once('/'))
            .map(|(address, _)| address.to_owned())
            .unwrap_or_default();
        assert!(address.starts_with("127.0.0.1:"), "printed {line:?}");
        assert!(
            url.ends_with("/?dataset=/opened/foundry-demo.jsonl"),
            "printed {line:?}"
        );

        let (status, index) = get(&address, "/");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert_eq!(index, std::fs::read(root().join("web/index.html")).unwrap());
        let (status, module) = get(&address, "/pkg/agenteval_wasm_bg.wasm");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert_eq!(
            module,
            std::fs::read(root().join("pkg/agenteval_wasm_bg.wasm")).unwrap()
        );
        let (status, opened) = get(&address, "/opened/foundry-demo.jsonl");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert_eq!(opened, std::fs::read(&file).unwrap());
        let (status, _) = get(&address, "/crates/cli/Cargo.toml");
        assert_eq!(status, "HTTP/1.1 404 Not Found");
    }
}

#[cfg(not(agenteval_page))]
#[test]
fn a_binary_built_without_the_page_says_so_and_exits_2() {
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args([
            "view",
            "--no-open",
            "--port",
            "0",
            "examples/m365-demo.json",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "agenteval view: this agenteval was built without the web page: run `cargo xtask build` \
         first (it builds the package into pkg/), then rebuild the CLI\n"
    );
}

#[test]
fn bad_flags_are_usage_errors() {
    let output = Command::new(env!("CARGO_BIN_EXE_agenteval"))
        .args(["view", "--no-open", "--judge-model", "demo"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--judge-endpoint"));
}
