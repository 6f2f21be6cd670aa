//! agenteval-judge-server: a local OpenAI/Azure-compatible judge server for tests, demos and
//! benchmarks. It answers chat completions with deterministic verdicts derived from the request,
//! embeddings with deterministic vectors, and injects faults on request (`[[judge:...]]`
//! directives in the messages) or at random (`fault_rate`), so that clients can be tested for
//! retries, timeouts and parsing without a network or a model. Under `/agent` it also plays an
//! agent (Direct Line 3.0, the Responses API, chat completions, A2A, a generic JSON endpoint)
//! answering from a small built-in knowledge base, with `[[agent:…]]` fault directives.
//!
//! [`start`] binds `127.0.0.1` and serves on background threads (one per connection, keep-alive,
//! CORS for browser pages on other origins) until the [`RunningServer`] is stopped or dropped.
//! The protocol (routes, directives, faults) is documented in the crate's README.
//!
//! ```no_run
//! let server = agenteval_judge_server::start(Default::default())?;
//! println!("judge at {}", server.url());
//! server.stop();
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! Test tooling only: no TLS, no persistence, no tokio; it never calls out.

mod agent;
mod connection;
mod directives;
mod embeddings;
mod faults;
mod hash;
mod http;
mod memory;
mod reply;
mod routes;
mod rubric_generation;
mod state;
mod stats;

use std::fmt;
use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

pub use stats::Stats;

use state::Shared;

/// How a server behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// The port on `127.0.0.1`; 0 picks any free port (see [`RunningServer::port`]).
    pub port: u16,
    /// How long every chat, embeddings, agent or unknown-route request waits before its answer (a
    /// sleep on its own connection's thread: it never delays other connections). Preflights,
    /// `/stats` and `/reset` answer at once.
    pub latency: Duration,
    /// The share of requests without directives that get a random transient fault (`429`,
    /// `500`, `503` or `truncated`) on their first attempt, from 0 to 1.
    pub fault_rate: f64,
    /// Mixed into every derived score and random fault: another seed, other answers.
    pub seed: u64,
    /// When set, requests must carry `api-key: KEY` or `Authorization: Bearer KEY` (preflights
    /// and `GET /stats` need none).
    pub key: Option<String>,
    /// The `retry-after-ms` of a `429` fault (`Retry-After` is this in whole seconds, rounded
    /// up).
    pub retry_after_ms: u64,
    /// How long a `hang` fault sends nothing before closing the connection.
    pub hang: Duration,
}

impl Default for ServerConfig {
    /// Any free port, no latency, no random faults, seed 0, no key, 50 ms retry-after, 600 s
    /// hangs.
    fn default() -> Self {
        ServerConfig {
            port: 0,
            latency: Duration::ZERO,
            fault_rate: 0.0,
            seed: 0,
            key: None,
            retry_after_ms: 50,
            hang: Duration::from_secs(600),
        }
    }
}

/// Starts a server on `127.0.0.1:config.port`, serving on background threads.
///
/// Several servers may run in one process, each with its own port, counters and attempt counts.
///
/// # Errors
/// `InvalidInput` when `fault_rate` is not within 0..=1; the bind error when the port is taken;
/// an error when the accept thread cannot be started.
pub fn start(config: ServerConfig) -> io::Result<RunningServer> {
    if !(0.0..=1.0).contains(&config.fault_rate) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "fault_rate must be within 0 and 1, not {}",
                config.fault_rate
            ),
        ));
    }
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, config.port))?;
    let address = listener.local_addr()?;
    let shared = Arc::new(Shared::new(config));
    let acceptor = connection::spawn_acceptor(listener, Arc::clone(&shared))?;
    Ok(RunningServer {
        shared,
        address,
        acceptor: Some(acceptor),
    })
}

/// A server started by [`start`]. Stopping it — [`RunningServer::stop`], or dropping it —
/// closes the listener and every open connection (ending hangs and latency waits at once) and
/// waits for the server's threads to finish.
pub struct RunningServer {
    shared: Arc<Shared>,
    address: SocketAddr,
    acceptor: Option<JoinHandle<()>>,
}

impl RunningServer {
    /// The base URL, `http://127.0.0.1:PORT` (the Azure endpoint; OpenAI clients use
    /// `{url}/v1`, Azure v1 clients `{url}/openai/v1`).
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The port it listens on (the one picked when the configuration asked for 0).
    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// The configuration it runs with.
    pub fn config(&self) -> &ServerConfig {
        &self.shared.config
    }

    /// A copy of the counters (what `GET /stats` returns).
    pub fn stats(&self) -> Stats {
        self.shared.recorder.snapshot()
    }

    /// Zeroes the counters and forgets every request's attempt count (what `POST /reset` does).
    pub fn reset_stats(&self) {
        self.shared.reset();
    }

    /// Stops the server and waits for its threads (dropping it does the same).
    pub fn stop(self) {
        drop(self);
    }

    fn shutdown(&mut self) {
        let Some(acceptor) = self.acceptor.take() else {
            return;
        };
        self.shared.stop.raise();
        // The accept thread is blocked in `accept`: one last connection wakes it, and it sees
        // the signal. If even that cannot connect, the thread is left to the process's end.
        if TcpStream::connect_timeout(&self.address, Duration::from_secs(1)).is_ok() {
            let _ = acceptor.join();
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl fmt::Debug for RunningServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunningServer")
            .field("url", &self.url())
            .finish_non_exhaustive()
    }
}
