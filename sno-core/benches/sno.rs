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
//!
//! `cargo bench -p sno-core --bench sno -- --fast-clock-lag` measures only how far the fast
//! clock lags `CLOCK_REALTIME` (quiet and oversubscribed; about 25 s): see [`fast_clock_lag`].

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
    if std::env::args().any(|a| a == "--fast-clock-lag") {
        fast_clock_lag();
        return;
    }
    saturate(1, secs);
    saturate(2, secs);
    benches();
    Criterion::default().configure_from_args().final_summary();
    summary();
}

/// `--fast-clock-lag`: how far a read of the fast clock lies behind `CLOCK_REALTIME`, as a
/// markdown table (p50, p99, p99.9, max, and how many reads were ahead: must be 0), for a reader
/// that reads every 0.5 ms and sleeps in between (an idle-ish application) and one that reads
/// continuously, each quiet and then with three busy-spinning threads per core. Every sample is
/// a read of the clock between two precise reads: the lag is the second precise reading minus
/// the clock's (an upper bound of the lag at the read), and a sample is ahead when the clock's
/// reading is above it. A sample whose reader was descheduled in between (more than
/// [`INTERRUPTED`] between the precise readings) says nothing about the clock: it is left out
/// of the quantiles (counted in "left out"), not of the ahead count. The precise rows are the
/// same probe on the precise clock, what the probe itself adds; the fast and precise readers of
/// a scenario run at the same time, each on its own thread.
fn fast_clock_lag() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let busy = 3 * cores;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    println!("load average: {} (1, 5, 15 min)\n", load.join(", "));
    println!(
        "| load | reader | clock | samples | left out | p50 µs | p99 µs | p99.9 µs | max µs | ahead |\n|---|---|---|---|---|---|---|---|---|---|"
    );
    for spinners in [0, busy] {
        for (reader, every, secs) in [
            ("every 0.5 ms", Some(Duration::from_micros(500)), 10.0),
            ("in a loop", None, 2.0),
        ] {
            let load = if spinners == 0 {
                "quiet".to_string()
            } else {
                format!("{spinners} busy threads ({cores} cores)")
            };
            for (clock, lags) in lag_scenario(spinners, every, Duration::from_secs_f64(secs)) {
                println!(
                    "| {load} | {reader} | {clock} | {} | {} | {:.0} | {:.0} | {:.0} | {:.0} | {} |",
                    lags.samples,
                    lags.interrupted,
                    lags.quantile_us(0.5),
                    lags.quantile_us(0.99),
                    lags.quantile_us(0.999),
                    lags.max as f64 / 1e3,
                    lags.ahead
                );
            }
        }
    }
}

/// A sample whose precise readings lie further apart than this was interrupted.
const INTERRUPTED: i64 = 50_000;

/// A histogram of lags in 1 µs buckets (the last one also holds everything above it).
struct Lags {
    buckets: Vec<u64>,
    samples: u64,
    interrupted: u64,
    max: i64,
    ahead: u64,
}

impl Lags {
    fn new() -> Self {
        Lags {
            buckets: vec![0; 1 << 16],
            samples: 0,
            interrupted: 0,
            max: 0,
            ahead: 0,
        }
    }

    /// A read of the clock, `read`, between the precise readings `before` and `after`.
    fn record(&mut self, before: i64, read: i64, after: i64) {
        self.samples += 1;
        if read > after {
            self.ahead += 1;
        }
        if after - before > INTERRUPTED {
            self.interrupted += 1;
            return;
        }
        let lag_nanos = after - read;
        let last = self.buckets.len() - 1;
        self.buckets[((lag_nanos.max(0) / 1_000) as usize).min(last)] += 1;
        self.max = self.max.max(lag_nanos);
    }

    /// The lag below which a fraction `p` of the samples kept lie, in µs (1 µs resolution).
    fn quantile_us(&self, p: f64) -> f64 {
        let kept = self.samples - self.interrupted;
        let rank = (kept.saturating_sub(1) as f64 * p) as u64;
        let mut seen = 0;
        for (us, &n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen > rank {
                return us as f64;
            }
        }
        0.0
    }
}

/// One scenario: `spinners` busy-spinning threads and two readers (the fast clock, the
/// precise one) for `length`, a reader sleeping `every` between samples (`None`: continuously).
/// Every thread stops at the end (the spinners also at a deadline of their own).
fn lag_scenario(
    spinners: usize,
    every: Option<Duration>,
    length: Duration,
) -> [(&'static str, Lags); 2] {
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let deadline = Instant::now() + length + Duration::from_secs(1);
    let spinning: Vec<_> = (0..spinners)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
                    for _ in 0..1_000 {
                        std::hint::spin_loop();
                    }
                }
            })
        })
        .collect();
    let reader = |clock: SystemClock| {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut lags = Lags::new();
            while !stop.load(Ordering::Relaxed) {
                let before = SystemClock::precise_unix_ns();
                let read = clock.now_unix_ns();
                lags.record(before, read, SystemClock::precise_unix_ns());
                if let Some(every) = every {
                    std::thread::sleep(every);
                }
            }
            lags
        })
    };
    let fast = reader(SystemClock::fast());
    let precise = reader(SystemClock::precise());
    std::thread::sleep(length);
    stop.store(true, Ordering::Relaxed);
    for s in spinning {
        s.join().expect("spinner");
    }
    [
        ("fast", fast.join().expect("fast reader")),
        ("precise", precise.join().expect("precise reader")),
    ]
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
