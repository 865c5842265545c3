//! The error type of leases and leased generators.

use core::fmt;

/// Everything that can go wrong while leasing a partition or minting under a lease.
///
/// [`Error::code`] gives a stable machine-readable name (the C status strings, Python's
/// `code` attribute and Node's `code` property use it). Store errors carry the store's own
/// words in `detail`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The store URL cannot be used: malformed (the message names the part, never echoes it),
    /// an unknown scheme, a scheme whose store this build leaves out, an unknown `sslmode`, or
    /// a CA file that cannot be read.
    InvalidUrl {
        /// What is wrong, in words.
        detail: String,
    },
    /// A lease option is out of range: an empty or over-long namespace, a TTL outside
    /// 1 s ..= 1 h, an empty partition range, a margin that leaves no time to renew, or an
    /// environment variable that holds none of these.
    InvalidOptions {
        /// What is wrong, in words.
        detail: String,
    },
    /// The store cannot be reached, or did not answer within the timeout. Retrying later may
    /// succeed.
    Unreachable {
        /// The store's or the operating system's words.
        detail: String,
    },
    /// The store refused the credentials.
    AuthenticationFailed {
        /// The store's words.
        detail: String,
    },
    /// The TLS connection to the store failed: its certificate was refused (an unknown CA, a
    /// wrong host name, expired), or the handshake failed. Not transient: the certificate, the
    /// CA file or the URL must change.
    Tls {
        /// Which verification failed, in words.
        detail: String,
    },
    /// Every partition of the range is held by a live lease.
    NoFreePartition {
        /// The namespace.
        namespace: String,
        /// The first partition of the range.
        first: u16,
        /// The last partition of the range.
        last: u16,
    },
    /// The store answered with an error (missing privileges to create the table, an
    /// unexpected schema, a Redis error, …).
    Store {
        /// The store's words.
        detail: String,
    },
    /// The lease was taken by another holder after it expired: renewals cannot continue it.
    Lost {
        /// The partition that was lost.
        partition: u16,
    },
    /// The lease is closed (released), or already drives a generator: one lease, one generator.
    Unavailable {
        /// Which of the two.
        detail: &'static str,
    },
    /// An ID error from the generator (see [`sno_core::Error`]), [`sno_core::Error::LeaseExpired`]
    /// among them.
    Id(sno_core::Error),
}

impl Error {
    /// The error's kind in the core's one error table (`sno_core::ErrorKind`: the C status,
    /// the codes and the summary); for [`Error::Id`] the core error's own.
    pub fn kind(&self) -> sno_core::ErrorKind {
        use sno_core::ErrorKind as K;
        match self {
            Error::InvalidUrl { .. } => K::LeaseInvalidUrl,
            Error::InvalidOptions { .. } => K::LeaseInvalidOptions,
            Error::Unreachable { .. } => K::LeaseUnreachable,
            Error::AuthenticationFailed { .. } => K::LeaseAuthenticationFailed,
            Error::Tls { .. } => K::LeaseTlsFailed,
            Error::NoFreePartition { .. } => K::LeaseNoFreePartition,
            Error::Store { .. } => K::LeaseStore,
            Error::Lost { .. } => K::LeaseLost,
            Error::Unavailable { .. } => K::LeaseUnavailable,
            Error::Id(e) => e.kind(),
        }
    }

    /// A stable, machine-readable name of the error kind (`"lease_unreachable"`, …): its
    /// [`kind`](Self::kind)'s code; for [`Error::Id`] the core error's own.
    pub fn code(&self) -> &'static str {
        self.kind().code()
    }

    /// What the error carries beside its message, for the bindings' error objects, named as
    /// the core names its own ([`sno_core::Error::details`], which an [`Error::Id`] gives):
    /// `namespace`, `first` and `last` of a full namespace, the `partition` of a lost lease.
    ///
    /// ```
    /// use sno_core::{Detail, DetailValue};
    /// let e = sno_lease::Error::Lost { partition: 7 };
    /// assert_eq!(e.details(), [Detail::word("partition", DetailValue::Uint(7))]);
    /// ```
    pub fn details(&self) -> Vec<sno_core::Detail<'_>> {
        use sno_core::Detail;
        use sno_core::DetailValue::{Text, Uint};
        match self {
            Error::NoFreePartition {
                namespace,
                first,
                last,
            } => vec![
                Detail::word("namespace", Text(namespace)),
                Detail::word("first", Uint((*first).into())),
                Detail::word("last", Uint((*last).into())),
            ],
            Error::Lost { partition } => vec![Detail::word("partition", Uint((*partition).into()))],
            Error::Id(e) => e.details().iter().collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the same call may succeed later without a change of configuration: an
    /// unreachable store, a full namespace, a lost lease, or a retryable ID error.
    pub fn is_transient(&self) -> bool {
        match self {
            Error::Unreachable { .. } | Error::NoFreePartition { .. } | Error::Lost { .. } => true,
            Error::Id(e) => e.is_retryable() || matches!(e, sno_core::Error::LeaseExpired { .. }),
            _ => false,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidUrl { detail } => write!(f, "sno lease: invalid store URL: {detail}"),
            Error::InvalidOptions { detail } => write!(f, "sno lease: invalid option: {detail}"),
            Error::Unreachable { detail } => {
                write!(f, "sno lease: the store cannot be reached: {detail}")
            }
            Error::AuthenticationFailed { detail } => {
                write!(f, "sno lease: the store refused the credentials: {detail}")
            }
            Error::Tls { detail } => {
                write!(
                    f,
                    "sno lease: the TLS connection to the store failed: {detail}"
                )
            }
            Error::NoFreePartition {
                namespace,
                first,
                last,
            } => write!(
                f,
                "sno lease: every partition {first} ..= {last} of namespace {namespace:?} is held by a live lease"
            ),
            Error::Store { detail } => write!(f, "sno lease: the store answered: {detail}"),
            Error::Lost { partition } => write!(
                f,
                "sno lease: the lease on partition {partition} expired and was granted to another holder"
            ),
            Error::Unavailable { detail } => write!(f, "sno lease: {detail}"),
            Error::Id(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Id(e) => Some(e),
            _ => None,
        }
    }
}

impl From<sno_core::Error> for Error {
    fn from(e: sno_core::Error) -> Self {
        Error::Id(e)
    }
}
