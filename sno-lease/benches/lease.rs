//! Lease acquisition latency against throwaway PostgreSQL and Redis servers, and the per-ID
//! cost of a leased generator against an unleased one (markdown tables on stdout).
//!
//! The per-ID comparison runs both generators in alternation, each batch starting at a fresh
//! 4 ms unit and small enough to fit in its pool, so every call mints (no exhausted-pool
//! shortcuts) and machine noise hits both alike; medians over the batches.

#[path = "../tests/support/mod.rs"]
mod support;

use std::hint::black_box;
use std::time::{Duration, Instant};

use sno_core::{Generator, time::UNIT_NANOS};
use sno_lease::{Lease, LeaseOptions};
use support::{BOTH, Kind, Server};

const ACQUISITIONS: usize = 200;
const BATCH: usize = 20_000;
const BATCHES: usize = 600;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn name(kind: Kind) -> &'static str {
    match kind {
        Kind::Postgres => "PostgreSQL 15",
        Kind::Redis => "Redis 7",
    }
}

/// Sleeps to the start of the next 4 ms unit.
fn next_unit() {
    let now = sno_core::SystemClock::precise_unix_ns();
    let left = UNIT_NANOS - now.rem_euclid(UNIT_NANOS);
    std::thread::sleep(Duration::from_nanos(left as u64 + 20_000));
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // cargo test --benches asks for a list
    }
    println!("| store | acquisitions | p50 ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|");
    let mut leased = None;
    for kind in BOTH {
        let server = Server::start(kind);
        let options = LeaseOptions::new("bench").ttl(Duration::from_secs(1));
        // The first grant of a Redis namespace waits one TTL by design: not measured.
        drop(Lease::acquire(&server.url, &options).expect("warm-up lease"));
        let mut ms = Vec::with_capacity(ACQUISITIONS);
        for _ in 0..ACQUISITIONS {
            let t = Instant::now();
            let lease = Lease::acquire(&server.url, &options).expect("lease");
            ms.push(t.elapsed().as_secs_f64() * 1e3);
            drop(lease);
        }
        ms.sort_by(f64::total_cmp);
        println!(
            "| {} (new connection each) | {ACQUISITIONS} | {:.2} | {:.2} | {:.2} |",
            name(kind),
            percentile(&ms, 0.5),
            percentile(&ms, 0.99),
            ms[ms.len() - 1]
        );
        if kind == Kind::Postgres {
            let lease =
                Lease::acquire(&server.url, &LeaseOptions::new("bench-ids")).expect("lease");
            leased = Some((server, lease));
        }
    }
    println!();

    let (_server, lease) = leased.expect("a PostgreSQL lease");
    let leased = lease.generator().expect("leased generator");
    let plain = Generator::builder().build().expect("generator");
    let mut plain_ns = Vec::with_capacity(BATCHES);
    let mut leased_ns = Vec::with_capacity(BATCHES);
    for b in 0..BATCHES {
        for which in [b % 2, 1 - b % 2] {
            next_unit();
            let t = Instant::now();
            let mut failed = 0;
            for _ in 0..BATCH {
                let r = if which == 0 {
                    plain.try_next(0)
                } else {
                    leased.try_next(0)
                };
                failed += usize::from(black_box(r).is_err());
            }
            let ns = t.elapsed().as_nanos() as f64 / BATCH as f64;
            assert!(failed < BATCH / 2, "most calls failed: {failed}");
            if which == 0 {
                &mut plain_ns
            } else {
                &mut leased_ns
            }
            .push(ns);
        }
    }
    // Paired: the two batches of one round ran back to back, so their difference cancels most
    // of the machine's drift; the median of the differences is the figure.
    let mut diffs: Vec<f64> = leased_ns
        .iter()
        .zip(&plain_ns)
        .map(|(l, p)| l - p)
        .collect();
    diffs.sort_by(f64::total_cmp);
    plain_ns.sort_by(f64::total_cmp);
    leased_ns.sort_by(f64::total_cmp);
    let (p, l) = (percentile(&plain_ns, 0.5), percentile(&leased_ns, 0.5));
    println!(
        "| generator (one thread, {BATCHES} rounds of {BATCH} IDs) | ns per ID (median) | leased − unleased per round: median (p25 … p75) |"
    );
    println!("|---|---|---|");
    println!("| sno: Generator::try_next | {p:.1} | |");
    println!(
        "| sno-lease: LeasedGenerator::try_next | {l:.1} | {:+.1} ns ({:+.1} … {:+.1}) |",
        percentile(&diffs, 0.5),
        percentile(&diffs, 0.25),
        percentile(&diffs, 0.75)
    );
}
