//! Faults against real servers (issue #33): a store paused while a fresh acquisition waits for
//! it, a client process stopped and continued in the middle of a Redis call, and a release that
//! hands its partition to the next holder at once, inside the 4 ms unit of its last ID.

mod support;

use std::collections::HashSet;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use sno_core::Id;
use sno_lease::{Lease, LeaseOptions, LeasedGenerator};
use support::{BOTH, Kind, Server, serial, signal, unit_of_ms, within};

/// A fresh `Lease::acquire` (timeout 10 s) while the store is paused (SIGSTOP) for 3 s: it
/// waits for the store and succeeds once it answers again.
///
/// Guards the Redis handshake's patience: before #33 each handshake read had a quarter of the
/// timeout (2.5 s) and a read that timed out ended the call, `lease_unreachable` after 2.5 s
/// although 7.5 s were left. PostgreSQL waited before too (a regression guard there).
#[test]
fn a_paused_store_is_waited_for_within_the_timeout() {
    let _serial = serial();
    for kind in BOTH {
        let server = Server::start(kind);
        let opts = LeaseOptions::new("paused")
            .ttl(Duration::from_secs(2))
            .timeout(Duration::from_secs(10));
        // The namespace exists (and Redis's first TTL has passed) before the pause.
        drop(Lease::acquire(&server.url, &opts).unwrap());
        server.pause();
        let started = Instant::now();
        let (url, o) = (server.url.clone(), opts.clone());
        let acquiring = std::thread::spawn(move || Lease::acquire(&url, &o).map(|l| l.partition()));
        std::thread::sleep(Duration::from_secs(3));
        server.resume();
        let result = within(Duration::from_secs(30), move || acquiring.join().unwrap());
        let took = started.elapsed();
        let partition = result.unwrap_or_else(|e| panic!("{kind:?}: after {took:?}: {e}"));
        assert!(opts.partition_range().contains(&partition));
        // It cannot have succeeded before the store resumed, and it ended within its timeout.
        assert!(took >= Duration::from_millis(2900), "{kind:?}: {took:?}");
        assert!(took < Duration::from_secs(10), "{kind:?}: {took:?}");
    }
}

/// `sno-lease acquire URL …` in a child process (default timeout: 10 s).
fn acquire_in_child(url: &str, ns: &str, partitions: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_sno-lease"))
        .args(["acquire", url, "--namespace", ns, "--ttl", "2s"])
        .args(["--partitions", partitions])
        .env_remove("SNO_LEASE_URL")
        .env_remove("SNO_LEASE_NAMESPACE")
        .env_remove("SNO_LEASE_TTL")
        .env_remove("SNO_LEASE_PARTITIONS")
        .env_remove("SNO_PARTITION")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sno-lease acquire")
}

/// Stops and continues `child` a few times: on Linux a socket read with a timeout returns
/// `EINTR` when its process is stopped and continued, without any signal handler.
fn stop_and_continue(child: &std::process::Child) {
    for _ in 0..3 {
        signal(child.id(), "-STOP");
        std::thread::sleep(Duration::from_millis(150));
        signal(child.id(), "-CONT");
        std::thread::sleep(Duration::from_millis(250));
    }
}

fn output(child: std::process::Child) -> Output {
    within(Duration::from_secs(30), move || {
        child.wait_with_output().unwrap()
    })
}

fn assert_granted(out: &Output, partition: u16, when: &str) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.starts_with(&format!("partition={partition} ")),
        "{when}: the child failed: {stdout}{stderr}"
    );
    assert!(!stderr.contains("nterrupted"), "{when}: {stderr}");
}

/// A client process stopped (SIGSTOP) and continued (SIGCONT) while it waits in a read from
/// Redis carries on: first in the handshake's read (the server paused by SIGSTOP), then in the
/// read of the acquire script's reply (the server holding the script back with
/// `CLIENT PAUSE … WRITE`, the handshake answered), the last time with the script run while
/// the client is stopped. One partition only: the repeated script call must hand the holder
/// the grant its lost first call made, not refuse it as taken.
///
/// Guards against `lease_unreachable … Interrupted system call (os error 4)`, what every such
/// stop and continue gave before #33, and the acquire script's `g:<holder>` (without it the
/// last call is `lease_no_free_partition`).
#[test]
fn a_client_stopped_and_continued_in_a_redis_call_carries_on() {
    let _serial = serial();
    let server = Server::start(Kind::Redis);
    let ns = "eintr";
    // Born and past its first TTL, so that the children's grants are usable at once.
    let opts = LeaseOptions::new(ns)
        .ttl(Duration::from_secs(2))
        .partitions(7..=7);
    drop(Lease::acquire(&server.url, &opts).unwrap());

    server.pause();
    let child = acquire_in_child(&server.url, ns, "7-7");
    std::thread::sleep(Duration::from_millis(1000)); // connected, waiting in its read
    stop_and_continue(&child);
    server.resume();
    assert_granted(&output(child), 7, "stopped in the handshake");

    assert_eq!(
        server.redis_cli(&["CLIENT", "PAUSE", "20000", "WRITE"]),
        "OK"
    );
    let child = acquire_in_child(&server.url, ns, "7-7");
    std::thread::sleep(Duration::from_millis(1000)); // its acquire script held back
    stop_and_continue(&child);
    // Stopped once more, the server runs the script meanwhile (the grant is made) and its reply
    // waits unread: the continued client's read fails all the same, and it calls again.
    signal(child.id(), "-STOP");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(server.redis_cli(&["CLIENT", "UNPAUSE"]), "OK");
    std::thread::sleep(Duration::from_millis(300));
    signal(child.id(), "-CONT");
    assert_granted(&output(child), 7, "stopped in the script call");
}

/// What a holder minted: its first and last IDs (all of them are kept when few) and how many.
struct Minted {
    first: Vec<Id>,
    last: std::collections::VecDeque<Id>,
    count: u64,
}

/// IDs kept at each end of a holder's run: the tight loop mints millions.
const KEPT: usize = 20_000;

/// Mints on `ids` as fast as it can until the lease is closed. Each ID must be above the one
/// before (one thread, one generator): so every ID of the run is distinct, and its first and
/// last ones are its lowest and highest.
fn mint_until_closed(ids: LeasedGenerator) -> std::thread::JoinHandle<Minted> {
    std::thread::spawn(move || {
        let mut m = Minted {
            first: Vec::with_capacity(KEPT),
            last: std::collections::VecDeque::with_capacity(KEPT),
            count: 0,
        };
        let mut previous = Id::ZERO;
        loop {
            match ids.try_next(0) {
                Ok(id) => {
                    assert!(id > previous, "{id} after {previous}");
                    previous = id;
                    m.count += 1;
                    if m.first.len() < KEPT {
                        m.first.push(id);
                    } else {
                        if m.last.len() == KEPT {
                            m.last.pop_front();
                        }
                        m.last.push_back(id);
                    }
                }
                // A unit used up, or the clock not yet at the window's start: try again.
                Err(e) if ids.can_wait(&e) => {}
                // Asked after `can_wait`, which reads the closed flag too: once closed, always.
                Err(_) if ids.is_closed() => return m,
                Err(e) => panic!("minting: {e}"),
            }
        }
    })
}

/// The partition's stored bound (Unix ms) and whether a live grant holds it.
fn stored_bound(server: &Server, ns: &str, partition: u16) -> (i64, bool) {
    let live = server.live_grant(ns, partition).is_some();
    let bound = match server.kind {
        Kind::Postgres => server.psql(&format!(
            "SELECT (extract(epoch FROM ids_before) * 1000)::bigint FROM sno_partition_leases \
             WHERE namespace = '{ns}' AND partition = {partition}"
        )),
        Kind::Redis => server.redis_cli(&["GET", &format!("sno:lease:{{{ns}}}:b:{partition}")]),
    };
    (bound.parse().unwrap(), live)
}

/// A closed lease hands its one partition (7..=7, TTL 15 s) to the next `Lease::acquire` at
/// once, for IDs right after its own: the holder mints in a tight loop up to the close, the next
/// one is granted at once (often inside the same 4 ms unit as the release) and mints at once.
/// Its window starts at or after the end of the unit of the last ID before it, below the old
/// grant's window end; every ID it mints is distinct from and greater than the last holder's
/// (exact bytes). Four handovers in a row, then a holder that never minted: its release leaves
/// the bound at its own `ids_from`, where the next grant starts.
///
/// Guards the release that lowers the bound (fence.rs, "Releasing"): before #33 a release left
/// the bound a TTL − margin ahead, so the next holder waited about 14 s for its window.
#[test]
fn a_release_hands_the_partition_over_at_once() {
    let _serial = serial();
    for kind in BOTH {
        let server = Server::start(kind);
        let ns = "release";
        let opts = LeaseOptions::new(ns)
            .ttl(Duration::from_secs(15))
            .partitions(7..=7);
        let url = server.url.clone();
        let acquire = move || {
            let (url, opts) = (url.clone(), opts.clone());
            within(Duration::from_secs(40), move || {
                Lease::acquire(&url, &opts).unwrap_or_else(|e| panic!("acquire: {e}"))
            })
        };
        // Redis: the namespace's first grant waits out its first TTL (15 s), once.
        let mut holder = acquire();
        let mut minting = mint_until_closed(holder.generator().unwrap());
        let mut seen: HashSet<Id> = HashSet::new();
        let mut previous_last: Option<Id> = None;
        let mut total = 0;
        // The IDs of one holder: some, none seen before (exact bytes), all above the previous
        // holder's (its lowest above their highest).
        let mut check = |m: Minted, who: usize| -> Id {
            let first = *m.first.first().expect("the holder minted");
            let last = *m.last.back().or(m.first.last()).unwrap();
            if let Some(previous) = previous_last {
                assert!(
                    first > previous,
                    "{kind:?}: holder {who}'s first ID {first} is not above the last one before it, {previous}"
                );
            }
            for id in m.first.into_iter().chain(m.last) {
                assert!(seen.insert(id), "{kind:?}: duplicate {id}");
            }
            total += m.count;
            previous_last = Some(last);
            last
        };
        let mut same_unit = 0;
        let mut handovers = Vec::new();
        for round in 0..4 {
            std::thread::sleep(Duration::from_millis(30));
            let old = holder.grant();
            holder.close();
            let closed = Instant::now();
            let next = acquire();
            let handed_over_in = closed.elapsed();
            let next_minting = mint_until_closed(next.generator().unwrap());
            let last = check(minting.join().unwrap(), round);
            let new = next.grant();
            assert_eq!(new.partition, 7);
            assert!(new.token > old.token, "{kind:?} round {round}");
            assert!(
                handed_over_in < Duration::from_secs(5),
                "{kind:?} round {round}: the next holder waited {handed_over_in:?} (TTL 15 s)"
            );
            // The next window starts past the last ID's unit, below the old window's end.
            assert!(
                new.ids_from_unix_ms >= last.unix_ms() + 4,
                "{kind:?} round {round}: window from {} but the last ID's unit ends at {}",
                new.ids_from_unix_ms,
                last.unix_ms() + 4
            );
            assert!(
                new.ids_from_unix_ms < old.ids_before_unix_ms,
                "{kind:?} round {round}: the release did not lower the bound"
            );
            // Granted (store time) inside the unit of the old holder's last ID?
            if unit_of_ms(new.expires_unix_ms - 15_000) == last.timestamp() {
                same_unit += 1;
            }
            handovers.push(handed_over_in);
            holder = next;
            minting = next_minting;
        }
        holder.close();
        check(minting.join().unwrap(), 4);
        eprintln!(
            "{kind:?}: {total} IDs over 5 holders, handovers {handovers:?}, {same_unit} of 4 grants inside the unit of the last ID before them"
        );

        // A holder that never minted releases with the bound at its own window's start.
        let idle = acquire();
        let from = idle.grant().ids_from_unix_ms;
        idle.close();
        let (bound, live) = stored_bound(&server, ns, 7);
        assert!(!live, "{kind:?}: released");
        assert_eq!(
            bound, from,
            "{kind:?}: the bound after a release without IDs"
        );
        let next = acquire();
        assert_eq!(next.grant().ids_from_unix_ms, from, "{kind:?}");
    }
}
