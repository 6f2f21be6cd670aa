//! State shared by the accept thread, the connection threads and the [`RunningServer`]
//! handle: the configuration, the counters, the per-request attempt counts, the stop signal and
//! the open connections (so that stopping can close them).
//!
//! [`RunningServer`]: crate::RunningServer

use std::collections::HashMap;
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::http::Request;
use crate::memory::Memory;
use crate::stats::Recorder;
use crate::ServerConfig;

/// Everything the server's threads share.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) config: ServerConfig,
    pub(crate) recorder: Arc<Recorder>,
    pub(crate) attempts: Attempts,
    pub(crate) stop: StopSignal,
    pub(crate) connections: Connections,
    /// The demo agent's conversations.
    pub(crate) memory: Memory,
}

impl Shared {
    pub(crate) fn new(config: ServerConfig) -> Self {
        Shared {
            config,
            recorder: Arc::new(Recorder::default()),
            attempts: Attempts::default(),
            stop: StopSignal::default(),
            connections: Connections::default(),
            memory: Memory::default(),
        }
    }

    /// Whether `request` carries the configured key (always, when none is configured).
    pub(crate) fn admits(&self, request: &Request) -> bool {
        self.config
            .key
            .as_deref()
            .is_none_or(|key| request.carries_key(key))
    }

    /// Zeroes the counters and forgets every attempt count.
    pub(crate) fn reset(&self) {
        self.recorder.reset();
        self.attempts.clear();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every guarded value here stays valid whatever a panicking holder was doing.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many times each exact request body has been received.
#[derive(Debug, Default)]
pub(crate) struct Attempts {
    counts: Mutex<HashMap<u64, u32>>,
}

impl Attempts {
    /// Counts one more attempt of the request whose body hashes to `body_hash`; returns its
    /// number, 1 for the first.
    pub(crate) fn next(&self, body_hash: u64) -> u32 {
        let mut counts = lock(&self.counts);
        let count = counts.entry(body_hash).or_insert(0);
        *count = count.saturating_add(1);
        *count
    }

    fn clear(&self) {
        lock(&self.counts).clear();
    }
}

/// Raised once when the server stops; wakes every thread sleeping on it.
#[derive(Debug, Default)]
pub(crate) struct StopSignal {
    stopped: Mutex<bool>,
    wake: Condvar,
}

impl StopSignal {
    pub(crate) fn raise(&self) {
        *lock(&self.stopped) = true;
        self.wake.notify_all();
    }

    pub(crate) fn is_raised(&self) -> bool {
        *lock(&self.stopped)
    }

    /// Sleeps for `duration`, or less if the signal is raised meanwhile. Returns whether it was
    /// raised. Other threads keep running: only the caller waits.
    pub(crate) fn sleep(&self, duration: Duration) -> bool {
        let deadline = Instant::now().checked_add(duration);
        let mut stopped = lock(&self.stopped);
        while !*stopped {
            let left = match deadline {
                Some(deadline) => deadline.saturating_duration_since(Instant::now()),
                // A duration past the end of time: wait in long steps until stopped.
                None => Duration::from_secs(3600),
            };
            if left.is_zero() {
                break;
            }
            stopped = self
                .wake
                .wait_timeout(stopped, left)
                .map(|(guard, _)| guard)
                .unwrap_or_else(|poisoned| poisoned.into_inner().0);
        }
        *stopped
    }
}

/// The open client connections, each as a second handle to its socket.
#[derive(Debug, Default)]
pub(crate) struct Connections {
    next_id: AtomicU64,
    open: Mutex<HashMap<u64, TcpStream>>,
}

impl Connections {
    /// Remembers `stream` until [`Connections::forget`]; returns its id.
    pub(crate) fn register(&self, stream: &TcpStream) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if let Ok(handle) = stream.try_clone() {
            lock(&self.open).insert(id, handle);
        }
        id
    }

    pub(crate) fn forget(&self, id: u64) {
        lock(&self.open).remove(&id);
    }

    /// Shuts every open connection down, which ends any read or write blocked on it.
    pub(crate) fn close_all(&self) {
        for (_, stream) in lock(&self.open).drain() {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;

    #[test]
    fn attempts_count_per_body_and_clear() {
        let attempts = Attempts::default();
        assert_eq!(attempts.next(1), 1);
        assert_eq!(attempts.next(1), 2);
        assert_eq!(attempts.next(2), 1);
        attempts.clear();
        assert_eq!(attempts.next(1), 1);
    }

    #[test]
    fn raising_the_signal_ends_a_long_sleep() {
        let signal = Arc::new(StopSignal::default());
        let sleeper = {
            let signal = Arc::clone(&signal);
            thread::spawn(move || signal.sleep(Duration::from_secs(60)))
        };
        thread::sleep(Duration::from_millis(20));
        let started = Instant::now();
        signal.raise();
        assert!(sleeper.join().unwrap());
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(!StopSignal::default().sleep(Duration::from_millis(1)));
    }
}
