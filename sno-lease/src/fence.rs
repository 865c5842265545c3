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
//! `born + TTL − margin`; grants made in the first TTL after `born` start their window at
//! `born + TTL` (invariant 3 as stated).
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

/// The window of one grant in sno units, guarded by a sequence lock. On a line of its own, away
/// from the lease's mutex that the renewal thread writes.
#[derive(Debug)]
#[repr(align(128))]
pub(crate) struct Fence {
    epoch: AtomicU64,
    /// First unit a grant may stamp.
    from: AtomicU64,
    /// First unit a grant may not stamp (0 when closed).
    before: AtomicU64,
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
        fence(Ordering::Acquire);
        if self.epoch.load(Ordering::Relaxed) != ticket.0 || ticket.0 & 1 == 1 {
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

    /// Raises the window's end (a renewal of the current grant).
    pub(crate) fn extend(&self, before: u64) {
        self.before.fetch_max(before, Ordering::Release);
    }

    /// Installs a new window; `apply` runs inside the write section (the partition switch).
    pub(crate) fn switch(&self, from: u64, before: u64, apply: impl FnOnce()) {
        let e = self.epoch.load(Ordering::Relaxed);
        self.epoch.store(e.wrapping_add(1), Ordering::Relaxed);
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
    sno_core::time::unix_nanos_to_units(nanos).unwrap_or(sno_core::time::MAX_TIMESTAMP + 1)
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
    fn millis_to_units() {
        assert_eq!(unit_of_millis(0), 0);
        assert_eq!(unit_of_millis(1_262_304_000_000), 0);
        assert_eq!(unit_of_millis(1_262_304_000_004), 1);
        assert_eq!(unit_of_millis(1_262_304_000_007), 1);
        assert_eq!(unit_of_millis(i64::MAX), sno_core::time::MAX_TIMESTAMP + 1);
    }
}
