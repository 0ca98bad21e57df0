//! Process-level plumbing for `convert::detached`: which thread receives Ctrl-C, a
//! SIGINT handler that also asks the core to stop, and a quiet panic hook.
//!
//! While a core call runs on the main thread, SIGINT goes to [`on_sigint`], which
//! requests an interrupt from the core and then calls the handler it replaced
//! (CPython's, which records the signal for Python). The previous handler is put back
//! when the call ends, so Python's signal handling is unchanged outside core calls.

use pyo3::prelude::*;
use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;

static MAIN_THREAD: OnceLock<ThreadId> = OnceLock::new();
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Record the main thread and install the panic hook (once, at import).
pub fn init(py: Python<'_>) -> PyResult<()> {
    let threading = py.import("threading")?;
    let main = threading.call_method0("main_thread")?;
    if threading.call_method0("current_thread")?.is(&main) {
        let _ = MAIN_THREAD.set(std::thread::current().id());
    }
    // Panics become `InternalError` with their message and location; the default hook
    // would also print a Rust backtrace note to stderr.
    std::panic::set_hook(Box::new(|info| {
        if let Some(l) = info.location() {
            *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{}:{}", l.file(), l.line()));
        }
    }));
    Ok(())
}

pub fn is_main_thread() -> bool {
    MAIN_THREAD.get() == Some(&std::thread::current().id())
}

pub fn last_panic_location() -> Option<String> {
    LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take()
}

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The replaced handler and its flags, read by [`on_sigint`].
    static PREVIOUS: AtomicUsize = AtomicUsize::new(0);
    static PREVIOUS_FLAGS: AtomicUsize = AtomicUsize::new(0);

    extern "C" fn on_sigint(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        nlgmetrics_core::interrupt::request();
        let prev = PREVIOUS.load(Ordering::Relaxed);
        if prev == libc::SIG_DFL || prev == libc::SIG_IGN || prev == 0 {
            return;
        }
        // SAFETY: `prev` is the handler the OS had installed, with its own calling form.
        unsafe {
            if PREVIOUS_FLAGS.load(Ordering::Relaxed) & (libc::SA_SIGINFO as usize) != 0 {
                let h: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) = std::mem::transmute(prev);
                h(sig, info, ctx);
            } else {
                let h: extern "C" fn(libc::c_int) = std::mem::transmute(prev);
                h(sig);
            }
        }
    }

    /// Puts the previous SIGINT disposition back when dropped.
    pub struct Forwarding(Option<libc::sigaction>);

    impl Drop for Forwarding {
        fn drop(&mut self) {
            if let Some(prev) = self.0.take() {
                // SAFETY: restoring a disposition obtained from `sigaction`.
                unsafe { libc::sigaction(libc::SIGINT, &prev, std::ptr::null_mut()) };
            }
        }
    }

    /// Route SIGINT through [`on_sigint`] until the guard drops, if a handler function
    /// (Python's) is installed; an ignored or default SIGINT is left alone.
    pub fn forward_sigint() -> Forwarding {
        // SAFETY: plain sigaction calls with fully initialised structs.
        unsafe {
            let mut prev: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut prev) != 0 {
                return Forwarding(None);
            }
            if prev.sa_sigaction == libc::SIG_DFL || prev.sa_sigaction == libc::SIG_IGN {
                return Forwarding(None);
            }
            PREVIOUS.store(prev.sa_sigaction, Ordering::Relaxed);
            PREVIOUS_FLAGS.store(prev.sa_flags as usize, Ordering::Relaxed);
            let mut ours: libc::sigaction = std::mem::zeroed();
            ours.sa_sigaction = on_sigint as *const () as usize;
            ours.sa_flags = libc::SA_SIGINFO | (prev.sa_flags & libc::SA_ONSTACK);
            ours.sa_mask = prev.sa_mask;
            if libc::sigaction(libc::SIGINT, &ours, std::ptr::null_mut()) != 0 {
                return Forwarding(None);
            }
            Forwarding(Some(prev))
        }
    }
}

#[cfg(not(unix))]
mod imp {
    /// No signal forwarding on this platform: core calls finish before Ctrl-C is seen.
    pub struct Forwarding;
    pub fn forward_sigint() -> Forwarding {
        Forwarding
    }
}

pub use imp::forward_sigint;
