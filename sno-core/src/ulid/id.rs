//! The [`Ulid`] value type: 16 bytes, its fields and its strict text codec.

use crate::error::Error;
use crate::format::Format;
use crate::id_macros::{id_traits, u128_id};
use crate::model::Extras;
use crate::radix;

/// Length of the text form.
pub const ENCODED_LEN: usize = 26;
/// Largest randomness value (80 bits).
pub const MAX_RANDOMNESS: u128 = (1 << 80) - 1;

/// A ULID: 16 bytes, big-endian; byte order is time order.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ulid(pub(super) [u8; 16]);

u128_id!(Ulid, any_bits, timestamp_ms);

impl Ulid {
    /// The all-zero ULID.
    pub const NIL: Ulid = Ulid([0; 16]);
    /// The largest ULID, `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`.
    pub const MAX: Ulid = Ulid([0xFF; 16]);

    /// From a timestamp (≤ 2^48 − 1 ms) and an 80-bit randomness.
    #[deprecated(since = "0.2.0", note = "renamed `from_fields`")]
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
}

id_traits!(Ulid, ENCODED_LEN, 16, "26-character ULID");

crate::model::fixed_text_format!(
    Ulid,
    Ulid,
    ENCODED_LEN,
    unix_ms = |id: &Ulid| Some(id.unix_ms() as i64),
    {
        const EXTRAS: Extras<Ulid> = Extras {
            same_bits: &[Format::Uuid7],
            ..Extras::NONE
        };
    }
);
