//! Model checks of the wait-free sno generator with loom: every interleaving of 2–3 threads
//! (up to loom's preemption bound) over a hand-driven clock, asserting that no ID repeats and
//! that each thread's IDs keep their order.
//!
//! Under loom, `try_next` takes a block of one sequence per call (no thread-local storage): the
//! per-ID algorithm. The `blocks_*` models give each thread its own
//! [`Reservation`](sno_core::generator::Reservation) and `try_next_with`, with blocks of up to
//! 2 sequences: a unit change, an exhausted pool and regressions, with reserved blocks outliving
//! the state's move to another slot.
//!
//! ```text
//! RUSTFLAGS="--cfg loom" cargo test -p sno-core --release --test loom
//! LOOM_MAX_PREEMPTIONS=99 RUSTFLAGS="--cfg loom" cargo test -p sno-core --release --test loom
//! ```
//!
//! The first explores every interleaving with up to [`PREEMPTIONS`] preemptions (about 35 s on
//! 2 cores; it is part of the repository's test command). The second is exhaustive (about 15
//! minutes, measured before each release; the bugs this model found in development showed up
//! with 2 preemptions).
//!
//! Without `--cfg loom` this file compiles to nothing. The clock is a [`ManualClock`], whose
//! atomic is loom's under `--cfg loom`, so clock moves are interleaved with the generator's own
//! atomics, including a thread reading the clock, being preempted, and finishing after another
//! thread moved both the clock and the state. (`std::sync::Arc` only shares them: the model
//! is in their atomics.)
#![cfg(loom)]

use std::collections::HashSet;

use loom::thread;
use sno_core::generator::Reservation;
use sno_core::{Error, Generator, Id, ManualClock, Snapshot};
use std::sync::Arc;

/// Default preemption bound, unless `LOOM_MAX_PREEMPTIONS` sets one.
const PREEMPTIONS: usize = 6;

/// `loom::model` with the preemption bound above.
fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound.get_or_insert(PREEMPTIONS);
    builder.check(f);
}

/// What one thread did: each call's result, in order.
type Trace = Vec<Result<Id, Error>>;

fn generator(clock: &Arc<ManualClock>, min: u16, max: u16) -> Arc<Generator<Arc<ManualClock>>> {
    blocks_generator(clock, min, max, 1)
}

/// A generator whose threads reserve up to `max_block` sequences at once.
fn blocks_generator(
    clock: &Arc<ManualClock>,
    min: u16,
    max: u16,
    max_block: u32,
) -> Arc<Generator<Arc<ManualClock>>> {
    Arc::new(
        Generator::builder()
            .clock(Arc::clone(clock))
            .partition(7)
            .sequence_bounds(min, max)
            .max_block(max_block)
            .build()
            .expect("valid settings"),
    )
}

/// Runs `body(thread index, generator, clock)` on `threads` loom threads and returns their traces.
fn run_threads<F>(
    threads: usize,
    generator: &Arc<Generator<Arc<ManualClock>>>,
    clock: &Arc<ManualClock>,
    body: F,
) -> Vec<Trace>
where
    F: Fn(usize, &Generator<Arc<ManualClock>>, &ManualClock) -> Trace + Clone + Send + 'static,
{
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let (g, c, body) = (Arc::clone(generator), Arc::clone(clock), body.clone());
            thread::spawn(move || body(t, &g, &c))
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

/// Thread 0 makes an ID at 100, then sets the clock to each of `walk` and makes one more;
/// thread 1 makes two IDs meanwhile. Returns the traces and the generator's final snapshot.
fn clock_walk(walk: &'static [i64]) -> (Vec<Trace>, Snapshot) {
    let clock = Arc::new(ManualClock::new(100));
    let g = generator(&clock, 0, 15);
    let traces = run_threads(2, &g, &clock, move |t, g, clock| {
        if t == 1 {
            return vec![g.try_next(1), g.try_next(1)];
        }
        let mut trace = vec![g.try_next(0)];
        for &units in walk {
            clock.set(units);
            trace.push(g.try_next(0));
        }
        trace
    });
    (traces, g.snapshot())
}

/// No ID twice across all threads; within a thread, a later ID on the same timeline (tick-tock
/// value) is greater. Across a timeline switch there is no order to keep: after a regression the
/// new timeline reuses the old one's time span, and a call that read the clock just before
/// another thread switched can land on the new timeline at the old one's last unit (the model
/// finds that interleaving: thread 1 reads 102 twice and gets 102-tick then 102-tock).
/// Returns the IDs made.
fn check(traces: &[Trace]) -> Vec<Id> {
    let mut seen = HashSet::new();
    let mut all = Vec::new();
    for trace in traces {
        let made: Vec<Id> = trace.iter().filter_map(|r| r.ok()).collect();
        for w in made.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert!(
                a < b || b.tick_tock() != a.tick_tock(),
                "thread order broken: {a:?} then {b:?}"
            );
        }
        for id in made {
            assert!(seen.insert(id), "duplicate {id:?} in {traces:?}");
            assert_eq!(id.partition(), 7);
            all.push(id);
        }
    }
    all
}

/// Progression: two threads make two IDs each while one of them moves the clock forward one
/// unit between its calls. Every call succeeds (the pool is large), and both units are used.
#[test]
fn progression() {
    model(|| {
        let clock = Arc::new(ManualClock::new(100));
        let g = generator(&clock, 0, 15);
        let traces = run_threads(2, &g, &clock, |t, g, clock| {
            let first = g.try_next(0);
            if t == 0 {
                clock.set(101);
            }
            vec![first, g.try_next(0)]
        });
        let ids = check(&traces);
        assert_eq!(ids.len(), 4, "{traces:?}");
        assert!(ids.iter().all(|id| [100, 101].contains(&id.timestamp())));
        assert!(
            ids.iter().all(|id| !id.tick_tock()),
            "no regression, no tick"
        );
        // Thread 0's second call reads 101 (it set it): that unit's first sequence is its own.
        assert_eq!(traces[0][1].unwrap().timestamp(), 101);
    });
}

/// The first regression switches timelines; the second one, back into time both timelines have
/// used, is refused with `ClockRegression` until the clock passes the saved high-water mark.
/// Thread 0 drives the clock 100 → 98 → 97; thread 1 generates throughout.
#[test]
fn regressions() {
    model(|| {
        // 98: the first regression, a new timeline (tick flips); 97: a second regression, below
        // the other timeline's high-water mark.
        let (traces, snapshot) = clock_walk(&[98, 97]);
        let ids = check(&traces);
        // Thread 0's first ID is at 100 on the first timeline, its second at 98 on the other.
        let t0 = &traces[0];
        let a = t0[0].unwrap();
        assert_eq!((a.timestamp(), a.tick_tock()), (100, false));
        switched_or_raced(&traces, 1, (98, true), 101);
        // 97 is inside both timelines' span (the old one reached 100): refused, retry at 101.
        assert_eq!(t0[2], Err(Error::ClockRegression { retry_at: 101 }));
        // Thread 1 gets 100 on the first timeline, 98 on the second, or, when it read 100 before
        // thread 0 moved the clock and finished after the switch, 100 on the second timeline
        // (a stale reading is progression from 98; unique, as the tick differs), or the error.
        for r in &traces[1] {
            match r {
                Ok(id) => assert!(
                    [(100, false), (98, true), (100, true)]
                        .contains(&(id.timestamp(), id.tick_tock())),
                    "{id:?}"
                ),
                Err(e) => assert_eq!(*e, Error::ClockRegression { retry_at: 101 }),
            }
        }
        assert!(ids.len() >= 2, "{traces:?}");
        assert_eq!(
            snapshot.wall_safe, 100,
            "the old timeline's high-water mark"
        );
    });
}

/// A regression that lands past the high-water mark switches timelines again (tick flips back):
/// 100 → 98 (switch) → 102 (progress) → 101 (second switch, allowed: 101 > 100). Thread 1
/// generates throughout, so either switch may be made by it or race with it.
#[test]
fn second_switch() {
    model(|| {
        let (traces, _) = clock_walk(&[98, 102, 101]);
        check(&traces);
        let reading = |call: usize| traces[0][call].map(|id| (id.timestamp(), id.tick_tock()));
        assert_eq!(reading(0), Ok((100, false)));
        switched_or_raced(&traces, 1, (98, true), 101);
        // The second timeline exists unless the first switch was given up (see above).
        let switched = traces
            .iter()
            .flatten()
            .flatten()
            .any(|id| id.timestamp() == 98);
        assert_eq!(reading(2), Ok((102, switched)), "{traces:?}");
        switched_or_raced(&traces, 3, (101, !switched), 103);
    });
}

/// Thread 0's call `call` made after a regression gets an ID at `(unit, tick)`, or is refused
/// with `retry_at` only because it ran inside thread 1's own switch (between its `fetch_max` of
/// wall_safe and its CAS): then thread 1's call either made that switch (it owns the first
/// sequence of `(unit, tick)`) or gave it up because thread 0 moved the state on, and was refused
/// in turn. Either way thread 1 did not make two plain IDs.
fn switched_or_raced(traces: &[Trace], call: usize, (unit, tick): (u64, bool), retry_at: u64) {
    match traces[0][call] {
        Ok(id) => assert_eq!((id.timestamp(), id.tick_tock()), (unit, tick), "{traces:?}"),
        Err(e) => {
            assert_eq!(e, Error::ClockRegression { retry_at }, "{traces:?}");
            let switcher = traces[1].iter().any(|r| match r {
                Ok(id) => (id.timestamp(), id.tick_tock(), id.sequence()) == (unit, tick, 0),
                Err(e) => matches!(e, Error::ClockRegression { .. }),
            });
            assert!(switcher, "refused without a concurrent switch: {traces:?}");
        }
    }
}

/// Sequence exhaustion: three threads make two IDs each in one unit of a 4-sequence pool.
/// Exactly four calls succeed, with the four sequences; the other two get `SequenceExhausted`
/// pointing at the next unit, and the counter never spills into the tick bit.
#[test]
fn exhaustion() {
    model(|| {
        let clock = Arc::new(ManualClock::new(100));
        let g = generator(&clock, 10, 13);
        let traces = run_threads(3, &g, &clock, |_, g, _| vec![g.try_next(0), g.try_next(0)]);
        check_drained(&g, &clock, &traces);
    });
}

/// Six calls at unit 100 on a 4-sequence pool (10..=13): exactly four succeed, with the four
/// sequences; the other two get `SequenceExhausted` pointing at the next unit, the episode is
/// counted once, and the counter never spilled into the tick bit (the next unit starts a fresh
/// pool on the same timeline).
fn check_drained(g: &Generator<Arc<ManualClock>>, clock: &ManualClock, traces: &[Trace]) {
    let ids = check(traces);
    let mut seqs: Vec<u16> = ids.iter().map(|id| id.sequence()).collect();
    seqs.sort_unstable();
    assert_eq!(seqs, [10, 11, 12, 13], "{traces:?}");
    let errors: Vec<_> = traces.iter().flatten().filter_map(|r| r.err()).collect();
    assert_eq!(
        errors,
        [Error::SequenceExhausted { retry_at: 101 }; 2],
        "{traces:?}"
    );
    assert!(
        ids.iter()
            .all(|id| id.timestamp() == 100 && !id.tick_tock())
    );
    let stats = g.stats();
    assert_eq!(
        (stats.overflow_episodes, stats.overflows),
        (1, 2),
        "{traces:?}"
    );
    clock.set(101);
    let next = g.try_next(0).unwrap();
    assert_eq!(
        (next.timestamp(), next.tick_tock(), next.sequence()),
        (101, false, 10)
    );
}

/// Blocks and a unit change: each thread makes three IDs from its own reservation (blocks of
/// 1, then 2); thread 0 moves the clock forward after its first. Every call succeeds, and
/// blocks reserved at 100 are used only while a thread's clock reads 100.
#[test]
fn blocks_progression() {
    model(|| {
        let clock = Arc::new(ManualClock::new(100));
        let g = blocks_generator(&clock, 0, 15, 2);
        let traces = run_threads(2, &g, &clock, |t, g, clock| {
            let mut r = Reservation::new();
            let first = g.try_next_with(&mut r, 0);
            if t == 0 {
                clock.set(101);
            }
            vec![
                first,
                g.try_next_with(&mut r, 0),
                g.try_next_with(&mut r, 0),
            ]
        });
        let ids = check(&traces);
        assert_eq!(ids.len(), 6, "{traces:?}");
        assert!(ids.iter().all(|id| [100, 101].contains(&id.timestamp())));
        assert!(
            ids.iter().all(|id| !id.tick_tock()),
            "no regression, no tick"
        );
        assert_eq!(traces[0][1].unwrap().timestamp(), 101);
        // The high-water mark covers every sequence handed out at the last unit.
        let s = g.snapshot();
        let top = ids.iter().filter(|id| id.timestamp() == s.wall_hi as u64);
        assert!(
            top.map(|id| u32::from(id.sequence()))
                .all(|q| q <= s.sequence)
        );
    });
}

/// Blocks and an exhausted pool: two threads make three IDs each from a 4-sequence pool with
/// blocks of up to 2. A thread's blocks are used up by its next calls, so the whole pool is
/// issued: exactly four IDs, two refusals, one episode.
#[test]
fn blocks_exhaustion() {
    model(|| {
        let clock = Arc::new(ManualClock::new(100));
        let g = blocks_generator(&clock, 10, 13, 2);
        let traces = run_threads(2, &g, &clock, |_, g, _| {
            let mut r = Reservation::new();
            (0..3).map(|_| g.try_next_with(&mut r, 0)).collect()
        });
        check_drained(&g, &clock, &traces);
    });
}

/// Blocks and regressions: thread 0 makes two IDs at 100 (its second reserves a block of 2),
/// then walks the clock 98 (a switch: wall_safe becomes 100) → 100 (progression on the new
/// timeline) → 97 (inside both timelines: refused). Thread 1 makes three IDs with its own
/// reservation meanwhile, possibly from a block it reserved at 100 on the first timeline after
/// that timeline went inactive (when its clock reads 100 again). No ID twice, each thread in
/// order on each timeline.
#[test]
fn blocks_regressions() {
    model(|| {
        let clock = Arc::new(ManualClock::new(100));
        let g = blocks_generator(&clock, 0, 15, 2);
        let traces = run_threads(2, &g, &clock, |t, g, clock| {
            let mut r = Reservation::new();
            if t == 1 {
                return (0..3).map(|_| g.try_next_with(&mut r, 0)).collect();
            }
            let mut trace = vec![g.try_next_with(&mut r, 0), g.try_next_with(&mut r, 0)];
            for units in [98, 100, 97] {
                clock.set(units);
                trace.push(g.try_next_with(&mut r, 0));
            }
            trace
        });
        check(&traces);
        for call in 0..2 {
            let id = traces[0][call].unwrap();
            assert_eq!((id.timestamp(), id.tick_tock()), (100, false), "{traces:?}");
        }
        let refused = Err(Error::ClockRegression { retry_at: 101 });
        assert_eq!(traces[0][4], refused, "{traces:?}");
        for r in traces.iter().flatten() {
            match r {
                Ok(id) => assert!(
                    [(100, false), (98, true), (100, true)]
                        .contains(&(id.timestamp(), id.tick_tock())),
                    "{id:?} in {traces:?}"
                ),
                Err(_) => assert_eq!(*r, refused, "{traces:?}"),
            }
        }
        assert_eq!(g.snapshot().wall_safe, 100);
    });
}
