//! Server mode: one lease for the whole server, in shared memory.
//!
//! With `shared_preload_libraries = 'sno'` the postmaster sets up two things in shared memory
//! before it forks anything: a [`SharedMint`] (the sno generator's state word and the fence of
//! the lease's window, all atomics) and the lease's status for operators (behind an LWLock).
//! One background worker (`worker.rs`) holds the server's lease over one connection and drives
//! the mint ([`sno_lease::Lease::acquire_shared`]); every backend mints from it with a
//! `fetch_add` and a few loads: no lock, no thread, no connection in any backend.
//!
//! Why no ID repeats, across processes: the mint is the fence and the generator of an ordinary
//! leased generator (`sno-lease/src/fence.rs` has the argument), placed in memory that every
//! process of the server maps. Its atomics are the same words for every process, so a backend
//! minting is, to the argument, one more thread: it returns an ID only inside the window of the
//! grant the worker holds, checked on the ID after minting; the worker closes the fence before
//! it releases, and releases past the highest unit any backend admitted. A worker that dies holds
//! its grant until the TTL (the postmaster restarts it, or the whole server after a crash, and the
//! new worker leases anew: its window lies after the old one's, or on another partition).

use std::time::Duration;

use pgrx::prelude::*;
use pgrx::{PGRXSharedMemory, PgAtomic, PgLwLock, pg_shmem_init};
use sno_core::{Error, Id, SystemClock};
use sno_lease::SharedMint;

use crate::errors;
use crate::settings;

/// The mint in shared memory (a wrapper, so that it may be shared memory's).
pub(crate) struct Mint(pub(crate) SharedMint);

// SAFETY: a SharedMint holds atomics and plain values only (no pointer into one process's
// memory: its generator has no observer), made for memory processes share.
unsafe impl PGRXSharedMemory for Mint {}

/// The server's mint, set up by the postmaster.
pub(crate) static MINT: PgAtomic<Mint> = unsafe { PgAtomic::new(c"sno mint") };

/// The lease as operators see it (`sno_lease_status()`), written by the worker.
pub(crate) static STATUS: PgLwLock<Status> = unsafe { PgLwLock::new(c"sno lease status") };

/// What the worker is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum State {
    /// Not started yet (or restarting).
    Starting,
    /// Leasing: the store is being asked.
    Leasing,
    /// A partition is held and renewed.
    Leased,
    /// The last attempt failed; another comes after a pause.
    Retrying,
    /// Stopped (the server shuts down, or the worker was terminated and waits for its restart).
    Stopped,
}

impl State {
    pub(crate) fn name(self) -> &'static str {
        match self {
            State::Starting => "starting",
            State::Leasing => "leasing",
            State::Leased => "leased",
            State::Retrying => "retrying",
            State::Stopped => "stopped",
        }
    }
}

/// Text of at most `N` bytes, cut at a character boundary.
#[derive(Clone, Copy)]
pub(crate) struct Text<const N: usize> {
    len: usize,
    bytes: [u8; N],
}

impl<const N: usize> Default for Text<N> {
    fn default() -> Self {
        Text {
            len: 0,
            bytes: [0; N],
        }
    }
}

impl<const N: usize> Text<N> {
    pub(crate) fn set(&mut self, text: &str) {
        let mut len = text.len().min(N);
        while !text.is_char_boundary(len) {
            len -= 1;
        }
        self.bytes[..len].copy_from_slice(&text.as_bytes()[..len]);
        self.len = len;
    }

    pub(crate) fn get(&self) -> Option<&str> {
        core::str::from_utf8(&self.bytes[..self.len])
            .ok()
            .filter(|t| !t.is_empty())
    }
}

/// The status in shared memory.
#[derive(Clone, Copy)]
pub(crate) struct Status {
    pub(crate) state: State,
    pub(crate) worker_pid: i32,
    /// -1 while no partition is held.
    pub(crate) partition: i32,
    pub(crate) token: u64,
    /// When this grant was made or taken over (Unix ms, the worker's clock), 0: never.
    pub(crate) leased_unix_ms: i64,
    /// When the store lets it lapse unless renewed (Unix ms, the store's clock).
    pub(crate) expires_unix_ms: i64,
    pub(crate) renewals: u64,
    pub(crate) failures: u64,
    pub(crate) namespace: Text<64>,
    pub(crate) holder: Text<160>,
    pub(crate) store: Text<256>,
    pub(crate) last_error: Text<512>,
}

impl Default for Status {
    fn default() -> Self {
        Status {
            state: State::Starting,
            worker_pid: 0,
            partition: -1,
            token: 0,
            leased_unix_ms: 0,
            expires_unix_ms: 0,
            renewals: 0,
            failures: 0,
            namespace: Text::default(),
            holder: Text::default(),
            store: Text::default(),
            last_error: Text::default(),
        }
    }
}

// SAFETY: plain values only (fixed arrays, integers, a fieldless enum).
unsafe impl PGRXSharedMemory for Status {}

/// Asks for the shared memory (`_PG_init` of a preloaded library).
pub(crate) fn init() {
    pg_shmem_init!(
        MINT = Mint(SharedMint::new().expect("a sno generator on partition 0 always builds"))
    );
    pg_shmem_init!(STATUS);
}

/// The longest step of a wait before pending interrupts are looked at.
const STEP: Duration = Duration::from_millis(10);

/// The next ID of the server's mint, with `meta`: waits on the backend's latch (in steps that
/// serve a cancel, a `statement_timeout` or a termination) while the unit is used up, the clock
/// went back, the window has not opened yet, or the lease is being renewed or taken, for at
/// most one TTL and two seconds (a leased generator's default wait; a new grant during the
/// wait gets a whole one, as `LeasedGenerator::next` does); then raises the last error with
/// its SQLSTATE and what the worker says.
pub(crate) fn next(meta: u8) -> Id {
    let mint = &MINT.get().0;
    let can_wait = |e: &Error| {
        matches!(e, Error::LeaseExpired { .. } | Error::LeasePending { .. })
            || sno_core::wait::can_wait(e)
    };
    loop {
        let token = STATUS.share().token;
        let waited = sno_core::wait::retry(
            settings::ttl() + Duration::from_secs(2),
            SystemClock::precise_unix_ns,
            can_wait,
            || mint.try_next(meta),
            |pause| -> Result<(), core::convert::Infallible> {
                wait_on_latch(pause.length().min(STEP));
                Ok(())
            },
        );
        match waited {
            Ok(Ok(id)) => return id,
            Ok(Err(e)) if can_wait(&e) && STATUS.share().token != token => continue,
            Ok(Err(e)) => raise(e),
            Err(never) => match never {},
        }
    }
}

/// Sleeps on the backend's latch for `length` at most, then serves pending interrupts.
fn wait_on_latch(length: Duration) {
    let ms = i64::try_from(length.as_millis()).unwrap_or(i64::MAX).max(1);
    // SAFETY: MyLatch is the backend's own latch; WaitLatch and ResetLatch on it from the
    // backend's thread are how PostgreSQL code sleeps.
    unsafe {
        pg_sys::WaitLatch(
            pg_sys::MyLatch,
            (pg_sys::WL_LATCH_SET | pg_sys::WL_TIMEOUT | pg_sys::WL_EXIT_ON_PM_DEATH) as i32,
            ms as _,
            pg_sys::PG_WAIT_EXTENSION,
        );
        pg_sys::ResetLatch(pg_sys::MyLatch);
    }
    pgrx::check_for_interrupts!();
}

/// Raises a minting error: its SQLSTATE and the core's message, and for a lease error what the
/// worker says (its state and last error: `sno_lease_status()`).
fn raise(e: Error) -> ! {
    if !matches!(e, Error::LeaseExpired { .. } | Error::LeasePending { .. }) {
        errors::raise_core(e);
    }
    let status = *STATUS.share();
    let mut detail = format!("the server's lease worker is {}", status.state.name());
    if let Some(last) = status.last_error.get() {
        detail.push_str(&format!("; its last error: {last}"));
    }
    errors::raise(errors::sqlstate(e.kind()), e.to_string(), Some(detail))
}
