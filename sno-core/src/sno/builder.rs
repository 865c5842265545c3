//! [`GeneratorBuilder`](crate::generator::GeneratorBuilder): a generator's partition, sequence bounds, snapshot, clock, maximum
//! wait and block, and observer, checked when it is built.

#[cfg(feature = "alloc")]
use alloc::sync::Arc;

use crate::clock::Clock;
use crate::error::Error;
use crate::sync::{AtomicU32, AtomicU64, CachePadded};
use crate::time::{DEFAULT_MAX_WAIT, MAX_TIMESTAMP};
// Not loom's: instance numbers are identities, not part of any modelled interleaving.
use core::sync::atomic::AtomicU64 as InstanceCounter;

use super::engine::{DefaultClock, Generator};
#[cfg(feature = "alloc")]
use super::snapshot::OverflowObserver;
use super::snapshot::{Counters, Snapshot};
use super::state::{MAX_BLOCK, pack, sanitize_bounds};

/// Configures a [`Generator`](crate::generator::Generator): partition, sequence bounds, a snapshot to restore, the clock and
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
    #[cfg(feature = "std")]
    process_shared: bool,
}

#[cfg(feature = "std")]
impl Generator<crate::clock::SystemClock> {
    /// A generator on the system clock with a default partition (the process's random seed
    /// plus a per-process counter) and the full sequence range.
    ///
    /// Fails with [`Error::PartitionPoolExhausted`](crate::Error::PartitionPoolExhausted) after 65 536 default partitions.
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
            #[cfg(feature = "std")]
            process_shared: false,
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
            #[cfg(feature = "std")]
            process_shared: self.process_shared,
        }
    }

    /// Sets the partition (overrides a snapshot's). Without one, `std` builds take a default
    /// partition; no_std builds fail with [`Error::MissingPartition`](crate::Error::MissingPartition).
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

    /// The longest [`Generator::next`](crate::generator::Generator::next) sleeps before it returns the error instead (default
    /// [`DEFAULT_MAX_WAIT`], 5 s; rounded up to whole 4 ms units), and how far ahead of the
    /// clock a restored [`snapshot`](Self::snapshot) may reach: one further ahead is refused
    /// with [`Error::SnapshotAhead`](crate::Error::SnapshotAhead) by [`build`](Self::build), since every call would fail or
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
    /// `1..=`[`MAX_BLOCK`](crate::generator::MAX_BLOCK) and to the pool. By default `capacity / 1024` clamped to 1..=64: 64
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

    /// Builds a generator for memory that several processes share: a mapping made before they
    /// were forked from one parent, such as PostgreSQL's shared memory. Every process mints
    /// from the one state word (a `fetch_add` by any of them is seen by all), so a `fork()`
    /// child uses the generator itself, never a copy: the [fork rule](crate::generator::Generator#after-fork)
    /// does not apply, and the partition stays the one given (or set by
    /// [`repartition`](crate::generator::Generator::repartition), from any process). Its instance number, the key of the
    /// per-thread reservations, is drawn at random, so no generator of another process can
    /// take its reservations for its own.
    ///
    /// The caller places the built generator in the shared memory (a move, before any process
    /// mints), never moves it afterwards, and uses a clock every process reads alike (the
    /// precise system clock: not the opt-in fast clock, whose readings are one process's). An
    /// [`observer`](Self::observer) lives in one process's memory: giving one is
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument).
    ///
    /// ```
    /// use sno_core::Generator;
    /// let g = Generator::builder().partition(7).process_shared().build()?;
    /// assert_eq!(g.try_next(0)?.partition(), 7);
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn process_shared(mut self) -> Self {
        self.process_shared = true;
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
        #[cfg(feature = "std")]
        if self.process_shared && self.observer.is_some() {
            return Err(Error::InvalidArgument {
                name: "observer",
                reason: "cannot be given to a process-shared generator: it lives in one process's memory",
            });
        }
        let cap = u64::from(max - min) + 1;
        let max_block = match self.max_block {
            Some(b) => u64::from(b),
            None => cap / 1024,
        };
        Ok(Generator {
            instance: self.instance(),
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
            #[cfg(feature = "std")]
            process_shared: self.process_shared,
        })
    }

    /// The new generator's instance number: the next of this process's count, or for a
    /// process-shared generator 64 random bits (other processes count their own generators).
    fn instance(&self) -> u64 {
        #[cfg(feature = "std")]
        if self.process_shared {
            return crate::entropy::entropy();
        }
        INSTANCES.fetch_add(1, core::sync::atomic::Ordering::Relaxed)
    }

    fn resolve_partition(&self) -> Result<u16, Error> {
        match self.partition {
            Some(p) => Ok(p),
            #[cfg(any(feature = "std", feature = "web"))]
            None => crate::partition::default_partition(),
            #[cfg(not(any(feature = "std", feature = "web")))]
            None => Err(Error::MissingPartition),
        }
    }
}

/// A duration in whole 4 ms units, rounded up (saturating).
fn duration_units(d: core::time::Duration) -> u64 {
    // A second is 250 whole units: the seconds' units and the rest's rounded up, in 64 bits (no
    // 128-bit division routine in the web build's modules: docs/wasm.md, "Sizes").
    const UNITS_PER_SEC: u64 = 1_000_000_000 / crate::time::UNIT_NANOS as u64;
    let rest = u64::from(d.subsec_nanos()).div_ceil(crate::time::UNIT_NANOS as u64);
    d.as_secs()
        .saturating_mul(UNITS_PER_SEC)
        .saturating_add(rest)
        .min(i64::MAX as u64)
}

fn check_units(field: &'static str, value: i64) -> Result<u64, Error> {
    if value < 0 || value as u64 > MAX_TIMESTAMP {
        return Err(Error::InvalidSnapshot { field, value });
    }
    Ok(value as u64)
}

/// Instance numbers of generators, the owner key of [`Reservation`](crate::generator::Reservation)s: unique in the process,
/// unlike addresses (a generator built after another was dropped may take its place). 0 is no
/// generator.
static INSTANCES: InstanceCounter = InstanceCounter::new(1);

#[cfg(test)]
mod tests {
    use core::time::Duration;

    /// The 64-bit count against whole nanoseconds divided in 128 bits.
    #[test]
    fn duration_units_as_by_nanoseconds() {
        let by_nanos = |d: Duration| {
            u64::try_from(d.as_nanos().div_ceil(crate::time::UNIT_NANOS as u128))
                .unwrap_or(u64::MAX)
                .min(i64::MAX as u64)
        };
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        for i in 0..10_000u64 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i);
            for d in [
                Duration::new(x >> (i % 64), (x % 1_000_000_000) as u32),
                Duration::from_nanos(x >> (i % 64)),
                Duration::new(i, 0),
                Duration::from_nanos(i),
                Duration::MAX,
                Duration::ZERO,
                Duration::new(u64::MAX / 250, 999_999_999),
                Duration::new(i64::MAX as u64 / 250 + 1, 0),
            ] {
                assert_eq!(super::duration_units(d), by_nanos(d), "{d:?}");
            }
        }
    }
}
