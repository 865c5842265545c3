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
//!   millisecond can make the randomness skip values (it never repeats or goes back).
//!
//! ```
//! use sno_core::ulid::Ulid;
//! let u: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse()?;
//! assert_eq!(u.unix_ms(), 1469922850259);
//! assert_eq!(u.to_string(), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
//! assert_eq!("01arz3ndektsv4rrffq69g5fav".parse::<Ulid>(), Ok(u));
//! # Ok::<(), sno_core::Error>(())
//! ```

use rand_core::RngCore;

use crate::error::Error;
use crate::monotonic::{
    MillisState, array_from_slice, be_bytes, id_traits, millis48, std_generator,
};
use crate::radix;

/// Length of the text form.
pub const ENCODED_LEN: usize = 26;
/// Largest randomness value (80 bits).
pub const MAX_RANDOMNESS: u128 = (1 << 80) - 1;

/// A ULID: 16 bytes, big-endian; byte order is time order.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ulid([u8; 16]);

impl Ulid {
    /// The all-zero ULID.
    pub const NIL: Ulid = Ulid([0; 16]);
    /// The largest ULID, `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`.
    pub const MAX: Ulid = Ulid([0xFF; 16]);

    /// From the 16 bytes.
    pub const fn from_bytes(bytes: [u8; 16]) -> Ulid {
        Ulid(bytes)
    }
    /// The 16 bytes.
    pub const fn to_bytes(self) -> [u8; 16] {
        self.0
    }
    /// The 16 bytes, borrowed.
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }
    /// From the 128-bit number.
    pub const fn from_u128(value: u128) -> Ulid {
        Ulid(value.to_be_bytes())
    }
    /// The 128-bit number.
    pub const fn to_u128(self) -> u128 {
        u128::from_be_bytes(self.0)
    }
    /// From a timestamp (≤ 2^48 − 1 ms) and an 80-bit randomness.
    #[deprecated(since = "0.3.0", note = "renamed `from_fields`")]
    #[doc(hidden)]
    pub const fn from_parts(unix_millis: u64, randomness: u128) -> Result<Ulid, Error> {
        Ulid::from_fields(unix_millis, randomness)
    }
    /// From the fields: 48-bit Unix milliseconds and 80-bit randomness.
    pub const fn from_fields(unix_millis: u64, randomness: u128) -> Result<Ulid, Error> {
        if unix_millis >= 1 << 48 {
            return Err(Error::MillisOutOfRange {
                unix_millis: unix_millis as i64,
            });
        }
        if randomness > MAX_RANDOMNESS {
            return Err(Error::ValueOverflow);
        }
        Ok(Ulid::from_u128(((unix_millis as u128) << 80) | randomness))
    }
    /// Milliseconds since 1970.
    #[deprecated(since = "0.3.0", note = "renamed `unix_ms`")]
    #[doc(hidden)]
    pub const fn timestamp_ms(&self) -> u64 {
        self.unix_ms()
    }
    /// Milliseconds since 1970 (48 bits).
    pub const fn unix_ms(&self) -> u64 {
        (self.to_u128() >> 80) as u64
    }
    /// The 80-bit randomness.
    pub const fn randomness(&self) -> u128 {
        self.to_u128() & MAX_RANDOMNESS
    }
    /// Writes the canonical (upper-case) text.
    #[inline]
    fn write_text(&self, buf: &mut [u8; ENCODED_LEN]) {
        radix::encode_ulid(&self.0, buf);
    }
    /// Strictly decodes the text form (either case).
    #[inline]
    pub fn decode(input: &[u8]) -> Result<Ulid, Error> {
        radix::decode_ulid(input).map(Ulid)
    }
    /// The 16-byte binary form.
    pub fn from_slice(bytes: &[u8]) -> Result<Ulid, Error> {
        array_from_slice(bytes).map(Ulid)
    }
}

impl core::fmt::Debug for Ulid {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Ulid({self})")
    }
}

id_traits!(Ulid, ENCODED_LEN, 16, "26-character ULID");

impl From<[u8; 16]> for Ulid {
    fn from(bytes: [u8; 16]) -> Ulid {
        Ulid(bytes)
    }
}

impl From<crate::uuid7::Uuid7> for Ulid {
    /// The same 128 bits (a UUIDv7 is a valid ULID with timestamp `unix_ts_ms`).
    fn from(u: crate::uuid7::Uuid7) -> Ulid {
        Ulid(u.to_bytes())
    }
}

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

impl<R: RngCore> MillisState for Monotonic<R> {
    type Id = Ulid;

    fn next_at(&mut self, unix_millis: i64) -> Result<Ulid, Error> {
        let now = millis48(unix_millis)?;
        let (ms, randomness) = match self.last {
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
        self.last = Some((ms, randomness));
        // `ms` < 2^48 (checked above) and `randomness` ≤ MAX_RANDOMNESS.
        Ok(Ulid(be_bytes((u128::from(ms) << 80) | randomness)))
    }

    fn reset(&mut self) {
        self.last = None;
    }
}

std_generator!(Ulid, "ULID", own_new);

#[cfg(feature = "std")]
mod atomic;
#[cfg(feature = "std")]
pub use atomic::AtomicGenerator;

/// A new ULID from the process-wide [`AtomicGenerator`] (created on first use; a `fork()` child
/// starts with fresh randomness): strictly increasing across all threads of the process, one
/// atomic `fetch_add` per ULID. If a millisecond's 80 random bits were ever used up, sleeps until
/// the next millisecond.
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
/// read.
///
/// ```
/// let a = sno_core::ulid::try_new()?;
/// assert!(sno_core::ulid::try_new()? > a);
/// # Ok::<(), sno_core::Error>(())
/// ```
#[cfg(feature = "std")]
pub fn try_new() -> Result<Ulid, Error> {
    global_generator().next()
}

/// The process-wide [`AtomicGenerator`] behind [`new`] and [`try_new`] (created on first use; a
/// `fork()` child starts with fresh randomness): its `try_next` never blocks.
#[cfg(feature = "std")]
pub fn global_generator() -> &'static AtomicGenerator {
    static GLOBAL: std::sync::OnceLock<AtomicGenerator> = std::sync::OnceLock::new();
    GLOBAL.get_or_init(AtomicGenerator::default)
}

crate::model::fixed_text_format!(
    Ulid,
    Ulid,
    ENCODED_LEN,
    unix_ms = |id: &Ulid| Some(id.unix_ms() as i64),
    fields = |id: &Ulid| {
        use crate::model::{Field, Unit};
        [
            Field::uint("unix_ms", id.unix_ms().into(), 48, Unit::UnixMs),
            Field::uint("randomness", id.randomness(), 80, Unit::None),
        ]
    }
);
