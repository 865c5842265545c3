//! The native module `sno._sno`, re-exported by the `sno` package. It calls `sno-core`
//! directly, never the C ABI.

mod flakes;
mod formats;

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};
use sno_core::{Error, Generator, Id, Snapshot, SystemClock};

/// The exception classes of `sno._errors` (a Python module, so that each can be both a
/// `SnoError` and a `ValueError`/`RuntimeError`), looked up once.
static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn error_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyType>> {
    let module = ERRORS.get_or_try_init(py, || py.import("sno._errors").map(Bound::unbind))?;
    Ok(module.bind(py).getattr(name)?.cast_into::<PyType>()?)
}

pub(crate) fn raise(py: Python<'_>, class: &str, msg: String) -> PyErr {
    match error_class(py, class) {
        Ok(cls) => PyErr::from_type(cls, msg),
        Err(lookup) => lookup,
    }
}

/// Maps a core error to its Python exception, with `code` and the fields as attributes.
pub(crate) fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let class = match e {
        Error::InvalidLength { .. }
        | Error::InvalidByte { .. }
        | Error::ValueOverflow
        | Error::NotVersion7 { .. } => "DecodeError",
        Error::TimeOutOfRange { .. }
        | Error::ClockOutOfRange { .. }
        | Error::TimestampOverflow { .. }
        | Error::MillisOutOfRange { .. } => "TimeRangeError",
        Error::RandomnessExhausted { .. } => "RandomnessExhaustedError",
        Error::SequenceExhausted { .. } => "SequenceExhaustedError",
        Error::ClockRegression { .. } | Error::ClockRollback { .. } => "ClockRegressionError",
        _ => "ConfigError",
    };
    let err = raise(py, class, e.to_string());
    let value = err.value(py);
    let _ = value.setattr("code", e.code());
    match e {
        Error::InvalidByte { position, byte } => {
            let _ = value.setattr("position", position);
            let _ = value.setattr("byte", byte);
        }
        Error::InvalidLength { actual, .. } => {
            let _ = value.setattr("position", actual);
            let _ = value.setattr("byte", py.None());
        }
        // The whole value is at fault, not one byte.
        Error::ValueOverflow | Error::NotVersion7 { .. } => {
            let _ = value.setattr("position", py.None());
            let _ = value.setattr("byte", py.None());
        }
        _ => {}
    }
    if let Some(at) = e.retry_at_unix_nanos() {
        let _ = value.setattr("retry_at_unix_ns", at);
    }
    err
}

/// A sno ID: immutable, hashable, ordered by time; `str()` is the 16-character form.
#[pyclass(frozen, eq, ord, hash, module = "sno", name = "ID")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct PyId(Id);

static FROMTIMESTAMP: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static UTC: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

pub(crate) fn datetime_from_ms<'py>(py: Python<'py>, ms: i64) -> PyResult<Bound<'py, PyAny>> {
    let utc = UTC.get_or_try_init(py, || -> PyResult<_> {
        Ok(py
            .import("datetime")?
            .getattr("timezone")?
            .getattr("utc")?
            .unbind())
    })?;
    let f = FROMTIMESTAMP.get_or_try_init(py, || -> PyResult<_> {
        Ok(py
            .import("datetime")?
            .getattr("datetime")?
            .getattr("fromtimestamp")?
            .unbind())
    })?;
    f.bind(py).call1((ms as f64 / 1000.0, utc.bind(py)))
}

#[cfg(not(windows))]
unsafe extern "C" {
    /// CPython's borrowed UTF-8 view of a `str`. Exported by every CPython 3.x (part of the
    /// limited API only from 3.10, with the same signature since 3.3), so an abi3 wheel for 3.9
    /// may call it on Unix, where symbols resolve against the running interpreter. On Windows an
    /// abi3 module links to `python3.dll`, which exports it only from 3.10: there the copying
    /// path below is used.
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::ffi::c_char;
}

/// Calls `f` with the UTF-8 bytes of `s`: borrowed from the string object without copying
/// (CPython keeps a `str`'s UTF-8 form; an ASCII `str` is its own), else through a copy. A `str`
/// with lone surrogates gets them encoded as UTF-8 bytes, which every decoder rejects.
pub(crate) fn with_utf8<R>(s: &Bound<'_, PyString>, f: impl FnOnce(&[u8]) -> R) -> PyResult<R> {
    #[cfg(not(windows))]
    {
        let mut len: pyo3::ffi::Py_ssize_t = 0;
        // SAFETY: `s` is a live str object; on success the function returns a pointer to `len`
        // bytes owned by the string, which outlives this call (we hold a reference to it).
        let ptr = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut len) };
        if !ptr.is_null() {
            // SAFETY: see above; `len` is non-negative on success.
            let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len as usize) };
            return Ok(f(bytes));
        }
        // Lone surrogates: no UTF-8 form. Drop the UnicodeEncodeError, take the slow path.
        drop(PyErr::take(s.py()));
    }
    Ok(f(s.to_cow()?.as_bytes()))
}

/// Strictly decodes a `str`; errors report UTF-8 byte positions, as the core does.
fn decode_str(py: Python<'_>, s: &Bound<'_, PyString>) -> PyResult<Id> {
    with_utf8(s, Id::decode)?.map_err(|e| to_py(py, e))
}

fn decode_any(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Id> {
    if let Ok(s) = value.cast::<PyString>() {
        return decode_str(py, s);
    }
    if let Ok(b) = value.cast::<PyBytes>() {
        return Id::from_slice(b.as_bytes()).map_err(|e| to_py(py, e));
    }
    if let Ok(id) = value.cast::<PyId>() {
        return Ok(id.get().0);
    }
    Err(PyTypeError::new_err(format!(
        "sno.ID() takes a str (16 chars) or bytes (10), not {}",
        value.get_type().name()?
    )))
}

#[pymethods]
impl PyId {
    /// `ID("brpk4q72xwf2m63l")` decodes text strictly; `ID(b"...")` takes the 10 raw bytes.
    #[new]
    fn py_new(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        decode_any(py, value).map(PyId)
    }

    /// Strictly decodes the 16-character text form.
    #[staticmethod]
    fn from_str(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<Self> {
        decode_str(py, text).map(PyId)
    }

    /// Takes the 10-byte binary form.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        Id::from_slice(data).map(PyId).map_err(|e| to_py(py, e))
    }

    fn __str__<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        let mut buf = [0u8; sno_core::ENCODED_LEN];
        PyString::new(py, self.0.encode(&mut buf))
    }

    fn __repr__(&self) -> String {
        let mut utc = [0u8; sno_core::time::UTC_LEN];
        format!(
            "sno.ID('{}', time='{}', meta={}, partition={}, sequence={}, tick_tock={})",
            self.0,
            sno_core::time::format_utc(self.0.unix_nanos(), &mut utc),
            self.0.meta(),
            self.0.partition(),
            self.0.sequence(),
            if self.0.tick_tock() { "True" } else { "False" }
        )
    }

    fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.as_bytes())
    }

    /// The 10-byte binary form.
    #[getter]
    fn bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.as_bytes())
    }

    /// Start of the ID's 4 ms unit as an aware UTC `datetime`.
    #[getter]
    fn timestamp<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        datetime_from_ms(py, self.0.unix_millis())
    }

    /// Start of the ID's 4 ms unit in nanoseconds since the Unix epoch.
    #[getter]
    fn unix_ns(&self) -> i64 {
        self.0.unix_nanos()
    }

    /// Start of the ID's 4 ms unit in milliseconds since the Unix epoch.
    #[getter]
    fn unix_ms(&self) -> i64 {
        self.0.unix_millis()
    }

    /// The raw timestamp: 4 ms units since 2010-01-01T00:00:00Z.
    #[getter]
    fn units(&self) -> u64 {
        self.0.timestamp()
    }

    /// The meta byte.
    #[getter]
    fn meta(&self) -> u8 {
        self.0.meta()
    }

    /// The partition.
    #[getter]
    fn partition(&self) -> u16 {
        self.0.partition()
    }

    /// The sequence.
    #[getter]
    fn sequence(&self) -> u16 {
        self.0.sequence()
    }

    /// The tick-tock bit (flips when the generator survives a clock regression).
    #[getter]
    fn tick_tock(&self) -> bool {
        self.0.tick_tock()
    }

    /// Whether all ten bytes are zero.
    fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        pickle_reduce(slf.as_any(), slf.get().0.as_bytes())
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// `__reduce__` of an ID class: rebuild with `type(obj).from_bytes(raw)`.
pub(crate) fn pickle_reduce<'py>(
    obj: &Bound<'py, PyAny>,
    raw: &[u8],
) -> PyResult<Bound<'py, PyTuple>> {
    let py = obj.py();
    let ctor = obj.get_type().getattr("from_bytes")?;
    let args = PyTuple::new(py, [PyBytes::new(py, raw)])?;
    PyTuple::new(py, [ctor, args.into_any()])
}

/// Generates on `g`: the lock-free attempt with the GIL held, and only when the 4 ms pool is
/// used up (or the clock regressed) the blocking wait, with the thread detached.
fn next_id(py: Python<'_>, g: &Generator<SystemClock>, meta: u8) -> PyResult<Id> {
    match g.try_next(meta) {
        Ok(id) => Ok(id),
        Err(Error::SequenceExhausted { .. } | Error::ClockRegression { .. }) => {
            py.detach(|| g.next(meta)).map_err(|e| to_py(py, e))
        }
        Err(e) => Err(to_py(py, e)),
    }
}

/// A new ID from the process-wide generator (random partition, renewed after `os.fork()`).
#[pyfunction]
#[pyo3(name = "new", signature = (meta = 0))]
fn new_id(py: Python<'_>, meta: u8) -> PyResult<PyId> {
    next_id(py, sno_core::global_generator(), meta).map(PyId)
}

/// `n` new IDs from the process-wide generator, as a list of `ID`s, or of their text with
/// `as_str=True` (encoded in one SIMD batch).
#[pyfunction]
#[pyo3(signature = (n, meta = 0, *, as_str = false))]
fn new_many<'py>(
    py: Python<'py>,
    n: usize,
    meta: u8,
    as_str: bool,
) -> PyResult<Bound<'py, PyList>> {
    let g = sno_core::global_generator();
    let ids = (0..n)
        .map(|_| next_id(py, g, meta))
        .collect::<PyResult<Vec<_>>>()?;
    if as_str {
        strings(py, &ids)
    } else {
        PyList::new(py, ids.into_iter().map(PyId))
    }
}

/// The text of `ids` as a list of `str`, encoded in one batch.
fn strings<'py>(py: Python<'py>, ids: &[Id]) -> PyResult<Bound<'py, PyList>> {
    let mut text = vec![0u8; ids.len() * sno_core::ENCODED_LEN];
    Id::encode_many(ids, &mut text).map_err(|e| to_py(py, e))?;
    let chunks = text.chunks_exact(sno_core::ENCODED_LEN).map(|chunk| {
        // The codec writes only alphabet bytes (ASCII).
        PyString::new(py, std::str::from_utf8(chunk).unwrap_or_default())
    });
    PyList::new(py, chunks)
}

/// Encodes many IDs at once (SIMD): a list of their 16-character strings.
#[pyfunction]
fn encode_many<'py>(py: Python<'py>, ids: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let ids = ids
        .try_iter()?
        .map(|item| {
            let item = item?;
            match item.cast::<PyId>() {
                Ok(id) => Ok(id.get().0),
                Err(_) => Err(PyTypeError::new_err(format!(
                    "sno.encode_many() takes sno.ID items, not {}",
                    item.get_type().name()?
                ))),
            }
        })
        .collect::<PyResult<Vec<Id>>>()?;
    strings(py, &ids)
}

/// A decode error for item `index` of a batch: the item's own error, with `.index` set.
fn item_error(py: Python<'_>, index: usize, e: Error) -> PyErr {
    let err = to_py(py, e);
    let value = err.value(py);
    let _ = value.setattr("index", index);
    let _ = value.setattr("args", (format!("item {index}: {e}"),));
    err
}

/// Strictly decodes many strings at once (SIMD): a list of `ID`s. A bad item raises
/// `DecodeError` with `.index` (the item) and `.position` (within it).
#[pyfunction]
fn decode_many<'py>(py: Python<'py>, texts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let mut buf = Vec::new();
    for (index, item) in texts.try_iter()?.enumerate() {
        let item = item?;
        let Ok(s) = item.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "sno.decode_many() takes str items, not {}",
                item.get_type().name()?
            )));
        };
        let bad = with_utf8(s, |text| match text.len() {
            // Checked in the batch below.
            sno_core::ENCODED_LEN => {
                buf.extend_from_slice(text);
                None
            }
            // Not 16 bytes: its own decode names the problem.
            _ => Id::decode(text).err(),
        })?;
        if let Some(e) = bad {
            return Err(item_error(py, index, e));
        }
    }
    let mut ids = vec![Id::ZERO; buf.len() / sno_core::ENCODED_LEN];
    if let Err(e) = Id::decode_many(&buf, &mut ids) {
        let (index, e) = match e {
            Error::InvalidByte { position, byte } => (
                position / sno_core::ENCODED_LEN,
                Error::InvalidByte {
                    position: position % sno_core::ENCODED_LEN,
                    byte,
                },
            ),
            other => (0, other),
        };
        return Err(item_error(py, index, e));
    }
    PyList::new(py, ids.into_iter().map(PyId))
}

/// A thread-safe generator with its own partition and sequence bounds.
#[pyclass(frozen, subclass, module = "sno._sno", name = "Generator")]
struct PyGenerator {
    inner: Arc<Generator<SystemClock>>,
}

const SNAPSHOT_KEYS: [&str; 8] = [
    "partition",
    "sequence_min",
    "sequence_max",
    "sequence",
    "now",
    "wall_hi",
    "wall_safe",
    "drifts",
];

fn snapshot_from_dict(py: Python<'_>, d: &Bound<'_, PyDict>) -> PyResult<Snapshot> {
    for key in d.keys() {
        let key: String = key.extract()?;
        if !SNAPSHOT_KEYS.contains(&key.as_str()) {
            return Err(raise(
                py,
                "ConfigError",
                format!("unknown snapshot key {key:?}"),
            ));
        }
    }
    let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(k)?
            .ok_or_else(|| raise(py, "ConfigError", format!("snapshot lacks {k:?}")))
    };
    let field = |k: &str| -> PyResult<i128> {
        get(k)?
            .extract::<i128>()
            .map_err(|_| PyTypeError::new_err(format!("snapshot {k:?} must be an int")))
    };
    let ranged = |k: &str, max: i128| -> PyResult<i128> {
        let v = field(k)?;
        if !(0..=max).contains(&v) {
            return Err(raise(
                py,
                "ConfigError",
                format!("snapshot {k:?} = {v} is outside 0..={max}"),
            ));
        }
        Ok(v)
    };
    let time = |k: &str| -> PyResult<i64> {
        let v = field(k)?;
        i64::try_from(v).map_err(|_| {
            raise(
                py,
                "ConfigError",
                format!("snapshot {k:?} = {v} does not fit in 64 bits"),
            )
        })
    };
    Ok(Snapshot {
        partition: ranged("partition", 65535)? as u16,
        sequence_min: ranged("sequence_min", 65535)? as u16,
        sequence_max: ranged("sequence_max", 65535)? as u16,
        sequence: ranged("sequence", u32::MAX as i128)? as u32,
        now: time("now")?,
        wall_hi: time("wall_hi")?,
        wall_safe: time("wall_safe")?,
        drifts: ranged("drifts", u32::MAX as i128)? as u32,
    })
}

#[pymethods]
impl PyGenerator {
    /// `Generator(partition=None, sequence_min=0, sequence_max=65535, snapshot=None)`: without a
    /// partition, a per-process default is used; `snapshot` (a dict from `.snapshot()`) restores
    /// a saved state (its partition is kept unless `partition` is given).
    #[new]
    #[pyo3(signature = (partition = None, sequence_min = 0, sequence_max = 65535, snapshot = None))]
    fn py_new(
        py: Python<'_>,
        partition: Option<u16>,
        sequence_min: u16,
        sequence_max: u16,
        snapshot: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mut b = Generator::builder().sequence_bounds(sequence_min, sequence_max);
        if let Some(s) = snapshot {
            b = b.snapshot(snapshot_from_dict(py, s)?);
        }
        if let Some(p) = partition {
            b = b.partition(p);
        }
        let g = b.build().map_err(|e| to_py(py, e))?;
        Ok(PyGenerator { inner: Arc::new(g) })
    }

    /// The next ID; waits (sleeping, with the GIL released) if this 4 ms unit's pool is used up.
    #[pyo3(name = "new", signature = (meta = 0))]
    fn next(&self, py: Python<'_>, meta: u8) -> PyResult<PyId> {
        next_id(py, &self.inner, meta).map(PyId)
    }

    /// The next ID, or at once `SequenceExhaustedError` / `ClockRegressionError`.
    #[pyo3(signature = (meta = 0))]
    fn try_new(&self, py: Python<'_>, meta: u8) -> PyResult<PyId> {
        self.inner
            .try_next(meta)
            .map(PyId)
            .map_err(|e| to_py(py, e))
    }

    /// An ID for a given time in Unix nanoseconds, with its own wrapping sequence.
    fn new_with_unix_ns(&self, py: Python<'_>, meta: u8, unix_ns: i64) -> PyResult<PyId> {
        self.inner
            .new_with_unix_nanos(meta, unix_ns)
            .map(PyId)
            .map_err(|e| to_py(py, e))
    }

    /// The state as a dict of ints (JSON-friendly); pass it back as `snapshot=`.
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.inner.snapshot();
        let d = PyDict::new(py);
        d.set_item("partition", s.partition)?;
        d.set_item("sequence_min", s.sequence_min)?;
        d.set_item("sequence_max", s.sequence_max)?;
        d.set_item("sequence", s.sequence)?;
        d.set_item("now", s.now)?;
        d.set_item("wall_hi", s.wall_hi)?;
        d.set_item("wall_safe", s.wall_safe)?;
        d.set_item("drifts", s.drifts)?;
        Ok(d)
    }

    /// Counters of overflows, regressions and waits, as a dict.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.inner.stats();
        let d = PyDict::new(py);
        d.set_item("overflows", s.overflows)?;
        d.set_item("overflow_episodes", s.overflow_episodes)?;
        d.set_item("drifts", s.drifts)?;
        d.set_item("regressions", s.regressions)?;
        d.set_item("waits", s.waits)?;
        Ok(d)
    }

    /// The partition stamped into every ID.
    #[getter]
    fn partition(&self) -> u16 {
        self.inner.partition()
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
        format!(
            "sno.Generator(partition={}, sequence_min={}, sequence_max={})",
            self.inner.partition(),
            self.inner.sequence_min(),
            self.inner.sequence_max()
        )
    }
}

/// The native part of the `sno` package.
#[pymodule(gil_used = false)]
fn _sno(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyId>()?;
    m.add_class::<PyGenerator>()?;
    m.add_function(wrap_pyfunction!(new_id, m)?)?;
    m.add_function(wrap_pyfunction!(new_many, m)?)?;
    m.add_function(wrap_pyfunction!(encode_many, m)?)?;
    m.add_function(wrap_pyfunction!(decode_many, m)?)?;
    formats::register(m)?;
    flakes::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ENCODED_LEN", sno_core::ENCODED_LEN)?;
    m.add("BINARY_LEN", sno_core::BINARY_LEN)?;
    Ok(())
}
