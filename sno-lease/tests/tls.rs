//! TLS to both stores against real servers (issues #33 and #42): PostgreSQL with libpq's
//! `sslmode` / `sslrootcert` / `sslcert` / `sslkey`, Redis with `rediss://` and `ssl_ca_certs` /
//! `ssl_certfile` / `ssl_keyfile`, the certificates of `scripts/store-server` (a test CA, a
//! server certificate for the name `localhost` only, a CA that signed nothing here, a client
//! certificate, self-signed server certificates, certificates outside their validity).
//!
//! What these guard: before #33 every TLS address was `lease_invalid_url` ("not supported by
//! this build"), so each accepted connection here failed; the refusals guard that a wrong CA or
//! a wrong host name is refused as `lease_tls_failed`, named, and never silently accepted.
//! Before #42 a self-signed server certificate named as the CA file (which `psql` and
//! `redis-cli` accept) was refused, some refusals showed rustls's Debug text
//! (`Other(OtherError(CaUsedAsEndEntity))`), and client certificates were refused
//! (`lease_invalid_url`, or silently left out for Redis).

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use sno_lease::{Error, Lease, LeaseOptions};
use support::{Kind, Server, free_port, serial, url_encode, within};

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

/// `Lease::acquire` that must succeed.
fn accepted(url: &str, opts: &LeaseOptions) -> Lease {
    acquire(url, opts).unwrap_or_else(|e| panic!("{url}: {e}"))
}

/// The refusal of `url`: `lease_tls_failed` whose message holds `words`.
fn refused(url: &str, words: &str) {
    refused_as(url, "lease_tls_failed", words);
}

/// The refusal of `url`: `code`, whose message holds `words`, in words.
fn refused_as(url: &str, code: &str, words: &str) {
    let err = acquire(url, &options("tls-refused")).expect_err(url);
    assert_eq!(err.code(), code, "{url}: {err}");
    let text = err.to_string();
    assert!(
        text.contains(words),
        "{url}: {text:?} does not say {words:?}"
    );
    assert!(!text.contains("sno-secret") && !text.contains("sno-test"));
    in_words(&text);
}

/// rustls's and webpki's Debug text, which no message may show: every TLS failure reads in
/// words.
const DEBUG_TEXT: &[&str] = &[
    "Other(",
    "OtherError",
    "InvalidCertificate",
    "UnknownIssuer",
    "NotValidForName",
    "CaUsedAsEndEntity",
    "AlertReceived",
    "InvalidMessage",
    "InvalidContentType",
    "PeerMisbehaved",
    "PeerIncompatible",
    "Expired",
    "NotValidYet",
    "Context {",
    "UnixTime",
];

fn in_words(text: &str) {
    for debug in DEBUG_TEXT {
        assert!(
            !text.contains(debug),
            "{text:?} shows rustls's Debug text {debug:?}"
        );
    }
}

/// `lease` and every other lease of `held` are on distinct partitions, and each mints there.
fn mint_all(held: &[Lease]) {
    let mut partitions: Vec<u16> = held.iter().map(Lease::partition).collect();
    partitions.sort_unstable();
    partitions.dedup();
    assert_eq!(partitions.len(), held.len(), "one partition per live lease");
    held.iter().for_each(mints);
}

/// A fresh directory for files a test writes (key files with given permissions, a home).
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sno-lease-tls-{tag}-{}-{}",
        std::process::id(),
        free_port()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of `from` at `to` with Unix permissions `mode`.
fn copy_with_mode(from: &Path, to: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::copy(from, to).unwrap();
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(mode)).unwrap();
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
    let lease = acquire(&at("localhost", &ca), &options("tls"))
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

#[test]
fn postgres_trusts_a_self_signed_certificate_named_as_the_ca_file() {
    let _serial = serial();
    let server = Server::start_tls(Kind::Postgres);
    let port = server.port;
    let file = |name: &str| url_encode(server.tls_file(name).to_str().unwrap());
    let at =
        |host: &str, query: &str| format!("postgres://postgres@{host}:{port}/postgres?{query}");
    let opts = options("self-signed");
    let mut held = Vec::new();

    // What `openssl req -x509` makes (CA:TRUE), for `localhost` (CN and subjectAltName), named
    // as the CA file: accepted at every level where psql accepts it.
    server.serve_cert("self-signed");
    let own = file("self-signed.pem");
    for url in [
        at(
            "localhost",
            &format!("sslmode=verify-full&sslrootcert={own}"),
        ),
        at("127.0.0.1", &format!("sslmode=verify-ca&sslrootcert={own}")),
        at("127.0.0.1", &format!("sslmode=require&sslrootcert={own}")),
    ] {
        held.push(accepted(&url, &opts));
    }
    // The host name is still checked under verify-full (libpq: neither the subjectAltName nor
    // the CN `localhost` is 127.0.0.1).
    refused(
        &at(
            "127.0.0.1",
            &format!("sslmode=verify-full&sslrootcert={own}"),
        ),
        "wrong host",
    );
    // A CA certificate that is not itself in the CA file stays refused, in words: under the
    // test CA, and under another self-signed certificate for the same name (another key).
    for other in ["ca.pem", "self-signed-cn.pem"] {
        refused(
            &at(
                "localhost",
                &format!("sslmode=verify-full&sslrootcert={}", file(other)),
            ),
            "a CA certificate, not a server certificate",
        );
    }

    // The CN alone, no subjectAltName: libpq matches the host name against the CN.
    server.serve_cert("self-signed-cn");
    let cn = file("self-signed-cn.pem");
    let url = at(
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={cn}"),
    );
    held.push(acquire(&url, &opts).unwrap_or_else(|e| panic!("CN only: {e}")));
    refused(
        &at(
            "127.0.0.1",
            &format!("sslmode=verify-full&sslrootcert={cn}"),
        ),
        "wrong host",
    );

    // Its dates are still checked.
    server.serve_cert("self-signed-expired");
    refused(
        &at(
            "localhost",
            &format!(
                "sslmode=verify-ca&sslrootcert={}",
                file("self-signed-expired.pem")
            ),
        ),
        "expired at 2020-01-04",
    );
    mint_all(&held);
}

#[test]
fn postgres_tls_failures_read_in_words() {
    let _serial = serial();
    let server = Server::start_tls(Kind::Postgres);
    let port = server.port;
    let ca = url_encode(server.tls_file("ca.pem").to_str().unwrap());
    let full = format!(
        "postgres://postgres@localhost:{port}/postgres?sslmode=verify-full&sslrootcert={ca}"
    );
    // The system's roots did not sign the test CA.
    refused(
        &format!("postgres://postgres@localhost:{port}/postgres?sslrootcert=system"),
        "not signed by a trusted CA (unknown issuer)",
    );
    server.serve_cert("bad-signature");
    refused(&full, "its signature does not verify (bad signature)");
    server.serve_cert("expired");
    refused(&full, "expired at 2020-01-04T00:00:00");
    server.serve_cert("future");
    refused(&full, "not valid before");
    // A server without TLS under a mode that requires it.
    server.serve_cert("none");
    refused(
        &format!("postgres://postgres@127.0.0.1:{port}/postgres?sslmode=require"),
        "does not accept TLS",
    );
}

#[test]
fn redis_trusts_a_self_signed_certificate_and_reads_failures_in_words() {
    let _serial = serial();
    let server = Server::start_tls(Kind::Redis);
    let tls = server.tls_port.expect("a TLS port");
    let file = |name: &str| url_encode(server.tls_file(name).to_str().unwrap());
    let at = |host: &str, ca: &str| {
        format!("rediss://:sno-test@{host}:{tls}/?ssl_ca_certs={}", file(ca))
    };
    // A rediss:// URL on the plain port. Redis answers an inline command only once a line
    // ends, so it answers the TLS handshake (not in TLS) when the random bytes of the client's
    // hello hold a newline, and never otherwise (a timeout): the words say why either way.
    let plain = format!(
        "rediss://:sno-test@localhost:{}/?ssl_ca_certs={}",
        server.port,
        file("ca.pem")
    );
    let err = acquire(&plain, &options("plain").timeout(Duration::from_secs(1)))
        .expect_err("TLS to the plain port");
    let text = err.to_string();
    assert!(
        ["lease_tls_failed", "lease_unreachable"].contains(&err.code())
            && text.contains("a plain, non-TLS port?"),
        "{text}"
    );
    in_words(&text);
    refused(
        &format!("rediss://:sno-test@localhost:{tls}/"),
        "not signed by a trusted CA (unknown issuer)",
    );

    // `redis-cli --tls --cacert self-signed.pem` accepts it: so does the lease, host name
    // checked.
    server.serve_cert("self-signed");
    let lease = acquire(&at("localhost", "self-signed.pem"), &options("self-signed"))
        .unwrap_or_else(|e| panic!("self-signed: {e}"));
    mints(&lease);
    refused(&at("127.0.0.1", "self-signed.pem"), "wrong host");
    refused(
        &at("localhost", "ca.pem"),
        "a CA certificate, not a server certificate",
    );
    server.serve_cert("expired");
    refused(&at("localhost", "ca.pem"), "expired at 2020-01-04");
}

#[test]
fn postgres_client_certificates_as_libpq() {
    let _serial = serial();
    let server = Server::start_tls_client_certs(Kind::Postgres);
    let port = server.port;
    let path = |name: &str| server.tls_file(name);
    let file = |name: &str| url_encode(path(name).to_str().unwrap());
    let ca = file("ca.pem");
    let at = |query: &str| {
        format!(
            "postgres://sno_cert@localhost:{port}/postgres?sslmode=verify-full&sslrootcert={ca}{query}"
        )
    };
    let files = |cert: &str, key: &str| format!("&sslcert={cert}&sslkey={key}");
    let with_files = |cert: &str, key: &str| at(&files(cert, key));
    let opts = options("client-cert");
    let mut held = Vec::new();
    // The role sno_cert logs in with the certificate whose CN it is (`hostssl … cert`).
    let url = with_files(&file("client.pem"), &file("client.key"));
    held.push(accepted(&url, &opts));
    let kv = format!(
        "host=localhost port={port} user=sno_cert dbname=postgres sslmode=verify-ca sslrootcert='{}' sslcert='{}' sslkey='{}'",
        path("ca.pem").display(),
        path("client.pem").display(),
        path("client.key").display()
    );
    held.push(acquire(&kv, &opts).unwrap_or_else(|e| panic!("key=value: {e}")));
    mint_all(&held);

    // Without one, the server refuses the role; with one its CA did not sign, the handshake.
    refused_as(&at(""), "lease_authentication_failed", "client certificate");
    refused(
        &with_files(&file("self-signed.pem"), &file("self-signed.key")),
        "refused the client certificate",
    );
    // Files that cannot serve: a key of another certificate, a missing key, a certificate
    // file that holds none, a key file that holds no key.
    let invalid = |query: String, words: &str| refused_as(&at(&query), "lease_invalid_url", words);
    invalid(
        files(&file("client.pem"), &file("server.key")),
        "sslkey: the key does not match the certificate of sslcert",
    );
    invalid(
        format!(
            "&sslcert={}&sslkey={}.missing",
            file("client.pem"),
            file("client.key")
        ),
        "sslkey: the key file cannot be read",
    );
    invalid(
        files(&file("client.key"), &file("client.key")),
        "sslcert: the certificate file holds no certificate",
    );
    let dir = scratch("pg-key");
    let not_a_key = dir.join("not-a.key");
    copy_with_mode(&path("client.pem"), &not_a_key, 0o600);
    invalid(
        files(
            &file("client.pem"),
            &url_encode(not_a_key.to_str().unwrap()),
        ),
        "sslkey: the key file holds no private key",
    );
    invalid("&sslcertmode=sometimes".into(), "sslcertmode");

    // libpq's rule for the key file: no access for group or others (0640 when root owns it).
    let open_key = dir.join("open.key");
    copy_with_mode(&path("client.key"), &open_key, 0o644);
    invalid(
        files(&file("client.pem"), &url_encode(open_key.to_str().unwrap())),
        "sslkey: the key file has group or world access",
    );
    let own_key = dir.join("own.key");
    copy_with_mode(&path("client.key"), &own_key, 0o600);
    let url = with_files(&file("client.pem"), &url_encode(own_key.to_str().unwrap()));
    drop(accepted(&url, &opts));

    // libpq's default files, ~/.postgresql/postgresql.crt and .key, when they exist; not with
    // sslcertmode=disable. (In a child process: HOME is the process's.)
    let home = dir.join("home");
    std::fs::create_dir_all(home.join(".postgresql")).unwrap();
    let lease_with_home = |url: &str| {
        Command::new(env!("CARGO_BIN_EXE_sno-lease"))
            .args(["acquire", url, "--namespace", "client-cert-home"])
            .env("HOME", &home)
            .env_remove("SNO_LEASE_URL")
            .output()
            .expect("run sno-lease")
    };
    let out = lease_with_home(&at(""));
    assert!(!out.status.success(), "no default files yet");
    copy_with_mode(
        &path("client.pem"),
        &home.join(".postgresql/postgresql.crt"),
        0o644,
    );
    copy_with_mode(
        &path("client.key"),
        &home.join(".postgresql/postgresql.key"),
        0o600,
    );
    let out = lease_with_home(&at(""));
    assert!(
        out.status.success(),
        "the default files: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = lease_with_home(&at("&sslcertmode=disable"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("lease_authentication_failed"),
        "sslcertmode=disable sends none: {stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn redis_client_certificates_as_redis_py() {
    let _serial = serial();
    // `tls-auth-clients yes`, Redis's stock setting: a client certificate is required.
    let server = Server::start_tls_client_certs(Kind::Redis);
    let tls = server.tls_port.expect("a TLS port");
    let path = |name: &str| server.tls_file(name);
    let file = |name: &str| url_encode(path(name).to_str().unwrap());
    let at = |query: &str| {
        format!(
            "rediss://:sno-test@localhost:{tls}/?ssl_ca_certs={}{query}",
            file("ca.pem")
        )
    };
    let with_files = |cert: &str, key: &str| at(&format!("&ssl_certfile={cert}&ssl_keyfile={key}"));
    let opts = options("client-cert");
    let mut held = Vec::new();
    let url = with_files(&file("client.pem"), &file("client.key"));
    held.push(accepted(&url, &opts));
    // One file with the certificate and its key, as redis-py takes it (no ssl_keyfile).
    let dir = scratch("redis-cert");
    let both = dir.join("client-and-key.pem");
    let mut pem = std::fs::read(path("client.pem")).unwrap();
    pem.extend(std::fs::read(path("client.key")).unwrap());
    std::fs::write(&both, pem).unwrap();
    let url = at(&format!(
        "&ssl_certfile={}",
        url_encode(both.to_str().unwrap())
    ));
    held.push(acquire(&url, &opts).unwrap_or_else(|e| panic!("one file: {e}")));
    mint_all(&held);

    refused(&at(""), "requires a client certificate");
    refused(
        &with_files(&file("self-signed.pem"), &file("self-signed.key")),
        "refused the client certificate",
    );
    refused_as(
        &with_files(&file("client.pem"), &file("server.key")),
        "lease_invalid_url",
        "ssl_keyfile: the key does not match the certificate of ssl_certfile",
    );
    refused_as(
        &at(&format!("&ssl_keyfile={}", file("client.key"))),
        "lease_invalid_url",
        "ssl_keyfile needs ssl_certfile",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
