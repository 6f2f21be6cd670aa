//! Connections: accepts them on the listener, serves each on its own thread with keep-alive,
//! reads requests (heads and chunk sizes parsed by `httparse`), and carries out each
//! [`Outcome`], including the faults that need the raw socket (a truncated body, a hang).
//!
//! A thread per connection: a request's latency is a sleep on its own connection's thread, so
//! it never delays another connection, and a keep-alive client costs one parked thread.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crate::http::{serialize, Outcome, Reply, Request, Response};
use crate::state::Shared;

/// The largest request head (request line and headers) accepted.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// The largest request body accepted.
const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;
/// The most headers one request may carry.
const MAX_HEADERS: usize = 96;

/// Starts the thread that accepts connections on `listener` until the stop signal is raised
/// and the listener is woken by one last connection.
pub(crate) fn spawn_acceptor(
    listener: TcpListener,
    shared: Arc<Shared>,
) -> io::Result<JoinHandle<()>> {
    thread::Builder::new()
        .name("judge-accept".into())
        .spawn(move || accept_loop(&listener, &shared))
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    let mut workers: Vec<JoinHandle<()>> = Vec::new();
    for incoming in listener.incoming() {
        if shared.stop.is_raised() {
            break;
        }
        let stream = match incoming {
            Ok(stream) => stream,
            Err(_) => {
                // Out of file descriptors, or a client that gave up before being accepted:
                // wait a little rather than spin, then go on accepting.
                thread::sleep(Duration::from_millis(5));
                continue;
            }
        };
        workers.retain(|worker| !worker.is_finished());
        shared.recorder.update(|stats| stats.connections += 1);
        let id = shared.connections.register(&stream);
        let worker_shared = Arc::clone(shared);
        let spawned = thread::Builder::new()
            .name("judge-connection".into())
            .spawn(move || {
                serve_connection(&worker_shared, stream);
                worker_shared.connections.forget(id);
            });
        match spawned {
            Ok(worker) => workers.push(worker),
            // The stream moved into the closure that failed to start, and is closed with it.
            Err(_) => shared.connections.forget(id),
        }
    }
    shared.connections.close_all();
    for worker in workers {
        let _ = worker.join();
    }
}

/// Why no request could be read.
enum ReadError {
    /// The client closed the connection (or it failed) between requests.
    Closed,
    /// The request is malformed; answer with this status and message, then close.
    Bad(u16, &'static str),
}

impl From<io::Error> for ReadError {
    fn from(_: io::Error) -> Self {
        ReadError::Closed
    }
}

/// One client connection and the bytes read from it but not yet used.
struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
}

fn serve_connection(shared: &Shared, stream: TcpStream) {
    // Replies are written in one call, so Nagle's algorithm would only add delay.
    let _ = stream.set_nodelay(true);
    let mut connection = Connection {
        stream,
        buffer: Vec::new(),
    };
    while !shared.stop.is_raised() {
        let request = match connection.read_request() {
            Ok(request) => request,
            Err(ReadError::Closed) => break,
            Err(ReadError::Bad(status, message)) => {
                let body = serde_json::json!({"error": {
                    "message": message, "type": "invalid_request_error", "param": null, "code": null
                }});
                let _ = connection.write(&Response::json(status, &body), false, None);
                break;
            }
        };
        let Reply { outcome, in_flight } = crate::routes::handle(shared, &request);
        let keep_alive = request.keep_alive && !shared.stop.is_raised();
        // NOTE: a request stops counting as in flight once its answer is ready, before the
        // answer is written: a client that has read it may then count on the server's
        // `in_flight` no longer including it.
        let open = match outcome {
            Outcome::Send(response) => {
                drop(in_flight);
                connection.write(&response, keep_alive, None).is_ok() && keep_alive
            }
            // NOTE: the raw-socket faults. `truncated` writes a head whose Content-Length
            // announces the whole body, then half of it, then closes (below); `hang` sends
            // nothing and closes when the sleep ends. tiny_http 0.12, the first choice, cannot
            // do either: `Response::add_header` drops `Connection`, and its connection thread
            // owns the socket and keeps reading the next request, so the client would wait for
            // the missing bytes instead of seeing the connection close.
            Outcome::Truncate(response) => {
                drop(in_flight);
                let half = response.body.len() / 2;
                let _ = connection.write(&response, false, Some(half));
                false
            }
            Outcome::Hang(duration) => {
                shared.stop.sleep(duration);
                drop(in_flight);
                false
            }
        };
        if !open {
            break;
        }
    }
    // NOTE: closing the write side first sends FIN after any bytes already queued, so a client
    // reading a truncated body gets those bytes and then end-of-stream (a plain close with
    // unread input could send RST and lose them).
    let _ = connection.stream.shutdown(Shutdown::Write);
}

impl Connection {
    /// Reads more bytes into the buffer; fails with `Closed` at end of stream.
    fn fill(&mut self) -> Result<(), ReadError> {
        let mut chunk = [0u8; 16 * 1024];
        let read = self.stream.read(&mut chunk)?;
        match chunk.get(..read) {
            Some(bytes) if read > 0 => {
                self.buffer.extend_from_slice(bytes);
                Ok(())
            }
            _ => Err(ReadError::Closed),
        }
    }

    fn read_request(&mut self) -> Result<Request, ReadError> {
        let (mut request, head_len) = loop {
            if let Some(parsed) = parse_head(&self.buffer)? {
                break parsed;
            }
            if self.buffer.len() > MAX_HEAD_BYTES {
                return Err(ReadError::Bad(431, "request head too large"));
            }
            self.fill()?;
        };
        self.buffer.drain(..head_len);
        if request
            .header("expect")
            .is_some_and(|expect| expect.eq_ignore_ascii_case("100-continue"))
        {
            self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
        }
        let chunked = request
            .header("transfer-encoding")
            .is_some_and(|coding| coding.to_ascii_lowercase().contains("chunked"));
        request.body = if chunked {
            self.read_chunked_body()?
        } else {
            let length = match request.header("content-length") {
                None => 0,
                Some(value) => value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| ReadError::Bad(400, "invalid content-length"))?,
            };
            if length > MAX_BODY_BYTES {
                return Err(ReadError::Bad(413, "request body too large"));
            }
            while self.buffer.len() < length {
                self.fill()?;
            }
            self.buffer.drain(..length).collect()
        };
        Ok(request)
    }

    fn read_chunked_body(&mut self) -> Result<Vec<u8>, ReadError> {
        let mut body = Vec::new();
        loop {
            let (size_len, size) = loop {
                match httparse::parse_chunk_size(&self.buffer) {
                    Ok(httparse::Status::Complete(parsed)) => break parsed,
                    Ok(httparse::Status::Partial) => self.fill()?,
                    Err(_) => return Err(ReadError::Bad(400, "invalid chunk size")),
                }
            };
            self.buffer.drain(..size_len);
            let size = usize::try_from(size)
                .ok()
                .filter(|size| body.len().saturating_add(*size) <= MAX_BODY_BYTES)
                .ok_or(ReadError::Bad(413, "request body too large"))?;
            if size == 0 {
                return self.skip_trailers().map(|()| body);
            }
            while self.buffer.len() < size + 2 {
                self.fill()?;
            }
            let chunk: Vec<u8> = self.buffer.drain(..size + 2).collect();
            match chunk.split_last_chunk::<2>() {
                Some((data, b"\r\n")) => body.extend_from_slice(data),
                _ => return Err(ReadError::Bad(400, "chunk not followed by CRLF")),
            }
        }
    }

    /// Skips the trailer section after the last chunk, up to and including its empty line.
    fn skip_trailers(&mut self) -> Result<(), ReadError> {
        loop {
            match find_crlf(&self.buffer) {
                Some(0) => {
                    self.buffer.drain(..2);
                    return Ok(());
                }
                Some(line) => {
                    self.buffer.drain(..line + 2);
                }
                None if self.buffer.len() > MAX_HEAD_BYTES => {
                    return Err(ReadError::Bad(431, "trailers too large"))
                }
                None => self.fill()?,
            }
        }
    }

    /// Writes `response`; with `body_limit`, only that many bytes of its body (the head still
    /// announces all of it).
    fn write(
        &mut self,
        response: &Response,
        keep_alive: bool,
        body_limit: Option<usize>,
    ) -> io::Result<()> {
        let bytes = serialize(response, keep_alive, body_limit);
        self.stream.write_all(&bytes)?;
        self.stream.flush()
    }
}

/// Parses a request head at the start of `buffer`: `None` while it is incomplete.
fn parse_head(buffer: &[u8]) -> Result<Option<(Request, usize)>, ReadError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut head = httparse::Request::new(&mut headers);
    let head_len = match head.parse(buffer) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(ReadError::Bad(431, "too many request headers"))
        }
        Err(_) => return Err(ReadError::Bad(400, "malformed request head")),
    };
    let headers: Vec<(String, String)> = head
        .headers
        .iter()
        .map(|header| {
            (
                header.name.to_ascii_lowercase(),
                String::from_utf8_lossy(header.value).trim().to_string(),
            )
        })
        .collect();
    let connection = headers
        .iter()
        .find(|(name, _)| name == "connection")
        .map(|(_, value)| value.to_ascii_lowercase())
        .unwrap_or_default();
    let keep_alive = match head.version {
        Some(1) => !connection.contains("close"),
        _ => connection.contains("keep-alive"),
    };
    let request = Request {
        method: head.method.unwrap_or_default().to_string(),
        target: head.path.unwrap_or_default().to_string(),
        headers,
        body: Vec::new(),
        keep_alive,
    };
    Ok(Some((request, head_len)))
}

fn find_crlf(bytes: &[u8]) -> Option<usize> {
    bytes.windows(2).position(|pair| pair == b"\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_parse_with_keep_alive_rules() {
        let (request, len) =
            match parse_head(b"POST /v1/chat/completions?x=1 HTTP/1.1\r\nHost: a\r\n\r\nBODY") {
                Ok(Some(parsed)) => parsed,
                _ => panic!("head should parse"),
            };
        assert_eq!(request.method, "POST");
        assert_eq!(request.path(), "/v1/chat/completions");
        assert_eq!(request.header("host"), Some("a"));
        assert!(request.keep_alive);
        assert_eq!(len, 51);
        let closing = parse_head(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
        assert!(matches!(closing, Ok(Some((request, _))) if !request.keep_alive));
        let old = parse_head(b"GET / HTTP/1.0\r\n\r\n");
        assert!(matches!(old, Ok(Some((request, _))) if !request.keep_alive));
        assert!(matches!(parse_head(b"GET / HT"), Ok(None)));
        assert!(matches!(
            parse_head(b"GET / HTTP/1.1\r\nbad header\r\n\r\n"),
            Err(ReadError::Bad(400, _))
        ));
    }
}
