//! The HTTP server on `127.0.0.1`: one thread accepts, one thread answers each connection (one
//! request, then close). It answers `GET` and `HEAD` for the site's [`Files`], the opened file
//! (read from disk on each request, so a reload shows its latest text) and `/serve.json` (the
//! judge offered to the page, never a key); every response carries the security headers. A
//! request naming another host than this machine's loopback (a page of another site whose name
//! was rebound to 127.0.0.1) is refused, so no other site can read the opened file.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crate::encoding::{negotiate, Encoding};
use crate::files::Files;
use crate::headers::{content_type, page_policy, security_headers};
use crate::path::{locate, percent_encode, target_path, Mount};

/// How many ports from the one asked for are tried before giving up.
const PORTS_TRIED: u16 = 100;

/// The largest request head read; longer ones are refused.
const MAX_HEAD: usize = 16 * 1024;

/// What a server serves.
#[derive(Debug)]
pub struct Site {
    /// The page, the package and the examples.
    pub files: Files,
    /// The file the page opens, if any.
    pub opened: Option<Opened>,
    /// The judge `/serve.json` offers the page, if any.
    pub judge: Option<JudgeOffer>,
    /// The agent `/serve.json` offers the page's agent panel, if any.
    pub agent: Option<AgentOffer>,
}

/// A file on disk served at `/opened/NAME` for the page to open (`?dataset=`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    /// The name in its URL, which the page shows (the file's name).
    pub name: String,
    /// Where it is read from.
    pub path: PathBuf,
}

impl Opened {
    /// The file at `path`, named by its file name, with what a URL path segment may not hold
    /// (`:`, `\\`, control characters, a leading `.`) made `_`.
    pub fn new(path: PathBuf) -> Self {
        let name: String = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default()
            .chars()
            .enumerate()
            .map(|(index, char)| {
                let unfit = matches!(char, ':' | '\\') || char.is_control();
                if unfit || (index == 0 && char == '.') {
                    '_'
                } else {
                    char
                }
            })
            .collect();
        let name = if name.is_empty() {
            "dataset".to_owned()
        } else {
            name
        };
        Opened { name, path }
    }

    /// Its URL path, `/opened/NAME` (percent-encoded).
    pub fn url_path(&self) -> String {
        format!("/opened/{}", percent_encode(&self.name))
    }
}

/// A judge the page is offered (its panel's "Use the …" button): endpoint, kind and model,
/// never a key. A judge that needs one gets it typed into the page's panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgeOffer {
    /// `azure`, `azure-v1` or `openai`.
    pub kind: String,
    /// The endpoint URL.
    pub endpoint: String,
    /// The deployment or model.
    pub model: String,
    /// What the button calls it.
    pub label: String,
}

/// An agent the page's agent panel is offered: its target kind, endpoint and model, never a
/// secret (an agent that needs one gets it typed into the panel).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentOffer {
    /// `directline`, `responses`, `a2a`, `chat` or `http`.
    pub kind: String,
    /// The endpoint URL.
    pub endpoint: String,
    /// The model (chat, responses), if the target takes one.
    pub model: Option<String>,
    /// What the button calls it.
    pub label: String,
}

/// A server started by [`start`]; dropping it closes the listener and waits for the accept
/// thread. Connections still being answered finish on their own threads.
#[derive(Debug)]
pub struct Server {
    address: SocketAddr,
    stop: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
    opened: Option<String>,
}

impl Server {
    /// The base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The bound address.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The page's URL: the root, with `?dataset=` naming the opened file when there is one.
    pub fn page_url(&self) -> String {
        match &self.opened {
            Some(path) => format!(
                "{}/?dataset={}",
                self.url(),
                percent_encode(path).replace("%2F", "/")
            ),
            None => format!("{}/", self.url()),
        }
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
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

/// Binds `127.0.0.1` (`port`, else the next free one; 0 picks any) and serves `site` on
/// background threads, one per connection; another makes the files' compressed forms meanwhile
/// (a request for one not yet made makes it, once).
///
/// # Errors
/// When no port can be bound or the accept thread cannot be started.
pub fn start(site: Site, port: u16) -> io::Result<Server> {
    let listener = bind(port)?;
    let address = listener.local_addr()?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let opened = site.opened.as_ref().map(Opened::url_path);
    let policy = page_policy(
        site.files
            .get("web/index.html")
            .and_then(|index| std::str::from_utf8(index).ok()),
    );
    let shared = Arc::new((site, policy));
    let precompressed = Arc::clone(&shared);
    thread::Builder::new()
        .name("site-precompress".into())
        .spawn(move || precompressed.0.files.precompress())?;
    let acceptor = thread::Builder::new()
        .name("site-accept".into())
        .spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else {
                    thread::sleep(Duration::from_millis(5));
                    continue;
                };
                let shared = Arc::clone(&shared);
                let _ = thread::Builder::new()
                    .name("site-connection".into())
                    .spawn(move || {
                        let (site, policy) = &*shared;
                        let _ = answer(site, policy, stream);
                    });
            }
        })?;
    Ok(Server {
        address,
        stop,
        acceptor: Some(acceptor),
        opened,
    })
}

/// The listener on `port`, else on the first free one of the next [`PORTS_TRIED`].
///
/// # Errors
/// When every one is taken, or binding fails otherwise.
pub fn bind(port: u16) -> io::Result<TcpListener> {
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

/// A parsed request: method, target, `Host` and `Accept-Encoding`.
struct Request {
    method: String,
    target: String,
    host: Option<String>,
    accept_encoding: Option<String>,
}

/// Whether a `Host` header names this machine's loopback (`127.0.0.1`, `localhost`, `[::1]`,
/// with any port).
pub fn loopback_host(host: &str) -> bool {
    let host = host.trim().to_ascii_lowercase();
    let name = match host.rsplit_once(':') {
        Some((name, port))
            if !name.is_empty() && port.bytes().all(|byte| byte.is_ascii_digit()) =>
        {
            name
        }
        _ => host.as_str(),
    };
    matches!(name, "127.0.0.1" | "localhost" | "[::1]")
}

/// Reads one request head from `stream`, or the status that refuses it.
fn read_request(stream: &mut TcpStream) -> io::Result<Option<Result<Request, u16>>> {
    let mut head = Vec::new();
    let mut chunk = [0_u8; 4096];
    loop {
        let read = stream.read(&mut chunk)?;
        if read == 0 {
            return Ok(None);
        }
        head.extend_from_slice(chunk.get(..read).unwrap_or_default());
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut request = httparse::Request::new(&mut headers);
        return Ok(Some(match request.parse(&head) {
            Ok(httparse::Status::Complete(_)) => {
                let header = |name: &str| {
                    request
                        .headers
                        .iter()
                        .find(|header| header.name.eq_ignore_ascii_case(name))
                        .map(|header| String::from_utf8_lossy(header.value).into_owned())
                };
                Ok(Request {
                    method: request.method.unwrap_or_default().to_owned(),
                    target: request.path.unwrap_or_default().to_owned(),
                    host: header("host"),
                    accept_encoding: header("accept-encoding"),
                })
            }
            Ok(httparse::Status::Partial) if head.len() <= MAX_HEAD => continue,
            Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => Err(431),
            Err(_) => Err(400),
        }));
    }
}

/// Reads one request from `stream`, answers it and closes the connection.
fn answer(site: &Site, policy: &str, mut stream: TcpStream) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(60)))?;
    let Some(request) = read_request(&mut stream)? else {
        return Ok(());
    };
    let (response, head_only) = match request {
        Ok(request) if !request.host.as_deref().is_none_or(loopback_host) => {
            (Response::error(403), request.method == "HEAD")
        }
        Ok(request) => (
            respond(
                site,
                &request.method,
                &request.target,
                request.accept_encoding.as_deref(),
            ),
            request.method == "HEAD",
        ),
        Err(status) => (Response::error(status), false),
    };
    stream.write_all(&response.head(policy))?;
    if !head_only {
        stream.write_all(&response.body)?;
    }
    stream.flush()
}

/// One response: status, headers of its own and body; [`Response::head`] adds the common
/// headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response<'a> {
    /// The status code.
    pub status: u16,
    /// The body's content type.
    pub content_type: &'static str,
    /// The body's coding.
    pub encoding: Encoding,
    /// Whether the body depends on `Accept-Encoding` (`vary`).
    pub varies: bool,
    /// The body.
    pub body: std::borrow::Cow<'a, [u8]>,
}

impl Response<'_> {
    fn ok(content_type: &'static str, body: Vec<u8>) -> Self {
        Response {
            status: 200,
            content_type,
            encoding: Encoding::Identity,
            varies: false,
            body: body.into(),
        }
    }

    fn error(status: u16) -> Self {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            encoding: Encoding::Identity,
            varies: false,
            body: format!("{status} {}\n", reason(status)).into_bytes().into(),
        }
    }

    /// The status line and headers, through the blank line, under the page's `policy`.
    pub fn head(&self, policy: &str) -> Vec<u8> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        if let Some(token) = self.encoding.token() {
            head.push_str(&format!("content-encoding: {token}\r\n"));
        }
        if self.varies {
            head.push_str("vary: accept-encoding\r\n");
        }
        if self.status == 405 {
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
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Internal Server Error",
    }
}

/// The answer to `method target` with the request's `accept_encoding`.
pub fn respond<'a>(
    site: &'a Site,
    method: &str,
    target: &str,
    accept_encoding: Option<&str>,
) -> Response<'a> {
    if method != "GET" && method != "HEAD" {
        return Response::error(405);
    }
    if target_path(target) == "/serve.json" {
        return Response::ok(
            "application/json",
            serve_json(site.judge.as_ref(), site.agent.as_ref()),
        );
    }
    let Some((mount, relative)) = locate(target) else {
        return Response::error(404);
    };
    if mount == Mount::Opened {
        return match &site.opened {
            Some(opened) if opened.name == relative => match std::fs::read(&opened.path) {
                Ok(bytes) => Response::ok(content_type(&opened.name), bytes),
                Err(_) => Response::error(404),
            },
            _ => Response::error(404),
        };
    }
    let key = format!("{}/{relative}", mount.folder());
    match site.files.body(&key, negotiate(accept_encoding)) {
        Some(body) => Response {
            status: 200,
            content_type: body.content_type,
            encoding: body.encoding,
            varies: body.encoding != Encoding::Identity
                || crate::encoding::compressible(body.content_type),
            body: body.bytes.into(),
        },
        None => Response::error(404),
    }
}

/// `GET /serve.json`: what the server offers the page besides files.
fn serve_json(judge: Option<&JudgeOffer>, agent: Option<&AgentOffer>) -> Vec<u8> {
    let judge = judge.map(|judge| {
        serde_json::json!({
            "kind": judge.kind,
            "endpoint": judge.endpoint,
            "model": judge.model,
            "label": judge.label,
        })
    });
    let agent = agent.map(|agent| {
        serde_json::json!({
            "kind": agent.kind,
            "endpoint": agent.endpoint,
            "model": agent.model,
            "label": agent.label,
        })
    });
    serde_json::json!({ "judge": judge, "agent": agent })
        .to_string()
        .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opened_name_is_one_the_path_mapping_accepts() {
        for (file, name) in [
            ("data/m365-demo.json", "m365-demo.json"),
            ("my data é.json", "my data é.json"),
            (".hidden.json", "_hidden.json"),
            ("a:b\\c\u{7}.json", "a_b_c_.json"),
            ("", "dataset"),
        ] {
            let opened = Opened::new(PathBuf::from(file));
            assert_eq!(opened.name, name, "{file}");
            assert_eq!(
                locate(&opened.url_path()),
                Some((Mount::Opened, name.to_owned())),
                "{file}"
            );
        }
    }

    #[test]
    fn only_loopback_hosts_are_answered() {
        for host in [
            "127.0.0.1:8000",
            "127.0.0.1",
            "localhost:8001",
            "LOCALHOST",
            "[::1]:8000",
            " 127.0.0.1:0 ",
        ] {
            assert!(loopback_host(host), "{host}");
        }
        for host in [
            "",
            "evil.example:8000",
            "127.0.0.1.evil.example",
            "localhost.evil.example:8000",
            "127.0.0.2:8000",
            "127.0.0.1:80:80",
            "x",
        ] {
            assert!(!loopback_host(host), "{host}");
        }
    }
}
