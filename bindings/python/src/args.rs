//! Arguments read and checked for the bindings' signatures: `str` arguments as UTF-8 bytes (and
//! decoded by a format), the `clock=` name, and integers; and Unix milliseconds made into
//! `datetime`s. Every `int` parameter takes any Python int (or object with `__index__`) and is
//! checked here, so that a value outside the parameter's range raises the documented error
//! naming the parameter (`ConfigError`, code `"invalid_argument"`; `TimeRangeError` for times;
//! `ConfigError` `"batch_too_large"` for counts), never a bare `OverflowError`. Used through
//! `#[pyo3(from_py_with = ...)]`, which keeps the literal defaults in the signatures.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString};
use sno_core::Error;

use crate::{raise_code, text_error, to_py};

/// A Python int, read exactly where it fits in an `i128`.
#[derive(Clone, Copy)]
enum Wide {
    Fits(i128),
    Below,
    Above,
}

impl Wide {
    fn read(obj: &Bound<'_, PyAny>) -> PyResult<Wide> {
        match obj.extract::<i128>() {
            Ok(v) => Ok(Wide::Fits(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(if obj.lt(0i32)? {
                Wide::Below
            } else {
                Wide::Above
            }),
            Err(e) => Err(e),
        }
    }

    /// The value, saturated to the `i128` range.
    fn saturated(self) -> i128 {
        match self {
            Wide::Fits(v) => v,
            Wide::Below => i128::MIN,
            Wide::Above => i128::MAX,
        }
    }

    /// The value for a message (never `str()` of the int: huge ints exceed Python's
    /// `int_max_str_digits`).
    fn show(self) -> String {
        match self {
            Wide::Fits(v) => v.to_string(),
            Wide::Below => "an int below -2**127".into(),
            Wide::Above => "an int above 2**127".into(),
        }
    }
}

/// `obj` as an int in `lo..=hi`, else `ConfigError("<name> must be in lo..=hi, got v")` with
/// code `"invalid_argument"` (an argument outside its documented range).
pub(crate) fn ranged(obj: &Bound<'_, PyAny>, name: &str, lo: i128, hi: i128) -> PyResult<i128> {
    match Wide::read(obj)? {
        Wide::Fits(v) if (lo..=hi).contains(&v) => Ok(v),
        w => {
            let message = format!("{name} must be in {lo}..={hi}, got {}", w.show());
            Err(raise_code(
                obj.py(),
                "ConfigError",
                "invalid_argument",
                message,
            ))
        }
    }
}

/// Defines one extractor per parameter name: `fn name(obj) -> PyResult<T>` accepting `lo..=hi`.
macro_rules! int_args {
    ($($(#[$doc:meta])* $f:ident: $t:ty = $name:literal in $lo:expr, $hi:expr;)*) => {
        $(
            $(#[$doc])*
            pub(crate) fn $f(obj: &Bound<'_, PyAny>) -> PyResult<$t> {
                // The range fits `$t`, so the cast is exact.
                ranged(obj, $name, $lo as i128, $hi as i128).map(|v| v as $t)
            }
        )*
    };
}

int_args! {
    /// The meta byte of a sno ID.
    meta: u8 = "meta" in 0, u8::MAX;
    /// A sno partition.
    partition: u16 = "partition" in 0, u16::MAX;
    /// A sno generator's lower sequence bound.
    sequence_min: u16 = "sequence_min" in 0, u16::MAX;
    /// A sno generator's upper sequence bound.
    sequence_max: u16 = "sequence_max" in 0, u16::MAX;
    /// A Nanoflakes generator id.
    generator_id: u16 = "generator_id" in 0, sno_core::nanoflake::MAX_GENERATOR_ID;
    /// A Ulid-Flake generator's random bytes per increment (1..=2 with a sid, checked apart).
    entropy_size: u8 = "entropy_size" in 1, 3;
    /// A sno generator's maximum wait, in milliseconds.
    max_wait_ms: u32 = "max_wait_ms" in 0, u32::MAX;
    /// A generator's epoch: Unix milliseconds, not negative.
    epoch_ms: i64 = "epoch_ms" in 0, i64::MAX;
    /// The epoch an existing value is read with: any 64-bit Unix milliseconds.
    any_epoch_ms: i64 = "epoch_ms" in i64::MIN, i64::MAX;
    /// A Ulid-Flake `sid`.
    sid: u8 = "sid" in 0, sno_core::ulidflake::MAX_SID;
}

/// An optional partition (`None`: the default).
pub(crate) fn opt_partition(obj: &Bound<'_, PyAny>) -> PyResult<Option<u16>> {
    if obj.is_none() {
        return Ok(None);
    }
    partition(obj).map(Some)
}

/// An optional Ulid-Flake scalability id (`None`: stand-alone values).
pub(crate) fn opt_sid(obj: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
    if obj.is_none() {
        return Ok(None);
    }
    sid(obj).map(Some)
}

/// A time (Unix ns or ms): saturated to the `i64` range, where the core reports it as out of
/// range (`TimeRangeError`), as it does for every other time outside the format's range.
pub(crate) fn time_i64(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    let v = Wide::read(obj)?.saturated();
    Ok(v.clamp(i64::MIN.into(), i64::MAX.into()) as i64)
}

/// A batch count: `0 ..= MAX_BATCH`, else `ConfigError` with code `"batch_too_large"`, checked
/// before anything is allocated.
pub(crate) fn count(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let requested = Wide::read(obj)?.saturated();
    sno_core::batch_len(requested).map_err(|e| to_py(obj.py(), e))
}

/// A number field given to `from_fields`: an int in `0 ..= 2**128 - 1`, else the core's
/// `ValueOverflow` (a `DecodeError`, code `"value_overflow"`; the core checks each field's own
/// width the same way).
pub(crate) fn field_u128(obj: &Bound<'_, PyAny>) -> PyResult<u128> {
    match obj.extract::<u128>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(to_py(obj.py(), Error::ValueOverflow))
        }
        Err(e) => Err(e),
    }
}

/// A `clock=` argument: `"precise"` or `"fast"` (any case, parsed by the core) as the system
/// clock of that kind, `None` for the default (precise); another string is `ConfigError` with
/// code `"unknown_clock"`, another type a `TypeError`.
pub(crate) fn clock(obj: &Bound<'_, PyAny>) -> PyResult<Option<sno_core::SystemClock>> {
    if obj.is_none() {
        return Ok(None);
    }
    let name: &str = obj.extract()?;
    name.parse()
        .map(|kind| Some(sno_core::SystemClock::with_kind(kind)))
        .map_err(|e| to_py(obj.py(), e))
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
