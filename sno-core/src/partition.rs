//! Default partitions (`std`, and `web` builds without it): the pool every generator without an
//! explicit partition draws from, its fork handling, and `SNO_PARTITION`
//! ([`partition_from_env`]; `std`).
//!
//! The Go original seeds them from the start-up time, so two processes started 262.144 s apart
//! collide. Here the process draws a 16-bit seed from the operating system's entropy once; the
//! global generator takes `seed` and each default-configured [`Generator`](crate::Generator)
//! takes `seed + 1`, `seed + 2`, … (65 536 in all). Two processes still pick the same seed with
//! probability 1/65 536 per pair (birthday bound: about 1 % for 37 processes generating in the
//! same 4 ms unit), so deployments with many processes should assign explicit partitions.
//!
//! Fork safety: a child hook (`fork`'s `Partition` stage) draws a new seed in the child
//! (different from the parent's whole default range where possible), so a child never repeats
//! the parent's partitions; the global generator's hook, at the next stage, gives it the new seed.

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crate::entropy::entropy;
use crate::error::Error;

/// Bit 16 marks the seed as drawn; bits 0..16 hold it.
static SEED: AtomicU32 = AtomicU32::new(0);
const SEEDED: u32 = 1 << 16;
/// Default partitions handed out so far (the global generator counts as one).
static HANDED_OUT: AtomicU64 = AtomicU64::new(0);

/// The process's seed, drawn on first use.
pub(crate) fn seed() -> u16 {
    let s = SEED.load(Ordering::Acquire);
    if s & SEEDED != 0 {
        return s as u16;
    }
    #[cfg(feature = "std")]
    register_fork_handler();
    let fresh = SEEDED | (entropy() as u16 as u32);
    match SEED.compare_exchange(0, fresh, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => fresh as u16,
        Err(winner) => winner as u16,
    }
}

/// The seed, if one was drawn (in a `fork()` child, after this module's handler ran: the
/// child's own). Only the fork handler asks (with `std`: not in the `web` build).
#[cfg(feature = "std")]
pub(crate) fn drawn_seed() -> Option<u16> {
    let s = SEED.load(Ordering::Relaxed);
    (s & SEEDED != 0).then_some(s as u16)
}

/// The next default partition of this process.
pub(crate) fn default_partition() -> Result<u16, Error> {
    let seed = seed();
    let n = HANDED_OUT.fetch_add(1, Ordering::AcqRel);
    if n > u64::from(u16::MAX) {
        return Err(Error::PartitionPoolExhausted);
    }
    Ok(seed.wrapping_add(n as u16))
}

/// The partition that `SNO_PARTITION` fixes for process-wide generators: `Ok(None)` when the
/// variable is unset, the number when it holds a decimal `0 ..= 65535` (surrounding blanks
/// allowed), and [`Error::InvalidEnvironment`] for anything else, an empty value included:
/// a deployment setting is never silently ignored.
///
/// ```
/// // Unset in this doctest's environment.
/// assert_eq!(sno_core::partition_from_env(), Ok(None));
/// ```
#[cfg(feature = "std")]
pub fn partition_from_env() -> Result<Option<u16>, Error> {
    const VARIABLE: &str = "SNO_PARTITION";
    let Some(value) = std::env::var_os(VARIABLE) else {
        return Ok(None);
    };
    let invalid = Error::InvalidEnvironment {
        variable: VARIABLE,
        reason: "expected a partition number 0 ..= 65535",
    };
    let text = value.to_str().ok_or(invalid)?.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid);
    }
    text.parse::<u16>().map(Some).map_err(|_| invalid)
}

/// Installs this module's child hook (the crate's fork handler runs it after bumping the
/// generation, before the global generator's).
#[cfg(feature = "std")]
fn register_fork_handler() {
    crate::fork::on_fork_in_child(crate::fork::ChildHook::Partition, after_fork_in_child);
}

/// Runs in the child right after `fork()` (the fork handler's `Partition` stage),
/// single-threaded: atomics and a syscall only.
#[cfg(feature = "std")]
fn after_fork_in_child() {
    let old = SEED.load(Ordering::Relaxed);
    if old & SEEDED == 0 {
        return; // nothing handed out yet: the child will draw its own seed
    }
    let old = old as u16;
    let used = HANDED_OUT.load(Ordering::Relaxed).min(65_536) as u32;
    let mut fresh = entropy() as u16;
    // Avoid the parent's range [old, old + used) where there is room to.
    let mut tries = 0;
    while (u32::from(fresh.wrapping_sub(old))) < used.max(1) && tries < 64 {
        fresh = entropy() as u16;
        tries += 1;
    }
    if fresh == old {
        fresh = old.wrapping_add(used.max(1) as u16);
    }
    SEED.store(SEEDED | u32::from(fresh), Ordering::Relaxed);
    HANDED_OUT.store(1, Ordering::Relaxed);
}
