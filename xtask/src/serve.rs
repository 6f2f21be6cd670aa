//! `cargo xtask serve`: the page over HTTP on `127.0.0.1`, as a web server would host it: `web/`
//! at the root, the npm package at `/pkg/` and the example datasets at `/examples/`, every
//! response with the security headers the page is written for. The local demo judge runs
//! in-process beside it and is offered to the page through `GET /serve.json`.
//!
//! It serves files from those three folders only, reads nothing else and writes nothing; the
//! path mapping, content types and headers are pure functions, the sockets are [`start`]'s.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crate::run::project_root;
use crate::{dist, wasm};

const USAGE: &str = "usage: cargo xtask serve [--port P]  (default 8000, else the next free \
                     port; 0 picks any)";

const DEFAULT_PORT: u16 = 8000;

/// How many ports from the one asked for are tried before giving up.
const PORTS_TRIED: u16 = 100;

/// The page's policy when `web/index.html` declares none (the header always carries the one its
/// `<meta http-equiv="Content-Security-Policy">` declares, read on every response).
pub const PAGE_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
    worker-src 'self' blob:; style-src 'self'; img-src 'self' data: blob:; \
    connect-src 'self' https: http://localhost:* http://127.0.0.1:*; \
    object-src 'none'; base-uri 'none'; form-action 'none'; frame-src 'none'";

/// The label the page shows for the judge [`run`] starts.
const JUDGE_LABEL: &str = "local demo judge (deterministic replies, no model)";

/// The largest request head read; longer ones are refused.
const MAX_HEAD: usize = 16 * 1024;

/// Parses `args` (after `serve`), builds the package when it is missing or stale, starts the
/// demo judge and the site, and serves until the process is killed.
///
/// # Errors
/// Bad flags, a failed package build, or a port that cannot be bound.
pub fn run(args: &[String]) -> Result<(), String> {
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    let port = parse(args)?;
    wasm::ensure_package()?;
    let judge = agenteval_judge_server::start(agenteval_judge_server::ServerConfig::default())
        .map_err(|error| format!("cannot start the local demo judge: {error}"))?;
    let server = start(Site {
        root: project_root(),
        port,
        judge: Some(judge.url()),
    })
    .map_err(|error| format!("cannot serve on 127.0.0.1:{port}: {error}"))?;
    println!("page:  {}/", server.url());
    println!("judge: {} ({JUDGE_LABEL}, model `demo`)", judge.url());
    println!("Ctrl-C stops both");
    loop {
        thread::park();
    }
}

/// The port `args` ask for.
fn parse(args: &[String]) -> Result<u16, String> {
    let mut port = DEFAULT_PORT;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = match arg.split_once('=') {
            Some(("--port", value)) => value.to_owned(),
            None if arg == "--port" => rest
                .next()
                .cloned()
                .ok_or_else(|| format!("--port needs a value\n{USAGE}"))?,
            _ => return Err(format!("unknown argument `{arg}`\n{USAGE}")),
        };
        port = value
            .parse()
            .map_err(|_| format!("--port must be a whole number, not `{value}`\n{USAGE}"))?;
    }
    Ok(port)
}

/// What a server serves.
#[derive(Debug, Clone)]
pub struct Site {
    /// The folder holding `web/`, `pkg/` and `examples/` (the project root).
    pub root: PathBuf,
    /// The first port tried (the next ones when it is taken); 0 picks any free port.
    pub port: u16,
    /// The judge endpoint `/serve.json` offers, if any.
    pub judge: Option<String>,
}

/// A server started by [`start`]; stopping it (dropping it) closes the listener and waits for
/// the accept thread. Connections still being answered finish on their own threads.
#[derive(Debug)]
pub struct Server {
    address: SocketAddr,
    stop: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl Server {
    /// The base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(acceptor) = self.acceptor.take() {
            // NOTE: the accept thread is blocked in `accept`; one last connection wakes it to
            // see the flag. Without it the thread is left to the process's end.
            if TcpStream::connect_timeout(&self.address, Duration::from_secs(1)).is_ok() {
                let _ = acceptor.join();
            }
        }
    }
}

/// Binds `127.0.0.1` (the port asked for, else the next free one) and serves `site` on
/// background threads, one per connection.
///
/// # Errors
/// When no port can be bound or the accept thread cannot be started.
pub fn start(site: Site) -> io::Result<Server> {
    let listener = bind(site.port)?;
    let address = listener.local_addr()?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let site = Arc::new(site);
    let acceptor = thread::Builder::new()
        .name("serve-accept".into())
        .spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else {
                    thread::sleep(Duration::from_millis(5));
                    continue;
                };
                let site = Arc::clone(&site);
                let _ = thread::Builder::new()
                    .name("serve-connection".into())
                    .spawn(move || {
                        let _ = answer(&site, stream);
                    });
            }
        })?;
    Ok(Server {
        address,
        stop,
        acceptor: Some(acceptor),
    })
}

fn bind(port: u16) -> io::Result<TcpListener> {
    if port == 0 {
        return TcpListener::bind((Ipv4Addr::LOCALHOST, 0));
    }
    let last = port.saturating_add(PORTS_TRIED - 1);
    for candidate in port..=last {
        match TcpListener::bind((Ipv4Addr::LOCALHOST, candidate)) {
            Err(error) if error.kind() == io::ErrorKind::AddrInUse => continue,
            bound => return bound,
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AddrInUse,
        format!("ports {port} to {last} are all taken"),
    ))
}

/// Reads one request from `stream`, answers it and closes the connection.
fn answer(site: &Site, mut stream: TcpStream) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let mut head = Vec::new();
    let mut chunk = [0_u8; 4096];
    let (status, method, target) = loop {
        let read = stream.read(&mut chunk)?;
        if read == 0 {
            return Ok(());
        }
        head.extend_from_slice(chunk.get(..read).unwrap_or_default());
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut request = httparse::Request::new(&mut headers);
        match request.parse(&head) {
            Ok(httparse::Status::Complete(_)) => {
                break (
                    200,
                    request.method.unwrap_or_default().to_owned(),
                    request.path.unwrap_or_default().to_owned(),
                )
            }
            Ok(httparse::Status::Partial) if head.len() <= MAX_HEAD => continue,
            Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => {
                break (431, String::new(), String::new())
            }
            Err(_) => break (400, String::new(), String::new()),
        }
    };
    let response = if status == 200 {
        respond(site, &method, &target)
    } else {
        Response::error(status)
    };
    stream.write_all(&response.head(&page_policy(&site.root)))?;
    if method != "HEAD" {
        stream.write_all(&response.body)?;
    }
    stream.flush()
}

/// One response: status, content type and body; [`Response::head`] adds the common headers.
#[derive(Debug, Clone, PartialEq)]
struct Response {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    allow: bool,
}

impl Response {
    fn ok(content_type: &'static str, body: Vec<u8>) -> Self {
        Response {
            status: 200,
            content_type,
            body,
            allow: false,
        }
    }

    fn error(status: u16) -> Self {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{status} {}\n", reason(status)).into_bytes(),
            allow: status == 405,
        }
    }

    /// The status line and headers, through the blank line, under the page's `policy`.
    fn head(&self, policy: &str) -> Vec<u8> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        if self.allow {
            head.push_str("allow: GET, HEAD\r\n");
        }
        for (name, value) in security_headers(policy) {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        head.into_bytes()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Internal Server Error",
    }
}

/// The policy `web/index.html` declares in its CSP meta, else [`PAGE_POLICY`].
pub fn page_policy(root: &Path) -> String {
    std::fs::read_to_string(root.join("web/index.html"))
        .ok()
        .and_then(|index| dist::csp_meta(&index))
        .unwrap_or_else(|| PAGE_POLICY.to_owned())
}

/// The headers every response carries: the page's `policy` (plus `frame-ancestors`, which only
/// a header can set), no sniffing, no referrer, and revalidation on every load.
pub fn security_headers(policy: &str) -> [(&'static str, String); 4] {
    [
        (
            "content-security-policy",
            format!("{policy}; frame-ancestors 'self'"),
        ),
        ("x-content-type-options", "nosniff".to_owned()),
        ("referrer-policy", "no-referrer".to_owned()),
        ("cache-control", "no-cache".to_owned()),
    ]
}

/// The answer to `method target`, reading the file it maps to.
fn respond(site: &Site, method: &str, target: &str) -> Response {
    if method != "GET" && method != "HEAD" {
        return Response::error(405);
    }
    if target.split(['?', '#']).next() == Some("/serve.json") {
        return Response::ok("application/json", serve_json(site.judge.as_deref()));
    }
    let Some((mount, relative)) = locate(target) else {
        return Response::error(404);
    };
    let folder = site.root.join(mount.folder());
    match read_within(&folder, &folder.join(&relative)) {
        Some(body) => Response::ok(content_type(&relative.to_string_lossy()), body),
        None => Response::error(404),
    }
}

/// `GET /serve.json`: what the server offers the page besides files.
fn serve_json(judge: Option<&str>) -> Vec<u8> {
    let judge = judge.map(|endpoint| {
        serde_json::json!({
            "kind": "azure",
            "endpoint": endpoint,
            "model": "demo",
            "label": JUDGE_LABEL,
        })
    });
    serde_json::json!({ "judge": judge })
        .to_string()
        .into_bytes()
}

/// The file at `path` when it is a regular file inside `folder` once symbolic links are
/// resolved.
fn read_within(folder: &Path, path: &Path) -> Option<Vec<u8>> {
    let folder = folder.canonicalize().ok()?;
    let path = path.canonicalize().ok()?;
    if !path.starts_with(&folder) || !path.is_file() {
        return None;
    }
    std::fs::read(path).ok()
}

/// The folders files are served from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mount {
    /// `web/`, at `/`.
    Web,
    /// `pkg/`, at `/pkg/`.
    Pkg,
    /// `examples/`, at `/examples/`.
    Examples,
}

impl Mount {
    /// The folder's name in the project root.
    pub fn folder(self) -> &'static str {
        match self {
            Mount::Web => "web",
            Mount::Pkg => "pkg",
            Mount::Examples => "examples",
        }
    }
}

fn target_path(target: &str) -> &str {
    target.split(['?', '#']).next().unwrap_or_default()
}

/// The folder and relative file path a request target maps to, or `None` for anything that is
/// not a plain path inside one: not starting with `/`, a bad or control-character
/// percent-encoding, a backslash, an empty, `.`, `..` or hidden segment (also when encoded).
/// `/` and a path ending in `/` map to that folder's `index.html`.
pub fn locate(target: &str) -> Option<(Mount, PathBuf)> {
    let path = target_path(target);
    let path = path.strip_prefix('/')?;
    let decoded = percent_decode(path)?;
    let mut segments: Vec<&str> = decoded.split('/').collect();
    if segments.last() == Some(&"") {
        segments.pop();
        segments.push("index.html");
    }
    let mount = match segments.first() {
        Some(&"pkg") if segments.len() > 1 => Mount::Pkg,
        Some(&"examples") if segments.len() > 1 => Mount::Examples,
        _ => Mount::Web,
    };
    if mount != Mount::Web {
        segments.remove(0);
    }
    let plain = |segment: &&str| {
        !segment.is_empty()
            && !segment.starts_with('.')
            && !segment.contains(['\\', ':'])
            && !segment.chars().any(char::is_control)
    };
    segments
        .iter()
        .all(plain)
        .then(|| (mount, segments.iter().collect()))
}

/// `text` with `%XX` escapes decoded, or `None` when an escape is malformed or the result is
/// not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            let hex = std::str::from_utf8(bytes.get(index + 1..index + 3)?).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            decoded.push(byte);
            index += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

/// The `content-type` of a file, by its extension.
pub fn content_type(path: &str) -> &'static str {
    let extension = path
        .rsplit('/')
        .next()
        .and_then(|name| name.rsplit_once('.'))
        .map(|(_, extension)| extension.to_ascii_lowercase());
    match extension.as_deref() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("jsonl") => "application/jsonl",
        Some("csv") => "text/csv; charset=utf-8",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("ico") => "image/x-icon",
        Some("txt" | "md" | "ts") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn located(target: &str) -> Option<(Mount, String)> {
        locate(target).map(|(mount, path)| (mount, path.to_string_lossy().into_owned()))
    }

    #[test]
    fn paths_map_to_the_three_folders() {
        let cases = [
            ("/", Mount::Web, "index.html"),
            ("/?x=1", Mount::Web, "index.html"),
            ("/app.js", Mount::Web, "app.js"),
            ("/lib/engine.js?v=2#top", Mount::Web, "lib/engine.js"),
            ("/lib/", Mount::Web, "lib/index.html"),
            (
                "/pkg/agenteval_wasm_bg.wasm",
                Mount::Pkg,
                "agenteval_wasm_bg.wasm",
            ),
            (
                "/pkg/snippets/a/js/drive.js",
                Mount::Pkg,
                "snippets/a/js/drive.js",
            ),
            (
                "/examples/m365-demo.json",
                Mount::Examples,
                "m365-demo.json",
            ),
            ("/examples/my%20data.json", Mount::Examples, "my data.json"),
            ("/pkg", Mount::Web, "pkg"),
        ];
        for (target, mount, path) in cases {
            assert_eq!(
                located(target),
                Some((mount, path.to_owned())),
                "target {target}"
            );
        }
    }

    #[test]
    fn traversal_and_odd_targets_are_refused() {
        for target in [
            "",
            "*",
            "app.js",
            "http://127.0.0.1/app.js",
            "/../Cargo.toml",
            "/pkg/../Cargo.toml",
            "/lib/../../Cargo.toml",
            "/%2e%2e/Cargo.toml",
            "/%2E%2E%2FCargo.toml",
            "/..%2fCargo.toml",
            "/pkg/%2e%2e/%2e%2e/etc/passwd",
            "/examples/.%2e/xtask/src/main.rs",
            "//etc/passwd",
            "/%2fetc/passwd",
            "/lib//engine.js",
            "/..\\Cargo.toml",
            "/%5c..%5cCargo.toml",
            "/C:/Windows/win.ini",
            "/.git/config",
            "/pkg/.npmrc",
            "/./app.js",
            "/%",
            "/%2",
            "/%zz",
            "/app.js%00.html",
            "/%ff",
        ] {
            assert_eq!(located(target), None, "target {target:?} accepted");
        }
    }

    #[test]
    fn content_types_follow_the_extension() {
        let cases = [
            ("/index.html", "text/html; charset=utf-8"),
            ("/app.js", "text/javascript; charset=utf-8"),
            ("/x.mjs", "text/javascript; charset=utf-8"),
            ("/pkg/agenteval_wasm_bg.wasm", "application/wasm"),
            ("/styles.css", "text/css; charset=utf-8"),
            ("/examples/m365-demo.json", "application/json"),
            ("/examples/foundry-demo.JSONL", "application/jsonl"),
            ("/a.csv", "text/csv; charset=utf-8"),
            ("/logo.png", "image/png"),
            ("/logo.svg", "image/svg+xml"),
            ("/lib.v2/README", "application/octet-stream"),
            ("/blob", "application/octet-stream"),
        ];
        for (path, expected) in cases {
            assert_eq!(content_type(path), expected, "{path}");
        }
    }

    #[test]
    fn the_header_policy_is_the_pages_and_forbids_framing_elsewhere() {
        let policy = page_policy(&project_root());
        let index =
            std::fs::read_to_string(project_root().join("web/index.html")).unwrap_or_default();
        assert!(index.contains(&format!("content=\"{policy}\"")));
        let headers = security_headers(&policy);
        assert_eq!(headers[0].0, "content-security-policy");
        assert_eq!(headers[0].1, format!("{policy}; frame-ancestors 'self'"));
        let names: Vec<&str> = headers.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            names,
            [
                "content-security-policy",
                "x-content-type-options",
                "referrer-policy",
                "cache-control"
            ]
        );
        assert_eq!(headers[1].1, "nosniff");
        assert_eq!(headers[2].1, "no-referrer");
        assert_eq!(headers[3].1, "no-cache");
    }

    #[test]
    fn flags_give_the_port() {
        let args =
            |text: &str| -> Vec<String> { text.split_whitespace().map(String::from).collect() };
        assert_eq!(parse(&args("")), Ok(DEFAULT_PORT));
        assert_eq!(parse(&args("--port 0")), Ok(0));
        assert_eq!(parse(&args("--port=8123")), Ok(8123));
        for bad in ["--port", "--port 70000", "--port x", "--verbose"] {
            assert!(parse(&args(bad)).is_err(), "`{bad}` accepted");
        }
    }

    const INDEX: &str =
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'\">";

    /// A project root with the three folders and a file beside them that must stay unreachable.
    fn fixture() -> PathBuf {
        let root = std::env::temp_dir().join(format!("xtask-serve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in [
            ("web/index.html", INDEX),
            ("web/lib/engine.js", "export {};"),
            ("pkg/agenteval_wasm_bg.wasm", "\0asm"),
            ("examples/m365-demo.json", "{}"),
            ("secret.txt", "secret"),
        ] {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap_or(&root)).unwrap();
            std::fs::write(path, text).unwrap();
        }
        root
    }

    fn get(server: &Server, request: &str) -> (String, String) {
        let mut stream = TcpStream::connect(server.address).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
        (head.to_ascii_lowercase(), body.to_owned())
    }

    #[test]
    fn the_server_answers_files_refusals_and_the_judge_offer() {
        let root = fixture();
        let server = start(Site {
            root: root.clone(),
            port: 0,
            judge: Some("http://127.0.0.1:9".into()),
        })
        .unwrap();
        let (head, body) = get(&server, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(head.starts_with("http/1.1 200 ok"), "{head}");
        assert!(
            head.contains("content-type: text/html; charset=utf-8"),
            "{head}"
        );
        assert!(head.contains(
            "\r\ncontent-security-policy: default-src 'self'; frame-ancestors 'self'\r\n"
        ));
        assert!(head.contains("x-content-type-options: nosniff"));
        assert!(head.contains("referrer-policy: no-referrer"));
        assert!(head.contains("cache-control: no-cache"));
        assert!(head.contains("connection: close"));
        assert_eq!(body, INDEX);

        let (head, body) = get(&server, "HEAD /lib/engine.js HTTP/1.1\r\n\r\n");
        assert!(head.contains("content-type: text/javascript"), "{head}");
        assert!(head.contains("content-length: 10"), "{head}");
        assert_eq!(body, "");

        let (head, _) = get(&server, "GET /pkg/agenteval_wasm_bg.wasm HTTP/1.1\r\n\r\n");
        assert!(head.contains("content-type: application/wasm"), "{head}");
        let (head, body) = get(&server, "GET /examples/m365-demo.json HTTP/1.1\r\n\r\n");
        assert!(head.contains("content-type: application/json"), "{head}");
        assert_eq!(body, "{}");

        for target in [
            "/../secret.txt",
            "/%2e%2e/secret.txt",
            "/pkg/..%2fsecret.txt",
            "/missing.js",
            "/lib",
        ] {
            let (head, body) = get(&server, &format!("GET {target} HTTP/1.1\r\n\r\n"));
            assert!(head.starts_with("http/1.1 404"), "{target}: {head}");
            assert!(head.contains("x-content-type-options: nosniff"));
            assert!(!body.contains("secret"));
        }
        let (head, _) = get(&server, "POST / HTTP/1.1\r\ncontent-length: 0\r\n\r\n");
        assert!(head.starts_with("http/1.1 405"), "{head}");
        assert!(head.contains("allow: get, head"), "{head}");
        let (head, _) = get(&server, "GARBAGE\r\n\r\n");
        assert!(head.starts_with("http/1.1 400"), "{head}");

        let (head, body) = get(&server, "GET /serve.json HTTP/1.1\r\n\r\n");
        assert!(head.contains("content-type: application/json"), "{head}");
        let offer: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            offer,
            serde_json::json!({"judge": {
                "kind": "azure",
                "endpoint": "http://127.0.0.1:9",
                "model": "demo",
                "label": JUDGE_LABEL,
            }})
        );
        drop(server);
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_taken_port_moves_to_the_next() {
        let taken = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = taken.local_addr().unwrap().port();
        if port >= u16::MAX - 1 {
            return;
        }
        let listener = bind(port).unwrap();
        assert!(listener.local_addr().unwrap().port() > port);
    }
}
