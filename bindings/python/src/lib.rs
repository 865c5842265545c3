//! The native module `sno._sno`, re-exported by the `sno` package. It calls `sno-core`
//! directly, never the C ABI.

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
        Error::ClockRegression { .. } => "ClockRegressionError",
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

/// The bytes of an `N`-character ASCII `str`, read without allocating (the limited API of
/// Python 3.9 has no borrowed UTF-8 view), or `None` for any other string.
pub(crate) fn ascii<const N: usize>(s: &Bound<'_, PyString>) -> Option<[u8; N]> {
    // SAFETY: `s` is a live str object; PyUnicode_GetLength only reads it.
    if unsafe { pyo3::ffi::PyUnicode_GetLength(s.as_ptr()) } != N as pyo3::ffi::Py_ssize_t {
        return None;
    }
    let mut wide = [0 as pyo3::ffi::Py_UCS4; N];
    // SAFETY: the buffer holds N code points, the string has exactly N and copy_null is 0,
    // so at most N are written.
    let filled = unsafe {
        pyo3::ffi::PyUnicode_AsUCS4(s.as_ptr(), wide.as_mut_ptr(), N as pyo3::ffi::Py_ssize_t, 0)
    };
    if filled.is_null() {
        // Cannot happen for an N-character str; drop the exception and take the slow path.
        drop(PyErr::take(s.py()));
        return None;
    }
    let mut out = [0u8; N];
    for (o, &w) in out.iter_mut().zip(&wide) {
        *o = u8::try_from(w).ok().filter(u8::is_ascii)?;
    }
    Some(out)
}

/// Strictly decodes a `str`; errors report UTF-8 byte positions, as the core does.
fn decode_str(py: Python<'_>, s: &Bound<'_, PyString>) -> PyResult<Id> {
    let decoded = match ascii::<16>(s) {
        Some(bytes) => Id::decode(&bytes),
        None => Id::decode(s.to_cow()?.as_bytes()),
    };
    decoded.map_err(|e| to_py(py, e))
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
        Id::decode(text.to_cow()?.as_bytes())
            .map(PyId)
            .map_err(|e| to_py(py, e))
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
        let bytes = match ascii::<16>(s) {
            Some(bytes) => bytes,
            // Not 16 ASCII characters: its own decode names the problem.
            None => match Id::decode(s.to_cow()?.as_bytes()) {
                Ok(id) => id.encode_bytes(),
                Err(e) => return Err(item_error(py, index, e)),
            },
        };
        buf.extend_from_slice(&bytes);
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
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ENCODED_LEN", sno_core::ENCODED_LEN)?;
    m.add("BINARY_LEN", sno_core::BINARY_LEN)?;
    Ok(())
}
