//! The server over real sockets: files with their headers and compressed forms, the opened
//! file, the judge offer, and what it refuses.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;

use agenteval_site::{start, AgentOffer, Files, JudgeOffer, Opened, Server, Site};

const INDEX: &str = "<!doctype html><meta http-equiv=\"Content-Security-Policy\" \
                     content=\"default-src 'self'\"><script type=module src=app.js></script>";

fn script() -> Vec<u8> {
    "export const greeting = 'hello from the page';\n"
        .repeat(400)
        .into_bytes()
}

/// A folder with the file to open and a secret beside it that must stay unreachable.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agenteval-site-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("my data.json"), "{\"items\": []}").unwrap();
    std::fs::write(dir.join("secret.txt"), "secret").unwrap();
    dir
}

fn server(dir: &std::path::Path) -> Server {
    let files = Files::from_owned([
        ("web/index.html".to_owned(), INDEX.as_bytes().to_vec()),
        ("web/app.js".to_owned(), script()),
        (
            "pkg/agenteval_wasm_bg.wasm".to_owned(),
            b"\0asm\x01\0\0\0".to_vec(),
        ),
        ("examples/m365-demo.json".to_owned(), b"{}".to_vec()),
    ]);
    start(
        Site {
            files,
            opened: Some(Opened::new(dir.join("my data.json"))),
            judge: Some(JudgeOffer {
                kind: "azure".into(),
                endpoint: "http://127.0.0.1:9".into(),
                model: "demo".into(),
                label: "local demo judge".into(),
            }),
            agent: Some(AgentOffer {
                kind: "chat".into(),
                endpoint: "http://127.0.0.1:9/agent/v1".into(),
                model: Some("demo-agent".into()),
                label: "local demo agent".into(),
            }),
        },
        0,
    )
    .unwrap()
}

/// The head (lower case) and body of the answer to `request`.
fn exchange(server: &Server, request: &str) -> (String, Vec<u8>) {
    let mut stream = TcpStream::connect(server.address()).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).unwrap();
    let split = reply
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .unwrap();
    let head = String::from_utf8_lossy(&reply[..split]).to_ascii_lowercase();
    (head, reply[split + 4..].to_vec())
}

fn get(server: &Server, target: &str, accept: &str) -> (String, Vec<u8>) {
    exchange(
        server,
        &format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: {accept}\r\n\r\n"),
    )
}

#[test]
fn files_carry_the_security_headers_and_their_types() {
    let dir = folder("headers");
    let server = server(&dir);
    let (head, body) = get(&server, "/", "identity");
    assert!(head.starts_with("http/1.1 200 ok"), "{head}");
    assert!(
        head.contains("\r\ncontent-type: text/html; charset=utf-8\r\n"),
        "{head}"
    );
    assert!(head
        .contains("\r\ncontent-security-policy: default-src 'self'; frame-ancestors 'self'\r\n"));
    assert!(head.contains("\r\nx-content-type-options: nosniff\r\n"));
    assert!(head.contains("\r\nreferrer-policy: no-referrer\r\n"));
    assert!(head.ends_with("\r\ncache-control: no-cache"), "{head}");
    assert!(!head.contains("content-encoding"), "{head}");
    assert_eq!(body, INDEX.as_bytes());

    let (head, body) = get(&server, "/pkg/agenteval_wasm_bg.wasm", "identity");
    assert!(head.contains("content-type: application/wasm"), "{head}");
    assert_eq!(body, b"\0asm\x01\0\0\0");

    let (head, body) = exchange(&server, "HEAD /app.js HTTP/1.1\r\n\r\n");
    assert!(
        head.contains(&format!("content-length: {}", script().len())),
        "{head}"
    );
    assert!(head.contains("content-type: text/javascript"), "{head}");
    assert!(body.is_empty());
}

#[test]
fn compressed_answers_decode_to_the_files_bytes() {
    let dir = folder("compression");
    let server = server(&dir);
    let (head, body) = get(&server, "/app.js", "gzip, deflate, br");
    assert!(head.contains("\r\ncontent-encoding: br\r\n"), "{head}");
    assert!(head.contains("\r\nvary: accept-encoding\r\n"), "{head}");
    assert!(
        head.contains(&format!("content-length: {}", body.len())),
        "{head}"
    );
    assert!(body.len() < script().len() / 10);
    let mut decoded = Vec::new();
    brotli::Decompressor::new(body.as_slice(), 4096)
        .read_to_end(&mut decoded)
        .unwrap();
    assert_eq!(decoded, script());

    let (head, body) = get(&server, "/app.js", "gzip");
    assert!(head.contains("\r\ncontent-encoding: gzip\r\n"), "{head}");
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(body.as_slice())
        .read_to_end(&mut decoded)
        .unwrap();
    assert_eq!(decoded, script());

    let (head, body) = exchange(&server, "GET /app.js HTTP/1.1\r\n\r\n");
    assert!(!head.contains("content-encoding"), "{head}");
    assert!(head.contains("\r\nvary: accept-encoding\r\n"), "{head}");
    assert_eq!(body, script());
}

#[test]
fn the_opened_file_is_served_at_the_url_the_page_is_given() {
    let dir = folder("opened");
    let server = server(&dir);
    let page = server.page_url();
    assert_eq!(
        page,
        format!("{}/?dataset=/opened/my%2520data.json", server.url())
    );
    let (head, body) = get(&server, "/opened/my%20data.json", "gzip");
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert_eq!(body, b"{\"items\": []}");
    std::fs::write(dir.join("my data.json"), "{\"items\": [1]}").unwrap();
    assert_eq!(
        get(&server, "/opened/my%20data.json", "").1,
        b"{\"items\": [1]}"
    );
    for target in ["/opened/secret.txt", "/opened/..%2fsecret.txt", "/opened/"] {
        let (head, body) = get(&server, target, "");
        assert!(head.starts_with("http/1.1 404"), "{target}: {head}");
        assert!(!String::from_utf8_lossy(&body).contains("secret"));
    }
}

#[test]
fn refusals_have_their_status_and_the_same_headers() {
    let dir = folder("refusals");
    let server = server(&dir);
    for target in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/pkg/..%2fsecret.txt",
        "/missing.js",
        "/examples/other.json",
        "/lib",
    ] {
        let (head, _) = get(&server, target, "br");
        assert!(head.starts_with("http/1.1 404"), "{target}: {head}");
        assert!(head.contains("x-content-type-options: nosniff"), "{head}");
        assert!(
            head.contains("content-security-policy: default-src 'self'"),
            "{head}"
        );
    }
    let (head, _) = exchange(&server, "POST / HTTP/1.1\r\ncontent-length: 0\r\n\r\n");
    assert!(head.starts_with("http/1.1 405"), "{head}");
    assert!(head.contains("allow: get, head"), "{head}");
    let (head, body) = exchange(
        &server,
        "GET /opened/my%20data.json HTTP/1.1\r\nHost: rebound.example:8000\r\n\r\n",
    );
    assert!(head.starts_with("http/1.1 403"), "{head}");
    assert!(!String::from_utf8_lossy(&body).contains("items"));
    let (head, _) = exchange(&server, "GARBAGE\r\n\r\n");
    assert!(head.starts_with("http/1.1 400"), "{head}");
    let long = format!("GET / HTTP/1.1\r\nx: {}\r\n", "a".repeat(20_000));
    let (head, _) = exchange(&server, &long);
    assert!(head.starts_with("http/1.1 431"), "{head}");
}

#[test]
fn serve_json_offers_the_judge_and_the_agent_without_a_key() {
    let dir = folder("judge");
    let server = server(&dir);
    let (head, body) = get(&server, "/serve.json?x=1", "");
    assert!(head.contains("content-type: application/json"), "{head}");
    let offer: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        offer,
        serde_json::json!({"judge": {
            "kind": "azure",
            "endpoint": "http://127.0.0.1:9",
            "model": "demo",
            "label": "local demo judge",
        }, "agent": {
            "kind": "chat",
            "endpoint": "http://127.0.0.1:9/agent/v1",
            "model": "demo-agent",
            "label": "local demo agent",
        }})
    );
}

#[test]
fn a_taken_port_moves_to_the_next() {
    let taken = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = taken.local_addr().unwrap().port();
    if port >= u16::MAX - 1 {
        return;
    }
    let listener = agenteval_site::server::bind(port).unwrap();
    assert!(listener.local_addr().unwrap().port() > port);
}
