//! A connection to the Redis server, whichever made it: the redis crate (`redis://`,
//! `redis+unix://`) or sno-lease's own TLS link (`rediss://`, `tls_link.rs`).

use core::time::Duration;

use redis::{Connection, ConnectionLike, RedisResult};

/// A connection to the server: the redis crate's, or a TLS link of ours.
pub(super) trait Link: ConnectionLike + Send {
    /// Bounds each read and write from now on.
    fn set_timeouts(&mut self, timeout: Duration) -> RedisResult<()>;

    /// The TLS failure, in words, that ended the last call.
    fn tls_failure(&self) -> Option<&str>;
}

impl Link for Connection {
    fn set_timeouts(&mut self, timeout: Duration) -> RedisResult<()> {
        self.set_read_timeout(Some(timeout))
            .and_then(|()| self.set_write_timeout(Some(timeout)))
    }

    fn tls_failure(&self) -> Option<&str> {
        None
    }
}
