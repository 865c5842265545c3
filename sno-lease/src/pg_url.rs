//! PostgreSQL addresses: a URL (`postgres://…`, `postgresql://…`) or a libpq key=value string,
//! parsed by the driver's own [`Config`], with libpq's TLS options (`sslmode`, `sslrootcert`,
//! `sslcert`, `sslkey`, `sslcertmode`) taken out first (the driver knows only `disable`,
//! `prefer` and `require`).
//!
//! Nothing in a message comes from the text itself: [`PgAddress::description`] is built from the
//! parsed parts (scheme, user, hosts, ports, database), and a text that does not parse is
//! described by the part that is wrong, never echoed (a password holding `/`, `@`, `?` or a
//! space that was not percent-encoded or quoted would otherwise land in the message).

use std::str::FromStr;

use tokio_postgres::Config;
use tokio_postgres::config::{Host, SslMode};

use crate::address::{Secrets, plain_name, plausible_host, take_query_parameter};
use crate::error::Error;
use crate::pg_tls::Settings;
use crate::tls::{Roots, Verify};

/// libpq's connection parameters: an unknown option that is one of these is named in the error
/// (it is a parameter this build does not support); any other is not echoed.
const LIBPQ_PARAMETERS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "require_auth",
    "channel_binding",
    "connect_timeout",
    "client_encoding",
    "options",
    "application_name",
    "fallback_application_name",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_count",
    "tcp_user_timeout",
    "replication",
    "gssencmode",
    "sslmode",
    "requiressl",
    "sslnegotiation",
    "sslcompression",
    "sslcert",
    "sslkey",
    "sslpassword",
    "sslcertmode",
    "sslrootcert",
    "sslcrl",
    "sslcrldir",
    "sslsni",
    "requirepeer",
    "ssl_min_protocol_version",
    "ssl_max_protocol_version",
    "krbsrvname",
    "gsslib",
    "gssdelegation",
    "service",
    "target_session_attrs",
    "load_balance_hosts",
];

/// How to talk TLS to the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PgTls {
    /// `sslmode=disable`: never.
    Off,
    /// TLS when the server offers it (`prefer`, `allow`) or always (`require`, `verify-*`),
    /// verified and with a client certificate as the settings say.
    On(Settings),
}

/// A parsed PostgreSQL address.
pub(crate) struct PgAddress {
    pub(crate) config: Config,
    pub(crate) tls: PgTls,
    /// `postgres://user@host:port,…/db`: the parts without any secret, for messages.
    pub(crate) description: String,
    /// What the server's own words must not show.
    pub(crate) secrets: Secrets,
}

fn invalid(detail: impl Into<String>) -> Error {
    Error::InvalidUrl {
        detail: detail.into(),
    }
}

/// Parses `url` (a URL or a key=value string).
pub(crate) fn parse(url: &str) -> Result<PgAddress, Error> {
    let (rest, ssl) = if let Some((scheme, tail)) = url.split_once("://") {
        let (rest, ssl) = split_url_options(tail)?;
        (format!("{scheme}://{rest}"), ssl)
    } else {
        split_key_values(url)?
    };
    let mut config = Config::from_str(&rest).map_err(|e| driver_refusal(&e))?;
    let (mut tls, ssl_mode) = tls_mode(&ssl)?;
    config.ssl_mode(ssl_mode);
    if config.get_hosts().is_empty() {
        return Err(invalid(
            "the PostgreSQL address names no host (host=… or postgres://HOST/…)",
        ));
    }
    // No TLS over a Unix socket: libpq reads no client certificate file for one either.
    let tcp = |host: &Host| matches!(host, Host::Tcp(_));
    if let PgTls::On(settings) = &mut tls
        && !config.get_hosts().iter().any(tcp)
    {
        settings.no_client_cert = true;
    }
    let description = describe(&config)?;
    let mut secrets = Secrets::default();
    if let Some(password) = config.get_password() {
        secrets.add(&String::from_utf8_lossy(password));
    }
    if let Some(options) = config.get_options() {
        secrets.add_option_values(options);
    }
    // A name that is not shown is kept out of the server's words too ("role … does not exist").
    for name in [config.get_user(), config.get_dbname()]
        .into_iter()
        .flatten()
    {
        if !plain_name(name) {
            secrets.add(name);
        }
    }
    Ok(PgAddress {
        config,
        tls,
        description,
        secrets,
    })
}

/// The TLS options taken out of the text.
#[derive(Default)]
struct SslOptions {
    mode: Option<String>,
    root_cert: Option<String>,
    cert: Option<String>,
    key: Option<String>,
    cert_mode: Option<String>,
}

impl SslOptions {
    /// Our parameters' names.
    const NAMES: [&str; 5] = ["sslmode", "sslrootcert", "sslcert", "sslkey", "sslcertmode"];

    /// Takes `key=value` if it is one of ours; `false` for any other key.
    fn take(&mut self, key: &str, value: String) -> bool {
        let slot = match key {
            "sslmode" => &mut self.mode,
            "sslrootcert" => &mut self.root_cert,
            "sslcert" => &mut self.cert,
            "sslkey" => &mut self.key,
            "sslcertmode" => &mut self.cert_mode,
            _ => return false,
        };
        *slot = Some(value);
        true
    }
}

/// The TLS to use and the driver's mode for it (`prefer` where TLS is optional, `require` where
/// it is not: a verifying mode must never fall back to a plain connection).
fn tls_mode(ssl: &SslOptions) -> Result<(PgTls, SslMode), Error> {
    let roots = match ssl.root_cert.as_deref() {
        None => None,
        Some("system") => Some(Roots::System),
        Some("") => {
            return Err(invalid(
                "sslrootcert is empty: name a PEM file, or `system`",
            ));
        }
        Some(path) => Some(Roots::File(path.to_owned())),
    };
    let system_named = roots == Some(Roots::System);
    let mode = ssl.mode.as_deref().unwrap_or(if system_named {
        "verify-full"
    } else {
        "prefer"
    });
    if system_named && mode != "verify-full" {
        // libpq 16: the system's roots only make sense with the host name checked.
        return Err(invalid(
            "sslrootcert=system needs sslmode=verify-full (or no sslmode)",
        ));
    }
    // libpq 16's sslcertmode: `require` (fail unless the server asks for a certificate) is
    // not offered: rustls does not tell whether the server asked.
    let no_client_cert = match ssl.cert_mode.as_deref() {
        None | Some("allow") => false,
        Some("disable") => true,
        Some("require") => {
            return Err(invalid(
                "sslcertmode=require is not supported by this build (disable or allow)",
            ));
        }
        Some(_) => return Err(invalid("sslcertmode is none of disable, allow, require")),
    };
    let on = |verify, roots: Option<Roots>| {
        PgTls::On(Settings {
            verify,
            roots: roots.unwrap_or(Roots::System),
            cert: ssl.cert.clone(),
            key: ssl.key.clone(),
            no_client_cert,
        })
    };
    Ok(match mode {
        "disable" => (PgTls::Off, SslMode::Disable),
        "allow" | "prefer" => (on(Verify::None, None), SslMode::Prefer),
        // libpq: `require` with a root certificate verifies the chain, as `verify-ca`.
        "require" if roots.is_some() => (on(Verify::Chain, roots), SslMode::Require),
        "require" => (on(Verify::None, None), SslMode::Require),
        "verify-ca" => (on(Verify::Chain, roots), SslMode::Require),
        "verify-full" => (on(Verify::Full, roots), SslMode::Require),
        _ => {
            return Err(invalid(
                "sslmode is none of disable, allow, prefer, require, verify-ca, verify-full",
            ));
        }
    })
}

/// The part of a URL after `scheme://` without our TLS options, and those options.
fn split_url_options(tail: &str) -> Result<(String, SslOptions), Error> {
    let mut ssl = SslOptions::default();
    let mut rest = tail.to_owned();
    for name in SslOptions::NAMES {
        let (kept, value) = take_query_parameter(&rest, name)?;
        rest = kept;
        if let Some(value) = value {
            ssl.take(name, value);
        }
    }
    Ok((rest, ssl))
}

/// A libpq key=value string without our TLS options (re-quoted), and those options.
fn split_key_values(text: &str) -> Result<(String, SslOptions), Error> {
    let mut ssl = SslOptions::default();
    let mut kept = Vec::new();
    for (key, value) in key_values(text)? {
        if !ssl.take(&key, value.clone()) {
            let quoted = value.replace('\\', "\\\\").replace('\'', "\\'");
            kept.push(format!("{key}='{quoted}'"));
        }
    }
    Ok((kept.join(" "), ssl))
}

/// libpq's key=value grammar: `key = value` pairs separated by spaces; a value is a word or a
/// single-quoted string (`\'` and `\\` escape in both).
fn key_values(text: &str) -> Result<Vec<(String, String)>, Error> {
    let mut pairs = Vec::new();
    let mut chars = text.chars().peekable();
    let skip_space = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
    };
    loop {
        skip_space(&mut chars);
        if chars.peek().is_none() {
            return Ok(pairs);
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
            key.push(c);
        }
        skip_space(&mut chars);
        if chars.next() != Some('=') {
            return Err(invalid(
                "the key=value string does not parse: a word without `=` (quote values that hold spaces: password='…')",
            ));
        }
        skip_space(&mut chars);
        let mut value = String::new();
        if chars.next_if_eq(&'\'').is_some() {
            loop {
                match chars.next() {
                    None => {
                        return Err(invalid(format!(
                            "the key=value string does not parse: the quoted value of {} is not closed",
                            parameter_name(&key)
                        )));
                    }
                    Some('\'') => break,
                    Some('\\') => value.extend(chars.next()),
                    Some(c) => value.push(c),
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                if c == '\\' {
                    value.extend(chars.next());
                } else {
                    value.push(c);
                }
            }
        }
        pairs.push((key, value));
    }
}

/// A parameter's name for a message: libpq's parameters by name, anything else not echoed.
fn parameter_name(key: &str) -> String {
    if LIBPQ_PARAMETERS.contains(&key) {
        format!("the parameter `{key}`")
    } else {
        "an unknown parameter (its name is not shown)".into()
    }
}

/// The driver's refusal in our words: the option it names (its names are its own fixed list),
/// never the text.
fn driver_refusal(e: &tokio_postgres::Error) -> Error {
    let words = std::error::Error::source(e)
        .map(ToString::to_string)
        .unwrap_or_default();
    if let Some(option) = words
        .strip_prefix("invalid value for option `")
        .and_then(|w| w.strip_suffix('`'))
        && LIBPQ_PARAMETERS.contains(&option)
    {
        return invalid(format!(
            "the value of `{option}` is not valid (a password holding `/`, `?`, `@` or `#` must be percent-encoded in a URL)"
        ));
    }
    if let Some(option) = words
        .strip_prefix("unknown option `")
        .and_then(|w| w.strip_suffix('`'))
    {
        return invalid(format!(
            "{} is not supported by this build",
            parameter_name(option)
        ));
    }
    invalid(
        "the PostgreSQL address does not parse (a password holding `/`, `?`, `@` or `#` must be percent-encoded in a URL, and quoted in key=value form)",
    )
}

/// `postgres://user@host:port,…/db` from the parsed parts, after checking that each part looks
/// like what it should be: a host that holds `@` or a database that holds `@` means the text
/// was cut at a character of an unencoded password, and is refused without being shown.
fn describe(config: &Config) -> Result<String, Error> {
    let mut hosts = Vec::new();
    let ports = config.get_ports();
    for (i, host) in config.get_hosts().iter().enumerate() {
        let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
        match host {
            Host::Tcp(name) => {
                if !plausible_host(name) {
                    return Err(invalid(
                        "a host is not a valid host name or IP address (not shown: a password holding `/`, `?`, `@` or `#` must be percent-encoded)",
                    ));
                }
                if name.contains(':') {
                    hosts.push(format!("[{name}]:{port}"));
                } else {
                    hosts.push(format!("{name}:{port}"));
                }
            }
            // (tokio-postgres has Unix sockets on Unix only: a Windows build has no such arm.)
            #[cfg(unix)]
            Host::Unix(path) => {
                let path = path.to_string_lossy();
                if path.contains('@') || path.chars().any(char::is_control) {
                    return Err(invalid(
                        "a socket directory is not a valid path (not shown)",
                    ));
                }
                hosts.push(format!("{path}:{port}"));
            }
        }
    }
    // A user or database name is shown only when it is a plain name: anything else may hold a
    // misplaced password (`user:pw` percent-encoded into the user, `db&password=…`, a key=value
    // tail), and the server's words about it are scrubbed too (see `parse`).
    let user = match config.get_user() {
        Some(u) if plain_name(u) => format!("{u}@"),
        Some(_) => "[user not shown]@".into(),
        None => String::new(),
    };
    let db = match config.get_dbname() {
        Some(db) if plain_name(db) => format!("/{db}"),
        Some(_) => "/[database not shown]".into(),
        None => String::new(),
    };
    Ok(format!("postgres://{user}{}{db}", hosts.join(",")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal, or the description where the driver makes sense of the text: what a
    /// message can show either way.
    fn shown(url: &str) -> String {
        match parse(url) {
            Ok(a) => a.description,
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn descriptions_hold_no_secret() {
        let d = |u: &str| parse(u).unwrap().description;
        assert_eq!(d("postgres://u:secret@h:5433/db"), "postgres://u@h:5433/db");
        assert_eq!(
            d("postgresql://u@h/db?password=secret&sslmode=disable"),
            "postgres://u@h:5432/db"
        );
        assert_eq!(
            d("host = h  user=u password = 'se cret' dbname=db"),
            "postgres://u@h:5432/db"
        );
        assert_eq!(
            d("postgres://u:p%2Fw%40d%3A@[::1]:5433,h2:5434/db"),
            "postgres://u@[::1]:5433,h2:5434/db"
        );
        assert_eq!(
            d("postgres:///db?host=/run/postgresql"),
            "postgres:///run/postgresql:5432/db"
        );
    }

    #[test]
    fn misplaced_passwords_are_not_shown() {
        for (url, secret) in [
            ("postgres://u:pa/ss@h/db", "pa/ss"),
            ("postgres://u:12345/ss@h/db", "12345/ss"),
            ("postgres://u:p@ss@h/db", "p@ss"),
            ("postgres://u:pa?ss@h/db", "pa?ss"),
            ("postgres://u:pa#ss@h/db", "pa#ss"),
            ("host=h password=hunter 2", "hunter"),
            ("host=h password='hunter 2", "hunter"),
            ("postgres://u@h/db?hunter2", "hunter2"),
            ("postgres://u@h/db?sslmode=hunter2", "hunter2"),
            ("postgres://u@h/postgres&password=SecDbX1", "SecDbX1"),
            ("postgres://u@h/postgres%20password%3DSecDbX3", "SecDbX3"),
            ("postgres://u@h/postgres/SecDbX4", "SecDbX4"),
            (
                "host=h user=u dbname='postgres password=SecDbX7'",
                "SecDbX7",
            ),
            ("postgres://u%3ASecDbX13@h/postgres", "SecDbX13"),
            ("host=h user='u password=SecUkA64'", "SecUkA64"),
        ] {
            let e = shown(url);
            assert!(!e.contains(secret), "{url}: {e}");
        }
    }

    #[test]
    fn tls_modes() {
        let tls = |u: &str| parse(u).map(|a| a.tls);
        // A verifying mode never falls back to a plain connection.
        let modes = |u: &str| parse(u).unwrap().config.get_ssl_mode();
        assert_eq!(
            modes("postgres://h/db?sslrootcert=system"),
            SslMode::Require
        );
        let on = |verify, roots| {
            Ok(PgTls::On(Settings {
                verify,
                roots,
                cert: None,
                key: None,
                no_client_cert: false,
            }))
        };
        assert_eq!(tls("postgres://h/db"), on(Verify::None, Roots::System));
        assert_eq!(tls("postgres://h/db?sslmode=disable"), Ok(PgTls::Off));
        assert_eq!(
            tls("host=h sslmode=require"),
            on(Verify::None, Roots::System)
        );
        assert_eq!(
            tls("host=h sslmode=require sslrootcert=/ca.pem"),
            on(Verify::Chain, Roots::File("/ca.pem".into()))
        );
        assert_eq!(
            tls("postgres://h/db?sslmode=verify-ca"),
            on(Verify::Chain, Roots::System)
        );
        assert_eq!(
            tls("postgres://h/db?sslmode=verify-full&sslrootcert=%2Fa%20b.pem"),
            on(Verify::Full, Roots::File("/a b.pem".into()))
        );
        assert_eq!(
            tls("postgres://h/db?sslrootcert=system"),
            on(Verify::Full, Roots::System)
        );
        assert!(tls("postgres://h/db?sslrootcert=system&sslmode=require").is_err());
        assert_eq!(modes("postgres://h/db"), SslMode::Prefer);
        assert_eq!(
            modes("postgres://h/db?sslmode=verify-full"),
            SslMode::Require
        );
        // Client certificates, in both forms; sslcertmode.
        let client = |u: &str| match parse(u).map(|a| a.tls) {
            Ok(PgTls::On(s)) => Ok((s.cert, s.key, s.no_client_cert)),
            Ok(PgTls::Off) => panic!("{u}: no TLS"),
            Err(e) => Err(e.to_string()),
        };
        let files = |cert: &str, key: &str| Ok((Some(cert.into()), Some(key.into()), false));
        assert_eq!(
            client("postgres://h/db?sslcert=%2Fc.pem&sslkey=/k%20.key"),
            files("/c.pem", "/k .key")
        );
        assert_eq!(
            client("host=h sslcert='/c d.pem' sslkey=/k.key sslmode=verify-full"),
            files("/c d.pem", "/k.key")
        );
        assert_eq!(
            client("postgres://h/db?sslcertmode=disable"),
            Ok((None, None, true))
        );
        assert_eq!(client("host=h sslcertmode=allow"), Ok((None, None, false)));
        // A Unix socket: no TLS, so no client certificate file is read.
        #[cfg(unix)]
        assert_eq!(
            client("host=/run/postgresql sslcert=/c.pem"),
            Ok((Some("/c.pem".into()), None, true))
        );
        for (url, words) in [
            (
                "postgres://h/db?sslcertmode=require",
                "sslcertmode=require is not supported",
            ),
            ("host=h sslcertmode=Sec-ret", "sslcertmode is none of"),
        ] {
            let e = client(url).unwrap_err();
            assert!(e.contains(words) && !e.contains("Sec-ret"), "{url}: {e}");
        }
    }
}
