//! Unit tests of the sno generator's internals (state packing, clamping, the clock's range).

use super::builder::GeneratorBuilder;
use super::engine::Generator;
use super::state::{COUNTER_MASK, counter_of, pack, tick_of, units_of};
use crate::error::Error;
use crate::time::MAX_TIMESTAMP;

use crate::clock::ManualClock;
use crate::sync::Ordering;

/// Held by each test below: a generator with an explicit partition refuses (`Forked`) once
/// another test of this binary bumps the fork generation.
#[cfg(feature = "std")]
fn serial() -> impl Drop {
    crate::fork::GENERATION_LOCK
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}
#[cfg(not(feature = "std"))]
fn serial() -> impl Sized {}

fn gen_at(units: i64, min: u16, max: u16) -> Generator<ManualClock> {
    GeneratorBuilder::new(ManualClock::new(units))
        .partition(7)
        .sequence_bounds(min, max)
        .build()
        .unwrap()
}

#[test]
fn packing_round_trips() {
    let s = pack(MAX_TIMESTAMP, true, COUNTER_MASK);
    assert_eq!(
        (units_of(s), tick_of(s), counter_of(s)),
        (MAX_TIMESTAMP, true, COUNTER_MASK)
    );
    assert_eq!(s, u64::MAX);
}

#[test]
fn clamp_keeps_counter_bounded_under_a_frozen_clock() {
    let _serial = serial();
    let g = gen_at(10, 0, 3);
    for _ in 0..4 {
        g.try_next(0).unwrap();
    }
    for _ in 0..10_000 {
        assert_eq!(
            g.try_next(0),
            Err(Error::SequenceExhausted { retry_at: 11 })
        );
    }
    let state = g.state.0.load(Ordering::Relaxed);
    assert!(
        counter_of(state) <= 6,
        "counter crept to {}",
        counter_of(state)
    );
    assert_eq!(g.stats().overflow_episodes, 1);
    assert_eq!(g.stats().overflows, 10_000);
}

#[test]
fn clock_out_of_range_is_an_error() {
    let _serial = serial();
    let g = gen_at(-1, 0, 0);
    assert_eq!(g.try_next(0), Err(Error::ClockOutOfRange { units: -1 }));
    g.clock().set(MAX_TIMESTAMP as i64 + 1);
    assert_eq!(
        g.try_next(0),
        Err(Error::ClockOutOfRange {
            units: MAX_TIMESTAMP as i64 + 1
        })
    );
    g.clock().set(MAX_TIMESTAMP as i64);
    assert_eq!(g.try_next(0).unwrap().timestamp(), MAX_TIMESTAMP);
}
