//! The property every [`BlockState`] must have, for the formats' property tests.

use super::traits::BlockState;
use proptest::prelude::*;
use rand_core::RngCore;
use std::vec::Vec;

/// Any value up to `max`, or one of the last 100 (where a format's run ends).
pub(crate) fn up_to(max: u128) -> impl Strategy<Value = u128> {
    prop_oneof![0..=max, max - 100..=max]
}

/// Up to 12 steps `(clock, n, probe)` for [`blocks_match_next_at`], the clock within
/// `around − 10 .. around + 6`.
pub(crate) fn steps(around: i64) -> impl Strategy<Value = Vec<(i64, u32, u8)>> {
    proptest::collection::vec((around - 10..around + 6, 0u32..80, any::<u8>()), 1..12)
}

/// Returns the same draws every time, so two copies of a state stay in step however many
/// per-ID draws either makes.
#[derive(Debug, Clone)]
pub(crate) struct Fixed {
    pub(crate) word: u64,
    pub(crate) bytes: u128,
}

impl RngCore for Fixed {
    fn next_u32(&mut self) -> u32 {
        self.word as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.word
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        let bytes = self.bytes.to_be_bytes();
        dst.copy_from_slice(&bytes[16 - dst.len()..]);
    }
}

/// For each step `(clock, n, probe)`: `reserve(clock, n)` on one copy of `state` gives
/// exactly the IDs (or the error) of `count` successive `next_at(clock)` on another, at most
/// `n` of them, cut short only where the next call at `clock` would not continue the run;
/// and a clock reading anywhere in the block's range (`probe` picks one) continues the run
/// exactly when `clock` does (what lets the per-thread cache use a block at that reading).
/// `clock` is in that range unless the block is a single value after which `clock` does not
/// continue the run. The block's values count up in a field of `counter_bits` bits.
pub(crate) fn blocks_match_next_at<S>(
    state: S,
    rng: &Fixed,
    steps: &[(i64, u32, u8)],
    counter_bits: u32,
) where
    S: BlockState + Clone,
    S::Id: PartialEq + Clone + core::fmt::Debug,
{
    let (mut a, mut b) = (state.clone(), state);
    let mut rng = rng.clone();
    for &(clock, n, probe) in steps {
        let block = match a.reserve(clock, n) {
            Err(e) => {
                assert_eq!(b.next_at(clock), Err(e), "at {clock}");
                continue;
            }
            Ok(block) => block,
        };
        assert!((1..=n.max(1)).contains(&block.count), "{block:?}, n {n}");
        assert!(clock <= block.unix_ms as i64, "{block:?} at {clock}");
        // `clock` before the block's range: its first value carried into a millisecond that
        // `clock` no longer continues (the next call at it is a rollback), a block of one.
        let in_range = block.earliest <= clock;
        assert!(in_range || block.count == 1, "{block:?} at {clock}");
        for i in 0..block.count {
            let minted = S::mint(block.unix_ms, block.counter + u128::from(i), &mut rng);
            assert_eq!(Ok(minted), b.next_at(clock), "value {i} of {block:?}");
        }
        let span = block.unix_ms as i64 - block.earliest;
        let reading = block.earliest + (span as u64 * u64::from(probe) / 255) as i64;
        // A run that ends at 2^128 − 1 (a full 128-bit counter) has no value after it: the next
        // call is an error.
        let Some(next) = block.counter.checked_add(u128::from(block.count)) else {
            assert!(b.clone().next_at(clock).is_err(), "{block:?}");
            continue;
        };
        // A run that fills the counter's field (`counter_bits` wide) ends there: the next value
        // is of a later millisecond (a carry, which `reserve` leaves to the following call).
        if counter_bits < 128 && next >> counter_bits != 0 {
            continue;
        }
        let following = S::mint(block.unix_ms, next, &mut rng);
        let goes_on = b.clone().next_at(clock) == Ok(following.clone());
        let goes_on_then = b.clone().next_at(reading) == Ok(following);
        if in_range {
            assert_eq!(goes_on, goes_on_then, "{block:?}, read at {reading}");
        } else {
            assert!(!goes_on, "{block:?} goes on at {clock}");
        }
        if block.count < n.max(1) {
            assert!(!goes_on, "{block:?} cut short of {n} for nothing");
        }
    }
}
