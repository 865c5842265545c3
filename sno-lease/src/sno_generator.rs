//! A sno generator of either kind a binding hands out, plain or leased. The bindings keep only
//! their glue: what a leased generator refuses, and why, is said here once, as
//! [`sno_core::Error::LeasedGenerator`].

use core::time::Duration;

use sno_core::{Error, Generator, GeneratorBuilder, Id, Snapshot, Stats, SystemClock};

use crate::mint::Mint;
use crate::{Lease, LeasedGenerator};

crate::mint::mint_either!(SnoGenerator, Plain, Leased);

/// The refusal of `call` by a leased generator, with the reason.
const fn refused(call: &'static str, reason: &'static str) -> Error {
    Error::LeasedGenerator { call, reason }
}

/// A sno generator as the bindings hand it out: its own partition (given, restored or a
/// default one), or a lease's, fenced to the lease's window. Both mint through one surface;
/// what only a plain generator can do (an ID for a given time, a snapshot, a new partition)
/// is [`Error::LeasedGenerator`] on a leased one, with the reason.
///
/// ```
/// use sno_lease::SnoGenerator;
///
/// let g = SnoGenerator::plain(sno_core::Generator::builder(), Some(7), None)?;
/// assert_eq!(g.next(0)?.partition(), 7);
/// let at = g.next_at_unix_ns(0, 1_700_000_000_000_000_000)?;
/// assert_eq!(at.partition(), 7);
/// let restored = SnoGenerator::plain(sno_core::Generator::builder(), None, Some(g.snapshot()?))?;
/// assert_eq!(restored.partition(), 7);
/// # Ok::<(), sno_core::Error>(())
/// ```
#[allow(
    clippy::large_enum_variant,
    reason = "the plain generator is the hot path: boxing it would add a pointer hop to every ID"
)]
#[derive(Debug)]
pub enum SnoGenerator {
    /// Its own partition (given, restored or a default one).
    Plain(Generator<SystemClock>),
    /// A lease's partition, fenced to the lease's window ([`Lease::generator_with`]).
    Leased(LeasedGenerator),
}

impl SnoGenerator {
    /// A plain generator from `builder`, on `partition` (else the snapshot's, else a default
    /// one) and restored from `snapshot`. A partition or a snapshot while `SNO_LEASE_URL` is set
    /// is [`Error::InvalidEnvironment`] ([`check_explicit_partition`](crate::check_explicit_partition):
    /// another process of the fleet may hold it by lease).
    pub fn plain(
        mut builder: GeneratorBuilder<SystemClock>,
        partition: Option<u16>,
        snapshot: Option<Snapshot>,
    ) -> Result<Self, Error> {
        if partition.is_some() || snapshot.is_some() {
            crate::check_explicit_partition()?;
        }
        if let Some(s) = snapshot {
            builder = builder.snapshot(s);
        }
        if let Some(p) = partition {
            builder = builder.partition(p);
        }
        Ok(SnoGenerator::Plain(builder.build()?))
    }

    /// The generator of `lease` with `builder`'s sequence bounds, maximum wait and clock
    /// ([`Lease::generator_with`]). A partition or a snapshot is refused
    /// ([`Error::LeasedGenerator`]): the partition is the lease's, and a leased generator starts
    /// inside its lease's window, where a saved state from elsewhere could repeat another
    /// holder's IDs.
    pub fn leased(
        lease: &Lease,
        builder: GeneratorBuilder<SystemClock>,
        partition: Option<u16>,
        snapshot: Option<Snapshot>,
    ) -> Result<Self, crate::Error> {
        if partition.is_some() {
            return Err(refused(
                "an explicit partition",
                "it stamps the partition its lease holds; leave the partition out",
            )
            .into());
        }
        if snapshot.is_some() {
            return Err(refused(
                "a snapshot to restore",
                "it starts inside its lease's window, and a saved state from elsewhere could \
                 repeat another holder's IDs; leave the snapshot out",
            )
            .into());
        }
        Ok(SnoGenerator::Leased(lease.generator_with(builder)?))
    }

    /// The next ID, or at once the error that says why not ([`Generator::try_next`],
    /// [`LeasedGenerator::try_next`]).
    #[inline]
    pub fn try_next(&self, meta: u8) -> Result<Id, Error> {
        Mint::try_next(self, meta)
    }

    /// The next ID, sleeping (never spinning) within the maximum wait while a retry can
    /// succeed ([`Generator::next`], [`LeasedGenerator::next`]).
    #[inline]
    pub fn next(&self, meta: u8) -> Result<Id, Error> {
        match self {
            SnoGenerator::Plain(g) => g.next(meta),
            SnoGenerator::Leased(g) => g.next(meta),
        }
    }

    /// The plain generator, or the refusal of `call` by a leased one.
    fn own(
        &self,
        call: &'static str,
        reason: &'static str,
    ) -> Result<&Generator<SystemClock>, Error> {
        match self {
            SnoGenerator::Plain(g) => Ok(g),
            SnoGenerator::Leased(_) => Err(refused(call, reason)),
        }
    }

    /// An ID for the Unix time `unix_ns`, with its own wrapping sequence
    /// ([`Generator::next_at_unix_ns`]). A leased generator refuses: it mints only inside its
    /// lease's window.
    pub fn next_at_unix_ns(&self, meta: u8, unix_ns: i64) -> Result<Id, Error> {
        self.own(
            "an ID for a given time",
            "it mints only inside its lease's window, and an ID for another time could repeat \
             another holder's",
        )?
        .next_at_unix_ns(meta, unix_ns)
    }

    /// The state, to restore with [`plain`](Self::plain). A leased generator refuses: its
    /// lease, not a saved state, keeps its IDs unique.
    pub fn snapshot(&self) -> Result<Snapshot, Error> {
        Ok(self
            .own(
                "a snapshot",
                "its lease, not a saved state, keeps its IDs unique (a new lease starts a new \
                 window)",
            )?
            .snapshot())
    }

    /// Gives the generator `partition` (in a `fork()` child, a generator with an explicit
    /// partition refuses until it has one of its own: [`Generator::repartition`]). Refused
    /// while `SNO_LEASE_URL` is set ([`Error::InvalidEnvironment`]), and by a leased generator,
    /// whose partition is the lease's.
    pub fn repartition(&self, partition: u16) -> Result<(), Error> {
        let g = self.own(
            "a new partition",
            "its partition is the lease's (in a fork() child, lease one for the child)",
        )?;
        crate::check_explicit_partition()?;
        g.repartition(partition);
        Ok(())
    }

    /// The partition stamped into IDs now (a leased generator's follows its lease).
    pub fn partition(&self) -> u16 {
        match self {
            SnoGenerator::Plain(g) => g.partition(),
            SnoGenerator::Leased(g) => g.partition(),
        }
    }

    /// The counters of rare events (overflows, regressions, waits).
    pub fn stats(&self) -> Stats {
        match self {
            SnoGenerator::Plain(g) => g.stats(),
            SnoGenerator::Leased(g) => g.stats(),
        }
    }

    /// The lower sequence bound.
    pub fn sequence_min(&self) -> u16 {
        match self {
            SnoGenerator::Plain(g) => g.sequence_min(),
            SnoGenerator::Leased(g) => g.sequence_min(),
        }
    }

    /// The upper sequence bound.
    pub fn sequence_max(&self) -> u16 {
        match self {
            SnoGenerator::Plain(g) => g.sequence_max(),
            SnoGenerator::Leased(g) => g.sequence_max(),
        }
    }

    /// IDs per 4 ms unit (`sequence_max − sequence_min + 1`).
    pub fn capacity(&self) -> u32 {
        u32::from(self.sequence_max() - self.sequence_min()) + 1
    }

    /// The longest [`next`](Self::next) sleeps in all ([`LeasedGenerator::max_wait`] for a
    /// leased one).
    pub fn max_wait(&self) -> Duration {
        Mint::max_wait(self)
    }

    /// The fencing token of a leased generator's current grant; 0 for a plain one.
    pub fn token(&self) -> u64 {
        Mint::token(self)
    }
}
