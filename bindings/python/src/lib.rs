//! The native module `sno._sno`, re-exported by the `sno` package. It calls `sno-core`
//! directly, never the C ABI.

mod args;
mod batch;
mod cli;
mod flakes;
mod formats;
mod lease;

use std::sync::Arc;

use pyo3::exceptions::PyMemoryError;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};
use sno_core::{Error, Generator, Id, Snapshot, SystemClock};

use crate::batch::{Mint, list_of, next_id, try_push, try_vec};
use crate::lease::PyLease;

/// The exception classes of `sno._errors` (a Python module, so that each can be both a
/// `SnoError` and a `ValueError`/`RuntimeError`), looked up once.
static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn error_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyType>> {
    let module = ERRORS.get_or_try_init(py, || py.import("sno._errors").map(Bound::unbind))?;
    Ok(module.bind(py).getattr(name)?.cast_into::<PyType>()?)
}

/// An exception of class `class` (of `sno._errors`) with `code` and message `msg`.
pub(crate) fn raise_code(py: Python<'_>, class: &str, code: &str, msg: String) -> PyErr {
    let err = match error_class(py, class) {
        Ok(cls) => PyErr::from_type(cls, msg),
        Err(lookup) => return lookup,
    };
    let _ = err.value(py).setattr("code", code);
    err
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
        Error::Forked { .. } => "ForkedGeneratorError",
        Error::RandomnessUnavailable => "RandomnessUnavailableError",
        Error::LeaseExpired { .. } => "LeaseExpiredError",
        // InvalidEnvironment (SNO_PARTITION) is a setting, as are the errors below.
        // BatchTooLarge, SnapshotAhead, InvalidSnapshot, InvalidSequenceBounds, … (settings).
        _ => "ConfigError",
    };
    let err = raise_code(py, class, e.code(), e.to_string());
    let value = err.value(py);
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
        Error::Forked { partition } | Error::LeaseExpired { partition } => {
            let _ = value.setattr("partition", partition);
        }
        Error::InvalidEnvironment { variable, .. } => {
            let _ = value.setattr("variable", variable);
        }
        _ => {}
    }
    if e.is_retryable() {
        // Always set for the errors that say when to retry: None when no retry can ever
        // succeed (a sno generator past 2079).
        let _ = value.setattr("retry_at_unix_ns", e.retry_at_unix_nanos());
    }
    err
}

/// The error of strictly decoding the UTF-8 bytes `text` of a `str`. `.position` is a byte
/// offset into them (the rule of every layer); text that is not all ASCII (no valid ID is)
/// gets a message that says so and names the character at fault and its index.
pub(crate) fn text_error(py: Python<'_>, text: &[u8], e: Error) -> PyErr {
    let err = to_py(py, e);
    if text.is_ascii() {
        return err;
    }
    let msg = match e {
        Error::InvalidLength { expected, actual } => format!(
            "sno: invalid length {actual} bytes (the UTF-8 form of {} characters, not all \
             ASCII), expected {expected}",
            char_count(text)
        ),
        Error::InvalidByte { position, byte } => format!(
            "sno: invalid byte 0x{byte:02x} at byte position {position} of the UTF-8 text \
             ({} at character index {}): not in the alphabet",
            describe_char(text.get(position..).unwrap_or_default()),
            char_count(text.get(..position).unwrap_or_default())
        ),
        _ => return err,
    };
    let _ = err.value(py).setattr("args", (msg,));
    err
}

/// Characters in UTF-8 bytes (lone surrogates, encoded with `surrogatepass`, count as one).
fn char_count(utf8: &[u8]) -> usize {
    utf8.iter().filter(|&&b| b & 0xc0 != 0x80).count()
}

/// The character starting `utf8`, for a message: `'é' (U+00E9)`, or `a lone surrogate U+D800`.
fn describe_char(utf8: &[u8]) -> String {
    let Some(&first) = utf8.first() else {
        return "the end".into();
    };
    if first < 0x80 {
        return format!("{:?}", first as char);
    }
    let (len, bits) = match first {
        0xc0..=0xdf => (2, first & 0x1f),
        0xe0..=0xef => (3, first & 0x0f),
        0xf0..=0xf7 => (4, first & 0x07),
        _ => return format!("byte 0x{first:02x}"),
    };
    let mut cp = u32::from(bits);
    for &b in utf8.iter().skip(1).take(len - 1) {
        cp = (cp << 6) | u32::from(b & 0x3f);
    }
    match char::from_u32(cp) {
        Some(c) => format!("{c:?} (U+{cp:04X})"),
        None => format!("a lone surrogate U+{cp:04X}"),
    }
}

/// A sno ID: immutable, hashable, ordered by time; `str()` is the 16-character form.
#[pyclass(frozen, eq, ord, hash, module = "sno", name = "ID")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct PyId(Id);

static FROMTIMESTAMP: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static UTC: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Unix milliseconds of `datetime(1, 1, 1)` and of the last millisecond of `datetime(9999, 12, 31)`.
const DATETIME_MIN_MS: i64 = -62_135_596_800_000;
const DATETIME_MAX_MS: i64 = 253_402_300_799_999;

/// An aware UTC `datetime`, or `TimeRangeError` (code `"datetime_out_of_range"`) for a time
/// outside the years 1 ..= 9999 that `datetime` can hold.
pub(crate) fn datetime_from_ms<'py>(py: Python<'py>, ms: i64) -> PyResult<Bound<'py, PyAny>> {
    if !(DATETIME_MIN_MS..=DATETIME_MAX_MS).contains(&ms) {
        let side = if ms < 0 {
            "before year 1"
        } else {
            "after year 9999"
        };
        return Err(raise_code(
            py,
            "TimeRangeError",
            "datetime_out_of_range",
            format!(
                "sno: the time {ms} ms since 1970 is {side}, outside the range of datetime; \
                 read .unix_ms instead"
            ),
        ));
    }
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
/// with lone surrogates gets them encoded as 3 bytes each (`surrogatepass`), which every decoder
/// rejects (a `DecodeError`, never a `UnicodeEncodeError`).
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
    let bytes = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
    Ok(f(bytes.cast::<PyBytes>()?.as_bytes()))
}

/// Strictly decodes a `str` with `decode`, through its UTF-8 bytes (so error positions are UTF-8
/// byte offsets; see [`text_error`]).
pub(crate) fn decode_text<T>(
    s: &Bound<'_, PyString>,
    decode: fn(&[u8]) -> Result<T, Error>,
) -> PyResult<T> {
    with_utf8(s, |text| {
        decode(text).map_err(|e| text_error(s.py(), text, e))
    })?
}

/// Strictly decodes a `str` as a sno ID.
fn decode_str(s: &Bound<'_, PyString>) -> PyResult<Id> {
    decode_text(s, Id::decode)
}

fn decode_any(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Id> {
    if let Ok(s) = value.cast::<PyString>() {
        return decode_str(s);
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
    fn from_str(text: &Bound<'_, PyString>) -> PyResult<Self> {
        decode_str(text).map(PyId)
    }

    /// Takes the 10-byte binary form.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        Id::from_slice(data).map(PyId).map_err(|e| to_py(py, e))
    }

    fn __str__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        crate::formats::ascii_str(py, &self.0.encode_bytes())
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
        datetime_from_ms(py, self.0.unix_ms())
    }

    /// Start of the ID's 4 ms unit in nanoseconds since the Unix epoch.
    #[getter]
    fn unix_ns(&self) -> i64 {
        self.0.unix_nanos()
    }

    /// Start of the ID's 4 ms unit in milliseconds since the Unix epoch.
    #[getter]
    fn unix_ms(&self) -> i64 {
        self.0.unix_ms()
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
        Ok(crate::formats::ascii_str(py, chunk)?.into_any())
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
        .map_err(|e| match e {
            Error::InvalidByte { position, byte } => {
                let index = position / sno_core::ENCODED_LEN;
                let e = Error::InvalidByte {
                    position: position % sno_core::ENCODED_LEN,
                    byte,
                };
                item_error(py, index, to_py(py, e))
            }
            other => item_error(py, 0, to_py(py, other)),
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
    inner: Source,
}

enum Source {
    /// Its own partition (given, restored or a default one).
    Plain(Arc<Generator<SystemClock>>),
    /// A lease's self-fencing generator.
    Leased(Box<Leased>),
}

struct Leased {
    generator: sno_lease::LeasedGenerator,
    /// Kept open as long as the generator lives.
    lease: Py<PyLease>,
    sequence_min: u16,
    sequence_max: u16,
}

/// `ConfigError` (code `"leased_generator"`): what a leased generator cannot do, and why.
fn leased_refusal(py: Python<'_>, what: &str, why: &str) -> PyErr {
    raise_code(
        py,
        "ConfigError",
        "leased_generator",
        format!("sno: {what} does not apply to a leased generator: {why}"),
    )
}

/// Why a leased generator takes no explicit time.
const LEASED_TIMES: &str = "it stamps only times inside its lease, and an ID for any other time could repeat another holder's";

impl PyGenerator {
    /// The plain generator, or the refusal of `what` for a leased one.
    fn plain(&self, py: Python<'_>, what: &str, why: &str) -> PyResult<&Generator<SystemClock>> {
        match &self.inner {
            Source::Plain(g) => Ok(g),
            Source::Leased(_) => Err(leased_refusal(py, what, why)),
        }
    }
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
        let known = key
            .extract::<&str>()
            .is_ok_and(|k| SNAPSHOT_KEYS.contains(&k));
        if !known {
            return Err(raise_code(
                py,
                "ConfigError",
                "unknown_snapshot_key",
                format!(
                    "unknown snapshot key {}; the keys are {}",
                    key.repr()?,
                    SNAPSHOT_KEYS.join(", ")
                ),
            ));
        }
    }
    let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
        d.get_item(k)?.ok_or_else(|| {
            raise_code(
                py,
                "ConfigError",
                "missing_snapshot_key",
                format!("snapshot lacks {k:?}"),
            )
        })
    };
    let outside = |k: &str, v: &str, range: &str| {
        raise_code(
            py,
            "ConfigError",
            "invalid_snapshot",
            format!("snapshot {k:?} = {v} is outside {range}"),
        )
    };
    let field = |k: &str, lo: i128, hi: i128| -> PyResult<i128> {
        let v = get(k)?;
        if !v.is_instance_of::<pyo3::types::PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "snapshot {k:?} must be an int, not {}",
                v.get_type().name()?
            )));
        }
        let range = format!("{lo}..={hi}");
        match v.extract::<i128>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(n),
            Ok(n) => Err(outside(k, &n.to_string(), &range)),
            Err(_) => Err(outside(k, "an int beyond 128 bits", &range)),
        }
    };
    let units = |k: &str| field(k, 0, sno_core::time::MAX_TIMESTAMP.into()).map(|v| v as i64);
    Ok(Snapshot {
        partition: field("partition", 0, 65535)? as u16,
        sequence_min: field("sequence_min", 0, 65535)? as u16,
        sequence_max: field("sequence_max", 0, 65535)? as u16,
        sequence: field("sequence", 0, u32::MAX.into())? as u32,
        now: field("now", i64::MIN.into(), i64::MAX.into())? as i64,
        wall_hi: units("wall_hi")?,
        wall_safe: units("wall_safe")?,
        drifts: field("drifts", 0, u32::MAX.into())? as u32,
    })
}

// The signature spells the default maximum wait as a literal, so that Python shows its value.
const _: () = assert!(sno_core::time::DEFAULT_MAX_WAIT.as_millis() == 5000);

#[pymethods]
impl PyGenerator {
    /// `Generator(partition=None, sequence_min=0, sequence_max=65535, snapshot=None, *,
    /// max_wait_ms=5000, lease=None)`: without a partition, a per-process default is used;
    /// `snapshot` (a dict from `.snapshot()`) restores a saved state (its partition is kept
    /// unless `partition` is given); `lease` (a `sno.Lease`) makes the lease's self-fencing
    /// generator, which takes the leased partition and mints only while the lease holds.
    #[new]
    #[pyo3(signature = (
        partition = None, sequence_min = 0, sequence_max = 65535, snapshot = None, *,
        max_wait_ms = 5000, lease = None
    ))]
    fn py_new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::opt_partition)] partition: Option<u16>,
        #[pyo3(from_py_with = args::sequence_min)] sequence_min: u16,
        #[pyo3(from_py_with = args::sequence_max)] sequence_max: u16,
        snapshot: Option<&Bound<'_, PyDict>>,
        #[pyo3(from_py_with = args::max_wait_ms)] max_wait_ms: u32,
        lease: Option<Bound<'_, PyLease>>,
    ) -> PyResult<Self> {
        let mut b = Generator::builder()
            .sequence_bounds(sequence_min, sequence_max)
            .max_wait(std::time::Duration::from_millis(max_wait_ms.into()));
        if let Some(lease) = lease {
            if partition.is_some() {
                return Err(leased_refusal(
                    py,
                    "partition=",
                    "its partition is the lease's; leave partition out",
                ));
            }
            if snapshot.is_some() {
                return Err(leased_refusal(
                    py,
                    "snapshot=",
                    "it starts inside its lease, and a saved state from elsewhere could \
                     repeat another holder's IDs; leave snapshot out",
                ));
            }
            let generator = lease.get().with_open(py, |l| l.generator_with(b))?;
            return Ok(PyGenerator {
                inner: Source::Leased(Box::new(Leased {
                    generator,
                    lease: lease.unbind(),
                    sequence_min,
                    sequence_max,
                })),
            });
        }
        if let Some(s) = snapshot {
            b = b.snapshot(snapshot_from_dict(py, s)?);
        }
        if let Some(p) = partition {
            b = b.partition(p);
        }
        let g = b.build().map_err(|e| to_py(py, e))?;
        Ok(PyGenerator {
            inner: Source::Plain(Arc::new(g)),
        })
    }

    /// The next ID; waits (sleeping, with the GIL released, interruptible) if this 4 ms unit's
    /// pool is used up or the clock went back, for at most `max_wait_ms` (5 s by default; then
    /// the error `try_new` gives). Raises `ForkedGeneratorError` in a `fork()` child for an
    /// explicit partition (see `repartition`), `TimeRangeError` for a clock outside 2010 … 2079;
    /// a leased generator waits for a renewal, then raises `LeaseExpiredError`.
    #[pyo3(name = "new", signature = (meta = 0))]
    fn next(&self, py: Python<'_>, #[pyo3(from_py_with = args::meta)] meta: u8) -> PyResult<PyId> {
        match &self.inner {
            Source::Plain(g) => next_id(py, &**g, meta).map(PyId),
            Source::Leased(l) => next_id(py, &l.generator, meta).map(PyId),
        }
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
        match &self.inner {
            Source::Plain(g) => many(py, &**g, n, meta, as_str),
            Source::Leased(l) => many(py, &l.generator, n, meta, as_str),
        }
    }

    /// The next ID, or at once `SequenceExhaustedError` / `ClockRegressionError` (and
    /// `LeaseExpiredError` for a leased generator whose lease does not cover the clock).
    #[pyo3(signature = (meta = 0))]
    fn try_new(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::meta)] meta: u8,
    ) -> PyResult<PyId> {
        let result = match &self.inner {
            Source::Plain(g) => g.try_next(meta),
            Source::Leased(l) => l.generator.try_next(meta),
        };
        result.map(PyId).map_err(|e| to_py(py, e))
    }

    /// An ID for a given time in Unix nanoseconds, with its own wrapping sequence; a time outside
    /// 2010 .. 2079-09-07 is a `TimeRangeError`. Not for a leased generator.
    fn new_with_unix_ns(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::meta)] meta: u8,
        #[pyo3(from_py_with = args::time_i64)] unix_ns: i64,
    ) -> PyResult<PyId> {
        self.plain(py, "an ID for a given time", LEASED_TIMES)?
            .new_with_unix_nanos(meta, unix_ns)
            .map(PyId)
            .map_err(|e| to_py(py, e))
    }

    /// The state as a dict of ints (JSON-friendly); pass it back as `snapshot=`. Not for a
    /// leased generator (its lease, not a snapshot, keeps it unique).
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self
            .plain(
                py,
                "snapshot()",
                "its lease keeps it unique, and its state cannot be restored elsewhere",
            )?
            .snapshot();
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
        let s = match &self.inner {
            Source::Plain(g) => g.stats(),
            Source::Leased(l) => l.generator.stats(),
        };
        let d = PyDict::new(py);
        d.set_item("overflows", s.overflows)?;
        d.set_item("overflow_episodes", s.overflow_episodes)?;
        d.set_item("drifts", s.drifts)?;
        d.set_item("regressions", s.regressions)?;
        d.set_item("waits", s.waits)?;
        Ok(d)
    }

    /// The partition stamped into every ID (a leased generator's follows its lease).
    #[getter]
    fn partition(&self) -> u16 {
        match &self.inner {
            Source::Plain(g) => g.partition(),
            Source::Leased(l) => l.generator.partition(),
        }
    }

    /// The lease of a leased generator, else `None`.
    #[getter]
    fn lease(&self, py: Python<'_>) -> Option<Py<PyLease>> {
        match &self.inner {
            Source::Plain(_) => None,
            Source::Leased(l) => Some(l.lease.clone_ref(py)),
        }
    }

    /// Gives the generator a new partition: in a `fork()` child, a generator with an explicit
    /// partition raises `ForkedGeneratorError` until it has one of its own. Not for a leased
    /// generator (in a child, lease a partition of the child's own).
    fn repartition(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::partition)] partition: u16,
    ) -> PyResult<()> {
        self.plain(
            py,
            "repartition()",
            "its partition is the lease's (in a fork() child, lease one for the child)",
        )?
        .repartition(partition);
        Ok(())
    }

    /// The longest `new()` waits (ms) before raising the error `try_new` gives; also how far
    /// ahead of the clock a restored snapshot may reach.
    #[getter]
    fn max_wait_ms(&self) -> u128 {
        match &self.inner {
            Source::Plain(g) => g.max_wait(),
            Source::Leased(l) => l.generator.max_wait(),
        }
        .as_millis()
    }

    /// Lower sequence bound.
    #[getter]
    fn sequence_min(&self) -> u16 {
        match &self.inner {
            Source::Plain(g) => g.sequence_min(),
            Source::Leased(l) => l.sequence_min,
        }
    }

    /// Upper sequence bound.
    #[getter]
    fn sequence_max(&self) -> u16 {
        match &self.inner {
            Source::Plain(g) => g.sequence_max(),
            Source::Leased(l) => l.sequence_max,
        }
    }

    /// IDs per 4 ms unit.
    #[getter]
    fn capacity(&self) -> u32 {
        match &self.inner {
            Source::Plain(g) => g.capacity(),
            Source::Leased(l) => u32::from(l.sequence_max - l.sequence_min) + 1,
        }
    }

    fn __repr__(&self) -> String {
        let lease = match &self.inner {
            Source::Plain(_) => String::new(),
            Source::Leased(l) => format!("lease={}, ", l.lease.get().describe()),
        };
        format!(
            "sno.Generator({lease}partition={}, sequence_min={}, sequence_max={})",
            self.partition(),
            self.sequence_min(),
            self.sequence_max()
        )
    }
}

/// The native part of the `sno` package.
#[pymodule(gil_used = false)]
fn _sno(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyId>()?;
    m.add_class::<PyGenerator>()?;
    cli::register(m)?;
    m.add_function(wrap_pyfunction!(new_id, m)?)?;
    m.add_function(wrap_pyfunction!(new_many, m)?)?;
    m.add_function(wrap_pyfunction!(encode_many, m)?)?;
    m.add_function(wrap_pyfunction!(decode_many, m)?)?;
    formats::register(m)?;
    flakes::register(m)?;
    lease::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ENCODED_LEN", sno_core::ENCODED_LEN)?;
    m.add("BINARY_LEN", sno_core::BINARY_LEN)?;
    m.add("MAX_BATCH", sno_core::MAX_BATCH)?;
    Ok(())
}
