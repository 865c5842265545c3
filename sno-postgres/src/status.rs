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

type Row = (
    String,
    Option<String>,
    Option<String>,
    Option<i32>,
    Option<String>,
    Option<i64>,
    Option<TimestampWithTimeZone>,
    Option<Interval>,
    Option<i64>,
    Option<i64>,
    Option<String>,
    Option<i32>,
);

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
    let row: Row = match settings::mode() {
        LeaseMode::Server if settings::preloaded() => {
            let s = *STATUS.share();
            let leased = s.partition >= 0;
            (
                "server".into(),
                Some(s.state.name().into()),
                s.namespace.get().map(str::to_owned),
                leased.then_some(s.partition),
                s.holder.get().map(str::to_owned),
                leased.then_some(s.token as i64),
                leased.then(|| timestamp(s.expires_unix_ms)).flatten(),
                leased.then(|| expires_in(s.expires_unix_ms)),
                Some(s.renewals as i64),
                Some(s.failures as i64),
                s.last_error.get().map(str::to_owned),
                (s.worker_pid > 0).then_some(s.worker_pid),
            )
        }
        LeaseMode::Backend => {
            let lease = crate::lease::with_lease(|l| {
                let grant = l.grant();
                (
                    l.options().namespace().to_owned(),
                    i32::from(grant.partition),
                    l.holder().to_owned(),
                    grant.token as i64,
                    grant.expires_unix_ms,
                    l.renewals() as i64,
                    l.renewal_failures() as i64,
                    l.last_error().map(|e| e.to_string()),
                )
            });
            match lease {
                Some((ns, partition, holder, token, expires, renewals, failures, error)) => (
                    "backend".into(),
                    Some("leased".into()),
                    Some(ns),
                    Some(partition),
                    Some(holder),
                    Some(token),
                    timestamp(expires),
                    Some(expires_in(expires)),
                    Some(renewals),
                    Some(failures),
                    error,
                    None,
                ),
                None => (
                    "backend".into(),
                    Some("not leased yet".into()),
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                ),
            }
        }
        _ => (
            if matches!(settings::mode(), LeaseMode::Server) {
                "server (not preloaded)".into()
            } else {
                "none".into()
            },
            None,
            None,
            sno_core::try_global_generator()
                .ok()
                .map(|g| i32::from(g.partition())),
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            None,
        ),
    };
    TableIterator::once(row)
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
