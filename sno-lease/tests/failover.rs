//! Failover of the store under live holders (issue #33), on real servers.
//!
//! PostgreSQL: a primary and an asynchronous streaming standby; the holders reach them through
//! a libpq multi-host address (`target_session_attrs=read-write`). Redis: a primary and a
//! replica; the holders reach them through a TCP proxy that plays the part of a virtual IP or
//! a DNS name moved at failover. In both, replication stops shortly before the primary dies
//! (the walsender stopped, the replica promoted early), so the new primary lacks the last
//! grants, renewals and releases, which is what an asynchronous failover may lose.
//!
//! Holders mint all along: four that lease, mint and release in turn (TTL 3 s, partitions
//! 0–5, so partitions pass from holder to holder), two cut off with the old primary (their
//! address names it alone: they mint to the end of the windows it granted them, on
//! partitions 8 and 9), and two newcomers after the failover that want exactly those
//! partitions, one at once and one after the new epoch's first TTL. Checked: no duplicate ID
//! (exact bytes), every ID inside its grant's window, the windows of each partition pairwise
//! disjoint (no partition held by two grants at once), every acquisition after the failover
//! starting its window at the new epoch's `born + TTL` or later with a larger token, and every
//! holder minting again on the new primary.
//!
//! What these guard: the epoch that a failover starts (PostgreSQL: the history of
//! system identifier and timeline in `sno_lease_history`; Redis: the `run_id`), every grant of
//! that epoch starting at `born + TTL` (not only those of its first TTL), and the release that
//! hands partitions over at once. Before #33 PostgreSQL had no epoch: the standby granted the
//! cut-off holders' partitions for windows they were still minting in (hundreds of duplicate
//! IDs), and neither store lowered the bound on release. Redis applied `born + TTL` only to
//! grants made within the epoch's first TTL: the second newcomer got its partition's rolled-back
//! bound as its window's start, below the end of the window the old primary had granted the
//! cut-off holder (no duplicate here only because every process shares one clock).

mod support;

use std::collections::{BTreeMap, HashSet};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sno_core::Id;
use sno_lease::{Grant, Lease, LeaseOptions};
use support::{Kind, Server, serial, signal, unit_of_ms, wall_ms, within};

const NS: &str = "failover";
const TTL_MS: i64 = 3_000;
/// The partitions the churning holders share.
const SHARED: RangeInclusive<u16> = 0..=5;
/// The partitions of the cut-off holders, then of the newcomers.
const CUT_OFF: [u16; 2] = [8, 9];

fn options(partitions: RangeInclusive<u16>) -> LeaseOptions {
    LeaseOptions::new(NS)
        .ttl(Duration::from_millis(TTL_MS as u64))
        .timeout(Duration::from_secs(2))
        .partitions(partitions)
}

/// One grant as its holder saw it (store times, Unix ms).
#[derive(Debug, Clone)]
struct Window {
    holder: String,
    partition: u16,
    token: u64,
    from: i64,
    /// The highest window end the holder was told (renewals raise it).
    before: i64,
    /// For the grant a close released: just past the holder's last ID (the holder stamps
    /// nothing after its close).
    released_at: Option<i64>,
}

impl Window {
    /// The end of what this grant may have stamped.
    fn end(&self) -> i64 {
        self.released_at.unwrap_or(self.before)
    }
}

/// What one holder did.
#[derive(Default)]
struct Run {
    label: String,
    /// Each ID with the token of the grant it was minted under (`None` when the grant changed
    /// during the call).
    ids: Vec<(Id, Option<u64>)>,
    windows: BTreeMap<(u16, u64), Window>,
    /// `Lease::acquire` calls: when they started (local clock, Unix ms) and their grant.
    acquired: Vec<(i64, Grant)>,
    errors: BTreeMap<&'static str, usize>,
}

impl Run {
    fn see(&mut self, g: &Grant) {
        let holder = &self.label;
        let w = self
            .windows
            .entry((g.partition, g.token))
            .or_insert_with(|| Window {
                holder: holder.clone(),
                partition: g.partition,
                token: g.token,
                from: g.ids_from_unix_ms,
                before: g.ids_before_unix_ms,
                released_at: None,
            });
        w.before = w.before.max(g.ids_before_unix_ms);
    }
}

/// Sets the flag on drop: holder threads end when the test ends, failed or not.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A holder on its own thread: leases from `url` (retrying until it gets a grant), mints about
/// one ID a millisecond under the grant, closes; with `churn` each lease lasts 0.3–2 s and the
/// holder leases again, else one lease lasts until `stop`.
fn holder(
    label: String,
    url: String,
    opts: LeaseOptions,
    churn: bool,
    stop: Arc<AtomicBool>,
) -> JoinHandle<Run> {
    std::thread::spawn(move || {
        let mut run = Run {
            label,
            ..Run::default()
        };
        let mut random = run.label.bytes().fold(wall_ms() as u64 | 1, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        while !stop.load(Ordering::Relaxed) {
            let started = wall_ms();
            let lease = match Lease::acquire(&url, &opts) {
                Ok(l) => l,
                Err(e) => {
                    *run.errors.entry(e.code()).or_default() += 1;
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
            };
            let g = lease.grant();
            run.see(&g);
            run.acquired.push((started, g));
            let ids = lease.generator().expect("a generator");
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let life = Duration::from_millis(300 + random % 1700);
            let until = Instant::now() + life;
            let mut highest: Option<Id> = None;
            while (!churn || Instant::now() < until) && !stop.load(Ordering::Relaxed) {
                // The grant read before and after the call: the same token on both sides means
                // the ID was minted under that grant (a switch replaces both under one lock).
                let g0 = lease.grant();
                let minted = ids.next(0);
                let g1 = lease.grant();
                run.see(&g0);
                run.see(&g1);
                match minted {
                    Ok(id) => {
                        highest = highest.max(Some(id));
                        let token = (g0.token == g1.token).then_some(g1.token);
                        run.ids.push((id, token));
                    }
                    Err(e) => *run.errors.entry(e.code()).or_default() += 1,
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            let lease = lease;
            lease.close();
            let last = lease.grant();
            run.see(&last);
            // The release sets the bound to no less than just past the lease's highest ID
            // (fence.rs, "Releasing"), and the holder stamps nothing after its close.
            let w = run
                .windows
                .get_mut(&(last.partition, last.token))
                .expect("seen");
            w.released_at = Some(match highest {
                Some(id) => w.from.max(w.before.min(id.unix_ms() + 4)),
                None => w.from,
            });
        }
        run
    })
}

/// Ends the holders and collects their runs.
fn collect(stop: &Arc<AtomicBool>, holders: Vec<JoinHandle<Run>>) -> Vec<Run> {
    stop.store(true, Ordering::Relaxed);
    holders
        .into_iter()
        .map(|h| within(Duration::from_secs(60), move || h.join().expect("a holder")))
        .collect()
}

/// The checks common to both stores. Local times (Unix ms): until `stopped_at` only the old
/// primary answered, from `failed_over_at` only the new one; `born` is the new epoch's start
/// (the store's clock, which is this machine's).
fn check(runs: &[Run], stopped_at: i64, failed_over_at: i64, born: i64) {
    for r in runs {
        eprintln!(
            "{}: {} IDs, {} grants, {} acquisitions, errors {:?}",
            r.label,
            r.ids.len(),
            r.windows.len(),
            r.acquired.len(),
            r.errors
        );
    }
    // No duplicate, exact bytes.
    let mut seen = HashSet::new();
    let mut duplicates = Vec::new();
    for r in runs {
        for (id, _) in &r.ids {
            if !seen.insert(*id) {
                duplicates.push(format!("{id} ({})", r.label));
            }
        }
    }
    assert!(
        duplicates.is_empty(),
        "{} duplicate IDs of {}, the first: {:?}",
        duplicates.len(),
        seen.len() + duplicates.len(),
        &duplicates[..duplicates.len().min(5)]
    );
    // Every ID inside the window of the grant it was minted under.
    for r in runs {
        for &(id, token) in &r.ids {
            let Some(token) = token else { continue };
            let w = &r.windows[&(id.partition(), token)];
            assert!(
                unit_of_ms(w.from) <= id.timestamp() && id.timestamp() < unit_of_ms(w.before),
                "{}: ID {id} (unit start {}) outside its grant's window {w:?}",
                r.label,
                id.unix_ms()
            );
        }
    }
    // The windows of each partition are pairwise disjoint: no two grants may stamp one unit.
    let mut by_partition: BTreeMap<u16, Vec<&Window>> = BTreeMap::new();
    for w in runs.iter().flat_map(|r| r.windows.values()) {
        if w.end() > w.from {
            by_partition.entry(w.partition).or_default().push(w);
        }
    }
    let mut handed_over = 0;
    let mut overlaps = Vec::new();
    for (p, mut ws) in by_partition {
        ws.sort_by_key(|w| (w.from, w.token));
        for pair in ws.windows(2) {
            if pair[0].end() > pair[1].from {
                overlaps.push(format!(
                    "partition {p}: the grants of {} and {} overlap by {} ms:\n  {:?}\n  {:?}",
                    pair[0].holder,
                    pair[1].holder,
                    pair[0].end() - pair[1].from,
                    pair[0],
                    pair[1]
                ));
            }
            // A grant that starts below what its predecessor was told: a release lowered it.
            if pair[1].from < pair[0].before {
                handed_over += 1;
            }
        }
    }
    assert!(overlaps.is_empty(), "{}", overlaps.join("\n"));
    assert!(
        handed_over > 0,
        "no partition was handed over below its last window's end (releases)"
    );
    // Acquisitions after the failover: windows from born + TTL, tokens above every earlier one.
    let before_failover = runs
        .iter()
        .flat_map(|r| &r.acquired)
        .filter(|(at, _)| *at < stopped_at)
        .map(|(_, g)| g.token)
        .max()
        .expect("acquisitions before the failover");
    let mut after = 0;
    for r in runs {
        for (at, g) in r.acquired.iter().filter(|(at, _)| *at >= failed_over_at) {
            after += 1;
            assert!(
                g.ids_from_unix_ms >= born + TTL_MS,
                "{}: acquired at {at} after the failover, born {born}: window from {} < born + TTL",
                r.label,
                g.ids_from_unix_ms
            );
            assert!(
                g.token > before_failover,
                "{}: token {} after the failover, {before_failover} before it",
                r.label,
                g.token
            );
        }
    }
    assert!(after > 0, "no acquisition after the failover");
    // Everyone except the cut-off holders minted on the new primary, after its first TTL.
    for r in runs.iter().filter(|r| !r.label.starts_with("cut-off")) {
        assert!(
            r.ids.iter().any(|(id, _)| id.unix_ms() >= born + TTL_MS),
            "{} did not mint after the failover",
            r.label
        );
    }
}

/// Waits (local clock) until Unix ms `t`.
fn sleep_until(t: i64) {
    let now = wall_ms();
    if t > now {
        std::thread::sleep(Duration::from_millis((t - now) as u64));
    }
}

/// Four holders churning on the shared partitions through `both` (the URL that follows the
/// failover), and one cut-off holder per partition of `CUT_OFF` through `old_only`.
fn start_holders(both: &str, old_only: &str, stop: &Arc<AtomicBool>) -> Vec<JoinHandle<Run>> {
    let mut holders: Vec<JoinHandle<Run>> = (0..4)
        .map(|i| {
            holder(
                format!("holder {i}"),
                both.to_owned(),
                options(SHARED),
                true,
                stop.clone(),
            )
        })
        .collect();
    for p in CUT_OFF {
        holders.push(holder(
            format!("cut-off {p}"),
            old_only.to_owned(),
            options(p..=p),
            false,
            stop.clone(),
        ));
    }
    holders
}

#[test]
fn postgres_failover_to_an_asynchronous_standby() {
    let _serial = serial();
    let primary = Server::start(Kind::Postgres);
    let standby = Server::start_pg_replica(&primary);
    let both = format!(
        "host=127.0.0.1,127.0.0.1 port={},{} target_session_attrs=read-write user=postgres dbname=postgres",
        primary.port, standby.port
    );
    let old_only = format!(
        "host=127.0.0.1 port={} user=postgres dbname=postgres",
        primary.port
    );
    // The tables, on both servers.
    drop(Lease::acquire(&both, &options(SHARED)).unwrap());
    let waited = Instant::now();
    while standby.psql("SELECT to_regclass('sno_partition_leases') IS NOT NULL") != "t" {
        assert!(waited.elapsed() < Duration::from_secs(20), "not replicated");
        std::thread::sleep(Duration::from_millis(20));
    }

    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(Arc::clone(&stop));
    let mut holders = start_holders(&both, &old_only, &stop);
    std::thread::sleep(Duration::from_secs(3));

    // Replication stops: from here the standby misses grants, renewals and releases.
    let walsender: u32 = primary
        .psql("SELECT pid FROM pg_stat_replication")
        .parse()
        .expect("one walsender");
    signal(walsender, "-STOP");
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        primary.psql("SELECT pg_current_wal_lsn() > sent_lsn FROM pg_stat_replication"),
        "t",
        "the primary wrote WAL that the standby never got"
    );
    // The primary dies with what it never sent.
    let stopped_at = wall_ms();
    signal(walsender, "-KILL");
    primary.stop();
    let promoting_at = wall_ms();
    standby.promote();
    let failed_over_at = wall_ms();

    // A newcomer at once on the first cut-off partition, and one after the new epoch's first
    // TTL on the second.
    holders.push(holder(
        format!("newcomer {}", CUT_OFF[0]),
        both.clone(),
        options(CUT_OFF[0]..=CUT_OFF[0]),
        false,
        stop.clone(),
    ));
    // The new epoch starts with the first acquisition on the promoted standby (on the first
    // timeline `born` is the Unix epoch: nothing was ever lost there).
    let waited = Instant::now();
    let born = loop {
        let b: i64 = standby
            .psql(&format!(
                "SELECT (extract(epoch FROM born) * 1000)::bigint FROM sno_lease_history WHERE namespace = '{NS}'"
            ))
            .parse()
            .expect("the namespace's history");
        if b > 0 {
            break b;
        }
        assert!(waited.elapsed() < Duration::from_secs(20), "no new epoch");
        std::thread::sleep(Duration::from_millis(50));
    };
    sleep_until(born + TTL_MS + 500);
    holders.push(holder(
        format!("newcomer {}", CUT_OFF[1]),
        both.clone(),
        options(CUT_OFF[1]..=CUT_OFF[1]),
        false,
        stop.clone(),
    ));
    sleep_until(born + TTL_MS + 4_000);
    let runs = collect(&stop, holders);
    assert!(
        born >= promoting_at,
        "the epoch started at {born}, before the promotion ({promoting_at})"
    );
    check(&runs, stopped_at, failed_over_at, born);
}

/// A TCP proxy on loopback to a backend port that can be switched: what a virtual IP or a DNS
/// name moved at failover does. Switching closes the connections to the old backend.
struct Proxy {
    port: u16,
    backend: Arc<AtomicU16>,
    open: Arc<Mutex<Vec<TcpStream>>>,
    stop: Arc<AtomicBool>,
}

impl Proxy {
    fn start(backend: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
        let port = listener.local_addr().unwrap().port();
        let proxy = Proxy {
            port,
            backend: Arc::new(AtomicU16::new(backend)),
            open: Arc::default(),
            stop: Arc::default(),
        };
        let (backend, open, stop) = (
            Arc::clone(&proxy.backend),
            Arc::clone(&proxy.open),
            Arc::clone(&proxy.stop),
        );
        std::thread::spawn(move || {
            for client in listener.incoming() {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let Ok(client) = client else { continue };
                // A backend that refuses: the client's connection closes at once.
                let Ok(server) = TcpStream::connect(("127.0.0.1", backend.load(Ordering::SeqCst)))
                else {
                    continue;
                };
                let _ = (client.set_nodelay(true), server.set_nodelay(true));
                let (Ok(c2), Ok(s2), Ok(c3), Ok(s3)) = (
                    client.try_clone(),
                    server.try_clone(),
                    client.try_clone(),
                    server.try_clone(),
                ) else {
                    continue;
                };
                open.lock().unwrap().extend([c3, s3]);
                pump(client, s2);
                pump(server, c2);
            }
        });
        proxy
    }

    fn switch(&self, backend: u16) {
        self.backend.store(backend, Ordering::SeqCst);
        for s in self.open.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

/// Copies `from` to `to` until either ends, then closes both.
fn pump(mut from: TcpStream, mut to: TcpStream) {
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut from, &mut to);
        let _ = from.shutdown(Shutdown::Both);
        let _ = to.shutdown(Shutdown::Both);
    });
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(("127.0.0.1", self.port)); // wakes the accept loop
        for s in self
            .open
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
        {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

#[test]
fn redis_failover_to_a_replica() {
    let _serial = serial();
    let primary = Server::start(Kind::Redis);
    let replica = Server::start(Kind::Redis);
    replica.replicate_from(&primary);
    let proxy = Proxy::start(primary.port);
    let both = format!("redis://:sno-test@127.0.0.1:{}/", proxy.port);
    let old_only = primary.url.clone();
    // The namespace is born (its first TTL waited out) before the holders start.
    drop(Lease::acquire(&both, &options(SHARED)).unwrap());

    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(Arc::clone(&stop));
    let mut holders = start_holders(&both, &old_only, &stop);
    std::thread::sleep(Duration::from_secs(3));

    // The replica is promoted early: from here it misses grants, renewals and releases.
    replica.promote_redis();
    let promoted_at = wall_ms();
    std::thread::sleep(Duration::from_millis(1500));
    // The primary dies; the address moves to the replica.
    let stopped_at = wall_ms();
    primary.stop();
    proxy.switch(replica.port);
    let failed_over_at = wall_ms();

    holders.push(holder(
        format!("newcomer {}", CUT_OFF[0]),
        both.clone(),
        options(CUT_OFF[0]..=CUT_OFF[0]),
        false,
        stop.clone(),
    ));
    // The new epoch starts with the first acquisition on the promoted replica.
    let waited = Instant::now();
    let born = loop {
        let b: i64 = replica
            .redis_cli(&["GET", &format!("sno:lease:{{{NS}}}:born")])
            .parse()
            .unwrap_or(0);
        if b >= promoted_at {
            break b;
        }
        assert!(waited.elapsed() < Duration::from_secs(20), "no new epoch");
        std::thread::sleep(Duration::from_millis(50));
    };
    sleep_until(born + TTL_MS + 500);
    holders.push(holder(
        format!("newcomer {}", CUT_OFF[1]),
        both.clone(),
        options(CUT_OFF[1]..=CUT_OFF[1]),
        false,
        stop.clone(),
    ));
    sleep_until(born + TTL_MS + 4_000);
    let runs = collect(&stop, holders);
    // Every holder through the proxy lost its grant (another run_id) and leased anew.
    for r in runs.iter().filter(|r| r.label.starts_with("holder")) {
        assert!(
            r.windows.values().any(|w| w.from >= born + TTL_MS),
            "{}: no grant of the new epoch",
            r.label
        );
    }
    check(&runs, stopped_at, failed_over_at, born);
    drop(proxy);
}

/// Issue #42, item 2: after `REPLICAOF NO ONE` on a replica behind a switched proxy, 20 of 20
/// holders with the default TTL (15 s) exited with a false "the clock moved back" error: the
/// first grants on the promoted replica start their windows one TTL later, further than the
/// generator's 5 s maximum wait. Here 20 holders with a TTL of 9 s mint through the failover:
/// no `next` may fail, each mints again after it, and no ID repeats.
#[test]
fn long_ttl_holders_keep_minting_through_a_redis_failover() {
    let _serial = serial();
    const TTL: Duration = Duration::from_secs(9);
    let primary = Server::start(Kind::Redis);
    let replica = Server::start(Kind::Redis);
    replica.replicate_from(&primary);
    let proxy = Proxy::start(primary.port);
    let url = format!("redis://:sno-test@127.0.0.1:{}/", proxy.port);
    let opts = LeaseOptions::new("failover-long")
        .ttl(TTL)
        .timeout(Duration::from_secs(2))
        .partitions(0..=63);
    // The namespace is born (its first TTL waited out) before the holders start.
    drop(Lease::acquire(&url, &opts).unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(Arc::clone(&stop));
    let holders: Vec<_> = (0..20)
        .map(|i| {
            holder(
                format!("holder {i}"),
                url.clone(),
                opts.clone(),
                false,
                stop.clone(),
            )
        })
        .collect();
    std::thread::sleep(Duration::from_secs(3));
    replica.promote_redis();
    primary.stop();
    proxy.switch(replica.port);
    let failed_over_at = wall_ms();
    sleep_until(failed_over_at + TTL.as_millis() as i64 + 4_000);
    let runs = collect(&stop, holders);
    let mut seen = std::collections::HashSet::new();
    for r in &runs {
        assert!(r.errors.is_empty(), "{}: {:?}", r.label, r.errors);
        assert!(
            r.ids
                .iter()
                .any(|(id, _)| id.unix_ms() > failed_over_at + TTL.as_millis() as i64),
            "{}: no ID a TTL after the failover",
            r.label
        );
        for (id, _) in &r.ids {
            assert!(seen.insert(*id), "{}: duplicate ID {id}", r.label);
        }
    }
    drop(proxy);
}
