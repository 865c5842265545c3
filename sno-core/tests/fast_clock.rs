//! The opt-in fast clock (`SystemClock::fast`) under every generator: never ahead of the OS
//! clock, IDs unique and increasing, progress through used-up units and milliseconds (where the
//! generators wait and the clock publishes a fresh reading), and a `fork()` child whose ticker
//! restarts. No timing assertions: the lag bound is measured by `scripts/bench`, not asserted.

#![cfg(not(miri))]

use sno_core::monotonic::Shared;
use sno_core::{Clock, ClockKind, Generator, MillisClock, SystemClock};

fn precise_unix_ms() -> i64 {
    SystemClock::precise_unix_ns().div_euclid(1_000_000)
}

#[test]
fn the_fast_clock_is_selected_by_kind_and_never_reads_ahead() {
    let fast = SystemClock::with_kind(ClockKind::Fast);
    assert_eq!(fast.kind(), ClockKind::Fast);
    assert!(!fast.is_coarse());
    assert_eq!(SystemClock::new().kind(), ClockKind::Precise);
    for _ in 0..100_000 {
        let (units, ms) = (fast.now_units(), fast.now_unix_millis());
        let precise = SystemClock::precise();
        assert!(units <= precise.now_units(), "fast units ahead");
        assert!(ms <= precise_unix_ms(), "fast millis ahead");
    }
}

#[test]
fn sno_ids_on_the_fast_clock_are_unique_increasing_and_never_ahead() {
    let g = Generator::builder()
        .clock(SystemClock::fast())
        .build()
        .unwrap();
    let mut last = None;
    for _ in 0..200_000 {
        let id = g.next(0).unwrap();
        assert!(id.unix_ns() <= SystemClock::precise_unix_ns());
        assert!(last < Some(id), "{last:?} then {id:?}");
        last = Some(id);
    }
}

/// Readers on more threads than cores, some reading in a loop and some sleeping between reads:
/// with the ticker waiting for a CPU, readers refresh the word themselves, and whoever publishes,
/// no thread ever reads a time ahead of a later precise reading or earlier than its last one.
#[test]
fn many_readers_publishing_never_read_ahead_or_back() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let readers: Vec<_> = (0..4 * cores)
        .map(|i| {
            std::thread::spawn(move || {
                let fast = SystemClock::fast();
                let mut last = fast.now_unix_ns();
                for n in 0..20_000 {
                    let read = fast.now_unix_ns();
                    assert!(read <= SystemClock::precise_unix_ns(), "ahead");
                    assert!(read >= last, "back from {last} to {read}");
                    last = read;
                    if i % 2 == 0 && n % 100 == 0 {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                    }
                }
            })
        })
        .collect();
    for r in readers {
        r.join().unwrap();
    }
}

/// A pool of 4 per 4 ms unit runs out at once: every later ID needs a wait, which must end in a
/// unit the fast clock shows (it publishes a fresh reading after the sleep), or `next` would
/// fail after its maximum wait.
#[test]
fn used_up_units_are_waited_through_on_the_fast_clock() {
    let g = Generator::builder()
        .clock(SystemClock::fast())
        .sequence_bounds(0, 3)
        .build()
        .unwrap();
    let ids: Vec<_> = (0..200).map(|_| g.next(0).unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    assert!(ids.last().unwrap().timestamp() >= ids[0].timestamp() + 49);
    assert!(g.stats().waits > 0);
}

#[test]
fn millisecond_formats_on_the_fast_clock() {
    fn check<S, Id>(g: Shared<S, SystemClock>, unix_ms: impl Fn(&Id) -> i64)
    where
        S: sno_core::monotonic::MillisState<Id = Id> + Clone,
        Id: Ord + core::fmt::Debug,
    {
        let mut last: Option<Id> = None;
        for _ in 0..50_000 {
            let id = g.next().unwrap();
            assert!(unix_ms(&id) <= precise_unix_ms());
            if let Some(prev) = &last {
                assert!(*prev < id, "{prev:?} then {id:?}");
            }
            last = Some(id);
        }
    }
    let fast = SystemClock::fast;
    use sno_core::rng::ThreadRng;
    check(
        Shared::with_state_and_clock(sno_core::ulid::Monotonic::new(ThreadRng), fast()),
        |id: &sno_core::ulid::Ulid| id.unix_ms() as i64,
    );
    check(
        Shared::with_state_and_clock(sno_core::uuid7::Monotonic::new(ThreadRng), fast()),
        |id: &sno_core::uuid7::Uuid7| id.unix_ms() as i64,
    );
    check(
        Shared::with_state_and_clock(sno_core::scru128::Monotonic::new(ThreadRng), fast()),
        |id: &sno_core::scru128::Scru128Id| id.unix_ms() as i64,
    );
    // 4 096 per millisecond: the sequence runs out and the generator waits for the next one.
    let epoch = 1_704_067_200_000;
    check(
        Shared::with_state_and_clock(
            sno_core::nanoflake::Monotonic::new(epoch, 7).unwrap(),
            fast(),
        ),
        |id: &sno_core::nanoflake::Nanoflake| id.unix_ms_at(epoch),
    );
    let flake = sno_core::ulid::AtomicGenerator::with_clock_and_rng(fast(), ThreadRng);
    let (a, b) = (flake.next().unwrap(), flake.next().unwrap());
    assert!(a < b && b.unix_ms() as i64 <= precise_unix_ms());
}

/// In a `fork()` child the ticker thread is gone: its time must still move on (the child's
/// first read restarts the ticker; reads before that take the precise clock; liveness, with a
/// generous deadline), and its IDs are its own.
#[cfg(unix)]
#[test]
fn a_fork_child_restarts_the_ticker() {
    let g = Generator::builder()
        .clock(SystemClock::fast())
        .build()
        .unwrap();
    let before: Vec<_> = (0..1_000).map(|_| g.next(0).unwrap()).collect();
    // SAFETY: the child only generates IDs (atomics, clock reads, starting one thread) and
    // leaves with `_exit`, touching no state of the parent's other threads.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let first = g.next(0).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let mut code = 0;
        loop {
            let id = g.next(0).unwrap();
            if before.contains(&id) || id.partition() == before[0].partition() {
                code = 1;
                break;
            }
            if id.timestamp() > first.timestamp() + 2 {
                break;
            }
            if std::time::Instant::now() > deadline {
                code = 2;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // SAFETY: ends the child without running the parent's destructors or test harness.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: waits for the child forked above; `status` is a valid out-pointer.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(libc::WIFEXITED(status), "the child did not exit");
    match libc::WEXITSTATUS(status) {
        0 => {}
        1 => panic!("the child repeated the parent's partition or IDs"),
        2 => panic!(
            "the child's fast clock did not move (neither a restarted ticker nor the precise fallback)"
        ),
        other => panic!("the child failed ({other})"),
    }
}
