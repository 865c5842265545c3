//! Fork safety's base (`std`): the `fork()` generation counter and the crate's `pthread_atfork`
//! child handler that bumps it.
//!
//! A child process inherits a copy of every generator and of every thread's random state, which
//! would repeat what the parent makes. Everything that must not be copied across a `fork()`
//! (thread RNGs in [`rng`](crate::rng), the monotonic generators, default partitions in
//! `partition`, the sno generators) remembers the generation it was made in and starts afresh
//! when [`fork_generation`] has moved on. The modules that also act in the child itself
//! (`partition`, the global sno generator) register handlers of their own after this one; POSIX
//! runs child handlers in the order they were registered, so the generation is bumped first.
//!
//! Public as [`sno_core::rng::fork_generation`](crate::rng::fork_generation) and
//! [`sno_core::rng::watch_forks`](crate::rng::watch_forks).

use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;

/// Bumped in the child after every `fork()`.
pub(crate) static FORK_GENERATION: AtomicU64 = AtomicU64::new(0);
static ATFORK: Once = Once::new();

/// How many times this process is a `fork()` child of its ancestors (as far as the crate's
/// `pthread_atfork` handler saw; building any generator registers it): state copied across
/// a fork is stale when this changed. One relaxed load.
///
/// ```
/// let g = sno_core::rng::fork_generation();
/// assert_eq!(g, sno_core::rng::fork_generation()); // no fork in between
/// ```
pub fn fork_generation() -> u64 {
    FORK_GENERATION.load(Ordering::Relaxed)
}

/// Registers the crate's `pthread_atfork` handler now (building any generator does it
/// too), so that [`fork_generation`] counts every later `fork()`. Call it before caching
/// anything keyed by the fork generation. Idempotent and cheap after the first call.
///
/// ```
/// sno_core::rng::watch_forks();
/// ```
pub fn watch_forks() {
    register_fork_handler();
}

pub(crate) fn register_fork_handler() {
    #[cfg(unix)]
    ATFORK.call_once(|| {
        // SAFETY: registering a plain `extern "C"` function without prepare/parent hooks; it
        // stays valid for the life of the process.
        unsafe { libc::pthread_atfork(None, None, Some(after_fork_in_child)) };
    });
    #[cfg(not(unix))]
    ATFORK.call_once(|| {});
}

/// Runs in the child right after `fork()`, single-threaded: atomics only.
#[cfg(unix)]
extern "C" fn after_fork_in_child() {
    after_fork();
}

/// Called by the crate's `pthread_atfork` child handler (atomics only); no fork elsewhere.
#[cfg(any(unix, test))]
pub(crate) fn after_fork() {
    FORK_GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// Held by the tests that bump the fork generation, and by those whose checks a bump
/// would upset (a generator with a fixed RNG reopens with the same randomness).
#[cfg(test)]
pub(crate) static GENERATION_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
