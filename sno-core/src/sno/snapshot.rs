//! What a generator reports: its [`Snapshot`](crate::generator::Snapshot) (to persist and restore), [`Stats`](crate::generator::Stats), and the
//! [`Overflow`](crate::generator::Overflow) events an [`OverflowObserver`](crate::generator::OverflowObserver) receives.

use crate::sync::AtomicU64;
use crate::time::MAX_TIMESTAMP;

use super::state::sanitize_bounds;

/// A saved generator state, to persist across restarts and restore with
/// [`GeneratorBuilder::snapshot`](crate::generator::GeneratorBuilder::snapshot). Time values are in 4 ms units since 2010.
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
    /// clock set back it returns [`Error::ClockRegression`](crate::Error::ClockRegression) (and [`Generator::next`](crate::generator::Generator::next) waits)
    /// until the clock passes the lease, so nothing the stopped process issued, up to its
    /// lease on either timeline, can repeat. The lease must lie within the generator's
    /// [maximum wait](crate::generator::GeneratorBuilder::max_wait) of the clock at restore, or the restore is
    /// refused with [`Error::SnapshotAhead`](crate::Error::SnapshotAhead).
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

/// Counters of the rare events, read with [`Generator::stats`](crate::generator::Generator::stats).
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
    /// Sleeps taken by the blocking [`Generator::next`](crate::generator::Generator::next).
    pub waits: u64,
}

/// Reported to an [`OverflowObserver`](crate::generator::OverflowObserver) once per time unit whose sequence pool ran out.
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
pub(super) struct Counters {
    /// The sequence of `new_with_unix_ns` (here, off the lines read per call).
    pub(super) static_seq: AtomicU64,
    pub(super) overflows: AtomicU64,
    pub(super) overflow_episodes: AtomicU64,
    pub(super) regressions: AtomicU64,
    pub(super) waits: AtomicU64,
}
