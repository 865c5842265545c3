//! Leases (`sno-lease`): a partition of a namespace leased from PostgreSQL or Redis, renewed by
//! the lease's own thread, released by `close()`. `sno.js` builds the public `Lease` class on
//! top (option checks, `Date`s, `Symbol.dispose`); `Generator({ lease })` passes the native
//! lease to `sno.rs`'s `Generator`. Here too: the process-wide sno generator that
//! `SNO_PARTITION` / `SNO_LEASE_URL` configure.
//!
//! Acquiring is network I/O bounded by the options' timeout (and, for a partition released a
//! moment ago or a fresh Redis namespace, a wait of at most one TTL): `new Lease()` does it on
//! the calling thread, like the synchronous `fs` calls, and `Lease.acquire()` on a libuv worker
//! thread ([`AcquireTask`]). A lease whose JS object is collected unclosed is released on a
//! thread of its own, never in the garbage collector's finalizer on the main thread.
//!
//! This addon is native only: where none loads, the package falls back to the light web build,
//! which refuses leases (docs/wasm.md).

use std::time::Duration;

use napi::bindgen_prelude::*;
use napi::{Env, Task};
use napi_derive::napi;
use sno_lease::LeaseOptions;

use crate::errors::{Fail, OrThrow, R, error_value, rejection};

/// The process-wide sno generator, as the environment configures it
/// (`sno_lease::process_generator`): `SNO_PARTITION` fixes its partition, `SNO_LEASE_URL` leases
/// one (the first call acquires the lease), neither keeps a random default; both, or an invalid
/// value, is an error at every call.
#[inline]
pub(crate) fn process_generator() -> R<sno_lease::ProcessGenerator> {
    Ok(sno_lease::process_generator()?)
}

/// `detail` as the lease's own "invalid option" error (`ERR_SNO_LEASE_INVALID_OPTIONS`).
fn invalid(detail: String) -> Fail {
    Fail::Lease(sno_lease::Error::InvalidOptions { detail })
}

/// An option in milliseconds, if given: a non-negative integer JS number holds exactly.
fn millis(name: &str, value: Option<f64>) -> R<Option<Duration>> {
    let Some(value) = value else { return Ok(None) };
    if value.fract() == 0.0 && (0.0..=crate::args::MAX_SAFE_INTEGER as f64).contains(&value) {
        Ok(Some(Duration::from_millis(value as u64)))
    } else {
        Err(invalid(format!(
            "option {name} must be an integer number of milliseconds, got {value}"
        )))
    }
}

/// A bound of option `partitions`: an integer in `0 ..= 65535`.
fn partition_bound(index: usize, value: f64) -> R<u16> {
    if value.fract() == 0.0 && (0.0..=65535.0).contains(&value) {
        Ok(value as u16)
    } else {
        Err(invalid(format!(
            "option partitions[{index}] must be an integer in 0 ..= 65535, got {value}"
        )))
    }
}

/// The options of `new Lease()` / `Lease.acquire()`, their types checked by `sno.js` (read from
/// JavaScript only).
#[napi(object, object_to_js = false)]
pub struct LeaseArgs {
    pub url: String,
    pub namespace: Option<String>,
    pub ttl_ms: Option<f64>,
    pub partitions: Option<Vec<f64>>,
    pub margin_ms: Option<f64>,
    pub timeout_ms: Option<f64>,
}

/// `args`' options, checked as `sno-lease` checks them.
fn lease_options(args: &LeaseArgs) -> R<LeaseOptions> {
    let ttl = millis("ttlMs", args.ttl_ms)?;
    let range = match args.partitions.as_deref() {
        None => None,
        Some(&[first, last]) => Some(partition_bound(0, first)?..=partition_bound(1, last)?),
        Some(range) => {
            return Err(invalid(format!(
                "option partitions must be [first, last], got {} numbers",
                range.len()
            )));
        }
    };
    let margin = millis("marginMs", args.margin_ms)?;
    let timeout = millis("timeoutMs", args.timeout_ms)?;
    let ns = args.namespace.as_deref().unwrap_or("default");
    Ok(LeaseOptions::from_parts(ns, range, ttl, margin, timeout)?)
}

/// A partition leased from a store for this process.
#[napi(custom_finalize)]
pub struct Lease {
    pub(crate) inner: sno_lease::Lease,
}

impl ObjectFinalize for Lease {
    /// Collected without `close()`: released on a thread of its own (a call to the store, up to
    /// the options' timeout), not on the main thread.
    fn finalize(self, _env: Env) -> Result<()> {
        if !self.inner.is_closed() {
            let inner = self.inner;
            // If no thread can be started, the closure (and the lease) is dropped here instead.
            let _ = std::thread::Builder::new()
                .name("sno-lease-drop".into())
                .spawn(move || drop(inner));
        }
        Ok(())
    }
}

#[napi]
impl Lease {
    /// Leases a partition on the calling thread (`new Lease(options)`).
    #[napi(constructor, catch_unwind)]
    pub fn new(env: &Env, args: LeaseArgs) -> Result<Self, String> {
        lease_options(&args)
            .and_then(|options| Ok(sno_lease::Lease::acquire(&args.url, &options)?))
            .map(|inner| Lease { inner })
            .or_throw(env)
    }

    /// Leases from `SNO_LEASE_URL` with the options of the `SNO_LEASE_*` variables
    /// (`SNO_LEASE_NAMESPACE`, `SNO_LEASE_TTL`, `SNO_LEASE_PARTITIONS`), on the calling thread.
    #[napi(factory, catch_unwind)]
    pub fn from_env(env: &Env) -> Result<Self, String> {
        let lease = sno_lease::Lease::from_env().map(|inner| Lease { inner });
        lease.map_err(Fail::from).or_throw(env)
    }

    /// The partition leased now (it changes if the lease is lost and a new one taken).
    #[napi(getter, catch_unwind)]
    pub fn partition(&self) -> u32 {
        u32::from(self.inner.partition())
    }

    /// The fencing token of the current grant (above every earlier grant's in the namespace;
    /// Redis tokens pass 2^53, so a bigint).
    #[napi(getter, catch_unwind)]
    pub fn token(&self) -> u64 {
        self.inner.token()
    }

    /// When the store lets the grant lapse unless renewed (Unix ms, the store's clock).
    #[napi(getter, catch_unwind)]
    pub fn expires_unix_ms(&self) -> f64 {
        self.inner.expires_unix_ms() as f64
    }

    /// The namespace the partition belongs to.
    #[napi(getter, catch_unwind)]
    pub fn namespace(&self) -> String {
        self.inner.options().namespace().to_owned()
    }

    /// The holder name stored with the grant (`host/pid/program/random`).
    #[napi(getter, catch_unwind)]
    pub fn holder(&self) -> String {
        self.inner.holder().to_owned()
    }

    /// How many renewals the store granted so far.
    #[napi(getter, catch_unwind)]
    pub fn renewals(&self) -> f64 {
        self.inner.renewals() as f64
    }

    /// How many renewals failed so far (`lastError` says the latest).
    #[napi(getter, catch_unwind)]
    pub fn renewal_failures(&self) -> f64 {
        self.inner.renewal_failures() as f64
    }

    /// Milliseconds until the grant lapses unless it is renewed (0 once past, and once closed).
    #[napi(getter, catch_unwind)]
    pub fn expires_in_ms(&self) -> f64 {
        self.inner.expires_in().as_millis() as f64
    }

    /// Whether `close()` was called.
    #[napi(getter, catch_unwind)]
    pub fn closed(&self) -> bool {
        self.inner.is_closed()
    }

    /// The last renewal error (an `Error` with its `code`), or null once a renewal succeeds (and
    /// once closed).
    #[napi(getter, ts_return_type = "Error | null", catch_unwind)]
    pub fn last_error<'env>(&self, env: &'env Env) -> Option<Unknown<'env>> {
        self.inner
            .last_error()
            .and_then(|e| error_value(env, Fail::from(e)))
    }

    /// Stops renewing and releases the partition (one call to the store, within the timeout);
    /// the generator then refuses with ERR_SNO_LEASE_EXPIRED. Idempotent.
    #[napi(catch_unwind)]
    pub fn close(&mut self) {
        self.inner.close();
    }
}

/// Releases the lease of the process-wide generator (`newId()` … with `SNO_LEASE_URL`), if this
/// process acquired one: its partition can be granted again at once, to a holder whose IDs come
/// after this process's. Returns whether a lease was released. `sno.js` calls it on the
/// process's `exit` event; a later `newId()` leases anew. Blocks (the event loop included) for
/// one call to the store, at most the lease's timeout.
#[napi(catch_unwind)]
pub fn release_process_lease() -> bool {
    sno_lease::release_process_lease()
}

/// Leases a partition on a libuv worker thread: `Lease.acquire(options)`'s promise.
#[napi(ts_return_type = "Promise<Lease>", catch_unwind)]
pub fn acquire_lease(env: &Env, args: LeaseArgs) -> Result<AsyncTask<AcquireTask>, String> {
    let options = lease_options(&args).or_throw(env)?;
    let url = args.url;
    Ok(AsyncTask::new(AcquireTask { url, options }))
}

/// The work of `acquireLease`.
pub struct AcquireTask {
    url: String,
    options: LeaseOptions,
}

impl Task for AcquireTask {
    /// The lease or its error: the error becomes its JS object on the main thread, in `resolve`.
    type Output = std::result::Result<sno_lease::Lease, sno_lease::Error>;
    type JsValue = Lease;

    /// Runs on a worker thread, where a panic would abort the process: caught here.
    fn compute(&mut self) -> Result<Self::Output> {
        let (url, options) = (&self.url, &self.options);
        Ok(
            std::panic::catch_unwind(|| sno_lease::Lease::acquire(url, options)).unwrap_or_else(
                |_| {
                    Err(sno_lease::Error::Store {
                        detail: "the lease's acquisition panicked".to_owned(),
                    })
                },
            ),
        )
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> Result<Self::JsValue> {
        match output {
            Ok(inner) => Ok(Lease { inner }),
            Err(e) => Err(rejection(&env, Fail::from(e))),
        }
    }
}
