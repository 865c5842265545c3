//! A sno generator of either kind a binding hands out, plain or leased, and [`Mint`]: what a
//! binding's own wait loop (one that releases Python's GIL, or steps on Node's event loop)
//! needs of any sno generator. The bindings keep only their glue: what a leased generator
//! refuses, and why, is said here once, as [`sno_core::Error::LeasedGenerator`].

use core::time::Duration;

use sno_core::{Error, Generator, GeneratorBuilder, Id, Snapshot, Stats, SystemClock};

use crate::{Lease, LeasedGenerator, ProcessGenerator};

/// A source of sno IDs for a caller's own wait loop: the lock-free attempt, whether and how to
/// wait for an error to end, and a lease's grant (a new grant during a wait gets a whole
/// maximum wait, as [`LeasedGenerator::next`] does).
///
/// ```
/// use sno_lease::{Mint, SnoGenerator};
///
/// let g = SnoGenerator::plain(sno_core::Generator::builder(), None, None)?;
/// let id = loop {
///     match g.try_next(0) {
///         Err(e) if g.can_wait(&e) => g.wait_step(&e, core::time::Duration::from_millis(1)),
///         result => break result?,
///     }
/// };
/// assert_eq!(id.partition(), g.partition());
/// # Ok::<(), sno_core::Error>(())
/// ```
pub trait Mint: Sync {
    /// The next ID, or at once the error that says why not.
    fn try_next(&self, meta: u8) -> Result<Id, Error>;
    /// Whether waiting can end `err`.
    fn can_wait(&self, err: &Error) -> bool;
    /// One sleep of at most `at_most` towards the end of `err`.
    fn wait_step(&self, err: &Error, at_most: Duration);
    /// The longest a blocking call waits in all.
    fn max_wait(&self) -> Duration;
    /// The fencing token of the lease's current grant (0 without a lease).
    fn token(&self) -> u64 {
        0
    }
    /// Whether a wait that gave up with `err` starts again with a whole maximum wait: a lease's
    /// new grant since `token_before` ([`LeasedGenerator::waits_again`]).
    fn waits_again(&self, _token_before: u64, _err: &Error) -> bool {
        false
    }
}

impl Mint for Generator<SystemClock> {
    #[inline]
    fn try_next(&self, meta: u8) -> Result<Id, Error> {
        Generator::try_next(self, meta)
    }
    fn can_wait(&self, err: &Error) -> bool {
        Generator::can_wait(self, err)
    }
    fn wait_step(&self, err: &Error, at_most: Duration) {
        if let Error::SequenceExhausted { retry_at } | Error::ClockRegression { retry_at } = *err {
            Generator::wait_step(self, retry_at, at_most);
        }
    }
    fn max_wait(&self) -> Duration {
        Generator::max_wait(self)
    }
}

impl Mint for LeasedGenerator {
    #[inline]
    fn try_next(&self, meta: u8) -> Result<Id, Error> {
        LeasedGenerator::try_next(self, meta)
    }
    fn can_wait(&self, err: &Error) -> bool {
        LeasedGenerator::can_wait(self, err)
    }
    fn wait_step(&self, err: &Error, at_most: Duration) {
        LeasedGenerator::wait_step(self, err, at_most);
    }
    fn max_wait(&self) -> Duration {
        LeasedGenerator::max_wait(self)
    }
    fn token(&self) -> u64 {
        LeasedGenerator::token(self)
    }
    fn waits_again(&self, token_before: u64, err: &Error) -> bool {
        LeasedGenerator::waits_again(self, token_before, err)
    }
}

impl<M: Mint + ?Sized> Mint for &M {
    #[inline]
    fn try_next(&self, meta: u8) -> Result<Id, Error> {
        M::try_next(self, meta)
    }
    fn can_wait(&self, err: &Error) -> bool {
        M::can_wait(self, err)
    }
    fn wait_step(&self, err: &Error, at_most: Duration) {
        M::wait_step(self, err, at_most);
    }
    fn max_wait(&self) -> Duration {
        M::max_wait(self)
    }
    fn token(&self) -> u64 {
        M::token(self)
    }
    fn waits_again(&self, token_before: u64, err: &Error) -> bool {
        M::waits_again(self, token_before, err)
    }
}

/// [`Mint`] for an enum of a plain and a leased generator: each call goes to the one it holds.
macro_rules! mint_either {
    ($either:ty, $plain:ident, $leased:ident) => {
        impl Mint for $either {
            #[inline]
            fn try_next(&self, meta: u8) -> Result<Id, Error> {
                match self {
                    Self::$plain(g) => Mint::try_next(g, meta),
                    Self::$leased(g) => Mint::try_next(g, meta),
                }
            }
            #[inline]
            fn can_wait(&self, err: &Error) -> bool {
                match self {
                    Self::$plain(g) => Mint::can_wait(g, err),
                    Self::$leased(g) => Mint::can_wait(g, err),
                }
            }
            fn wait_step(&self, err: &Error, at_most: Duration) {
                match self {
                    Self::$plain(g) => Mint::wait_step(g, err, at_most),
                    Self::$leased(g) => Mint::wait_step(g, err, at_most),
                }
            }
            #[inline]
            fn max_wait(&self) -> Duration {
                match self {
                    Self::$plain(g) => Mint::max_wait(g),
                    Self::$leased(g) => Mint::max_wait(g),
                }
            }
            #[inline]
            fn token(&self) -> u64 {
                match self {
                    Self::$plain(_) => 0,
                    Self::$leased(g) => Mint::token(g),
                }
            }
            #[inline]
            fn waits_again(&self, token_before: u64, err: &Error) -> bool {
                match self {
                    Self::$plain(_) => false,
                    Self::$leased(g) => Mint::waits_again(g, token_before, err),
                }
            }
        }
    };
}

mint_either!(ProcessGenerator, Fixed, Leased);
mint_either!(SnoGenerator, Plain, Leased);

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
