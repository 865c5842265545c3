//! Leased partitions (sno-lease) through the C ABI: sno_lease_* and sno_generator_new_leased,
//! the process-wide partition, and the thread's last error message.
//!
//! The lease API proper (sno_lease_*, sno_generator_new_leased) needs the `lease` feature (the
//! stores and their drivers): the core-only libsno.a is built without it and leaves those
//! symbols out, so a program that calls them fails to link against it (see sno-ffi/README.md).

#[cfg(feature = "lease")]
use std::ffi::CStr;
#[cfg(feature = "lease")]
use std::time::Duration;

use ::sno_lease::Grant;
#[cfg(feature = "lease")]
use ::sno_lease::{Lease, LeaseOptions, SnoGenerator};
#[cfg(feature = "lease")]
use sno_core::Generator;

#[cfg(feature = "lease")]
use crate::args::{free_handle, read_handle, try_ref, write_out};
#[cfg(feature = "lease")]
use crate::errors::Failure;
use crate::errors::{recording_boundary, value_boundary};
use crate::status::sno_status;
#[cfg(feature = "lease")]
use crate::types::{sno_generator, sno_generator_options, sno_lease, sno_lease_options};

/// One grant of a partition (see sno_lease_current_grant). Times are Unix milliseconds of the
/// store's clock.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_lease_grant {
    /// The partition granted.
    pub partition: u16,
    /// The fencing token: larger than every token granted before it in the namespace.
    pub token: u64,
    /// The earliest time the grant stamps into an ID (where the partition's earlier holders
    /// stopped).
    pub ids_from_unix_ms: i64,
    /// Every ID of the grant is stamped before this time (the expiry minus the margin); it
    /// moves forward with every renewal.
    pub ids_before_unix_ms: i64,
    /// When the store lets the grant lapse unless it is renewed.
    pub expires_unix_ms: i64,
}

crate::types::same_fields!(Grant -> sno_lease_grant {
    partition,
    token,
    ids_from_unix_ms,
    ids_before_unix_ms,
    expires_unix_ms,
});

/// The Rust options for C options (each zero field takes its default).
///
/// # Safety
/// `opts.namespace_name` must be NULL or a valid NUL-terminated string.
#[cfg(feature = "lease")]
unsafe fn lease_options(opts: &sno_lease_options) -> Result<LeaseOptions, Failure> {
    let namespace = if opts.namespace_name.is_null() {
        "default"
    } else {
        // SAFETY: non-NULL and NUL-terminated per the contract.
        unsafe { CStr::from_ptr(opts.namespace_name) }
            .to_str()
            .map_err(|_| {
                Failure::new(
                    sno_status::LeaseInvalidOptions,
                    "sno lease: invalid option: the namespace is not UTF-8",
                )
            })?
    };
    let last = match opts.partition_last {
        0 => u16::MAX,
        last => last,
    };
    let ms = |ms: u32| (ms != 0).then(|| Duration::from_millis(ms.into()));
    let (ttl, margin, timeout) = (ms(opts.ttl_ms), ms(opts.margin_ms), ms(opts.timeout_ms));
    let range = Some(opts.partition_first..=last);
    Ok(LeaseOptions::from_parts(
        namespace, range, ttl, margin, timeout,
    )?)
}

/// Leases a free partition of a namespace from the store at `url` and starts renewing it on a
/// background thread (every third of the TTL) until sno_lease_free. Every lease of a namespace
/// holds a different partition, so generators made from them (sno_generator_new_leased) never
/// repeat each other's IDs, across processes and hosts.
///
/// `url`: `postgres://user:password@host:port/db` or `postgresql://…` or libpq's key=value form
/// (PostgreSQL: the table `sno_partition_leases` is created on first use) or
/// `redis://[:password@]host:port/[db]`, `rediss://…` (TLS), `redis+unix://` or `unix://`
/// (Redis). TLS: PostgreSQL's `sslmode=disable|allow|prefer|require|verify-ca|verify-full` and
/// `sslrootcert=<PEM file>|system`; Redis' `rediss://…?ssl_ca_certs=<PEM file>` (the system's
/// roots without it). A certificate the checks refuse is SNO_STATUS_LEASE_TLS_FAILED. Messages
/// never show the password (nor the URL: they are built from its parsed parts).
/// `opts` may be NULL: every default (namespace "default", partitions 0..=65535, TTL 15 s); a
/// zeroed sno_lease_options means the same, field by field. The environment (SNO_LEASE_*) is
/// not read here: it configures only the process-wide generator (sno_new).
///
/// Blocks: it connects (within the timeout, 10 s by default), and when the partition's
/// previous holder stamped IDs up to a moment this host's clock has not reached yet (a
/// partition released a moment ago, a fresh Redis namespace), it waits for it, at most one
/// TTL.
///
/// Fails with SNO_STATUS_LEASE_INVALID_URL, _LEASE_INVALID_OPTIONS, _LEASE_UNREACHABLE,
/// _LEASE_AUTHENTICATION_FAILED, _LEASE_TLS_FAILED, _LEASE_NO_FREE_PARTITION or _LEASE_STORE,
/// and records the store's words for sno_last_error_message. Thread-safe.
///
/// The lease API is in libsno.so and libsno_lease.a, not in libsno.a (see the top of sno.h).
///
/// # Safety
/// `url` must be NULL or a NUL-terminated string; `opts` NULL or a valid options struct whose
/// namespace_name is NULL or NUL-terminated; `out` NULL or writable.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_acquire(
    url: *const std::ffi::c_char,
    opts: *const sno_lease_options,
    out: *mut *mut sno_lease,
) -> sno_status {
    recording_boundary(|| {
        if url.is_null() || out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        // SAFETY: non-NULL and NUL-terminated per the contract.
        let url = unsafe { CStr::from_ptr(url) }.to_str().map_err(|_| {
            Failure::new(
                sno_status::LeaseInvalidUrl,
                "sno lease: invalid store URL: not UTF-8",
            )
        })?;
        // SAFETY: NULL or valid per the contract.
        let opts = unsafe { opts.as_ref() }
            .copied()
            .unwrap_or(sno_lease_options::DEFAULT);
        // SAFETY: namespace_name is NULL or NUL-terminated per the contract.
        let options = unsafe { lease_options(&opts) }?;
        let lease = Lease::acquire(url, &options)?;
        let handle = Box::into_raw(Box::new(sno_lease { inner: lease }));
        // SAFETY: checked non-NULL above; writable per the contract.
        Ok(unsafe { write_out(out, handle) }?)
    })
}

/// Writes what `read` gives of the lease behind `lease` to `out`.
///
/// # Safety
/// `lease` must be NULL or live; `out` NULL or writable.
#[cfg(feature = "lease")]
unsafe fn read_lease<T>(
    lease: *const sno_lease,
    out: *mut T,
    read: impl FnOnce(&Lease) -> T,
) -> sno_status {
    let read = |lease: &sno_lease| Ok::<T, sno_status>(read(&lease.inner));
    // SAFETY: forwarded contract.
    unsafe { read_handle(lease, out, read) }
}

/// The partition currently leased. It changes only if the lease is lost (it expired while the
/// store was unreachable and another holder took the partition): the renewal thread then
/// leases a new one, and the generator follows. Thread-safe.
///
/// # Safety
/// `lease` must be NULL or live; `out` NULL or writable.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_partition(lease: *const sno_lease, out: *mut u16) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { read_lease(lease, out, Lease::partition) }
}

/// The fencing token of the current grant: larger than every token granted before it in the
/// namespace (pass it to a storage system that rejects writes of an older holder). Thread-safe.
///
/// # Safety
/// `lease` must be NULL or live; `out` NULL or writable.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_token(lease: *const sno_lease, out: *mut u64) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { read_lease(lease, out, Lease::token) }
}

/// When the store lets the current grant lapse unless it is renewed (Unix ms, the store's
/// clock); it moves forward with every renewal. Thread-safe.
///
/// # Safety
/// `lease` must be NULL or live; `out` NULL or writable.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_expires_unix_ms(
    lease: *const sno_lease,
    out: *mut i64,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { read_lease(lease, out, Lease::expires_unix_ms) }
}

/// How many renewals the store granted so far (a new partition after a lost lease counts as
/// none): for monitoring, with sno_lease_renewal_failures and sno_lease_expires_in_ms.
/// Thread-safe.
///
/// # Safety
/// `lease` must be NULL or live; `out` NULL or writable.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_renewals(lease: *const sno_lease, out: *mut u64) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { read_lease(lease, out, Lease::renewals) }
}

/// How many renewals failed so far: the store unreachable or silent, an error, or the lease
/// found lost (sno_lease_last_error says the latest). Thread-safe.
///
/// # Safety
/// `lease` must be NULL or live; `out` NULL or writable.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_renewal_failures(
    lease: *const sno_lease,
    out: *mut u64,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { read_lease(lease, out, Lease::renewal_failures) }
}

/// Milliseconds until the current grant lapses unless it is renewed, by this machine's clock
/// against the store's expiry (0 once past). Thread-safe.
///
/// # Safety
/// `lease` must be NULL or live; `out` NULL or writable.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_expires_in_ms(
    lease: *const sno_lease,
    out: *mut u64,
) -> sno_status {
    let ms = |lease: &Lease| u64::try_from(lease.expires_in().as_millis()).unwrap_or(u64::MAX);
    // SAFETY: forwarded contract.
    unsafe { read_lease(lease, out, ms) }
}

/// The current grant in one consistent read: partition, token, the window its IDs lie in, and
/// the expiry (reading partition and token separately could straddle a switch to a new
/// partition). Thread-safe.
///
/// # Safety
/// `lease` must be NULL or live; `out` NULL or writable.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_current_grant(
    lease: *const sno_lease,
    out: *mut sno_lease_grant,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { read_lease(lease, out, |lease| lease.grant().into()) }
}

/// The state of the renewals: SNO_STATUS_OK while the last renewal succeeded, otherwise the
/// status of the last renewal error (SNO_STATUS_LEASE_UNREACHABLE, _LEASE_STORE, …, until a
/// renewal succeeds again), with its message recorded for sno_last_error_message. Monitoring
/// can poll it; a generator whose lease runs out meanwhile answers SNO_STATUS_LEASE_EXPIRED.
/// Thread-safe.
///
/// # Safety
/// `lease` must be NULL or live.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_last_error(lease: *const sno_lease) -> sno_status {
    recording_boundary(|| {
        // SAFETY: NULL or live per the contract.
        let lease = unsafe { try_ref(lease) }?;
        match lease.inner.last_error() {
            None => Ok(()),
            Some(e) => Err(e.into()),
        }
    })
}

/// Creates the generator of a lease: every ID carries the leased partition and lies inside the
/// lease's window, so it never repeats another holder's IDs. It is a plain `sno_generator`:
/// sno_generator_next, _try_next, _next_many, _stats and _free work as for any generator, and
/// are thread-safe. Differences:
/// - it answers SNO_STATUS_LEASE_EXPIRED when the lease does not cover the clock (renewals
///   failing; sno_generator_next waits for a renewal within its 5 s first), and for good once
///   the lease is freed;
/// - sno_generator_repartition, sno_generator_next_with_time and sno_generator_snapshot answer
///   SNO_STATUS_LEASED_GENERATOR (the partition and the times belong to the lease);
/// - in a fork() child it answers SNO_STATUS_FORKED for good: the lease is the parent's;
///   acquire a lease of the child's own.
///
/// `opts` may be NULL; only its sequence bounds are used, and its partition must be 0 or
/// SNO_PARTITION_DEFAULT (anything else is SNO_STATUS_LEASED_GENERATOR). One lease drives one
/// generator: a second call is SNO_STATUS_LEASE_UNAVAILABLE. The generator may outlive the
/// lease handle (it then refuses with SNO_STATUS_LEASE_EXPIRED); free both. Failures are
/// recorded for sno_last_error_message. Thread-safe.
///
/// # Safety
/// `lease` must be NULL or live; `opts` NULL or valid; `out` NULL or writable.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_generator_new_leased(
    lease: *mut sno_lease,
    opts: *const sno_generator_options,
    out: *mut *mut sno_generator,
) -> sno_status {
    recording_boundary(|| {
        // SAFETY: NULL or live per the contract; only shared access is needed.
        let lease = unsafe { try_ref(lease.cast_const()) }?;
        if out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        // SAFETY: NULL or valid per the contract.
        let opts = unsafe { opts.as_ref() }.copied().unwrap_or_default();
        // Any value but the two defaults asks for a partition, which a leased generator refuses
        // (SNO_STATUS_LEASED_GENERATOR): only that one was asked for matters, not which.
        let partition = match opts.partition {
            0 | crate::constants::SNO_PARTITION_DEFAULT => None,
            _ => Some(0),
        };
        let builder = Generator::builder().sequence_bounds(opts.sequence_min, opts.sequence_max);
        let inner = SnoGenerator::leased(&lease.inner, builder, partition, None)?;
        // SAFETY: checked non-NULL above; writable per the contract.
        Ok(unsafe { write_out(out, Box::into_raw(Box::new(sno_generator { inner }))) }?)
    })
}

/// Releases the lease: stops the renewals and frees the partition in the store (waiting for
/// the store at most the lease's timeout; if it cannot be reached, the grant simply expires
/// after its TTL). A generator made from it answers SNO_STATUS_LEASE_EXPIRED from then on;
/// free it too. NULL is accepted and ignored. In a fork() child it only frees the child's copy
/// (the lease stays the parent's). Not thread-safe with respect to other calls on the same
/// lease: call it once, after every user is done.
///
/// # Safety
/// `lease` must be NULL or a pointer from sno_lease_acquire not yet freed.
#[cfg(feature = "lease")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_lease_free(lease: *mut sno_lease) {
    // SAFETY: forwarded contract; dropping the Lease closes it (stops renewing, releases the
    // partition).
    unsafe { free_handle(lease) }
}

/// The process-wide generator of sno_new and sno_process_partition (`sno_lease::process_generator`).
/// The first time it is a leased one, sno_release_process_lease is registered with `atexit`, so
/// that a C program that ends normally (returns from main, calls exit) frees its partition at
/// once instead of one TTL later.
///
/// Built without the `lease` feature (the core-only libsno.a), SNO_LEASE_URL cannot lease: its
/// SNO_STATUS_LEASE_INVALID_URL message then says which library to link instead.
pub(crate) fn process_generator() -> Result<::sno_lease::ProcessGenerator, ::sno_lease::Error> {
    #[cfg(not(feature = "lease"))]
    let generator = ::sno_lease::process_generator().map_err(|e| match e {
        // Every URL ends here without stores (sno-lease: "this build has no … store").
        ::sno_lease::Error::InvalidUrl { .. } => ::sno_lease::Error::InvalidUrl {
            detail: NO_STORES.into(),
        },
        other => other,
    })?;
    #[cfg(feature = "lease")]
    let generator = ::sno_lease::process_generator()?;
    if matches!(generator, ::sno_lease::ProcessGenerator::Leased(_)) {
        register_release_at_exit();
    }
    Ok(generator)
}

/// Why SNO_LEASE_URL fails in the core-only libsno.a.
#[cfg(not(feature = "lease"))]
const NO_STORES: &str = "SNO_LEASE_URL needs the lease stores, which the core-only libsno.a \
     leaves out: link libsno_lease.a (pkg-config sno-lease-static, CMake sno::sno_lease_static) \
     or libsno.so";

/// Registers [`release_at_exit`] with the C library's `atexit`, once per process (a fork() child
/// inherits the registration, and releases its own lease with it).
///
/// dlclose: glibc's `atexit` (linked into libsno.so from libc_nonshared.a; macOS' alike) is
/// `__cxa_atexit(f, NULL, __dso_handle)` with the handle of the object that called it, libsno.so
/// itself, and the loader runs an object's handlers (`__cxa_finalize`) when it unloads it, before
/// unmapping: the C library is never left holding a pointer into unmapped code. In practice
/// glibc keeps libsno.so loaded after dlclose (Rust's thread-local destructors pin it; musl
/// never unloads), and the handler runs at exit. Linked statically, the handler belongs to the
/// program (or to the shared object libsno.a was linked into) in the same way.
fn register_release_at_exit() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        unsafe extern "C" {
            fn atexit(callback: extern "C" fn()) -> std::ffi::c_int;
        }
        // SAFETY: `release_at_exit` is a plain `extern "C" fn()` of this library that stays
        // valid as long as the library is loaded, and the registration is undone by dlclose
        // (see above). A failed registration (no room left) only loses the early release: the
        // grant expires one TTL after the process is gone, as without it.
        let _ = unsafe { atexit(release_at_exit) };
    });
}

/// The `atexit` handler: releases the process lease. Never unwinds into the C library.
extern "C" fn release_at_exit() {
    value_boundary((), || {
        let _ = ::sno_lease::release_process_lease();
    });
}

/// Releases the lease of the process-wide generator (sno_new with SNO_LEASE_URL), if this process
/// acquired one: its partition can be granted again at once, to a holder whose IDs come after
/// this process's (a process that ends without it frees its partition one TTL later, 15 s by
/// default). Returns whether a lease was released (false: no SNO_LEASE_URL, no ID minted yet,
/// already released, or a fork() child whose process lease is its parent's).
///
/// Call it when the process ends normally. libsno registers it with `atexit` the first time
/// sno_new (or sno_process_partition) leases, so returning from main or calling exit() releases
/// the lease without it; call it yourself before a `_exit()`, or earlier, when the process stops
/// minting long before it exits. A later sno_new leases a partition anew. Waits for the store at
/// most the lease's timeout (10 s by default); if it cannot be reached, the grant simply expires
/// after its TTL. Thread-safe; calls of sno_new that run meanwhile finish on the old lease or
/// answer SNO_STATUS_LEASE_EXPIRED.
#[unsafe(no_mangle)]
pub extern "C" fn sno_release_process_lease() -> bool {
    value_boundary(false, ::sno_lease::release_process_lease)
}

/// The partition of the process-wide generator behind sno_new, building it on first use from
/// the environment: SNO_PARTITION (a fixed partition), SNO_LEASE_URL (a leased one: this call
/// acquires the lease, with SNO_LEASE_NAMESPACE, SNO_LEASE_TTL, SNO_LEASE_PARTITIONS), or
/// neither (a random default). Call it at start-up to fail fast on a bad environment; it fails
/// as sno_new does (SNO_STATUS_INVALID_ENVIRONMENT, SNO_STATUS_LEASE_*), recording the message
/// for sno_last_error_message. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_process_partition(out: *mut u16) -> sno_status {
    recording_boundary(|| {
        if out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        let partition = process_generator()?.partition();
        // SAFETY: checked non-NULL; writable per the contract.
        unsafe { out.write(partition) };
        Ok(())
    })
}
