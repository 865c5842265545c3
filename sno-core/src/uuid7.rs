//! UUIDv7 (RFC 9562): 48-bit Unix milliseconds, version 7, 12 bits `rand_a`, variant `10`,
//! 62 bits `rand_b`.
//!
//! * Text: hyphenated lower case out (`017f22e2-79b0-7cc3-98c4-dc0c0c07398f`). [`Uuid7::decode`]
//!   accepts the RFC string forms: hyphenated (either case) and the URN `urn:uuid:…`.
//!   [`Uuid7::decode_lenient`] also takes 32 bare hex digits and the braced `{…}` form. Both
//!   require version 7 and the RFC variant ([`Error::NotVersion7`]). [`uuid_bytes`] and
//!   [`uuid_text`] read and write the hyphenated text of any 16 bytes, whatever the version.
//! * [`Monotonic`] uses RFC 9562 §6.2 **Method 1**, as the `uuid` crate does: a 42-bit counter in
//!   `rand_a` and the top 30 bits of `rand_b`, seeded with 41 random bits (top bit 0, a rollover
//!   guard) at every new millisecond and incremented within one; the low 32 bits are fresh random
//!   per UUID. When the clock goes back the last timestamp is kept and the counter incremented;
//!   on a counter overflow the timestamp moves 1 ms ahead (RFC: "MAY increment the timestamp"),
//!   so generation never fails inside the 48-bit range and output always increases.
//!
//! ```
//! use sno_core::uuid7::Uuid7;
//! let u: Uuid7 = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F".parse()?;
//! assert_eq!(u.unix_ms(), 1645557742000);
//! assert_eq!(u.to_string(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
//! # Ok::<(), sno_core::Error>(())
//! ```

use rand_core::RngCore;

use crate::alphabet::HEX;
use crate::bytes::{array_from_slice, be_bytes, millis48};
use crate::error::Error;
use crate::id_macros::{block_millis_state, id_traits, std_generator, u128_id};
use crate::model::{Extras, Lenient};
use crate::monotonic::{Block, BlockState};
use crate::radix;

/// Length of the hyphenated text form.
pub const ENCODED_LEN: usize = 36;
/// Positions of the hyphens in the hyphenated form.
const HYPHENS: [usize; 4] = radix::UUID_HYPHENS;
/// The URN prefix (matched case-insensitively).
const URN: &[u8; 9] = b"urn:uuid:";

/// A UUID with version 7 and the RFC 9562 variant: 16 bytes, big-endian; byte order is time
/// order. Every value of this type has those bits; constructors check them.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uuid7([u8; 16]);

u128_id!(Uuid7, timestamp_ms);

impl Uuid7 {
    /// From 16 bytes with version 7 and variant `10`, else [`Error::NotVersion7`].
    pub const fn from_bytes(bytes: [u8; 16]) -> Result<Uuid7, Error> {
        let (version, variant) = (bytes[6] >> 4, bytes[8] >> 6);
        if version != 7 || variant != 0b10 {
            return Err(Error::NotVersion7 { version, variant });
        }
        Ok(Uuid7(bytes))
    }
    /// From a timestamp (≤ 2^48 − 1 ms), 12 bits of `rand_a` and 62 bits of `rand_b` (higher bits
    /// are [`Error::ValueOverflow`]).
    #[deprecated(since = "0.2.0", note = "renamed `from_fields`")]
    #[doc(hidden)]
    pub const fn from_parts(unix_millis: u64, rand_a: u16, rand_b: u64) -> Result<Uuid7, Error> {
        Uuid7::from_fields(unix_millis, rand_a, rand_b)
    }
    /// From the fields: 48-bit Unix milliseconds, 12-bit `rand_a`, 62-bit `rand_b`.
    pub const fn from_fields(unix_millis: u64, rand_a: u16, rand_b: u64) -> Result<Uuid7, Error> {
        if unix_millis >= 1 << 48 {
            return Err(Error::MillisOutOfRange {
                unix_millis: unix_millis as i64,
            });
        }
        if rand_a >= 1 << 12 || rand_b >= 1 << 62 {
            return Err(Error::ValueOverflow);
        }
        let v = ((unix_millis as u128) << 80)
            | (7 << 76)
            | ((rand_a as u128) << 64)
            | (0b10 << 62)
            | rand_b as u128;
        Ok(Uuid7(v.to_be_bytes()))
    }
    /// The 12-bit `rand_a` field.
    pub const fn rand_a(&self) -> u16 {
        ((self.to_u128() >> 64) & 0xFFF) as u16
    }
    /// The 62-bit `rand_b` field.
    pub const fn rand_b(&self) -> u64 {
        (self.to_u128() as u64) & ((1 << 62) - 1)
    }
    /// The version, always 7.
    pub const fn version(&self) -> u8 {
        self.0[6] >> 4
    }
    /// The two variant bits, always `0b10`.
    pub const fn variant(&self) -> u8 {
        self.0[8] >> 6
    }
    /// Writes the hyphenated lower-case text.
    #[inline]
    fn write_text(&self, buf: &mut [u8; ENCODED_LEN]) {
        radix::encode_uuid(&self.0, buf);
    }
    /// Strictly decodes an RFC string form: hyphenated, or `urn:uuid:` + hyphenated.
    #[inline]
    pub fn decode(input: &[u8]) -> Result<Uuid7, Error> {
        match input.len() {
            45 if input[..9].eq_ignore_ascii_case(URN) => hyphenated(&input[9..], 9),
            _ => hyphenated(input, 0),
        }
    }
    /// Like [`decode`](Self::decode), also accepting 32 bare hex digits and `{hyphenated}`.
    pub fn decode_lenient(input: &[u8]) -> Result<Uuid7, Error> {
        match input.len() {
            32 => {
                let mut bytes = [0u8; 16];
                radix::decode_hex(input, &mut bytes, 0, &HEX)?;
                Uuid7::from_bytes(bytes)
            }
            38 if input[0] == b'{' && input[37] == b'}' => hyphenated(&input[1..37], 1),
            _ => Uuid7::decode(input),
        }
    }
    /// The 16-byte binary form (version and variant checked).
    pub fn from_slice(bytes: &[u8]) -> Result<Uuid7, Error> {
        array_from_slice(bytes).and_then(Uuid7::from_bytes)
    }
}

/// The 16 bytes of a hyphenated UUID text (`8-4-4-4-12` hex digits, either case), whatever
/// their version and variant: what the JavaScript bindings read the `fromUuid` of every 128-bit
/// format with. [`Error::InvalidLength`] for other than 36 bytes, [`Error::InvalidByte`] at the
/// first byte out of place (as [`Uuid7::decode`], which also checks the version).
///
/// Unlike [`Uuid7::decode`], it takes no `urn:uuid:` prefix.
///
/// ```
/// use sno_core::Error;
/// use sno_core::uuid7::{uuid_bytes, uuid_text};
/// let bytes = uuid_bytes(b"01890A5D-AC96-474B-BCCE-B302099A8057")?; // version 4
/// assert_eq!(&uuid_text(&bytes), b"01890a5d-ac96-474b-bcce-b302099a8057");
/// let bad = uuid_bytes(b"01890a5d_ac96-474b-bcce-b302099a8057");
/// assert_eq!(bad, Err(Error::InvalidByte { position: 8, byte: b'_' }));
/// # Ok::<(), sno_core::Error>(())
/// ```
pub fn uuid_bytes(text: &[u8]) -> Result<[u8; 16], Error> {
    hyphenated_bytes(text, 0)
}

/// The hyphenated lower-case text of any 16 bytes (a UUID of any version; see [`uuid_bytes`]).
///
/// ```
/// use sno_core::uuid7::uuid_text;
/// assert_eq!(&uuid_text(&[0xab; 16]), b"abababab-abab-abab-abab-abababababab");
/// ```
pub fn uuid_text(bytes: &[u8; 16]) -> [u8; ENCODED_LEN] {
    let mut text = [0u8; ENCODED_LEN];
    radix::encode_uuid(bytes, &mut text);
    text
}

/// The hyphenated form of a UUIDv7; error positions are shifted by `offset` (the prefix before
/// it).
#[inline]
fn hyphenated(input: &[u8], offset: usize) -> Result<Uuid7, Error> {
    hyphenated_bytes(input, offset).and_then(Uuid7::from_bytes)
}

/// The 16 bytes of the hyphenated form, any version; error positions shifted by `offset`.
#[inline]
fn hyphenated_bytes(input: &[u8], offset: usize) -> Result<[u8; 16], Error> {
    let Ok(input) = <&[u8; ENCODED_LEN]>::try_from(input) else {
        return Err(Error::InvalidLength {
            expected: ENCODED_LEN,
            actual: input.len() + offset,
        });
    };
    radix::decode_uuid(input).ok_or_else(|| {
        // Slow path, errors only: the first offending byte in text order.
        let (position, byte) = input
            .iter()
            .enumerate()
            .find(|&(i, &c)| {
                if HYPHENS.contains(&i) {
                    c != b'-'
                } else {
                    HEX.value(c).is_none()
                }
            })
            .map(|(i, &c)| (i, c))
            .unwrap_or((0, input[0]));
        Error::InvalidByte {
            position: offset + position,
            byte,
        }
    })
}

id_traits!(Uuid7, ENCODED_LEN, 16, "hyphenated UUIDv7");

impl From<Uuid7> for crate::ulid::Ulid {
    /// The same 128 bits (a UUIDv7 is a valid ULID with timestamp `unix_ts_ms`).
    fn from(u: Uuid7) -> crate::ulid::Ulid {
        crate::ulid::Ulid::from_bytes(u.to_bytes())
    }
}

impl TryFrom<crate::ulid::Ulid> for Uuid7 {
    type Error = Error;
    /// The same 128 bits, if they carry version 7 and the RFC variant.
    fn try_from(u: crate::ulid::Ulid) -> Result<Uuid7, Error> {
        Uuid7::from_bytes(u.to_bytes())
    }
}

/// The 42-bit counter's seed mask: 41 random bits, the top bit left 0 as a rollover guard.
const SEED_MASK: u64 = (1 << 41) - 1;
/// The counter's maximum.
const COUNTER_MAX: u64 = (1 << 42) - 1;

/// The Method 1 state machine (see the module docs). `&mut self`; wrap it in [`Generator`] to
/// share it between threads.
#[derive(Debug, Clone, Default)]
pub struct Monotonic<R> {
    last: Option<(u64, u64)>,
    rng: R,
}

impl<R: RngCore> Monotonic<R> {
    /// A fresh state drawing randomness from `rng`: a `next_u64` per new millisecond (the
    /// counter seed) and a `next_u32` per UUID (the low 32 bits).
    pub const fn new(rng: R) -> Self {
        Monotonic { last: None, rng }
    }
}

block_millis_state!(Uuid7);

impl<R: RngCore> BlockState for Monotonic<R> {
    /// The values are the 42-bit counter; a block ends at its maximum (the next call moves the
    /// timestamp ahead).
    fn reserve(&mut self, unix_millis: i64, n: u32) -> Result<Block, Error> {
        let now = millis48(unix_millis)?;
        let (ms, first) = match self.last {
            Some((last_ms, c)) if now <= last_ms && c < COUNTER_MAX => (last_ms, c + 1),
            Some((last_ms, _)) if now <= last_ms => {
                let ahead = last_ms + 1;
                millis48(ahead as i64)?;
                (ahead, self.rng.next_u64() & SEED_MASK)
            }
            _ => (now, self.rng.next_u64() & SEED_MASK),
        };
        // At least 1 (`first` ≤ COUNTER_MAX), at most `n`.
        let count = (COUNTER_MAX - first).min(u64::from(n.max(1)) - 1) as u32 + 1;
        self.last = Some((ms, first + u64::from(count - 1)));
        Ok(Block {
            unix_ms: ms,
            counter: first.into(),
            count,
            earliest: 0,
        })
    }

    /// `rand_a` and the top 30 bits of `rand_b` from the counter, the low 32 bits from `rng`
    /// (`next_u32`).
    #[inline]
    fn mint<G: RngCore + ?Sized>(unix_ms: u64, counter: u128, rng: &mut G) -> Uuid7 {
        let low = u128::from(rng.next_u32());
        // `unix_ms` < 2^48 and `counter` ≤ COUNTER_MAX (a block's values): every field fits.
        Uuid7(be_bytes(
            (u128::from(unix_ms) << 80)
                | (7 << 76)
                | ((counter >> 30) << 64)
                | (0b10 << 62)
                | ((counter & ((1 << 30) - 1)) << 32)
                | low,
        ))
    }
}

std_generator!(Uuid7, "UUIDv7", per_thread);

crate::id_macros::settingless_generator!(Uuid7);

#[cfg(feature = "uuid")]
crate::uuid_interop::uuid_interop!(Uuid7: TryFrom);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::monotonic::MillisState;

    /// Returns `n` for every draw.
    struct Constant(u64);
    impl RngCore for Constant {
        fn next_u32(&mut self) -> u32 {
            self.0 as u32
        }
        fn next_u64(&mut self) -> u64 {
            self.0
        }
        fn fill_bytes(&mut self, dst: &mut [u8]) {
            dst.fill(self.0 as u8);
        }
    }

    #[test]
    fn counter_overflow_moves_the_timestamp_ahead() {
        let mut g = Monotonic::new(Constant(7));
        g.last = Some((1000, COUNTER_MAX - 1));
        let a = g.next_at(1000).unwrap();
        assert_eq!((a.unix_ms(), a.rand_a()), (1000, 0xFFF));
        let b = g.next_at(999).unwrap();
        assert_eq!((b.unix_ms(), b.rand_a(), b.rand_b() >> 32), (1001, 0, 7));
        assert!(b > a);
        g.last = Some(((1 << 48) - 1, COUNTER_MAX));
        assert_eq!(
            g.next_at(5),
            Err(Error::MillisOutOfRange {
                unix_millis: 1 << 48
            })
        );
    }
}

crate::model::fixed_text_format!(
    Uuid7,
    Uuid7,
    ENCODED_LEN,
    unix_ms = |id: &Uuid7| Some(id.unix_ms() as i64),
    {
        const EXTRAS: Extras<Uuid7> = Extras {
            lenient: Some(Lenient {
                doc: crate::describe::described("32 bare hex digits and the braced \"{...}\" form"),
                decode: Uuid7::decode_lenient,
            }),
            ..Extras::NONE
        };
    }
);

// The block properties collect steps in a `Vec`: std builds only.
#[cfg(all(test, feature = "std"))]
mod block_tests {
    use super::*;
    use crate::monotonic::block_props::{Fixed, blocks_match_next_at, steps, up_to};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn blocks_are_successive_next_at_values(
            last in proptest::option::of((1_000u64..1_004, up_to(COUNTER_MAX.into()))),
            word in any::<u64>(),
            steps in steps(1_003),
        ) {
            let rng = Fixed { word, bytes: 0 };
            let mut state = Monotonic::new(rng.clone());
            state.last = last.map(|(ms, c)| (ms, c as u64));
            blocks_match_next_at(state, &rng, &steps, 42);
        }
    }
}
