//! Leased partitions (`sno.Lease`), and the process-wide generator that `SNO_PARTITION` /
//! `SNO_LEASE_URL` configure (its errors: `errors.rs`).
//!
//! Acquiring (which may wait for the store, and on a fresh Redis namespace for one TTL) runs on
//! a helper thread while the calling thread waits detached, in steps of [`WAIT_STEP`], checking
//! for signals: Ctrl-C interrupts it (the helper thread finishes alone and releases what it
//! got). Closing waits detached, bounded by the store timeout.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, sync_channel};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use sno_lease::{Error, Lease, LeaseOptions, ProcessGenerator};

use crate::batch::WAIT_STEP;
use crate::datetime_from_ms;
use crate::errors::lease_to_py;

/// An invalid lease option, as `sno-lease` reports its own (`LeaseConfigError`, code
/// `"lease_invalid_options"`).
fn invalid_option(py: Python<'_>, detail: String) -> PyErr {
    lease_to_py(py, Error::InvalidOptions { detail })
}

/// Runs `job` (blocking network I/O) on a helper thread while this thread waits detached,
/// checking for signals every [`WAIT_STEP`]: a `KeyboardInterrupt` returns at once, and the
/// helper finishes alone (a result nobody takes is dropped: a lease is released).
fn interruptible<T, F>(py: Python<'_>, job: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let shared = std::sync::Arc::new(Mutex::new(Some(job)));
    let (tx, mut rx) = sync_channel(1);
    let theirs = std::sync::Arc::clone(&shared);
    let spawned = std::thread::Builder::new()
        .name("sno-lease-call".into())
        .spawn(move || {
            let job = theirs.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(job) = job {
                // The receiver may be gone (interrupted): then the result is dropped here.
                let _ = tx.send(job());
            }
        });
    if spawned.is_err() {
        // No thread to be had: run it here, detached (not interruptible, still bounded by the
        // store timeout).
        let job = shared.lock().unwrap_or_else(PoisonError::into_inner).take();
        return match job {
            Some(job) => Ok(py.detach(job)),
            None => Err(PyRuntimeError::new_err(
                "sno: the lease call could not be started",
            )),
        };
    }
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(WAIT_STEP);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "sno: the lease call ended without an answer (it panicked)",
                ));
            }
        }
    }
}

/// Seconds as a `Duration`; anything negative, not finite or too large is an invalid option
/// naming `name`.
fn seconds(py: Python<'_>, value: f64, name: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(value).map_err(|_| {
        invalid_option(
            py,
            format!("{name} must be a finite number of seconds >= 0, not {value}"),
        )
    })
}

/// `(first, last)`: a tuple or list of two partitions, inclusive.
fn partitions(obj: &Bound<'_, PyAny>) -> PyResult<(u16, u16)> {
    let items: Vec<Bound<'_, PyAny>> = if let Ok(t) = obj.cast::<PyTuple>() {
        t.iter().collect()
    } else if let Ok(l) = obj.cast::<PyList>() {
        l.iter().collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "partitions must be a tuple (first, last), not {}",
            obj.get_type().name()?
        )));
    };
    let [first, last] = items.as_slice() else {
        return Err(PyTypeError::new_err(format!(
            "partitions must be (first, last): two ints, not {} items",
            items.len()
        )));
    };
    let one = |v: &Bound<'_, PyAny>| -> PyResult<u16> {
        if !v.is_instance_of::<pyo3::types::PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "partitions must hold ints, not {}",
                v.get_type().name()?
            )));
        }
        v.extract::<u16>().map_err(|_| {
            let shown = v.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string());
            let shown = if shown.len() > 40 {
                "an int beyond 16 bits".to_owned()
            } else {
                shown
            };
            invalid_option(
                v.py(),
                format!("partitions must lie in 0 ..= 65535, not {shown}"),
            )
        })
    };
    Ok((one(first)?, one(last)?))
}

/// A partition leased from PostgreSQL or Redis, renewed in the background until closed.
#[pyclass(frozen, module = "sno._sno", name = "Lease")]
pub(crate) struct PyLease {
    lease: Lease,
    /// Set by `close()` before it releases; in a `fork()` child too, where the lease itself
    /// stays the parent's.
    closed: AtomicBool,
    /// Held by `close()` while it releases, so that a second `close()` returns once released.
    closing: Mutex<()>,
}

impl PyLease {
    /// Runs `acquire` on the interruptible helper thread.
    fn acquire(
        py: Python<'_>,
        acquire: impl FnOnce() -> Result<Lease, Error> + Send + 'static,
    ) -> PyResult<Self> {
        let lease = interruptible(py, acquire)?.map_err(|e| lease_to_py(py, e))?;
        let (closed, closing) = (AtomicBool::new(false), Mutex::new(()));
        Ok(PyLease {
            lease,
            closed,
            closing,
        })
    }

    fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Calls `f` with the open lease, or returns the closed lease's error.
    pub(crate) fn with_open<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&Lease) -> Result<R, Error>,
    ) -> PyResult<R> {
        let result = match self.is_closed() {
            false => f(&self.lease),
            true => Err(Error::Unavailable {
                detail: "the lease is closed",
            }),
        };
        result.map_err(|e| lease_to_py(py, e))
    }

    /// The short description used by `repr()` of the lease and of its generator.
    pub(crate) fn describe(&self) -> String {
        let grant = self.lease.grant();
        let mut utc = [0u8; sno_core::time::UTC_LEN];
        let state = if self.is_closed() {
            "closed".to_owned()
        } else {
            format!(
                "expires={}",
                sno_core::time::format_utc(
                    grant.expires_unix_ms.saturating_mul(1_000_000),
                    &mut utc
                )
            )
        };
        format!(
            "<sno.Lease namespace='{}' partition={} token={} {state}>",
            self.lease.options().namespace(),
            grant.partition,
            grant.token
        )
    }
}

impl Drop for PyLease {
    fn drop(&mut self) {
        // Releasing waits for the store (within the timeout): let other threads run meanwhile.
        // Where the interpreter cannot be attached to (shutting down), dropping the lease
        // closes it all the same.
        let lease = &self.lease;
        Python::try_attach(|py| py.detach(|| lease.close()));
    }
}

#[pymethods]
impl PyLease {
    /// `Lease(url, *, namespace="default", ttl=15.0, partitions=(0, 65535), margin=None,
    /// timeout=10.0)`: leases a free partition of `namespace` from the store at `url`
    /// (`postgres://…`, `postgresql://…`, `redis://…`, `redis+unix://…`) and renews it in the
    /// background every third of `ttl` (seconds) until `close()`.
    #[new]
    #[pyo3(
        signature = (
            url, *, namespace = "default", ttl = 15.0, partitions = (0, 65535), margin = None,
            timeout = 10.0
        ),
        text_signature = "(url, *, namespace='default', ttl=15.0, partitions=(0, 65535), margin=None, timeout=10.0)"
    )]
    fn py_new(
        py: Python<'_>,
        url: String,
        namespace: &str,
        ttl: f64,
        #[pyo3(from_py_with = self::partitions)] partitions: (u16, u16),
        margin: Option<f64>,
        timeout: f64,
    ) -> PyResult<Self> {
        let (ttl, timeout) = (seconds(py, ttl, "ttl")?, seconds(py, timeout, "timeout")?);
        let margin = margin.map(|m| seconds(py, m, "margin")).transpose()?;
        let range = Some(partitions.0..=partitions.1);
        let options = LeaseOptions::from_parts(namespace, range, Some(ttl), margin, Some(timeout))
            .map_err(|e| lease_to_py(py, e))?;
        PyLease::acquire(py, move || Lease::acquire(&url, &options))
    }

    /// A lease configured by the environment: `SNO_LEASE_URL` (required: `ConfigError` with code
    /// `"invalid_environment"` when unset), `SNO_LEASE_NAMESPACE`, `SNO_LEASE_TTL`,
    /// `SNO_LEASE_PARTITIONS`.
    #[staticmethod]
    fn from_env(py: Python<'_>) -> PyResult<Self> {
        PyLease::acquire(py, Lease::from_env)
    }

    /// When the store lets the grant lapse unless it is renewed: an aware UTC `datetime` (the
    /// store's clock).
    #[getter]
    fn expires_at<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        datetime_from_ms(py, self.lease.expires_unix_ms())
    }

    /// Seconds until the grant lapses unless it is renewed, by this machine's clock against the
    /// store's expiry (0.0 once past, and once closed).
    #[getter]
    fn expires_in(&self) -> f64 {
        self.lease.expires_in().as_secs_f64()
    }

    /// Whether the lease is closed.
    #[getter]
    fn closed(&self) -> bool {
        self.is_closed()
    }

    /// The last renewal error (a `LeaseError`, not raised), until a renewal succeeds again
    /// (`None` once closed).
    #[getter]
    fn last_error(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        let error = self.lease.last_error()?;
        Some(lease_to_py(py, error).into_value(py).into_any())
    }

    /// Stops renewing and releases the partition (within the timeout; if the store cannot be
    /// reached the grant simply expires). Its generator raises `LeaseExpiredError` from now
    /// on. Idempotent.
    fn close(&self, py: Python<'_>) {
        py.detach(|| {
            let _closing = self.closing.lock().unwrap_or_else(PoisonError::into_inner);
            self.closed.store(true, Ordering::Release);
            self.lease.close();
        });
    }

    fn __enter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, py: Python<'_>, _exc: &Bound<'_, PyTuple>) -> bool {
        self.close(py);
        false
    }

    fn __repr__(&self) -> String {
        self.describe()
    }
}

/// `sno.Lease`'s properties that read the lease as it is (`name -> type = |lease| value`): a
/// second `#[pymethods]` block.
macro_rules! lease_properties {
    ($($(#[$doc:meta])* $name:ident -> $ty:ty = |$lease:ident| $read:expr;)*) => {
        #[pymethods]
        impl PyLease {
            $($(#[$doc])* #[getter] fn $name(&self) -> $ty { let $lease = &self.lease; $read })*
        }
    };
}

lease_properties! {
    /// The partition leased (a lost lease is replaced by a new partition).
    partition -> u16 = |lease| lease.partition();
    /// The fencing token of the grant: larger than every token granted before it in the
    /// namespace.
    token -> u64 = |lease| lease.token();
    /// `expires_at` in milliseconds since the Unix epoch.
    expires_unix_ms -> i64 = |lease| lease.expires_unix_ms();
    /// The namespace.
    namespace -> &str = |lease| lease.options().namespace();
    /// How many renewals the store granted so far (a new partition after a lost lease counts as
    /// none).
    renewals -> u64 = |lease| lease.renewals();
    /// How many renewals failed so far: the store unreachable or silent, an error, or the lease
    /// found lost (`last_error` says the latest).
    renewal_failures -> u64 = |lease| lease.renewal_failures();
    /// The holder name kept in the store (`host/pid/program/random`: `sno lease status` shows
    /// who holds what).
    holder -> &str = |lease| lease.holder();
    /// The TTL in seconds.
    ttl -> f64 = |lease| lease.options().ttl_duration().as_secs_f64();
    /// How much sooner than the store's expiry the generator stops minting, in seconds.
    margin -> f64 = |lease| lease.options().margin_duration().as_secs_f64();
    /// The range leased from, `(first, last)` inclusive.
    partitions -> (u16, u16) = |lease| lease.options().partition_range().into_inner();
}

/// The fork generation (plus one) in which the process-wide generator was last built: a call
/// in it takes the fast path with the thread attached. Otherwise the first use, which may lease
/// a partition over the network, runs detached and interruptibly.
static PROCESS_READY: AtomicU64 = AtomicU64::new(0);

/// The process-wide generator (`SNO_PARTITION`, `SNO_LEASE_URL`, else a default partition).
/// Its configuration errors are raised at every call.
#[inline]
pub(crate) fn process_generator(py: Python<'_>) -> PyResult<ProcessGenerator> {
    let generation = sno_core::rng::fork_generation().wrapping_add(1);
    if PROCESS_READY.load(Ordering::Acquire) == generation {
        return sno_lease::process_generator().map_err(|e| lease_to_py(py, e));
    }
    process_generator_first(py, generation)
}

#[cold]
fn process_generator_first(py: Python<'_>, generation: u64) -> PyResult<ProcessGenerator> {
    let built = if std::env::var_os("SNO_LEASE_URL").is_some() {
        interruptible(py, sno_lease::process_generator)?
    } else {
        sno_lease::process_generator()
    };
    let g = built.map_err(|e| lease_to_py(py, e))?;
    PROCESS_READY.store(generation, Ordering::Release);
    Ok(g)
}

/// Releases the lease of the process-wide generator (``sno.new()`` with ``SNO_LEASE_URL``), if
/// this process acquired one: its partition can be granted again at once, to a holder whose IDs
/// come after this process's (without it, the partition is free one TTL after the process is
/// gone). Returns whether a lease was released. The package calls it at interpreter exit
/// (``atexit``); call it yourself before ``os._exit()``, or when the process stops minting long
/// before it ends. A later ``sno.new()`` leases a partition anew. Waits for the store at most the
/// lease's timeout (10 s by default), with the GIL released.
#[pyfunction]
fn release_process_lease(py: Python<'_>) -> bool {
    let released = py.detach(sno_lease::release_process_lease);
    if released {
        // The next call builds the process generator anew (detached, interruptibly).
        PROCESS_READY.store(0, Ordering::Release);
    }
    released
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyLease>()?;
    m.add_function(wrap_pyfunction!(release_process_lease, m)?)?;
    Ok(())
}
