//! The lease as operators see it: who holds which partition of a namespace, read from the store
//! without changing anything ([`status`]), and how each holder describes itself
//! (`host/pid/program/random`: [`Holding::host`], [`Holding::pid`], [`Holding::program`]).

use crate::error::Error;
use crate::options::LeaseOptions;
use crate::store::Holding;
use crate::stores;

/// Every partition of a namespace held by a live grant, read at one moment of the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamespaceStatus {
    /// The namespace.
    pub namespace: String,
    /// The store's address without any secret (`postgres://user@host:5432/db`,
    /// `redis://host:6379/0`).
    pub store: String,
    /// The store's clock when it was read (Unix ms): what [`Holding::expires_in`] counts from.
    pub now_unix_ms: i64,
    /// The partitions held, in partition order.
    pub held: Vec<Holding>,
}

/// Reads who holds which partition of `options`' namespace from the store at `url`, within
/// `options`' timeout. Read-only: nothing is created (a PostgreSQL store whose tables do not
/// exist yet, or a namespace never used, holds nothing), renewed or freed.
///
/// ```no_run
/// let status = sno_lease::status("postgres://ids@db/ids", &sno_lease::LeaseOptions::new("orders"))?;
/// for h in &status.held {
///     println!("{} held by {:?} on {:?}, expires in {:?}", h.partition, h.program(), h.host(),
///         h.expires_in(status.now_unix_ms));
/// }
/// # Ok::<(), sno_lease::Error>(())
/// ```
///
/// Errors: those of [`Lease::acquire`](crate::Lease::acquire) that come before a grant
/// ([`Error::InvalidUrl`], [`Error::InvalidOptions`], [`Error::Unreachable`],
/// [`Error::AuthenticationFailed`], [`Error::Tls`], [`Error::Store`]).
pub fn status(url: &str, options: &LeaseOptions) -> Result<NamespaceStatus, Error> {
    options.validate()?;
    let mut store = stores::open(url)?;
    let (now_unix_ms, mut held) = store.status(&options.namespace, options.timeout)?;
    held.sort_by_key(|h| h.partition);
    Ok(NamespaceStatus {
        namespace: options.namespace.clone(),
        store: store.description().to_owned(),
        now_unix_ms,
        held,
    })
}

/// This process as a holder describes itself to the store: `host/pid/program/random`, each part
/// cut to its length and kept to `A-Z a-z 0-9 . _ -` (a holder name goes into Redis values
/// between spaces, and its parts are split at `/`).
pub(crate) fn holder_name(random: u64) -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok());
    let program = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()));
    format!(
        "{}/{}/{}/{random:016x}",
        word(host.as_deref(), 64).unwrap_or_else(|| "unknown-host".into()),
        std::process::id(),
        word(program.as_deref(), 32).unwrap_or_else(|| "unknown-program".into()),
    )
}

/// `text` trimmed, cut to `max` characters, every character outside `A-Z a-z 0-9 . _ -`
/// replaced by `_`; `None` when nothing is left.
fn word(text: Option<&str>, max: usize) -> Option<String> {
    let w: String = text?
        .trim()
        .chars()
        .take(max)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    (!w.is_empty()).then_some(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::time::Duration;

    fn holding(holder: &str) -> Holding {
        Holding {
            partition: 1,
            holder: holder.into(),
            token: 1,
            acquired_unix_ms: None,
            renewed_unix_ms: None,
            expires_unix_ms: 10_000,
        }
    }

    #[test]
    fn holders_describe_themselves() {
        let name = holder_name(0xabc);
        let h = holding(&name);
        assert_eq!(h.pid(), Some(std::process::id()));
        assert!(h.host().is_some() && h.program().is_some(), "{name}");
        assert!(name.ends_with("/0000000000000abc"));
        assert!(!name.contains(' '));
        let old = holding("db-7/99/00000000deadbeef");
        assert_eq!(
            (old.host(), old.pid(), old.program()),
            (Some("db-7"), Some(99), None)
        );
        let odd = holding("no-slashes");
        assert_eq!((odd.host(), odd.pid(), odd.program()), (None, None, None));
        assert_eq!(h.expires_in(9_000), Duration::from_secs(1));
        assert_eq!(h.expires_in(11_000), Duration::ZERO);
        assert_eq!(word(Some(" my app/v2 "), 32).as_deref(), Some("my_app_v2"));
        assert_eq!(word(Some("   "), 32), None);
        assert_eq!(word(Some("abcdef"), 3).as_deref(), Some("abc"));
    }
}
