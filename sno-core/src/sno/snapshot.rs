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

/// One field of a [`Snapshot`] as the bindings list it ([`Snapshot::FIELDS`]): Python's dict
/// key, JavaScript's object key, and the values its Rust type holds. Whether a value in that
/// range can be restored is the builder's question (a time field must lie in `0..=2^39-1`:
/// [`Error::InvalidSnapshot`](crate::Error::InvalidSnapshot)).
///
/// ```
/// use sno_core::Snapshot;
/// let wall_hi = Snapshot::FIELDS.iter().find(|f| f.name == "wall_hi").unwrap();
/// assert_eq!((wall_hi.js_name, wall_hi.min, wall_hi.max), ("wallHi", i64::MIN, i64::MAX));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SnapshotField {
    /// The Rust and Python name (`wall_hi`).
    pub name: &'static str,
    /// The JavaScript name, that of the `serde` form too (`wallHi`).
    pub js_name: &'static str,
    /// The smallest value the field holds.
    pub min: i64,
    /// The largest value the field holds.
    pub max: i64,
}

/// A field of the [`Snapshot`] and the range of its type.
const fn field(name: &'static str, js_name: &'static str, (min, max): (i64, i64)) -> SnapshotField {
    SnapshotField {
        name,
        js_name,
        min,
        max,
    }
}

/// The ranges of `u16`, `u32` and `i64` fields.
const U16: (i64, i64) = (0, u16::MAX as i64);
const U32: (i64, i64) = (0, u32::MAX as i64);
const I64: (i64, i64) = (i64::MIN, i64::MAX);

impl Snapshot {
    /// The fields, in the order of [`to_values`](Snapshot::to_values) and
    /// [`from_values`](Snapshot::from_values): what a binding reads and writes a snapshot by.
    ///
    /// ```
    /// use sno_core::Snapshot;
    /// let names: Vec<&str> = Snapshot::FIELDS.iter().map(|f| f.js_name).collect();
    /// assert_eq!(names, ["partition", "sequenceMin", "sequenceMax", "sequence", "now", "wallHi", "wallSafe", "drifts"]);
    /// assert_eq!((Snapshot::FIELDS[0].min, Snapshot::FIELDS[0].max), (0, 65535));
    /// ```
    pub const FIELDS: [SnapshotField; 8] = [
        field("partition", "partition", U16),
        field("sequence_min", "sequenceMin", U16),
        field("sequence_max", "sequenceMax", U16),
        field("sequence", "sequence", U32),
        field("now", "now", I64),
        field("wall_hi", "wallHi", I64),
        field("wall_safe", "wallSafe", I64),
        field("drifts", "drifts", U32),
    ];

    /// The fields' values, in [`FIELDS`](Snapshot::FIELDS) order.
    ///
    /// ```
    /// use sno_core::Snapshot;
    /// let s = Snapshot { partition: 7, wall_hi: 1_000, ..Default::default() };
    /// assert_eq!(s.to_values(), [7, 0, 0, 0, 0, 1_000, 0, 0]);
    /// ```
    pub const fn to_values(&self) -> [i64; 8] {
        [
            self.partition as i64,
            self.sequence_min as i64,
            self.sequence_max as i64,
            self.sequence as i64,
            self.now,
            self.wall_hi,
            self.wall_safe,
            self.drifts as i64,
        ]
    }

    /// The snapshot of `values`, in [`FIELDS`](Snapshot::FIELDS) order, or `Err(i)`: field
    /// `i` cannot hold `values[i]` (the first such field).
    ///
    /// ```
    /// use sno_core::Snapshot;
    /// let s = Snapshot { partition: 7, sequence_max: 15, wall_hi: 1_000, ..Default::default() };
    /// assert_eq!(Snapshot::from_values(s.to_values()), Ok(s));
    /// assert_eq!(Snapshot::from_values([70_000, 0, 0, 0, 0, 0, 0, -1]), Err(0));
    /// ```
    pub fn from_values(values: [i64; 8]) -> Result<Snapshot, usize> {
        if let Some(bad) = (0..8).find(|&i| {
            let f = &Snapshot::FIELDS[i];
            !(f.min..=f.max).contains(&values[i])
        }) {
            return Err(bad);
        }
        let [
            partition,
            sequence_min,
            sequence_max,
            sequence,
            now,
            wall_hi,
            wall_safe,
            drifts,
        ] = values;
        Ok(Snapshot {
            partition: partition as u16,
            sequence_min: sequence_min as u16,
            sequence_max: sequence_max as u16,
            sequence: sequence as u32,
            now,
            wall_hi,
            wall_safe,
            drifts: drifts as u32,
        })
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

/// One counter of [`Stats`] as the bindings list it ([`Stats::FIELDS`]): Python's dict key and
/// JavaScript's object key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct StatsField {
    /// The Rust and Python name (`overflow_episodes`).
    pub name: &'static str,
    /// The JavaScript name (`overflowEpisodes`).
    pub js_name: &'static str,
}

/// A counter of the [`Stats`].
const fn counter(name: &'static str, js_name: &'static str) -> StatsField {
    StatsField { name, js_name }
}

impl Stats {
    /// The counters, in the order of [`to_values`](Stats::to_values): what a binding writes
    /// the stats by.
    ///
    /// ```
    /// use sno_core::Stats;
    /// let names: Vec<&str> = Stats::FIELDS.iter().map(|f| f.js_name).collect();
    /// assert_eq!(names, ["overflows", "overflowEpisodes", "drifts", "regressions", "waits"]);
    /// ```
    pub const FIELDS: [StatsField; 5] = [
        counter("overflows", "overflows"),
        counter("overflow_episodes", "overflowEpisodes"),
        counter("drifts", "drifts"),
        counter("regressions", "regressions"),
        counter("waits", "waits"),
    ];

    /// The counters, in [`FIELDS`](Stats::FIELDS) order.
    ///
    /// ```
    /// use sno_core::Stats;
    /// let stats = Stats { overflows: 1, overflow_episodes: 2, drifts: 3, regressions: 4, waits: 5 };
    /// assert_eq!(stats.to_values(), [1, 2, 3, 4, 5]);
    /// ```
    pub const fn to_values(&self) -> [u64; 5] {
        [
            self.overflows,
            self.overflow_episodes,
            self.drifts,
            self.regressions,
            self.waits,
        ]
    }
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
