//! The lease as operators see it: `sno_lease_status()` (readable by `pg_monitor`) and
//! `sno_lease_partition()`.

use pgrx::datum::{Interval, TimestampWithTimeZone};
use pgrx::prelude::*;

use crate::server::{MINT, STATUS};
use crate::settings::{self, LeaseMode};

/// Unix milliseconds as a `timestamptz` (PostgreSQL counts microseconds from 2000-01-01).
fn timestamp(unix_ms: i64) -> Option<TimestampWithTimeZone> {
    let pg_us = unix_ms.checked_sub(946_684_800_000)?.checked_mul(1_000)?;
    // SAFETY: any i64 is a valid timestamptz datum.
    unsafe { TimestampWithTimeZone::from_datum(pg_sys::Datum::from(pg_us), false) }
}

/// Milliseconds until `expires_unix_ms` by this machine's clock, as an `interval` (zero once
/// past).
fn expires_in(expires_unix_ms: i64) -> Interval {
    let now = sno_core::SystemClock::precise_unix_ns() / 1_000_000;
    Interval::from_micros((expires_unix_ms - now).max(0).saturating_mul(1_000))
}

/// One row of `sno_lease_status()`: a column per field, NULL where `None`.
#[derive(Default)]
struct Status {
    mode: String,
    state: Option<String>,
    namespace: Option<String>,
    partition: Option<i32>,
    holder: Option<String>,
    token: Option<i64>,
    expires_at: Option<TimestampWithTimeZone>,
    expires_in: Option<Interval>,
    renewals: Option<i64>,
    failures: Option<i64>,
    last_error: Option<String>,
    worker_pid: Option<i32>,
}

impl Status {
    /// What the server's worker (server mode, preloaded) publishes in shared memory.
    fn server() -> Status {
        let s = *STATUS.share();
        let leased = s.partition >= 0;
        Status {
            mode: "server".into(),
            state: Some(s.state.name().into()),
            namespace: s.namespace.get().map(str::to_owned),
            partition: leased.then_some(s.partition),
            holder: s.holder.get().map(str::to_owned),
            token: leased.then_some(s.token as i64),
            expires_at: leased.then(|| timestamp(s.expires_unix_ms)).flatten(),
            expires_in: leased.then(|| expires_in(s.expires_unix_ms)),
            renewals: Some(s.renewals as i64),
            failures: Some(s.failures as i64),
            last_error: s.last_error.get().map(str::to_owned),
            worker_pid: (s.worker_pid > 0).then_some(s.worker_pid),
        }
    }

    /// This backend's own lease (backend mode), once its first `sno_new()` took one.
    fn backend() -> Status {
        let leased = crate::lease::with_lease(|l| {
            let grant = l.grant();
            Status {
                mode: "backend".into(),
                state: Some("leased".into()),
                namespace: Some(l.options().namespace().to_owned()),
                partition: Some(i32::from(grant.partition)),
                holder: Some(l.holder().to_owned()),
                token: Some(grant.token as i64),
                expires_at: timestamp(grant.expires_unix_ms),
                expires_in: Some(expires_in(grant.expires_unix_ms)),
                renewals: Some(l.renewals() as i64),
                failures: Some(l.renewal_failures() as i64),
                last_error: l.last_error().map(|e| e.to_string()),
                worker_pid: None,
            }
        });
        leased.unwrap_or_else(|| Status {
            mode: "backend".into(),
            state: Some("not leased yet".into()),
            ..Status::default()
        })
    }

    /// No lease: this backend's random partition.
    fn unleased() -> Status {
        let mode = match settings::mode() {
            LeaseMode::Server => "server (not preloaded)",
            _ => "none",
        };
        Status {
            mode: mode.into(),
            partition: sno_core::try_global_generator()
                .ok()
                .map(|g| i32::from(g.partition())),
            ..Status::default()
        }
    }
}

/// The partition `sno_new()` mints on and who holds it: one row. `mode` is the mode in force
/// (`server`: the server's lease, held by the background worker, `worker_pid`; `backend`: this
/// backend's own lease, once it called `sno_new()`; `none`: a random partition, no lease).
/// `state` says what the worker does, `expires_in` how long until the grant lapses unless it is
/// renewed, `renewals` and `failures` count its renewals (and failed acquisitions), and
/// `last_error` is the last failure in words (never the URL). Readable by `pg_monitor`.
#[pg_extern(volatile, parallel_safe)]
#[allow(
    clippy::type_complexity,
    reason = "pgrx reads the column names from the name!() types written out here"
)]
fn sno_lease_status() -> TableIterator<
    'static,
    (
        name!(mode, String),
        name!(state, Option<String>),
        name!(namespace, Option<String>),
        name!(partition, Option<i32>),
        name!(holder, Option<String>),
        name!(token, Option<i64>),
        name!(expires_at, Option<TimestampWithTimeZone>),
        name!(expires_in, Option<Interval>),
        name!(renewals, Option<i64>),
        name!(failures, Option<i64>),
        name!(last_error, Option<String>),
        name!(worker_pid, Option<i32>),
    ),
> {
    let s = match settings::mode() {
        LeaseMode::Server if settings::preloaded() => Status::server(),
        LeaseMode::Backend => Status::backend(),
        _ => Status::unleased(),
    };
    TableIterator::once((
        s.mode,
        s.state,
        s.namespace,
        s.partition,
        s.holder,
        s.token,
        s.expires_at,
        s.expires_in,
        s.renewals,
        s.failures,
        s.last_error,
        s.worker_pid,
    ))
}

extension_sql!(
    "REVOKE ALL ON FUNCTION sno_lease_status() FROM PUBLIC;\n\
     GRANT EXECUTE ON FUNCTION sno_lease_status() TO pg_monitor;",
    name = "sno_lease_status_grants",
    requires = [sno_lease_status]
);

/// The partition `sno_new()` mints on now: the server's (server mode, NULL while the worker holds
/// none), this backend's lease's (backend mode, NULL before its first `sno_new()`), or this
/// backend's random one.
#[pg_extern(volatile, parallel_unsafe)]
fn sno_lease_partition() -> Option<i32> {
    match settings::mode() {
        LeaseMode::Server if settings::preloaded() => {
            let mint = &MINT.get().0;
            mint.is_leased().then(|| i32::from(mint.partition()))
        }
        LeaseMode::Backend => crate::lease::with_lease(|l| i32::from(l.partition())),
        _ => sno_core::try_global_generator()
            .ok()
            .map(|g| i32::from(g.partition())),
    }
}
