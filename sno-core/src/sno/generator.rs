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
//! # Per-thread blocks
//!
//! A call does not have to touch the shared word for every ID. Each thread keeps one
//! [`Reservation`] (with `std`, in a thread-local; [`Generator::try_next_with`] takes one the
//! caller keeps): a block of sequences `[next, end)` of one slot (unit and tick) of one
//! generator, taken by **one** `fetch_add(block)` on the state word. A call whose clock reading
//! equals the reservation's unit, for the same generator (a unique instance number taken at
//! build, never the address, which a later generator may reuse) and the same `fork()`
//! generation, mints `next` with no shared write at all. Otherwise it takes a new block. The
//! block size adapts per thread: 1 after a miss (another generator, unit or generation), doubled
//! each time the thread used up a whole block in the same unit, up to the generator's maximum
//! ([`GeneratorBuilder::max_block`]; by default `capacity / 1024` clamped to 1..=64, so pools
//! under 2 048 always take 1). A thread hammering one generator thus makes one shared
//! read-modify-write per 64 IDs; a thread alternating between two generators takes blocks of 1,
//! the old per-ID cost, and strands nothing. Without `std` (and in loom models) [`try_next`]
//! uses a fresh reservation each call: blocks of 1, exactly the per-ID algorithm below.
//!
//! What this changes for callers: a thread's own IDs still strictly increase (within a
//! timeline), but across threads, the order of IDs within one 4 ms unit is no longer the order
//! of the calls. And a unit's pool may be refused ([`Error::SequenceExhausted`]) before all of
//! it was minted: sequences reserved by a thread that then left the unit (or the generator) are
//! never issued: at most one block per thread that stays on one generator (with the default
//! maximum, at most `threads × capacity / 1024` of the pool). A thread that switches between
//! generators within a unit can strand a block at each switch, but its blocks only grow while
//! it keeps using them up (1, 2, 4, …), so what it strands is less than what it issued.
//!
//! [`try_next`]: Generator::try_next
//!
//! # Algorithm and progress argument
//!
//! Every ID is minted from a state value that the caller owns exclusively: one of the `block`
//! values its own `fetch_add(block)` stepped over, or the value its own successful
//! compare-and-swap replaced (with the `block − 1` values after it that the swap skipped). A
//! single atomic word has one modification order, and a slot (unit and tick) is never entered
//! twice (progression only moves a timeline forward; a timeline is re-entered only past
//! `wall_safe`, see below), so no two callers own the same (slot, counter). An ID is an
//! injective function of (owned value, partition): **no duplicates**, whatever the interleaving.
//! A reservation's values stay owned by its thread after the state moved on, so minting from
//! it later is still unique; it is used only while the clock reads its unit, within its fork
//! generation and for its own generator. The tick-tock argument still holds for them: a block
//! of slot `(U, T)` lies at a unit `U ≤ wall_safe` once timeline `T` is inactive (the switch
//! away from `T` raised `wall_safe` to the state's unit, which was `≥ U`), and `T` is only
//! reactivated at units past `wall_safe`, so nothing else is ever minted at `(U, T)`.
//!
//! * **Fast path** (the common case): one clock read, then either a sequence from the thread's
//!   reservation (no shared write) or one `fetch_add(block)`. If the returned units equal the
//!   clock and the counter is below the pool's capacity, the ID is minted at once (the block
//!   is clipped to the capacity). A `fetch_add` that finds the state at another slot keeps
//!   its block as the thread's reservation (its values are owned) and goes on below: a thread
//!   whose clock read lagged a unit change by a moment then mints from that block after the
//!   re-read, rather than stranding it. No loop, no lock: wait-free.
//! * **Exhausted pool**: the caller gets [`Error::SequenceExhausted`] at once. Whoever's block
//!   reaches the end of the pool makes one compare-and-swap attempt (never a loop) to pull the
//!   counter back to `capacity + 1`, so failed increments cannot creep into the tick bit; a
//!   refused thread's next block is 1.
//! * **Progression** (the clock moved past the state's unit): compare-and-swap the state to
//!   `(now, tick, block)` and own counters `0..block`. On failure the caller re-examines the
//!   value the CAS returned. A failure means another thread changed the word after our
//!   observation. Such a change is either (a) an operation whose clock read preceded ours (a
//!   *stale* operation: each other thread has at most one in flight, and its next operation
//!   reads the clock after ours), or (b) a fetch-add or CAS by a thread that read the clock
//!   after us. A thread of kind (b) cannot finish its operation without a successful CAS of its
//!   own or the state reaching its unit, and the first such success moves the state to a unit
//!   ≥ ours, which ends our loop (we take the fast path with one more `fetch_add`, or find the
//!   state ahead of us). Between two successful CASes each other thread adds at most once. So
//!   with `T` threads a call makes `O(T²)` attempts at most, bounded whatever the scheduler
//!   does: the path is wait-free (the bound depends on the thread count, not on timing). This
//!   assumes a clock that is coherent across threads, as `CLOCK_REALTIME` is; each backward
//!   step of the clock can add at most one more round per thread.
//! * **State ahead of the clock**: re-read the clock once (another thread may simply have read
//!   it a moment later; if the new reading is the reservation's unit, the call mints from it).
//!   If it is still behind, the clock regressed:
//!   - if the clock is past `wall_safe`, switch timelines: raise `wall_safe` to the state's unit
//!     (`fetch_max`: only ever conservative), then CAS the state to `(now, !tick, block)`.
//!     While the CAS fails only because other calls incremented the counter, it is retried:
//!     having raised `wall_safe`, the switch must happen, or every caller would refuse the
//!     regressed clock until it passed the old unit (found by the loom model). Each retry is
//!     one increment of another call, and such a call then completes without touching the word
//!     again, so this path is lock-free (some call always completes) rather than wait-free:
//!     it can be starved only by other threads completing calls without end within the
//!     nanoseconds between two of its attempts;
//!   - otherwise both timelines may hold IDs at this time: [`Error::ClockRegression`] at once,
//!     saying from which unit a retry succeeds. Before failing, the state is read once more:
//!     if another thread's switch or progression moved it meanwhile (possibly to our unit), the
//!     loop goes on from there. A call that lands between another thread's `fetch_max` and its
//!     CAS still fails, although that switch is about to serve its unit: a refusal, never a
//!     duplicate (the loom model `tests/loom.rs` checks both, with blocks of 1 and of 2).
//!
//! **Snapshots** stay conservative: the state word's counter is the high-water mark of every
//! block handed out in its slot, so a generator restored from [`Generator::snapshot`] never
//! reissues an ID issued before it, even one from a block a thread still holds. (When the
//! calling thread's own block is the top of the slot, the snapshot counts only what that thread
//! issued from it, so a single-threaded caller's snapshot is exact.)
//!
//! No path takes a lock, sleeps or spins. The blocking [`Generator::next`] (with `std`) sleeps
//! through [`Clock::wait_until`] between attempts.

use core::fmt;

#[cfg(feature = "alloc")]
use alloc::sync::Arc;

use crate::clock::Clock;
use crate::error::Error;
use crate::sno::id::Id;
use crate::sync::{AtomicU32, AtomicU64, CachePadded, Ordering};
pub use crate::thread_block::Reservation;
// Not loom's: instance numbers are identities, not part of any modelled interleaving.
use crate::time::{DEFAULT_MAX_WAIT, MAX_TIMESTAMP, unix_ns_to_units};
use core::sync::atomic::AtomicU64 as InstanceCounter;

const COUNTER_BITS: u32 = 24;
const COUNTER_MASK: u64 = (1 << COUNTER_BITS) - 1;
const TICK_BIT: u64 = 1 << COUNTER_BITS;
const UNITS_SHIFT: u32 = COUNTER_BITS + 1;
/// The smallest sequence pool a generator accepts.
pub const MIN_POOL: u32 = 4;
/// The largest block of sequences a thread reserves at once ([`GeneratorBuilder::max_block`]).
pub const MAX_BLOCK: u32 = 64;

/// Instance numbers of generators, the owner key of [`Reservation`]s: unique in the process,
/// unlike addresses (a generator built after another was dropped may take its place). 0 is no
/// generator.
static INSTANCES: InstanceCounter = InstanceCounter::new(1);

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
    /// Units in which the pool ran out: its last sequence was handed out, to a call or to a
    /// thread's [block](crate::generator#per-thread-blocks) (each reported once to the
    /// observer, by the call that took it).
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
    /// The sequence of `new_with_unix_ns` (here, off the lines read per call).
    static_seq: AtomicU64,
    overflows: AtomicU64,
    overflow_episodes: AtomicU64,
    regressions: AtomicU64,
    waits: AtomicU64,
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
    /// The state word, alone on its cache line(s): the only thing threads write per block.
    state: CachePadded<AtomicU64>,
    /// The partition (rewritten only after `fork` or by `repartition`) and the `fork()`
    /// generation it belongs to: read on every call, so kept off the state's line, which
    /// every block taken by another thread would take away from this core.
    partition: AtomicU32,
    #[cfg(feature = "std")]
    generation: AtomicU64,
    /// This generator's instance number, the owner key of reservations.
    instance: u64,
    /// The largest block a thread reserves at once.
    max_block: u64,
    /// Whether the partition was chosen by the caller (a fork child must then be repartitioned).
    #[cfg(feature = "std")]
    explicit_partition: bool,
    max_wait_units: u64,
    wall_safe: AtomicU64,
    drifts: AtomicU32,
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
    max_block: Option<u32>,
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
            max_block: None,
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
            max_block: self.max_block,
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

    /// The largest block of sequences one thread reserves from the shared state at once
    /// ([per-thread blocks](crate::generator#per-thread-blocks)), clamped to
    /// `1..=`[`MAX_BLOCK`] and to the pool. By default `capacity / 1024` clamped to 1..=64: 64
    /// for the full pool, 1 (a shared write per ID) for pools under 2 048. A thread that left a
    /// unit strands at most its last block of it, so a larger block trades pool accounting for
    /// fewer shared writes; 1 also keeps the IDs of one unit in call order across threads.
    ///
    /// ```
    /// use sno_core::{GeneratorBuilder, ManualClock};
    /// let g = GeneratorBuilder::new(ManualClock::new(10)).partition(1).max_block(1).build()?;
    /// assert_eq!(g.max_block(), 1);
    /// let full = GeneratorBuilder::new(ManualClock::new(10)).partition(1).build()?;
    /// assert_eq!(full.max_block(), 64);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    pub fn max_block(mut self, max_block: u32) -> Self {
        self.max_block = Some(max_block);
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
        crate::fork::register_fork_handler();
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
        let cap = u64::from(max - min) + 1;
        let max_block = match self.max_block {
            Some(b) => u64::from(b),
            None => cap / 1024,
        };
        Ok(Generator {
            instance: INSTANCES.fetch_add(1, core::sync::atomic::Ordering::Relaxed),
            max_block: max_block.clamp(1, u64::from(MAX_BLOCK)).min(cap),
            state: CachePadded(AtomicU64::new(state)),
            partition: AtomicU32::new(u32::from(partition)),
            #[cfg(feature = "std")]
            generation: AtomicU64::new(crate::fork::fork_generation()),
            #[cfg(feature = "std")]
            explicit_partition: self.partition.is_some() || self.snapshot.is_some(),
            max_wait_units: self.max_wait_units,
            wall_safe: AtomicU64::new(wall_safe),
            drifts: AtomicU32::new(drifts),
            seq_min: min,
            seq_max: max,
            cap,
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
            None => crate::partition::default_partition(),
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
    /// With `std`, each thread mints from a block of sequences it reserved
    /// ([per-thread blocks](crate::generator#per-thread-blocks)): a thread's IDs strictly
    /// increase, but within one 4 ms unit IDs of different threads are not in call order, and
    /// the pool may be refused a little before `capacity` IDs were minted (at most one block
    /// per thread that stays on this generator goes unissued; see
    /// [`GeneratorBuilder::max_block`]).
    ///
    /// With `std`, in a `fork()` child: see [After `fork()`](Generator#after-fork).
    #[inline]
    pub fn try_next(&self, meta: u8) -> Result<Id, Error> {
        #[cfg(all(feature = "std", not(loom)))]
        return crate::thread_block::with_reservation(|r| self.try_next_with(r, meta));
        #[cfg(not(all(feature = "std", not(loom))))]
        self.try_next_with(&mut Reservation::new(), meta)
    }

    /// [`try_next`](Self::try_next) minting from `reservation`, which the caller keeps (one per
    /// thread, or per core): a block of sequences taken from the shared state by one
    /// `fetch_add`, used while the clock reads its unit. `try_next` passes the calling thread's
    /// own (with `std`) or a fresh one (without: blocks of one, a shared write per ID).
    ///
    /// ```
    /// use sno_core::{generator::Reservation, Error, GeneratorBuilder, ManualClock};
    /// let g = GeneratorBuilder::new(ManualClock::new(10)).partition(1).build()?;
    /// let (mut a, mut b) = (Reservation::new(), Reservation::new());
    /// let x = g.try_next_with(&mut a, 0)?; // a block of 1: sequence 0
    /// let y = g.try_next_with(&mut b, 0)?; // sequence 1
    /// let z = g.try_next_with(&mut a, 0)?; // a block of 2: sequences 2 and 3
    /// assert_eq!([x.sequence(), y.sequence(), z.sequence()], [0, 1, 2]);
    /// assert_eq!(g.try_next_with(&mut b, 0)?.sequence(), 4); // 3 is a's
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn try_next_with(&self, reservation: &mut Reservation, meta: u8) -> Result<Id, Error> {
        let generation = self.generation()?;
        let now = self.clock.now_units();
        if now as u64 > MAX_TIMESTAMP {
            return Err(Error::ClockOutOfRange { units: now });
        }
        let now = now as u64;
        let r = reservation;
        if r.next < r.end && r.keyed(self.instance, generation, now) {
            // Ours alone since our RMW took it; see "Per-thread blocks" in the module doc.
            let c = r.next;
            r.next = c + 1;
            return Ok(self.mint(now, r.tick, c, meta));
        }
        self.take(r, generation, now, meta)
    }

    /// A new block for `r`, by one `fetch_add` on the state word (then the slow path if the
    /// state is at another unit). Out of line, so that the reservation path above stays small
    /// enough to inline into the caller.
    #[inline(never)]
    fn take(&self, r: &mut Reservation, generation: u64, now: u64, meta: u8) -> Result<Id, Error> {
        let block = self.block_for(r, generation, now);
        let prev = self.state.0.fetch_add(block, Ordering::AcqRel);
        if units_of(prev) == now {
            return self.reserve(r, generation, prev, block, meta);
        }
        self.keep(r, generation, prev, block);
        self.slow(r, generation, now, prev + block, block, meta)
    }

    /// The `fork()` generation the partition belongs to, after handling a fork (`std`).
    #[inline(always)]
    fn generation(&self) -> Result<u64, Error> {
        #[cfg(feature = "std")]
        {
            let generation = crate::fork::fork_generation();
            if self.generation.load(Ordering::Acquire) != generation {
                self.after_fork()?;
            }
            Ok(generation)
        }
        #[cfg(not(feature = "std"))]
        Ok(0)
    }

    /// The block to take at `now`: doubled after a whole block used in the same unit, else 1.
    #[inline(always)]
    fn block_for(&self, r: &Reservation, generation: u64, now: u64) -> u64 {
        if r.keyed(self.instance, generation, now) {
            r.grow
        } else {
            1
        }
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
    fn wait_and_retry(&self, err: Error, meta: u8) -> Result<Id, Error> {
        // The crate's wait policy (`crate::wait`), on this generator's clock: no sleep towards a
        // retry time past the maximum wait, and the monotonic clock bounds an injected clock
        // that never reaches the retry time.
        let mut first = Some(err);
        let waited = crate::wait::retry(
            self.max_wait(),
            || crate::time::units_to_unix_ns(self.clock.now_units().max(0) as u64),
            crate::wait::can_wait,
            || first.take().map_or_else(|| self.try_next(meta), Err),
            |pause| -> Result<(), core::convert::Infallible> {
                if let Error::SequenceExhausted { retry_at } | Error::ClockRegression { retry_at } =
                    *pause.error
                {
                    self.wait_step(retry_at, pause.budget);
                }
                Ok(())
            },
        );
        match waited {
            Ok(result) => result,
            Err(never) => match never {},
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
        let partition = self.partition.load(Ordering::Relaxed) as u16;
        Id::compose(units, tick, meta, partition, self.seq_min + counter as u16)
    }

    /// Our RMW stepped over counters `[c, c + block)` of `prev`'s slot (`c = counter_of(prev)`),
    /// at the unit the clock reads: mint `c` and keep the rest, or refuse if the pool is used up.
    #[inline(always)]
    fn reserve(
        &self,
        r: &mut Reservation,
        generation: u64,
        prev: u64,
        block: u64,
        meta: u8,
    ) -> Result<Id, Error> {
        let c = counter_of(prev);
        if c + block > self.cap {
            self.pool_end(prev + block, c);
        }
        if c < self.cap {
            self.keep(r, generation, prev, block);
            r.next = c + 1;
            return Ok(self.mint(units_of(prev), tick_of(prev), c, meta));
        }
        r.grow = 1;
        self.counters.0.overflows.fetch_add(1, Ordering::Relaxed);
        Err(Error::SequenceExhausted {
            retry_at: units_of(prev) + 1,
        })
    }

    /// Makes `r` the block `[c, c + block)` of `prev`'s slot that our RMW stepped over (clipped
    /// to the pool; nothing if it lies past it), none issued yet.
    #[inline(always)]
    fn keep(&self, r: &mut Reservation, generation: u64, prev: u64, block: u64) {
        let c = counter_of(prev);
        if c >= self.cap {
            return;
        }
        let end = c + block;
        *r = Reservation {
            owner: self.instance,
            generation,
            units: units_of(prev),
            tick: tick_of(prev),
            next: c,
            end: end.min(self.cap),
            grow: if end <= self.cap {
                (block * 2).min(self.max_block)
            } else {
                1
            },
        };
    }

    /// Our RMW's block `[c, c + block)` reached past the end of the pool of the unit in
    /// `observed` (the state right after it).
    #[cold]
    fn pool_end(&self, observed: u64, c: u64) {
        let units = units_of(observed);
        if c <= self.cap {
            // Exactly one block per unit covers counter `cap` (counters only grow within a
            // slot, and the pull-back below never goes under cap + 1): its taker reports the
            // episode, whether or not its block also held sequences.
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
        }
        if counter_of(observed) > self.cap + 1 {
            // One attempt, never a loop: keeps failed increments away from the tick bit. Pulling
            // back to cap + 1 (not cap) keeps the episode from being reported twice.
            let clamped = pack(units, tick_of(observed), self.cap + 1);
            let _ = self.state.0.compare_exchange(
                observed,
                clamped,
                Ordering::AcqRel,
                Ordering::Relaxed,
            );
        }
    }

    /// Progression, regression and races: see the module documentation for the bound.
    #[cold]
    fn slow(
        &self,
        r: &mut Reservation,
        generation: u64,
        mut now: u64,
        mut cur: u64,
        mut block: u64,
        meta: u8,
    ) -> Result<Id, Error> {
        let state = &self.state.0;
        let mut reread = false;
        loop {
            let units = units_of(cur);
            if units == now {
                // Someone else moved the state to our unit: draw from it like the fast path.
                let prev = state.fetch_add(block, Ordering::AcqRel);
                if units_of(prev) == now {
                    return self.reserve(r, generation, prev, block, meta);
                }
                self.keep(r, generation, prev, block);
                cur = prev + block;
            } else if units < now {
                let tick = tick_of(cur);
                match state.compare_exchange(
                    cur,
                    pack(now, tick, block),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    // We own counters 0..block of the new slot (block ≤ max_block ≤ cap).
                    Ok(_) => return self.reserve(r, generation, pack(now, tick, 0), block, meta),
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
                        if r.next < r.end && r.keyed(self.instance, generation, now) {
                            // Typically the block our own fetch_add took in the new unit.
                            let c = r.next;
                            r.next = c + 1;
                            return Ok(self.mint(now, r.tick, c, meta));
                        }
                        block = self.block_for(r, generation, now);
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
                        pack(now, tick, block),
                        Ordering::AcqRel,
                        Ordering::Acquire,
                    ) {
                        Ok(_) => {
                            self.drifts.fetch_add(1, Ordering::Relaxed);
                            return self.reserve(r, generation, pack(now, tick, 0), block, meta);
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
    pub fn new_with_unix_ns(&self, meta: u8, unix_ns: i64) -> Result<Id, Error> {
        #[cfg(feature = "std")]
        if self.generation.load(Ordering::Acquire) != crate::fork::fork_generation() {
            self.after_fork()?;
        }
        let units = unix_ns_to_units(unix_ns).ok_or(Error::TimeOutOfRange { unix_ns })?;
        let n = self.counters.0.static_seq.fetch_add(1, Ordering::Relaxed) % self.cap;
        Ok(Id::compose(
            units,
            false,
            meta,
            self.partition(),
            self.seq_min + n as u16,
        ))
    }

    /// The old name of [`new_with_unix_ns`](Self::new_with_unix_ns).
    ///
    /// # Errors
    /// As [`new_with_unix_ns`](Self::new_with_unix_ns).
    #[deprecated(since = "0.2.0", note = "renamed `new_with_unix_ns`")]
    pub fn new_with_unix_nanos(&self, meta: u8, unix_nanos: i64) -> Result<Id, Error> {
        self.new_with_unix_ns(meta, unix_nanos)
    }

    /// [`new_with_unix_ns`](Self::new_with_unix_ns) for a [`SystemTime`](std::time::SystemTime).
    #[cfg(feature = "std")]
    pub fn new_with_time(&self, meta: u8, time: std::time::SystemTime) -> Result<Id, Error> {
        let nanos = match time.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
            Err(e) => i64::try_from(e.duration().as_nanos())
                .map(|n| -n)
                .unwrap_or(i64::MIN),
        };
        self.new_with_unix_ns(meta, nanos)
    }

    /// The current state, to persist and restore later. The timeline, tick and sequence come
    /// from one atomic read, so they are consistent with each other.
    pub fn snapshot(&self) -> Snapshot {
        let state = self.state.0.load(Ordering::Acquire);
        let wall_safe = self.wall_safe.load(Ordering::Acquire);
        let mut drifts = self.drifts.load(Ordering::Relaxed);
        if (drifts & 1 == 1) != tick_of(state) {
            // The drift counter is bumped just after the state switches: account for it.
            drifts = drifts.wrapping_add(1);
        }
        // The high-water mark of every block handed out in the slot: conservative. Where the
        // top block is the calling thread's own, only what it issued from it counts.
        let counter = counter_of(state);
        #[cfg(all(feature = "std", not(loom)))]
        let counter = crate::thread_block::with_reservation(|r| {
            let own_top = r.end == counter
                && r.tick == tick_of(state)
                && r.keyed(
                    self.instance,
                    crate::fork::fork_generation(),
                    units_of(state),
                );
            if own_top { r.next } else { counter }
        });
        let counter = counter.min(self.cap);
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
        self.partition.load(Ordering::Relaxed) as u16
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
        self.partition
            .store(u32::from(partition), Ordering::Relaxed);
        #[cfg(feature = "std")]
        self.generation
            .store(crate::fork::fork_generation(), Ordering::Release);
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
        self.repartition(crate::partition::default_partition()?);
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

    /// The largest block of sequences a thread reserves at once
    /// ([`GeneratorBuilder::max_block`]).
    pub fn max_block(&self) -> u32 {
        self.max_block as u32
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
        crate::fork::GENERATION_LOCK
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
        let state = g.state.0.load(Ordering::Relaxed);
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
