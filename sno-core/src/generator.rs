//! The wait-free sno generator.
//!
//! # State
//!
//! Everything the hot path needs lives in **one** `AtomicU64`:
//!
//! ```text
//! bit 63 ............ 25 | 24   | 23 ........ 0
//!     time units (39 b)  | tick | counter (24 b)
//! ```
//!
//! `counter` is the offset, from `sequence_min`, of the next sequence to hand out in that unit.
//! Beside it: `wall_safe` (the highest unit that may hold IDs of the *inactive* timeline), the
//! applied-regression count and statistics, all touched only off the hot path.
//!
//! # Algorithm and progress argument
//!
//! Every ID is minted from a state value that the caller owns exclusively: either the value its
//! own `fetch_add(1)` returned, or the value its own successful compare-and-swap installed. A
//! single atomic word has one modification order, so no two callers own the same value, and an
//! ID is a injective function of (owned value, partition): **no duplicates**, whatever the
//! interleaving.
//!
//! * **Fast path** (the common case): one clock read, one `fetch_add(1)`. If the returned units
//!   equal the clock and the counter is below the pool's capacity, the ID is minted at once.
//!   No loop, no lock: wait-free.
//! * **Exhausted pool**: the caller gets [`Error::SequenceExhausted`] at once. It makes one
//!   compare-and-swap attempt (never a loop) to pull the counter back to `capacity + 1`, so
//!   failed increments cannot creep into the tick bit.
//! * **Progression** (the clock moved past the state's unit): compare-and-swap the state to
//!   `(now, tick, 1)` and own counter 0. On failure the caller re-examines the value the CAS
//!   returned. A failure means another thread changed the word after our observation. Such a
//!   change is either (a) an operation whose clock read preceded ours (a *stale* operation: each
//!   other thread has at most one in flight, and its next operation reads the clock after ours),
//!   or (b) a fetch-add or CAS by a thread that read the clock after us. A thread of kind (b)
//!   cannot finish its operation without a successful CAS of its own or the state reaching its
//!   unit, and the first such success moves the state to a unit ≥ ours, which ends our loop
//!   (we take the fast path with one more `fetch_add`, or find the state ahead of us). Between
//!   two successful CASes each other thread adds at most once. So with `T` threads a call makes
//!   `O(T²)` attempts at most, bounded whatever the scheduler does: the path is wait-free (the
//!   bound depends on the thread count, not on timing). This assumes a clock that is coherent
//!   across threads, as `CLOCK_REALTIME` is; each backward step of the clock can add at most one
//!   more round per thread.
//! * **State ahead of the clock**: re-read the clock once (another thread may simply have read
//!   it a moment later). If it is still behind, the clock regressed:
//!   - if the clock is past `wall_safe`, switch timelines: raise `wall_safe` to the state's unit
//!     (`fetch_max`: only ever conservative), then CAS the state to `(now, !tick, 1)`. While
//!     the CAS fails only because other calls incremented the counter, it is retried: having
//!     raised `wall_safe`, the switch must happen, or every caller would refuse the regressed
//!     clock until it passed the old unit (found by the loom model). Each retry is one
//!     increment of another call, and such a call then completes without touching the word
//!     again, so this path is lock-free (some call always completes) rather than wait-free:
//!     it can be starved only by other threads completing calls without end within the
//!     nanoseconds between two of its attempts;
//!   - otherwise both timelines may hold IDs at this time: [`Error::ClockRegression`] at once,
//!     saying from which unit a retry succeeds. Before failing, the state is read once more:
//!     if another thread's switch or progression moved it meanwhile (possibly to our unit), the
//!     loop goes on from there. A call that lands between another thread's `fetch_max` and its
//!     CAS still fails, although that switch is about to serve its unit: a refusal, never a
//!     duplicate (the loom model `tests/loom.rs` checks both).
//!
//! No path takes a lock, sleeps or spins. The blocking [`Generator::next`] (with `std`) sleeps
//! through [`Clock::wait_until`] between attempts.

use core::fmt;

#[cfg(feature = "alloc")]
use alloc::sync::Arc;

use crate::clock::Clock;
use crate::error::Error;
use crate::id::Id;
use crate::sync::{AtomicU32, AtomicU64, CachePadded, Ordering};
use crate::time::{DEFAULT_MAX_WAIT, MAX_TIMESTAMP, unix_nanos_to_units};

const COUNTER_BITS: u32 = 24;
const COUNTER_MASK: u64 = (1 << COUNTER_BITS) - 1;
const TICK_BIT: u64 = 1 << COUNTER_BITS;
const UNITS_SHIFT: u32 = COUNTER_BITS + 1;
/// The smallest sequence pool a generator accepts.
pub const MIN_POOL: u32 = 4;

#[inline(always)]
const fn pack(units: u64, tick: bool, counter: u64) -> u64 {
    units << UNITS_SHIFT | (tick as u64) << COUNTER_BITS | counter
}
#[inline(always)]
const fn units_of(state: u64) -> u64 {
    state >> UNITS_SHIFT
}
#[inline(always)]
const fn tick_of(state: u64) -> bool {
    state & TICK_BIT != 0
}
#[inline(always)]
const fn counter_of(state: u64) -> u64 {
    state & COUNTER_MASK
}
/// Unit and tick together: two states differ in it unless only the counter moved between them.
#[inline(always)]
const fn slot_of(state: u64) -> u64 {
    state >> COUNTER_BITS
}

/// The clock a generator uses when none is named: the system clock with `std`, else a manual one.
#[cfg(feature = "std")]
pub type DefaultClock = crate::clock::SystemClock;
/// The clock a generator uses when none is named: the system clock with `std`, else a manual one.
#[cfg(not(feature = "std"))]
pub type DefaultClock = crate::clock::ManualClock;

/// A saved generator state, to persist across restarts and restore with
/// [`GeneratorBuilder::snapshot`]. Time values are in 4 ms units since 2010.
///
/// With `serde`, field names follow the Go original's JSON (`sequenceMin`, `wallHi`, …), except
/// that `partition` is a number, not a two-element array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Snapshot {
    /// The partition.
    pub partition: u16,
    /// Lower sequence bound.
    pub sequence_min: u16,
    /// Upper sequence bound (0 means 65535 unless `sequence_min` is 65535, as in Go).
    pub sequence_max: u16,
    /// The sequence of the last ID issued in unit `wall_hi` (0 means `sequence_min`).
    pub sequence: u32,
    /// The clock reading when the snapshot was taken (informational, ignored on restore).
    pub now: i64,
    /// The highest unit of the active timeline.
    pub wall_hi: i64,
    /// The highest unit that may hold IDs of the inactive timeline.
    pub wall_safe: i64,
    /// Applied clock regressions; its lowest bit is the tick-tock bit.
    pub drifts: u32,
}

impl Snapshot {
    /// This snapshot, made safe to restore after an unclean stop of a generator whose clock
    /// was a [`LeasedClock`](crate::LeasedClock) with `lease` persisted: both timelines are
    /// marked used up to `lease` (or the snapshot's own marks, if higher), including that
    /// unit's whole pool. The restored generator then issues IDs only in later units: on a
    /// clock set back it returns [`Error::ClockRegression`] (and [`Generator::next`] waits)
    /// until the clock passes the lease, so nothing the stopped process issued, up to its
    /// lease on either timeline, can repeat. The lease must lie within the generator's
    /// [maximum wait](GeneratorBuilder::max_wait) of the clock at restore, or the restore is
    /// refused with [`Error::SnapshotAhead`].
    ///
    /// ```
    /// use sno_core::{Error, GeneratorBuilder, ManualClock, Snapshot};
    /// let saved = Snapshot { wall_hi: 1_000, sequence_min: 0, sequence_max: 15, ..Default::default() };
    /// let clock = ManualClock::new(900); // set back after the restart
    /// let g = GeneratorBuilder::new(&clock).snapshot(saved.resume_after(1_050)).build()?;
    /// assert_eq!(g.try_next(0), Err(Error::ClockRegression { retry_at: 1_051 }));
    /// clock.set(1_051);
    /// assert_eq!(g.try_next(0)?.timestamp(), 1_051);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn resume_after(self, lease: u64) -> Snapshot {
        let mark = (self.wall_hi.max(self.wall_safe)).max(lease.min(MAX_TIMESTAMP) as i64);
        let last = sanitize_bounds(self.sequence_min, self.sequence_max)
            .map_or(self.sequence, |(_, max)| u32::from(max));
        Snapshot {
            wall_hi: mark,
            wall_safe: mark,
            sequence: last,
            ..self
        }
    }
}

/// Counters of the rare events, read with [`Generator::stats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Calls refused because the current unit's sequence pool was used up.
    pub overflows: u64,
    /// Units in which the pool ran out (each reported once to the observer).
    pub overflow_episodes: u64,
    /// Clock regressions absorbed by switching the tick-tock bit.
    pub drifts: u64,
    /// Calls refused because the clock went back into a period used by both timelines.
    pub regressions: u64,
    /// Sleeps taken by the blocking [`Generator::next`].
    pub waits: u64,
}

/// Reported to an [`OverflowObserver`] once per time unit whose sequence pool ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow {
    /// The exhausted unit (4 ms since 2010).
    pub timestamp: u64,
    /// The generator's partition.
    pub partition: u16,
    /// The pool size that was used up.
    pub capacity: u32,
}

/// Told of every overflow episode, synchronously, by the caller that hit it first.
/// Any `Fn(&Overflow) + Send + Sync` closure is an observer.
#[cfg(feature = "alloc")]
pub trait OverflowObserver: Send + Sync {
    /// Called once per exhausted unit. Keep it short: it runs on a generating thread.
    fn on_overflow(&self, event: &Overflow);
}

#[cfg(feature = "alloc")]
impl<F: Fn(&Overflow) + Send + Sync> OverflowObserver for F {
    fn on_overflow(&self, event: &Overflow) {
        self(event)
    }
}

#[derive(Default)]
struct Counters {
    overflows: AtomicU64,
    overflow_episodes: AtomicU64,
    regressions: AtomicU64,
    waits: AtomicU64,
}

/// The hot cache line: the state word, the partition (rewritten only after `fork`) and the
/// `fork()` generation the partition belongs to.
struct Hot {
    state: AtomicU64,
    partition: AtomicU32,
    #[cfg(feature = "std")]
    generation: AtomicU64,
}

/// A thread-safe sno ID generator. Share it by reference or `Arc`; every method takes `&self`.
///
/// ```
/// # #[cfg(feature = "std")] {
/// use sno_core::Generator;
/// let g = Generator::builder().partition(0x0102).build()?;
/// let a = g.next(0)?;
/// let b = g.next(0)?;
/// assert!(a < b);
/// assert_eq!(a.partition(), 0x0102);
/// # }
/// # Ok::<(), sno_core::Error>(())
/// ```
///
/// # After `fork()`
///
/// A child process inherits a copy of every generator, which would repeat the IDs its parent
/// makes in the same 4 ms unit. So in the child (with `std`, on Unix):
/// * a generator with a **default** partition (no [`GeneratorBuilder::partition`], no snapshot)
///   takes a fresh default partition on its first call, as the global generator ([`crate::new`])
///   does;
/// * a generator with an **explicit** partition (given, or restored from a snapshot) refuses to
///   mint, with [`Error::Forked`], until [`Generator::repartition`] gives it a partition of its
///   own: only the caller knows which partition the child may use.
pub struct Generator<C: Clock = DefaultClock> {
    hot: CachePadded<Hot>,
    /// Whether the partition was chosen by the caller (a fork child must then be repartitioned).
    #[cfg(feature = "std")]
    explicit_partition: bool,
    max_wait_units: u64,
    wall_safe: AtomicU64,
    drifts: AtomicU32,
    static_seq: AtomicU64,
    seq_min: u16,
    seq_max: u16,
    cap: u64,
    counters: CachePadded<Counters>,
    clock: C,
    #[cfg(feature = "alloc")]
    observer: Option<Arc<dyn OverflowObserver>>,
}

impl<C: Clock> fmt::Debug for Generator<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator")
            .field("partition", &self.partition())
            .field("sequence_min", &self.seq_min)
            .field("sequence_max", &self.seq_max)
            .finish_non_exhaustive()
    }
}

/// Configures a [`Generator`]: partition, sequence bounds, a snapshot to restore, the clock and
/// an overflow observer.
#[must_use]
pub struct GeneratorBuilder<C: Clock = DefaultClock> {
    partition: Option<u16>,
    max_wait_units: u64,
    sequence_min: u16,
    sequence_max: u16,
    snapshot: Option<Snapshot>,
    clock: C,
    #[cfg(feature = "alloc")]
    observer: Option<Arc<dyn OverflowObserver>>,
}

#[cfg(feature = "std")]
impl Generator<crate::clock::SystemClock> {
    /// A generator on the system clock with a default partition (the process's random seed
    /// plus a per-process counter) and the full sequence range.
    ///
    /// Fails with [`Error::PartitionPoolExhausted`] after 65 536 default partitions.
    pub fn new() -> Result<Self, Error> {
        Self::builder().build()
    }

    /// A builder on the system clock.
    pub fn builder() -> GeneratorBuilder<crate::clock::SystemClock> {
        GeneratorBuilder::new(crate::clock::SystemClock::new())
    }
}

impl<C: Clock> GeneratorBuilder<C> {
    /// A builder reading time from `clock`.
    pub fn new(clock: C) -> Self {
        GeneratorBuilder {
            partition: None,
            max_wait_units: duration_units(DEFAULT_MAX_WAIT),
            sequence_min: 0,
            sequence_max: u16::MAX,
            snapshot: None,
            clock,
            #[cfg(feature = "alloc")]
            observer: None,
        }
    }

    /// Uses another clock.
    pub fn clock<C2: Clock>(self, clock: C2) -> GeneratorBuilder<C2> {
        GeneratorBuilder {
            partition: self.partition,
            max_wait_units: self.max_wait_units,
            sequence_min: self.sequence_min,
            sequence_max: self.sequence_max,
            snapshot: self.snapshot,
            clock,
            #[cfg(feature = "alloc")]
            observer: self.observer,
        }
    }

    /// Sets the partition (overrides a snapshot's). Without one, `std` builds take a default
    /// partition; no_std builds fail with [`Error::MissingPartition`].
    pub fn partition(mut self, partition: u16) -> Self {
        self.partition = Some(partition);
        self
    }

    /// Sets the sequence bounds, in either order. A `max` of 0 means 65535 unless `min` is
    /// 65535 (the Go original's rule). The pool `max − min + 1` must hold at least 4 values.
    pub fn sequence_bounds(mut self, min: u16, max: u16) -> Self {
        self.sequence_min = min;
        self.sequence_max = max;
        self
    }

    /// Restores a saved state: its partition, bounds, timeline and sequence. A regressed clock
    /// after a restore is handled like any other regression.
    pub fn snapshot(mut self, snapshot: Snapshot) -> Self {
        self.snapshot = Some(snapshot);
        self
    }

    /// The longest [`Generator::next`] sleeps before it returns the error instead (default
    /// [`DEFAULT_MAX_WAIT`], 5 s; rounded up to whole 4 ms units), and how far ahead of the
    /// clock a restored [`snapshot`](Self::snapshot) may reach: one further ahead is refused
    /// with [`Error::SnapshotAhead`] by [`build`](Self::build), since every call would fail or
    /// sleep until the clock got there (a corrupted snapshot could otherwise stall the process
    /// until 2079).
    ///
    /// ```
    /// use core::time::Duration;
    /// use sno_core::{Error, GeneratorBuilder, ManualClock, Snapshot};
    /// let ahead = Snapshot { wall_hi: 1_000 + 250, wall_safe: 1_000 + 250, ..Default::default() };
    /// let refused = GeneratorBuilder::new(ManualClock::new(1_000)).partition(1).snapshot(ahead).build();
    /// assert_eq!(refused.err(), None); // one second ahead: within the default 5 s
    /// let strict = GeneratorBuilder::new(ManualClock::new(1_000)).partition(1).snapshot(ahead)
    ///     .max_wait(Duration::from_millis(100)).build();
    /// assert_eq!(strict.err(), Some(Error::SnapshotAhead { units: 1_250, clock_units: 1_000 }));
    /// ```
    pub fn max_wait(mut self, max_wait: core::time::Duration) -> Self {
        self.max_wait_units = duration_units(max_wait);
        self
    }

    /// Registers an observer told of each overflow episode.
    #[cfg(feature = "alloc")]
    pub fn observer(mut self, observer: Arc<dyn OverflowObserver>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Validates everything and builds the generator.
    pub fn build(self) -> Result<Generator<C>, Error> {
        // Every generator must see a `fork()`, even one with an explicit partition built before
        // anything else of the crate registered the handler.
        #[cfg(feature = "std")]
        crate::global::register_fork_handler();
        let (min, max) = match &self.snapshot {
            Some(s) => sanitize_bounds(s.sequence_min, s.sequence_max)?,
            None => sanitize_bounds(self.sequence_min, self.sequence_max)?,
        };
        let (state, wall_safe, drifts, partition) = match &self.snapshot {
            Some(s) => {
                let sequence = if s.sequence == 0 {
                    u32::from(min)
                } else {
                    s.sequence
                };
                if sequence < u32::from(min) || sequence > u32::from(max) {
                    return Err(Error::SequenceOutOfRange { sequence, min, max });
                }
                let wall_hi = check_units("wallHi", s.wall_hi)?;
                let wall_safe = check_units("wallSafe", s.wall_safe)?;
                // The first unit a call can succeed in after a regression into the marks must
                // lie within the maximum wait (`max` of both marks: a mark far ahead in either
                // timeline would refuse later regressions until it passed).
                let mark = wall_hi.max(wall_safe);
                let clock_units = self.clock.now_units();
                if mark as i64 >= clock_units.saturating_add(self.max_wait_units as i64) {
                    return Err(Error::SnapshotAhead {
                        units: mark,
                        clock_units,
                    });
                }
                let counter = u64::from(sequence - u32::from(min)) + 1;
                let tick = s.drifts & 1 == 1;
                (
                    pack(wall_hi, tick, counter),
                    wall_safe,
                    s.drifts,
                    self.partition.unwrap_or(s.partition),
                )
            }
            None => (pack(0, false, 0), 0, 0, self.resolve_partition()?),
        };
        Ok(Generator {
            hot: CachePadded(Hot {
                state: AtomicU64::new(state),
                partition: AtomicU32::new(u32::from(partition)),
                #[cfg(feature = "std")]
                generation: AtomicU64::new(crate::rng::fork_generation()),
            }),
            #[cfg(feature = "std")]
            explicit_partition: self.partition.is_some() || self.snapshot.is_some(),
            max_wait_units: self.max_wait_units,
            wall_safe: AtomicU64::new(wall_safe),
            drifts: AtomicU32::new(drifts),
            static_seq: AtomicU64::new(0),
            seq_min: min,
            seq_max: max,
            cap: u64::from(max - min) + 1,
            counters: CachePadded(Counters::default()),
            clock: self.clock,
            #[cfg(feature = "alloc")]
            observer: self.observer,
        })
    }

    fn resolve_partition(&self) -> Result<u16, Error> {
        match self.partition {
            Some(p) => Ok(p),
            #[cfg(feature = "std")]
            None => crate::global::default_partition(),
            #[cfg(not(feature = "std"))]
            None => Err(Error::MissingPartition),
        }
    }
}

/// The Go original's bound rules, with its off-by-two fixed: a pool of 4 is accepted.
fn sanitize_bounds(min: u16, max: u16) -> Result<(u16, u16), Error> {
    let max = if max == 0 && min != u16::MAX {
        u16::MAX
    } else {
        max
    };
    let (min, max) = if max < min { (max, min) } else { (min, max) };
    if u32::from(max - min) + 1 < MIN_POOL {
        return Err(Error::InvalidSequenceBounds { min, max });
    }
    Ok((min, max))
}

/// A duration in whole 4 ms units, rounded up (saturating).
fn duration_units(d: core::time::Duration) -> u64 {
    let nanos = d.as_nanos().div_ceil(crate::time::UNIT_NANOS as u128);
    u64::try_from(nanos)
        .unwrap_or(u64::MAX)
        .min(i64::MAX as u64)
}

fn check_units(field: &'static str, value: i64) -> Result<u64, Error> {
    if value < 0 || value as u64 > MAX_TIMESTAMP {
        return Err(Error::InvalidSnapshot { field, value });
    }
    Ok(value as u64)
}

impl<C: Clock> Generator<C> {
    /// The next ID, or an error at once: [`Error::SequenceExhausted`] when this 4 ms unit's pool
    /// is used up, [`Error::ClockRegression`] when the clock went back into a period used by
    /// both timelines (both say from when a retry succeeds), [`Error::ClockOutOfRange`] for a
    /// clock outside 2010..2079. Never blocks.
    ///
    /// With `std`, in a `fork()` child: see [After `fork()`](Generator#after-fork).
    #[inline]
    pub fn try_next(&self, meta: u8) -> Result<Id, Error> {
        #[cfg(feature = "std")]
        if self.hot.0.generation.load(Ordering::Acquire) != crate::rng::fork_generation() {
            self.after_fork()?;
        }
        let now = self.clock.now_units();
        if now as u64 > MAX_TIMESTAMP {
            return Err(Error::ClockOutOfRange { units: now });
        }
        let now = now as u64;
        let prev = self.hot.0.state.fetch_add(1, Ordering::AcqRel);
        if units_of(prev) == now {
            let c = counter_of(prev);
            if c < self.cap {
                return Ok(self.mint(now, tick_of(prev), c, meta));
            }
            return Err(self.exhausted(prev + 1, c));
        }
        self.slow(now, prev + 1, meta)
    }

    /// The next ID; when the pool is exhausted or the clock regressed, sleeps (never spins)
    /// until the moment a retry can succeed, for at most the generator's
    /// [maximum wait](GeneratorBuilder::max_wait) in all (5 s by default). Returns the
    /// [`try_next`](Self::try_next) error instead of sleeping when the retry time lies further
    /// away than that, or never comes (`retry_at` past the end of the sno range), and
    /// [`Error::ClockOutOfRange`] / [`Error::Forked`] at once.
    #[cfg(feature = "std")]
    #[inline]
    pub fn next(&self, meta: u8) -> Result<Id, Error> {
        match self.try_next(meta) {
            Ok(id) => Ok(id),
            Err(e) => self.wait_and_retry(e, meta),
        }
    }

    #[cfg(feature = "std")]
    #[cold]
    fn wait_and_retry(&self, mut err: Error, meta: u8) -> Result<Id, Error> {
        // Bounded twice: by the clock (no sleep towards a retry time past the maximum wait) and
        // by the monotonic clock (an injected clock that never reaches the retry time).
        let max_wait = self.max_wait();
        let started = std::time::Instant::now();
        let deadline = self
            .clock
            .now_units()
            .saturating_add(self.max_wait_units as i64);
        loop {
            let retry_at = match err {
                Error::SequenceExhausted { retry_at } | Error::ClockRegression { retry_at }
                    if retry_at <= MAX_TIMESTAMP
                        && retry_at as i64 <= deadline
                        && started.elapsed() < max_wait =>
                {
                    retry_at
                }
                other => return Err(other),
            };
            self.wait_step(retry_at, max_wait.saturating_sub(started.elapsed()));
            match self.try_next(meta) {
                Ok(id) => return Ok(id),
                Err(e) => err = e,
            }
        }
    }

    /// Whether waiting can end `err`: a used-up pool or a regression ([`Error::SequenceExhausted`],
    /// [`Error::ClockRegression`]) whose retry unit lies within the sno range. Callers with wait
    /// loops of their own ([`wait_step`](Self::wait_step)) ask it before waiting.
    ///
    /// ```
    /// use sno_core::{Error, GeneratorBuilder, ManualClock};
    /// let g = GeneratorBuilder::new(ManualClock::new(10)).partition(1).build()?;
    /// assert!(g.can_wait(&Error::SequenceExhausted { retry_at: 10 }));
    /// assert!(!g.can_wait(&Error::SequenceExhausted { retry_at: 1 << 39 }));
    /// assert!(!g.can_wait(&Error::ValueOverflow));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn can_wait(&self, err: &Error) -> bool {
        matches!(
            *err,
            Error::SequenceExhausted { retry_at } | Error::ClockRegression { retry_at }
                if retry_at <= MAX_TIMESTAMP
        )
    }

    /// One sleep of a caller's own wait loop (the blocking [`next`](Self::next) is one), counted
    /// in [`Stats::waits`]: until unit `retry_at` (from an error of
    /// [`try_next`](Self::try_next)) by [`Clock::wait_until`], or `at_most` when that comes
    /// first. Bindings that must stay responsive while they wait (Python checks for Ctrl-C
    /// between steps) call it with a short `at_most`.
    ///
    /// ```
    /// use core::time::Duration;
    /// use sno_core::{Error, Generator};
    /// let g = Generator::builder().partition(1).sequence_bounds(0, 3).build()?;
    /// let id = loop {
    ///     match g.try_next(0) {
    ///         Err(Error::SequenceExhausted { retry_at }) => g.wait_step(retry_at, Duration::from_millis(20)),
    ///         other => break other?,
    ///     }
    /// };
    /// # let _ = id;
    /// # Ok::<(), Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn wait_step(&self, retry_at: u64, at_most: core::time::Duration) {
        self.counters.0.waits.fetch_add(1, Ordering::Relaxed);
        let retry_at = retry_at.min(MAX_TIMESTAMP + 1);
        let left_units = (retry_at as i64).saturating_sub(self.clock.now_units());
        let left = core::time::Duration::from_nanos(
            (left_units.max(0) as u64).saturating_mul(crate::time::UNIT_NANOS as u64),
        );
        if left > at_most {
            std::thread::sleep(at_most);
        } else {
            self.clock.wait_until(retry_at);
        }
    }

    #[inline(always)]
    fn mint(&self, units: u64, tick: bool, counter: u64, meta: u8) -> Id {
        let partition = self.hot.0.partition.load(Ordering::Relaxed) as u16;
        Id::compose(units, tick, meta, partition, self.seq_min + counter as u16)
    }

    /// The pool of the unit in `observed` is used up; `observed` is the state right after our
    /// increment and `c` the counter we drew.
    #[cold]
    fn exhausted(&self, observed: u64, c: u64) -> Error {
        let units = units_of(observed);
        if c == self.cap {
            // Exactly one caller draws `cap` in a unit: it reports the episode.
            self.counters
                .0
                .overflow_episodes
                .fetch_add(1, Ordering::Relaxed);
            #[cfg(feature = "alloc")]
            if let Some(obs) = &self.observer {
                obs.on_overflow(&Overflow {
                    timestamp: units,
                    partition: self.partition(),
                    capacity: self.cap as u32,
                });
            }
        } else {
            // One attempt, never a loop: keeps failed increments away from the tick bit. Pulling
            // back to cap + 1 (not cap) keeps the episode from being reported twice.
            let clamped = pack(units, tick_of(observed), self.cap + 1);
            let _ = self.hot.0.state.compare_exchange(
                observed,
                clamped,
                Ordering::AcqRel,
                Ordering::Relaxed,
            );
        }
        self.counters.0.overflows.fetch_add(1, Ordering::Relaxed);
        Error::SequenceExhausted {
            retry_at: units + 1,
        }
    }

    /// Progression, regression and races: see the module documentation for the bound.
    #[cold]
    fn slow(&self, mut now: u64, mut cur: u64, meta: u8) -> Result<Id, Error> {
        let state = &self.hot.0.state;
        let mut reread = false;
        loop {
            let units = units_of(cur);
            if units == now {
                // Someone else moved the state to our unit: draw from it like the fast path.
                let prev = state.fetch_add(1, Ordering::AcqRel);
                if units_of(prev) == now {
                    let c = counter_of(prev);
                    if c < self.cap {
                        return Ok(self.mint(now, tick_of(prev), c, meta));
                    }
                    return Err(self.exhausted(prev + 1, c));
                }
                cur = prev + 1;
            } else if units < now {
                let tick = tick_of(cur);
                match state.compare_exchange(
                    cur,
                    pack(now, tick, 1),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) => return Ok(self.mint(now, tick, 0, meta)),
                    Err(actual) => cur = actual,
                }
            } else {
                if !reread {
                    // The state may come from a thread that read the clock a moment after us.
                    reread = true;
                    let again = self.clock.now_units();
                    if again as u64 > MAX_TIMESTAMP {
                        return Err(Error::ClockOutOfRange { units: again });
                    }
                    if again as u64 > now {
                        now = again as u64;
                        continue;
                    }
                }
                let safe = self.wall_safe.load(Ordering::Acquire);
                if now <= safe {
                    // A switch by another thread raises wall_safe first and then installs its
                    // state, possibly at our unit: if the state has moved to another unit or
                    // timeline since we observed it, look again (each such move is a successful
                    // CAS by another thread, so the bound above still holds).
                    let latest = state.load(Ordering::Acquire);
                    if slot_of(latest) != slot_of(cur) {
                        cur = latest;
                        continue;
                    }
                    self.counters.0.regressions.fetch_add(1, Ordering::Relaxed);
                    return Err(Error::ClockRegression { retry_at: safe + 1 });
                }
                // Switch timelines. Raising wall_safe first is safe even if our CAS loses: a
                // higher wall_safe only makes later regressions more cautious.
                self.wall_safe.fetch_max(units, Ordering::AcqRel);
                let tick = !tick_of(cur);
                loop {
                    match state.compare_exchange(
                        cur,
                        pack(now, tick, 1),
                        Ordering::AcqRel,
                        Ordering::Acquire,
                    ) {
                        Ok(_) => {
                            self.drifts.fetch_add(1, Ordering::Relaxed);
                            return Ok(self.mint(now, tick, 0, meta));
                        }
                        // Only the counter moved (other calls' increments): the decision to
                        // switch stands, and having raised wall_safe we must see it through,
                        // or every caller would refuse until the clock passes `units`.
                        Err(actual) if slot_of(actual) == slot_of(cur) => {
                            cur = actual;
                        }
                        Err(actual) => {
                            cur = actual;
                            break;
                        }
                    }
                }
            }
        }
    }

    /// An ID for an arbitrary time given in Unix nanoseconds: a porting and back-filling tool.
    ///
    /// It uses a sequence of its own that runs `sequence_min ..= sequence_max` and wraps, shared
    /// by all times, and never touches the live state: uniqueness against [`try_next`](Self::try_next)
    /// (Self::try_next) IDs, or across more than a pool's worth of calls for one unit, is the
    /// caller's concern. Times outside 2010-01-01 ..= 2079-09-07T15:47:35.551999999Z are
    /// rejected with [`Error::TimeOutOfRange`] (the Go original wraps them silently).
    pub fn new_with_unix_nanos(&self, meta: u8, unix_nanos: i64) -> Result<Id, Error> {
        #[cfg(feature = "std")]
        if self.hot.0.generation.load(Ordering::Acquire) != crate::rng::fork_generation() {
            self.after_fork()?;
        }
        let units = unix_nanos_to_units(unix_nanos).ok_or(Error::TimeOutOfRange { unix_nanos })?;
        let n = self.static_seq.fetch_add(1, Ordering::Relaxed) % self.cap;
        Ok(Id::compose(
            units,
            false,
            meta,
            self.partition(),
            self.seq_min + n as u16,
        ))
    }

    /// [`new_with_unix_nanos`](Self::new_with_unix_nanos) for a [`SystemTime`](std::time::SystemTime).
    #[cfg(feature = "std")]
    pub fn new_with_time(&self, meta: u8, time: std::time::SystemTime) -> Result<Id, Error> {
        let nanos = match time.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
            Err(e) => i64::try_from(e.duration().as_nanos())
                .map(|n| -n)
                .unwrap_or(i64::MIN),
        };
        self.new_with_unix_nanos(meta, nanos)
    }

    /// The current state, to persist and restore later. The timeline, tick and sequence come
    /// from one atomic read, so they are consistent with each other.
    pub fn snapshot(&self) -> Snapshot {
        let state = self.hot.0.state.load(Ordering::Acquire);
        let wall_safe = self.wall_safe.load(Ordering::Acquire);
        let mut drifts = self.drifts.load(Ordering::Relaxed);
        if (drifts & 1 == 1) != tick_of(state) {
            // The drift counter is bumped just after the state switches: account for it.
            drifts = drifts.wrapping_add(1);
        }
        let counter = counter_of(state).min(self.cap);
        let sequence = u32::from(self.seq_min) + counter.saturating_sub(1) as u32;
        Snapshot {
            partition: self.partition(),
            sequence_min: self.seq_min,
            sequence_max: self.seq_max,
            sequence,
            now: self.clock.now_units(),
            wall_hi: units_of(state) as i64,
            wall_safe: wall_safe as i64,
            drifts,
        }
    }

    /// Counters of overflows, regressions and waits.
    pub fn stats(&self) -> Stats {
        let c = &self.counters.0;
        Stats {
            overflows: c.overflows.load(Ordering::Relaxed),
            overflow_episodes: c.overflow_episodes.load(Ordering::Relaxed),
            drifts: u64::from(self.drifts.load(Ordering::Relaxed)),
            regressions: c.regressions.load(Ordering::Relaxed),
            waits: c.waits.load(Ordering::Relaxed),
        }
    }

    /// The partition stamped into every ID.
    #[inline]
    pub fn partition(&self) -> u16 {
        self.hot.0.partition.load(Ordering::Relaxed) as u16
    }

    /// Gives the generator a partition of its own in a `fork()` child (or anywhere else), which
    /// ends the [`Error::Forked`] refusal. The caller must make sure no other live generator
    /// mints with `partition`.
    ///
    /// ```
    /// use sno_core::{GeneratorBuilder, ManualClock};
    /// let g = GeneratorBuilder::new(ManualClock::new(10)).partition(1).build()?;
    /// g.repartition(2);
    /// assert_eq!(g.try_next(0)?.partition(), 2);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    pub fn repartition(&self, partition: u16) {
        self.hot
            .0
            .partition
            .store(u32::from(partition), Ordering::Relaxed);
        #[cfg(feature = "std")]
        self.hot
            .0
            .generation
            .store(crate::rng::fork_generation(), Ordering::Release);
    }

    /// The first call in a `fork()` child: a default-partitioned generator takes a fresh default
    /// partition (the partition is stored before the generation is published, so a call that
    /// sees the new generation mints with a fresh partition); an explicit one refuses.
    #[cfg(feature = "std")]
    #[cold]
    fn after_fork(&self) -> Result<(), Error> {
        if self.explicit_partition {
            return Err(Error::Forked {
                partition: self.partition(),
            });
        }
        self.repartition(crate::global::default_partition()?);
        Ok(())
    }

    /// Whether the partition was chosen by the caller (or restored from a snapshot) rather
    /// than handed out as a process default: it decides the [fork rule](Generator#after-fork).
    #[cfg(feature = "std")]
    pub fn has_explicit_partition(&self) -> bool {
        self.explicit_partition
    }

    /// The longest [`next`](Self::next) sleeps in all (see [`GeneratorBuilder::max_wait`]).
    pub fn max_wait(&self) -> core::time::Duration {
        core::time::Duration::from_nanos(
            self.max_wait_units
                .saturating_mul(crate::time::UNIT_NANOS as u64),
        )
    }

    /// The lower sequence bound.
    pub fn sequence_min(&self) -> u16 {
        self.seq_min
    }

    /// The upper sequence bound.
    pub fn sequence_max(&self) -> u16 {
        self.seq_max
    }

    /// IDs per 4 ms unit: `sequence_max − sequence_min + 1`.
    pub fn capacity(&self) -> u32 {
        self.cap as u32
    }

    /// The clock this generator reads.
    pub fn clock(&self) -> &C {
        &self.clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    /// Held by each test below: a generator with an explicit partition refuses (`Forked`) once
    /// another test of this binary bumps the fork generation.
    #[cfg(feature = "std")]
    fn serial() -> impl Drop {
        crate::rng::GENERATION_LOCK
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }
    #[cfg(not(feature = "std"))]
    fn serial() -> impl Sized {}

    fn gen_at(units: i64, min: u16, max: u16) -> Generator<ManualClock> {
        GeneratorBuilder::new(ManualClock::new(units))
            .partition(7)
            .sequence_bounds(min, max)
            .build()
            .unwrap()
    }

    #[test]
    fn packing_round_trips() {
        let s = pack(MAX_TIMESTAMP, true, COUNTER_MASK);
        assert_eq!(
            (units_of(s), tick_of(s), counter_of(s)),
            (MAX_TIMESTAMP, true, COUNTER_MASK)
        );
        assert_eq!(s, u64::MAX);
    }

    #[test]
    fn clamp_keeps_counter_bounded_under_a_frozen_clock() {
        let _serial = serial();
        let g = gen_at(10, 0, 3);
        for _ in 0..4 {
            g.try_next(0).unwrap();
        }
        for _ in 0..10_000 {
            assert_eq!(
                g.try_next(0),
                Err(Error::SequenceExhausted { retry_at: 11 })
            );
        }
        let state = g.hot.0.state.load(Ordering::Relaxed);
        assert!(
            counter_of(state) <= 6,
            "counter crept to {}",
            counter_of(state)
        );
        assert_eq!(g.stats().overflow_episodes, 1);
        assert_eq!(g.stats().overflows, 10_000);
    }

    #[test]
    fn clock_out_of_range_is_an_error() {
        let _serial = serial();
        let g = gen_at(-1, 0, 0);
        assert_eq!(g.try_next(0), Err(Error::ClockOutOfRange { units: -1 }));
        g.clock().set(MAX_TIMESTAMP as i64 + 1);
        assert_eq!(
            g.try_next(0),
            Err(Error::ClockOutOfRange {
                units: MAX_TIMESTAMP as i64 + 1
            })
        );
        g.clock().set(MAX_TIMESTAMP as i64);
        assert_eq!(g.try_next(0).unwrap().timestamp(), MAX_TIMESTAMP);
    }
}
