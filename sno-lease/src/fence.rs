//! The fence: the window of ID times a grant may stamp, checked after every mint.
//!
//! # Safety argument: no two holders mint the same ID
//!
//! A sno ID is `(time unit, tick, meta, partition, sequence)`. Within one generator the
//! wait-free state word makes every `(time unit, tick, sequence)` unique (see
//! `sno_core::generator`). Across processes, uniqueness needs that no two holders stamp the same
//! partition into IDs of the same 4 ms unit. The fence gives each grant a window of units and
//! the store keeps the windows of one partition apart.
//!
//! **Store invariants** (each a single statement or script, atomic in the store, every time
//! taken from the store's own clock `S`):
//!
//! 1. A partition is granted only when no unexpired grant holds it (`expires ≤ S.now`).
//! 2. Each partition has a bound `ids_before` that only grows. A grant or renewal at store time
//!    `s` raises it to at least `s + TTL − margin`, and reports the raised value.
//! 3. A grant reports, as its `ids_from`, the bound as it was before the grant (for Redis
//!    after a data loss: at least `born + TTL`, see below).
//! 4. Renewal extends a grant only while its token is the partition's latest: once another
//!    holder was granted the partition, the old holder is told the lease is lost.
//!
//! **Holder rule** (this module): a holder returns an ID only if its unit `u` satisfies
//! `unit(ids_from) ≤ u < unit(ids_before_reported)`, where both come from its current grant
//! (checked *after* minting, on the ID itself, so no clock reading or race can slip past it).
//!
//! **Claim:** two grants `G1` (earlier) and `G2` (later) of one partition have disjoint
//! windows. `G2` was granted after `G1` expired or was released (1), and `G1` was renewed only
//! before `G2` existed (4). So every bound `G1` was ever told is ≤ the partition's bound at the
//! moment of `G2`'s grant (2), which is `G2.ids_from` (3). `G1` stamps only units below
//! `unit(G1.ids_before) ≤ unit(G2.ids_from)`, and `G2` only units from `unit(G2.ids_from)`.
//! By induction over the grants, all windows of a partition are pairwise disjoint.
//!
//! **Assumptions:** the store is linearizable for these statements (one PostgreSQL primary, one
//! Redis primary), keeps its data or says it lost it (Redis: the `born` key; PostgreSQL: the
//! table is never truncated under live holders), and its clock does not jump back by more
//! than the margin between two grants of one partition (the bound is in its clock). **No
//! assumption about the holders' clocks is needed for uniqueness**: a holder whose clock runs
//! fast hits its window's end early (and waits for renewal), one whose clock lags reaches
//! `ids_from` late (and waits until it does).
//!
//! **Clock drift `D`** (holder's clock behind the store's) matters for *when* holders mint, not
//! for uniqueness: the old holder stops stamping when its clock reaches `ids_before = expires −
//! margin`, i.e. at store time `expires − margin + D`, and the new holder can start only at
//! store time `≥ expires`. So with `D < margin` the old holder has stopped, in real time, before
//! the partition can be granted again; with a larger `D` the two overlap in real time but still
//! stamp disjoint windows. The margin defaults to a tenth of the TTL, at most 1 s.
//!
//! **Redis data loss:** after a restart without persistence the bounds are gone, but every grant
//! made before the loss expires by `loss + TTL ≤ born + TTL`, so its IDs lie below
//! `born + TTL − margin`; every grant of the new epoch starts its window at `born + TTL` at the
//! earliest (invariant 3 as stated), not only the grants of its first TTL: a bound rolled back by
//! the loss may lie below windows granted before it, and a holder whose clock lags would
//! otherwise stamp into them. A promoted PostgreSQL standby is handled the same way, its epoch
//! starting when an acquisition first sees the new timeline (`src/postgres.rs`, "Failover").
//!
//! # Releasing: the next holder starts right after the last ID
//!
//! A holder that closes its lease (a process that ends normally) knows better than the store
//! how far its IDs went: up to the highest unit it ever returned, not up to `ids_before`, which
//! lies a TTL ahead. The release statement therefore **lowers** the partition's bound, to
//! `max(ids_from, min(ids_before, end))` where `end` is the first millisecond after the
//! holder's highest returned unit, and frees the partition. Invariant 2 becomes: *the bound is at
//! least the end of every ID any holder of the partition ever returned* (raised by grants and
//! renewals, lowered only by its current holder to just past its own IDs). The claim's proof
//! is unchanged: it needs only that `G2.ids_from` is past every ID of `G1`, which the lowered
//! bound still is, and `ids_from` keeps it past the holders before `G1`. The release applies
//! only while the grant is the partition's latest (holder and token match, and for Redis the
//! same Redis process), so no other holder's bound is ever lowered.
//!
//! That `end` really is past every returned ID rests on the fence's `high` word:
//!
//! - A minting call that finds its ID inside the window raises `high` to the ID's unit
//!   (`fetch_max`, or a load that already shows as much) **before** its final epoch check.
//! - Closing stores a new epoch, and only afterwards (the renewal thread, through the lease's
//!   mutex) reads `high` to build the release.
//! - All four accesses are `SeqCst`, so they sit in one total order `S`. If the closer's read
//!   of `high` missed a caller's raise `R`, the read precedes `R` in `S` (a `SeqCst` read that
//!   is coherence-ordered before a write precedes it); the close's store precedes the read, and
//!   `R` precedes the caller's epoch load. So the epoch load comes after the close's store in
//!   `S` and sees the new epoch: that caller refuses its ID. A caller that skipped the raise
//!   because `high` already held its unit or more read that value from an earlier `SeqCst`
//!   raise, which precedes its epoch load in `S` the same way.
//!
//! Every ID returned thus has a unit `≤ high` as read for the release, whatever the clocks did
//! (a regressed clock's IDs are lower, never higher). The next holder, granted at once, may wait
//! up to one 4 ms unit for its clock to pass `end`; it never waits for the TTL. A holder that
//! crashes releases nothing, and its partition frees itself at `expires` as before.
//!
//! # Switching partitions without a lock
//!
//! A lost lease is replaced by a new grant, often of another partition. The generator's
//! partition and the window must change together for concurrent callers, without a lock on the
//! hot path: a sequence lock. The switcher makes `epoch` odd, writes partition, `ids_from`
//! and `ids_before`, then makes `epoch` even again. A caller reads `epoch`, mints, reads the
//! window, and reads `epoch` again: if it changed (or was odd) the ID is dropped and the call
//! refused. Renewals only raise `ids_before` of the current grant, which every caller may read
//! before or after the raise.

use core::sync::atomic::{AtomicU64, Ordering, fence};

/// The window of one grant in sno units, guarded by a sequence lock, and the highest unit ever
/// admitted. On a line of its own, away from the lease's mutex that the renewal thread writes.
#[derive(Debug)]
#[repr(align(128))]
pub(crate) struct Fence {
    epoch: AtomicU64,
    /// First unit a grant may stamp.
    from: AtomicU64,
    /// First unit a grant may not stamp (0 when closed).
    before: AtomicU64,
    /// The highest unit of an ID inside the window, raised before its epoch check (so at least
    /// the unit of every ID returned): what a release tells the store (see [`Fence::high`]).
    high: AtomicU64,
}

/// A snapshot of the fence taken before minting.
#[derive(Clone, Copy)]
pub(crate) struct Ticket(u64);

/// Why a minted ID cannot be returned.
pub(crate) enum Refusal {
    /// The unit is at or past the window's end (or the lease is closed).
    Expired,
    /// The unit lies before the window: retry from this unit.
    TooEarly(u64),
}

impl Fence {
    pub(crate) fn new() -> Self {
        Fence {
            epoch: AtomicU64::new(0),
            from: AtomicU64::new(0),
            before: AtomicU64::new(0),
            high: AtomicU64::new(0),
        }
    }

    #[inline(always)]
    pub(crate) fn ticket(&self) -> Ticket {
        Ticket(self.epoch.load(Ordering::Acquire))
    }

    /// Whether an ID of unit `units`, minted after `ticket` was taken, may be returned.
    #[inline(always)]
    pub(crate) fn admit(&self, ticket: Ticket, units: u64) -> Result<(), Refusal> {
        let before = self.before.load(Ordering::Relaxed);
        let from = self.from.load(Ordering::Relaxed);
        // Recorded before the epoch check (see "Releasing"): a plain load on x86 and one
        // read-modify-write per thread and unit.
        if units < before && units >= from && units > self.high.load(Ordering::SeqCst) {
            self.high.fetch_max(units, Ordering::SeqCst);
        }
        fence(Ordering::Acquire);
        if self.epoch.load(Ordering::SeqCst) != ticket.0 || ticket.0 & 1 == 1 {
            return Err(Refusal::Expired);
        }
        if units >= before {
            return Err(Refusal::Expired);
        }
        if units < from {
            return Err(Refusal::TooEarly(from));
        }
        Ok(())
    }

    /// The highest unit of any ID this fence returned (0 when none), read after a
    /// [`close`](Self::close) that happened before this call: no ID of a later unit is ever
    /// returned (see "Releasing").
    pub(crate) fn high(&self) -> u64 {
        self.high.load(Ordering::SeqCst)
    }

    /// Raises the window's end (a renewal of the current grant).
    pub(crate) fn extend(&self, before: u64) {
        self.before.fetch_max(before, Ordering::Release);
    }

    /// Installs a new window; `apply` runs inside the write section (the partition switch).
    pub(crate) fn switch(&self, from: u64, before: u64, apply: impl FnOnce()) {
        let e = self.epoch.load(Ordering::Relaxed);
        // SeqCst: the store that a racing admit's epoch check must see (see "Releasing").
        self.epoch.store(e.wrapping_add(1), Ordering::SeqCst);
        fence(Ordering::Release);
        apply();
        self.from.store(from, Ordering::Relaxed);
        self.before.store(before, Ordering::Relaxed);
        self.epoch.store(e.wrapping_add(2), Ordering::Release);
    }

    /// Closes the window: every later mint is refused.
    pub(crate) fn close(&self) {
        self.switch(0, 0, || {});
    }
}

/// The sno unit holding Unix millisecond `ms`, clamped into the sno range (0 before 2010).
pub(crate) fn unit_of_millis(ms: i64) -> u64 {
    let nanos = ms.saturating_mul(1_000_000);
    if nanos < sno_core::time::EPOCH_UNIX_NANOS {
        return 0;
    }
    sno_core::time::unix_ns_to_units(nanos).unwrap_or(sno_core::time::MAX_TIMESTAMP + 1)
}

/// The first Unix millisecond of sno unit `units + 1`: every ID of unit `units` or before lies
/// before it.
pub(crate) fn millis_after_unit(units: u64) -> i64 {
    let ms_per_unit = sno_core::time::UNIT_NANOS / 1_000_000;
    sno_core::time::EPOCH_UNIX_NANOS / 1_000_000 + (units as i64 + 1) * ms_per_unit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_bounds() {
        let f = Fence::new();
        f.switch(10, 20, || {});
        let t = f.ticket();
        assert!(f.admit(t, 10).is_ok());
        assert!(f.admit(t, 19).is_ok());
        assert!(matches!(f.admit(t, 20), Err(Refusal::Expired)));
        assert!(matches!(f.admit(t, 9), Err(Refusal::TooEarly(10))));
        f.extend(30);
        assert!(f.admit(t, 25).is_ok(), "a renewal keeps the epoch");
        f.extend(5);
        assert!(f.admit(t, 25).is_ok(), "the end never moves back");
        f.switch(40, 50, || {});
        assert!(
            matches!(f.admit(t, 45), Err(Refusal::Expired)),
            "old ticket"
        );
        assert!(f.admit(f.ticket(), 45).is_ok());
        f.close();
        assert!(matches!(f.admit(f.ticket(), 45), Err(Refusal::Expired)));
    }

    #[test]
    fn the_highest_admitted_unit() {
        let f = Fence::new();
        f.switch(10, 20, || {});
        assert_eq!(f.high(), 0);
        let t = f.ticket();
        assert!(f.admit(t, 12).is_ok());
        assert!(f.admit(t, 11).is_ok());
        assert_eq!(f.high(), 12, "only raised");
        assert!(f.admit(t, 25).is_err());
        assert!(f.admit(t, 5).is_err());
        assert_eq!(f.high(), 12, "units outside the window are not recorded");
        f.close();
        assert!(f.admit(t, 13).is_err());
        assert_eq!(unit_of_millis(millis_after_unit(12)), 13);
        assert_eq!(unit_of_millis(millis_after_unit(12) - 1), 12);
    }

    #[test]
    fn millis_to_units() {
        assert_eq!(unit_of_millis(0), 0);
        assert_eq!(unit_of_millis(1_262_304_000_000), 0);
        assert_eq!(unit_of_millis(1_262_304_000_004), 1);
        assert_eq!(unit_of_millis(1_262_304_000_007), 1);
        assert_eq!(unit_of_millis(i64::MAX), sno_core::time::MAX_TIMESTAMP + 1);
    }
}
