//! Crash-safe persistence of a sno generator: a background thread persists the generator's
//! snapshot with a *lease* (a unit a few periods ahead of the clock) and only then lets the
//! clock run up to it ([`LeasedClock`]). Whenever the process dies, even by `kill -9`, every ID
//! it issued is at or below the last lease on disk, so a restart restored with
//! [`Snapshot::resume_after`] never repeats one, even with the clock set back.
//!
//! ```text
//! cargo run --release -p sno-examples --bin persist -- --state gen.state --out ids.txt
//!   --state PATH      snapshot + lease file (restored when it exists)
//!   --out PATH        append each ID's text, one per line (flushed every 256 IDs)
//!   --count N         stop after N IDs (default: run until killed)
//!   --every-ms P      persist every P ms (default 20); the lease is 4 periods ahead
//!   --offset-ms D     add D ms to the system clock (negative: a clock set back)
//! ```
//!
//! `examples/rust/tests/persist.rs` kills it mid-generation and restarts it, with the clock set
//! back and forward, and checks that no ID repeats.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sno_core::{Clock, Generator, LeasedClock, Snapshot, SystemClock};

/// The system clock moved by a fixed offset, to simulate a clock set back or forward.
struct OffsetClock {
    system: SystemClock,
    offset_units: i64,
}

impl Clock for OffsetClock {
    fn now_units(&self) -> i64 {
        self.system.now_units() + self.offset_units
    }
}

struct Options {
    state: PathBuf,
    out: PathBuf,
    count: Option<u64>,
    every: Duration,
    offset_ms: i64,
}

fn options() -> Result<Options, String> {
    let (mut state, mut out, mut count, mut every, mut offset_ms) = (None, None, None, 20, 0);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<i64>()
                .map_err(|_| format!("{flag}: bad number {value}"))
        };
        match flag.as_str() {
            "--state" => state = Some(PathBuf::from(&value)),
            "--out" => out = Some(PathBuf::from(&value)),
            "--count" => count = Some(number()?.max(0) as u64),
            "--every-ms" => every = number()?.max(1) as u64,
            "--offset-ms" => offset_ms = number()?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(Options {
        state: state.ok_or("--state is required")?,
        out: out.ok_or("--out is required")?,
        count,
        every: Duration::from_millis(every),
        offset_ms,
    })
}

/// The state file: one `name=value` line per snapshot field, plus the lease.
fn save(path: &Path, s: &Snapshot, lease: u64) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut f = File::create(&tmp)?;
    writeln!(
        f,
        "partition={}\nsequence_min={}\nsequence_max={}\nsequence={}\nwall_hi={}\nwall_safe={}\ndrifts={}\nlease={lease}",
        s.partition, s.sequence_min, s.sequence_max, s.sequence, s.wall_hi, s.wall_safe, s.drifts
    )?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)?;
    // Make the rename itself durable.
    File::open(
        path.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
    )?
    .sync_all()
}

fn load(path: &Path) -> Result<(Snapshot, u64), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut s = Snapshot::default();
    let mut lease = None;
    for line in text.lines() {
        let (k, v) = line.split_once('=').ok_or(format!("bad line {line:?}"))?;
        let bad = |_| format!("bad value in {line:?}");
        match k {
            "partition" => s.partition = v.parse().map_err(bad)?,
            "sequence_min" => s.sequence_min = v.parse().map_err(bad)?,
            "sequence_max" => s.sequence_max = v.parse().map_err(bad)?,
            "sequence" => s.sequence = v.parse().map_err(bad)?,
            "wall_hi" => s.wall_hi = v.parse().map_err(bad)?,
            "wall_safe" => s.wall_safe = v.parse().map_err(bad)?,
            "drifts" => s.drifts = v.parse().map_err(bad)?,
            "lease" => lease = Some(v.parse().map_err(bad)?),
            _ => return Err(format!("unknown field {k}")),
        }
    }
    Ok((s, lease.ok_or("no lease")?))
}

fn run(o: &Options) -> Result<(), String> {
    let restored = if o.state.exists() {
        Some(load(&o.state)?)
    } else {
        None
    };
    let clock = Arc::new(LeasedClock::new(
        OffsetClock {
            system: SystemClock::new(),
            offset_units: o.offset_ms.div_euclid(4),
        },
        0,
    ));
    // The lease: four persist periods ahead of the (uncapped) clock, never below the last one.
    let period_units = (o.every.as_millis() as u64).div_ceil(4);
    let ahead = || (clock.inner().now_units().max(0) as u64 + 4 * period_units).max(clock.lease());
    // A restored lease lies up to four periods ahead of the clock (more if the clock was set
    // back since): the maximum wait must cover it, or the restore is refused (SnapshotAhead).
    let max_wait = sno_core::time::DEFAULT_MAX_WAIT.max(o.every * 8);
    let mut builder = Generator::builder()
        .partition(0x0bad)
        .max_wait(max_wait)
        .clock(Arc::clone(&clock));
    if let Some((snapshot, old_lease)) = restored {
        builder = builder.snapshot(snapshot.resume_after(old_lease));
        clock.extend(old_lease);
    }
    let g = builder.build().map_err(|e| e.to_string())?;
    // Persist first, then let the clock run up to what is on disk.
    let persist = || -> Result<(), String> {
        let lease = ahead();
        save(&o.state, &g.snapshot(), lease).map_err(|e| format!("persisting: {e}"))?;
        clock.extend(lease);
        Ok(())
    };
    persist()?;
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let persister = scope.spawn(|| -> Result<(), String> {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(o.every);
                persist()?;
            }
            Ok(())
        });
        let generated = generate(o, &g);
        done.store(true, Ordering::Relaxed);
        persister
            .join()
            .map_err(|_| "the persister panicked".to_string())??;
        generated
    })
}

/// Appends `--count` IDs (or IDs until killed) to `--out`.
fn generate(o: &Options, g: &Generator<Arc<LeasedClock<OffsetClock>>>) -> Result<(), String> {
    let file = OpenOptions::new().create(true).append(true).open(&o.out);
    let mut out = BufWriter::new(file.map_err(|e| format!("{}: {e}", o.out.display()))?);
    let mut made = 0u64;
    while o.count.is_none_or(|n| made < n) {
        let id = g.next(0).map_err(|e| e.to_string())?;
        writeln!(out, "{id}").map_err(|e| e.to_string())?;
        made += 1;
        if made.is_multiple_of(256) {
            out.flush().map_err(|e| e.to_string())?;
        }
    }
    out.flush().map_err(|e| e.to_string())
}

fn main() {
    let result = options().and_then(|o| run(&o));
    if let Err(e) = result {
        eprintln!("persist: {e}");
        std::process::exit(2);
    }
}
