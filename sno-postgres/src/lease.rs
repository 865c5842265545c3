//! The backend's lease: `sno_new()` mints on a partition this backend leased for itself with
//! `sno-lease`, from the same lease table and namespace as the application's processes.
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
use std::ffi::{CStr, CString};
use std::time::Duration;

use pgrx::guc::{GucContext, GucFlags, GucRegistry, GucSetting};
use pgrx::prelude::*;
use sno_core::{Id, SystemClock};
use sno_lease::{Lease, LeaseOptions, LeasedGenerator};

use crate::errors;

/// `sno.lease_url`: the lease store (a `postgres://` URL or a libpq `key=value` string; Redis
/// URLs work too). Unset: this server, over its first Unix socket directory, to the current
/// database as the session's user.
static LEASE_URL: GucSetting<Option<CString>> = GucSetting::<Option<CString>>::new(None);
/// `sno.lease_namespace`: the namespace of the partitions (as `SNO_LEASE_NAMESPACE`).
static LEASE_NAMESPACE: GucSetting<Option<CString>> =
    GucSetting::<Option<CString>>::new(Some(c"default"));
/// `sno.lease_ttl`: the lease's TTL in seconds (as `SNO_LEASE_TTL`).
static LEASE_TTL: GucSetting<i32> = GucSetting::<i32>::new(15);

/// Registers the `sno.*` settings (`_PG_init`).
pub(crate) fn register_settings() {
    GucRegistry::define_string_guc(
        c"sno.lease_url",
        c"The store sno_new() leases its partition from.",
        c"A postgres:// URL or libpq key=value string (or a redis:// URL). Unset: this server over its Unix socket, the current database, the session's user. Only superusers set it: it may hold a password.",
        &LEASE_URL,
        GucContext::Suset,
        GucFlags::SUPERUSER_ONLY,
    );
    GucRegistry::define_string_guc(
        c"sno.lease_namespace",
        c"The namespace sno_new() leases its partition in.",
        c"The same namespace as the application's processes (SNO_LEASE_NAMESPACE) keeps the IDs of both apart.",
        &LEASE_NAMESPACE,
        GucContext::Userset,
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"sno.lease_ttl",
        c"The TTL of the partition lease of sno_new(), in seconds.",
        c"Renewed every third of it; a backend killed without exit hooks keeps its partition this long.",
        &LEASE_TTL,
        sno_lease::MIN_TTL.as_secs() as i32,
        sno_lease::MAX_TTL.as_secs() as i32,
        GucContext::Userset,
        GucFlags::UNIT_S,
    );
}

/// What a lease was taken with: a change of any setting leases anew.
#[derive(PartialEq, Eq)]
struct Settings {
    /// `sno.lease_url` as set (`None`: this server).
    url: Option<Vec<u8>>,
    namespace: Vec<u8>,
    ttl: Duration,
}

impl Settings {
    /// The settings as this session has them now, read without allocating when `held` has the
    /// same (every `sno_new()` compares them).
    fn matches(&self) -> bool {
        // SAFETY: a string setting is NULL or a NUL-terminated string PostgreSQL owns, valid
        // until the setting changes, which cannot happen during this read.
        let (url, namespace) = unsafe { (guc_bytes(&LEASE_URL), guc_bytes(&LEASE_NAMESPACE)) };
        self.url.as_deref() == url.filter(|u| !u.is_empty())
            && self.namespace.as_slice() == namespace.unwrap_or(b"default")
            && self.ttl == ttl_setting()
    }

    /// The settings as this session has them now.
    fn current() -> Settings {
        // SAFETY: as in `matches`.
        let (url, namespace) = unsafe { (guc_bytes(&LEASE_URL), guc_bytes(&LEASE_NAMESPACE)) };
        Settings {
            url: url.filter(|u| !u.is_empty()).map(<[u8]>::to_vec),
            namespace: namespace.unwrap_or(b"default").to_vec(),
            ttl: ttl_setting(),
        }
    }
}

/// The bytes of a string setting, without its NUL (`None` when unset).
///
/// # Safety
/// The setting's pointer is NULL or a NUL-terminated string that lives while the result is used.
unsafe fn guc_bytes<'a>(setting: &'static GucSetting<Option<CString>>) -> Option<&'a [u8]> {
    // SAFETY: the setting's variable holds NULL or a string PostgreSQL owns (caller's contract).
    let ptr = unsafe { *setting.as_ptr() };
    // SAFETY: as above.
    (!ptr.is_null()).then(|| unsafe { CStr::from_ptr(ptr) }.to_bytes())
}

/// `sno.lease_ttl`.
fn ttl_setting() -> Duration {
    Duration::from_secs(LEASE_TTL.get().max(1) as u64)
}

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
/// lease is being renewed, within the generator's maximum wait.
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
    let started = std::time::Instant::now();
    loop {
        let waited = HELD.with(|held| {
            let held = held.borrow();
            let generator = &held.as_ref().expect("leased above").generator;
            sno_core::wait::retry(
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
            )
        });
        match waited {
            Ok(Ok(id)) => return id,
            Ok(Err(e)) => errors::raise_core(e),
            // An interrupt came: served with nothing borrowed (a cancel raises here), then the
            // wait goes on within what is left of it.
            Err(()) => {
                pgrx::check_for_interrupts!();
            }
        }
    }
}

/// The longest step of a wait before pending interrupts are looked at.
const POLL: Duration = Duration::from_millis(20);

/// A libpq `key=value` string for this server: its first Unix socket directory and its port,
/// the current database, the session's user.
fn this_server() -> String {
    // SAFETY: the server's settings and the session's identity are plain reads in a backend.
    let (dirs, port, database, user) = unsafe {
        let dirs = cstr_or_empty(pg_sys::Unix_socket_directories);
        let database = cstr_or_empty(pg_sys::get_database_name(pg_sys::MyDatabaseId));
        let user = cstr_or_empty(pg_sys::GetUserNameFromId(pg_sys::GetSessionUserId(), false));
        (dirs, pg_sys::PostPortNumber, database, user)
    };
    let dir = dirs.split(',').next().unwrap_or("").trim().to_string();
    format!(
        "host={} port={port} dbname={} user={}",
        // No socket directory (unix_socket_directories = ''): the loopback interface.
        quote(if dir.is_empty() { "localhost" } else { &dir }),
        quote(&database),
        quote(&user)
    )
}

/// A C string PostgreSQL owns, as a Rust string (empty for NULL).
///
/// # Safety
/// `ptr` is NULL or a NUL-terminated string.
unsafe fn cstr_or_empty(ptr: *const core::ffi::c_char) -> String {
    if ptr.is_null() {
        String::new()
    } else {
        // SAFETY: the caller's contract.
        unsafe { CStr::from_ptr(ptr) }
            .to_string_lossy()
            .into_owned()
    }
}

/// A libpq `key=value` value, quoted.
fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Leases a partition with `settings`, and makes its generator. The store is asked on a thread
/// of its own, started with every signal blocked (as are the lease's renewal threads, which it
/// starts), while the backend waits for it in steps that serve a cancel, a `statement_timeout` or
/// a termination: one that ends the wait leaves the thread to finish alone and release what it
/// got. The release on exit is registered once per backend.
fn acquire(settings: Settings) -> Held {
    let namespace = String::from_utf8_lossy(&settings.namespace).into_owned();
    let options = LeaseOptions::new(namespace).ttl(settings.ttl);
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

/// Releases a lease: the store lets the next holder start just past the last ID it minted.
fn release(held: Held) {
    let Held {
        generator,
        mut lease,
        ..
    } = held;
    drop(generator);
    lease.close();
}

/// Runs `f` with every signal blocked in this thread, so that the threads it starts inherit the
/// mask; the backend's own mask is restored after, also when `f` panics (signals that came
/// meanwhile are delivered then).
fn with_signals_blocked<T>(f: impl FnOnce() -> T) -> T {
    /// Restores the saved mask when dropped.
    struct Restore(libc::sigset_t);
    impl Drop for Restore {
        fn drop(&mut self) {
            // SAFETY: pthread_sigmask with a valid pointer to the saved set.
            unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.0, core::ptr::null_mut()) };
        }
    }
    // SAFETY: sigfillset and pthread_sigmask with valid pointers to local sets.
    let _restore = unsafe {
        let mut all: libc::sigset_t = core::mem::zeroed();
        let mut old: libc::sigset_t = core::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_BLOCK, &all, &mut old);
        Restore(old)
    };
    f()
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

/// The partition of this backend's lease, or NULL before its first `sno_new()`.
#[pg_extern(volatile, parallel_unsafe)]
fn sno_lease_partition() -> Option<i32> {
    HELD.with(|h| h.borrow().as_ref().map(|h| i32::from(h.lease.partition())))
}
