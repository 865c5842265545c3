//! Backend mode (`sno.lease_mode = backend`, opt-in): `sno_new()` mints on a partition this
//! backend leased for itself with `sno-lease`, from the same lease table and namespace as the
//! application's processes, over a connection of its own. It costs a connection and a thread
//! per backend that calls `sno_new()` (count them in `max_connections`); server mode
//! (`server.rs`) is the one to use where the extension can be preloaded.
//!
//! The lease is taken on the first `sno_new()` over a connection of its own (`sno.lease_url`, by
//! default this server's Unix socket, this database, the session's user), not through SPI in
//! the caller's transaction: a grant written in a transaction that later rolls back would vanish
//! while the IDs minted under it may already have left (a `RETURNING`, a `SELECT sno_new()`), and
//! the next holder of the partition would mint in the same window. On its own connection each
//! grant and renewal commits at once, exactly as an application process's does, and the fence
//! rules of `sno-lease/src/fence.rs` hold unchanged: no ID outside the grant's window. The
//! lease's thread renews it every third of the TTL (it never calls into PostgreSQL, and runs
//! with every signal blocked so that the backend's signals reach the backend's thread); the
//! lease is released when the backend exits (`on_proc_exit`), and kept until its TTL when the
//! backend is killed without exit hooks. docs/postgres.md has the whole design.

use std::cell::RefCell;
use std::time::Duration;

use pgrx::prelude::*;
use sno_core::{Id, SystemClock};
use sno_lease::{Lease, LeasedGenerator};

use crate::errors;
use crate::settings::{self, Settings, with_signals_blocked};

/// The backend's lease and the generator that mints on it.
struct Held {
    settings: Settings,
    // Declared first: dropped before the lease it is fenced by.
    generator: LeasedGenerator,
    lease: Lease,
}

thread_local! {
    /// The backend's lease (PostgreSQL runs one thread per backend).
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
}

/// The next ID of the backend's leased generator, with `meta`: waits (in short steps that
/// react to a cancel or termination) while the unit is used up, the clock went back, or the
/// lease is being renewed, within the generator's maximum wait (a new grant during the wait
/// gets a whole one, as `LeasedGenerator::next` does).
///
/// The backend's lease is never borrowed while PostgreSQL may end the backend
/// (`CHECK_FOR_INTERRUPTS`, whose FATAL runs the exit hooks without unwinding): the wait gives
/// the borrow back at each pending interrupt, and the lease is taken outside any borrow.
pub(crate) fn next(meta: u8) -> Id {
    if HELD.with(|held| held.borrow().as_ref().is_none_or(|h| !h.settings.matches())) {
        // A changed setting: the old lease is released first, then a new one taken.
        if let Some(old) = HELD.with(|held| held.borrow_mut().take()) {
            release(old);
        }
        let new = acquire(Settings::current());
        HELD.with(|held| *held.borrow_mut() = Some(new));
    }
    let mut started = std::time::Instant::now();
    let mut token = HELD.with(|held| {
        held.borrow()
            .as_ref()
            .expect("leased above")
            .generator
            .token()
    });
    loop {
        let waited = HELD.with(|held| {
            let held = held.borrow();
            let generator = &held.as_ref().expect("leased above").generator;
            let waited = sno_core::wait::retry(
                generator.max_wait().saturating_sub(started.elapsed()),
                SystemClock::precise_unix_ns,
                |e| generator.can_wait(e),
                || generator.try_next(meta),
                |pause| {
                    generator.wait_step(pause.error, pause.length().min(POLL));
                    // SAFETY: a plain read of PostgreSQL's flag, set by its signal handlers.
                    if unsafe { pg_sys::InterruptPending } != 0 {
                        Err(())
                    } else {
                        Ok(())
                    }
                },
            );
            // A new grant during the wait gets a whole maximum wait (`waits_again`).
            match waited {
                Ok(Err(e)) if generator.waits_again(token, &e) => Err(Some(generator.token())),
                other => other.map_err(|()| None),
            }
        });
        match waited {
            Ok(Ok(id)) => return id,
            Err(Some(new_grant)) => {
                started = std::time::Instant::now();
                token = new_grant;
            }
            Ok(Err(e)) => errors::raise_core(e),
            // An interrupt came: served with nothing borrowed (a cancel raises here), then the
            // wait goes on within what is left of it.
            Err(None) => {
                pgrx::check_for_interrupts!();
            }
        }
    }
}

/// The longest step of a wait before pending interrupts are looked at.
const POLL: Duration = Duration::from_millis(20);

/// A libpq `key=value` string for this server: its Unix socket, the current database, the
/// session's user.
fn this_server() -> String {
    // SAFETY: the session's identity is a plain read in a backend.
    let (database, user) = unsafe {
        (
            settings::cstr_or_empty(pg_sys::get_database_name(pg_sys::MyDatabaseId)),
            settings::cstr_or_empty(pg_sys::GetUserNameFromId(pg_sys::GetSessionUserId(), false)),
        )
    };
    settings::this_server(&database, &user)
}

/// Leases a partition with `settings`, and makes its generator. The store is asked on a thread
/// of its own, started with every signal blocked (as are the lease's renewal threads, which it
/// starts), while the backend waits for it in steps that serve a cancel, a `statement_timeout` or
/// a termination: one that ends the wait leaves the thread to finish alone and release what it
/// got. The release on exit is registered once per backend.
fn acquire(settings: Settings) -> Held {
    let options = settings.options();
    let url = match &settings.url {
        Some(url) => String::from_utf8_lossy(url).into_owned(),
        None => this_server(),
    };
    let (sender, receiver) = std::sync::mpsc::sync_channel(1);
    let spawned = with_signals_blocked(|| {
        std::thread::Builder::new()
            .name("sno-lease-acquire".into())
            .spawn(move || {
                let leased = Lease::acquire(&url, &options).and_then(|lease| {
                    let generator = lease.generator()?;
                    Ok((lease, generator))
                });
                // A backend that stopped waiting has dropped the receiver: the lease is
                // dropped here, which releases it.
                let _ = sender.send(leased);
            })
    });
    if let Err(e) = spawned {
        errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_INSUFFICIENT_RESOURCES,
            format!("sno: cannot start the thread that leases a partition: {e}"),
            None,
        );
    }
    let leased = loop {
        match receiver.recv_timeout(POLL) {
            Ok(leased) => break leased,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                pgrx::check_for_interrupts!();
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => errors::raise(
                pgrx::PgSqlErrorCode::ERRCODE_INTERNAL_ERROR,
                "sno: the thread that leases a partition ended without an answer".into(),
                None,
            ),
        }
    };
    let (lease, generator) = leased.unwrap_or_else(|e| errors::raise_lease(e));
    register_release_on_exit();
    Held {
        settings,
        generator,
        lease,
    }
}

/// Releases this backend's lease, if it holds one: its session left backend mode (a lease held
/// for a mode no longer in force would keep a connection and a partition for nothing).
pub(crate) fn release_held() {
    if let Some(held) = HELD.with(|h| h.try_borrow_mut().ok().and_then(|mut h| h.take())) {
        release(held);
    }
}

/// Releases a lease: the store lets the next holder start just past the last ID it minted.
fn release(held: Held) {
    let Held {
        generator, lease, ..
    } = held;
    drop(generator);
    lease.close();
}

/// Registers [`release_on_exit`] with `on_proc_exit`, once per backend.
fn register_release_on_exit() {
    thread_local! {
        static REGISTERED: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
    }
    if !REGISTERED.with(|r| r.replace(true)) {
        // SAFETY: on_proc_exit stores the callback, which PostgreSQL calls once at exit.
        unsafe { pg_sys::on_proc_exit(Some(release_on_exit), pg_sys::Datum::from(0)) };
    }
}

/// The backend exits: release its lease, so that the partition is free at once.
#[pg_guard]
unsafe extern "C-unwind" fn release_on_exit(_code: i32, _arg: pg_sys::Datum) {
    // Never borrowed when PostgreSQL can end the backend (see `next`); `try_borrow_mut` keeps
    // the exit quiet if that ever changed.
    let held = HELD.with(|h| h.try_borrow_mut().ok().and_then(|mut h| h.take()));
    if let Some(held) = held {
        release(held);
    }
}

/// This backend's lease, read for `sno_lease_status()`: the lease's own reading of `f`, or
/// `None` before the backend's first `sno_new()`.
pub(crate) fn with_lease<T>(f: impl FnOnce(&Lease) -> T) -> Option<T> {
    HELD.with(|h| h.try_borrow().ok()?.as_ref().map(|h| f(&h.lease)))
}
