//! Between Python and the core, for every module: core errors as Python exceptions, `str`
//! arguments read as UTF-8 bytes, Unix milliseconds as `datetime`s.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString, PyType};
use sno_core::{Error, ErrorKind};

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

/// Maps a core error to its Python exception: the class by kind (the one table of this binding),
/// the core's code and message, and the error's data as attributes.
pub(crate) fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let class = match e.kind() {
        ErrorKind::InvalidLength
        | ErrorKind::InvalidByte
        | ErrorKind::ValueOverflow
        | ErrorKind::NotVersion7
        | ErrorKind::InvalidPrefix
        | ErrorKind::UnrecognizedFormat
        | ErrorKind::AmbiguousFormat => "DecodeError",
        ErrorKind::TimeOutOfRange
        | ErrorKind::ClockOutOfRange
        | ErrorKind::TimestampOverflow
        | ErrorKind::MillisOutOfRange => "TimeRangeError",
        ErrorKind::RandomnessExhausted => "RandomnessExhaustedError",
        ErrorKind::SequenceExhausted => "SequenceExhaustedError",
        ErrorKind::ClockRegression | ErrorKind::ClockRollback => "ClockRegressionError",
        ErrorKind::Forked => "ForkedGeneratorError",
        ErrorKind::RandomnessUnavailable => "RandomnessUnavailableError",
        ErrorKind::LeaseExpired => "LeaseExpiredError",
        // Settings: InvalidEnvironment (SNO_PARTITION), BatchTooLarge, SnapshotAhead,
        // InvalidSnapshot, InvalidSequenceBounds, UnknownFormat, …
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
        Error::ValueOverflow
        | Error::NotVersion7 { .. }
        | Error::InvalidPrefix { .. }
        | Error::UnrecognizedFormat { .. }
        | Error::AmbiguousFormat { .. } => {
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
        let _ = value.setattr("retry_at_unix_ns", e.retry_at_unix_ns());
    }
    err
}

/// The error of strictly decoding the UTF-8 bytes `text` of a `str`. `.position` is a byte
/// offset into them (the rule of every layer); for text that is not all ASCII (no valid ID is)
/// the core's message goes on to say so and name the character at fault and its index.
pub(crate) fn text_error(py: Python<'_>, text: &[u8], e: Error) -> PyErr {
    let err = to_py(py, e);
    if text.is_ascii() {
        return err;
    }
    let context = match e {
        Error::InvalidLength { actual, .. } => format!(
            "{actual} bytes: the UTF-8 form of {} characters, not all ASCII",
            char_count(text)
        ),
        Error::InvalidByte { position, .. } => format!(
            "a byte position in the UTF-8 text: {} at character index {}",
            describe_char(text.get(position..).unwrap_or_default()),
            char_count(text.get(..position).unwrap_or_default())
        ),
        _ => return err,
    };
    let _ = err.value(py).setattr("args", (format!("{e} ({context})"),));
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
#[inline]
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
#[inline]
pub(crate) fn decode_text<T>(
    s: &Bound<'_, PyString>,
    decode: fn(&[u8]) -> Result<T, Error>,
) -> PyResult<T> {
    with_utf8(s, |text| {
        decode(text).map_err(|e| text_error(s.py(), text, e))
    })?
}
