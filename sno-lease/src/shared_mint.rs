//! A lease's generator in memory that processes share: one process holds the lease
//! ([`Lease::acquire_shared`](crate::Lease::acquire_shared)), and every process that maps the
//! memory mints under it with no lock, no thread and no connection of its own. PostgreSQL's
//! `sno` extension puts one in its shared memory: its background worker holds the server's
//! lease, and every backend mints from it.
//!
//! The fence rules of `src/fence.rs` hold across the processes unchanged: the fence's words
//! and the generator's state word are atomics in the shared memory, which every process reads
//! and writes with the same instructions threads would use (`fetch_add`, `fetch_max`,
//! `SeqCst` loads and stores on lock-free 64-bit atomics), so the argument's total order `S`
//! and its sequence lock are the same for processes as for threads. The lease's holder closes
//! the fence before it reads the highest unit any process admitted, and releases past it
//! ("Releasing"): a backend that minted an ID is counted whichever process it is.

use core::sync::atomic::{AtomicBool, Ordering};

use sno_core::{Error, Generator, Id, SystemClock};

use crate::fence::{Fence, Refusal};

/// A fence and a process-shared sno generator, for memory that processes share (see the
/// [module documentation](self)). Made once, before any process mints, then never moved;
/// until a lease drives it every call is refused with [`Error::LeaseExpired`].
///
/// ```
/// use sno_lease::SharedMint;
/// // In a real deployment this value is moved into shared memory (PostgreSQL's), and a lease
/// // drives it: `Lease::acquire_shared(url, &options, mint)`.
/// let mint = SharedMint::new()?;
/// assert_eq!(mint.try_next(0).unwrap_err().code(), "lease_expired");
/// assert!(!mint.is_leased());
/// # Ok::<(), sno_lease::Error>(())
/// ```
#[derive(Debug)]
pub struct SharedMint {
    pub(crate) fence: Fence,
    pub(crate) generator: Generator<SystemClock>,
    /// Whether a lease drives the mint now: set by `Lease::acquire_shared`, cleared by its close.
    pub(crate) leased: AtomicBool,
}

impl SharedMint {
    /// A mint on the precise system clock (the clock every process reads alike), with the full
    /// sequence range, that refuses until a lease drives it.
    pub fn new() -> Result<SharedMint, crate::Error> {
        let generator = Generator::builder().partition(0).process_shared().build()?;
        Ok(SharedMint {
            fence: Fence::new(),
            generator,
            leased: AtomicBool::new(false),
        })
    }

    /// The next ID under the lease that drives the mint, or an error at once: the generator's
    /// ([`Error::SequenceExhausted`], [`Error::ClockRegression`], …), [`Error::LeaseExpired`]
    /// past the window's end (no lease yet, renewals failing, or the lease closed) and
    /// [`Error::LeasePending`] before its start. Never blocks; callers wait in their own way
    /// (a PostgreSQL backend on its latch) and try again.
    #[inline]
    pub fn try_next(&self, meta: u8) -> Result<Id, Error> {
        let ticket = self.fence.ticket();
        let minted = self.generator.try_next(meta);
        if let Ok(id) = &minted
            && let Err(refusal) = self.fence.admit(ticket, id.timestamp())
        {
            return Err(match refusal {
                Refusal::Expired => Error::LeaseExpired {
                    partition: self.partition(),
                },
                Refusal::TooEarly(from) => Error::LeasePending {
                    partition: self.partition(),
                    retry_at: from,
                },
            });
        }
        minted
    }

    /// The partition IDs are stamped with now.
    pub fn partition(&self) -> u16 {
        self.generator.partition()
    }

    /// Whether a lease drives the mint now (one is acquired and not closed).
    pub fn is_leased(&self) -> bool {
        self.leased.load(Ordering::Acquire)
    }

    /// The generator's statistics (overflows, waits, regressions).
    pub fn stats(&self) -> sno_core::Stats {
        self.generator.stats()
    }
}
