//! `sno_new()` in each mode (`settings.rs`): from the server's shared mint, from this backend's
//! own lease, or on this backend's random partition.

use std::cell::Cell;

use pgrx::PgSqlErrorCode as Code;
use pgrx::prelude::*;
use sno_core::Id;

use crate::errors;
use crate::settings::{self, LeaseMode};

/// The next sno of this backend, with `meta`.
pub(crate) fn next(meta: u8) -> Id {
    let mode = settings::mode();
    if mode != LeaseMode::Backend && LEASED.with(Cell::get) {
        // The session left backend mode: its own lease goes.
        LEASED.with(|l| l.set(false));
        crate::lease::release_held();
    }
    match mode {
        LeaseMode::Server if settings::preloaded() => crate::server::next(meta),
        LeaseMode::Server => errors::raise(
            Code::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            "sno: sno.lease_mode = server needs the extension preloaded: shared_preload_libraries = 'sno' (then restart the server)".into(),
            None,
        ),
        LeaseMode::Backend => {
            LEASED.with(|l| l.set(true));
            crate::lease::next(meta)
        }
        LeaseMode::None | LeaseMode::Auto => unleased(meta),
    }
}

thread_local! {
    /// Whether this backend said that it mints without a lease.
    static TOLD: Cell<bool> = const { Cell::new(false) };
    /// Whether this backend minted in backend mode (and may hold a lease of its own).
    static LEASED: Cell<bool> = const { Cell::new(false) };
}

/// An ID of the process-wide generator: a random partition of this backend, as an application
/// without `SNO_LEASE_URL` has; the first call of a backend says so in a NOTICE.
fn unleased(meta: u8) -> Id {
    if !TOLD.with(|t| t.replace(true)) {
        notice!(
            "sno: sno_new() mints on a random partition of this backend, not a leased one: preload the extension (shared_preload_libraries = 'sno') for one lease for the server, or set sno.lease_mode = backend (docs/postgres.md)"
        );
    }
    sno_core::try_new(meta).unwrap_or_else(|e| errors::raise_core(e))
}
