//! The judge cache (spec §6): answers kept by request key, so an identical request costs no
//! call. [`MemoryCache`] keeps them for the run; a [`Store`] keeps them across runs (a file in the
//! CLI, IndexedDB in browsers). Only answers that gave a verdict are kept; errors never are.

use std::cell::RefCell;
use std::collections::HashMap;

use super::http::LocalFuture;

/// A persistent key-value store of judge answers (response bodies by cache key).
pub trait Store {
    /// The stored body for `key`.
    fn get(&self, key: &str) -> LocalFuture<'_, Option<String>>;
    /// Stores `body` under `key`. Failures are the store's to report; the run goes on.
    fn put(&self, key: &str, body: &str) -> LocalFuture<'_, ()>;
}

/// Answers kept in memory for the life of a scheduler.
#[derive(Debug, Default)]
pub struct MemoryCache {
    entries: RefCell<HashMap<String, String>>,
}

impl MemoryCache {
    /// The body kept for `key`.
    pub fn get(&self, key: &str) -> Option<String> {
        self.entries.borrow().get(key).cloned()
    }

    /// Keeps `body` under `key`.
    pub fn put(&self, key: &str, body: &str) {
        self.entries
            .borrow_mut()
            .insert(key.to_owned(), body.to_owned());
    }

    /// Number of answers kept.
    pub fn len(&self) -> usize {
        self.entries.borrow().len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.borrow().is_empty()
    }
}
