#![allow(
    missing_docs,
    reason = "criterion_group! generates an undocumented function"
)]
//! `cargo bench -p sno-core --bench formats`: ULID, UUIDv7 and SCRU128 against the crates
//! users would otherwise pick (`ulid`, `uuid`, `scru128`), in one run: generation from the
//! process-wide generator (for ULID against the `ulid` crate's `Generator` behind a mutex, also
//! with two threads calling at once (every format: `new-2-threads`, with `libsno-strict` rows
//! for the generator's strict per-ID path), and `&mut` state against bare `Generator`:
//! thread-safe against thread-safe, single-threaded against single-threaded), encode, and strict decode. A table at the end prints each of our
//! figures and its speed-up over the peer measured in the same run. Encode writes into a caller
//! buffer on both sides where the peer has that API, and `black_box` takes the text by
//! reference: copying a fresh text out by value measures the CPU's store forwarding instead.

use std::hint::black_box;
use std::time::Duration;

mod support;

use criterion::{BenchmarkId, Criterion, criterion_group};
use sno_core::MillisClock;
use sno_core::monotonic::MillisState;
use sno_core::scru128::Scru128Id;
use sno_core::ulid::Ulid;
use sno_core::uuid7::Uuid7;
use support::median_ns;

/// (group, peer name) for each format.
const FORMATS: [(&str, &str); 3] = [
    ("ulid", "ulid crate"),
    ("uuid7", "uuid crate"),
    ("scru128", "scru128 crate"),
];

fn benches_for(c: &mut Criterion) {
    let mut g = c.benchmark_group("ulid");
    g.measurement_time(Duration::from_secs(2));
    let text = sno_core::ulid::new().to_string();
    // Thread-safe on both sides: our process-wide generator, and the peer's `Generator` behind
    // a mutex (what a program needs to share one; the crate has no shared generator).
    let shared_peer = std::sync::Mutex::new(ulid::Generator::new());
    g.bench_function(BenchmarkId::new("new", "libsno"), |b| {
        b.iter(sno_core::ulid::new)
    });
    g.bench_function(BenchmarkId::new("new", "peer"), |b| {
        b.iter(|| {
            let mut peer = shared_peer.lock().expect("not poisoned");
            peer.generate().expect("not exhausted")
        })
    });
    // Two threads calling at once (wall time per ULID, both threads together): the lock-free
    // process-wide generator, our `Generator` (a `Monotonic` behind a mutex), the peer's behind
    // one.
    let ours_locked = sno_core::ulid::Generator::default();
    strict_rows(&mut g, sno_core::ulid::new, || {
        sno_core::ulid::global_generator().next().expect("in range")
    });
    g.bench_function(BenchmarkId::new("new-2-threads", "libsno-mutex"), |b| {
        b.iter_custom(|iters| two_threads(iters, || ours_locked.next().expect("in range")))
    });
    g.bench_function(BenchmarkId::new("new-2-threads", "peer"), |b| {
        b.iter_custom(|iters| {
            two_threads(iters, || {
                let mut peer = shared_peer.lock().expect("not poisoned");
                peer.generate().expect("not exhausted")
            })
        })
    });
    // Single-threaded on both sides: a `&mut` state on the system clock, no lock.
    let mut state = sno_core::ulid::Monotonic::new(sno_core::rng::ThreadRng);
    let clock = sno_core::SystemClock::default();
    let mut peer_gen = ulid::Generator::new();
    g.bench_function(BenchmarkId::new("new-unshared", "libsno"), |b| {
        b.iter(|| state.next_at(clock.now_unix_millis()).expect("in range"))
    });
    g.bench_function(BenchmarkId::new("new-unshared", "peer"), |b| {
        b.iter(|| peer_gen.generate().expect("not exhausted"))
    });
    let ours = sno_core::ulid::new();
    let theirs = ulid::Ulid::new();
    g.bench_function(BenchmarkId::new("encode", "libsno"), |b| {
        b.iter(|| {
            let mut buf = [0u8; 26];
            black_box(black_box(&ours).encode(&mut buf));
        })
    });
    g.bench_function(BenchmarkId::new("encode", "peer"), |b| {
        b.iter(|| {
            let mut buf = [0u8; 26];
            black_box(&theirs).array_to_str(&mut buf);
            black_box(&buf);
        })
    });
    g.bench_function(BenchmarkId::new("decode", "libsno"), |b| {
        b.iter(|| Ulid::decode(black_box(text.as_bytes())))
    });
    g.bench_function(BenchmarkId::new("decode", "peer"), |b| {
        b.iter(|| ulid::Ulid::from_string(black_box(&text)))
    });
    g.finish();

    let mut g = c.benchmark_group("uuid7");
    g.measurement_time(Duration::from_secs(2));
    let text = sno_core::uuid7::new().to_string();
    g.bench_function(BenchmarkId::new("new", "libsno"), |b| {
        b.iter(sno_core::uuid7::new)
    });
    g.bench_function(BenchmarkId::new("new", "peer"), |b| {
        b.iter(uuid::Uuid::now_v7)
    });
    strict_rows(&mut g, sno_core::uuid7::new, || {
        sno_core::uuid7::global_generator()
            .next()
            .expect("in range")
    });
    g.bench_function(BenchmarkId::new("new-2-threads", "peer"), |b| {
        b.iter_custom(|iters| two_threads(iters, uuid::Uuid::now_v7))
    });
    let ours = sno_core::uuid7::new();
    let theirs = uuid::Uuid::now_v7();
    g.bench_function(BenchmarkId::new("encode", "libsno"), |b| {
        b.iter(|| {
            let mut buf = [0u8; 36];
            black_box(black_box(&ours).encode(&mut buf));
        })
    });
    g.bench_function(BenchmarkId::new("encode", "peer"), |b| {
        b.iter(|| {
            let mut buf = uuid::Uuid::encode_buffer();
            black_box(black_box(&theirs).hyphenated().encode_lower(&mut buf));
        })
    });
    g.bench_function(BenchmarkId::new("decode", "libsno"), |b| {
        b.iter(|| Uuid7::decode(black_box(text.as_bytes())))
    });
    g.bench_function(BenchmarkId::new("decode", "peer"), |b| {
        b.iter(|| uuid::Uuid::try_parse(black_box(&text)))
    });
    g.finish();

    let mut g = c.benchmark_group("scru128");
    g.measurement_time(Duration::from_secs(2));
    let text = sno_core::scru128::new().to_string();
    g.bench_function(BenchmarkId::new("new", "libsno"), |b| {
        b.iter(sno_core::scru128::new)
    });
    g.bench_function(BenchmarkId::new("new", "peer"), |b| b.iter(scru128::new));
    strict_rows(&mut g, sno_core::scru128::new, || {
        sno_core::scru128::global_generator()
            .next()
            .expect("in range")
    });
    g.bench_function(BenchmarkId::new("new-2-threads", "peer"), |b| {
        b.iter_custom(|iters| two_threads(iters, scru128::new))
    });
    let ours = sno_core::scru128::new();
    let theirs = scru128::new();
    g.bench_function(BenchmarkId::new("encode", "libsno"), |b| {
        b.iter(|| {
            let mut buf = [0u8; 25];
            black_box(black_box(&ours).encode(&mut buf));
        })
    });
    // The crate's only text API returns its fixed-size string by value.
    g.bench_function(BenchmarkId::new("encode", "peer"), |b| {
        b.iter(|| black_box(&theirs).encode())
    });
    g.bench_function(BenchmarkId::new("decode", "libsno"), |b| {
        b.iter(|| Scru128Id::decode(black_box(text.as_bytes())))
    });
    g.bench_function(BenchmarkId::new("decode", "peer"), |b| {
        b.iter(|| black_box(&text).parse::<scru128::Id>())
    });
    g.finish();
}

/// The process-wide `new()` (per-thread blocks) on two threads, and its generator's strict
/// path (`next`: one lock or `fetch_add` per ID, process-wide order) on one and on two: the
/// A/B of issue #26 §2 in one run.
fn strict_rows<T>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    new: fn() -> T,
    strict: impl Fn() -> T + Sync,
) {
    g.bench_function(BenchmarkId::new("new-2-threads", "libsno"), |b| {
        b.iter_custom(|iters| two_threads(iters, new))
    });
    g.bench_function(BenchmarkId::new("new", "libsno-strict"), |b| {
        b.iter(&strict)
    });
    g.bench_function(BenchmarkId::new("new-2-threads", "libsno-strict"), |b| {
        b.iter_custom(|iters| two_threads(iters, &strict))
    });
}

/// Wall time for `iters` calls of `make`, half on each of two threads started together.
fn two_threads<T>(iters: u64, make: impl Fn() -> T + Sync) -> Duration {
    let start = std::sync::Barrier::new(3);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                start.wait();
                for _ in 0..iters.div_ceil(2) {
                    black_box(make());
                }
            });
        }
        start.wait();
        let t0 = std::time::Instant::now();
        // The scope joins both threads before returning.
        t0
    })
    .elapsed()
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500));
    targets = benches_for
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    println!(
        "\n| format | operation | libsno ns | peer | peer ns | speed-up |\n|---|---|---|---|---|---|"
    );
    for (group, peer) in FORMATS {
        for (op, peer_op) in [
            ("new", "new"),
            ("new-unshared", "new-unshared"),
            ("new-2-threads", "new-2-threads"),
            ("encode", "encode"),
            ("decode", "decode"),
        ] {
            if let (Some(ours), Some(theirs)) = (
                median_ns(group, op, "libsno"),
                median_ns(group, peer_op, "peer"),
            ) {
                println!(
                    "| {group} | {op} | {ours:.1} | {peer} | {theirs:.1} | {:.2}× |",
                    theirs / ours
                );
            }
        }
    }
}
