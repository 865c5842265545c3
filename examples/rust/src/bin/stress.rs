//! Stress test of the wait-free sno generator: many threads share one generator on a clock that
//! jumps backwards and forwards, with a tiny sequence pool, and every ID is checked for
//! uniqueness with bounded memory (sorted runs on disk, then a k-way merge). With `--format
//! ulid|uuid7|scru128`, the threads call that format's process-wide `try_new()` instead (the
//! real system clock, per-thread blocks: issue #26 §2), checked the same way.
//!
//! ```text
//! cargo run --release -p sno-examples --bin stress -- [options]
//!   --format F       sno (default), ulid, uuid7 or scru128
//!   --ids N          IDs per run (default 1e9; 1e6, 2_000_000 and 2e6 are all accepted)
//!   --threads LIST   thread counts, one run each (default: 1,2,4,8,16)
//!   --pool K         sequences per 4 ms unit, 4..=65536 (default 4)
//!   --jump-every M   each thread moves the clock every ~M IDs (default 1000; 0: never)
//!   --max-jump J     largest jump, in units (default 64)
//!   --mem MIB        memory for buffered IDs, all threads together (default 1024)
//!   --tmp DIR        where sorted runs go (default: the system temp dir)
//! ```
//!
//! For sno the clock is virtual, so the run is not capped at the format's 16.4 M IDs/s per partition
//! and time is free: it starts in 2020, a call that is refused moves it to the unit the error
//! names (`retry_at`, what a blocking `next` would sleep until; counted as a wait), and every
//! ~M IDs a thread jumps it back or forth by 1..=J units. Generation time excludes the
//! recording, which happens between generation rounds (all threads stop at a barrier, sort
//! their buffers and write them out). Exit status 1 on a duplicate or an order violation (for
//! the millisecond formats: an ID not above the same thread's previous one; `--pool`,
//! `--jump-every` and `--max-jump` apply to sno only).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

use sno_core::{Clock, Error, Generator, Id};

const PARTITION: u16 = 0x5a5a;

/// A virtual clock in sno units; only the threads of the run move it.
struct JumpClock(AtomicI64);

impl Clock for JumpClock {
    fn now_units(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Which generator the threads share.
#[derive(Clone, Copy, PartialEq)]
enum Format {
    Sno,
    Ulid,
    Uuid7,
    Scru128,
}

impl Format {
    fn parse(s: &str) -> Result<Format, String> {
        Ok(match s {
            "sno" => Format::Sno,
            "ulid" => Format::Ulid,
            "uuid7" => Format::Uuid7,
            "scru128" => Format::Scru128,
            _ => return Err(format!("unknown format {s} (sno, ulid, uuid7, scru128)")),
        })
    }

    fn name(self) -> &'static str {
        match self {
            Format::Sno => "sno",
            Format::Ulid => "ulid",
            Format::Uuid7 => "uuid7",
            Format::Scru128 => "scru128",
        }
    }

    /// A millisecond format's process-wide `try_new()`, as the 128-bit number (its order).
    fn process_wide(self) -> fn() -> Result<u128, Error> {
        match self {
            Format::Ulid => || sno_core::ulid::try_new().map(|u| u.to_u128()),
            Format::Uuid7 => || sno_core::uuid7::try_new().map(|u| u.to_u128()),
            Format::Scru128 => || sno_core::scru128::try_new().map(|u| u.to_u128()),
            Format::Sno => unreachable!("sno runs on its own generator"),
        }
    }
}

struct Options {
    format: Format,
    ids: u64,
    threads: Vec<usize>,
    pool: u32,
    jump_every: u64,
    max_jump: u64,
    mem_mib: u64,
    tmp: PathBuf,
}

fn parse_count(s: &str) -> Result<u64, String> {
    let s = s.replace('_', "");
    if let Some((m, e)) = s.split_once(['e', 'E']) {
        let (m, e): (u64, u32) = (
            m.parse().map_err(|_| format!("bad number {s}"))?,
            e.parse().map_err(|_| format!("bad exponent {s}"))?,
        );
        return 10u64
            .checked_pow(e)
            .and_then(|p| p.checked_mul(m))
            .ok_or(format!("{s} is too large"));
    }
    s.parse().map_err(|_| format!("bad number {s}"))
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        format: Format::Sno,
        ids: 1_000_000_000,
        threads: vec![1, 2, 4, 8, 16],
        pool: 4,
        jump_every: 1000,
        max_jump: 64,
        mem_mib: 1024,
        tmp: std::env::temp_dir(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--format" => o.format = Format::parse(&value)?,
            "--ids" => o.ids = parse_count(&value)?,
            "--threads" => {
                o.threads = value
                    .split(',')
                    .map(|t| match t.parse() {
                        Ok(n) if n > 0 => Ok(n),
                        _ => Err(format!("bad thread count {t}")),
                    })
                    .collect::<Result<_, _>>()?
            }
            "--pool" => o.pool = parse_count(&value)? as u32,
            "--jump-every" => o.jump_every = parse_count(&value)?,
            "--max-jump" => o.max_jump = parse_count(&value)?.max(1),
            "--mem" => o.mem_mib = parse_count(&value)?.max(1),
            "--tmp" => o.tmp = PathBuf::from(value),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if !(4..=65536).contains(&o.pool) {
        return Err("--pool must be 4..=65536".into());
    }
    Ok(o)
}

/// What one sno thread counted.
#[derive(Default)]
struct Report {
    waits: u64,
    jumps_back: u64,
    jumps_forward: u64,
    order_violations: u64,
}

/// Everything but the constant partition and meta: units, tick-tock bit and sequence.
fn key(id: &Id) -> u64 {
    id.timestamp() << 17 | u64::from(id.tick_tock()) << 16 | u64::from(id.sequence())
}

/// A small per-thread PRNG for jump decisions (not for IDs).
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// One sno thread's state across rounds.
struct Worker {
    rng: u64,
    last: Option<Id>,
    report: Report,
}

/// One sno thread's share of a round: `quota` IDs into `buf`.
fn generate(
    g: &Generator<&JumpClock>,
    o: &Options,
    quota: u64,
    w: &mut Worker,
    buf: &mut Vec<u64>,
) {
    let clock = *g.clock();
    let Worker { rng, last, report } = w;
    let mut until_jump = if o.jump_every == 0 {
        u64::MAX
    } else {
        1 + xorshift(rng) % (2 * o.jump_every)
    };
    while (buf.len() as u64) < quota {
        match g.try_next(0) {
            Ok(id) => {
                if id.partition() != PARTITION || id.meta() != 0 {
                    panic!("foreign fields in {id:?}");
                }
                if let Some(prev) = *last
                    && !(prev < id || prev.tick_tock() != id.tick_tock())
                {
                    report.order_violations += 1;
                }
                *last = Some(id);
                buf.push(key(&id));
                until_jump -= 1;
                if until_jump == 0 {
                    let r = xorshift(rng);
                    let delta = 1 + (r >> 1) % o.max_jump;
                    if r & 1 == 0 {
                        clock.0.fetch_sub(delta as i64, Ordering::Relaxed);
                        report.jumps_back += 1;
                    } else {
                        clock.0.fetch_add(delta as i64, Ordering::Relaxed);
                        report.jumps_forward += 1;
                    }
                    until_jump = 1 + xorshift(rng) % (2 * o.jump_every);
                }
            }
            Err(Error::SequenceExhausted { retry_at } | Error::ClockRegression { retry_at }) => {
                // What `next` would sleep for: let the virtual time get there.
                clock.0.fetch_max(retry_at as i64, Ordering::Relaxed);
                report.waits += 1;
            }
            Err(e) => panic!("unexpected error {e}"),
        }
    }
}

/// A recorded ID as it is sorted, written to a run and read back.
trait Key: Copy + Ord + Send {
    const BYTES: usize;
    fn write(self, w: &mut impl Write) -> std::io::Result<()>;
    fn read(bytes: &[u8]) -> Self;
    /// For the report of a duplicate.
    fn describe(self) -> String;
}

impl Key for u64 {
    const BYTES: usize = 8;
    fn write(self, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(&self.to_le_bytes())
    }
    fn read(bytes: &[u8]) -> u64 {
        u64::from_le_bytes(bytes.try_into().expect("8 bytes"))
    }
    fn describe(self) -> String {
        format!(
            "units {} tick {} seq {}",
            self >> 17,
            self >> 16 & 1,
            self & 0xffff
        )
    }
}

impl Key for u128 {
    const BYTES: usize = 16;
    fn write(self, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(&self.to_le_bytes())
    }
    fn read(bytes: &[u8]) -> u128 {
        u128::from_le_bytes(bytes.try_into().expect("16 bytes"))
    }
    fn describe(self) -> String {
        format!("{self:032x}")
    }
}

fn write_run<K: Key>(dir: &Path, name: String, keys: &mut [K]) -> std::io::Result<PathBuf> {
    keys.sort_unstable();
    let path = dir.join(name);
    let mut w = BufWriter::with_capacity(1 << 20, File::create(&path)?);
    for k in keys.iter() {
        k.write(&mut w)?;
    }
    w.flush()?;
    Ok(path)
}

/// k-way merge of sorted runs: the number of duplicates (adjacent equal keys) and keys read.
fn merge<K: Key>(runs: &[PathBuf]) -> std::io::Result<(u64, u64)> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut readers: Vec<_> = runs
        .iter()
        .map(|p| File::open(p).map(|f| BufReader::with_capacity(1 << 20, f)))
        .collect::<Result<_, _>>()?;
    let next = |r: &mut BufReader<File>| -> std::io::Result<Option<K>> {
        let mut b = [0u8; 16];
        match r.read_exact(&mut b[..K::BYTES]) {
            Ok(()) => Ok(Some(K::read(&b[..K::BYTES]))),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(e),
        }
    };
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        if let Some(k) = next(r)? {
            heap.push(Reverse((k, i)));
        }
    }
    let (mut dups, mut read, mut prev) = (0, 0, None);
    while let Some(Reverse((k, i))) = heap.pop() {
        read += 1;
        if prev == Some(k) {
            dups += 1;
            if dups <= 10 {
                eprintln!("duplicate: {}", k.describe());
            }
        }
        prev = Some(k);
        if let Some(k) = next(&mut readers[i])? {
            heap.push(Reverse((k, i)));
        }
    }
    Ok((dups, read))
}

/// What a run of rounds measured.
struct Outcome<W> {
    /// Each thread's own state after the last round.
    workers: Vec<W>,
    made: u64,
    /// Summed over rounds, each as long as its slowest thread.
    generation: Duration,
    dups: u64,
    check: Duration,
}

/// `threads` threads, each with its `worker(t)` state, make `o.ids` keys in all with
/// `generate(worker, quota, buf)` in rounds that fit `o.mem_mib` (recording between rounds, not
/// timed), then every key is checked for duplicates.
fn rounds<K: Key, W: Send>(
    o: &Options,
    threads: usize,
    worker: impl Fn(usize) -> W + Sync,
    generate: impl Fn(&mut W, u64, &mut Vec<K>) + Sync,
) -> std::io::Result<Outcome<W>> {
    let per_thread = o.ids.div_ceil(threads as u64);
    let chunk = (o.mem_mib << 20) / K::BYTES as u64 / threads as u64;
    let dir = o.tmp.join(format!(
        "sno-stress-{}-{}-{threads}",
        o.format.name(),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir)?;
    let barrier = Barrier::new(threads);
    let runs = Mutex::new(Vec::new());
    let workers = Mutex::new(Vec::new());
    let gen_nanos = AtomicU64::new(0);
    let generation = Mutex::new(Duration::ZERO);
    let made = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let rounds = per_thread.div_ceil(chunk);
    std::thread::scope(|s| {
        for t in 0..threads {
            let (barrier, runs, workers, gen_nanos, generation, made, failed, dir) = (
                &barrier,
                &runs,
                &workers,
                &gen_nanos,
                &generation,
                &made,
                &failed,
                &dir,
            );
            let (worker, generate) = (&worker, &generate);
            s.spawn(move || {
                let mut w = worker(t);
                let mut buf = Vec::with_capacity(chunk.min(per_thread) as usize);
                for round in 0..rounds {
                    let quota = chunk.min(per_thread - round * chunk);
                    buf.clear();
                    barrier.wait();
                    let t0 = Instant::now();
                    generate(&mut w, quota, &mut buf);
                    // The round lasts until its slowest thread is done.
                    gen_nanos.fetch_max(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
                    if barrier.wait().is_leader() {
                        *generation.lock().unwrap() +=
                            Duration::from_nanos(gen_nanos.swap(0, Ordering::Relaxed));
                    }
                    made.fetch_add(buf.len() as u64, Ordering::Relaxed);
                    match write_run(dir, format!("{t}-{round}"), &mut buf) {
                        Ok(p) => runs.lock().unwrap().push(p),
                        Err(e) => {
                            eprintln!("writing a run: {e}");
                            failed.store(true, Ordering::Relaxed);
                        }
                    }
                }
                workers.lock().unwrap().push(w);
            });
        }
    });
    let runs = runs.into_inner().unwrap();
    if failed.load(Ordering::Relaxed) {
        return Err(std::io::Error::other("a run could not be written"));
    }
    let check = Instant::now();
    let (dups, read) = merge::<K>(&runs)?;
    std::fs::remove_dir_all(&dir)?;
    let made = made.into_inner();
    assert_eq!(read, made, "every recorded ID was merged");
    Ok(Outcome {
        workers: workers.into_inner().unwrap(),
        made,
        generation: generation.into_inner().unwrap(),
        dups,
        check: check.elapsed(),
    })
}

/// One sno run with `threads` threads; returns false on a duplicate or an order violation.
fn run(o: &Options, threads: usize) -> std::io::Result<bool> {
    let start_units = 315_569_520_000 / 4; // 2020-01-01 in 4 ms units since 2010 (ms / 4)
    let clock = JumpClock(AtomicI64::new(start_units / 1000 * 1000));
    let g = Generator::builder()
        .clock(&clock)
        .partition(PARTITION)
        .sequence_bounds(0, (o.pool - 1) as u16)
        .build()
        .expect("valid settings");
    let out = rounds(
        o,
        threads,
        |t| Worker {
            rng: 0x9e37_79b9_7f4a_7c15 ^ ((t as u64 + 1) * 0x2545_f491_4f6c_dd1d),
            last: None,
            report: Report::default(),
        },
        |w, quota, buf| generate(&g, o, quota, w, buf),
    )?;
    let total = |f: fn(&Report) -> u64| out.workers.iter().map(|w| f(&w.report)).sum::<u64>();
    let order = total(|r| r.order_violations);
    let stats = g.stats();
    println!(
        "| {threads} | {} | {:.1} | {:.2} | {} | {} | {} | {} | {} | {} | {} | {order} | {:.1} |",
        out.made,
        out.generation.as_secs_f64(),
        out.made as f64 / out.generation.as_secs_f64() / 1e6,
        total(|r| r.waits),
        total(|r| r.jumps_back),
        total(|r| r.jumps_forward),
        stats.overflow_episodes,
        stats.drifts,
        stats.regressions,
        out.dups,
        out.check.as_secs_f64(),
    );
    Ok(out.dups == 0 && order == 0)
}

/// One run of a millisecond format's process-wide `try_new()` with `threads` threads; returns
/// false on a duplicate or an order violation (an ID not above its thread's previous one).
fn run_millis(o: &Options, threads: usize) -> std::io::Result<bool> {
    let make = o.format.process_wide();
    let out = rounds(
        o,
        threads,
        |_| (None::<u128>, 0u64),
        |(last, violations), quota, buf: &mut Vec<u128>| {
            for _ in 0..quota {
                let id = make().unwrap_or_else(|e| panic!("unexpected error {e}"));
                if last.is_some_and(|prev| prev >= id) {
                    *violations += 1;
                }
                *last = Some(id);
                buf.push(id);
            }
        },
    )?;
    let order: u64 = out.workers.iter().map(|w| w.1).sum();
    println!(
        "| {} | {threads} | {} | {:.1} | {:.2} | {} | {order} | {:.1} |",
        o.format.name(),
        out.made,
        out.generation.as_secs_f64(),
        out.made as f64 / out.generation.as_secs_f64() / 1e6,
        out.dups,
        out.check.as_secs_f64(),
    );
    Ok(out.dups == 0 && order == 0)
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("stress: {e} (see the source's header for the options)");
            std::process::exit(2);
        }
    };
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let run: fn(&Options, usize) -> std::io::Result<bool> = if o.format == Format::Sno {
        println!(
            "sno stress: {} IDs per run, pool {}, a jump of 1..={} units every ~{} IDs per thread, {cpus} CPUs",
            o.ids, o.pool, o.max_jump, o.jump_every,
        );
        println!(
            "\n| threads | IDs | gen s | M IDs/s | waits | jumps back | jumps fwd | exhausted units | tick-tock switches | refused (regression) | duplicates | order violations | check s |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        run
    } else {
        println!(
            "{} stress: {} IDs per run from the process-wide try_new() (system clock), {cpus} CPUs",
            o.format.name(),
            o.ids,
        );
        println!(
            "\n| format | threads | IDs | gen s | M IDs/s | duplicates | order violations | check s |"
        );
        println!("|---|---|---|---|---|---|---|---|");
        run_millis
    };
    let mut ok = true;
    for &t in &o.threads {
        match run(&o, t) {
            Ok(good) => ok &= good,
            Err(e) => {
                eprintln!("stress: {e}");
                std::process::exit(2);
            }
        }
    }
    if !ok {
        eprintln!("stress: FAILED (duplicates or order violations above)");
        std::process::exit(1);
    }
}
