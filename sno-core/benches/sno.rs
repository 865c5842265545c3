#![allow(
    missing_docs,
    reason = "criterion_group! generates an undocumented function"
)]
//! `cargo bench -p sno-core`: generator, codec and peers in one run.
//!
//! First a saturation run (one and two threads hammering one generator for a second each:
//! IDs/s against the physical cap of 65 536 per 4 ms, and CPU use), then criterion groups:
//! `new` unsaturated against the floor (one clock read + one `fetch_add`) and the peers
//! `ulid`, `uuid::now_v7`, `xid`. The codec has its own bench, `benches/codec.rs`.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod support;

use criterion::{Criterion, criterion_group};
use sno_core::{Clock, Generator, SystemClock};

const CAP_PER_SEC: f64 = 65_536.0 * 250.0;

fn cpu_seconds() -> f64 {
    let mut u = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, u.as_mut_ptr()) };
    // SAFETY: zero-initialised and then written by getrusage.
    let u = unsafe { u.assume_init() };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

fn saturate(threads: usize, secs: f64) {
    let g = Arc::new(Generator::new().expect("generator"));
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let (cpu0, t0) = (cpu_seconds(), Instant::now());
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let g = g.clone();
            std::thread::spawn(move || {
                let mut n = 0u64;
                while Instant::now() < deadline {
                    for _ in 0..256 {
                        black_box(g.next(0).expect("id"));
                    }
                    n += 256;
                }
                n
            })
        })
        .collect();
    let total: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
    let (cpu, wall) = (cpu_seconds() - cpu0, t0.elapsed().as_secs_f64());
    let rate = total as f64 / wall;
    let s = g.stats();
    println!(
        "saturated/{threads}-thread: {:.2} M IDs/s = {:.1} % of the 16.38 M/s cap; CPU {:.0} % of {threads} core(s); {} waits, {} episodes",
        rate / 1e6,
        100.0 * rate / CAP_PER_SEC,
        100.0 * cpu / wall / threads as f64,
        s.waits,
        s.overflow_episodes
    );
}

/// Times `f` only on batches that start at a fresh 4 ms unit, so the pool never runs out.
fn unsaturated(b: &mut criterion::Bencher<'_>, g: &Generator) {
    b.iter_custom(|iters| {
        let mut total = Duration::ZERO;
        let mut left = iters;
        while left > 0 {
            let batch = left.min(16_384);
            let unit = g.clock().now_units();
            while g.clock().now_units() == unit {
                std::thread::sleep(Duration::from_micros(200));
            }
            let start = Instant::now();
            for _ in 0..batch {
                black_box(g.try_next(0).expect("unsaturated"));
            }
            total += start.elapsed();
            left -= batch;
        }
        total
    });
}

fn generators(c: &mut Criterion) {
    let mut group = c.benchmark_group("new");
    group.measurement_time(Duration::from_secs(3));
    let g = Generator::new().unwrap();
    group.bench_function("sno/try_next (unsaturated)", |b| unsaturated(b, &g));
    group.bench_function("sno/global new", |b| b.iter(|| sno_core::new(0)));
    let fast = Generator::builder()
        .clock(SystemClock::fast())
        .build()
        .unwrap();
    group.bench_function("sno/try_next fast clock (unsaturated)", |b| {
        unsaturated(b, &fast)
    });
    let clock = SystemClock::new();
    let counter = AtomicU64::new(0);
    group.bench_function("floor: clock + fetch_add", |b| {
        b.iter(|| clock.now_units() as u64 + counter.fetch_add(1, Ordering::AcqRel))
    });
    let precise = SystemClock::precise();
    group.bench_function("floor: precise clock + fetch_add", |b| {
        b.iter(|| precise.now_units() as u64 + counter.fetch_add(1, Ordering::AcqRel))
    });
    let fast_clock = SystemClock::fast();
    group.bench_function("floor: fast clock + fetch_add", |b| {
        b.iter(|| fast_clock.now_units() as u64 + counter.fetch_add(1, Ordering::AcqRel))
    });
    group.bench_function("clock read: fast", |b| b.iter(|| fast_clock.now_units()));
    group.bench_function("clock read: precise", |b| b.iter(|| precise.now_units()));
    let mut ulid_gen = ulid::Generator::new();
    group.bench_function("peer: ulid Generator::generate (monotonic)", |b| {
        b.iter(|| ulid_gen.generate().unwrap())
    });
    group.bench_function("peer: ulid Ulid::new", |b| b.iter(ulid::Ulid::new));
    group.bench_function("peer: uuid now_v7", |b| b.iter(uuid::Uuid::now_v7));
    group.bench_function("peer: xid new", |b| b.iter(xid::new));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = generators
}

fn main() {
    let secs = if std::env::args().any(|a| a == "--quick") {
        0.3
    } else {
        1.0
    };
    saturate(1, secs);
    saturate(2, secs);
    fast_clock_lag(secs * 2.0);
    benches();
    Criterion::default().configure_from_args().final_summary();
    summary();
}

/// How far the fast clock's reading lies behind `CLOCK_REALTIME`, sampled at random moments
/// (a sleep of 0–1 ms between samples, so that samples fall anywhere in the ticker's period),
/// printed as one line: quantiles of the lag, and how many samples were ahead (must be 0).
fn fast_clock_lag(secs: f64) {
    let fast = SystemClock::fast();
    let mut lags = Vec::new();
    let mut ahead = 0u64;
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < secs {
        let cached = fast.now_unix_nanos();
        let precise = SystemClock::precise_unix_nanos();
        if cached > precise {
            ahead += 1;
        }
        lags.push(precise - cached);
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        std::thread::sleep(Duration::from_micros(state % 1_000));
    }
    lags.sort_unstable();
    let q = |p: f64| lags[((lags.len() - 1) as f64 * p) as usize] as f64 / 1e3;
    println!(
        "fast-clock-lag: {} samples, lag behind CLOCK_REALTIME p50 {:.0} µs, p99 {:.0} µs, max {:.0} µs; ahead {ahead}",
        lags.len(),
        q(0.5),
        q(0.99),
        q(1.0)
    );
}

/// This run's medians as a table, each peer's ratio to libsno's global `new`.
fn summary() {
    let rows = [
        ("sno: global new", "sno_global new"),
        ("sno: Generator::try_next", "sno_try_next (unsaturated)"),
        (
            "sno: Generator::try_next, fast clock",
            "sno_try_next fast clock (unsaturated)",
        ),
        (
            "floor: coarse clock + fetch_add",
            "floor_ clock + fetch_add",
        ),
        (
            "floor: precise clock + fetch_add",
            "floor_ precise clock + fetch_add",
        ),
        (
            "floor: fast clock + fetch_add",
            "floor_ fast clock + fetch_add",
        ),
        ("clock read: precise", "clock read_ precise"),
        ("clock read: fast", "clock read_ fast"),
        (
            "ulid: Generator::generate (monotonic)",
            "peer_ ulid Generator__generate (monotonic)",
        ),
        ("ulid: Ulid::new", "peer_ ulid Ulid__new"),
        ("uuid: now_v7", "peer_ uuid now_v7"),
        ("xid: new", "peer_ xid new"),
    ];
    let Some(base) = support::median_ns("new", rows[0].1, "") else {
        return;
    };
    println!("\n| generate | ns | ÷ sno global new |\n|---|---|---|");
    for (label, dir) in rows {
        if let Some(ns) = support::median_ns("new", dir, "") {
            println!("| {label} | {ns:.1} | {:.2} |", ns / base);
        }
    }
    if let (Some(precise), Some(fast)) = (
        support::median_ns("new", "sno_try_next (unsaturated)", ""),
        support::median_ns("new", "sno_try_next fast clock (unsaturated)", ""),
    ) {
        println!(
            "fast-clock: Generator::try_next {fast:.1} ns on the fast clock against {precise:.1} ns on the precise one: {:.2}× faster",
            precise / fast
        );
    }
}
