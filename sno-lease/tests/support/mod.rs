//! Throwaway PostgreSQL and Redis servers for the tests (real servers, started by
//! `scripts/store-server`, stopped on drop, also when a test fails): plain and TLS ports, the
//! test certificates, PostgreSQL streaming standbys and their promotion, Redis replicas.

#![allow(dead_code)] // each test file uses part of this module

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

/// The tests of one file time their steps against TTLs of a few seconds: run them one at a
/// time, so that a loaded machine shifts them less.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// Runs `f` on a thread and fails the test if it does not return within `limit`: nothing may
/// hang beyond its timeout.
pub fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("no answer within {limit:?}: the call hangs"))
}

/// The local clock in Unix milliseconds (the servers run on this machine: the same clock).
pub fn wall_ms() -> i64 {
    sno_core::SystemClock::precise_unix_ns() / 1_000_000
}

/// Sends `sig` (`-STOP`, `-CONT`, `-KILL`, …) to process `pid`.
pub fn signal(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .expect("kill")
        .success();
    assert!(ok, "kill {sig} {pid}");
}

/// Which store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Postgres,
    Redis,
}

impl Kind {
    pub fn arg(self) -> &'static str {
        match self {
            Kind::Postgres => "pg",
            Kind::Redis => "redis",
        }
    }
}

pub const BOTH: [Kind; 2] = [Kind::Postgres, Kind::Redis];

/// A running server in a temporary directory.
pub struct Server {
    pub kind: Kind,
    pub url: String,
    pub port: u16,
    /// Redis started with TLS: its `--tls-port` (PostgreSQL takes TLS on `port`).
    pub tls_port: Option<u16>,
    dir: PathBuf,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/store-server")
}

/// A loopback port nothing listens on (bound and released at once).
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    l.local_addr().expect("local address").port()
}

fn temp_dir(tag: &str) -> PathBuf {
    let root = std::env::var_os("SNO_TEST_STORE_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = root.join(format!(
        "sno-lease-{tag}-{}-{}",
        std::process::id(),
        free_port()
    ));
    std::fs::create_dir_all(&dir).expect("create the server directory");
    dir
}

fn run(args: &[&str]) -> String {
    let out = Command::new("bash")
        .arg(script())
        .args(args)
        .output()
        .expect("run scripts/store-server");
    assert!(
        out.status.success(),
        "scripts/store-server {args:?} failed (are Debian's postgresql and redis-server installed?):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

impl Server {
    /// Starts a server; panics (fails the test) if it cannot.
    pub fn start(kind: Kind) -> Server {
        Server::start_with(kind, false, false)
    }

    /// Starts a server that takes TLS (the certificates in [`tls_file`](Self::tls_file)):
    /// PostgreSQL on its one port (always), Redis on a second port, [`Server::tls_port`].
    pub fn start_tls(kind: Kind) -> Server {
        Server::start_with(kind, true, false)
    }

    /// [`Server::start_tls`] that asks for client certificates (`store-server --client-certs`):
    /// PostgreSQL takes the role `sno_cert` over TLS with the test CA's `client.pem` only,
    /// Redis requires a client certificate signed by the test CA on its TLS port.
    pub fn start_tls_client_certs(kind: Kind) -> Server {
        Server::start_with(kind, true, true)
    }

    fn start_with(kind: Kind, tls: bool, client_certs: bool) -> Server {
        let dir = temp_dir(kind.arg());
        let port = free_port();
        let tls_port = (tls && kind == Kind::Redis).then(|| {
            loop {
                let p = free_port();
                if p != port {
                    break p;
                }
            }
        });
        let mut args = vec![
            "start".to_owned(),
            kind.arg().to_owned(),
            dir.to_str().expect("UTF-8 path").to_owned(),
            port.to_string(),
        ];
        args.extend(tls_port.map(|p| p.to_string()));
        if client_certs {
            args.push("--client-certs".to_owned());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let url = run(&args).trim().to_owned();
        Server {
            kind,
            url,
            port,
            tls_port,
            dir,
        }
    }

    /// A streaming standby of the PostgreSQL `primary` (`pg_basebackup`, asynchronous), once
    /// it streams.
    pub fn start_pg_replica(primary: &Server) -> Server {
        assert_eq!(primary.kind, Kind::Postgres);
        let dir = temp_dir("pg-replica");
        let port = free_port();
        let url = run(&[
            "start",
            "pg-replica",
            dir.to_str().expect("UTF-8 path"),
            &port.to_string(),
            primary.dir.to_str().expect("UTF-8 path"),
        ])
        .trim()
        .to_owned();
        let standby = Server {
            kind: Kind::Postgres,
            url,
            port,
            tls_port: None,
            dir,
        };
        let waited = std::time::Instant::now();
        while primary.psql("SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")
            != "1"
        {
            assert!(
                waited.elapsed() < Duration::from_secs(30),
                "the standby does not stream"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        standby
    }

    /// From now on the server presents the test certificate `name` (`server`, `self-signed`,
    /// `self-signed-cn`, `expired`, …: see `scripts/store-server`); PostgreSQL: `none` turns
    /// its TLS off.
    pub fn serve_cert(&self, name: &str) {
        run(&[
            "serve-cert",
            self.kind.arg(),
            self.dir.to_str().expect("UTF-8 path"),
            name,
        ]);
    }

    /// A file of the test certificates (`ca.pem`, `server.pem` for `localhost`, `wrong-ca.pem`,
    /// `client.pem`, `self-signed.pem`, …, each with its `.key`: see `scripts/store-server`).
    pub fn tls_file(&self, name: &str) -> PathBuf {
        let path = self.dir.join("tls").join(name);
        assert!(path.is_file(), "no certificate {}", path.display());
        path
    }

    fn control(&self, verb: &str) {
        run(&[
            verb,
            self.kind.arg(),
            self.dir.to_str().expect("UTF-8 path"),
        ]);
    }

    /// Stops the server now (PostgreSQL: `pg_ctl stop -m immediate`, Redis: SIGTERM).
    pub fn stop(&self) {
        self.control("stop");
    }

    /// PostgreSQL: promotes a standby to a primary (`pg_ctl promote`, waits until it is one).
    pub fn promote(&self) {
        assert_eq!(self.kind, Kind::Postgres);
        self.control("promote");
        let waited = std::time::Instant::now();
        while self.psql("SELECT pg_is_in_recovery()") != "f" {
            assert!(
                waited.elapsed() < Duration::from_secs(30),
                "the standby stays in recovery"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Redis: makes this server a replica of `primary` (`REPLICAOF`), once the link is up and
    /// the first sync done.
    pub fn replicate_from(&self, primary: &Server) {
        assert_eq!(self.kind, Kind::Redis);
        assert_eq!(
            self.redis_cli(&["REPLICAOF", "127.0.0.1", &primary.port.to_string()]),
            "OK"
        );
        let waited = std::time::Instant::now();
        loop {
            let info = self.redis_cli(&["INFO", "replication"]);
            if info.contains("master_link_status:up") && info.contains("master_sync_in_progress:0")
            {
                return;
            }
            assert!(
                waited.elapsed() < Duration::from_secs(30),
                "the replica does not sync: {info}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Redis: `REPLICAOF NO ONE`, the replica becomes a primary.
    pub fn promote_redis(&self) {
        assert_eq!(self.redis_cli(&["REPLICAOF", "NO", "ONE"]), "OK");
    }

    /// One SQL statement through `psql` as `postgres` (unaligned, tuples only, fields
    /// separated by a space), its output trimmed.
    pub fn psql(&self, sql: &str) -> String {
        assert_eq!(self.kind, Kind::Postgres);
        let out = Command::new("psql")
            .args([
                "-qtA",
                "-F",
                " ",
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
            ])
            .args(["-U", "postgres", "-d", "postgres", "-c", sql])
            .output()
            .expect("run psql");
        assert!(
            out.status.success(),
            "psql {sql:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// SIGSTOP: the server stops answering, connections stay open.
    pub fn pause(&self) {
        self.control("pause");
    }

    /// SIGCONT.
    pub fn resume(&self) {
        self.control("resume");
    }

    /// The live grant of `partition` in `namespace` as the store sees it: (expiry, the store's
    /// now), Unix ms; `None` when there is none.
    pub fn live_grant(&self, namespace: &str, partition: u16) -> Option<(i64, i64)> {
        match self.kind {
            Kind::Postgres => {
                let sql = format!(
                    "SELECT (extract(epoch FROM expires_at) * 1000)::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint FROM sno_partition_leases WHERE namespace = '{namespace}' AND partition = {partition} AND expires_at > clock_timestamp()"
                );
                let text = self.psql(&sql);
                let mut f = text.split_whitespace().map(|x| x.parse::<i64>().unwrap());
                Some((f.next()?, f.next()?))
            }
            Kind::Redis => {
                let key = format!("sno:lease:{{{namespace}}}:p:{partition}");
                // The key's absolute expiry (not TIME + PTTL: two calls apart, that sum runs
                // late by the time between them), then the server's time.
                let expires: i64 = self.redis_cli(&["PEXPIRETIME", &key]).parse().unwrap();
                let time = self.redis_cli(&["TIME"]);
                let mut t = time.split_whitespace().map(|x| x.parse::<i64>().unwrap());
                let now = t.next().unwrap() * 1000 + t.next().unwrap() / 1000;
                (expires >= now).then_some((expires, now))
            }
        }
    }

    /// A `redis-cli` command against this (Redis) server.
    pub fn redis_cli(&self, args: &[&str]) -> String {
        assert_eq!(self.kind, Kind::Redis);
        let out = Command::new("redis-cli")
            .args([
                "-p",
                &self.port.to_string(),
                "-a",
                "sno-test",
                "--no-auth-warning",
            ])
            .args(args)
            .output()
            .expect("run redis-cli");
        assert!(out.status.success(), "redis-cli {args:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// PostgreSQL: `pg_ctl restart` (data kept). Redis: stop and start (data lost, unless a
    /// `SAVE` left a snapshot, which the new process loads).
    pub fn restart(&self) {
        self.control("restart");
    }

    /// Redis: stops, stays away for `outage`, then starts (data lost).
    pub fn restart_after(&self, outage: Duration) {
        assert_eq!(self.kind, Kind::Redis);
        run(&[
            "restart",
            self.kind.arg(),
            self.dir.to_str().expect("UTF-8 path"),
            &outage.as_secs_f64().to_string(),
        ]);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .args(["stop", self.kind.arg(), self.dir.to_str().unwrap_or("")])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The sno unit (4 ms) holding Unix millisecond `ms`, 0 before 2010 (as the fence counts).
pub fn unit_of_ms(ms: i64) -> u64 {
    let nanos = ms.saturating_mul(1_000_000);
    if nanos < sno_core::time::EPOCH_UNIX_NANOS {
        return 0;
    }
    sno_core::time::unix_ns_to_units(nanos).unwrap_or(u64::MAX)
}

/// `text` percent-encoded for a URL's query (a file path as a parameter's value).
pub fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
