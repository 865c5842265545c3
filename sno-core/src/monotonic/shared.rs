//! [`Shared`]: a format's state machine made thread-safe with a clock (std), and the blocking
//! waits of the process-wide generators.

use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::traits::{BlockState, MillisState};
use crate::clock::{MillisClock, SystemClock};
use crate::error::Error;
use crate::millis_block::Block;
use crate::millis_block::{BlockSource, next_per_thread, next_source_id, refill};
use crate::rng::ThreadRng;

/// A thread-safe generator: a [`MillisState`] behind a mutex, read against a
/// [`MillisClock`]. Reset in a child process after `fork()`.
///
/// [`try_next`](Self::try_next) and [`next`](Self::next) take the lock for every ID: the IDs
/// strictly increase across all threads in the order of their calls. For a
/// [`BlockState`] (ULID, UUIDv7, SCRU128), [`try_next_per_thread`](Self::try_next_per_thread)
/// takes it once per [`Block`] of up to 64 IDs instead: unique in the process, strictly
/// increasing per thread, ordered across threads by millisecond only.
#[derive(Debug)]
pub struct Shared<S, C = SystemClock> {
    state: Mutex<(u64, S)>,
    /// The id of the per-thread blocks cut from this state (renewed when the state is
    /// replaced, so no thread continues a block of the old one).
    id: AtomicU64,
    clock: C,
}

/// How far back (ms) a clock may go for [`Shared::next`] to wait instead of failing with
/// [`Error::ClockRollback`] (only generators that refuse rollbacks return it: Nanoflakes):
/// the wait policy's ([`crate::wait`]).
pub use crate::wait::MAX_ROLLBACK_WAIT_MS;

impl<S: MillisState + Clone> Shared<S, SystemClock> {
    /// Wraps `state` on the system clock.
    pub fn new(state: S) -> Self {
        Shared::with_state_and_clock(state, SystemClock::default())
    }
}

impl<S: MillisState + Clone, C: MillisClock> Shared<S, C> {
    /// Wraps `state`, reading time from `clock`.
    pub fn with_state_and_clock(state: S, clock: C) -> Self {
        crate::fork::register_fork_handler();
        Shared {
            state: Mutex::new((crate::fork::fork_generation(), state)),
            id: AtomicU64::new(next_source_id()),
            clock,
        }
    }

    #[inline]
    fn lock(&self) -> Result<MutexGuard<'_, (u64, S)>, Error> {
        let mut guard = self.lock_any();
        let generation = crate::fork::fork_generation();
        if guard.0 != generation {
            guard.1.after_fork()?;
            guard.0 = generation;
        }
        Ok(guard)
    }

    fn lock_any(&self) -> MutexGuard<'_, (u64, S)> {
        // A panic while holding the lock cannot leave the state half-updated in a way that
        // repeats IDs (every transition is a few assignments), so poisoning is ignored.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Replaces the state, e.g. in a `fork()` child with a generator id of the child's own
    /// (after [`Error::Forked`]); the new state counts as this process's. The formats with
    /// an id of their own have a `repartition` that keeps the history
    /// ([`nanoflake::Generator::repartition`](crate::nanoflake::Generator::repartition),
    /// [`ulidflake::Generator::repartition`](crate::ulidflake::Generator::repartition)).
    pub fn replace_state(&self, state: S) {
        *self.lock_any() = (crate::fork::fork_generation(), state);
        self.id.store(next_source_id(), Ordering::Relaxed);
    }

    /// Replaces the state by `f(current)` under the lock; the new state counts as this
    /// process's.
    pub(crate) fn update_state(&self, f: impl FnOnce(&S) -> Result<S, Error>) -> Result<(), Error> {
        let mut guard = self.lock_any();
        let next = f(&guard.1)?;
        *guard = (crate::fork::fork_generation(), next);
        self.id.store(next_source_id(), Ordering::Relaxed);
        Ok(())
    }

    /// `next_at` on the locked state, after making sure the thread's CSPRNG is seeded (so
    /// that no draw fails half-way through a state change).
    #[inline]
    fn next_at_locked(&self, unix_millis: i64) -> Result<S::Id, Error> {
        let mut guard = self.lock()?;
        if guard.1.may_draw_thread_rng() {
            crate::rng::thread_rng_ready()?;
        }
        guard.1.next_at(unix_millis)
    }

    /// The next ID, or an error at once (e.g. [`Error::RandomnessExhausted`] for a ULID,
    /// [`Error::MillisOutOfRange`] for a clock outside the format's range).
    ///
    /// The per-thread CSPRNG ([`ThreadRng`](crate::rng::ThreadRng)) failing to seed from
    /// the operating system is [`Error::RandomnessUnavailable`]: no ID is made from a
    /// missing seed, and the state is left as it was.
    #[inline]
    pub fn try_next(&self) -> Result<S::Id, Error> {
        self.next_at_locked(self.clock.now_unix_millis())
    }

    /// The next ID; when the current millisecond is used up, sleeps until the next one, and
    /// when the clock went back at most [`MAX_ROLLBACK_WAIT_MS`] (for a generator that
    /// refuses rollbacks), sleeps until it caught up; for at most
    /// [`DEFAULT_MAX_WAIT`](crate::time::DEFAULT_MAX_WAIT) (5 s) in all, then the
    /// error is returned (a clock that never gets there cannot hold it longer). Other
    /// errors are returned at once.
    pub fn next(&self) -> Result<S::Id, Error> {
        next_within_max_wait(|| self.try_next())
    }

    /// The next ID for an explicit time in Unix milliseconds (the clock is not read).
    ///
    /// ```
    /// let generator = sno_core::ulid::Generator::default();
    /// let id = generator.next_at_unix_ms(1_700_000_000_000)?;
    /// assert_eq!(id.unix_ms(), 1_700_000_000_000);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As the format's `try_next`, for that time; a time outside the format's range is
    /// [`Error::MillisOutOfRange`].
    pub fn next_at_unix_ms(&self, unix_ms: i64) -> Result<S::Id, Error> {
        self.next_at_locked(unix_ms)
    }

    /// The old name of [`next_at_unix_ms`](Self::next_at_unix_ms).
    ///
    /// # Errors
    /// As [`next_at_unix_ms`](Self::next_at_unix_ms).
    #[deprecated(since = "0.2.0", note = "renamed `next_at_unix_ms`")]
    pub fn next_at(&self, unix_millis: i64) -> Result<S::Id, Error> {
        self.next_at_unix_ms(unix_millis)
    }
}

impl<S: BlockState + Clone, C: MillisClock> Shared<S, C> {
    /// Reserves up to `n` consecutive values (0 counts as 1) at the clock's current
    /// millisecond with one locked step: a [`Block`], whose values
    /// [`BlockState::mint`] makes into IDs. Nothing else gets those values again.
    ///
    /// ```
    /// use sno_core::monotonic::BlockState;
    /// use sno_core::uuid7::{Generator, Monotonic};
    /// let g = Generator::default();
    /// let block = g.try_reserve(8)?;
    /// assert_eq!(block.count, 8);
    /// let last = Monotonic::<sno_core::rng::ThreadRng>::mint(
    ///     block.unix_ms, block.counter + 7, &mut sno_core::rng::ThreadRng);
    /// assert!(g.try_next()? > last);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    pub fn try_reserve(&self, n: u32) -> Result<Block, Error> {
        self.reserve_locked(self.clock.now_unix_millis(), n)
    }

    fn reserve_locked(&self, unix_millis: i64, n: u32) -> Result<Block, Error> {
        let mut guard = self.lock()?;
        if guard.1.may_draw_thread_rng() {
            crate::rng::thread_rng_ready()?;
        }
        guard.1.reserve(unix_millis, n)
    }

    /// The next ID from the calling thread's block of this generator's values, taking the
    /// lock only to reserve a new block (once per up to [`MAX_BLOCK`](super::MAX_BLOCK)
    /// IDs; see [`Block`] for the per-thread cache). Unique within the process like
    /// [`try_next`](Self::try_next), and strictly increasing per thread; across threads,
    /// IDs of different milliseconds are in time order, those of one millisecond in any.
    /// The per-ID random parts come from the thread's CSPRNG. Errors as `try_next`.
    ///
    /// ```
    /// let g = sno_core::scru128::Generator::default();
    /// let a = g.try_next_per_thread()?;
    /// assert!(g.try_next_per_thread()? > a);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    #[inline]
    pub fn try_next_per_thread(&self) -> Result<S::Id, Error> {
        next_per_thread(self, |now| refill(self, now))
    }

    /// [`try_next_per_thread`](Self::try_next_per_thread), waiting as [`next`](Self::next)
    /// does.
    #[inline]
    pub fn next_per_thread(&self) -> Result<S::Id, Error> {
        next_per_thread_waiting(self)
    }
}

impl<S: BlockState + Clone, C: MillisClock> BlockSource for Shared<S, C> {
    type Id = S::Id;
    #[inline]
    fn source_id(&self) -> u64 {
        self.id.load(Ordering::Relaxed)
    }
    #[inline]
    fn now_unix_millis(&self) -> i64 {
        self.clock.now_unix_millis()
    }
    fn take_block(&self, unix_millis: i64, n: u32) -> Result<Block, Error> {
        self.reserve_locked(unix_millis, n)
    }
    #[inline]
    fn mint(unix_ms: u64, counter: u128) -> S::Id {
        S::mint(unix_ms, counter, &mut ThreadRng)
    }
}

/// The per-thread path of `g` that waits like [`next_within_max_wait`] on a miss whose
/// refill fails (a used-up millisecond); a hit returns at once.
#[inline]
pub(crate) fn next_per_thread_waiting<G: BlockSource>(g: &G) -> Result<G::Id, Error> {
    next_per_thread(g, |now| {
        let mut first = Some(now);
        next_within_max_wait(|| match first.take() {
            Some(now) => refill(g, now),
            None => next_per_thread(g, |now| refill(g, now)),
        })
    })
}

/// `try_next()` until it succeeds, under the crate's one wait policy ([`crate::wait::sleeping`]):
/// sleeping (never spinning) through a used-up millisecond and a clock that went back at
/// most [`MAX_ROLLBACK_WAIT_MS`], for at most
/// [`DEFAULT_MAX_WAIT`](crate::time::DEFAULT_MAX_WAIT) in all by the monotonic clock.
#[inline]
pub(crate) fn next_within_max_wait<Id>(
    try_next: impl FnMut() -> Result<Id, Error>,
) -> Result<Id, Error> {
    crate::wait::sleeping(crate::time::DEFAULT_MAX_WAIT, try_next)
}

/// How long until the system clock's next millisecond starts (plus a few µs, so the wake-up
/// lands inside it): the shortest sleep after which a used-up millisecond is over. With an
/// injected clock this is just a short pause before the clock is read again.
pub fn until_next_millisecond() -> core::time::Duration {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    core::time::Duration::from_micros(u64::from(1_000 - now.subsec_micros() % 1_000) + 5)
}

/// `result`'s ID; the panic of a process-wide `new()` (documented under `# Panics`).
#[track_caller]
pub(crate) fn or_panic<Id>(result: Result<Id, Error>) -> Id {
    match result {
        Ok(id) => id,
        Err(e) => panic!("{e}"),
    }
}

impl<S: MillisState + Clone + Default> Default for Shared<S, SystemClock> {
    fn default() -> Self {
        Shared::with_state_and_clock(S::default(), SystemClock::default())
    }
}
