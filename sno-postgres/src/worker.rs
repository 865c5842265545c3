//! Server mode's background worker: holds the server's one lease and drives the shared mint
//! (`server.rs`).
//!
//! Registered by `_PG_init` of a preloaded library, started by the postmaster once recovery is
//! over, restarted by it a second after it ends (a crash restarts the whole server, as for any
//! process that touches shared memory). It takes no database connection of the server's own: it
//! talks to the lease store only, over one connection (`sno.lease_url`; unset, this server's
//! Unix socket, the database `postgres`, as the operating-system user the server runs as).
//!
//! A reload (`SIGHUP`) that changes `sno.lease_url`, `sno.lease_namespace` or `sno.lease_ttl`
//! releases the partition (past the highest ID any backend minted) and leases anew with the new
//! settings; backends wait (within their bound) while it does. `SIGTERM` releases and ends the
//! worker; it ends with status 1, so that a worker terminated while the server runs is started
//! again (at shutdown the postmaster starts nothing). The store's errors go to the server log in
//! words, never with the URL.

use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use pgrx::bgworkers::{
    BackgroundWorker, BackgroundWorkerBuilder, BgWorkerStartTime, SignalWakeFlags,
};
use pgrx::prelude::*;
use sno_lease::{Lease, SharedMint};

use crate::server::{MINT, STATUS, State};
use crate::settings::{self, Settings};

/// Registers the worker with the postmaster (`_PG_init` of a preloaded library).
pub(crate) fn register() {
    BackgroundWorkerBuilder::new("sno lease worker")
        .set_type("sno lease worker")
        .set_function("sno_lease_worker_main")
        .set_library("sno")
        .enable_shmem_access(None)
        .set_start_time(BgWorkerStartTime::RecoveryFinished)
        .set_restart_time(Some(Duration::from_secs(1)))
        .load();
}

/// How often the worker looks at its signals, its lease and the status.
const TICK: Duration = Duration::from_millis(100);

/// An acquisition running on a thread of its own, with the settings it was started with.
struct Acquiring {
    settings: Settings,
    result: Receiver<Result<Lease, sno_lease::Error>>,
}

/// The worker's main function.
#[pg_guard]
#[unsafe(no_mangle)]
pub extern "C-unwind" fn sno_lease_worker_main(_arg: pg_sys::Datum) {
    BackgroundWorker::attach_signal_handlers(SignalWakeFlags::SIGHUP | SignalWakeFlags::SIGTERM);
    let mint: &'static SharedMint = &MINT.get().0;
    {
        let mut status = STATUS.exclusive();
        *status = crate::server::Status::default();
        // SAFETY: MyProcPid is this process's id, set before the worker's main runs.
        status.worker_pid = unsafe { pg_sys::MyProcPid };
    }
    let mut held: Option<(Settings, Lease)> = None;
    let mut acquiring: Option<Acquiring> = None;
    let mut next_try = Instant::now();
    let mut backoff = Duration::from_secs(1);
    // Acquisitions that failed since the worker started (renewal failures are the lease's).
    let mut failed: u64 = 0;
    while BackgroundWorker::wait_latch(Some(TICK)) {
        if BackgroundWorker::sighup_received() {
            // SAFETY: re-reads the configuration in a process that has its GUCs, as every
            // background worker does on SIGHUP.
            unsafe { pg_sys::ProcessConfigFile(pg_sys::GucContext::PGC_SIGHUP) };
        }
        let wanted = Settings::current();
        if held.as_ref().is_some_and(|(s, _)| *s != wanted) {
            let (_, lease) = held.take().expect("held");
            let partition = lease.partition();
            release(lease);
            log!("sno: the lease settings changed: partition {partition} released, leasing again");
        }
        if let Some(a) = &acquiring {
            match a.result.try_recv() {
                Ok(Ok(lease)) => {
                    let settings = acquiring.take().expect("acquiring").settings;
                    if settings == wanted {
                        log!(
                            "sno: partition {} of namespace {:?} leased from {} (token {})",
                            lease.partition(),
                            lease.options().namespace(),
                            lease.store(),
                            lease.token()
                        );
                        backoff = Duration::from_secs(1);
                        held = Some((settings, lease));
                    } else {
                        // Leased with settings a reload has changed meanwhile.
                        release(lease);
                    }
                }
                Ok(Err(e)) => {
                    acquiring = None;
                    warning!("sno: the server's partition cannot be leased: {e}");
                    failed += 1;
                    let mut status = STATUS.exclusive();
                    status.state = State::Retrying;
                    status.failures = failed;
                    status.last_error.set(&e.to_string());
                    drop(status);
                    next_try = Instant::now() + backoff;
                    backoff = (backoff * 2).min(settings::ttl());
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    acquiring = None;
                    next_try = Instant::now() + backoff;
                }
            }
        }
        if held.is_none() && acquiring.is_none() && Instant::now() >= next_try {
            acquiring = Some(start_acquiring(wanted, mint));
            STATUS.exclusive().state = State::Leasing;
        }
        if let Some((settings, lease)) = &held {
            publish(settings, lease, failed);
        }
    }
    // SIGTERM, or the postmaster died: release, and end (status 1: a worker terminated while the
    // server runs is started again).
    if let Some((_, lease)) = held {
        release(lease);
    }
    STATUS.exclusive().state = State::Stopped;
    // SAFETY: ends the worker as PostgreSQL ends its processes (exit hooks run).
    unsafe { pg_sys::proc_exit(1) };
}

/// Leases with `settings` on a thread of its own (started with every signal blocked, as the
/// lease's renewal thread it starts), so that the worker keeps serving its signals meanwhile.
fn start_acquiring(settings: Settings, mint: &'static SharedMint) -> Acquiring {
    let url = match &settings.url {
        Some(url) => String::from_utf8_lossy(url).into_owned(),
        None => settings::this_server("postgres", &os_user()),
    };
    let options = settings.options();
    let (sender, result) = std::sync::mpsc::sync_channel(1);
    let spawned = settings::with_signals_blocked(|| {
        std::thread::Builder::new()
            .name("sno-lease-acquire".into())
            .spawn(move || {
                // A worker that stopped waiting has gone: the lease is dropped, and released.
                let _ = sender.send(Lease::acquire_shared(&url, &options, mint));
            })
    });
    if let Err(e) = spawned {
        warning!("sno: cannot start the thread that leases the server's partition: {e}");
    }
    Acquiring { settings, result }
}

/// Closes the lease: backends refuse from now on, and the store lets the next holder start past
/// the highest ID any backend minted.
fn release(lease: Lease) {
    lease.close();
    let mut status = STATUS.exclusive();
    status.state = State::Starting;
    status.partition = -1;
}

/// Writes the lease's state into the status; `failed` acquisitions count as failures too.
fn publish(settings: &Settings, lease: &Lease, failed: u64) {
    let grant = lease.grant();
    let mut status = STATUS.exclusive();
    if status.token != grant.token || status.state != State::Leased {
        status.leased_unix_ms = sno_core::SystemClock::precise_unix_ns() / 1_000_000;
    }
    status.state = State::Leased;
    status.partition = i32::from(grant.partition);
    status.token = grant.token;
    status.expires_unix_ms = grant.expires_unix_ms;
    status.renewals = lease.renewals();
    status.failures = failed + lease.renewal_failures();
    status
        .namespace
        .set(&String::from_utf8_lossy(&settings.namespace));
    status.holder.set(lease.holder());
    status.store.set(lease.store());
    match lease.last_error() {
        Some(e) => status.last_error.set(&e.to_string()),
        None => status.last_error.set(""),
    }
}

/// The name of the operating-system user the server runs as (`initdb`'s default name of the
/// bootstrap superuser).
fn os_user() -> String {
    // SAFETY: getpwuid returns NULL or a pointer to a static record whose pw_name is a C
    // string; read at once, in this thread.
    unsafe {
        let record = libc::getpwuid(libc::geteuid());
        if record.is_null() {
            return "postgres".into();
        }
        settings::cstr_or_empty((*record).pw_name)
    }
}
