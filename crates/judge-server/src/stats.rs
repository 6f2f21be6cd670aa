//! What the server saw, for tests and benchmarks to assert on: request and reply counts, faults
//! injected, concurrency reached and tokens reported. Owns the counters only; it decides nothing.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Counters since the server started or since the last reset (`POST /reset`,
/// [`RunningServer::reset_stats`](crate::RunningServer::reset_stats)).
///
/// `GET /stats` returns this as JSON; `by_status` keys are then strings (`"200"`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Every HTTP request except `GET /stats` and `POST /reset` (preflights included).
    pub requests: u64,
    /// Chat-completion requests that passed the key check, answered or faulted.
    pub completions: u64,
    /// Embeddings requests that passed the key check, answered or faulted.
    pub embeddings: u64,
    /// CORS preflights (`OPTIONS`).
    pub preflights: u64,
    /// Responses sent, by HTTP status (a `truncated` reply counts as 200; a `hang` sends none).
    pub by_status: BTreeMap<u16, u64>,
    /// Faults injected, by kind (`"429"`, `"truncated"`, `"hang"`, ...), directed or random.
    pub faults: BTreeMap<String, u64>,
    /// How many of `faults` were drawn at random (`fault_rate`), not asked for by a directive.
    pub random_faults: u64,
    /// The most chat, embeddings and agent requests being handled at the same time.
    pub max_in_flight: u64,
    /// Chat, embeddings and agent requests being handled when the snapshot was taken.
    pub in_flight: u64,
    /// TCP connections accepted (keep-alive clients reuse one for many requests).
    pub connections: u64,
    /// Requests refused with 401 because the key was missing or wrong.
    pub unauthorized: u64,
    /// Sum of `usage.prompt_tokens` over successful replies (chat and embeddings).
    pub prompt_tokens: u64,
    /// Sum of `usage.completion_tokens` over successful chat replies.
    pub completion_tokens: u64,
    /// Requests to the demo agent's routes with the right method (401s included), by
    /// route (`directline.token`, `directline.start`, `directline.post`, `directline.poll`,
    /// `responses`, `chat`, `a2a`, `a2a.card`, `http`).
    pub agent_requests: BTreeMap<String, u64>,
}

/// The shared, thread-safe home of [`Stats`].
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    stats: Mutex<Stats>,
    in_flight: AtomicU64,
}

impl Recorder {
    fn lock(&self) -> MutexGuard<'_, Stats> {
        // A panic while counting cannot leave the counters inconsistent enough to matter.
        self.stats.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies `change` to the counters.
    pub(crate) fn update(&self, change: impl FnOnce(&mut Stats)) {
        change(&mut self.lock());
    }

    /// A copy of the counters.
    pub(crate) fn snapshot(&self) -> Stats {
        let mut stats = self.lock().clone();
        stats.in_flight = self.in_flight.load(Ordering::SeqCst);
        stats
    }

    /// Zeroes every counter (requests still in flight stay counted in `in_flight`).
    pub(crate) fn reset(&self) {
        *self.lock() = Stats::default();
    }

    /// Marks one chat, embeddings or agent request as being handled until the guard is dropped.
    pub(crate) fn begin(self: &Arc<Self>) -> InFlight {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.update(|stats| stats.max_in_flight = stats.max_in_flight.max(now));
        InFlight {
            recorder: Arc::clone(self),
        }
    }
}

/// One request in flight; dropping it ends it.
#[derive(Debug)]
pub(crate) struct InFlight {
    recorder: Arc<Recorder>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.recorder.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_flight_guards_track_the_maximum() {
        let recorder = Arc::new(Recorder::default());
        let first = recorder.begin();
        let second = recorder.begin();
        drop(first);
        let third = recorder.begin();
        let stats = recorder.snapshot();
        assert_eq!(stats.max_in_flight, 2);
        assert_eq!(stats.in_flight, 2);
        drop((second, third));
        assert_eq!(recorder.snapshot().in_flight, 0);
    }

    #[test]
    fn status_keys_serialise_as_strings() {
        let mut stats = Stats::default();
        stats.by_status.insert(200, 3);
        let json = serde_json::to_value(&stats).unwrap_or_default();
        assert_eq!(json["by_status"]["200"], 3);
    }
}
