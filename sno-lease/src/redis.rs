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

use core::time::Duration;
use std::net::{IpAddr, ToSocketAddrs};
use std::time::Instant;

use redis::{Client, Connection, ConnectionAddr, ConnectionInfo, ErrorKind, Script};

use crate::error::Error;
use crate::store::{Grant, Request, Store, redact};

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
local quarantine = 0
if now < born + ttl then quarantine = born + ttl end
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
redis.call('SET', prefix .. 'h:' .. chosen, value)
redis.call('SET', prefix .. 'r:' .. chosen, run)
local before = math.max(chosen_bound, now + ttl - margin)
redis.call('SET', prefix .. 'b:' .. chosen, before)
return {chosen, token, math.max(chosen_bound, quarantine), before, now + ttl}
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
local before = math.max(tonumber(redis.call('GET', prefix .. 'b:' .. p)) or 0, now + ttl - margin)
redis.call('SET', prefix .. 'b:' .. p, before)
return {before, now + ttl}
"#;

/// ARGV: prefix, partition, "<token> <holder>". Deletes the live key if it is ours.
const RELEASE: &str = r#"
local prefix, p, value = ARGV[1], ARGV[2], ARGV[3]
if redis.call('GET', prefix .. 'p:' .. p) == value then
  redis.call('DEL', prefix .. 'p:' .. p)
end
return 1
"#;

pub(crate) struct RedisStore {
    client: Client,
    url: String,
    connection: Option<Connection>,
    acquire: Script,
    renew: Script,
    release: Script,
}

impl RedisStore {
    pub(crate) fn open(url: &str) -> Result<Self, Error> {
        let client = Client::open(url).map_err(|e| Error::InvalidUrl {
            detail: format!("{}: {e}", redact(url)),
        })?;
        Ok(RedisStore {
            client,
            url: redact(url),
            connection: None,
            acquire: Script::new(ACQUIRE),
            renew: Script::new(RENEW),
            release: Script::new(RELEASE),
        })
    }

    /// Runs `f` on a connection within `timeout` in all (connecting first if needed: the name
    /// resolved on a helper thread, each handshake read given a quarter of what is left, then
    /// the call itself what remains). A failed call drops the connection.
    fn call<T>(
        &mut self,
        timeout: Duration,
        f: impl FnOnce(&mut Connection, &Self) -> redis::RedisResult<T>,
    ) -> Result<T, Error> {
        let deadline = Instant::now() + timeout;
        let left = || deadline.saturating_duration_since(Instant::now());
        let too_late = || Error::Unreachable {
            detail: format!("{}: no answer within {} ms", self.url, timeout.as_millis()),
        };
        let mut con = match self.connection.take() {
            Some(con) => con,
            None => {
                let client = resolved(&self.client, left()).ok_or_else(too_late)??;
                let per_read = (left() / 4).max(Duration::from_millis(1));
                client.get_connection_with_timeout(per_read).map_err(|e| {
                    if e.is_timeout() {
                        too_late()
                    } else {
                        classify(&self.url, e)
                    }
                })?
            }
        };
        let rest = left();
        if rest.is_zero() {
            return Err(too_late());
        }
        let set = con
            .set_read_timeout(Some(rest))
            .and_then(|()| con.set_write_timeout(Some(rest)));
        if let Err(e) = set {
            return Err(classify(&self.url, e));
        }
        match f(&mut con, self) {
            Ok(v) => {
                self.connection = Some(con);
                Ok(v)
            }
            // A failed call leaves the connection out: the next one reconnects.
            Err(e) if e.is_timeout() => Err(too_late()),
            Err(e) => Err(classify(&self.url, e)),
        }
    }
}

/// `client` with its host name resolved to an address, on a helper thread bounded by
/// `within` (the system resolver has no timeout of its own): `None` when it took longer.
fn resolved(client: &Client, within: Duration) -> Option<Result<Client, Error>> {
    let info: ConnectionInfo = client.get_connection_info().clone();
    let ConnectionAddr::Tcp(host, port) = &info.addr else {
        return Some(Ok(client.clone()));
    };
    if host.parse::<IpAddr>().is_ok() {
        return Some(Ok(client.clone()));
    }
    let (host, port) = (host.clone(), *port);
    let (tx, rx) = std::sync::mpsc::channel();
    let lookup = host.clone();
    let spawned = std::thread::Builder::new()
        .name("sno-lease-dns".into())
        .spawn(move || {
            let _ = tx.send(
                (lookup.as_str(), port)
                    .to_socket_addrs()
                    .map(|mut a| a.next()),
            );
        });
    if let Err(e) = spawned {
        return Some(Err(Error::Unreachable {
            detail: format!("cannot resolve {host}: {e}"),
        }));
    }
    let found = match rx.recv_timeout(within).ok()? {
        Ok(Some(addr)) => addr,
        Ok(None) | Err(_) => {
            return Some(Err(Error::Unreachable {
                detail: format!("cannot resolve the Redis host {host:?}"),
            }));
        }
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

    fn release(
        &mut self,
        grant: &Grant,
        req: &Request<'_>,
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
