//! `sno-lease`: lease a partition from the command line, or mint under the process-wide
//! generator's configuration (what the fleet tests run as a worker).
//!
//! ```text
//! sno-lease acquire URL [--namespace NS] [--ttl DUR] [--partitions A-B] [--hold SECS]
//!     DUR as SNO_LEASE_TTL: 15 (seconds), 1500ms, 2s, 1m
//!     leases a partition, prints the grant, holds it (renewing) for SECS (default 0), releases
//! sno-lease mint [--seconds SECS] [--rate PER_SEC]
//!     mints with the process-wide generator (SNO_PARTITION / SNO_LEASE_URL / defaults):
//!     prints "grant PARTITION TOKEN" once, then "ID TOKEN" per ID (TOKEN "-" when the lease
//!     changed during the call, "0" without a lease), errors on stderr as "error CODE MESSAGE"
//! ```

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use sno_lease::{Lease, LeaseOptions};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("acquire") => known_flags(
            &args[2..],
            &["--namespace", "--ttl", "--partitions", "--hold"],
        )
        .and_then(|()| acquire(&args[1..])),
        Some("mint") => {
            known_flags(&args[1..], &["--seconds", "--rate"]).and_then(|()| mint(&args[1..]))
        }
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

const USAGE: &str =
    "usage: sno-lease acquire URL [--namespace NS] [--ttl DUR] [--partitions A-B] [--hold SECS]
       sno-lease mint [--seconds SECS] [--rate PER_SEC]";

/// Every `--flag` of `args` (flag, value pairs) must be one of `known`.
fn known_flags(args: &[String], known: &[&str]) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        if !known.contains(&args[i].as_str()) {
            return Err(format!("unknown argument {:?}\n{USAGE}", args[i]));
        }
        i += 2;
    }
    Ok(())
}

/// The value after `--name`, if given.
fn flag<'a>(args: &'a [String], name: &str) -> Result<Option<&'a str>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => args
            .get(i + 1)
            .map(|v| Some(v.as_str()))
            .ok_or_else(|| format!("{name} needs a value\n{USAGE}")),
    }
}

fn number(args: &[String], name: &str, default: f64) -> Result<f64, String> {
    match flag(args, name)? {
        None => Ok(default),
        Some(v) => v
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| format!("{name} {v:?} is not a non-negative number")),
    }
}

fn acquire(args: &[String]) -> Result<(), String> {
    let url = args
        .first()
        .filter(|a| !a.starts_with("--"))
        .ok_or_else(|| USAGE.to_owned())?;
    // Options as the process-wide generator reads them, then the flags on top.
    let mut options = LeaseOptions::from_env().map_err(|e| e.to_string())?;
    if let Some(ns) = flag(args, "--namespace")? {
        options = LeaseOptions::new(ns)
            .partitions(options.partition_range())
            .ttl(options.ttl_duration());
    }
    if let Some(ttl) = flag(args, "--ttl")? {
        let ttl = sno_lease::parse_duration(ttl)
            .ok_or_else(|| format!("--ttl {ttl:?} is not a duration (15, 1500ms, 2s, 1m)"))?;
        options = options.ttl(ttl);
    }
    if let Some(range) = flag(args, "--partitions")? {
        let (a, b) = range
            .split_once('-')
            .and_then(|(a, b)| Some((a.parse::<u16>().ok()?, b.parse::<u16>().ok()?)))
            .ok_or_else(|| format!("--partitions {range:?} is not FIRST-LAST"))?;
        options = options.partitions(a..=b);
    }
    let hold = number(args, "--hold", 0.0)?;
    let started = Instant::now();
    let lease = Lease::acquire(url, &options).map_err(|e| format!("error {} {e}", e.code()))?;
    let g = lease.grant();
    println!(
        "partition={} token={} ids_from_unix_ms={} ids_before_unix_ms={} expires_unix_ms={} holder={} acquired_in_ms={}",
        g.partition,
        g.token,
        g.ids_from_unix_ms,
        g.ids_before_unix_ms,
        g.expires_unix_ms,
        lease.holder(),
        started.elapsed().as_millis()
    );
    std::thread::sleep(Duration::from_secs_f64(hold.min(1e6)));
    Ok(())
}

fn mint(args: &[String]) -> Result<(), String> {
    let seconds = number(args, "--seconds", 1.0)?;
    let rate = number(args, "--rate", 1000.0)?;
    let generator =
        sno_lease::process_generator().map_err(|e| format!("error {} {e}", e.code()))?;
    let token = || generator.lease().map_or(0, Lease::token);
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let line = |out: &mut std::io::BufWriter<_>, s: String| {
        // A closed pipe ends the run quietly.
        writeln!(out, "{s}").and_then(|()| out.flush()).is_ok()
    };
    if !line(
        &mut out,
        format!("grant {} {}", generator.partition(), token()),
    ) {
        return Ok(());
    }
    let started = Instant::now();
    let period = if rate > 0.0 {
        Duration::from_secs_f64(1.0 / rate)
    } else {
        Duration::ZERO
    };
    let mut next_at = Instant::now();
    while started.elapsed().as_secs_f64() < seconds {
        let before = token();
        match generator.next(0) {
            Ok(id) => {
                let after = token();
                let t = if before == after {
                    before.to_string()
                } else {
                    "-".into()
                };
                if !line(&mut out, format!("{id} {t}")) {
                    return Ok(());
                }
            }
            Err(e) => eprintln!("error {} {e}", e.code()),
        }
        next_at += period;
        let now = Instant::now();
        if next_at > now {
            std::thread::sleep(next_at - now);
        } else {
            next_at = now;
        }
    }
    Ok(())
}
