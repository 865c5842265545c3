//! `sno new` in a fleet that leases its partitions, against a real PostgreSQL server (a
//! throwaway one, `scripts/store-server`): `--partition` is refused while `SNO_LEASE_URL` is set
//! (it could be a partition another process holds by lease), and Ctrl-C, `SIGTERM` and `SIGHUP`
//! release the leased partition before the process ends as the signal ends it. The grants last
//! 600 s, so a partition freed only by its expiry would still show as held.

#![cfg(unix)]

#[path = "../../sno-lease/tests/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};

use sno_lease::{Lease, LeaseOptions};
use support::{Kind, Server, free_port};

/// `sno` with only the `SNO_*` variables of `env`.
fn sno(env: &[(&str, &str)], args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sno"));
    cmd.args(args);
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("SNO_") {
            cmd.env_remove(name);
        }
    }
    cmd.envs(env.iter().copied());
    cmd
}

/// Runs `sno`; its status and what it wrote.
fn output(env: &[(&str, &str)], args: &[&str]) -> (Option<i32>, String, String) {
    let out = sno(env, args).output().expect("the sno binary runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.code(), text(out.stdout), text(out.stderr))
}

#[test]
fn a_partition_chosen_by_hand_is_refused_beside_a_lease_url() {
    let server = Server::start(Kind::Postgres);
    let ns = "cli-partition";
    // Another process of the fleet holds partition 5 by lease.
    let held = Lease::acquire(&server.url, &LeaseOptions::new(ns).partitions(5..=5))
        .expect("partition 5 leased");
    let unreachable = format!("postgres://postgres@127.0.0.1:{}/postgres", free_port());
    for url in [server.url.as_str(), &unreachable] {
        let env = [("SNO_LEASE_URL", url), ("SNO_LEASE_NAMESPACE", ns)];
        let (code, out, err) = output(&env, &["new", "--partition", "5", "-n", "3"]);
        assert_eq!(code, Some(2), "a usage error: {err}");
        assert_eq!(out, "", "no ID on a partition the fleet may hold");
        assert_eq!(
            err,
            "sno: error: --partition 5: environment variable SNO_LEASE_URL: set beside a \
             partition chosen by hand, which another process of the fleet may hold by lease \
             (both would mint the same IDs): leave the partition out to mint on a leased one, \
             or unset SNO_LEASE_URL (see sno new --help)\n"
        );
        // A Nanoflake generator id and a Ulid-Flake sid are not sno partitions: nothing leases
        // them, and no ID of theirs can be a sno ID (no store is asked: the unreachable URL
        // works as well).
        for args in [
            &[
                "new",
                "--format",
                "nanoflake",
                "--generator-id",
                "5",
                "--epoch",
                "1704067200000",
            ][..],
            &["new", "--format", "ulidflake", "--sid", "5"],
        ] {
            let (code, out, err) = output(&env, args);
            assert_eq!((code, out.lines().count()), (Some(0), 1), "{args:?}: {err}");
        }
    }
    // Without --partition: a leased one, the only one free of the range.
    let env = [
        ("SNO_LEASE_URL", server.url.as_str()),
        ("SNO_LEASE_NAMESPACE", ns),
        ("SNO_LEASE_PARTITIONS", "5-6"),
    ];
    let (code, out, err) = output(&env, &["new", "-n", "3", "--inspect"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.matches(" partition=6 ").count(), 3, "{out}");
    held.close();
}

/// `sno new -n 16777216` on the leased partition `partition`, its output unread once the first
/// line came (a reader that stopped: the command blocks writing), then `signal`: the status is
/// the signal's and the partition is free at once. `ignored` are ignored from the start, as
/// `nohup` and a shell's background jobs start a program.
fn signal_releases(server: &Server, partition: u16, signal: i32, ignored: &[i32]) {
    let ns = "cli-signals";
    let range = format!("{partition}-{partition}");
    let env = [
        ("SNO_LEASE_URL", server.url.as_str()),
        ("SNO_LEASE_NAMESPACE", ns),
        ("SNO_LEASE_PARTITIONS", range.as_str()),
        ("SNO_LEASE_TTL", "600s"),
    ];
    let mut cmd = sno(&env, &["new", "-n", "16777216"]);
    let start_ignored = ignored.to_vec();
    // SAFETY: between fork and exec only `signal`, which is async-signal-safe, runs.
    unsafe {
        cmd.pre_exec(move || {
            // As a terminal would start it, whatever this test runner ignores; then `ignored`.
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                let action = if start_ignored.contains(&sig) {
                    libc::SIG_IGN
                } else {
                    libc::SIG_DFL
                };
                libc::signal(sig, action);
            }
            Ok(())
        })
    };
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sno runs");
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().expect("piped"))
        .read_line(&mut first)
        .expect("a first ID");
    let id: sno_core::Id = first.trim().parse().expect("a sno ID");
    assert_eq!(id.partition(), partition);
    assert!(server.live_grant(ns, partition).is_some(), "leased");
    for sig in ignored.iter().chain([&signal]) {
        // SAFETY: a signal to the child this test started, still unwaited for.
        assert_eq!(unsafe { libc::kill(child.id() as i32, *sig) }, 0);
    }
    let out = child.wait_with_output().expect("sno ends");
    assert_eq!(
        out.status.signal(),
        Some(signal),
        "ended by the signal: {}",
        out.status
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "nothing printed");
    assert_eq!(
        server.live_grant(ns, partition),
        None,
        "signal {signal}: the 600 s grant was released"
    );
}

#[test]
fn ctrl_c_sigterm_and_sighup_release_the_partition_then_end_the_process() {
    let server = Server::start(Kind::Postgres);
    signal_releases(&server, 11, libc::SIGTERM, &[]);
    signal_releases(&server, 12, libc::SIGINT, &[]);
    signal_releases(&server, 13, libc::SIGHUP, &[]);
    // Under nohup (SIGHUP ignored): SIGHUP changes nothing, SIGTERM still releases.
    signal_releases(&server, 14, libc::SIGTERM, &[libc::SIGHUP]);
}

/// Issue #42, item 7: `sno lease status` shows each partition held in a namespace with its
/// holder as the holder describes itself (host, pid, program), since when, renewed when and how
/// long until it expires, as text and as JSON; read-only.
#[test]
fn lease_status_shows_who_holds_what() {
    let server = Server::start(Kind::Postgres);
    let ns = "cli-status";
    let held = Lease::acquire(&server.url, &LeaseOptions::new(ns).partitions(40..=40))
        .expect("partition 40 leased");
    let env = [
        ("SNO_LEASE_URL", server.url.as_str()),
        ("SNO_LEASE_NAMESPACE", ns),
    ];
    let (code, out, err) = output(&env, &["lease", "status"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with(&format!(
        "namespace={ns} store=postgres://postgres@127.0.0.1:"
    )));
    assert!(lines[0].ends_with(" held=1") && lines[0].contains(" now=20"));
    let program = std::env::current_exe().unwrap();
    let program = program.file_stem().unwrap().to_string_lossy();
    let row = lines[1];
    for part in [
        "partition=40 ".to_owned(),
        format!(" pid={} ", std::process::id()),
        format!(" program={program} "),
        format!(" token={} ", held.token()),
        format!(" holder={}", held.holder()),
    ] {
        assert!(row.contains(&part), "{row:?} lacks {part:?}");
    }
    assert!(
        row.contains(" since=20") && row.contains(" renewed=20") && row.contains(" expires_in_ms=")
    );
    // JSON, and --namespace over SNO_LEASE_NAMESPACE.
    let env = [
        ("SNO_LEASE_URL", server.url.as_str()),
        ("SNO_LEASE_NAMESPACE", "another"),
    ];
    let (code, out, err) = output(&env, &["lease", "status", "--namespace", ns, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["namespace"], ns);
    let h = &v["held"][0];
    assert_eq!(h["partition"], 40);
    assert_eq!(h["pid"], std::process::id());
    assert_eq!(h["holder"], held.holder());
    assert_eq!(h["token"], held.token());
    assert!(h["expires_in_ms"].as_u64().unwrap() <= 15_000);
    assert!(h["since_unix_ms"].as_i64().unwrap() <= h["renewed_unix_ms"].as_i64().unwrap());
    assert!(v["now_unix_ms"].as_i64().unwrap() < h["expires_unix_ms"].as_i64().unwrap());
    // Read-only: the holder still holds; another namespace holds nothing.
    let (code, out, _) = output(&env, &["lease", "status"]);
    assert_eq!((code, out.lines().count()), (Some(0), 1), "{out}");
    assert_eq!(held.renewal_failures(), 0);
    assert!(!held.is_closed());
    // Without SNO_LEASE_URL: a usage error naming it.
    let (code, out, err) = output(&[], &["lease", "status"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("SNO_LEASE_URL is not set"), "{err}");
    // A --namespace no store takes: a usage error naming the flag, before any connection.
    let long = "n".repeat(200);
    for bad in ["", "bad ns", long.as_str()] {
        let (code, out, err) = output(&env, &["lease", "status", "--namespace", bad]);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
        assert!(
            err.contains("--namespace: ") && err.contains("sno lease --help"),
            "{err}"
        );
    }
}

/// Issue #42, item 1, in the CLI: a password cut by PostgreSQL's 63-byte name limit reaches no
/// output (`&` typed for `?`, a user name holding the password, a key=value user quoted wrong;
/// against trust and scram).
#[test]
fn a_password_cut_at_63_bytes_reaches_no_output() {
    let server = Server::start(Kind::Postgres);
    let port = server.port;
    let secret = "Kx9vT2mQ7rLw4ZpN8cYb3HsJ6dFg5XkA1eRt0uVi9oPq2WnM7yBc4LzD8hGj3Sa";
    for url in [
        format!("postgres://postgres@127.0.0.1:{port}/postgres&password={secret}"),
        format!("postgres://sno_auth:sno-secret@127.0.0.1:{port}/postgres&password={secret}"),
        format!("postgres://sno%3A{secret}@127.0.0.1:{port}/postgres"),
        format!("postgres://sno%3A{secret}:x@127.0.0.1:{port}/sno_scram"),
        format!("host=127.0.0.1 port={port} user='sno password={secret}' dbname=postgres"),
    ] {
        for args in [&["new", "-n", "1"][..], &["lease", "status"]] {
            let (code, out, err) = output(&[("SNO_LEASE_URL", url.as_str())], args);
            assert_eq!(code, Some(1), "{args:?}: the store refuses");
            assert!(err.starts_with("sno lease: "), "{err}");
            // No 8 characters of the password in a row, anywhere.
            for window in secret.as_bytes().windows(8) {
                let window = std::str::from_utf8(window).unwrap();
                assert!(
                    !out.contains(window) && !err.contains(window),
                    "{args:?} shows it"
                );
            }
        }
    }
}
