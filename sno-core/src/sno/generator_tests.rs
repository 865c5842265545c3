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

/// A process-shared generator (PostgreSQL's shared memory) has no fork rule: a child mints
/// from the very state its parent does, on the partition given; an observer is refused.
#[cfg(all(feature = "std", unix, not(miri)))]
#[test]
fn a_process_shared_generator_mints_in_a_fork_child() {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::vec::Vec;

    let _serial = serial();
    // An anonymous shared mapping made before the fork: what PostgreSQL's postmaster gives its
    // children.
    let size = core::mem::size_of::<Generator>() + core::mem::size_of::<AtomicU64>() * 2;
    // SAFETY: a fresh anonymous mapping of `size` bytes, read and written only below.
    let base = unsafe {
        libc::mmap(
            core::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(base, libc::MAP_FAILED);
    let g = base.cast::<Generator>();
    let built = Generator::builder()
        .partition(9)
        .process_shared()
        .build()
        .unwrap();
    // SAFETY: `g` is the start of the page-aligned mapping, large enough; written once.
    unsafe { g.write(built) };
    // SAFETY: initialised just above, never moved.
    let g: &Generator = unsafe { &*g };
    // SAFETY: the two words after the generator, inside the mapping, zeroed by mmap.
    let child_ids: &[AtomicU64; 2] = unsafe {
        &*base
            .cast::<u8>()
            .add(core::mem::size_of::<Generator>())
            .cast::<[AtomicU64; 2]>()
    };
    let parent = g.try_next(0).unwrap();
    // SAFETY: fork in a test; the child only mints, stores and exits.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0);
    if pid == 0 {
        let code = match (g.try_next(0), g.try_next(0)) {
            (Ok(a), Ok(b)) => {
                child_ids[0].store(
                    u64::from(a.sequence()) | u64::from(a.partition()) << 16,
                    Ordering::SeqCst,
                );
                child_ids[1].store(
                    u64::from(b.sequence()) | u64::from(b.partition()) << 16,
                    Ordering::SeqCst,
                );
                0
            }
            _ => 1,
        };
        // SAFETY: leaves the child at once, without the parent's exit handlers.
        unsafe { libc::_exit(code) };
    }
    let mut status = 0;
    // SAFETY: waits for the child just forked.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the child minted"
    );
    // The child's IDs came from the shared state: partition 9, sequences the parent never got.
    let next = g.try_next(0).unwrap();
    let seen: Vec<(u64, u64)> = child_ids
        .iter()
        .map(|w| w.load(Ordering::SeqCst))
        .map(|w| (w >> 16, w & 0xffff))
        .collect();
    assert!(seen.iter().all(|&(p, _)| p == 9));
    if next.timestamp() == parent.timestamp() {
        let sequences = [parent.sequence(), next.sequence()];
        assert!(seen.iter().all(|&(_, s)| !sequences.contains(&(s as u16))));
    }
    // SAFETY: the mapping made above; nothing refers to it after.
    unsafe { libc::munmap(base, size) };
    struct Quiet;
    impl super::snapshot::OverflowObserver for Quiet {
        fn on_overflow(&self, _: &super::snapshot::Overflow) {}
    }
    let refused = GeneratorBuilder::new(crate::SystemClock::new())
        .process_shared()
        .observer(std::sync::Arc::new(Quiet))
        .build();
    assert!(matches!(
        refused,
        Err(crate::Error::InvalidArgument {
            name: "observer",
            ..
        })
    ));
}
