//! Throwaway PostgreSQL and Redis servers for the tests (real servers, started by
//! `scripts/store-server`, stopped on drop, also when a test fails).

#![allow(dead_code)] // each test file uses part of this module

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

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
        let dir = temp_dir(kind.arg());
        let port = free_port();
        let url = run(&[
            "start",
            kind.arg(),
            dir.to_str().expect("UTF-8 path"),
            &port.to_string(),
        ])
        .trim()
        .to_owned();
        Server {
            kind,
            url,
            port,
            dir,
        }
    }

    fn control(&self, verb: &str) {
        run(&[
            verb,
            self.kind.arg(),
            self.dir.to_str().expect("UTF-8 path"),
        ]);
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
                    .args(["-U", "postgres", "-d", "postgres", "-c", &sql])
                    .output()
                    .expect("run psql");
                assert!(
                    out.status.success(),
                    "psql: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let text = String::from_utf8_lossy(&out.stdout);
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
