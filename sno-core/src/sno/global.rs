//! The process-wide sno generator behind [`new`] and [`try_new`] (`std`).
//!
//! Its partition: the one `SNO_PARTITION` fixes, else a default one (`partition`). Fork safety:
//! in a `fork()` child its hook (`fork`'s `GlobalGenerator` stage, after the generation and
//! `partition`'s new seed) gives the global generator the child's new default seed as its
//! partition, so a child never repeats the parent's IDs.

use std::sync::OnceLock;

use crate::clock::SystemClock;
use crate::error::Error;
use crate::partition::{partition_from_env, seed};
use crate::sno::generator::Generator;
use crate::sno::id::Id;

static GLOBAL: OnceLock<Result<Generator<SystemClock>, Error>> = OnceLock::new();

fn build_global() -> Result<Generator<SystemClock>, Error> {
    let global = configure_global();
    // The hooks run in `fork::ChildHook`'s order whatever the order they were installed in.
    register_fork_handler();
    global
}

fn configure_global() -> Result<Generator<SystemClock>, Error> {
    if std::env::var_os("SNO_LEASE_URL").is_some() {
        return Err(Error::InvalidEnvironment {
            variable: "SNO_LEASE_URL",
            reason: "sno_core's process-wide generator cannot lease a partition: use sno_lease::try_new (the C, Python and Node libraries do)",
        });
    }
    let clock = SystemClock::process_wide()?;
    let builder = || Generator::builder().clock(clock);
    if let Some(partition) = partition_from_env()? {
        return builder().partition(partition).build();
    }
    // A default partition; past 65 536 of them, the seed itself (the fork handler below
    // repartitions the global generator either way).
    match builder().build() {
        Ok(g) => Ok(g),
        Err(_) => builder().partition(seed()).build(),
    }
}

/// The process-wide generator behind [`new`] and [`try_new`]: the system clock `SNO_CLOCK`
/// names ([`SystemClock::from_env`]: the precise one unless it says `fast`), the full sequence
/// range, and the partition `SNO_PARTITION` fixes ([`partition_from_env`]), else a default one.
/// The environment is read once, on first use. Leasing (`SNO_LEASE_URL`) needs the `sno-lease`
/// crate's process-wide generator; here it is an error.
///
/// A fixed partition follows the fork rule of explicit partitions: in a `fork()` child the
/// generator refuses with [`Error::Forked`] (two processes would share the partition).
///
/// ```
/// let g = sno_core::try_global_generator()?;
/// assert!(g.try_next(0).is_ok());
/// # Ok::<(), sno_core::Error>(())
/// ```
pub fn try_global_generator() -> Result<&'static Generator<SystemClock>, Error> {
    GLOBAL.get_or_init(build_global).as_ref().map_err(|e| *e)
}

/// [`try_global_generator`], for callers that treat a bad environment as a bug.
///
/// # Panics
///
/// If `SNO_PARTITION` or `SNO_CLOCK` holds an invalid value, or `SNO_LEASE_URL` is set.
pub fn global_generator() -> &'static Generator<SystemClock> {
    match try_global_generator() {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    }
}

/// A new ID from the global generator; sleeps (never spins) if this 4 ms unit's 65 536 IDs are
/// used up or the clock went back into a used period.
///
/// # Panics
///
/// If the system clock reads a time before 2010 or after 2079-09-07, or went back more than
/// [`DEFAULT_MAX_WAIT`](crate::time::DEFAULT_MAX_WAIT) into a period used by both
/// timelines, or the environment is invalid ([`try_global_generator`]); use [`try_new`] to get
/// these as errors.
///
/// ```
/// let a = sno_core::new(0);
/// let b = sno_core::new(0);
/// assert!(a < b);
/// ```
pub fn new(meta: u8) -> Id {
    match try_new(meta) {
        Ok(id) => id,
        Err(e) => panic!("{e}"),
    }
}

/// A new ID from the global generator, like [`new`] (sleeping, within the maximum wait, when
/// this 4 ms unit is used up), but with every error returned instead of a panic.
///
/// ```
/// let id = sno_core::try_new(3)?;
/// assert_eq!(id.meta(), 3);
/// # Ok::<(), sno_core::Error>(())
/// ```
pub fn try_new(meta: u8) -> Result<Id, Error> {
    // Straight from the cell: no intermediate Result<&Generator, Error> on the hot path.
    match GLOBAL.get_or_init(build_global) {
        Ok(g) => g.next(meta),
        Err(e) => Err(*e),
    }
}

fn register_fork_handler() {
    crate::fork::on_fork_in_child(crate::fork::ChildHook::GlobalGenerator, after_fork_in_child);
}

/// Runs in the child right after `fork()` (the fork handler's `GlobalGenerator` stage, after
/// the generation and the child's seed), single-threaded: atomics only.
fn after_fork_in_child() {
    let Some(fresh) = crate::partition::drawn_seed() else {
        return; // nothing handed out yet: the child will draw its own seed
    };
    // A partition fixed by SNO_PARTITION stays: the child refuses with `Forked`.
    if let Some(Ok(g)) = GLOBAL.get()
        && !g.has_explicit_partition()
    {
        g.repartition(fresh);
    }
}
