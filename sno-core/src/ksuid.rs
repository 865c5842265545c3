//! KSUID (segmentio/ksuid): a 32-bit big-endian `timestamp_secs`, seconds since the KSUID epoch
//! (1 400 000 000 s after 1970: 2014-05-13T16:53:20Z), and a 128-bit random `payload`, 20
//! bytes; 27 base62 characters.
//!
//! * Text: the 160-bit big-endian number in base62 over `0-9A-Za-z` (ascending ASCII, so the
//!   text sorts as the bytes), left-padded with `0` to 27 characters. Strict: exactly 27 bytes
//!   of the alphabet, case-sensitive (`a` and `A` are different digits), and no value above
//!   2^160 − 1 (`aWgEPTl1tmebfsQzFP4bxwgy80V`, [`Ksuid::MAX`]): above is
//!   [`Error::ValueOverflow`], never a wrap. Every 20-byte string is a value.
//! * [`Monotonic`] is ULID's rule with seconds: within a second the payload is incremented by 1;
//!   a new second draws a fresh random payload; when the clock goes back, the last second is
//!   kept and its payload incremented, so the order never breaks; an increment past 2^128 − 1
//!   within one second is [`Error::RandomnessExhausted`] (never a wrap; its `unix_millis` is
//!   the second's last millisecond, so a retry from the next millisecond succeeds). segmentio's
//!   own `New` draws a fresh payload per ID (no order within a second), and its `Sequence`
//!   writes a 16-bit counter over the seed's last 2 bytes (65 536 IDs per seed).
//! * Collisions: within a process the payloads of one second never repeat (deterministic).
//!   Across `n` independent generators, each making `k` IDs in one second, each generator's
//!   IDs are a run of `k` consecutive payloads from a uniform 128-bit start; two runs overlap
//!   with probability below 2k / 2^128, so some pair collides with probability below
//!   n² · k / 2^128 (n²/2^129 for one ID each). Fresh payloads per ID (segmentio's `New`) give
//!   about (n · k)² / 2^129: more, once k > 2. The cost: within a second, one ID gives away the
//!   next ones (payload + 1); where IDs must be unguessable, draw each payload
//!   ([`Ksuid::from_fields`] with your own randomness).
//! * [`new()`] (process-wide) takes a lock per KSUID: strictly increasing across all threads.
//!   [`Generator::try_next_per_thread`](crate::monotonic::Shared::try_next_per_thread) (a
//!   [`BlockState`]) makes them from per-thread blocks instead: strictly increasing per thread,
//!   across threads ordered by second only.
//!
//! ```
//! use sno_core::ksuid::Ksuid;
//! let id: Ksuid = "0ujtsYcgvSTl8PAuAdqWYSMnLOv".parse()?;
//! assert_eq!(id.timestamp_secs(), 107_608_047);
//! assert_eq!(id.unix_secs(), 1_507_608_047); // 2017-10-10T04:00:47Z
//! assert_eq!(id.payload(), 0xB5A1CD34B5F99D1154FB6853345C9735);
//! assert_eq!(id.to_string(), "0ujtsYcgvSTl8PAuAdqWYSMnLOv");
//! assert!("0UJTSYCGVSTL8PAUADQWYSMNLOV".parse::<Ksuid>()? != id); // case is part of the value
//! # Ok::<(), sno_core::Error>(())
//! ```

use rand_core::RngCore;

use crate::alphabet::BASE62;
use crate::bytes::{array_from_slice, be_u128_from, millis_since};
use crate::error::Error;
use crate::id_macros::{block_millis_state, default_from_rng, id_traits, std_generator};
use crate::monotonic::{Block, BlockState};
use crate::radix;

/// Length of the text form.
pub const ENCODED_LEN: usize = 27;
/// Length of the binary form.
pub const BINARY_LEN: usize = 20;
/// The KSUID epoch in Unix seconds (2014-05-13T16:53:20Z).
pub const EPOCH_SECS: u64 = 1_400_000_000;
/// The KSUID epoch in Unix milliseconds.
pub const EPOCH_MS: u64 = EPOCH_SECS * 1_000;

/// A KSUID: 20 bytes, big-endian; byte order is time order (by second).
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ksuid([u8; BINARY_LEN]);

impl Ksuid {
    /// The all-zero KSUID, `000000000000000000000000000`.
    pub const NIL: Ksuid = Ksuid([0; BINARY_LEN]);
    /// The largest KSUID, `aWgEPTl1tmebfsQzFP4bxwgy80V`.
    pub const MAX: Ksuid = Ksuid([0xFF; BINARY_LEN]);

    /// From the 20 bytes.
    pub const fn from_bytes(bytes: [u8; BINARY_LEN]) -> Ksuid {
        Ksuid(bytes)
    }
    /// The 20 bytes.
    pub const fn to_bytes(self) -> [u8; BINARY_LEN] {
        self.0
    }
    /// The 20 bytes, borrowed.
    pub const fn as_bytes(&self) -> &[u8; BINARY_LEN] {
        &self.0
    }
    /// From the fields: seconds since the KSUID epoch and the 128-bit payload (each fills its
    /// field exactly, so every pair is a KSUID).
    pub const fn from_fields(timestamp_secs: u32, payload: u128) -> Ksuid {
        let (ts, p) = (timestamp_secs.to_be_bytes(), payload.to_be_bytes());
        let mut bytes = [0u8; BINARY_LEN];
        let mut i = 0;
        while i < BINARY_LEN {
            bytes[i] = if i < 4 { ts[i] } else { p[i - 4] };
            i += 1;
        }
        Ksuid(bytes)
    }
    /// Seconds since the KSUID epoch (2014-05-13T16:53:20Z), the 32-bit `timestamp_secs` field.
    pub const fn timestamp_secs(&self) -> u32 {
        u32::from_be_bytes([self.0[0], self.0[1], self.0[2], self.0[3]])
    }
    /// Seconds since 1970: `timestamp_secs + 1_400_000_000`.
    pub const fn unix_secs(&self) -> u64 {
        self.timestamp_secs() as u64 + EPOCH_SECS
    }
    /// Milliseconds since 1970: the start of the KSUID's second.
    pub const fn unix_ms(&self) -> u64 {
        self.unix_secs() * 1_000
    }
    /// The 128-bit payload.
    pub const fn payload(&self) -> u128 {
        be_u128_from(&self.0, 4)
    }
    /// Writes the canonical text: 27 base62 characters.
    #[inline]
    fn write_text(&self, buf: &mut [u8; ENCODED_LEN]) {
        *buf = radix::encode_base_n(&self.0, &BASE62);
    }
    /// Strictly decodes the text form: exactly 27 base62 characters (case-sensitive), at most
    /// `aWgEPTl1tmebfsQzFP4bxwgy80V`.
    pub fn decode(input: &[u8]) -> Result<Ksuid, Error> {
        radix::decode_base_n::<BINARY_LEN, ENCODED_LEN, 62>(input, &BASE62).map(Ksuid)
    }
    /// The 20-byte binary form.
    pub fn from_slice(bytes: &[u8]) -> Result<Ksuid, Error> {
        array_from_slice(bytes).map(Ksuid)
    }
}

id_traits!(Ksuid, ENCODED_LEN, BINARY_LEN, "27-character KSUID");

impl From<[u8; BINARY_LEN]> for Ksuid {
    fn from(bytes: [u8; BINARY_LEN]) -> Ksuid {
        Ksuid(bytes)
    }
}

/// The last Unix millisecond of the second `timestamp` (seconds since the KSUID epoch).
const fn last_ms_of(timestamp: u32) -> u64 {
    EPOCH_MS + timestamp as u64 * 1_000 + 999
}

/// The monotonic KSUID state machine (see the module docs). `&mut self`; wrap it in
/// [`Generator`] to share it between threads.
#[derive(Debug, Clone)]
pub struct Monotonic<R> {
    /// The last second (since the KSUID epoch) and payload used.
    last: Option<(u32, u128)>,
    rng: R,
}

default_from_rng!(Monotonic);

impl<R: RngCore> Monotonic<R> {
    /// A fresh state drawing each new second's payload from `rng` (`fill_bytes`, 16 bytes).
    pub const fn new(rng: R) -> Self {
        Monotonic { last: None, rng }
    }
}

block_millis_state!(Ksuid);

impl<R: RngCore> BlockState for Monotonic<R> {
    /// The values are the payloads; a block ends at 2^128 − 1. A block's `unix_ms` is the last
    /// millisecond of its second: every reading up to it continues the second's run (the
    /// per-thread cache keeps using the block until the clock reads the next second), and
    /// `earliest` is the epoch.
    fn reserve(&mut self, unix_millis: i64, n: u32) -> Result<Block, Error> {
        const MAX_MS: u64 = u32::MAX as u64 * 1_000 + 999;
        let now = (millis_since(unix_millis, EPOCH_MS as i64, MAX_MS)? / 1_000) as u32;
        let (ts, first) = match self.last {
            // Same second, or the clock went back: keep the last second, add 1.
            Some((last, payload)) if now <= last => {
                if payload == u128::MAX {
                    return Err(Error::RandomnessExhausted {
                        unix_millis: last_ms_of(last),
                    });
                }
                (last, payload + 1)
            }
            _ => {
                let mut fresh = [0u8; 16];
                self.rng.fill_bytes(&mut fresh);
                (now, u128::from_be_bytes(fresh))
            }
        };
        // At least 1, at most `n`, none past 2^128 − 1.
        let count = (u128::MAX - first).min(u128::from(n.max(1)) - 1) as u32 + 1;
        self.last = Some((ts, first + u128::from(count - 1)));
        Ok(Block {
            unix_ms: last_ms_of(ts),
            counter: first,
            count,
            earliest: EPOCH_MS as i64,
        })
    }

    /// `unix_ms` a millisecond of the KSUID's second (a block's: its last), `counter` the
    /// payload (no per-ID randomness: `rng` is unused).
    #[inline]
    fn mint<G: RngCore + ?Sized>(unix_ms: u64, counter: u128, _rng: &mut G) -> Ksuid {
        Ksuid::from_fields(((unix_ms - EPOCH_MS) / 1_000) as u32, counter)
    }
}

std_generator!(Ksuid, "KSUID");

crate::id_macros::settingless_generator!(Ksuid);

crate::model::fixed_text_format!(
    Ksuid,
    Ksuid,
    ENCODED_LEN,
    unix_ms = |id: &Ksuid| Some(id.unix_ms() as i64),
    {}
);

// The block properties collect steps in a `Vec`: std builds only.
#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::monotonic::block_props::{Fixed, blocks_match_next_at, steps, up_to};
    use proptest::prelude::*;

    /// A reading in the second 100 000 000 after the KSUID epoch (2017-07-14).
    const AROUND: i64 = (EPOCH_MS + 100_000_000_000) as i64;

    proptest! {
        #[test]
        fn blocks_are_successive_next_at_values(
            last in proptest::option::of((99_999_999u32..100_000_001, up_to(u128::MAX))),
            fresh in up_to(u128::MAX),
            // Readings around a second's end, scaled by 100 to cross seconds.
            offsets in steps(0),
        ) {
            let steps: std::vec::Vec<_> = offsets
                .iter()
                .map(|&(d, n, p)| (AROUND + 999 + 100 * d, n, p))
                .collect();
            let rng = Fixed { word: 0, bytes: fresh };
            let mut state = Monotonic::new(rng.clone());
            state.last = last;
            blocks_match_next_at(state, &rng, &steps, 128);
        }
    }
}
