//! Redis over TLS (`rediss://`), connected here rather than by the redis crate: the crate
//! builds its own rustls configuration from PEM bytes (no verifier of ours, so neither
//! OpenSSL's rule for a self-signed certificate named as the CA file nor libpq's host name
//! rule) and hands rustls's failures over as text only. The link speaks RESP2 over rustls
//! with the crate's own command encoding and reply parser, and authenticates and selects the
//! database as the crate does on a new connection (`AUTH`, `SELECT`).

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use redis::{ConnectionLike, Parser, RedisConnectionInfo, RedisResult, Value};
use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection, StreamOwned};

/// Where a TLS link goes, and how.
pub(super) struct TlsTarget {
    /// The host name (or IP address) the certificate must be for.
    pub(super) host: String,
    pub(super) port: u16,
    /// The user, password and database.
    pub(super) redis: RedisConnectionInfo,
    pub(super) config: Arc<ClientConfig>,
}

/// The step of [`TlsLink::connect`] that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// The TCP connection.
    Tcp,
    /// The TLS handshake.
    Handshake,
}

/// A TLS connection to Redis.
pub(super) struct TlsLink {
    stream: StreamOwned<ClientConnection, TcpStream>,
    parser: Parser,
    db: i64,
    open: bool,
    /// rustls's error in words, once a read or a write failed on one (an alert the server
    /// sends after the handshake: a client certificate it refuses, under TLS 1.3).
    failure: Option<String>,
}

impl TlsLink {
    /// Connects to the first of `addrs` (the target's host, resolved) that answers and
    /// completes the TLS handshake, each connection, read and write bounded by `per_read`.
    pub(super) fn connect(
        target: &TlsTarget,
        addrs: &[SocketAddr],
        per_read: Duration,
    ) -> Result<Self, (Step, io::Error)> {
        let name = ServerName::try_from(target.host.clone()).map_err(|_| {
            let e = io::Error::new(io::ErrorKind::InvalidInput, "the host name is not valid");
            (Step::Tcp, e)
        })?;
        let mut tcp = Err(io::Error::from(io::ErrorKind::AddrNotAvailable));
        for addr in addrs {
            tcp = TcpStream::connect_timeout(addr, per_read);
            if tcp.is_ok() {
                break;
            }
        }
        let mut tcp = tcp.map_err(|e| (Step::Tcp, e))?;
        tcp.set_read_timeout(Some(per_read))
            .and_then(|()| tcp.set_write_timeout(Some(per_read)))
            .and_then(|()| tcp.set_nodelay(true))
            .map_err(|e| (Step::Tcp, e))?;
        let handshake = |e| (Step::Handshake, e);
        let mut tls = ClientConnection::new(Arc::clone(&target.config), name)
            .map_err(|e| handshake(io::Error::other(e)))?;
        while tls.is_handshaking() {
            tls.complete_io(&mut tcp).map_err(handshake)?;
        }
        Ok(TlsLink {
            stream: StreamOwned::new(tls, tcp),
            parser: Parser::new(),
            db: target.redis.db,
            open: true,
            failure: None,
        })
    }

    /// Authenticates and selects the database, as the redis crate does on a new connection.
    pub(super) fn setup(&mut self, redis: &RedisConnectionInfo) -> RedisResult<()> {
        if let Some(password) = &redis.password {
            let mut auth = redis::cmd("AUTH");
            if let Some(user) = &redis.username {
                auth.arg(user);
            }
            auth.arg(password);
            self.req_command(&auth)?;
        }
        if redis.db != 0 {
            self.req_command(redis::cmd("SELECT").arg(redis.db))?;
        }
        Ok(())
    }

    fn send(&mut self, bytes: &[u8]) -> RedisResult<()> {
        let sent = self
            .stream
            .write_all(bytes)
            .and_then(|()| self.stream.flush());
        sent.map_err(|e| {
            self.failed(&e);
            e.into()
        })
    }

    fn receive(&mut self) -> RedisResult<Value> {
        let mut reader = Recording {
            stream: &mut self.stream,
            failure: &mut self.failure,
        };
        let value = self.parser.parse_value(&mut reader);
        if value.is_err() {
            self.open = false;
        }
        value
    }

    fn failed(&mut self, e: &io::Error) {
        self.open = false;
        if let Some(words) = crate::tls::failure(e) {
            self.failure = Some(words);
        }
    }
}

/// The link's stream for the reply parser, which keeps only the I/O error's words: rustls's
/// error is put into words on the way.
struct Recording<'a> {
    stream: &'a mut StreamOwned<ClientConnection, TcpStream>,
    failure: &'a mut Option<String>,
}

impl Read for Recording<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.stream.read(buf).inspect_err(|e| {
            if let Some(words) = crate::tls::failure(e) {
                *self.failure = Some(words);
            }
        })
    }
}

impl super::link::Link for TlsLink {
    fn set_timeouts(&mut self, timeout: Duration) -> RedisResult<()> {
        self.stream.sock.set_read_timeout(Some(timeout))?;
        Ok(self.stream.sock.set_write_timeout(Some(timeout))?)
    }

    fn tls_failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

impl ConnectionLike for TlsLink {
    fn req_packed_command(&mut self, cmd: &[u8]) -> RedisResult<Value> {
        self.send(cmd)?;
        self.receive()?.extract_error()
    }

    fn req_packed_commands(
        &mut self,
        cmd: &[u8],
        offset: usize,
        count: usize,
    ) -> RedisResult<Vec<Value>> {
        self.send(cmd)?;
        let mut values = Vec::with_capacity(count);
        for i in 0..offset + count {
            let value = self.receive()?;
            if i >= offset {
                values.push(value);
            }
        }
        values.into_iter().map(Value::extract_error).collect()
    }

    fn get_db(&self) -> i64 {
        self.db
    }

    fn check_connection(&mut self) -> bool {
        redis::cmd("PING").query::<String>(self).is_ok()
    }

    fn is_open(&self) -> bool {
        self.open
    }
}
