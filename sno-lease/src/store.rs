//! What a lease store does (`stores.rs` chooses one by URL).

use core::time::Duration;

use crate::error::Error;
use crate::options::LeaseOptions;

/// One grant of a partition, in the store's clock (Unix milliseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    /// The partition granted.
    pub partition: u16,
    /// The fencing token: larger than every token granted before it in the namespace.
    pub token: u64,
    /// The first time the grant may stamp into an ID: the bound that the partition's earlier
    /// holders stayed below.
    pub ids_from_unix_ms: i64,
    /// Every ID of this grant is stamped before this time (the store's expiry minus the margin).
    pub ids_before_unix_ms: i64,
    /// When the store lets the grant lapse unless it is renewed.
    pub expires_unix_ms: i64,
}

/// A request for a grant.
#[cfg_attr(
    not(any(feature = "postgres", feature = "redis")),
    allow(dead_code, reason = "read by the stores only")
)]
pub(crate) struct Request<'a> {
    pub options: &'a LeaseOptions,
    /// Who asks (host, pid, random), kept in the store for operators.
    pub holder: &'a str,
    /// Where the search for a free partition starts (a random point of the range).
    pub start: u16,
}

/// A store that grants partitions: PostgreSQL or Redis. Every call is bounded by `timeout`.
pub(crate) trait Store: Send {
    /// A free partition, or [`Error::NoFreePartition`].
    fn acquire(&mut self, req: &Request<'_>, timeout: core::time::Duration)
    -> Result<Grant, Error>;
    /// Extends `grant` by the TTL (from the store's now), or [`Error::Lost`] when another
    /// holder has the partition.
    fn renew(
        &mut self,
        grant: &Grant,
        req: &Request<'_>,
        timeout: core::time::Duration,
    ) -> Result<Grant, Error>;
    /// The store's clock (Unix ms) and every live grant of `namespace`, read without writing
    /// anything (no table is created, no key set).
    fn status(
        &mut self,
        namespace: &str,
        timeout: core::time::Duration,
    ) -> Result<(i64, Vec<Holding>), Error>;
    /// The store's address without any secret, for messages and status.
    fn description(&self) -> &str;
    /// Frees the partition at once, and lowers its ID bound to `ids_end_unix_ms` (every ID
    /// the holder returned lies before it), never below the grant's `ids_from`: the next holder
    /// starts right after this one's IDs, not a TTL later (the argument: `src/fence.rs`,
    /// "Releasing"). Only while the grant is the partition's latest.
    fn release(
        &mut self,
        grant: &Grant,
        req: &Request<'_>,
        ids_end_unix_ms: i64,
        timeout: core::time::Duration,
    ) -> Result<(), Error>;
}

/// One partition of a namespace held by a live grant, as the store records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    /// The partition held.
    pub partition: u16,
    /// The holder as it describes itself: `host/pid/program/random` (holders of libsno 0.2:
    /// `host/pid/random`); read it through [`host`](Self::host), [`pid`](Self::pid) and
    /// [`program`](Self::program).
    pub holder: String,
    /// The grant's fencing token.
    pub token: u64,
    /// When the grant was made (Unix ms, the store's clock); `None` where the store does not
    /// record it (a Redis grant made by libsno 0.2).
    pub acquired_unix_ms: Option<i64>,
    /// When the grant was last renewed, or made (Unix ms, the store's clock); `None` where the
    /// store does not record it (a PostgreSQL table whose role could not add the `renewed_at`
    /// column, a Redis grant made by libsno 0.2).
    pub renewed_unix_ms: Option<i64>,
    /// When the grant lapses unless it is renewed (Unix ms, the store's clock).
    pub expires_unix_ms: i64,
}

impl Holding {
    fn part(&self, index: usize) -> Option<&str> {
        let parts: Vec<&str> = self.holder.split('/').collect();
        match (parts.len(), index) {
            // host/pid/program/random, host/pid/random (libsno 0.2: no program).
            (4, _) | (3, 0 | 1) => parts.get(index).copied(),
            _ => None,
        }
        .filter(|p| !p.is_empty())
    }

    /// The host name the holder runs on.
    ///
    /// ```
    /// let h = sno_lease::Holding {
    ///     partition: 7,
    ///     holder: "web-1/4242/python3/0123456789abcdef".into(),
    ///     token: 1,
    ///     acquired_unix_ms: None,
    ///     renewed_unix_ms: None,
    ///     expires_unix_ms: 0,
    /// };
    /// assert_eq!((h.host(), h.pid(), h.program()), (Some("web-1"), Some(4242), Some("python3")));
    /// ```
    pub fn host(&self) -> Option<&str> {
        self.part(0)
    }

    /// The holder's process id.
    pub fn pid(&self) -> Option<u32> {
        self.part(1)?.parse().ok()
    }

    /// The holder's program (its executable's name), when it said it.
    pub fn program(&self) -> Option<&str> {
        self.part(2)
    }

    /// How long until the grant lapses, from the store's `now_unix_ms` (zero once past).
    pub fn expires_in(&self, now_unix_ms: i64) -> Duration {
        Duration::from_millis(u64::try_from(self.expires_unix_ms - now_unix_ms).unwrap_or(0))
    }
}
