//! A minimal HTTP/1.1 client over `std::net::TcpStream` for the integration tests: it keeps the
//! connection open between requests, and reports exactly what arrived (a body shorter than its
//! `content-length`, a closed connection), which the faults need and a full client would hide.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use agenteval_judge_server::{start, RunningServer, ServerConfig};
use serde_json::{json, Value};

/// A server with the default configuration (any free port, no key, no faults).
pub fn server() -> RunningServer {
    start(ServerConfig::default()).expect("server starts")
}

/// The JSON body of a 200 reply; any other status fails the test with the body.
pub fn ok(reply: &Reply) -> Value {
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.json()
}

/// What came back for one request.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    /// Lower-case names.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The announced `content-length`.
    pub announced: Option<usize>,
    /// The server closed the connection after this reply (or instead of one).
    pub closed: bool,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|error| {
            panic!(
                "body is not JSON ({error}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The first choice's `message.content` text.
    pub fn content(&self) -> String {
        let body = self.json();
        body["choices"][0]["message"]["content"]
            .as_str()
            .unwrap_or_else(|| panic!("no string content in {body}"))
            .to_string()
    }

    /// The first choice's content, parsed as JSON.
    pub fn verdict(&self) -> Value {
        let content = self.content();
        serde_json::from_str(&content).unwrap_or_else(|_| panic!("content is not JSON: {content}"))
    }
}

/// One connection to a server.
pub struct Client {
    address: String,
    stream: Option<TcpStream>,
    buffer: Vec<u8>,
}

impl Client {
    pub fn new(url: &str) -> Client {
        Client {
            address: url.trim_start_matches("http://").to_string(),
            stream: None,
            buffer: Vec::new(),
        }
    }

    fn stream(&mut self) -> &mut TcpStream {
        if self.stream.is_none() {
            let stream = TcpStream::connect(&self.address).expect("connect");
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .expect("timeout");
            self.stream = Some(stream);
            self.buffer.clear();
        }
        self.stream.as_mut().expect("stream")
    }

    /// Sends raw bytes and reads one reply (the connection is reopened if the last one closed).
    pub fn raw(&mut self, bytes: &[u8]) -> Reply {
        self.stream().write_all(bytes).expect("write");
        let reply = self.read_reply();
        if reply.closed {
            self.stream = None;
        }
        reply
    }

    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Reply {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nhost: {}\r\ncontent-length: {}\r\n",
            self.address,
            body.len()
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body.as_bytes());
        self.raw(&bytes)
    }

    pub fn post(&mut self, path: &str, body: &Value) -> Reply {
        self.request(
            "POST",
            path,
            &[("content-type", "application/json")],
            &body.to_string(),
        )
    }

    /// A JSON `POST` with extra headers (`authorization`, `api-key`...).
    pub fn post_with(&mut self, path: &str, headers: &[(&str, &str)], body: &Value) -> Reply {
        let mut all = vec![("content-type", "application/json")];
        all.extend_from_slice(headers);
        self.request("POST", path, &all, &body.to_string())
    }

    /// A `GET` with extra headers.
    pub fn get(&mut self, path: &str, headers: &[(&str, &str)]) -> Reply {
        self.request("GET", path, headers, "")
    }

    /// Reads more bytes; false at end of stream.
    fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 8192];
        let stream = self.stream.as_mut().expect("stream");
        match stream.read(&mut chunk) {
            Ok(0) => false,
            Ok(read) => {
                self.buffer.extend_from_slice(&chunk[..read]);
                true
            }
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => false,
            Err(error) => panic!("read failed: {error}"),
        }
    }

    fn read_reply(&mut self) -> Reply {
        let (status, headers, head_len) = loop {
            let mut parsed_headers = [httparse::EMPTY_HEADER; 64];
            let mut response = httparse::Response::new(&mut parsed_headers);
            if let httparse::Status::Complete(len) =
                response.parse(&self.buffer).expect("valid response head")
            {
                let headers: Vec<(String, String)> = response
                    .headers
                    .iter()
                    .map(|h| {
                        (
                            h.name.to_ascii_lowercase(),
                            String::from_utf8_lossy(h.value).to_string(),
                        )
                    })
                    .collect();
                break (response.code.expect("status"), headers, len);
            }
            if !self.fill() {
                assert!(
                    self.buffer.is_empty(),
                    "connection closed mid-head: {:?}",
                    String::from_utf8_lossy(&self.buffer)
                );
                return Reply {
                    status: 0,
                    headers: Vec::new(),
                    body: Vec::new(),
                    announced: None,
                    closed: true,
                };
            }
        };
        self.buffer.drain(..head_len);
        let announced = headers
            .iter()
            .find(|(name, _)| name == "content-length")
            .map(|(_, value)| value.parse::<usize>().expect("numeric content-length"));
        let length = announced.unwrap_or(0);
        let mut eof = false;
        while self.buffer.len() < length {
            if !self.fill() {
                eof = true;
                break;
            }
        }
        let take = length.min(self.buffer.len());
        let body: Vec<u8> = self.buffer.drain(..take).collect();
        let close_header = headers
            .iter()
            .any(|(name, value)| name == "connection" && value == "close");
        Reply {
            status,
            headers,
            body,
            announced,
            closed: eof || close_header,
        }
    }
}

/// A chat request as our judge prompts send it: the scale in the system message, the text to
/// judge in the user message.
pub fn judge_request(user: &str, low: i64, high: i64) -> Value {
    json!({
        "messages": [
            {"role": "system", "content": format!(
                "You are a grader. Answer with JSON: {{\"reason\": <string>, \"score\": <integer from {low} to {high}>, \"status\": \"completed\"}}"
            )},
            {"role": "user", "content": user},
        ],
        "temperature": 0,
        "max_tokens": 800,
    })
}

/// One request on a fresh connection.
pub fn post(url: &str, path: &str, body: &Value) -> Reply {
    Client::new(url).post(path, body)
}
