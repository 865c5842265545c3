//! Fork safety's base (`std`): the `fork()` generation counter and the crate's one
//! `pthread_atfork` registration, whose child handler bumps the counter and then runs the
//! modules' child hooks in a fixed order.
//!
//! A child process inherits a copy of every generator and of every thread's random state, which
//! would repeat what the parent makes. Everything that must not be copied across a `fork()`
//! (thread RNGs in [`rng`](crate::rng), the monotonic generators, default partitions in
//! `partition`, the sno generators) remembers the generation it was made in and starts afresh
//! when [`fork_generation`] has moved on. The modules that also act in the child itself install
//! a hook with [`on_fork_in_child`]; the handler runs them in the order of [`ChildHook`], never in
//! the order they happened to be installed: the generation first, then the child's new default
//! seed (`partition`), then the global generator's repartition onto it (`sno::global`), then the
//! fast clock's ticker (`fast_time`). This module imports none of them (no import cycle).
//!
//! Public as [`sno_core::rng::fork_generation`](crate::rng::fork_generation) and
//! [`sno_core::rng::watch_forks`](crate::rng::watch_forks).

use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Once, OnceLock};

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

/// The child hooks, in the order the child handler runs them (after bumping the generation).
#[derive(Clone, Copy, Debug)]
pub(crate) enum ChildHook {
    /// `partition`: the child's new default-partition seed.
    Partition,
    /// `sno::global`: the global generator onto the child's new seed (needs `Partition`'s).
    GlobalGenerator,
    /// `fast_time`: the child has no ticker thread.
    FastClock,
}

/// Child hooks, one slot per [`ChildHook`] (a `OnceLock` read is an atomic load: safe in the
/// single-threaded child).
struct Hooks([OnceLock<fn()>; 3]);

impl Hooks {
    const fn new() -> Self {
        Hooks([OnceLock::new(), OnceLock::new(), OnceLock::new()])
    }

    fn install(&self, stage: ChildHook, hook: fn()) {
        let _ = self.0[stage as usize].set(hook);
    }

    /// Runs the installed hooks in [`ChildHook`]'s order (no `fork()` but on Unix).
    #[cfg(any(unix, test))]
    fn run(&self) {
        for slot in &self.0 {
            if let Some(hook) = slot.get() {
                hook();
            }
        }
    }
}

/// The hooks the child handler runs.
static HOOKS: Hooks = Hooks::new();

/// Registers the crate's one `pthread_atfork` handler (once per process).
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

/// Installs `hook` to run in every later `fork()` child at `stage` of the child handler (and
/// registers the handler). The hook runs single-threaded right after the fork: atomics and
/// async-signal-safe calls only. One hook per stage; installing a stage again keeps the first.
pub(crate) fn on_fork_in_child(stage: ChildHook, hook: fn()) {
    register_fork_handler();
    HOOKS.install(stage, hook);
}

/// Runs in the child right after `fork()`, single-threaded: the generation, then the hooks in
/// [`ChildHook`]'s order.
#[cfg(unix)]
extern "C" fn after_fork_in_child() {
    after_fork();
    HOOKS.run();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::vec::Vec;

    static RAN: Mutex<Vec<&str>> = Mutex::new(Vec::new());

    /// The hooks run in the stages' order, whatever the order they were installed in (the
    /// global generator's first, as when it is built before any default partition).
    #[test]
    fn hooks_run_in_stage_order_not_install_order() {
        let hooks = Hooks::new();
        hooks.install(ChildHook::FastClock, || {
            RAN.lock().unwrap().push("fast clock")
        });
        hooks.install(ChildHook::GlobalGenerator, || {
            RAN.lock().unwrap().push("global")
        });
        hooks.install(ChildHook::Partition, || {
            RAN.lock().unwrap().push("partition")
        });
        hooks.install(ChildHook::Partition, || {
            RAN.lock().unwrap().push("second partition hook")
        });
        hooks.run();
        assert_eq!(*RAN.lock().unwrap(), ["partition", "global", "fast clock"]);
    }
}
