//! The self-fencing generator of a lease.

use core::time::Duration;
use std::sync::Arc;

use sno_core::{Error, Generator, Id, SystemClock};

use crate::fence::Refusal;
use crate::shared::Shared;

/// What [`LeasedGenerator::max_wait`] adds to the TTL: a renewal's retry interval (at most a
/// second) and a second for the clocks of the store and the holder to disagree.
const LEASE_WAIT_SLACK: Duration = Duration::from_secs(2);

/// A sno generator that mints only inside its lease: the partition is the leased one, and an
/// ID whose time lies outside the grant's window is never returned (see the
/// [crate's safety argument](crate)). Made by [`Lease::generator`](crate::Lease::generator).
///
/// The hot path is the plain generator's plus a sequence-lock check of the window: a few
/// loads, no lock, no call to the store (renewal runs on the lease's own thread).
#[derive(Debug, Clone)]
pub struct LeasedGenerator {
    shared: Arc<Shared>,
    generator: Arc<Generator<SystemClock>>,
}

impl LeasedGenerator {
    pub(crate) fn new(shared: Arc<Shared>, generator: Arc<Generator<SystemClock>>) -> Self {
        LeasedGenerator { shared, generator }
    }

    /// The next ID, or an error at once: the plain generator's errors
    /// ([`Error::SequenceExhausted`], [`Error::ClockRegression`], …), plus
    /// [`Error::LeaseExpired`] when the ID would lie at or past the window's end (renewals
    /// failing, lease closed) and [`Error::LeasePending`] when it would lie before the window's
    /// start (a grant after a restart or failover of the store, whose window opens one TTL
    /// after it; a partition whose previous holder stamped up to a time the clock has not
    /// reached). Never blocks.
    #[inline]
    pub fn try_next(&self, meta: u8) -> Result<Id, Error> {
        let fence = &self.shared.fence;
        let ticket = fence.ticket();
        let minted = self.generator.try_next(meta);
        // The result is returned as it came (no re-wrapping of the ID: the copy would cost a
        // store-forwarding stall per call).
        if let Ok(id) = &minted
            && let Err(refusal) = fence.admit(ticket, id.timestamp())
        {
            return Err(self.refused(refusal));
        }
        minted
    }

    #[cold]
    fn refused(&self, refusal: Refusal) -> Error {
        match refusal {
            Refusal::Expired => Error::LeaseExpired {
                partition: self.shared.partition(),
            },
            Refusal::TooEarly(from) => Error::LeasePending {
                partition: self.shared.partition(),
                retry_at: from,
            },
        }
    }

    /// The next ID; sleeps (never spins) while a retry can succeed: until the next 4 ms unit,
    /// the end of a regression, the start of a new grant's window, or a renewal or new grant of
    /// the lease, for at most [`max_wait`](Self::max_wait) in all (by default at least one TTL
    /// and two seconds). Then returns the last error.
    ///
    /// With the default maximum wait, a new grant that arrives during the wait (the store
    /// answers again after a restart, an outage or a failover) gets a whole maximum wait of its
    /// own: its window opens at most one TTL after the grant, however long the wait before
    /// it lasted. A store that does not answer within one maximum wait still ends the call
    /// ([`Error::LeaseExpired`]). A maximum wait chosen by the caller
    /// stays a bound on the whole call.
    pub fn next(&self, meta: u8) -> Result<Id, Error> {
        loop {
            let token = self.token();
            match self.next_within_max_wait(meta) {
                Err(e) if self.waits_again(token, &e) => continue,
                result => return result,
            }
        }
    }

    /// Whether a caller's own wait loop that gave up with `err` after its maximum wait starts
    /// again with a whole maximum wait, as [`next`](Self::next) does: the maximum wait is the
    /// default, waiting can end `err`, and the lease has a new grant since the loop began
    /// (`token_before`, [`token`](Self::token) read before the first attempt).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use sno_lease::{Lease, LeaseOptions};
    /// let lease = Lease::acquire("redis://127.0.0.1:6379/0", &LeaseOptions::new("orders"))?;
    /// let generator = lease.generator()?;
    /// let id = loop {
    ///     let token = generator.token();
    ///     // A wait loop of the caller's own: try_next, then wait_step while can_wait, for at
    ///     // most generator.max_wait() in all; its last result:
    ///     match generator.try_next(0) {
    ///         Err(e) if generator.waits_again(token, &e) => continue,
    ///         result => break result?,
    ///     }
    /// };
    /// # let _ = id;
    /// # Ok(())
    /// # }
    /// ```
    pub fn waits_again(&self, token_before: u64, err: &Error) -> bool {
        self.generator.max_wait() == sno_core::time::DEFAULT_MAX_WAIT
            && self.token() != token_before
            && self.can_wait(err)
    }

    /// [`next`](Self::next)'s wait for one maximum wait.
    fn next_within_max_wait(&self, meta: u8) -> Result<Id, Error> {
        // The core's wait policy (`sno_core::wait`), with the lease's renewal as one more thing
        // worth waiting for. The change count is read before each attempt: a renewal landing
        // between a refusal and the wait must end the wait, not be waited past.
        let seen = core::cell::Cell::new(self.shared.version());
        let waited = sno_core::wait::retry(
            self.max_wait(),
            SystemClock::precise_unix_ns,
            |e| self.can_wait(e),
            || {
                seen.set(self.shared.version());
                self.try_next(meta)
            },
            |pause| -> Result<(), core::convert::Infallible> {
                match *pause.error {
                    Error::SequenceExhausted { retry_at } | Error::ClockRegression { retry_at } => {
                        self.generator.wait_step(retry_at, pause.budget)
                    }
                    Error::LeaseExpired { .. } => {
                        self.shared.wait_for_change_since(seen.get(), pause.budget)
                    }
                    // Until the window opens, or sooner if the lease changes meanwhile.
                    Error::LeasePending { .. } => self
                        .shared
                        .wait_for_change_since(seen.get(), pause.length()),
                    _ => {}
                }
                Ok(())
            },
        );
        match waited {
            Ok(result) => result,
            Err(never) => match never {},
        }
    }

    /// Whether waiting can end `err`: a used-up unit or a regression (within the range), an
    /// expired lease (a renewal may come) or a window that opens later, while the lease is
    /// open.
    pub fn can_wait(&self, err: &Error) -> bool {
        match err {
            Error::LeaseExpired { .. } | Error::LeasePending { .. } => !self.shared.is_closed(),
            _ => self.generator.can_wait(err),
        }
    }

    /// One sleep of a caller's own wait loop ([`next`](Self::next) is one), for at most
    /// `at_most`: until the unit an error names, or until the lease changes (renewal, new
    /// grant, close) for [`Error::LeaseExpired`], whichever comes first for
    /// [`Error::LeasePending`]. Bindings that must stay responsive call it with a short
    /// `at_most`.
    pub fn wait_step(&self, err: &Error, at_most: Duration) {
        match *err {
            Error::SequenceExhausted { retry_at } | Error::ClockRegression { retry_at } => {
                self.generator.wait_step(retry_at, at_most)
            }
            Error::LeasePending { .. } => {
                let now = SystemClock::precise_unix_ns();
                let until = err.retry_at_unix_ns().map_or(at_most, |at| {
                    Duration::from_nanos(at.saturating_sub(now).max(0) as u64)
                });
                self.shared.wait_for_change(until.min(at_most));
            }
            _ => self.shared.wait_for_change(at_most),
        }
    }

    /// The partition stamped into IDs now (it changes if the lease is lost and replaced).
    pub fn partition(&self) -> u16 {
        self.generator.partition()
    }

    /// The fencing token of the current grant.
    pub fn token(&self) -> u64 {
        self.shared.token()
    }

    /// The generator's statistics (overflows, waits, regressions).
    pub fn stats(&self) -> sno_core::Stats {
        self.generator.stats()
    }

    /// The lower sequence bound.
    pub fn sequence_min(&self) -> u16 {
        self.generator.sequence_min()
    }

    /// The upper sequence bound.
    pub fn sequence_max(&self) -> u16 {
        self.generator.sequence_max()
    }

    /// IDs per 4 ms unit (`sequence_max − sequence_min + 1`).
    pub fn capacity(&self) -> u32 {
        self.generator.capacity()
    }

    /// Whether the lease was closed: the generator refuses for good. A refusal caused by the
    /// close is never seen before this turns true, so a minting loop can stop on
    /// `Err(_) if is_closed()`.
    pub fn is_closed(&self) -> bool {
        self.shared.is_closed()
    }

    /// The longest [`next`](Self::next) sleeps in all: the generator's maximum wait, or, where
    /// that was left at the default ([`DEFAULT_MAX_WAIT`](sno_core::time::DEFAULT_MAX_WAIT),
    /// 5 s: a builder without `max_wait`, a binding without `max_wait_ms`), the larger of it and
    /// one TTL plus two seconds. After a restart or failover of the store, the first grant's
    /// window opens one TTL after the store answered again (a renewal notices the change within
    /// a second), and `next` waits for it, so a holder with the default keeps minting at any
    /// TTL. A maximum wait chosen by the caller is kept as it is (exactly 5 s counts as the
    /// default); its `next` may then give up with [`Error::LeasePending`], whose retry time says
    /// when the window opens.
    pub fn max_wait(&self) -> Duration {
        let chosen = self.generator.max_wait();
        if chosen == sno_core::time::DEFAULT_MAX_WAIT {
            chosen.max(self.shared.options.ttl + LEASE_WAIT_SLACK)
        } else {
            chosen
        }
    }
}
