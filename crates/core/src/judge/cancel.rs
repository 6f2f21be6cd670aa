//! [`Cancel`]: a run's stop signal (an `AbortSignal` in JS, Ctrl-C in the CLI). Once raised it
//! stays raised; every future waiting on it wakes.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// A shared, single-threaded stop signal.
#[derive(Clone, Default)]
pub struct Cancel(Rc<RefCell<State>>);

#[derive(Default)]
struct State {
    cancelled: bool,
    wakers: Vec<Waker>,
}

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Cancel").field(&self.is_cancelled()).finish()
    }
}

impl Cancel {
    /// A signal not yet raised.
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Raises the signal and wakes everything waiting on it.
    pub fn cancel(&self) {
        let wakers = {
            let mut state = self.0.borrow_mut();
            state.cancelled = true;
            std::mem::take(&mut state.wakers)
        };
        for waker in wakers {
            waker.wake();
        }
    }

    /// Whether the signal is raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.borrow().cancelled
    }

    /// Resolves once the signal is raised.
    pub fn cancelled(&self) -> Cancelled {
        Cancelled(self.clone())
    }
}

/// The future of [`Cancel::cancelled`].
pub struct Cancelled(Cancel);

impl Future for Cancelled {
    type Output = ();

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        let mut state = (self.0).0.borrow_mut();
        if state.cancelled {
            return Poll::Ready(());
        }
        if !state
            .wakers
            .iter()
            .any(|waker| waker.will_wake(context.waker()))
        {
            state.wakers.push(context.waker().clone());
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::FutureExt;

    #[test]
    fn waiting_futures_resolve_once_cancelled() {
        let cancel = Cancel::new();
        let mut waiting = cancel.cancelled();
        assert!((&mut waiting).now_or_never().is_none());
        assert!(!cancel.is_cancelled());
        cancel.clone().cancel();
        assert!(cancel.is_cancelled());
        assert_eq!(waiting.now_or_never(), Some(()));
        assert_eq!(cancel.cancelled().now_or_never(), Some(()));
    }
}
