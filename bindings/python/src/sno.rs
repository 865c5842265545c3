//! sno's own surface beyond its value class (`formats`; its `from_fields` is generated into
//! `generated`): the hot paths that stay dedicated entries: `sno.new()`, `sno.new_many()`, `sno.Generator`, and the
//! SIMD batch codecs `encode_many` / `decode_many`.

use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use sno_core::{Error, Generator, Id, Snapshot, SnapshotField, Stats, SystemClock};
use sno_lease::{Mint, SnoGenerator};

use crate::batch::{self, list_of, next_id, try_push, try_vec};
use crate::formats::Sno as PyId;
use crate::lease::{self, PyLease};
use crate::values::ascii_str;
use crate::{args, raise_code, text_error, to_py, with_utf8};

#[pymethods]
impl PyId {
    /// Whether all ten bytes are zero.
    fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
}

/// A new ID from the process-wide generator: the partition `SNO_PARTITION` fixes, or one
/// leased from `SNO_LEASE_URL` (each `os.fork()` child leases its own), else a random one
/// (renewed after `os.fork()`).
#[pyfunction]
#[pyo3(name = "new", signature = (meta = 0))]
fn new_id(py: Python<'_>, #[pyo3(from_py_with = args::meta)] meta: u8) -> PyResult<PyId> {
    next_id(py, &lease::process_generator(py)?, meta).map(PyId)
}

/// `n` (at most `MAX_BATCH`) new IDs from the process-wide generator, as a list of `ID`s, or of
/// their text with `as_str=True` (encoded in one SIMD batch).
#[pyfunction]
#[pyo3(signature = (n, meta = 0, *, as_str = false))]
fn new_many<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::count)] n: usize,
    #[pyo3(from_py_with = args::meta)] meta: u8,
    as_str: bool,
) -> PyResult<Bound<'py, PyList>> {
    many(py, &lease::process_generator(py)?, n, meta, as_str)
}

/// `n` new IDs of `g` (a count already checked), as `ID`s or their text; signals are checked
/// between chunks.
fn many<'py, G: Mint>(
    py: Python<'py>,
    g: &G,
    n: usize,
    meta: u8,
    as_str: bool,
) -> PyResult<Bound<'py, PyList>> {
    if !as_str {
        return list_of(py, n, |_| {
            Ok(Bound::new(py, PyId(next_id(py, g, meta)?))?.into_any())
        });
    }
    let mut ids = try_vec(n)?;
    for i in 0..n {
        batch::chunk_check(py, i)?;
        ids.push(next_id(py, g, meta)?);
    }
    strings(py, &ids)
}

/// The text of `ids` as a list of `str`, encoded in one batch.
fn strings<'py>(py: Python<'py>, ids: &[Id]) -> PyResult<Bound<'py, PyList>> {
    let len = ids.len() * sno_core::ENCODED_LEN;
    let mut text = try_vec(len)?;
    text.resize(len, 0u8);
    Id::encode_many(ids, &mut text).map_err(|e| to_py(py, e))?;
    let mut chunks = text.chunks_exact(sno_core::ENCODED_LEN);
    list_of(py, ids.len(), |_| {
        // The codec writes only alphabet bytes (ASCII).
        let chunk = chunks.next().unwrap_or_default();
        Ok(ascii_str(py, chunk)?.into_any())
    })
}

/// Encodes many IDs at once (SIMD): a list of their 16-character strings.
#[pyfunction]
fn encode_many<'py>(py: Python<'py>, ids: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let mut out = Vec::new();
    for item in ids.try_iter()? {
        let item = item?;
        match item.cast::<PyId>() {
            Ok(id) => try_push(&mut out, id.get().0)?,
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "sno.encode_many() takes sno.ID items, not {}",
                    item.get_type().name()?
                )));
            }
        }
    }
    strings(py, &out)
}

/// A decode error for item `index` of a batch: the item's own error, with `.index` set and the
/// message prefixed with the item.
fn item_error(py: Python<'_>, index: usize, err: PyErr) -> PyErr {
    let value = err.value(py);
    let _ = value.setattr("index", index);
    if let Ok(msg) = value.str() {
        let _ = value.setattr("args", (format!("item {index}: {msg}"),));
    }
    err
}

/// The IDs of the strings collected in `buf` (16 bytes each, one SIMD pass), or the error of
/// the first bad one (with `.index`).
fn decode_buf(py: Python<'_>, buf: &[u8]) -> PyResult<Result<Vec<Id>, PyErr>> {
    let n = buf.len() / sno_core::ENCODED_LEN;
    let mut ids = try_vec(n)?;
    ids.resize(n, Id::ZERO);
    Ok(Id::decode_many(buf, &mut ids)
        .map(|()| ids)
        .map_err(|e| match (e, Id::batch_index(&e)) {
            (Error::InvalidByte { position, byte }, Some(index)) => {
                let e = Error::InvalidByte {
                    position: position - index * sno_core::ENCODED_LEN,
                    byte,
                };
                item_error(py, index, to_py(py, e))
            }
            (other, index) => item_error(py, index.unwrap_or(0), to_py(py, other)),
        }))
}

/// Strictly decodes many strings at once (SIMD): a list of `ID`s. A bad item raises
/// `DecodeError` with `.index` (the first bad item) and `.position` (within it).
#[pyfunction]
fn decode_many<'py>(py: Python<'py>, texts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let mut buf: Vec<u8> = Vec::new();
    for (index, item) in texts.try_iter()?.enumerate() {
        let item = item?;
        let Ok(s) = item.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "sno.decode_many() takes str items, not {}",
                item.get_type().name()?
            )));
        };
        let bad = with_utf8(s, |text| -> PyResult<Option<PyErr>> {
            if text.len() == sno_core::ENCODED_LEN && text.is_ascii() {
                // Checked in the batch below.
                if buf.len() == buf.capacity() {
                    buf.try_reserve(buf.capacity().max(1024))
                        .map_err(|_| PyMemoryError::new_err("cannot allocate the text buffer"))?;
                }
                buf.extend_from_slice(text);
                return Ok(None);
            }
            // Not 16 ASCII bytes: its own decode names the problem.
            Ok(Id::decode(text).err().map(|e| text_error(py, text, e)))
        })??;
        if let Some(err) = bad {
            // An earlier item may be bad too: the first one is reported.
            return Err(decode_buf(py, &buf)?
                .err()
                .unwrap_or_else(|| item_error(py, index, err)));
        }
    }
    let ids = decode_buf(py, &buf)??;
    list_of(py, ids.len(), |i| {
        let id = ids.get(i).copied().unwrap_or(Id::ZERO); // i < ids.len()
        Ok(Bound::new(py, PyId(id))?.into_any())
    })
}

/// A thread-safe generator with its own partition and sequence bounds, or a lease's.
#[pyclass(frozen, subclass, module = "sno._sno", name = "Generator")]
struct PyGenerator {
    /// On the heap: the core's generator is aligned to 128 bytes (its cache-padded state), more
    /// than a Python object's memory is.
    inner: Box<SnoGenerator>,
    /// A leased generator's lease, kept open as long as the generator lives.
    lease: Option<Py<PyLease>>,
}

/// The snapshot a dict holds: every key of the core's `Snapshot::FIELDS`, each an int its field
/// holds (checked in the list's order: the first bad field is the one reported).
fn snapshot_from_dict(py: Python<'_>, d: &Bound<'_, PyDict>) -> PyResult<Snapshot> {
    let fields = Snapshot::FIELDS;
    let known = |k: &str| fields.iter().any(|f| f.name == k);
    for key in d.keys() {
        if !key.extract::<&str>().is_ok_and(known) {
            let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
            return Err(raise_code(
                py,
                "ConfigError",
                "unknown_snapshot_key",
                format!(
                    "unknown snapshot key {}; the keys are {}",
                    key.repr()?,
                    names.join(", ")
                ),
            ));
        }
    }
    let outside = |f: &SnapshotField, shown: &str| {
        let (k, lo, hi) = (f.name, f.min, f.max);
        let message = format!("snapshot {k:?} = {shown} is outside {lo}..={hi}");
        raise_code(py, "ConfigError", "invalid_snapshot", message)
    };
    let mut values = [0i64; 8];
    for (f, value) in fields.iter().zip(&mut values) {
        let k = f.name;
        let v = d.get_item(k)?.ok_or_else(|| {
            let message = format!("snapshot lacks {k:?}");
            raise_code(py, "ConfigError", "missing_snapshot_key", message)
        })?;
        if !v.is_instance_of::<pyo3::types::PyInt>() {
            let message = format!(
                "snapshot {k:?} must be an int, not {}",
                v.get_type().name()?
            );
            return Err(PyTypeError::new_err(message));
        }
        let n = v.extract::<i128>().ok();
        let shown = || n.map_or("an int beyond 128 bits".into(), |n| n.to_string());
        *value = n
            .and_then(|n| i64::try_from(n).ok())
            .filter(|n| (f.min..=f.max).contains(n))
            .ok_or_else(|| outside(f, &shown()))?;
    }
    Snapshot::from_values(values).map_err(|i| outside(&fields[i], &values[i].to_string()))
}

// A Python object's memory is aligned to 16 bytes: what the class holds inline must need no more.
const _: () = assert!(align_of::<PyGenerator>() <= 16);

// The signature spells the default maximum wait as a literal, so that Python shows its value.
const _: () = assert!(sno_core::time::DEFAULT_MAX_WAIT.as_millis() == 5000);

#[pymethods]
impl PyGenerator {
    /// `Generator(partition=None, sequence_min=0, sequence_max=65535, snapshot=None, *,
    /// max_wait_ms=5000, lease=None)`: without a partition, a per-process default is used;
    /// `snapshot` (a dict from `.snapshot()`) restores a saved state (its partition is kept
    /// unless `partition` is given); `lease` (a `sno.Lease`) makes the lease's self-fencing
    /// generator, which takes the leased partition and mints only while the lease holds. A
    /// `partition` or `snapshot` while `SNO_LEASE_URL` is set is a `ConfigError` (code
    /// `"invalid_environment"`): another process of the fleet may hold that partition by lease.
    #[new]
    #[pyo3(signature = (
        partition = None, sequence_min = 0, sequence_max = 65535, snapshot = None, *,
        max_wait_ms = 5000, lease = None, clock = None
    ))]
    #[allow(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn py_new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::opt_partition)] partition: Option<u16>,
        #[pyo3(from_py_with = args::sequence_min)] sequence_min: u16,
        #[pyo3(from_py_with = args::sequence_max)] sequence_max: u16,
        snapshot: Option<&Bound<'_, PyDict>>,
        #[pyo3(from_py_with = args::max_wait_ms)] max_wait_ms: u32,
        lease: Option<Bound<'_, PyLease>>,
        #[pyo3(from_py_with = args::clock)] clock: Option<SystemClock>,
    ) -> PyResult<Self> {
        let b = Generator::builder()
            .clock(clock.unwrap_or_default())
            .sequence_bounds(sequence_min, sequence_max)
            .max_wait(std::time::Duration::from_millis(max_wait_ms.into()));
        let snapshot = snapshot.map(|s| snapshot_from_dict(py, s)).transpose()?;
        if let Some(lease) = lease {
            let inner = lease
                .get()
                .with_open(py, |l| SnoGenerator::leased(l, b, partition, snapshot))?;
            let inner = Box::new(inner);
            let lease = Some(lease.unbind());
            return Ok(PyGenerator { inner, lease });
        }
        let inner = SnoGenerator::plain(b, partition, snapshot).map_err(|e| to_py(py, e))?;
        Ok(PyGenerator {
            inner: Box::new(inner),
            lease: None,
        })
    }

    /// The next ID; waits (sleeping, with the GIL released, interruptible) if this 4 ms unit's
    /// pool is used up or the clock went back, for at most `max_wait_ms` (5 s by default; then
    /// the error `try_new` gives). Raises `ForkedGeneratorError` in a `fork()` child for an
    /// explicit partition (see `repartition`), `TimeRangeError` for a clock outside 2010 … 2079;
    /// a leased generator waits for a renewal, then raises `LeaseExpiredError`.
    #[pyo3(name = "new", signature = (meta = 0))]
    fn next(&self, py: Python<'_>, #[pyo3(from_py_with = args::meta)] meta: u8) -> PyResult<PyId> {
        next_id(py, &*self.inner, meta).map(PyId)
    }

    /// `n` (at most `MAX_BATCH`) new IDs, as a list of `ID`s or (`as_str=True`) their text;
    /// waits as `new` does.
    #[pyo3(signature = (n, meta = 0, *, as_str = false))]
    fn new_many<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::count)] n: usize,
        #[pyo3(from_py_with = args::meta)] meta: u8,
        as_str: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        many(py, &*self.inner, n, meta, as_str)
    }

    /// The next ID, or at once `SequenceExhaustedError` / `ClockRegressionError` (and
    /// `LeaseExpiredError` for a leased generator whose lease does not cover the clock).
    #[pyo3(signature = (meta = 0))]
    fn try_new(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::meta)] meta: u8,
    ) -> PyResult<PyId> {
        self.inner
            .try_next(meta)
            .map(PyId)
            .map_err(|e| to_py(py, e))
    }

    /// An ID for a given time in Unix nanoseconds, with its own wrapping sequence; a time outside
    /// 2010 .. 2079-09-07 is a `TimeRangeError`. Not for a leased generator.
    fn new_at_unix_ns(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::meta)] meta: u8,
        #[pyo3(from_py_with = args::time_i64)] unix_ns: i64,
    ) -> PyResult<PyId> {
        self.inner
            .next_at_unix_ns(meta, unix_ns)
            .map(PyId)
            .map_err(|e| to_py(py, e))
    }

    /// The old name of `new_at_unix_ns` (a `DeprecationWarning`).
    fn new_with_unix_ns(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::meta)] meta: u8,
        #[pyo3(from_py_with = args::time_i64)] unix_ns: i64,
    ) -> PyResult<PyId> {
        crate::errors::deprecated(py, "new_with_unix_ns", "new_at_unix_ns")?;
        self.new_at_unix_ns(py, meta, unix_ns)
    }

    /// The state as a dict of ints (JSON-friendly); pass it back as `snapshot=`. Not for a
    /// leased generator (its lease, not a snapshot, keeps it unique).
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.inner.snapshot().map_err(|e| to_py(py, e))?;
        let d = PyDict::new(py);
        for (f, v) in Snapshot::FIELDS.iter().zip(s.to_values()) {
            d.set_item(f.name, v)?;
        }
        Ok(d)
    }

    /// Counters of overflows, regressions and waits, as a dict.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (f, v) in Stats::FIELDS.iter().zip(self.inner.stats().to_values()) {
            d.set_item(f.name, v)?;
        }
        Ok(d)
    }

    /// The partition stamped into every ID (a leased generator's follows its lease).
    #[getter]
    fn partition(&self) -> u16 {
        self.inner.partition()
    }

    /// The lease of a leased generator, else `None`.
    #[getter]
    fn lease(&self, py: Python<'_>) -> Option<Py<PyLease>> {
        self.lease.as_ref().map(|l| l.clone_ref(py))
    }

    /// Gives the generator a new partition: in a `fork()` child, a generator with an explicit
    /// partition raises `ForkedGeneratorError` until it has one of its own. Not for a leased
    /// generator (in a child, lease a partition of the child's own), nor while `SNO_LEASE_URL`
    /// is set (`ConfigError`, code `"invalid_environment"`: another process may hold the
    /// partition by lease).
    fn repartition(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::partition)] partition: u16,
    ) -> PyResult<()> {
        self.inner.repartition(partition).map_err(|e| to_py(py, e))
    }

    /// The longest `new()` waits (ms) before raising the error `try_new` gives; also how far
    /// ahead of the clock a restored snapshot may reach.
    #[getter]
    fn max_wait_ms(&self) -> u128 {
        self.inner.max_wait().as_millis()
    }

    /// Lower sequence bound.
    #[getter]
    fn sequence_min(&self) -> u16 {
        self.inner.sequence_min()
    }

    /// Upper sequence bound.
    #[getter]
    fn sequence_max(&self) -> u16 {
        self.inner.sequence_max()
    }

    /// IDs per 4 ms unit.
    #[getter]
    fn capacity(&self) -> u32 {
        self.inner.capacity()
    }

    fn __repr__(&self) -> String {
        let lease = match &self.lease {
            None => String::new(),
            Some(l) => format!("lease={}, ", l.get().describe()),
        };
        format!(
            "sno.Generator({lease}partition={}, sequence_min={}, sequence_max={})",
            self.partition(),
            self.sequence_min(),
            self.sequence_max()
        )
    }
}

/// Adds sno's functions and generator class to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGenerator>()?;
    m.add_function(wrap_pyfunction!(new_id, m)?)?;
    m.add_function(wrap_pyfunction!(new_many, m)?)?;
    m.add_function(wrap_pyfunction!(encode_many, m)?)?;
    m.add_function(wrap_pyfunction!(decode_many, m)?)?;
    Ok(())
}
