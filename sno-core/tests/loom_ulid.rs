//! Model checks of the process-wide ULID generator's design ([`AtomicGenerator`]: one
//! `fetch_add` per ULID or per block of tickets, a mutex to open an epoch) with loom: every
//! interleaving of 2–3 threads up to the preemption bound, asserting that no ULID repeats and
//! that each thread's ULIDs increase. The blocks are what `ulid::new()` takes through its
//! per-thread cache (`try_reserve`; the cache itself is one thread's plain code).
//!
//! ```text
//! RUSTFLAGS="--cfg loom" cargo test -p sno-core --release --test loom_ulid
//! ```
//!
//! Under loom an epoch has 4 tickets, a block at most 2 and the ring 2 entries, so the models
//! open epochs within a millisecond, cut blocks at an epoch's end, use up the 80-bit randomness,
//! and overwrite entries that a stalled reader still wants (it must notice and start over).
//! Without `--cfg loom` this file compiles to nothing.
#![cfg(loom)]

use std::collections::HashSet;
use std::sync::Arc;

use loom::sync::atomic::{AtomicI64, Ordering};
use loom::thread;
use sno_core::Error;
use sno_core::rng::RngCore;
use sno_core::ulid::{AtomicGenerator, MAX_RANDOMNESS, Ulid};

/// Default preemption bound, unless `LOOM_MAX_PREEMPTIONS` sets one.
const PREEMPTIONS: usize = 3;

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound.get_or_insert(PREEMPTIONS);
    builder.check(f);
}

/// Draws `first`, then `first + step`, … (as the low 80 bits).
#[derive(Debug)]
struct StepRng {
    next: u128,
    step: u128,
}

impl RngCore for StepRng {
    fn next_u32(&mut self) -> u32 {
        unreachable!("only fill_bytes is used")
    }
    fn next_u64(&mut self) -> u64 {
        unreachable!("only fill_bytes is used")
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        dst.copy_from_slice(&self.next.to_be_bytes()[16 - dst.len()..]);
        self.next = (self.next + self.step) & MAX_RANDOMNESS;
    }
}

type Clock = Arc<AtomicI64>;
type Gen = AtomicGenerator<Box<dyn Fn() -> i64 + Send + Sync>, StepRng>;
type Trace = Vec<Result<Ulid, Error>>;

fn generator(clock: &Clock, first: u128, step: u128) -> Arc<Gen> {
    let clock = Arc::clone(clock);
    let read: Box<dyn Fn() -> i64 + Send + Sync> = Box::new(move || clock.load(Ordering::Relaxed));
    Arc::new(AtomicGenerator::with_clock_and_rng(
        read,
        StepRng { next: first, step },
    ))
}

/// Runs `body(thread index)` on `threads` loom threads; returns their traces.
fn run(threads: usize, body: impl Fn(usize) -> Trace + Clone + Send + 'static) -> Vec<Trace> {
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let body = body.clone();
            thread::spawn(move || body(t))
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

/// No ULID twice; each thread's ULIDs strictly increase. Returns the ULIDs made.
fn check(traces: &[Trace]) -> Vec<Ulid> {
    let mut seen = HashSet::new();
    for trace in traces {
        let made: Vec<Ulid> = trace.iter().filter_map(|r| r.ok()).collect();
        assert!(made.windows(2).all(|w| w[0] < w[1]), "order: {traces:?}");
        for u in made {
            assert!(seen.insert(u), "duplicate {u:?} in {traces:?}");
        }
    }
    seen.into_iter().collect()
}

/// Three threads, three ULIDs each, in one millisecond: nine ULIDs over three 4-ticket epochs,
/// the second and third continuing past the first's tickets, the ring (2 entries) wrapping.
#[test]
fn epochs_within_a_millisecond() {
    model(|| {
        let clock = Arc::new(AtomicI64::new(1_000));
        let g = generator(&clock, 1 << 40, 1 << 60);
        let traces = run(3, move |_| (0..3).map(|_| g.try_next()).collect());
        let made = check(&traces);
        assert_eq!(made.len(), 9, "{traces:?}");
        // One draw: every epoch of the millisecond continues the first one's base.
        assert!(
            made.iter().all(
                |u| u.unix_ms() == 1_000 && (1 << 40..(1 << 40) + 12).contains(&u.randomness())
            )
        );
    });
}

/// Starting 5 below the top of the 80 bits: six ULIDs fit (two epochs, the second cut short),
/// every later call in the millisecond is `RandomnessExhausted`.
#[test]
fn randomness_runs_out() {
    model(|| {
        let clock = Arc::new(AtomicI64::new(7));
        let g = generator(&clock, MAX_RANDOMNESS - 5, 0);
        let traces = run(2, move |_| (0..4).map(|_| g.try_next()).collect());
        let made = check(&traces);
        assert_eq!(made.len(), 6, "{traces:?}");
        for r in traces.iter().flatten() {
            if let Err(e) = r {
                assert_eq!(*e, Error::RandomnessExhausted { unix_millis: 7 });
            }
        }
    });
}

/// Thread 0 moves the clock forward, then back, between its calls; thread 1 generates
/// throughout. A new millisecond draws new randomness; going back keeps the last millisecond.
#[test]
fn clock_moves() {
    model(|| {
        let clock = Arc::new(AtomicI64::new(100));
        let g = generator(&clock, 1 << 70, 1 << 72);
        let c = Arc::clone(&clock);
        let traces = run(2, move |t| {
            if t == 1 {
                return vec![g.try_next(), g.try_next()];
            }
            let first = g.try_next();
            c.store(101, Ordering::Relaxed);
            let second = g.try_next();
            c.store(99, Ordering::Relaxed);
            vec![first, second, g.try_next()]
        });
        let made = check(&traces);
        assert_eq!(made.len(), 5, "{traces:?}");
        let t0: Vec<Ulid> = traces[0].iter().map(|r| r.unwrap()).collect();
        assert_eq!(t0[0].unix_ms(), 100);
        assert_eq!(t0[1].unix_ms(), 101);
        assert_eq!(t0[2].unix_ms(), 101, "the clock went back: 101 is kept");
    });
}

/// The ULIDs of a block of up to 2 tickets, or its error.
fn take_block(g: &Gen) -> Trace {
    match g.try_reserve(2) {
        Ok(b) => (0..b.count)
            .map(|i| Ulid::from_fields(b.unix_ms, b.counter + u128::from(i)))
            .collect(),
        Err(e) => vec![Err(e)],
    }
}

/// Two threads, one taking three blocks of 2, the other three single ULIDs, in one
/// millisecond: up to nine ULIDs over up to three 4-ticket epochs, blocks cut at an epoch's
/// end, the ring wrapping; none twice.
#[test]
fn blocks_within_a_millisecond() {
    model(|| {
        let clock = Arc::new(AtomicI64::new(1_000));
        let g = generator(&clock, 1 << 40, 1 << 60);
        let traces = run(2, move |t| {
            (0..3)
                .flat_map(|_| {
                    if t == 0 {
                        take_block(&g)
                    } else {
                        vec![g.try_next()]
                    }
                })
                .collect()
        });
        let made = check(&traces);
        assert!(
            made.iter().all(
                |u| u.unix_ms() == 1_000 && (1 << 40..(1 << 40) + 12).contains(&u.randomness())
            ),
            "{traces:?}"
        );
        assert!((6..=9).contains(&made.len()), "{traces:?}");
    });
}

/// Blocks running into the top of the 80 bits (from 3 below it): cut there, then
/// `RandomnessExhausted`, with a thread moving the clock on meanwhile (to a millisecond with
/// room again).
#[test]
fn blocks_at_the_end_of_the_randomness() {
    model(|| {
        let clock = Arc::new(AtomicI64::new(7));
        let g = generator(&clock, MAX_RANDOMNESS - 3, 1 << 70);
        let c = Arc::clone(&clock);
        let traces = run(2, move |t| {
            let mut trace = take_block(&g);
            trace.extend(take_block(&g));
            if t == 1 {
                c.store(8, Ordering::Relaxed);
            }
            trace.extend(take_block(&g));
            trace
        });
        let made = check(&traces);
        for r in traces.iter().flatten() {
            match r {
                Err(e) => assert_eq!(*e, Error::RandomnessExhausted { unix_millis: 7 }),
                Ok(u) if u.unix_ms() == 7 => assert!(u.randomness() >= MAX_RANDOMNESS - 3),
                Ok(u) => assert_eq!(u.unix_ms(), 8),
            }
        }
        assert!(made.iter().filter(|u| u.unix_ms() == 7).count() <= 4);
    });
}
