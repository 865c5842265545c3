//! SCRU160 (spec v0.1.0, **deprecated** in favour of [`scru128`](crate::scru128); implemented to
//! read and write existing IDs): 48-bit Unix milliseconds, a 16-bit `counter`, 16 bits of
//! `random16` and 80 bits of `random80`, 20 bytes big-endian.
//!
//! * Text: 32 characters of RFC 4648 base32hex (`0-9A-V`, upper case out), or 40 hex digits
//!   (lower case out). Decoding ignores case, and the length decides the form (32 → base32hex,
//!   40 → hex); every other length, a byte outside the form's alphabet, whitespace, `=` padding
//!   or a `0x` prefix is an error. Every 32-character base32hex and every 40-digit hex string is
//!   a value (160 bits exactly, no overflow), including the reserved timestamps 0 and 2^48 − 1.
//! * [`Monotonic`] follows the reference generator (Python and JavaScript agree): a new
//!   millisecond draws a 15-bit random counter; the same millisecond, or a clock that went back,
//!   increments it and keeps the last timestamp. Where the references busy-wait on an exhausted
//!   16-bit counter, [`MillisState::next_at`] returns [`Error::RandomnessExhausted`] with the
//!   state unchanged (the blocking [`Generator::next`] sleeps until the next millisecond). A
//!   clock more than the rollback allowance (10 s by default) behind the last timestamp resets
//!   the state, as the references do after giving up waiting (order with earlier IDs breaks
//!   then). `random16` and `random80` are fresh per ID. The reserved timestamps are never
//!   generated.
//!
//! ```
//! use sno_core::scru160::Scru160Id;
//! let id: Scru160Id = "05TTUP1HNCPNH30VEK64KDQT9BSNU4C4".parse()?;
//! assert_eq!((id.unix_ms(), id.counter(), id.random16()), (1631540490683, 13176, 35871));
//! let mut hex = [0u8; 40];
//! assert_eq!(id.encode_hex(&mut hex), "017bdf6431bb33788c1f750c4a375d4af97f1184");
//! assert_eq!("017BDF6431BB33788C1F750C4A375D4AF97F1184".parse::<Scru160Id>(), Ok(id));
//! # Ok::<(), sno_core::Error>(())
//! ```

use rand_core::RngCore;

use crate::alphabet::{BASE32HEX, HEX};
use crate::bytes::{array_from_slice, be_u128_from, unreserved_millis48};
use crate::error::Error;
use crate::id_macros::{default_from_rng, id_traits, std_generator};
use crate::model::{Extras, TextForm, put};
use crate::monotonic::MillisState;
use crate::radix;

/// Length of the canonical (base32hex) text form.
pub const ENCODED_LEN: usize = 32;
/// Length of the hex text form.
pub const HEX_LEN: usize = 40;
/// Length of the binary form.
pub const BINARY_LEN: usize = 20;
/// The default rollback allowance, in ms.
pub const DEFAULT_ROLLBACK_ALLOWANCE: u64 = 10_000;

/// A SCRU160 ID: 20 bytes, big-endian; byte order is time order.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Scru160Id([u8; BINARY_LEN]);

impl Scru160Id {
    /// From the 20 bytes.
    pub const fn from_bytes(bytes: [u8; BINARY_LEN]) -> Scru160Id {
        Scru160Id(bytes)
    }
    /// The 20 bytes.
    pub const fn to_bytes(self) -> [u8; BINARY_LEN] {
        self.0
    }
    /// The 20 bytes, borrowed.
    pub const fn as_bytes(&self) -> &[u8; BINARY_LEN] {
        &self.0
    }
    /// From the fields; a timestamp above 2^48 − 1 or a `random80` above 2^80 − 1 is an error.
    pub const fn from_fields(
        timestamp_ms: u64,
        counter: u16,
        random16: u16,
        random80: u128,
    ) -> Result<Scru160Id, Error> {
        if timestamp_ms >= 1 << 48 {
            return Err(Error::MillisOutOfRange {
                unix_millis: timestamp_ms as i64,
            });
        }
        if random80 >= 1 << 80 {
            return Err(Error::ValueOverflow);
        }
        let head = ((timestamp_ms << 16) | counter as u64).to_be_bytes();
        let (r16, r80) = (random16.to_be_bytes(), random80.to_be_bytes());
        let mut bytes = [0u8; BINARY_LEN];
        let mut i = 0;
        while i < 10 {
            bytes[i] = if i < 8 { head[i] } else { r16[i - 8] };
            bytes[i + 10] = r80[i + 6];
            i += 1;
        }
        Ok(Scru160Id(bytes))
    }
    const fn head(&self) -> u64 {
        let b = &self.0;
        u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }
    /// Milliseconds since 1970 (48 bits).
    #[deprecated(since = "0.2.0", note = "renamed `unix_ms`")]
    #[doc(hidden)]
    pub const fn timestamp_ms(&self) -> u64 {
        self.unix_ms()
    }
    /// Milliseconds since 1970 (48 bits).
    pub const fn unix_ms(&self) -> u64 {
        self.head() >> 16
    }
    /// The 16-bit `counter`.
    pub const fn counter(&self) -> u16 {
        self.head() as u16
    }
    /// The 16-bit `random16` field.
    pub const fn random16(&self) -> u16 {
        u16::from_be_bytes([self.0[8], self.0[9]])
    }
    /// The 80-bit `random80` field.
    pub const fn random80(&self) -> u128 {
        be_u128_from(&self.0, 10)
    }
    /// Writes the canonical text: 32 upper-case base32hex characters.
    #[inline]
    fn write_text(&self, buf: &mut [u8; ENCODED_LEN]) {
        radix::encode_base32_groups(&self.0, buf, &BASE32HEX);
    }
    /// The 40 lower-case hex digits.
    pub fn encode_hex_bytes(&self) -> [u8; HEX_LEN] {
        let mut out = [0u8; HEX_LEN];
        radix::encode_hex(&self.0, &mut out, &HEX);
        out
    }
    /// Writes the 40 hex digits into `buf` and returns them (no allocation).
    pub fn encode_hex<'a>(&self, buf: &'a mut [u8; HEX_LEN]) -> &'a str {
        *buf = self.encode_hex_bytes();
        // SAFETY: the hex alphabet is ASCII (asserted by `Alphabet::new` at compile time).
        unsafe { core::str::from_utf8_unchecked(buf) }
    }
    /// Strictly decodes either text form, chosen by length (32: base32hex, 40: hex), in either
    /// case.
    pub fn decode(input: &[u8]) -> Result<Scru160Id, Error> {
        match input.len() {
            HEX_LEN => Scru160Id::decode_hex(input),
            ENCODED_LEN => Scru160Id::decode_base32hex(input),
            actual => Err(Error::InvalidLength {
                expected: if actual > (ENCODED_LEN + HEX_LEN) / 2 {
                    HEX_LEN
                } else {
                    ENCODED_LEN
                },
                actual,
            }),
        }
    }
    /// Strictly decodes exactly 32 base32hex characters (either case).
    pub fn decode_base32hex(input: &[u8]) -> Result<Scru160Id, Error> {
        let mut bytes = [0u8; BINARY_LEN];
        radix::decode_base32_groups::<ENCODED_LEN>(input, &mut bytes, &BASE32HEX)?;
        Ok(Scru160Id(bytes))
    }
    /// Strictly decodes exactly 40 hex digits (either case).
    pub fn decode_hex(input: &[u8]) -> Result<Scru160Id, Error> {
        if input.len() != HEX_LEN {
            return Err(Error::InvalidLength {
                expected: HEX_LEN,
                actual: input.len(),
            });
        }
        let mut bytes = [0u8; BINARY_LEN];
        radix::decode_hex(input, &mut bytes, 0, &HEX)?;
        Ok(Scru160Id(bytes))
    }
    /// The 20-byte binary form.
    pub fn from_slice(bytes: &[u8]) -> Result<Scru160Id, Error> {
        array_from_slice(bytes).map(Scru160Id)
    }
}

id_traits!(
    Scru160Id,
    ENCODED_LEN,
    BINARY_LEN,
    "32-character SCRU160 ID"
);

impl From<[u8; BINARY_LEN]> for Scru160Id {
    fn from(bytes: [u8; BINARY_LEN]) -> Scru160Id {
        Scru160Id(bytes)
    }
}

/// The SCRU160 generator state machine (see the module docs). `&mut self`; wrap it in
/// [`Generator`] to share it between threads.
#[derive(Debug, Clone)]
pub struct Monotonic<R> {
    last: Option<(u64, u16)>,
    rollback_allowance: u64,
    rng: R,
}

default_from_rng!(Monotonic);

impl<R: RngCore> Monotonic<R> {
    /// A fresh state with the default 10 s rollback allowance, drawing from `rng` (`next_u32`
    /// for the counter, whose low 15 bits are used; `fill_bytes` for the 12 random bytes).
    pub const fn new(rng: R) -> Self {
        Monotonic {
            last: None,
            rollback_allowance: DEFAULT_ROLLBACK_ALLOWANCE,
            rng,
        }
    }

    /// Sets how far (ms) the clock may go back and still continue the last timestamp's counter
    /// before the state is reset.
    pub const fn with_rollback_allowance(mut self, ms: u64) -> Self {
        self.rollback_allowance = ms;
        self
    }
}

impl<R: RngCore> MillisState for Monotonic<R> {
    type Id = Scru160Id;

    fn next_at(&mut self, unix_millis: i64) -> Result<Scru160Id, Error> {
        let now = unreserved_millis48(unix_millis)?;
        let (ts, counter) = match self.last {
            Some((ts, counter)) if now <= ts && ts - now <= self.rollback_allowance => {
                let counter = counter
                    .checked_add(1)
                    .ok_or(Error::RandomnessExhausted { unix_millis: ts })?;
                (ts, counter)
            }
            _ => (now, (self.rng.next_u32() & 0x7FFF) as u16),
        };
        self.last = Some((ts, counter));
        let mut random = [0u8; 12];
        self.rng.fill_bytes(&mut random);
        let random16 = u16::from_be_bytes([random[0], random[1]]);
        let mut random80 = [0u8; 16];
        crate::bytes::copy(&mut random80[6..], &random[2..]);
        Scru160Id::from_fields(ts, counter, random16, u128::from_be_bytes(random80))
    }

    fn reset(&mut self) {
        self.last = None;
    }
}

std_generator!(Scru160Id, "SCRU160 ID");

crate::id_macros::settingless_generator!(Scru160Id);

crate::model::fixed_text_format!(
    Scru160Id,
    Scru160,
    ENCODED_LEN,
    unix_ms = |id: &Scru160Id| Some(id.unix_ms() as i64),
    {
        const EXTRAS: Extras<Scru160Id> = Extras {
            texts: &[TextForm::new(
                "hex",
                HEX_LEN,
                "the 40 lower-case hex digits (the other text form)",
                |id, buf| put(buf, &id.encode_hex_bytes()),
            )],
            ..Extras::NONE
        };
    }
);
