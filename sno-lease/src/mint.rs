//! [`Mint`]: what a binding's own wait loop (one that releases Python's GIL, or steps on Node's
//! event loop) needs of any sno generator, plain, leased or process-wide.

use core::time::Duration;

use sno_core::{Error, Generator, Id, SystemClock};

use crate::LeasedGenerator;

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

/// [`Mint`] for `$ty` by `$to`'s functions of the same names (a type's own, or a trait's).
macro_rules! mint_by {
    ([$($generics:tt)*] $ty:ty => $to:ty) => {
        impl<$($generics)*> Mint for $ty {
            #[inline]
            fn try_next(&self, meta: u8) -> Result<Id, Error> {
                <$to>::try_next(self, meta)
            }
            fn can_wait(&self, err: &Error) -> bool {
                <$to>::can_wait(self, err)
            }
            fn wait_step(&self, err: &Error, at_most: Duration) {
                <$to>::wait_step(self, err, at_most);
            }
            fn max_wait(&self) -> Duration {
                <$to>::max_wait(self)
            }
            fn token(&self) -> u64 {
                <$to>::token(self)
            }
            fn waits_again(&self, token_before: u64, err: &Error) -> bool {
                <$to>::waits_again(self, token_before, err)
            }
        }
    };
}

mint_by!([] LeasedGenerator => LeasedGenerator);
mint_by!([M: Mint + ?Sized] &M => M);

/// [`Mint`] for an enum of a plain and a leased generator: each call goes to the one it holds.
macro_rules! mint_either {
    ($either:ty, $plain:ident, $leased:ident) => {
        impl $crate::Mint for $either {
            #[inline]
            fn try_next(&self, meta: u8) -> Result<::sno_core::Id, ::sno_core::Error> {
                match self {
                    Self::$plain(g) => $crate::Mint::try_next(g, meta),
                    Self::$leased(g) => $crate::Mint::try_next(g, meta),
                }
            }
            #[inline]
            fn can_wait(&self, err: &::sno_core::Error) -> bool {
                match self {
                    Self::$plain(g) => $crate::Mint::can_wait(g, err),
                    Self::$leased(g) => $crate::Mint::can_wait(g, err),
                }
            }
            fn wait_step(&self, err: &::sno_core::Error, at_most: ::core::time::Duration) {
                match self {
                    Self::$plain(g) => $crate::Mint::wait_step(g, err, at_most),
                    Self::$leased(g) => $crate::Mint::wait_step(g, err, at_most),
                }
            }
            #[inline]
            fn max_wait(&self) -> ::core::time::Duration {
                match self {
                    Self::$plain(g) => $crate::Mint::max_wait(g),
                    Self::$leased(g) => $crate::Mint::max_wait(g),
                }
            }
            #[inline]
            fn token(&self) -> u64 {
                match self {
                    Self::$plain(_) => 0,
                    Self::$leased(g) => $crate::Mint::token(g),
                }
            }
            #[inline]
            fn waits_again(&self, token_before: u64, err: &::sno_core::Error) -> bool {
                match self {
                    Self::$plain(_) => false,
                    Self::$leased(g) => $crate::Mint::waits_again(g, token_before, err),
                }
            }
        }
    };
}
pub(crate) use mint_either;
