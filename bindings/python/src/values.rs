//! What the value classes (`formats.rs`) convert through: canonical text as `str`, the binary
//! form as `int`, `uuid.UUID`, the argument a constructor takes, `repr()`, `fields()`, pickling.

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{IntoPyDict, PyBytes, PyDict, PyInt, PyString, PyTuple, PyType};
use sno_core::model::MAX_TEXT_LEN;
use sno_core::{Error, Field, FieldValue, IdFormat};

use crate::to_py;

/// A `str` of ASCII text written by a core encoder; `MemoryError` when Python cannot allocate
/// it (`PyString::new` would panic).
pub(crate) fn ascii_str<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyString>> {
    PyString::from_bytes(py, text)
}

/// The canonical text of `id` as a `str`.
pub(crate) fn text<'py, T: IdFormat>(py: Python<'py>, id: &T) -> PyResult<Bound<'py, PyString>> {
    let mut buf = [0u8; MAX_TEXT_LEN];
    let len = id.write_text(&mut buf);
    ascii_str(py, buf.get(..len).unwrap_or_default())
}

/// The binary form of `id` as a Python `int` (read big-endian).
pub(crate) fn to_int<'py, T: IdFormat>(py: Python<'py>, id: &T) -> PyResult<Bound<'py, PyAny>> {
    let raw = id.as_slice();
    if raw.len() > 16 {
        return py
            .get_type::<PyInt>()
            .call_method1("from_bytes", (PyBytes::new(py, raw), "big"));
    }
    let mut be = [0u8; 16];
    be[16 - raw.len()..].copy_from_slice(raw);
    let value = u128::from_be_bytes(be);
    match u64::try_from(value) {
        Ok(small) => small.into_bound_py_any(py),
        Err(_) => value.into_bound_py_any(py),
    }
}

/// The value whose binary form, read big-endian, is the int `value`; a negative or too large
/// int is the core's `ValueOverflow` (a `DecodeError`), never an `OverflowError`.
pub(crate) fn from_int<T: IdFormat>(value: &Bound<'_, PyAny>) -> PyResult<T> {
    let py = value.py();
    let len = T::FORMAT.binary_len();
    let overflow = || to_py(py, Error::ValueOverflow);
    let mut be = [0u8; sno_core::model::MAX_BINARY_LEN];
    let Some(out) = be.get_mut(..len) else {
        return Err(overflow());
    };
    match value.extract::<u128>() {
        Ok(v) => {
            let bytes = v.to_be_bytes();
            let (high, low) = bytes.split_at(16usize.saturating_sub(len));
            if high.iter().any(|&b| b != 0) {
                return Err(overflow());
            }
            out[len - low.len()..].copy_from_slice(low);
        }
        Err(e) if e.is_instance_of::<PyOverflowError>(py) => {
            // Negative, or beyond 128 bits: only a wider format may still hold it.
            if len <= 16 || value.lt(0i32)? {
                return Err(overflow());
            }
            match value.call_method1("to_bytes", (len, "big")) {
                Ok(bytes) => out.copy_from_slice(bytes.cast::<PyBytes>()?.as_bytes()),
                Err(e) if e.is_instance_of::<PyOverflowError>(py) => return Err(overflow()),
                Err(e) => return Err(e),
            }
        }
        Err(e) => return Err(e),
    }
    T::from_slice(out).map_err(|e| to_py(py, e))
}

static UUID_CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The standard library's `uuid.UUID` class, looked up once.
pub(crate) fn uuid_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    UUID_CLASS.import(py, "uuid", "UUID")
}

/// A `uuid.UUID` with the same 16 bytes as `id`.
pub(crate) fn to_uuid<'py, T: IdFormat>(py: Python<'py>, id: &T) -> PyResult<Bound<'py, PyAny>> {
    let kwargs = [("bytes", PyBytes::new(py, id.as_slice()))].into_py_dict(py)?;
    uuid_class(py)?.call((), Some(&kwargs))
}

/// A value of format `T` from what its constructor takes besides text and its own class (which
/// the caller tries first): the binary form, a `uuid.UUID` (16-byte formats), an `int`
/// (8-byte formats, whose values are integers underneath); anything else is a `TypeError`.
pub(crate) fn coerce<T: IdFormat>(value: &Bound<'_, PyAny>, class: &str) -> PyResult<T> {
    let py = value.py();
    let len = T::FORMAT.binary_len();
    if let Ok(b) = value.cast::<PyBytes>() {
        return T::from_slice(b.as_bytes()).map_err(|e| to_py(py, e));
    }
    if len == 8 && value.is_instance_of::<PyInt>() {
        return from_int(value);
    }
    if len == 16 && value.is_instance(uuid_class(py)?)? {
        let bytes = value.getattr("bytes")?;
        return T::from_slice(bytes.cast::<PyBytes>()?.as_bytes()).map_err(|e| to_py(py, e));
    }
    let also = match len {
        8 => ", int",
        16 => ", uuid.UUID",
        _ => "",
    };
    Err(PyTypeError::new_err(format!(
        "sno.{class}() takes a str, bytes ({len}){also} or sno.{class}, not {}",
        value.get_type().name()?
    )))
}

/// Milliseconds since 1970 as ISO 8601 UTC, for `repr()`; `None` outside 1970 ..= 9999 (the
/// limit of ISO 8601's four-digit year and of `datetime`), which a 48-bit timestamp can pass.
pub(crate) fn iso_ms(ms: i64) -> Option<String> {
    let mut utc = [0u8; sno_core::time::UTC_LEN];
    sno_core::time::format_utc_millis(ms, &mut utc).map(str::to_owned)
}

/// `repr()` of every format, from its named fields: the text, then the time (`time='…'`, or
/// `unix_ms=…` past year 9999) in place of the time fields when the value carries its epoch,
/// then the other fields in layout order, flags last:
/// `sno.ID('brpk4q72xwf2m63l', time='2031-05-08T23:03:34.976Z', meta=255, …, tick_tock=False)`.
pub(crate) fn repr<T: IdFormat>(id: &T, class: &str) -> String {
    use std::fmt::Write;
    let mut out = format!("sno.{class}('{}'", id.text().as_str());
    let time = id.unix_ms();
    if let Some(ms) = time {
        let _ = match iso_ms(ms) {
            Some(iso) => write!(out, ", time='{iso}'"),
            None => write!(out, ", unix_ms={ms}"),
        };
    }
    let fields = id.fields();
    let shown = fields
        .iter()
        .filter(|f| !(time.is_some() && f.unit.is_time()));
    let (flags, others): (Vec<&Field<'_>>, Vec<&Field<'_>>) =
        shown.partition(|f| matches!(f.value, FieldValue::Bool(_)));
    for f in others.into_iter().chain(flags) {
        let _ = match f.value {
            FieldValue::Uint(v) => write!(out, ", {}={v}", f.name),
            FieldValue::Bool(b) => write!(out, ", {}={}", f.name, if b { "True" } else { "False" }),
            FieldValue::Text(t) => write!(out, ", {}='{t}'", f.name),
        };
    }
    out.push(')');
    out
}

/// The named fields as a dict (in layout order): `int`s, `bool` flags, `str` text.
pub(crate) fn fields<'py, T: IdFormat>(py: Python<'py>, id: &T) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for f in id.fields().iter() {
        match f.value {
            FieldValue::Uint(v) => d.set_item(f.name, v)?,
            FieldValue::Bool(b) => d.set_item(f.name, b)?,
            FieldValue::Text(t) => d.set_item(f.name, t)?,
        }
    }
    Ok(d)
}

/// `__reduce__` of an ID class: rebuild with `type(obj).from_str(text)` (the text holds the
/// whole value; a binary form lacks a param such as a prefix).
pub(crate) fn pickle_reduce<'py, T: IdFormat>(
    obj: &Bound<'py, PyAny>,
    id: &T,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = obj.py();
    let ctor = obj.get_type().getattr("from_str")?;
    let args = PyTuple::new(py, [text(py, id)?])?;
    PyTuple::new(py, [ctor, args.into_any()])
}

/// The 16 bytes of a `uuid.UUID`, or of a `bytes` (its length checked by the core).
pub(crate) fn uuid_arg<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let py = value.py();
    if value.is_instance(uuid_class(py)?)? {
        return Ok(value.getattr("bytes")?.cast_into::<PyBytes>()?);
    }
    value
        .cast::<PyBytes>()
        .cloned()
        .map_err(|_| PyTypeError::new_err("a UUID is a uuid.UUID or its 16 bytes".to_owned()))
}

/// The value of `T` with the 128 bits of a `uuid.UUID` (any other type is a `TypeError`).
pub(crate) fn from_uuid<T: IdFormat>(uuid: &Bound<'_, PyAny>) -> PyResult<T> {
    let py = uuid.py();
    if !uuid.is_instance(uuid_class(py)?)? {
        return Err(PyTypeError::new_err(format!(
            "from_uuid() takes a uuid.UUID, not {}",
            uuid.get_type().name()?
        )));
    }
    let bytes = uuid.getattr("bytes")?;
    T::from_slice(bytes.cast::<PyBytes>()?.as_bytes()).map_err(|e| to_py(py, e))
}
