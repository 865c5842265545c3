//! The extension's settings (`sno.*`) and the mode `sno_new()` mints in.
//!
//! Loaded through `shared_preload_libraries`, the extension runs in **server mode**: the lease
//! settings are the server's (`postgresql.conf`, `ALTER SYSTEM`, read again on reload), held by
//! one background worker. Loaded by a backend alone (`CREATE EXTENSION` without the preload),
//! they are the session's, for the opt-in **backend mode**; by default such a backend mints on a
//! random partition (**none**). docs/postgres.md argues the choice.

use std::ffi::{CStr, CString};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pgrx::guc::{GucContext, GucFlags, GucRegistry, GucSetting};
use pgrx::prelude::*;

/// `sno.lease_url`: the lease store (a `postgres://` URL or a libpq `key=value` string; Redis
/// URLs work too). Unset: this server over its Unix socket (server mode: the database
/// `postgres` as the operating-system user the server runs as; backend mode: the session's
/// database and user).
pub(crate) static LEASE_URL: GucSetting<Option<CString>> = GucSetting::<Option<CString>>::new(None);
/// `sno.lease_namespace`: the namespace of the partitions (as `SNO_LEASE_NAMESPACE`).
pub(crate) static LEASE_NAMESPACE: GucSetting<Option<CString>> =
    GucSetting::<Option<CString>>::new(Some(c"default"));
/// `sno.lease_ttl`: the lease's TTL in seconds (as `SNO_LEASE_TTL`).
pub(crate) static LEASE_TTL: GucSetting<i32> = GucSetting::<i32>::new(15);
/// `sno.lease_mode`: where `sno_new()` gets its partition.
pub(crate) static LEASE_MODE: GucSetting<LeaseMode> = GucSetting::<LeaseMode>::new(LeaseMode::Auto);

/// Where `sno_new()` gets its partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PostgresGucEnum)]
pub(crate) enum LeaseMode {
    /// `server` when the extension is preloaded, else `none`.
    #[name = c"auto"]
    Auto,
    /// One lease for the server, held by the background worker; backends mint from shared
    /// memory (needs `shared_preload_libraries = 'sno'`).
    #[name = c"server"]
    Server,
    /// Each backend leases a partition of its own over a connection of its own (opt-in: a
    /// connection and a thread per backend that calls `sno_new()`).
    #[name = c"backend"]
    Backend,
    /// No lease: a random partition per backend, as an application without `SNO_LEASE_URL`.
    #[name = c"none"]
    None,
}

/// Whether the library was loaded by `shared_preload_libraries` (set in the postmaster, so every
/// backend and the worker, forked from it, see it).
static PRELOADED: AtomicBool = AtomicBool::new(false);

/// Whether the extension runs in server mode: preloaded (the shared memory and the worker
/// exist).
pub(crate) fn preloaded() -> bool {
    PRELOADED.load(Ordering::Relaxed)
}

/// The mode `sno_new()` mints in now: `auto` resolved.
pub(crate) fn mode() -> LeaseMode {
    match LEASE_MODE.get() {
        LeaseMode::Auto if preloaded() => LeaseMode::Server,
        LeaseMode::Auto => LeaseMode::None,
        other => other,
    }
}

/// Registers the `sno.*` settings (`_PG_init`). Preloaded, the lease settings are the server's
/// (`SIGHUP`: a reload applies them); otherwise a session's (`SET`).
pub(crate) fn register(preloaded: bool) {
    PRELOADED.store(preloaded, Ordering::Relaxed);
    // (GucContext is not Copy: a fresh one per setting.)
    let superuser = || {
        if preloaded {
            GucContext::Sighup
        } else {
            GucContext::Suset
        }
    };
    let user = || {
        if preloaded {
            GucContext::Sighup
        } else {
            GucContext::Userset
        }
    };
    GucRegistry::define_string_guc(
        c"sno.lease_url",
        c"The store the partition of sno_new() is leased from.",
        c"A postgres:// URL or libpq key=value string (or a redis:// URL). Unset: this server over its Unix socket. Only superusers see or set it: it may hold a password.",
        &LEASE_URL,
        superuser(),
        GucFlags::SUPERUSER_ONLY,
    );
    GucRegistry::define_string_guc(
        c"sno.lease_namespace",
        c"The namespace the partition of sno_new() is leased in.",
        c"The same namespace as the application's processes (SNO_LEASE_NAMESPACE) keeps the IDs of both apart.",
        &LEASE_NAMESPACE,
        user(),
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"sno.lease_ttl",
        c"The TTL of the partition lease of sno_new(), in seconds.",
        c"Renewed every third of it; a lease whose holder dies without releasing it is kept this long.",
        &LEASE_TTL,
        sno_lease::MIN_TTL.as_secs() as i32,
        sno_lease::MAX_TTL.as_secs() as i32,
        user(),
        GucFlags::UNIT_S,
    );
    GucRegistry::define_enum_guc(
        c"sno.lease_mode",
        c"Where sno_new() gets its partition: auto, server, backend or none.",
        c"auto: server when the extension is in shared_preload_libraries (one lease for the server, held by a background worker), else none (a random partition per backend). backend: each backend leases its own over a connection of its own.",
        &LEASE_MODE,
        GucContext::Suset,
        GucFlags::default(),
    );
}

/// What a lease is taken with: a change of any setting leases anew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// `sno.lease_url` as set (`None`: this server).
    pub(crate) url: Option<Vec<u8>>,
    pub(crate) namespace: Vec<u8>,
    pub(crate) ttl: Duration,
}

impl Settings {
    /// The settings as they are now, read without allocating when `self` has the same (every
    /// `sno_new()` of backend mode compares them).
    pub(crate) fn matches(&self) -> bool {
        // SAFETY: a string setting is NULL or a NUL-terminated string PostgreSQL owns, valid
        // until the setting changes, which cannot happen during this read.
        let (url, namespace) = unsafe { (guc_bytes(&LEASE_URL), guc_bytes(&LEASE_NAMESPACE)) };
        self.url.as_deref() == url.filter(|u| !u.is_empty())
            && self.namespace.as_slice() == namespace.unwrap_or(b"default")
            && self.ttl == ttl()
    }

    /// The settings as they are now.
    pub(crate) fn current() -> Settings {
        // SAFETY: as in `matches`.
        let (url, namespace) = unsafe { (guc_bytes(&LEASE_URL), guc_bytes(&LEASE_NAMESPACE)) };
        Settings {
            url: url.filter(|u| !u.is_empty()).map(<[u8]>::to_vec),
            namespace: namespace.unwrap_or(b"default").to_vec(),
            ttl: ttl(),
        }
    }

    /// The lease options of these settings.
    pub(crate) fn options(&self) -> sno_lease::LeaseOptions {
        let namespace = String::from_utf8_lossy(&self.namespace).into_owned();
        sno_lease::LeaseOptions::new(namespace).ttl(self.ttl)
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
pub(crate) fn ttl() -> Duration {
    Duration::from_secs(LEASE_TTL.get().max(1) as u64)
}

/// A C string PostgreSQL owns, as a Rust string (empty for NULL).
///
/// # Safety
/// `ptr` is NULL or a NUL-terminated string.
pub(crate) unsafe fn cstr_or_empty(ptr: *const core::ffi::c_char) -> String {
    if ptr.is_null() {
        String::new()
    } else {
        // SAFETY: the caller's contract.
        unsafe { CStr::from_ptr(ptr) }
            .to_string_lossy()
            .into_owned()
    }
}

/// A libpq `key=value` string for this server, over its first Unix socket directory (the
/// loopback interface without one) and its port, to `database` as `user`.
pub(crate) fn this_server(database: &str, user: &str) -> String {
    // SAFETY: the server's settings are plain reads in any process of the server.
    let (dirs, port) = unsafe {
        (
            cstr_or_empty(pg_sys::Unix_socket_directories),
            pg_sys::PostPortNumber,
        )
    };
    let dir = dirs.split(',').next().unwrap_or("").trim().to_string();
    format!(
        "host={} port={port} dbname={} user={}",
        quote(if dir.is_empty() { "localhost" } else { &dir }),
        quote(database),
        quote(user)
    )
}

/// A libpq `key=value` value, quoted.
fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Runs `f` with every signal blocked in this thread, so that the threads it starts inherit the
/// mask and PostgreSQL's signals reach only its own thread; the mask is restored after, also
/// when `f` panics (signals that came meanwhile are delivered then).
pub(crate) fn with_signals_blocked<T>(f: impl FnOnce() -> T) -> T {
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
