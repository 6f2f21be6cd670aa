//! The demo agent's memory: its Direct Line conversations (token, expiry, the activities
//! released so far and those scheduled), the tokens its token endpoint issued, and the threads of
//! the other protocols (the last topic, a function call waiting for the client's output), keyed by
//! conversation, context or response id, and the A2A tasks. Holds data only; what to answer is `agent`'s.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use serde_json::Value;

use crate::hash;

/// One Direct Line conversation.
#[derive(Debug, Clone)]
pub(crate) struct Conversation {
    /// The token the client must use for it.
    pub(crate) token: String,
    /// When the token stops being accepted.
    pub(crate) expires_at: Instant,
    /// Set by a `fault=expire` directive: every later request is refused with 403.
    pub(crate) expired: bool,
    /// Every activity with the time it becomes visible to polls, in release order.
    pub(crate) activities: Vec<(Instant, Value)>,
    /// The knowledge topic of the last answer, for follow-ups.
    pub(crate) topic: Option<usize>,
    /// How many activity ids have been handed out.
    pub(crate) sequence: u64,
}

impl Conversation {
    /// The next activity id, `{conversation}|{number}` as Direct Line writes them.
    pub(crate) fn next_activity_id(&mut self, conversation_id: &str) -> String {
        self.sequence += 1;
        format!("{conversation_id}|{:07}", self.sequence)
    }

    /// When the last activity is released, if there is one.
    pub(crate) fn last_release(&self) -> Option<Instant> {
        self.activities.last().map(|(release, _)| *release)
    }

    /// How many activities are visible at `now` (they are released in order).
    pub(crate) fn released(&self, now: Instant) -> usize {
        self.activities
            .iter()
            .take_while(|(release, _)| *release <= now)
            .count()
    }
}

/// A function call an agent asked the client to run, waiting for its output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PendingCall {
    pub(crate) call_id: String,
    pub(crate) topic: usize,
}

/// A conversation of the protocols other than Direct Line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Thread {
    /// The knowledge topic of the last answer, for follow-ups.
    pub(crate) topic: Option<usize>,
    pub(crate) pending_call: Option<PendingCall>,
}

/// Everything the demo agent remembers between requests.
#[derive(Debug, Default)]
pub(crate) struct Memory {
    ids: AtomicU64,
    conversations: Mutex<HashMap<String, Conversation>>,
    /// Tokens from the token endpoint that have not started their conversation yet, with the
    /// conversation id they are for.
    issued: Mutex<HashMap<String, String>>,
    threads: Mutex<HashMap<String, Thread>>,
    /// A2A tasks by id: when each completes, and its completed form.
    tasks: Mutex<HashMap<String, (Instant, Value)>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Each map stays valid whatever a panicking holder was doing.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Memory {
    /// A new identifier: 16 hex digits, unique within this server, unpredictable across servers
    /// (mixed with the clock and `seed`).
    pub(crate) fn fresh_id(&self, seed: u64) -> String {
        let count = self.ids.fetch_add(1, Ordering::Relaxed);
        let clock = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos() as u64);
        format!("{:016x}", hash::with_seed(hash::mix(count) ^ clock, seed))
    }

    /// Stores a new conversation under `id`.
    pub(crate) fn start_conversation(&self, id: String, conversation: Conversation) {
        lock(&self.conversations).insert(id, conversation);
    }

    /// Runs `change` on conversation `id`; `None` when there is no such conversation.
    pub(crate) fn with_conversation<T>(
        &self,
        id: &str,
        change: impl FnOnce(&mut Conversation) -> T,
    ) -> Option<T> {
        lock(&self.conversations).get_mut(id).map(change)
    }

    /// The id of the conversation whose token is `token`, if any.
    pub(crate) fn conversation_of_token(&self, token: &str) -> Option<String> {
        lock(&self.conversations)
            .iter()
            .find(|(_, conversation)| conversation.token == token)
            .map(|(id, _)| id.clone())
    }

    /// Remembers a token issued for conversation `conversation_id`.
    pub(crate) fn issue_token(&self, token: String, conversation_id: String) {
        lock(&self.issued).insert(token, conversation_id);
    }

    /// The conversation id an issued token is for, forgetting the token (it now belongs to its
    /// conversation).
    pub(crate) fn redeem_token(&self, token: &str) -> Option<String> {
        lock(&self.issued).remove(token)
    }

    /// The thread under `key`, if any.
    pub(crate) fn thread(&self, key: &str) -> Option<Thread> {
        lock(&self.threads).get(key).cloned()
    }

    /// Stores `thread` under `key`.
    pub(crate) fn keep_thread(&self, key: String, thread: Thread) {
        lock(&self.threads).insert(key, thread);
    }

    /// Stores task `id`, which completes at `done` as `completed`.
    pub(crate) fn keep_task(&self, id: String, done: Instant, completed: Value) {
        lock(&self.tasks).insert(id, (done, completed));
    }

    /// Task `id`: when it completes, and its completed form.
    pub(crate) fn task(&self, id: &str) -> Option<(Instant, Value)> {
        lock(&self.tasks).get(id).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn ids_are_unique_and_activities_release_in_order() {
        let memory = Memory::default();
        assert_ne!(memory.fresh_id(0), memory.fresh_id(0));
        let now = Instant::now();
        let later = now + Duration::from_secs(5);
        let mut conversation = Conversation {
            token: "t".into(),
            expires_at: later,
            expired: false,
            activities: vec![(now, Value::Null), (later, Value::Null)],
            topic: None,
            sequence: 0,
        };
        assert_eq!(conversation.released(now), 1);
        assert_eq!(conversation.released(later), 2);
        assert_eq!(conversation.next_activity_id("c"), "c|0000001");
        memory.issue_token("tok".into(), "c".into());
        assert_eq!(memory.redeem_token("tok").as_deref(), Some("c"));
        assert_eq!(memory.redeem_token("tok"), None);
    }
}
