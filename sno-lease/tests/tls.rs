//! TLS to both stores against real servers (issue #33): PostgreSQL with libpq's `sslmode` /
//! `sslrootcert`, Redis with `rediss://` and `ssl_ca_certs`, the certificates of
//! `scripts/store-server` (a test CA, a server certificate for the name `localhost` only, and a
//! CA that signed nothing here).
//!
//! What these guard: before #33 every TLS address was `lease_invalid_url` ("not supported by
//! this build"), so each accepted connection here failed; the refusals guard that a wrong CA or
//! a wrong host name is refused as `lease_tls_failed`, named, and never silently accepted.

mod support;

use std::time::{Duration, Instant};

use sno_lease::{Error, Lease, LeaseOptions};
use support::{Kind, Server, serial, url_encode, within};

fn options(ns: &str) -> LeaseOptions {
    LeaseOptions::new(ns)
        .ttl(Duration::from_secs(2))
        .timeout(Duration::from_secs(5))
}

/// `Lease::acquire`, bounded: a refused handshake must not hang either.
fn acquire(url: &str, opts: &LeaseOptions) -> Result<Lease, Error> {
    let (url, opts) = (url.to_owned(), opts.clone());
    within(Duration::from_secs(30), move || Lease::acquire(&url, &opts))
}

/// The refusal of `url`: `lease_tls_failed` whose message holds `words`.
fn refused(url: &str, words: &str) {
    let err = acquire(url, &options("tls-refused")).expect_err(url);
    assert_eq!(err.code(), "lease_tls_failed", "{url}: {err}");
    let text = err.to_string();
    assert!(
        text.contains(words),
        "{url}: {text:?} does not say {words:?}"
    );
    assert!(!text.contains("sno-secret") && !text.contains("sno-test"));
}

/// `ssl` of every PostgreSQL connection the leases of this test hold (application_name
/// `sno-lease`), from `pg_stat_ssl`.
fn lease_connections_ssl(server: &Server) -> Vec<bool> {
    server
        .psql(
            "SELECT s.ssl FROM pg_stat_ssl AS s JOIN pg_stat_activity AS a USING (pid) \
             WHERE a.application_name = 'sno-lease' ORDER BY a.backend_start",
        )
        .lines()
        .map(|l| l.trim() == "t")
        .collect()
}

/// A lease that mints an ID on its partition.
fn mints(lease: &Lease) {
    let id = lease.generator().unwrap().next(0).unwrap();
    assert_eq!(id.partition(), lease.partition());
}

#[test]
fn postgres_tls_verifies_as_libpq_says() {
    let _serial = serial();
    let server = Server::start_tls(Kind::Postgres);
    let port = server.port;
    let ca = url_encode(server.tls_file("ca.pem").to_str().unwrap());
    let wrong_ca = url_encode(server.tls_file("wrong-ca.pem").to_str().unwrap());
    let at =
        |host: &str, query: &str| format!("postgres://postgres@{host}:{port}/postgres?{query}");
    let opts = options("tls");

    // verify-full: the chain to the test CA and the name `localhost`, which the certificate has.
    let full = acquire(
        &at(
            "localhost",
            &format!("sslmode=verify-full&sslrootcert={ca}"),
        ),
        &opts,
    )
    .unwrap_or_else(|e| panic!("verify-full to localhost: {e}"));
    mints(&full);
    assert_eq!(lease_connections_ssl(&server), [true], "verify-full");
    // The same in libpq's key=value form.
    let ca_path = server.tls_file("ca.pem");
    let kv = acquire(
        &format!(
            "host=localhost port={port} user=postgres dbname=postgres sslmode=verify-full sslrootcert='{}'",
            ca_path.display()
        ),
        &opts,
    )
    .unwrap_or_else(|e| panic!("verify-full, key=value: {e}"));
    mints(&kv);
    // verify-ca: the chain only, so an IP address the certificate does not name will do.
    let chain = acquire(
        &at("127.0.0.1", &format!("sslmode=verify-ca&sslrootcert={ca}")),
        &opts,
    )
    .unwrap_or_else(|e| panic!("verify-ca to 127.0.0.1: {e}"));
    mints(&chain);
    // require without a root certificate: encrypted, nothing verified.
    let require = acquire(&at("127.0.0.1", "sslmode=require"), &opts)
        .unwrap_or_else(|e| panic!("require: {e}"));
    mints(&require);
    let ssl = lease_connections_ssl(&server);
    assert!(
        ssl.len() >= 4 && ssl.iter().all(|&s| s),
        "every lease so far talks TLS: {ssl:?}"
    );

    // Refused: a CA that did not sign the server's certificate, at every verifying level
    // (`require` with a root certificate verifies the chain, as libpq does); the right CA but a
    // name the certificate does not hold.
    refused(
        &at(
            "localhost",
            &format!("sslmode=verify-full&sslrootcert={wrong_ca}"),
        ),
        "unknown issuer",
    );
    refused(
        &at(
            "127.0.0.1",
            &format!("sslmode=verify-ca&sslrootcert={wrong_ca}"),
        ),
        "unknown issuer",
    );
    refused(
        &at(
            "127.0.0.1",
            &format!("sslmode=require&sslrootcert={wrong_ca}"),
        ),
        "unknown issuer",
    );
    refused(
        &at(
            "127.0.0.1",
            &format!("sslmode=verify-full&sslrootcert={ca}"),
        ),
        "wrong host",
    );

    // sslmode=disable: a plain connection, as before.
    let plain = acquire(&at("127.0.0.1", "sslmode=disable"), &opts)
        .unwrap_or_else(|e| panic!("disable: {e}"));
    mints(&plain);
    assert!(
        lease_connections_ssl(&server).contains(&false),
        "the sslmode=disable lease's connection is not encrypted"
    );
    let mut partitions: Vec<u16> = [&full, &kv, &chain, &require, &plain]
        .iter()
        .map(|l| l.partition())
        .collect();
    partitions.sort_unstable();
    partitions.dedup();
    assert_eq!(partitions.len(), 5, "five live leases, five partitions");
}

#[test]
fn redis_tls_acquires_renews_and_releases() {
    let _serial = serial();
    let server = Server::start_tls(Kind::Redis);
    let tls = server.tls_port.expect("a TLS port");
    let ca = url_encode(server.tls_file("ca.pem").to_str().unwrap());
    let wrong_ca = url_encode(server.tls_file("wrong-ca.pem").to_str().unwrap());
    let at = |host: &str, ca: &str| format!("rediss://:sno-test@{host}:{tls}/?ssl_ca_certs={ca}");

    // The first grant of a Redis namespace starts one TTL after the namespace is born.
    let mut lease = acquire(&at("localhost", &ca), &options("tls"))
        .unwrap_or_else(|e| panic!("rediss:// to localhost: {e}"));
    let first = lease.grant();
    let ids = lease.generator().unwrap();
    let id = ids.next(0).unwrap();
    assert_eq!(id.partition(), first.partition);
    // The lease's connection is the TLS port's (Redis shows each client's local address).
    let clients = server.redis_cli(&["CLIENT", "LIST"]);
    assert!(
        clients.contains(&format!("laddr=127.0.0.1:{tls} ")),
        "no client on the TLS port: {clients}"
    );
    // Past the first grant's window: only renewals over TLS keep the generator minting.
    let deadline = Instant::now() + Duration::from_millis(2500);
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        ids.next(0)
            .unwrap_or_else(|e| panic!("minting over TLS renewals: {e}"));
    }
    let later = lease.grant();
    assert_eq!(later.token, first.token, "renewed, not replaced");
    assert!(
        later.expires_unix_ms > first.expires_unix_ms + 1000,
        "renewed"
    );
    assert!(lease.last_error().is_none(), "{:?}", lease.last_error());
    let last = ids.next(0).unwrap();
    assert!(
        last.unix_ms() >= first.ids_before_unix_ms,
        "minted past the first window"
    );
    // Released over TLS: the live key is gone, and the bound lowered to just past the IDs.
    let p = first.partition;
    lease.close();
    assert_eq!(
        server.redis_cli(&["EXISTS", &format!("sno:lease:{{tls}}:p:{p}")]),
        "0",
        "released"
    );
    let bound: i64 = server
        .redis_cli(&["GET", &format!("sno:lease:{{tls}}:b:{p}")])
        .parse()
        .unwrap();
    assert!(
        bound > last.unix_ms() && bound < lease.grant().ids_before_unix_ms,
        "bound {bound}: past the last ID {}, below the window's end {}",
        last.unix_ms(),
        lease.grant().ids_before_unix_ms
    );

    refused(&at("localhost", &wrong_ca), "unknown issuer");
    refused(&at("127.0.0.1", &ca), "wrong host");
}
