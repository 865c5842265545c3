//! The Redis store.
//!
//! Keys, all under `sno:lease:{<namespace>}:` (one hash tag per namespace):
//!
//! | key | value | expiry |
//! |-----|-------|--------|
//! | `p:<n>` | `<token> <holder>` of the live grant of partition `n` | the grant's expiry (`SET … PXAT`) |
//! | `h:<n>` | `<token> <holder>` of the last grant of `n` | none |
//! | `b:<n>` | Unix ms before which every holder of `n` so far stamped its IDs | none |
//! | `r:<n>` | the Redis `run_id` under which the last grant of `n` was made | none |
//! | `token` | the last fencing token (`INCR`) | none |
//! | `born` | Unix ms at which the namespace was first seen by this Redis process | none |
//! | `run` | the Redis `run_id` that `born` belongs to | none |
//! | `a:<n>` | `<acquired> <renewed>`: when the live grant of `n` was made and last renewed (Unix ms), for `sno lease status` | the grant's expiry |
//! | `g:<holder>` | the last grant made to a holder (partition, token, window, expiry, `run_id`): a repeated acquisition (a reply lost to a signal) gets it again | the grant's expiry |
//!
//! Acquire, renew (compare-and-extend) and release (compare-and-delete) are Lua scripts, so
//! each is atomic, and every time in them is the server's `TIME`.
//!
//! A Redis that loses data loses the `b:<n>` bounds of partitions whose holders may still be
//! minting, or rolls them back: a restart without persistence or `FLUSHALL` loses everything, a
//! restart from an RDB snapshot or an `everysec` AOF (or a failover to a replica) comes back
//! with older values. Both change what the scripts see: the `born` key is gone, or the `run` key
//! names another Redis process than the one answering (`INFO server` `run_id`). The acquire
//! script then starts a new epoch (`born` = now, `run` = this process) and grants nothing usable
//! before `born + TTL`: by then every grant made before the restart has expired (Redlock's
//! "delayed restart", done by the client); the token restarts above the server's clock in
//! microseconds, so it still grows. A renewal of a grant made under another `run_id` is refused
//! (lost), so no holder extends a window that a rolled-back key no longer accounts for. The first
//! use of a namespace waits one TTL too. Give every holder of a namespace the same TTL, and run
//! Redis with `maxmemory-policy noeviction`.

mod link;
mod tls_link;

use core::time::Duration;
use std::io;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Instant;

use redis::{
    Client, ConnectionAddr, ConnectionInfo, ErrorKind, IntoConnectionInfo, RedisResult, Script,
};

use crate::address::{Secrets, plausible_host, take_query_parameter};
use crate::error::Error;
use crate::store::{Grant, Holding, Request, Store};
use crate::tls::{self, ClientIdentity, KeyFileRule, Roots, Verify};
use link::Link;
use tls_link::{Step, TlsLink, TlsTarget};

/// ARGV: prefix, first, last, start, holder, ttl ms, margin ms.
/// Returns {partition, token, ids_from, ids_before, expires} or {} when the range is full.
const ACQUIRE: &str = r#"
local prefix = ARGV[1]
local first, last, start = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local holder, ttl, margin = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
local born = tonumber(redis.call('GET', prefix .. 'born'))
if not born or redis.call('GET', prefix .. 'run') ~= run then
  -- A new namespace, or a Redis that lost or rolled back data: a new epoch.
  born = now
  redis.call('SET', prefix .. 'born', born)
  redis.call('SET', prefix .. 'run', run)
  local last = tonumber(redis.call('GET', prefix .. 'token')) or 0
  if last < now * 1000 then redis.call('SET', prefix .. 'token', string.format('%.0f', now * 1000)) end
end
-- A repeated call (the client lost the reply to a signal or a dropped connection) gets the
-- grant it was given, while that grant is still its own.
local mine = redis.call('GET', prefix .. 'g:' .. holder)
if mine then
  local p, tok, from, before, expires, granted_run =
    string.match(mine, '^(%d+) (%d+) (%d+) (%d+) (%d+) (%x+)$')
  if p and granted_run == run and redis.call('GET', prefix .. 'p:' .. p) == tok .. ' ' .. holder then
    return {tonumber(p), tonumber(tok), tonumber(from), tonumber(before), tonumber(expires)}
  end
end
-- Every grant of the epoch, not only those of its first TTL: a rolled-back bound may lie below
-- windows granted before the loss (fence.rs, invariant 3).
local quarantine = born + ttl
local n = last - first + 1
local chosen, chosen_bound = nil, nil
for k = 0, n - 1 do
  local p = first + ((start - first + k) % n)
  if redis.call('EXISTS', prefix .. 'p:' .. p) == 0 then
    local bound = tonumber(redis.call('GET', prefix .. 'b:' .. p)) or 0
    if bound <= now then
      chosen, chosen_bound = p, bound
      break
    elseif not chosen then
      chosen, chosen_bound = p, bound
    end
  end
end
if not chosen then return {} end
local token = redis.call('INCR', prefix .. 'token')
-- '%.0f': plain `..` would write a token above 1e14 as 1.79e+15.
local value = string.format('%.0f', token) .. ' ' .. holder
-- PXAT at the expiry this script reports: the key expires exactly when the grant says,
-- whichever clock the server's PX would count from.
redis.call('SET', prefix .. 'p:' .. chosen, value, 'PXAT', now + ttl)
redis.call('SET', prefix .. 'a:' .. chosen, string.format('%.0f %.0f', now, now), 'PXAT', now + ttl)
redis.call('SET', prefix .. 'h:' .. chosen, value)
redis.call('SET', prefix .. 'r:' .. chosen, run)
local before = math.max(chosen_bound, now + ttl - margin)
redis.call('SET', prefix .. 'b:' .. chosen, before)
local from = math.max(chosen_bound, quarantine)
redis.call('SET', prefix .. 'g:' .. holder,
  string.format('%d %.0f %.0f %.0f %.0f %s', chosen, token, from, before, now + ttl, run),
  'PXAT', now + ttl)
return {chosen, token, from, before, now + ttl}
"#;

/// ARGV: prefix, partition, "<token> <holder>", ttl ms, margin ms.
/// Returns {ids_before, expires} or {} when the partition is no longer ours. An expired grant
/// that nobody took since (`h:<n>` still ours, granted by this Redis process) is extended: no
/// one stamped with it meanwhile.
const RENEW: &str = r#"
local prefix, p, value = ARGV[1], ARGV[2], ARGV[3]
local ttl, margin = tonumber(ARGV[4]), tonumber(ARGV[5])
if redis.call('GET', prefix .. 'h:' .. p) ~= value then return {} end
-- Granted by another Redis process (restart, failover): the keys may be rolled back.
local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
if redis.call('GET', prefix .. 'r:' .. p) ~= run then return {} end
local live = redis.call('GET', prefix .. 'p:' .. p)
if live and live ~= value then return {} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', prefix .. 'p:' .. p, value, 'PXAT', now + ttl)
-- The grant's time is kept; `-` where it is unknown (a grant made by libsno 0.2).
local made = string.match(redis.call('GET', prefix .. 'a:' .. p) or '', '^(%d+) ') or '-'
redis.call('SET', prefix .. 'a:' .. p, made .. string.format(' %.0f', now), 'PXAT', now + ttl)
local before = math.max(tonumber(redis.call('GET', prefix .. 'b:' .. p)) or 0, now + ttl - margin)
redis.call('SET', prefix .. 'b:' .. p, before)
return {before, now + ttl}
"#;

/// ARGV: prefix, partition, "<token> <holder>", the grant's ids_from (Unix ms), the end of the
/// holder's IDs (Unix ms). While the grant is the partition's latest (granted by this Redis
/// process), lowers the bound to just past the holder's IDs (never below its `ids_from`) and
/// deletes the live key.
const RELEASE: &str = r#"
local prefix, p, value = ARGV[1], ARGV[2], ARGV[3]
local ids_from, ids_end = tonumber(ARGV[4]), tonumber(ARGV[5])
if redis.call('GET', prefix .. 'h:' .. p) ~= value then return 0 end
local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
if redis.call('GET', prefix .. 'r:' .. p) ~= run then return 0 end
local live = redis.call('GET', prefix .. 'p:' .. p)
if live and live ~= value then return 0 end
local bound = tonumber(redis.call('GET', prefix .. 'b:' .. p)) or 0
redis.call('SET', prefix .. 'b:' .. p, string.format('%.0f', math.max(ids_from, math.min(bound, ids_end))))
redis.call('DEL', prefix .. 'p:' .. p, prefix .. 'a:' .. p)
return 1
"#;

/// ARGV: prefix. Reads only: {now, then per live grant: partition, its `p:` value, its
/// remaining time (ms), its `a:` value or ''}. The keys of a namespace share one hash tag, so
/// one node holds them all.
const STATUS: &str = r#"
local prefix = ARGV[1]
local t = redis.call('TIME')
local out = {tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)}
local cursor = '0'
repeat
  local page = redis.call('SCAN', cursor, 'MATCH', prefix .. 'p:*', 'COUNT', 1000)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    local value = redis.call('GET', key)
    local left = redis.call('PTTL', key)
    if value and left > 0 then
      local p = string.sub(key, string.len(prefix) + 3)
      table.insert(out, p)
      table.insert(out, value)
      table.insert(out, left)
      table.insert(out, redis.call('GET', prefix .. 'a:' .. p) or '')
    end
  end
until cursor == '0'
return out
"#;

pub(crate) struct RedisStore {
    target: Target,
    /// The address without secrets, for messages.
    url: String,
    /// What the server's or the driver's words must not show.
    secrets: Secrets,
    connection: Option<Box<dyn Link>>,
    acquire: Script,
    renew: Script,
    release: Script,
    status: Script,
}

/// The query parameters of `rediss://` URLs (redis-py's names): a PEM file of CA
/// certificates (without it the system's roots are trusted), and a client certificate (PEM)
/// with its key (in the certificate's file when `ssl_keyfile` is not given).
const CA_PARAMETER: &str = "ssl_ca_certs";
const CERT_PARAMETER: &str = "ssl_certfile";
const KEY_PARAMETER: &str = "ssl_keyfile";

/// How the store reaches its server.
enum Target {
    /// TCP or a Unix socket, connected by the redis crate.
    Plain(Client),
    /// TLS, connected here (`tls_link.rs`).
    Tls(TlsTarget),
}

/// Why an attempt to connect failed.
enum Attempt {
    /// Worth another try while time is left: a read that timed out (a paused server), a
    /// signal; `silent_tls` when the server sent nothing back to the TLS handshake.
    Again { silent_tls: bool },
    /// Not: the error to report.
    Failed(Error),
}

impl RedisStore {
    pub(crate) fn open(url: &str) -> Result<Self, Error> {
        let (rest, ca_file) = take_query_parameter(url, CA_PARAMETER)?;
        let (rest, cert_file) = take_query_parameter(&rest, CERT_PARAMETER)?;
        let (rest, key_file) = take_query_parameter(&rest, KEY_PARAMETER)?;
        let info = rest
            .as_str()
            .into_connection_info()
            .map_err(|e| Error::InvalidUrl {
                // The crate's own fixed words (never the URL); anything longer is not shown.
                detail: match e.detail() {
                    None => format!("the Redis URL does not parse: {e}"),
                    Some(_) => "the Redis URL does not parse".into(),
                },
            })?;
        let description = describe(&info)?;
        let mut secrets = Secrets::default();
        for value in [&info.redis.password, &info.redis.username]
            .into_iter()
            .flatten()
        {
            secrets.add(value);
        }
        let target = match info.addr {
            ConnectionAddr::TcpTls {
                host,
                port,
                insecure,
                ..
            } => {
                if insecure {
                    return Err(Error::InvalidUrl {
                        detail: format!(
                            "#insecure (TLS without verification) is not supported: name the server's CA file with {CA_PARAMETER}"
                        ),
                    });
                }
                let identity = match (&cert_file, &key_file) {
                    (Some(cert), key) => Some(ClientIdentity::read(
                        (cert, CERT_PARAMETER),
                        match key {
                            Some(key) => (key, KEY_PARAMETER),
                            None => (cert, CERT_PARAMETER),
                        },
                        KeyFileRule::Any,
                    )?),
                    (None, Some(_)) => {
                        return Err(Error::InvalidUrl {
                            detail: format!(
                                "{KEY_PARAMETER} needs {CERT_PARAMETER} (the client certificate)"
                            ),
                        });
                    }
                    (None, None) => None,
                };
                let roots = ca_file.map_or(Roots::System, Roots::File);
                let config =
                    tls::client_config(Verify::Full, &roots, CA_PARAMETER, identity.as_ref())?;
                Target::Tls(TlsTarget {
                    host,
                    port,
                    redis: info.redis,
                    config: Arc::new(config),
                })
            }
            _ => {
                let given = [
                    (CA_PARAMETER, &ca_file),
                    (CERT_PARAMETER, &cert_file),
                    (KEY_PARAMETER, &key_file),
                ];
                if let Some((name, _)) = given.iter().find(|(_, value)| value.is_some()) {
                    return Err(Error::InvalidUrl {
                        detail: format!("{name} applies to rediss:// (TLS) URLs only"),
                    });
                }
                Target::Plain(
                    Client::open(info)
                        .map_err(|e| secrets.scrub_error(classify(&description, e)))?,
                )
            }
        };
        Ok(RedisStore {
            target,
            url: description,
            secrets,
            connection: None,
            acquire: Script::new(ACQUIRE),
            renew: Script::new(RENEW),
            release: Script::new(RELEASE),
            status: Script::new(STATUS),
        })
    }

    /// Runs `f` on a connection within `timeout` in all (connecting first if needed: the name
    /// resolved on a helper thread, each handshake read given a quarter of what is left, then
    /// the call itself what remains). A server that is slow to answer is waited for until the
    /// deadline: a handshake read that times out, and a call interrupted by a signal (a stop
    /// and continue of the process: `EINTR` from a socket with a timeout), are tried again on
    /// a fresh connection while time is left. A failed call drops the connection.
    fn call<T>(
        &mut self,
        timeout: Duration,
        f: impl FnMut(&mut dyn Link, &Self) -> RedisResult<T>,
    ) -> Result<T, Error> {
        self.call_unscrubbed(timeout, f)
            .map_err(|e| self.secrets.scrub_error(e))
    }

    fn call_unscrubbed<T>(
        &mut self,
        timeout: Duration,
        mut f: impl FnMut(&mut dyn Link, &Self) -> RedisResult<T>,
    ) -> Result<T, Error> {
        let deadline = Instant::now() + timeout;
        let left = || deadline.saturating_duration_since(Instant::now());
        let too_late = |silent_tls: bool| Error::Unreachable {
            detail: format!(
                "{}: no answer within {} ms{}",
                self.url,
                timeout.as_millis(),
                if silent_tls { SILENT_TLS } else { "" }
            ),
        };
        // Whether an attempt of this call got no answer to its TLS handshake: the words of the
        // final timeout say so even when the last attempt ran out of time earlier (a slow name
        // lookup on a loaded machine).
        let mut silent_seen = false;
        loop {
            let mut con = match self.connection.take() {
                Some(con) => con,
                None => match self.connect(left()) {
                    Ok(con) => con,
                    Err(Attempt::Again { silent_tls }) if !left().is_zero() => {
                        silent_seen |= silent_tls;
                        continue;
                    }
                    Err(Attempt::Again { silent_tls }) => {
                        return Err(too_late(silent_seen || silent_tls));
                    }
                    Err(Attempt::Failed(e)) => return Err(e),
                },
            };
            let rest = left();
            if rest.is_zero() {
                return Err(too_late(false));
            }
            if let Err(e) = con.set_timeouts(rest) {
                return Err(classify(&self.url, e));
            }
            match f(con.as_mut(), self) {
                Ok(v) => {
                    self.connection = Some(con);
                    return Ok(v);
                }
                // A failed call leaves the connection out: the next one reconnects. The calls
                // are safe to repeat (the acquire script hands a holder its own grant again).
                Err(e) if interrupted(&e) && !left().is_zero() => continue,
                Err(e) if e.is_timeout() => return Err(too_late(false)),
                Err(e) => return Err(self.classify_on(con.as_ref(), e)),
            }
        }
    }

    /// One attempt to connect (and, over TLS, to authenticate) within `left`.
    fn connect(&self, left: Duration) -> Result<Box<dyn Link>, Attempt> {
        let per_read = (left / 4).max(Duration::from_millis(1));
        let again = Attempt::Again { silent_tls: false };
        let target = match &self.target {
            Target::Plain(client) => {
                let client = resolved(client, left).ok_or(again)?;
                let client = client.map_err(Attempt::Failed)?;
                return match client.get_connection_with_timeout(per_read) {
                    Ok(con) => Ok(Box::new(con)),
                    Err(e) if retryable(&e) => Err(Attempt::Again { silent_tls: false }),
                    Err(e) => Err(Attempt::Failed(classify(&self.url, e))),
                };
            }
            Target::Tls(target) => target,
        };
        let addrs = lookup(&target.host, target.port, left)
            .ok_or(again)?
            .map_err(Attempt::Failed)?;
        let mut link = TlsLink::connect(target, &addrs, per_read)
            .map_err(|(step, e)| self.connect_failure(step, &e))?;
        match link.setup(&target.redis) {
            Ok(()) => Ok(Box::new(link)),
            Err(e) if retryable(&e) => Err(Attempt::Again { silent_tls: false }),
            Err(e) => Err(Attempt::Failed(self.classify_on(&link, e))),
        }
    }

    /// A failed TCP connection or TLS handshake.
    fn connect_failure(&self, step: Step, e: &io::Error) -> Attempt {
        if let Some(words) = tls::failure(e) {
            return Attempt::Failed(Error::Tls {
                detail: format!("{}: {words}", self.url),
            });
        }
        let handshake = step == Step::Handshake;
        match e.kind() {
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => {
                Attempt::Again {
                    silent_tls: handshake,
                }
            }
            io::ErrorKind::UnexpectedEof | io::ErrorKind::ConnectionReset if handshake => {
                Attempt::Failed(Error::Unreachable {
                    detail: format!(
                        "{}: the server closed the connection during the TLS handshake{SILENT_TLS}",
                        self.url
                    ),
                })
            }
            _ => Attempt::Failed(Error::Unreachable {
                detail: format!("{}: {e}", self.url),
            }),
        }
    }

    /// A driver error on `con`: a TLS failure the connection saw first (an alert the server
    /// sends after the handshake, under TLS 1.3: a client certificate it refuses).
    fn classify_on(&self, con: &dyn Link, e: redis::RedisError) -> Error {
        match con.tls_failure() {
            Some(words) => Error::Tls {
                detail: format!("{}: {words}", self.url),
            },
            None => classify(&self.url, e),
        }
    }
}

/// What a TLS handshake that gets no answer (or a closed connection) may mean.
const SILENT_TLS: &str = " (not even to the TLS handshake: is it a plain, non-TLS port? Redis does not answer a TLS client there)";

/// A signal interrupted a socket call (`EINTR`, 4 on Linux, macOS and the BSDs). The driver
/// shows its I/O error only in words (its `cause` cannot be downcast), so the OS error number
/// in them is what tells.
fn interrupted(e: &redis::RedisError) -> bool {
    e.kind() == ErrorKind::IoError && e.to_string().ends_with("(os error 4)")
}

/// A handshake failure that another try within the deadline may get past: a read that timed
/// out (a paused server) or a signal.
fn retryable(e: &redis::RedisError) -> bool {
    e.is_timeout() || interrupted(e)
}

/// `redis://host:port/db` from the parsed parts: never the user name or the password, and a host
/// or socket path that does not look like one (a password cut at a `/` or `@`) is refused
/// without being shown.
fn describe(info: &ConnectionInfo) -> Result<String, Error> {
    let db = info.redis.db;
    let bad_host = || {
        Error::InvalidUrl {
        detail: "the Redis host is not a valid host name or IP address (not shown: a password holding `/`, `?`, `@` or `#` must be percent-encoded)".into(),
    }
    };
    let host_port = |host: &str, port: u16| {
        if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        }
    };
    Ok(match &info.addr {
        ConnectionAddr::Tcp(host, port) => {
            if !plausible_host(host) {
                return Err(bad_host());
            }
            format!("redis://{}/{db}", host_port(host, *port))
        }
        ConnectionAddr::TcpTls { host, port, .. } => {
            if !plausible_host(host) {
                return Err(bad_host());
            }
            format!("rediss://{}/{db}", host_port(host, *port))
        }
        ConnectionAddr::Unix(path) => {
            let path = path.to_string_lossy();
            if path.contains('@') || path.chars().any(char::is_control) {
                return Err(Error::InvalidUrl {
                    detail: "the Redis socket path is not a valid path (not shown)".into(),
                });
            }
            format!("redis+unix://{path}?db={db}")
        }
    })
}

/// The addresses of `host`, resolved on a helper thread bounded by `within` (the system
/// resolver has no timeout of its own): `None` when it took longer.
fn lookup(host: &str, port: u16, within: Duration) -> Option<Result<Vec<SocketAddr>, Error>> {
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Some(Ok(vec![SocketAddr::new(ip, port)]));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let lookup = host.to_owned();
    let spawned = std::thread::Builder::new()
        .name("sno-lease-dns".into())
        .spawn(move || {
            let _ = tx.send(
                (lookup.as_str(), port)
                    .to_socket_addrs()
                    .map(Iterator::collect::<Vec<_>>),
            );
        });
    if let Err(e) = spawned {
        return Some(Err(Error::Unreachable {
            detail: format!("cannot resolve {host}: {e}"),
        }));
    }
    match rx.recv_timeout(within).ok()? {
        Ok(addrs) if !addrs.is_empty() => Some(Ok(addrs)),
        Ok(_) | Err(_) => Some(Err(Error::Unreachable {
            detail: format!("cannot resolve the Redis host {host:?}"),
        })),
    }
}

/// `client` with its host name resolved to an address (see [`lookup`]).
fn resolved(client: &Client, within: Duration) -> Option<Result<Client, Error>> {
    let info: &ConnectionInfo = client.get_connection_info();
    let (host, port) = match &info.addr {
        ConnectionAddr::Tcp(host, port) if host.parse::<IpAddr>().is_err() => (host, *port),
        _ => return Some(Ok(client.clone())),
    };
    let found = match lookup(host, port, within)? {
        Ok(addrs) => addrs[0],
        Err(e) => return Some(Err(e)),
    };
    let info = ConnectionInfo {
        addr: ConnectionAddr::Tcp(found.ip().to_string(), port),
        redis: info.redis.clone(),
    };
    Some(Client::open(info).map_err(|e| Error::InvalidUrl {
        detail: format!("{host}: {e}"),
    }))
}

fn prefix(namespace: &str) -> String {
    format!("sno:lease:{{{namespace}}}:")
}

impl Store for RedisStore {
    fn acquire(&mut self, req: &Request<'_>, timeout: Duration) -> Result<Grant, Error> {
        let o = req.options;
        let reply: Vec<i64> = self.call(timeout, |con, s| {
            s.acquire
                .prepare_invoke()
                .arg(prefix(&o.namespace))
                .arg(o.first)
                .arg(o.last)
                .arg(req.start)
                .arg(req.holder)
                .arg(o.ttl.as_millis() as u64)
                .arg(o.margin_duration().as_millis() as u64)
                .invoke(con)
        })?;
        match reply[..] {
            [partition, token, ids_from, ids_before, expires] => Ok(Grant {
                partition: partition as u16,
                token: token as u64,
                ids_from_unix_ms: ids_from,
                ids_before_unix_ms: ids_before,
                expires_unix_ms: expires,
            }),
            [] => Err(Error::NoFreePartition {
                namespace: o.namespace.clone(),
                first: o.first,
                last: o.last,
            }),
            _ => Err(Error::Store {
                detail: format!("{}: unexpected acquire reply {reply:?}", self.url),
            }),
        }
    }

    fn renew(
        &mut self,
        grant: &Grant,
        req: &Request<'_>,
        timeout: Duration,
    ) -> Result<Grant, Error> {
        let o = req.options;
        let value = format!("{} {}", grant.token, req.holder);
        let reply: Vec<i64> = self.call(timeout, |con, s| {
            s.renew
                .prepare_invoke()
                .arg(prefix(&o.namespace))
                .arg(grant.partition)
                .arg(&value)
                .arg(o.ttl.as_millis() as u64)
                .arg(o.margin_duration().as_millis() as u64)
                .invoke(con)
        })?;
        match reply[..] {
            [ids_before, expires] => Ok(Grant {
                ids_before_unix_ms: ids_before,
                expires_unix_ms: expires,
                ..*grant
            }),
            [] => Err(Error::Lost {
                partition: grant.partition,
            }),
            _ => Err(Error::Store {
                detail: format!("{}: unexpected renew reply {reply:?}", self.url),
            }),
        }
    }

    fn status(&mut self, namespace: &str, timeout: Duration) -> Result<(i64, Vec<Holding>), Error> {
        let reply: Vec<redis::Value> = self.call(timeout, |con, s| {
            s.status.prepare_invoke().arg(prefix(namespace)).invoke(con)
        })?;
        let shape = || Error::Store {
            detail: format!("{}: unexpected status reply", self.url),
        };
        let mut fields = reply.into_iter();
        let now: i64 = fields
            .next()
            .and_then(|v| redis::from_redis_value(&v).ok())
            .ok_or_else(shape)?;
        let mut held = Vec::new();
        let rest: Vec<redis::Value> = fields.collect();
        for entry in rest.chunks(4) {
            let [p, value, left, times] = entry else {
                return Err(shape());
            };
            let text = |v: &redis::Value| redis::from_redis_value::<String>(v).ok();
            let partition: u16 = text(p).and_then(|p| p.parse().ok()).ok_or_else(shape)?;
            let left: i64 = redis::from_redis_value(left).map_err(|_| shape())?;
            let value = text(value).ok_or_else(shape)?;
            let (token, holder) = value.split_once(' ').ok_or_else(shape)?;
            let times = text(times).unwrap_or_default();
            let mut times = times.split(' ').map(|t| t.parse::<i64>().ok());
            held.push(Holding {
                partition,
                holder: holder.to_owned(),
                token: token.parse().map_err(|_| shape())?,
                acquired_unix_ms: times.next().flatten(),
                renewed_unix_ms: times.next().flatten(),
                expires_unix_ms: now + left,
            });
        }
        Ok((now, held))
    }

    fn description(&self) -> &str {
        &self.url
    }

    fn release(
        &mut self,
        grant: &Grant,
        req: &Request<'_>,
        ids_end_unix_ms: i64,
        timeout: Duration,
    ) -> Result<(), Error> {
        let value = format!("{} {}", grant.token, req.holder);
        let ns = prefix(&req.options.namespace);
        self.call(timeout, |con, s| {
            s.release
                .prepare_invoke()
                .arg(&ns)
                .arg(grant.partition)
                .arg(&value)
                .arg(grant.ids_from_unix_ms)
                .arg(ids_end_unix_ms)
                .invoke::<i64>(con)
        })
        .map(drop)
    }
}

fn classify(url: &str, e: redis::RedisError) -> Error {
    match e.kind() {
        ErrorKind::AuthenticationFailed => Error::AuthenticationFailed {
            detail: format!("{url}: {e}"),
        },
        ErrorKind::InvalidClientConfig => Error::InvalidUrl {
            detail: format!("{url}: {e}"),
        },
        ErrorKind::IoError => Error::Unreachable {
            detail: format!("{url}: {e}"),
        },
        _ if e.is_io_error() || e.is_timeout() || e.is_connection_dropped() => Error::Unreachable {
            detail: format!("{url}: {e}"),
        },
        // States that pass: loading a snapshot, a read-only replica (a failover in progress),
        // a cluster reconfiguring, a busy script.
        _ if matches!(
            e.code(),
            Some("LOADING" | "READONLY" | "TRYAGAIN" | "CLUSTERDOWN" | "MASTERDOWN" | "BUSY")
        ) =>
        {
            Error::Unreachable {
                detail: format!("{url}: {e}"),
            }
        }
        _ if e.code() == Some("NOAUTH") || e.code() == Some("WRONGPASS") => {
            Error::AuthenticationFailed {
                detail: format!("{url}: {e}"),
            }
        }
        _ => Error::Store {
            detail: format!("{url}: {e}"),
        },
    }
}
