//! SCRU128 (spec v2.1): 48-bit Unix milliseconds, 24-bit `counter_hi`, 24-bit `counter_lo`,
//! 32-bit `entropy`; 25 base36 digits.
//!
//! * Text: lower case out; either case in; strict: exactly 25 bytes of `[0-9a-zA-Z]`, no value
//!   above 2^128 − 1 (`f5lxx1zz5pnorynqglhzmsp33`).
//! * [`Monotonic`] follows the spec's generator: a new millisecond re-draws `counter_lo`; the same
//!   millisecond (or a rollback within the allowance, 10 s by default) increments it, carrying
//!   into `counter_hi` and, when both overflow, moving the timestamp 1 ms ahead; `counter_hi` is
//!   re-drawn at least once a second; `entropy` is fresh per ID. A rollback beyond the allowance
//!   resets the state ([`MillisState::next_at`], the spec's default) or is
//!   [`Error::ClockRollback`] ([`Monotonic::next_at_or_abort`]). Timestamps 0 and 2^48 − 1 are
//!   reserved and never generated.
//!
//! ```
//! use sno_core::scru128::Scru128Id;
//! let id: Scru128Id = "0372hg16csmsm50l8dikcvukc".parse()?;
//! assert_eq!((id.unix_ms(), id.counter_hi(), id.counter_lo()), (1648973836097, 8268596, 3320878));
//! assert_eq!(id.entropy(), 3310577788);
//! # Ok::<(), sno_core::Error>(())
//! ```

use rand_core::RngCore;

use crate::alphabet::BASE36;
use crate::bytes::{be_bytes, unreserved_millis48};
use crate::error::Error;
use crate::id_macros::{default_from_rng, id_traits, std_generator, u128_id};
use crate::monotonic::{Block, BlockState, MillisState};
use crate::radix;

/// Length of the text form.
pub const ENCODED_LEN: usize = 25;
/// Largest value of either counter (24 bits).
pub const MAX_COUNTER: u32 = (1 << 24) - 1;
/// The default rollback allowance, in ms.
pub const DEFAULT_ROLLBACK_ALLOWANCE: u64 = 10_000;

/// A SCRU128 ID: 16 bytes, big-endian; byte order is time order.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Scru128Id([u8; 16]);

u128_id!(Scru128Id, any_bits, timestamp_ms);

impl Scru128Id {
    /// From the fields; a timestamp above 2^48 − 1 or a counter above 2^24 − 1 is an error.
    pub const fn from_fields(
        timestamp_ms: u64,
        counter_hi: u32,
        counter_lo: u32,
        entropy: u32,
    ) -> Result<Scru128Id, Error> {
        if timestamp_ms >= 1 << 48 {
            return Err(Error::MillisOutOfRange {
                unix_millis: timestamp_ms as i64,
            });
        }
        if counter_hi > MAX_COUNTER || counter_lo > MAX_COUNTER {
            return Err(Error::ValueOverflow);
        }
        Ok(Scru128Id::from_u128(
            ((timestamp_ms as u128) << 80)
                | ((counter_hi as u128) << 56)
                | ((counter_lo as u128) << 32)
                | entropy as u128,
        ))
    }
    /// The 24-bit `counter_hi`.
    pub const fn counter_hi(&self) -> u32 {
        ((self.to_u128() >> 56) as u32) & MAX_COUNTER
    }
    /// The 24-bit `counter_lo`.
    pub const fn counter_lo(&self) -> u32 {
        ((self.to_u128() >> 32) as u32) & MAX_COUNTER
    }
    /// The 32-bit `entropy`.
    pub const fn entropy(&self) -> u32 {
        self.to_u128() as u32
    }
    /// Writes the canonical (lower-case) text.
    #[inline]
    fn write_text(&self, buf: &mut [u8; ENCODED_LEN]) {
        radix::encode_base36(self.to_u128(), buf);
    }
    /// Strictly decodes the text form (either case).
    pub fn decode(input: &[u8]) -> Result<Scru128Id, Error> {
        radix::decode_base36(input, &BASE36).map(Scru128Id::from_u128)
    }
}

id_traits!(Scru128Id, ENCODED_LEN, 16, "25-character SCRU128 ID");

/// The SCRU128 generator state machine (see the module docs). `&mut self`; wrap it in
/// [`Generator`] to share it between threads.
#[derive(Debug, Clone)]
pub struct Monotonic<R> {
    timestamp: u64,
    counter_hi: u32,
    counter_lo: u32,
    ts_counter_hi: u64,
    rollback_allowance: u64,
    rng: R,
}

default_from_rng!(Monotonic);

impl<R: RngCore> Monotonic<R> {
    /// A fresh state with the default 10 s rollback allowance, drawing from `rng` (`next_u32`:
    /// the low 24 bits for a counter, all 32 for `entropy`).
    pub const fn new(rng: R) -> Self {
        Monotonic {
            timestamp: 0,
            counter_hi: 0,
            counter_lo: 0,
            ts_counter_hi: 0,
            rollback_allowance: DEFAULT_ROLLBACK_ALLOWANCE,
            rng,
        }
    }

    /// Sets how far (ms) the clock may go back before the state is reset or the call aborts.
    pub const fn with_rollback_allowance(mut self, ms: u64) -> Self {
        self.rollback_allowance = ms;
        self
    }

    fn counter(&mut self) -> u32 {
        self.rng.next_u32() & MAX_COUNTER
    }

    /// The next ID at `unix_millis`, or [`Error::ClockRollback`] when the clock went back more
    /// than the allowance (the state is left as it was).
    pub fn next_at_or_abort(&mut self, unix_millis: i64) -> Result<Scru128Id, Error> {
        let counter = self.step(unix_millis)?;
        Ok(Self::mint(self.timestamp, counter, &mut self.rng))
    }

    /// [`step`](Self::step) for the first value, then up to `n − 1` more increments of
    /// `counter_lo`, carrying into `counter_hi`: the value `counter_hi << 24 | counter_lo` + 1,
    /// up to where both are at their maximum (the next call moves the timestamp). Within one
    /// timestamp `counter_hi` is never re-drawn after the first step, so the block's values are
    /// exactly those of `n` successive calls.
    fn reserve_or_abort(&mut self, unix_millis: i64, n: u32) -> Result<Block, Error> {
        let first = self.step(unix_millis)?;
        // Readings from here on continue the sequence (`ts + allowance >= timestamp`).
        let earliest = self
            .timestamp
            .saturating_sub(self.rollback_allowance)
            .max(1) as i64;
        // A reading before that (the step carried into the next millisecond at the edge of
        // the allowance): the next call at it is a rollback, so the block ends at `first`.
        let n = if unix_millis < earliest { 1 } else { n.max(1) };
        // At least 1 (`first` < 2^48), at most `n`.
        let count = ((1 << 48) - 1 - first as u64).min(u64::from(n) - 1) as u32 + 1;
        let last = first as u64 + u64::from(count - 1);
        self.counter_hi = (last >> 24) as u32;
        self.counter_lo = last as u32 & MAX_COUNTER;
        Ok(Block {
            unix_ms: self.timestamp,
            counter: first,
            count,
            earliest,
        })
    }

    /// `f`, and after a rollback beyond the allowance, a reset and `f` again (the spec's
    /// default).
    #[inline]
    fn resetting_on_rollback<T>(
        &mut self,
        f: impl Fn(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        match f(self) {
            Err(Error::ClockRollback { .. }) => {
                self.reset();
                f(self)
            }
            other => other,
        }
    }

    /// The spec's generator step (everything but `entropy`): the new state's
    /// `counter_hi << 24 | counter_lo`, or [`Error::ClockRollback`] (the state left as it was).
    #[inline]
    fn step(&mut self, unix_millis: i64) -> Result<u128, Error> {
        let ts = unreserved_millis48(unix_millis)?;
        if ts > self.timestamp {
            self.timestamp = ts;
            self.counter_lo = self.counter();
        } else if ts + self.rollback_allowance >= self.timestamp {
            self.counter_lo += 1;
            if self.counter_lo > MAX_COUNTER {
                self.counter_lo = 0;
                self.counter_hi += 1;
                if self.counter_hi > MAX_COUNTER {
                    self.counter_hi = 0;
                    if self.timestamp + 1 >= (1 << 48) - 1 {
                        return Err(Error::MillisOutOfRange {
                            unix_millis: (self.timestamp + 1) as i64,
                        });
                    }
                    self.timestamp += 1;
                    self.counter_lo = self.counter();
                }
            }
        } else {
            return Err(Error::ClockRollback {
                last_unix_millis: self.timestamp,
                unix_millis: ts,
            });
        }
        if self.timestamp - self.ts_counter_hi >= 1_000 || self.ts_counter_hi == 0 {
            self.ts_counter_hi = self.timestamp;
            self.counter_hi = self.counter();
        }
        Ok((u128::from(self.counter_hi) << 24) | u128::from(self.counter_lo))
    }
}

impl<R: RngCore> MillisState for Monotonic<R> {
    type Id = Scru128Id;

    /// The spec's default: a rollback beyond the allowance resets the state (breaking the order
    /// with earlier IDs, as the spec accepts) and generates at the new time.
    fn next_at(&mut self, unix_millis: i64) -> Result<Scru128Id, Error> {
        self.resetting_on_rollback(|s| s.next_at_or_abort(unix_millis))
    }

    fn reset(&mut self) {
        self.timestamp = 0;
        self.counter_hi = 0;
        self.counter_lo = 0;
        self.ts_counter_hi = 0;
    }
}

impl<R: RngCore> BlockState for Monotonic<R> {
    /// The values are `counter_hi << 24 | counter_lo`; a block ends where both are at their
    /// maximum. A rollback beyond the allowance resets the state, as in
    /// [`next_at`](MillisState::next_at).
    fn reserve(&mut self, unix_millis: i64, n: u32) -> Result<Block, Error> {
        self.resetting_on_rollback(|s| s.reserve_or_abort(unix_millis, n))
    }

    /// The counters from `counter`, `entropy` from `rng` (`next_u32`).
    #[inline]
    fn mint<G: RngCore + ?Sized>(unix_ms: u64, counter: u128, rng: &mut G) -> Scru128Id {
        let entropy = u128::from(rng.next_u32());
        // `unix_ms` < 2^48 − 1 and `counter` < 2^48 (a block's values): every field fits.
        Scru128Id(be_bytes(
            (u128::from(unix_ms) << 80) | (counter << 32) | entropy,
        ))
    }
}

std_generator!(Scru128Id, "SCRU128 ID", per_thread);

crate::id_macros::settingless_generator!(Scru128Id);

#[cfg(feature = "uuid")]
crate::uuid_interop::uuid_interop!(Scru128Id: From);

crate::model::fixed_text_format!(
    Scru128Id,
    Scru128,
    ENCODED_LEN,
    unix_ms = |id: &Scru128Id| Some(id.unix_ms() as i64),
    {}
);

// The block properties collect steps in a `Vec`: std builds only.
#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::monotonic::block_props::{Fixed, blocks_match_next_at, steps, up_to};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn blocks_are_successive_next_at_values(
            // Near the top of the range too, where a carry into the timestamp runs out.
            timestamp in prop_oneof![Just(0u64), 1_000u64..1_004, Just((1 << 48) - 3)],
            counters in (up_to(MAX_COUNTER.into()), up_to(MAX_COUNTER.into())),
            ts_counter_hi in prop_oneof![Just(0u64), 1u64..1_004],
            allowance in 0u64..6,
            word in any::<u64>(),
            offsets in steps(0),
        ) {
            let base = timestamp.max(1_000) as i64;
            let steps: std::vec::Vec<_> = offsets.iter().map(|&(d, n, p)| (base + d, n, p)).collect();
            let rng = Fixed { word, bytes: 0 };
            let mut state = Monotonic::new(rng.clone()).with_rollback_allowance(allowance);
            (state.timestamp, state.ts_counter_hi) = (timestamp, ts_counter_hi.min(timestamp));
            (state.counter_hi, state.counter_lo) = (counters.0 as u32, counters.1 as u32);
            blocks_match_next_at(state, &rng, &steps, 48);
        }
    }

    /// A carry out of full counters at a reading on the allowance's edge moves the timestamp
    /// past what that reading continues: the next call at it is a rollback (a reset), so a
    /// block there holds only the carried value.
    #[test]
    fn a_carry_at_the_allowance_edge_is_a_block_of_one() {
        let rng = Fixed { word: 7, bytes: 0 };
        let mut state = Monotonic::new(rng.clone()).with_rollback_allowance(2);
        (state.timestamp, state.ts_counter_hi) = (1_000, 1);
        (state.counter_hi, state.counter_lo) = (MAX_COUNTER, MAX_COUNTER);
        let mut by_calls = state.clone();
        let block = state.reserve(998, 5).unwrap();
        assert_eq!(
            (block.unix_ms, block.counter, block.count),
            (1_001, 7 << 24 | 7, 1)
        );
        blocks_match_next_at(by_calls.clone(), &rng, &[(998, 5, 0)], 48);
        let first = by_calls.next_at(998).unwrap();
        assert_eq!(first.unix_ms(), 1_001);
        assert_eq!(by_calls.next_at(998).unwrap().unix_ms(), 998, "a reset");
    }
}
