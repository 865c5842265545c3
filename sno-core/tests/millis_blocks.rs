//! The per-thread blocks behind the process-wide `new()` of ULID, UUIDv7 and SCRU128 (and
//! `try_next_per_thread` of their generators): unique across threads, strictly increasing per
//! thread, shared with the strict per-ID path of the same generator, and wasting no value when a
//! thread takes turns between generators. (Blocks equal successive `next_at` values: the
//! property tests in each format's module. Fork: `formats_vectors.rs`.)

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use common::{scaled, threads_never_repeat};
use sno_core::{scru128, ulid, uuid7};

#[test]
fn process_wide_new_never_repeats_across_threads() {
    let n = scaled(100_000, 50);
    threads_never_repeat(n, || ulid::try_new().unwrap());
    threads_never_repeat(n, || uuid7::try_new().unwrap());
    threads_never_repeat(n, || scru128::try_new().unwrap());
}

/// Threads taking blocks and a thread taking one value at a time from the same generator
/// never meet.
#[test]
fn blocks_and_single_values_of_one_generator_never_meet() {
    fn mixed<T: Ord + Copy + Send + 'static>(
        per_thread: usize,
        one: impl Fn() -> T + Send + Sync + 'static,
        block: impl Fn() -> T + Send + Sync + 'static,
    ) {
        std::thread_local! {
            /// Whether this thread takes the strict path (each thread keeps to one path: a
            /// thread mixing them gets unique values, but not in order).
            static STRICT: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
        }
        let threads = AtomicI64::new(0);
        threads_never_repeat(per_thread, move || {
            let strict = STRICT.get().unwrap_or_else(|| {
                let strict = threads.fetch_add(1, Ordering::Relaxed) == 0;
                STRICT.set(Some(strict));
                strict
            });
            if strict { one() } else { block() }
        });
    }
    let n = scaled(50_000, 50);
    let u = Arc::new(ulid::AtomicGenerator::default());
    let u2 = Arc::clone(&u);
    mixed(
        n,
        move || u.try_next().unwrap(),
        move || u2.try_next_per_thread().unwrap(),
    );
    let v = Arc::new(uuid7::Generator::default());
    let v2 = Arc::clone(&v);
    mixed(
        n,
        move || v.try_next().unwrap(),
        move || v2.try_next_per_thread().unwrap(),
    );
    let s = Arc::new(scru128::Generator::default());
    let s2 = Arc::clone(&s);
    mixed(
        n,
        move || s.try_next().unwrap(),
        move || s2.try_next_per_thread().unwrap(),
    );
}

/// One thread takes turns between six generators of each format (more than a thread has
/// slots, so some share one) on a frozen clock: each generator's values follow each other with
/// no gap, whether its block stayed cached or was given up at each turn.
#[test]
fn a_thread_taking_turns_between_generators_skips_no_value() {
    const MS: i64 = 1_700_000_000_000;
    let clock = || MS;
    let rounds = scaled(300, 20);
    let ulids: Vec<_> = (0..6)
        .map(|_| ulid::AtomicGenerator::with_clock_and_rng(clock, sno_core::rng::ThreadRng))
        .collect();
    let uuids: Vec<_> = (0..6)
        .map(|_| uuid7::Generator::with_state_and_clock(uuid7::Monotonic::default(), clock))
        .collect();
    let scrus: Vec<_> = (0..6)
        .map(|_| scru128::Generator::with_state_and_clock(scru128::Monotonic::default(), clock))
        .collect();
    // Each generator's last counter: ULID's randomness, UUIDv7's `rand_a` and top 30 bits of
    // `rand_b`, SCRU128's two counters.
    let mut last = [[None::<u128>; 6]; 3];
    let mut take = |i: usize| {
        let (u, v, s) = (
            ulids[i].try_next_per_thread().unwrap(),
            uuids[i].try_next_per_thread().unwrap(),
            scrus[i].try_next_per_thread().unwrap(),
        );
        let counters = [
            u.randomness(),
            (u128::from(v.rand_a()) << 30) | u128::from(v.rand_b() >> 32),
            (u128::from(s.counter_hi()) << 24) | u128::from(s.counter_lo()),
        ];
        counters
            .iter()
            .zip(&mut last)
            .filter_map(|(&c, last)| last[i].replace(c).map(|prev| (prev, c)))
            .collect::<Vec<_>>()
    };
    // In turn, one value each: no gap.
    for _ in 0..rounds {
        for i in 0..6 {
            for (prev, now) in take(i) {
                assert_eq!(now, prev + 1, "generator {i}");
            }
        }
    }
    // Irregular turns (1 to 3 values, so blocks grow, then are given up): gaps, but each
    // generator's values still increase (a slot never serves another generator's block).
    for round in 0..rounds {
        for i in 0..6 {
            for _ in 0..=(round + i) % 3 {
                for (prev, now) in take(i) {
                    assert!(now > prev, "generator {i}");
                }
            }
        }
    }
}
