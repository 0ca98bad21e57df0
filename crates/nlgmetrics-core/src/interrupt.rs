//! Cooperative interruption of long core calls (Ctrl-C).
//!
//! The embedding layer runs a call inside [`watch`] on the thread that receives user
//! interrupts and calls [`request`] from its signal handler (async-signal-safe: one
//! atomic store). The parallel helpers check between chunks and unwind with the
//! [`Interrupted`] payload, which the embedding layer turns into its own interrupt
//! (Python's `KeyboardInterrupt`). Work on one long item (a huge segment, a sort of
//! millions of scores) calls [`check`] itself, every row or every few thousand items, so
//! an interrupt is seen within milliseconds; worker threads inherit the caller's watch
//! through [`Watch::scope`] (the parallel helpers do this for every task). Calls made outside [`watch`] (other threads) are never
//! interrupted, so a Ctrl-C aimed at one call cannot cancel another thread's work.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static WATCHING: Cell<bool> = const { Cell::new(false) };
}

/// The panic payload of an interrupted call (not a bug: the embedding layer catches it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

/// Ask the watched call to stop at its next check. Safe inside a signal handler.
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Run `f` as an interruptible call: a pending request from before the call is
/// forgotten, and [`Watch::current`] on this thread sees requests made while `f` runs.
pub fn watch<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            WATCHING.with(|w| w.set(self.0));
        }
    }
    REQUESTED.store(false, Ordering::Relaxed);
    let _restore = Restore(WATCHING.with(|w| w.replace(true)));
    f()
}

/// Whether the current call is interruptible, captured on the calling thread and
/// copied into worker closures (workers run on other threads).
#[derive(Debug, Clone, Copy)]
pub struct Watch(bool);

impl Watch {
    pub fn current() -> Self {
        Watch(WATCHING.with(|w| w.get()))
    }

    /// Run `f` on this thread as part of the call this watch was captured from, so that
    /// [`check`] deep inside `f` (one long segment) sees the call's state. Worker
    /// threads run every task inside this.
    #[inline]
    pub fn scope<R>(self, f: impl FnOnce() -> R) -> R {
        struct Restore(bool);
        impl Drop for Restore {
            fn drop(&mut self) {
                WATCHING.with(|w| w.set(self.0));
            }
        }
        let _restore = Restore(WATCHING.with(|w| w.replace(self.0)));
        f()
    }

    /// `f` for a parallel iterator's items: checks before each item and runs it inside
    /// [`Watch::scope`], so a task on a pool thread stays interruptible.
    pub fn each<A, R>(self, f: impl Fn(A) -> R + Sync + Send) -> impl Fn(A) -> R + Sync + Send {
        move |a| {
            self.check();
            self.scope(|| f(a))
        }
    }

    /// Unwind with [`Interrupted`] if an interrupt was requested during a watched call.
    #[inline]
    pub fn check(self) {
        if self.0 && REQUESTED.load(Ordering::Relaxed) {
            std::panic::resume_unwind(Box::new(Interrupted));
        }
    }
}

/// [`check`] once every 65,536 values of `i`: for loops over the items of one huge
/// input whose steps are too cheap to check each (a few hundred microseconds apart).
#[inline]
pub fn check_every(i: usize) {
    if i & 0xFFFF == 0 {
        check();
    }
}

/// Work done since the last [`check`], for loops whose steps differ in cost (a row of
/// a dynamic programme is as many cells as the other side is long): checks once about
/// every 65,536 units of work.
#[derive(Debug, Default)]
pub struct Budget(usize);

impl Budget {
    #[inline]
    pub fn spend(&mut self, work: usize) {
        self.0 += work.max(1);
        if self.0 >= 1 << 16 {
            self.0 = 0;
            check();
        }
    }
}

/// [`Watch::check`] for a loop running on the calling thread itself.
#[inline]
pub fn check() {
    Watch::current().check();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    #[test]
    fn only_watched_calls_unwind_and_a_stale_request_is_forgotten() {
        request();
        check(); // not watched: no effect
        let out = catch_unwind(AssertUnwindSafe(|| {
            watch(|| {
                check(); // the request predates the call
                request();
                check();
                unreachable!("check must unwind");
            })
        }));
        assert!(out.unwrap_err().downcast_ref::<Interrupted>().is_some());
        assert!(!Watch::current().0, "watch state restored after unwinding");
    }
}
