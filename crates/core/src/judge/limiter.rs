//! The adaptive concurrency limit of judge calls: at most `limit` requests in flight, where the
//! limit starts at the configured concurrency, halves on a rate limit (once per round of requests)
//! and grows back by one after each `limit` successes in a row; a rate limit also pauses new
//! requests until the time the endpoint asked for.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use super::http::Clock;

/// Shared by every call of a run.
pub struct Limiter {
    state: RefCell<State>,
}

struct State {
    max: usize,
    limit: usize,
    in_flight: usize,
    successes: usize,
    paused_until: Duration,
    /// When the limit was last cut: a burst of rate limits from one window cuts it once.
    last_cut: Option<Duration>,
    generation: u64,
    waiters: Vec<Waker>,
    peak_in_flight: usize,
}

/// One request's place in flight; dropping it frees the place.
pub struct Permit<'l> {
    limiter: &'l Limiter,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let wakers = {
            let mut state = self.limiter.state.borrow_mut();
            state.in_flight = state.in_flight.saturating_sub(1);
            state.generation += 1;
            std::mem::take(&mut state.waiters)
        };
        for waker in wakers {
            waker.wake();
        }
    }
}

impl Limiter {
    /// A limit of `max` requests in flight (at least 1).
    pub fn new(max: usize) -> Self {
        let max = max.max(1);
        Limiter {
            state: RefCell::new(State {
                max,
                limit: max,
                in_flight: 0,
                successes: 0,
                paused_until: Duration::ZERO,
                last_cut: None,
                generation: 0,
                waiters: Vec::new(),
                peak_in_flight: 0,
            }),
        }
    }

    /// The current limit.
    #[cfg(test)]
    pub fn limit(&self) -> usize {
        self.state.borrow().limit
    }

    /// The most requests that were in flight at once.
    pub fn peak_in_flight(&self) -> usize {
        self.state.borrow().peak_in_flight
    }

    /// Waits for a place in flight (and for any rate-limit pause to end).
    pub async fn acquire<'l>(&'l self, clock: &dyn Clock) -> Permit<'l> {
        loop {
            let wait = {
                let mut state = self.state.borrow_mut();
                let now = clock.now();
                if now < state.paused_until {
                    Some(state.paused_until - now)
                } else if state.in_flight < state.limit {
                    state.in_flight += 1;
                    state.peak_in_flight = state.peak_in_flight.max(state.in_flight);
                    return Permit { limiter: self };
                } else {
                    None
                }
            };
            match wait {
                Some(pause) => clock.sleep(pause).await,
                None => {
                    let generation = self.state.borrow().generation;
                    PlaceFreed {
                        limiter: self,
                        generation,
                    }
                    .await
                }
            }
        }
    }

    /// Counts a success; after `limit` in a row the limit grows by one, up to the maximum.
    pub fn succeeded(&self) {
        let mut state = self.state.borrow_mut();
        state.successes += 1;
        if state.successes >= state.limit && state.limit < state.max {
            state.limit += 1;
            state.successes = 0;
        }
    }

    /// A rate limit answered at `now` to a request sent at `sent_at`: new requests wait `wait`,
    /// and the limit halves unless it was already cut after that request was sent (the 429s of
    /// one round of requests cut it once).
    pub fn rate_limited(&self, now: Duration, sent_at: Duration, wait: Duration) {
        let wakers = {
            let mut state = self.state.borrow_mut();
            if state.last_cut.is_none_or(|cut| sent_at >= cut) {
                state.limit = (state.limit / 2).max(1);
                state.last_cut = Some(now);
            }
            state.successes = 0;
            state.paused_until = state.paused_until.max(now + wait);
            state.generation += 1;
            std::mem::take(&mut state.waiters)
        };
        for waker in wakers {
            waker.wake();
        }
    }
}

/// Resolves when a place is freed (or the limit changes) after `generation`.
struct PlaceFreed<'l> {
    limiter: &'l Limiter,
    generation: u64,
}

impl Future for PlaceFreed<'_> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        let mut state = self.limiter.state.borrow_mut();
        if state.generation != self.generation {
            return Poll::Ready(());
        }
        state.waiters.push(context.waker().clone());
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::testing::ManualClock;
    use futures::FutureExt;

    #[test]
    fn places_are_bounded_and_freed() {
        let clock = ManualClock::default();
        let limiter = Limiter::new(2);
        let first = limiter.acquire(&clock).now_or_never().unwrap();
        let _second = limiter.acquire(&clock).now_or_never().unwrap();
        let mut third = Box::pin(limiter.acquire(&clock));
        assert!(third.as_mut().now_or_never().is_none());
        drop(first);
        assert!(third.as_mut().now_or_never().is_some());
        assert_eq!(limiter.peak_in_flight(), 2);
    }

    #[test]
    fn rate_limits_halve_once_per_round_and_successes_grow_back() {
        let limiter = Limiter::new(16);
        let second = Duration::from_secs(1);
        limiter.rate_limited(10 * second, 9 * second, second);
        assert_eq!(limiter.limit(), 8);
        limiter.rate_limited(11 * second, 9 * second, second);
        assert_eq!(
            limiter.limit(),
            8,
            "a request sent before the cut does not cut again"
        );
        limiter.rate_limited(13 * second, 12 * second, second);
        assert_eq!(limiter.limit(), 4, "one sent after the cut does");
        for _ in 0..4 {
            limiter.succeeded();
        }
        assert_eq!(limiter.limit(), 5);
        for _ in 0..200 {
            limiter.succeeded();
        }
        assert_eq!(limiter.limit(), 16);
    }

    #[test]
    fn a_pause_holds_new_requests_until_it_ends() {
        let clock = ManualClock::default();
        let limiter = Limiter::new(4);
        limiter.rate_limited(clock.now(), clock.now(), Duration::from_millis(500));
        let permit = limiter.acquire(&clock).now_or_never();
        assert!(permit.is_some(), "the manual clock's sleep ends at once");
        assert!(clock.now() >= Duration::from_millis(500));
    }
}
