//! The process-wide sno generator, configured by the environment (zero code).
//!
//! | variables | generator |
//! |-----------|-----------|
//! | neither `SNO_PARTITION` nor `SNO_LEASE_URL` | a random default partition (as `sno_core::new`) |
//! | `SNO_PARTITION=<0..=65535>` | that partition (a `fork()` child refuses: see below) |
//! | `SNO_LEASE_URL=postgres://…` or `redis://…` | a leased partition (`SNO_LEASE_NAMESPACE`, `SNO_LEASE_TTL`, `SNO_LEASE_PARTITIONS`) |
//! | both | [`sno_core::Error::InvalidEnvironment`]: one of them must go |
//!
//! With `SNO_LEASE_URL` set, a generator on a partition of the caller's choosing is refused too
//! ([`check_explicit_partition`]): it could be a partition another process holds by lease.
//!
//! The environment is read on first use; an invalid value is an error then (and at every
//! later use), never ignored: so is a `SNO_LEASE_*` variable without `SNO_LEASE_URL`, or an
//! unknown one (`SNO_LEASE_URI`). After `fork()`, a leased process generator leases a partition of
//! its own in the child on first use (gunicorn and uWSGI workers each get one); the parent's
//! lease stays the parent's. A fixed `SNO_PARTITION` cannot be shared by two processes, so in a
//! child it refuses with [`sno_core::Error::Forked`].

use core::sync::atomic::{AtomicPtr, Ordering};
use core::time::Duration;
use std::sync::Mutex;

use sno_core::{Generator, Id, SystemClock};

use crate::error::Error;
use crate::generator::LeasedGenerator;
use crate::lease::Lease;
use crate::mint::Mint;
use crate::options::{LEASE_VARIABLES, LeaseOptions, check_lease_variables, env_text};

/// The process-wide generator: fixed or default partition, or leased.
#[derive(Debug, Clone, Copy)]
pub enum ProcessGenerator {
    /// `SNO_PARTITION`, or a default partition: the core's process-wide generator.
    Fixed(&'static Generator<SystemClock>),
    /// `SNO_LEASE_URL`: a leased partition (the lease lives as long as the process).
    Leased(&'static LeasedGenerator),
}

crate::mint::mint_either!(ProcessGenerator, Fixed, Leased);

impl ProcessGenerator {
    /// See [`LeasedGenerator::try_next`] and [`Generator::try_next`].
    #[inline]
    pub fn try_next(&self, meta: u8) -> Result<Id, sno_core::Error> {
        Mint::try_next(self, meta)
    }

    /// See [`LeasedGenerator::next`] and [`Generator::next`].
    pub fn next(&self, meta: u8) -> Result<Id, sno_core::Error> {
        match self {
            ProcessGenerator::Fixed(g) => g.next(meta),
            ProcessGenerator::Leased(g) => g.next(meta),
        }
    }

    /// Whether waiting can end `err` (see [`LeasedGenerator::can_wait`]).
    pub fn can_wait(&self, err: &sno_core::Error) -> bool {
        Mint::can_wait(self, err)
    }

    /// One sleep of at most `at_most` towards the end of `err` (see
    /// [`LeasedGenerator::wait_step`]; an error waiting cannot end returns at once).
    pub fn wait_step(&self, err: &sno_core::Error, at_most: Duration) {
        Mint::wait_step(self, err, at_most)
    }

    /// The fencing token of the lease's current grant (0 for a fixed partition).
    pub fn token(&self) -> u64 {
        Mint::token(self)
    }

    /// Whether a wait loop that gave up with `err` starts again with a whole maximum wait (see
    /// [`LeasedGenerator::waits_again`]; never for a fixed partition).
    pub fn waits_again(&self, token_before: u64, err: &sno_core::Error) -> bool {
        Mint::waits_again(self, token_before, err)
    }

    /// The longest [`next`](Self::next) sleeps in all.
    pub fn max_wait(&self) -> Duration {
        Mint::max_wait(self)
    }

    /// The partition stamped into IDs now.
    pub fn partition(&self) -> u16 {
        match self {
            ProcessGenerator::Fixed(g) => g.partition(),
            ProcessGenerator::Leased(g) => g.partition(),
        }
    }

    /// The process lease, when `SNO_LEASE_URL` configured one.
    pub fn lease(&self) -> Option<&'static Lease> {
        match self {
            ProcessGenerator::Fixed(_) => None,
            ProcessGenerator::Leased(_) => current().ready().and_then(|p| p.lease),
        }
    }
}

/// The process-wide generator, built from the environment on first use (in this process: a
/// `fork()` child builds its own). Transient failures (store unreachable, namespace full) are
/// not remembered: the next call tries again.
///
/// ```
/// // Neither SNO_PARTITION nor SNO_LEASE_URL is set in this doctest's environment.
/// let g = sno_lease::process_generator()?;
/// assert!(matches!(g, sno_lease::ProcessGenerator::Fixed(_)));
/// # Ok::<(), sno_lease::Error>(())
/// ```
pub fn process_generator() -> Result<ProcessGenerator, Error> {
    let slot = current();
    if let Some(p) = slot.ready() {
        return Ok(p.generator);
    }
    let _guard = slot.init.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = slot.ready() {
        return Ok(p.generator);
    }
    let built: &'static Process = Box::leak(Box::new(build()?));
    slot.ready
        .store(core::ptr::from_ref(built).cast_mut(), Ordering::Release);
    Ok(built.generator)
}

/// A new ID from the [process-wide generator](process_generator), sleeping within its
/// maximum wait when this 4 ms unit is used up or the lease is being renewed.
///
/// ```
/// let id = sno_lease::try_new(0)?;
/// assert_eq!(id.meta(), 0);
/// # Ok::<(), sno_lease::Error>(())
/// ```
pub fn try_new(meta: u8) -> Result<Id, Error> {
    Ok(process_generator()?.next(meta)?)
}

/// Releases the process-wide lease, if `SNO_LEASE_URL` configured one and this process (not a
/// `fork()` parent) acquired it: its partition can be granted again at once, for IDs after this
/// process's (a process that ends without it frees its partition one TTL later). Call it when
/// the process ends normally; the C, Python and Node libraries and the `sno` CLI do. A later
/// call of the process-wide generator leases anew. Returns within the lease's timeout (10 s by
/// default) even when the store does not answer. Returns whether a lease was released.
///
/// ```
/// // No SNO_LEASE_URL in this doctest's environment: nothing to release.
/// assert!(!sno_lease::release_process_lease());
/// ```
pub fn release_process_lease() -> bool {
    let slot = current();
    let _guard = slot.init.lock().unwrap_or_else(|p| p.into_inner());
    let taken = slot.ready.swap(core::ptr::null_mut(), Ordering::AcqRel);
    // SAFETY: `ready` held null or a pointer from `Box::leak` in `process_generator`, never freed
    // (callers that loaded it before the swap keep using it: it stays valid, and refuses once
    // closed).
    let Some(process) = (unsafe { taken.as_ref() }) else {
        return false;
    };
    match process.lease {
        Some(lease) => {
            lease.close();
            // Kept reachable (callers may still hold its generator, which refuses now): leak
            // checkers see a live allocation, not a lost one.
            RELEASED
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(process);
            true
        }
        None => {
            // Nothing to release: put the fixed generator back.
            slot.ready.store(taken, Ordering::Release);
            false
        }
    }
}

/// Checks that this process may mint sno IDs on a partition of its caller's choosing: an
/// explicit partition, a restored snapshot's partition, or a new one given to a generator
/// (`repartition`). Not while `SNO_LEASE_URL` is set (whatever its value): the process is then
/// one of a fleet whose partitions are leased, and a partition chosen by hand may be one that
/// another process holds by lease, which would mint the same IDs (nothing can tell, since the
/// other holder's lease is not this process's). The refusal is
/// [`sno_core::Error::InvalidEnvironment`] naming `SNO_LEASE_URL`, as for `SNO_PARTITION` beside
/// it; it reads only the environment (no store is asked).
///
/// The `sno` CLI (`sno new --partition`) and the C, Python and Node generators with a partition
/// of the caller's call it before they build one; the core's
/// [`Generator::builder`](sno_core::Generator::builder), which every generator is made of (a
/// lease's too), does not read the environment. A Rust program that takes a partition from its
/// users calls it too; a generator with a default partition, or a lease's, needs no check.
///
/// ```
/// // SNO_LEASE_URL is not set in this doctest's environment: a fixed partition may be used.
/// sno_lease::check_explicit_partition()?;
/// let g = sno_core::Generator::builder().partition(5).build()?;
/// assert_eq!(g.partition(), 5);
/// # Ok::<(), sno_core::Error>(())
/// ```
pub fn check_explicit_partition() -> Result<(), sno_core::Error> {
    match std::env::var_os("SNO_LEASE_URL") {
        None => Ok(()),
        Some(_) => Err(sno_core::Error::InvalidEnvironment {
            variable: "SNO_LEASE_URL",
            reason: "set beside a partition chosen by hand, which another process of the fleet \
                     may hold by lease (both would mint the same IDs): leave the partition out \
                     to mint on a leased one, or unset SNO_LEASE_URL",
        }),
    }
}

/// Process generators whose lease was released: never freed (a caller may still use one).
static RELEASED: Mutex<Vec<&'static Process>> = Mutex::new(Vec::new());

struct Process {
    generator: ProcessGenerator,
    lease: Option<&'static Lease>,
}

fn build() -> Result<Process, Error> {
    check_lease_variables()?;
    let url = env_text("SNO_LEASE_URL")?;
    let fixed = sno_core::partition_from_env()?;
    if url.is_none()
        && let Some(other) = LEASE_VARIABLES
            .iter()
            .find(|v| std::env::var_os(v).is_some())
    {
        return Err(Error::InvalidOptions {
            detail: format!(
                "{other} is set but SNO_LEASE_URL is not: set it to lease a partition, or unset {other}"
            ),
        });
    }
    match (url, fixed) {
        (Some(_), Some(_)) => Err(Error::Id(sno_core::Error::InvalidEnvironment {
            variable: "SNO_LEASE_URL",
            reason: "set together with SNO_PARTITION: fix the partition or lease one, not both",
        })),
        (Some(url), None) => {
            let options = LeaseOptions::from_env()?;
            // The clock `SNO_CLOCK` names, as for the unleased process-wide generator (checked
            // before a partition is taken).
            let clock = sno_core::SystemClock::process_wide()?;
            // The process lease lives as long as the process: its grant lapses after the TTL
            // once the process is gone.
            let lease: &'static Lease = Box::leak(Box::new(Lease::acquire(&url, &options)?));
            let builder = sno_core::Generator::builder().clock(clock);
            let generator: &'static LeasedGenerator =
                Box::leak(Box::new(lease.generator_with(builder)?));
            Ok(Process {
                generator: ProcessGenerator::Leased(generator),
                lease: Some(lease),
            })
        }
        (None, _) => Ok(Process {
            generator: ProcessGenerator::Fixed(sno_core::try_global_generator()?),
            lease: None,
        }),
    }
}

/// One per fork generation: a child never touches its parent's slot (whose lock may have
/// been held by another thread at the moment of the fork, and whose lease is the parent's).
struct Slot {
    generation: u64,
    ready: AtomicPtr<Process>,
    init: Mutex<()>,
}

impl Slot {
    fn ready(&self) -> Option<&'static Process> {
        let p = self.ready.load(Ordering::Acquire);
        // SAFETY: `ready` is null or a pointer from `Box::leak` in `process_generator`, never
        // freed: a valid `&'static Process`.
        unsafe { p.as_ref() }
    }
}

static SLOT: AtomicPtr<Slot> = AtomicPtr::new(core::ptr::null_mut());

fn current() -> &'static Slot {
    // Before the first lease exists no generator may have registered the fork handler: without
    // it a child forked during the first acquisition would share this slot (and its held lock).
    sno_core::rng::watch_forks();
    let generation = sno_core::rng::fork_generation();
    loop {
        let seen = SLOT.load(Ordering::Acquire);
        // SAFETY: `SLOT` is null or a pointer from `Box::into_raw` below that was published by a
        // successful compare-exchange and is never freed.
        if let Some(slot) = unsafe { seen.as_ref() }
            && slot.generation == generation
        {
            return slot;
        }
        let fresh_ptr = Box::into_raw(Box::new(Slot {
            generation,
            ready: AtomicPtr::new(core::ptr::null_mut()),
            init: Mutex::new(()),
        }));
        match SLOT.compare_exchange(seen, fresh_ptr, Ordering::AcqRel, Ordering::Acquire) {
            // SAFETY: published just now and never freed: valid for the rest of the process.
            Ok(_) => return unsafe { &*fresh_ptr },
            Err(_) => {
                // SAFETY: `fresh_ptr` came from `Box::into_raw` just above and was never published
                // (the exchange failed), so this is its only owner.
                drop(unsafe { Box::from_raw(fresh_ptr) });
            }
        }
    }
}
