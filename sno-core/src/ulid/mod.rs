//! ULID: 48-bit Unix milliseconds + 80 random bits, 26 Crockford base32 characters.
//!
//! * Text: upper case out; either case in; strict: exactly 26 bytes of the Crockford alphabet
//!   (no I, L, O, U; no aliases), and the first character at most `7` (values above 2^128 − 1 are
//!   [`Error::ValueOverflow`], as the spec asks).
//! * [`Monotonic`] follows the spec: within a millisecond the randomness is incremented by 1; a
//!   new millisecond draws fresh randomness; an overflow of the 80 bits within one millisecond is
//!   [`Error::RandomnessExhausted`] (never a silent wrap). When the clock goes back, the last
//!   timestamp is kept and incremented (as ulid/javascript does), so the order never breaks.
//! * [`new()`] (process-wide) runs on an [`AtomicGenerator`]: the same rules with one atomic
//!   `fetch_add` per ULID instead of a lock, except that concurrent calls crossing into a new
//!   millisecond can make the randomness skip values (it never repeats or goes back). Each
//!   thread takes its tickets in blocks of up to 64 (one `fetch_add` per block), so `new()`'s
//!   ULIDs are unique in the process and strictly increasing per thread, and across threads
//!   ordered by millisecond only; [`AtomicGenerator::try_next`] keeps strict process-wide order.
//!
//! ```
//! use sno_core::ulid::Ulid;
//! let u: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse()?;
//! assert_eq!(u.unix_ms(), 1469922850259);
//! assert_eq!(u.to_string(), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
//! assert_eq!("01arz3ndektsv4rrffq69g5fav".parse::<Ulid>(), Ok(u));
//! # Ok::<(), sno_core::Error>(())
//! ```

#[cfg(feature = "std")]
mod atomic;
mod id;

#[cfg(feature = "std")]
pub use atomic::AtomicGenerator;
pub use id::{ENCODED_LEN, MAX_RANDOMNESS, Ulid};

use rand_core::RngCore;

use crate::bytes::{be_bytes, millis48};
use crate::error::Error;
use crate::id_macros::{block_millis_state, std_generator};
use crate::monotonic::{Block, BlockState};

/// The monotonic ULID state machine (see the module docs). `&mut self`; wrap it in
/// [`Generator`] to share it between threads.
#[derive(Debug, Clone, Default)]
pub struct Monotonic<R> {
    last: Option<(u64, u128)>,
    rng: R,
}

impl<R: RngCore> Monotonic<R> {
    /// A fresh state drawing randomness from `rng`.
    pub const fn new(rng: R) -> Self {
        Monotonic { last: None, rng }
    }
}

block_millis_state!(Ulid);

impl<R: RngCore> BlockState for Monotonic<R> {
    /// The values are the 80-bit randomness; a block ends at [`MAX_RANDOMNESS`].
    fn reserve(&mut self, unix_millis: i64, n: u32) -> Result<Block, Error> {
        let now = millis48(unix_millis)?;
        let (ms, first) = match self.last {
            // Same millisecond, or the clock went back: keep the last timestamp, add 1.
            Some((last_ms, r)) if now <= last_ms => {
                if r == MAX_RANDOMNESS {
                    return Err(Error::RandomnessExhausted {
                        unix_millis: last_ms,
                    });
                }
                (last_ms, r + 1)
            }
            _ => {
                let mut fresh = [0u8; 16];
                self.rng.fill_bytes(&mut fresh[6..]);
                (now, u128::from_be_bytes(fresh))
            }
        };
        // At least 1 (`first` ≤ MAX_RANDOMNESS), at most `n`.
        let count = (MAX_RANDOMNESS - first).min(u128::from(n.max(1)) - 1) as u32 + 1;
        self.last = Some((ms, first + u128::from(count - 1)));
        Ok(Block {
            unix_ms: ms,
            counter: first,
            count,
            earliest: 0,
        })
    }

    /// `ms` < 2^48 and `counter` ≤ [`MAX_RANDOMNESS`] (no per-ID randomness: `rng` is unused).
    #[inline]
    fn mint<G: RngCore + ?Sized>(unix_ms: u64, counter: u128, _rng: &mut G) -> Ulid {
        Ulid(be_bytes((u128::from(unix_ms) << 80) | counter))
    }
}

std_generator!(Ulid, "ULID", own_new);

crate::id_macros::settingless_generator!(Ulid);

#[cfg(feature = "uuid")]
crate::uuid_interop::uuid_interop!(Ulid: From);

/// A new ULID from the process-wide [`AtomicGenerator`] (created on first use; a `fork()` child
/// starts with fresh randomness), through the calling thread's block of its tickets
/// ([`AtomicGenerator::next_per_thread`]: one atomic `fetch_add` per up to 64 ULIDs, so threads
/// do not slow each other down): unique within the process and strictly increasing in each
/// thread; across threads, ULIDs of different milliseconds are in time order, those of one
/// millisecond in any (`global_generator().next()` keeps strict process-wide order). If a
/// millisecond's 80 random bits were ever used up, sleeps until the next millisecond.
///
/// # Panics
/// If the system clock reads before 1970 or after year 10889, or the operating system's
/// randomness source cannot be read (see [`try_new`]).
#[cfg(feature = "std")]
pub fn new() -> Ulid {
    crate::monotonic::or_panic(try_new())
}

/// A new ULID from the process-wide [`AtomicGenerator`], or the error that [`new`] panics with:
/// [`Error::MillisOutOfRange`] for a system clock outside 1970 … 10889,
/// [`Error::RandomnessUnavailable`] when the operating system's randomness source cannot be
/// read, [`Error::InvalidEnvironment`] for an invalid `SNO_CLOCK`.
///
/// ```
/// let a = sno_core::ulid::try_new()?;
/// assert!(sno_core::ulid::try_new()? > a);
/// # Ok::<(), sno_core::Error>(())
/// ```
#[cfg(feature = "std")]
pub fn try_new() -> Result<Ulid, Error> {
    try_global_generator()?.next_per_thread()
}

/// [`try_new`] without waiting: where it would sleep (a millisecond's 80 random bits used up),
/// the error at once, with its retry time.
///
/// ```
/// assert!(sno_core::ulid::try_new_nonblocking().is_ok());
/// ```
#[cfg(feature = "std")]
pub fn try_new_nonblocking() -> Result<Ulid, Error> {
    try_global_generator()?.try_next_per_thread()
}

#[cfg(feature = "std")]
impl crate::model::ProcessWide for Ulid {
    #[inline]
    fn try_new() -> Result<Ulid, Error> {
        try_new()
    }
    #[inline]
    fn try_new_nonblocking() -> Result<Ulid, Error> {
        try_new_nonblocking()
    }
}

/// The process-wide [`AtomicGenerator`] behind [`new`] and [`try_new`] (created on first use; a
/// `fork()` child starts with fresh randomness), on the clock `SNO_CLOCK` names
/// ([`SystemClock::from_env`](crate::SystemClock::from_env)): its `try_next` never blocks.
///
/// # Panics
/// If `SNO_CLOCK` holds an invalid value ([`try_new`] returns the error).
#[cfg(feature = "std")]
pub fn global_generator() -> &'static AtomicGenerator {
    crate::monotonic::or_panic(try_global_generator())
}

/// [`global_generator`], or the `SNO_CLOCK` error it panics with.
///
/// ```
/// assert!(sno_core::ulid::try_global_generator().is_ok());
/// ```
#[cfg(feature = "std")]
pub fn try_global_generator() -> Result<&'static AtomicGenerator, Error> {
    static GLOBAL: std::sync::OnceLock<Result<AtomicGenerator, Error>> = std::sync::OnceLock::new();
    GLOBAL
        .get_or_init(|| {
            let clock = crate::SystemClock::process_wide()?;
            Ok(AtomicGenerator::with_clock_and_rng(
                clock,
                crate::rng::ThreadRng,
            ))
        })
        .as_ref()
        .map_err(|e| *e)
}

// The block properties collect steps in a `Vec`: std builds only.
#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::monotonic::block_props::{Fixed, blocks_match_next_at, steps, up_to};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn blocks_are_successive_next_at_values(
            last in proptest::option::of((1_000u64..1_004, up_to(MAX_RANDOMNESS))),
            fresh in up_to(MAX_RANDOMNESS),
            steps in steps(1_003),
        ) {
            let rng = Fixed { word: 0, bytes: fresh };
            let mut state = Monotonic::new(rng.clone());
            state.last = last;
            blocks_match_next_at(state, &rng, &steps, 80);
        }
    }
}
