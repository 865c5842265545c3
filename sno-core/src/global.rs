//! The process-wide generator, default partitions and fork safety (`std`).
//!
//! Default partitions: the Go original seeds them from the start-up time, so two processes
//! started 262.144 s apart collide. Here the process draws a 16-bit seed from the operating
//! system's entropy once; the global generator takes `seed` and each default-configured
//! [`Generator`] takes `seed + 1`, `seed + 2`, … (65 536 in all). Two processes still pick the
//! same seed with probability 1/65 536 per pair (birthday bound: about 1 % for 37 processes
//! generating in the same 4 ms unit), so deployments with many processes should assign explicit
//! partitions.
//!
//! Fork safety: a `pthread_atfork` child handler draws a new seed in the child (different from
//! the parent's whole default range where possible) and gives the global generator the new
//! partition, so a child never repeats the parent's IDs.

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Once, OnceLock};

use crate::clock::SystemClock;
use crate::error::Error;
use crate::generator::Generator;
use crate::id::Id;

/// Bit 16 marks the seed as drawn; bits 0..16 hold it.
static SEED: AtomicU32 = AtomicU32::new(0);
const SEEDED: u32 = 1 << 16;
/// Default partitions handed out so far (the global generator counts as one).
static HANDED_OUT: AtomicU64 = AtomicU64::new(0);
static GLOBAL: OnceLock<Result<Generator<SystemClock>, Error>> = OnceLock::new();
static ATFORK: Once = Once::new();

fn seed() -> u16 {
    let s = SEED.load(Ordering::Acquire);
    if s & SEEDED != 0 {
        return s as u16;
    }
    register_fork_handler();
    let fresh = SEEDED | (entropy() as u16 as u32);
    match SEED.compare_exchange(0, fresh, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => fresh as u16,
        Err(winner) => winner as u16,
    }
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

fn build_global() -> Result<Generator<SystemClock>, Error> {
    if std::env::var_os("SNO_LEASE_URL").is_some() {
        return Err(Error::InvalidEnvironment {
            variable: "SNO_LEASE_URL",
            reason: "sno_core's process-wide generator cannot lease a partition: use sno_lease::try_new (the C, Python and Node libraries do)",
        });
    }
    if let Some(partition) = partition_from_env()? {
        return Generator::builder().partition(partition).build();
    }
    // A default partition; past 65 536 of them, the seed itself (the fork handler below
    // repartitions the global generator either way).
    match Generator::builder().build() {
        Ok(g) => Ok(g),
        Err(_) => Generator::builder().partition(seed()).build(),
    }
}

/// The process-wide generator behind [`new`] and [`try_new`]: system clock, the full sequence
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
/// If `SNO_PARTITION` holds an invalid value or `SNO_LEASE_URL` is set.
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

pub(crate) fn register_fork_handler() {
    #[cfg(unix)]
    ATFORK.call_once(|| {
        // SAFETY: registering a plain `extern "C"` function without prepare/parent hooks; it
        // stays valid for the life of the process.
        unsafe { libc::pthread_atfork(None, None, Some(after_fork_in_child)) };
    });
    #[cfg(not(unix))]
    ATFORK.call_once(|| {});
}

/// Runs in the child right after `fork()`, single-threaded: atomics and a syscall only.
#[cfg(unix)]
extern "C" fn after_fork_in_child() {
    crate::rng::after_fork();
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
    // A partition fixed by SNO_PARTITION stays: the child refuses with `Forked`.
    if let Some(Ok(g)) = GLOBAL.get()
        && !g.has_explicit_partition()
    {
        g.repartition(fresh);
    }
}

/// 64 bits from the operating system, mixed with the pid and time so that a failing source
/// still differs between processes.
fn entropy() -> u64 {
    let mut x: u64 = 0;
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let mut buf = [0u8; 8];
        // SAFETY: `buf` is 8 writable bytes; getrandom writes at most that many.
        let n = unsafe { libc::getrandom(buf.as_mut_ptr().cast(), buf.len(), 0) };
        if n == 8 {
            x = u64::from_ne_bytes(buf);
        }
    }
    x ^= u64::from(std::process::id()).rotate_left(32);
    x ^= SystemClock::precise_unix_nanos() as u64;
    // splitmix64 finaliser
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
