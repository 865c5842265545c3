//! What a lease store does (`stores.rs` chooses one by URL).

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
