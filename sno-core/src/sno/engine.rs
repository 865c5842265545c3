//! The [`Generator`](crate::generator::Generator) and its minting paths: the fast path (a thread's reserved block, or one
//! `fetch_add`), progression, the timeline switch after a regression, and the blocking wait.
//! The argument that they mint no duplicate and are wait-free: `docs/generator.md`.

use core::fmt;

#[cfg(feature = "alloc")]
use alloc::sync::Arc;

use crate::clock::Clock;
use crate::error::Error;
use crate::sno::id::Id;
use crate::sync::{AtomicU32, AtomicU64, CachePadded, Ordering};
use crate::thread_block::Reservation;
use crate::time::{MAX_TIMESTAMP, unix_ns_to_units};

use super::snapshot::{Counters, Snapshot, Stats};
#[cfg(feature = "alloc")]
use super::snapshot::{Overflow, OverflowObserver};
use super::state::{counter_of, pack, slot_of, tick_of, units_of};

/// The clock a generator uses when none is named: the system clock with `std`, else a manual one.
#[cfg(feature = "std")]
pub type DefaultClock = crate::clock::SystemClock;
/// The clock a generator uses when none is named: the system clock with `std`, else a manual one.
#[cfg(not(feature = "std"))]
pub type DefaultClock = crate::clock::ManualClock;

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
/// * a generator with a **default** partition (no [`GeneratorBuilder::partition`](crate::generator::GeneratorBuilder::partition), no snapshot)
///   takes a fresh default partition on its first call, as the global generator ([`crate::new`])
///   does;
/// * a generator with an **explicit** partition (given, or restored from a snapshot) refuses to
///   mint, with [`Error::Forked`](crate::Error::Forked), until [`Generator::repartition`](crate::generator::Generator::repartition) gives it a partition of its
///   own: only the caller knows which partition the child may use.
pub struct Generator<C: Clock = DefaultClock> {
    /// The state word, alone on its cache line(s): the only thing threads write per block.
    pub(super) state: CachePadded<AtomicU64>,
    /// The partition (rewritten only after `fork` or by `repartition`) and the `fork()`
    /// generation it belongs to: read on every call, so kept off the state's line, which
    /// every block taken by another thread would take away from this core.
    pub(super) partition: AtomicU32,
    #[cfg(feature = "std")]
    pub(super) generation: AtomicU64,
    /// This generator's instance number, the owner key of reservations.
    pub(super) instance: u64,
    /// The largest block a thread reserves at once.
    pub(super) max_block: u64,
    /// Whether the partition was chosen by the caller (a fork child must then be repartitioned).
    #[cfg(feature = "std")]
    pub(super) explicit_partition: bool,
    pub(super) max_wait_units: u64,
    pub(super) wall_safe: AtomicU64,
    pub(super) drifts: AtomicU32,
    pub(super) seq_min: u16,
    pub(super) seq_max: u16,
    pub(super) cap: u64,
    pub(super) counters: CachePadded<Counters>,
    pub(super) clock: C,
    #[cfg(feature = "alloc")]
    pub(super) observer: Option<Arc<dyn OverflowObserver>>,
    /// In memory that processes share ([`GeneratorBuilder::process_shared`](crate::generator::GeneratorBuilder::process_shared)):
    /// no fork rule.
    #[cfg(feature = "std")]
    pub(super) process_shared: bool,
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

impl<C: Clock> Generator<C> {
    /// The next ID, or an error at once: [`Error::SequenceExhausted`](crate::Error::SequenceExhausted) when this 4 ms unit's pool
    /// is used up, [`Error::ClockRegression`](crate::Error::ClockRegression) when the clock went back into a period used by
    /// both timelines (both say from when a retry succeeds), [`Error::ClockOutOfRange`](crate::Error::ClockOutOfRange) for a
    /// clock outside 2010..2079. Never blocks.
    ///
    /// With `std`, each thread mints from a block of sequences it reserved
    /// ([per-thread blocks](crate::generator#per-thread-blocks)): a thread's IDs strictly
    /// increase, but within one 4 ms unit IDs of different threads are not in call order, and
    /// the pool may be refused a little before `capacity` IDs were minted (at most one block
    /// per thread that stays on this generator goes unissued; see
    /// [`GeneratorBuilder::max_block`](crate::generator::GeneratorBuilder::max_block)).
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
            if self.process_shared {
                // Every process mints from this very state: a fork child holds no copy.
                return Ok(0);
            }
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
    /// [maximum wait](crate::generator::GeneratorBuilder::max_wait) in all (5 s by default). Returns the
    /// [`try_next`](Self::try_next) error instead of sleeping when the retry time lies further
    /// away than that, or never comes (`retry_at` past the end of the sno range), and
    /// [`Error::ClockOutOfRange`](crate::Error::ClockOutOfRange) / [`Error::Forked`](crate::Error::Forked) at once.
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

    /// Whether waiting can end `err`: a used-up pool or a regression ([`Error::SequenceExhausted`](crate::Error::SequenceExhausted),
    /// [`Error::ClockRegression`](crate::Error::ClockRegression)) whose retry unit lies within the sno range. Callers with wait
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
    /// in [`Stats::waits`](crate::generator::Stats::waits): until unit `retry_at` (from an error of
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

    /// The old name of [`next_at_unix_ns`](Self::next_at_unix_ns).
    ///
    /// # Errors
    /// As [`next_at_unix_ns`](Self::next_at_unix_ns).
    #[deprecated(since = "0.2.0", note = "renamed `next_at_unix_ns`")]
    pub fn new_with_unix_ns(&self, meta: u8, unix_ns: i64) -> Result<Id, Error> {
        self.next_at_unix_ns(meta, unix_ns)
    }

    /// An ID for an arbitrary time given in Unix nanoseconds: a porting and back-filling tool.
    ///
    /// It uses a sequence of its own that runs `sequence_min ..= sequence_max` and wraps, shared
    /// by all times, and never touches the live state: uniqueness against [`try_next`](Self::try_next)
    /// (Self::try_next) IDs, or across more than a pool's worth of calls for one unit, is the
    /// caller's concern. Times outside 2010-01-01 ..= 2079-09-07T15:47:35.551999999Z are
    /// rejected with [`Error::TimeOutOfRange`](crate::Error::TimeOutOfRange) (the Go original wraps them silently).
    pub fn next_at_unix_ns(&self, meta: u8, unix_ns: i64) -> Result<Id, Error> {
        self.generation()?;
        let units = unix_ns_to_units(unix_ns).ok_or(Error::TimeOutOfRange {
            unix_nanos: unix_ns,
        })?;
        let n = crate::bytes::rem(
            self.counters.0.static_seq.fetch_add(1, Ordering::Relaxed),
            self.cap,
        );
        Ok(Id::compose(
            units,
            false,
            meta,
            self.partition(),
            self.seq_min + n as u16,
        ))
    }

    /// The old name of [`next_at_unix_ns`](Self::next_at_unix_ns).
    ///
    /// # Errors
    /// As [`next_at_unix_ns`](Self::next_at_unix_ns).
    #[deprecated(since = "0.2.0", note = "renamed `next_at_unix_ns`")]
    pub fn new_with_unix_nanos(&self, meta: u8, unix_nanos: i64) -> Result<Id, Error> {
        self.next_at_unix_ns(meta, unix_nanos)
    }

    /// The old name of [`next_at_time`](Self::next_at_time).
    ///
    /// # Errors
    /// As [`next_at_unix_ns`](Self::next_at_unix_ns).
    #[cfg(feature = "std")]
    #[deprecated(since = "0.2.0", note = "renamed `next_at_time`")]
    pub fn new_with_time(&self, meta: u8, time: std::time::SystemTime) -> Result<Id, Error> {
        self.next_at_time(meta, time)
    }

    /// [`next_at_unix_ns`](Self::next_at_unix_ns) for a [`SystemTime`](std::time::SystemTime).
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let generator = sno_core::Generator::new()?;
    /// let id = generator.next_at_time(0, UNIX_EPOCH + Duration::from_secs(1_700_000_000))?;
    /// assert_eq!(id.unix_ms(), 1_700_000_000_000);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`next_at_unix_ns`](Self::next_at_unix_ns).
    #[cfg(feature = "std")]
    pub fn next_at_time(&self, meta: u8, time: std::time::SystemTime) -> Result<Id, Error> {
        let nanos = match time.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
            Err(e) => i64::try_from(e.duration().as_nanos())
                .map(|n| -n)
                .unwrap_or(i64::MIN),
        };
        self.next_at_unix_ns(meta, nanos)
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
    /// ends the [`Error::Forked`](crate::Error::Forked) refusal. The caller must make sure no other live generator
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
        if !self.process_shared {
            self.generation
                .store(crate::fork::fork_generation(), Ordering::Release);
        }
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

    /// The longest [`next`](Self::next) sleeps in all (see [`GeneratorBuilder::max_wait`](crate::generator::GeneratorBuilder::max_wait)).
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
    /// ([`GeneratorBuilder::max_block`](crate::generator::GeneratorBuilder::max_block)).
    pub fn max_block(&self) -> u32 {
        self.max_block as u32
    }

    /// The clock this generator reads.
    pub fn clock(&self) -> &C {
        &self.clock
    }
}
