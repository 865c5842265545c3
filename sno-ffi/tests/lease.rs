//! The lease part of the C API (`sno-ffi/tests/c/test_lease.c`), run against real PostgreSQL
//! and Redis servers: throwaway ones on loopback ports, started with `scripts/store-server` and
//! stopped when the test ends, passed or failed. Never a mock.
//!
//! The C test is built with `make -C sno-ffi/tests/c lease` against the libsno.a / libsno.so
//! that cargo built for this test run, in three forms: static and dynamic under ASan + UBSan,
//! and plain (dynamic) under valgrind when valgrind is installed. Needs a C compiler with the
//! sanitizers, make, and Debian's `postgresql` and `redis-server` packages.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("sno-ffi lives in the repository")
        .to_path_buf()
}

/// A loopback port that was free a moment ago (bound to port 0, then let go).
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local address").port()
}

/// Throwaway servers under one directory; dropping this stops them (also when a check panics).
/// Both use one set of certificates (the PostgreSQL server's `tls` folder, shared with Redis
/// through `SNO_TEST_CERTS`): `ca.pem` signed both servers' certificates (valid for `localhost`
/// only), `wrong-ca.pem` signed nothing.
struct Servers {
    dir: PathBuf,
    pg_url: String,
    pg_port: u16,
    redis_url: String,
    redis_port: u16,
    redis_tls_port: u16,
}

impl Servers {
    fn start(dir: PathBuf) -> Servers {
        // A run killed before its Drop could leave servers behind: stop them first.
        let _ = store_server(&["stop-all", dir.to_str().expect("UTF-8 path")]);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the servers' directory");
        let mut servers = Servers {
            dir,
            pg_url: String::new(),
            pg_port: 0,
            redis_url: String::new(),
            redis_port: 0,
            redis_tls_port: 0,
        };
        // `servers` is dropped (stopping what started) if a start below panics.
        servers.pg_port = free_port();
        servers.pg_url = servers.start_one("pg", &[servers.pg_port]);
        servers.redis_port = free_port();
        servers.redis_tls_port = free_port();
        servers.redis_url =
            servers.start_one("redis", &[servers.redis_port, servers.redis_tls_port]);
        servers
    }

    /// The folder of the test CA's files (`ca.pem`, `wrong-ca.pem`).
    fn certs(&self) -> PathBuf {
        self.dir.join("pg").join("tls")
    }

    fn start_one(&self, kind: &str, ports: &[u16]) -> String {
        let dir = self.dir.join(kind);
        let mut args = vec![
            "start".to_owned(),
            kind.to_owned(),
            dir.to_str().expect("UTF-8 path").to_owned(),
        ];
        args.extend(ports.iter().map(u16::to_string));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = Command::new(root().join("scripts/store-server"))
            .args(&args)
            .env("SNO_TEST_CERTS", self.certs())
            .output()
            .expect("run scripts/store-server");
        assert!(
            out.status.success(),
            "scripts/store-server start {kind} failed (PostgreSQL and redis-server must be installed): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .expect("UTF-8 URL")
            .trim()
            .to_owned()
    }
}

impl Drop for Servers {
    fn drop(&mut self) {
        for kind in ["pg", "redis"] {
            let dir = self.dir.join(kind);
            let _ = store_server(&["stop", kind, dir.to_str().unwrap_or_default()]);
        }
    }
}

fn store_server(args: &[&str]) -> Output {
    Command::new(root().join("scripts/store-server"))
        .args(args)
        .output()
        .expect("run scripts/store-server")
}

/// Builds test_lease (static, dynamic, plain) against this run's libsno; returns the folder.
fn build_c_test() -> PathBuf {
    // This test's executable lies in target/<profile>/deps, beside the libsno.a and libsno.so
    // built with it.
    let exe = std::env::current_exe().expect("current_exe");
    let libdir = exe.parent().expect("deps folder").to_path_buf();
    for lib in ["libsno.a", "libsno.so"] {
        assert!(
            libdir.join(lib).exists(),
            "{lib} not found in {}",
            libdir.display()
        );
    }
    let build = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ctest-lease");
    let out = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(root().join("sno-ffi/tests/c"))
        .arg("lease")
        .arg(format!("LIBDIR={}", libdir.display()))
        .arg(format!("BUILD={}", build.display()))
        .output()
        .expect("run make");
    assert!(
        out.status.success(),
        "make lease failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    build
}

/// The environment variables that configure the process-wide generator: removed from every
/// run, then set by the runs that want them.
const CONFIG_VARIABLES: [&str; 5] = [
    "SNO_PARTITION",
    "SNO_LEASE_URL",
    "SNO_LEASE_NAMESPACE",
    "SNO_LEASE_TTL",
    "SNO_LEASE_PARTITIONS",
];

/// One run of a test_lease binary.
struct Run<'a> {
    exe: PathBuf,
    args: Vec<String>,
    env: Vec<(&'a str, String)>,
    valgrind: bool,
}

impl<'a> Run<'a> {
    fn new(build: &Path, kind: &str, args: &[&str]) -> Self {
        Run {
            exe: build.join(format!("test_lease.{kind}")),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: Vec::new(),
            valgrind: false,
        }
    }

    fn env(mut self, name: &'a str, value: impl Into<String>) -> Self {
        self.env.push((name, value.into()));
        self
    }

    fn under_valgrind(mut self) -> Self {
        self.valgrind = true;
        self
    }

    /// Runs it; its stdout, or an error naming the command and its output.
    fn run(&self) -> Result<String, String> {
        self.run_full().map(|(stdout, _)| stdout)
    }

    /// Runs it; its stdout and stderr, or an error naming the command and its output.
    fn run_full(&self) -> Result<(String, String), String> {
        let mut cmd = if self.valgrind {
            let mut c = Command::new("valgrind");
            c.args([
                "--quiet",
                "--error-exitcode=3",
                "--leak-check=full",
                "--errors-for-leak-kinds=definite,indirect",
                // fork() children leave the parent's renewal threads behind by design.
                "--child-silent-after-fork=yes",
            ])
            .arg(&self.exe);
            c
        } else {
            Command::new(&self.exe)
        };
        cmd.args(&self.args).env("ASAN_OPTIONS", "detect_leaks=1");
        for v in CONFIG_VARIABLES {
            cmd.env_remove(v);
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if out.status.success() {
            // The closing line ("test_lease api: 411 passed, 0 failed"), for --nocapture.
            eprintln!(
                "{} {}: {}",
                self.exe.file_name().unwrap_or_default().to_string_lossy(),
                self.args.first().map_or("", String::as_str),
                stdout.lines().last().unwrap_or_default()
            );
            Ok((stdout, stderr))
        } else {
            Err(format!(
                "{:?} {:?} with {:?}: {}\n{stdout}{stderr}",
                self.exe.file_name().unwrap_or_default(),
                self.args,
                self.env,
                out.status,
            ))
        }
    }
}

/// The number after `word ` in a test's output.
fn number_after(output: &str, word: &str) -> Option<u32> {
    let at = output.find(&format!("{word} "))? + word.len() + 1;
    output[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// A failing environment: the code and words `env-fail` expects, and the variables.
type EnvFailure<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// The secrets of testdata/lease_bad_input.tsv (its `secret` column, `-` left out).
fn table_secrets(tsv: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(tsv).expect("read testdata/lease_bad_input.tsv");
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    assert_eq!(
        lines.next(),
        Some("case\turl\toptions\tcode\tsecret"),
        "the table's header"
    );
    lines
        .map(|l| l.split('\t').nth(4).expect("five columns").to_owned())
        .filter(|s| s != "-")
        .collect()
}

/// `minted partition P unix_ms T` of an `env-mint` run.
fn minted(stdout: &str) -> Option<(u32, i64)> {
    let line = stdout.lines().find(|l| l.starts_with("minted "))?;
    let partition = number_after(line, "partition")?;
    let at = line.find("unix_ms ")? + "unix_ms ".len();
    Some((partition, line[at..].trim().parse().ok()?))
}

#[test]
fn c_lease_api_against_real_servers() {
    let build = build_c_test();
    let servers = Servers::start(Path::new(env!("CARGO_TARGET_TMPDIR")).join("ffi-lease-stores"));
    let (pg, redis) = (servers.pg_url.as_str(), servers.redis_url.as_str());
    let tsv = root().join("testdata/lease_bad_input.tsv");
    let tsv = tsv.to_str().expect("UTF-8 path");
    let closed = free_port().to_string();
    let (pg_port, redis_port) = (servers.pg_port.to_string(), servers.redis_port.to_string());
    let mut failures = Vec::new();
    let mut check = |result: Result<String, String>| -> String {
        result.unwrap_or_else(|e| {
            failures.push(e);
            String::new()
        })
    };

    // sno_lease_*, leased generators, NULLs and messages, on both stores.
    for kind in ["static", "dynamic"] {
        check(Run::new(&build, kind, &["api", pg, redis]).run());
    }
    let has_valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if has_valgrind {
        // A longer TTL: valgrind slows the renewal thread down. PostgreSQL without TLS: ring's
        // assembly (AES-GCM, constant-time comparisons) is opaque to valgrind, which reports its
        // reads as uninitialised; the ASan runs above go through TLS (sslmode=prefer).
        let plain_pg = format!("{pg}?sslmode=disable");
        let run = Run::new(&build, "plain", &["api", &plain_pg, redis])
            .env("SNO_TEST_TTL_MS", "5000")
            .under_valgrind();
        check(run.run());
    } else {
        eprintln!("valgrind not installed: the valgrind run of test_lease is skipped");
    }

    // Every row of testdata/lease_bad_input.tsv; no row's secret in anything the run printed
    // (the library writes nothing to stdout or stderr of its own).
    let (ca, wrong_ca) = (
        servers.certs().join("ca.pem"),
        servers.certs().join("wrong-ca.pem"),
    );
    let redis_tls_port = servers.redis_tls_port.to_string();
    let args = [
        "bad-input",
        tsv,
        pg,
        redis,
        &pg_port,
        &redis_port,
        &closed,
        &redis_tls_port,
        ca.to_str().expect("UTF-8 path"),
        wrong_ca.to_str().expect("UTF-8 path"),
    ];
    let secrets = table_secrets(Path::new(tsv));
    assert!(secrets.len() >= 30, "{} secrets", secrets.len());
    match Run::new(&build, "static", &args).run_full() {
        Ok((stdout, stderr)) => {
            for secret in &secrets {
                if stdout.contains(secret.as_str()) || stderr.contains(secret.as_str()) {
                    failures.push(format!("bad-input: a row's secret {secret:?} was printed"));
                }
            }
        }
        Err(e) => failures.push(e),
    }
    let mut check = |result: Result<String, String>| -> String {
        result.unwrap_or_else(|e| {
            failures.push(e);
            String::new()
        })
    };

    // Zeroed options: a default partition, different in every process (4 processes all on
    // one partition: probability 2^-48), never partition 0 for everyone.
    let partitions: Vec<Option<u32>> = ["static", "dynamic", "static", "dynamic"]
        .iter()
        .map(|kind| {
            number_after(
                &check(Run::new(&build, kind, &["zeroed"]).run()),
                "partition",
            )
        })
        .collect();
    assert!(
        partitions.iter().all(Option::is_some),
        "zeroed: {partitions:?}"
    );
    assert!(
        partitions.iter().any(|p| *p != partitions[0]),
        "zeroed options gave one partition in 4 processes: {partitions:?}"
    );

    // SNO_PARTITION: sno_new stamps it; a bad value or both variables set fail every call.
    check(
        Run::new(&build, "static", &["env-ok", "77"])
            .env("SNO_PARTITION", "77")
            .run(),
    );
    for bad in ["abc", "65536", "-1", ""] {
        let run = Run::new(
            &build,
            "static",
            &["env-fail", "invalid_environment", "SNO_PARTITION"],
        );
        check(run.env("SNO_PARTITION", bad).run());
    }
    let both = Run::new(
        &build,
        "static",
        &["env-fail", "invalid_environment", "SNO_PARTITION"],
    );
    check(
        both.env("SNO_PARTITION", "7")
            .env("SNO_LEASE_URL", pg)
            .run(),
    );

    // SNO_LEASE_URL: sno_new mints on a leased partition, which the store holds (a second
    // lease of the one-partition range finds none free); a fork() child leases its own.
    for (backend, url) in [("pg", pg), ("redis", redis)] {
        let namespace = format!("c-env-{backend}");
        let run = Run::new(
            &build,
            "static",
            &["env-ok", "300", url, &namespace, "300", "300"],
        )
        .env("SNO_LEASE_URL", url)
        .env("SNO_LEASE_NAMESPACE", namespace.as_str())
        .env("SNO_LEASE_PARTITIONS", "300-300")
        .env("SNO_LEASE_TTL", "1s");
        check(run.run());
        let run = Run::new(&build, "dynamic", &["env-fork"])
            .env("SNO_LEASE_URL", url)
            .env("SNO_LEASE_NAMESPACE", format!("c-fork-{backend}"))
            .env("SNO_LEASE_PARTITIONS", "310-311")
            .env("SNO_LEASE_TTL", "1s");
        check(run.run());
    }
    let env_failures: [EnvFailure; 4] = [
        (
            "lease_invalid_url",
            "scheme",
            &[("SNO_LEASE_URL", "mysql://127.0.0.1/db")],
        ),
        (
            "lease_invalid_options",
            "SNO_LEASE_TTL",
            &[("SNO_LEASE_URL", pg), ("SNO_LEASE_TTL", "soon")],
        ),
        (
            "lease_invalid_options",
            "SNO_LEASE_PARTITIONS",
            &[("SNO_LEASE_URL", pg), ("SNO_LEASE_PARTITIONS", "9-")],
        ),
        (
            "lease_authentication_failed",
            "credentials",
            &[(
                "SNO_LEASE_URL",
                &format!("redis://:wrong@127.0.0.1:{redis_port}/"),
            )],
        ),
    ];
    for (code, words, vars) in env_failures {
        let mut run = Run::new(&build, "static", &["env-fail", code, words]);
        for (k, v) in vars {
            run = run.env(k, *v);
        }
        check(run.run());
    }

    // A process that ends normally releases its lease (the atexit handler sno_new registers):
    // one partition, a 15 s TTL, and the next process gets it at once, for IDs after the first's.
    let exit_env = |run: Run<'static>, namespace: &str| {
        run.env("SNO_LEASE_URL", pg.to_owned())
            .env("SNO_LEASE_NAMESPACE", namespace.to_owned())
            .env("SNO_LEASE_PARTITIONS", "5-5")
            .env("SNO_LEASE_TTL", "15s")
    };
    let first = check(exit_env(Run::new(&build, "static", &["env-mint"]), "c-exit").run());
    let started = Instant::now();
    let second = check(exit_env(Run::new(&build, "dynamic", &["env-mint"]), "c-exit").run());
    let took = started.elapsed();
    // The same, by hand: sno_release_process_lease.
    let run = Run::new(&build, "static", &["env-release", pg, "c-release", "5"]);
    check(exit_env(run, "c-release").run());
    match (minted(&first), minted(&second)) {
        (Some((p1, t1)), Some((p2, t2))) => {
            if (p1, p2) != (5, 5) {
                failures.push(format!("env-mint: partitions {p1} and {p2}, want 5 twice"));
            }
            if t2 < t1 {
                failures.push(format!(
                    "env-mint: the second ID ({t2}) before the first ({t1})"
                ));
            }
            if took >= Duration::from_secs(5) {
                failures.push(format!(
                    "env-mint: the second process took {took:?}: the first one's lease was not released at exit"
                ));
            }
        }
        // A run that failed is in `failures` already.
        (None, _) | (_, None) => {
            failures.push(format!("env-mint printed no ID:\n{first}\n{second}"));
        }
    }

    drop(servers);
    assert!(
        failures.is_empty(),
        "{} C lease runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
