//! Core and lease errors as Python exceptions (their classes in `sno._errors`), every code and
//! message from the core's one error table.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use sno_core::Error;

/// The exception classes of `sno._errors` (a Python module, so that each can be both a
/// `SnoError` and a `ValueError`/`RuntimeError`), looked up once.
static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn error_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyType>> {
    let module = ERRORS.get_or_try_init(py, || py.import("sno._errors").map(Bound::unbind))?;
    Ok(module.bind(py).getattr(name)?.cast_into::<PyType>()?)
}

/// Warns that `old` is the deprecated name of `new` (a `DeprecationWarning` at the caller's
/// line), as every old name of the vocabulary does before it calls its new name.
pub(crate) fn deprecated(py: Python<'_>, old: &str, new: &str) -> PyResult<()> {
    let message = std::ffi::CString::new(format!("{old} is deprecated: renamed {new}"))
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    let category = py.get_type::<pyo3::exceptions::PyDeprecationWarning>();
    PyErr::warn(py, &category, &message, 1)
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

/// An exception of the class of `kind` (the core's error table,
/// [`sno_core::ErrorKind::python_class`]) with its code, `message`, and `details` as attributes
/// (the core's [`sno_core::Error::details`], absent ones `None`).
fn with_details<'a>(
    py: Python<'_>,
    kind: sno_core::ErrorKind,
    message: String,
    details: impl IntoIterator<Item = sno_core::Detail<'a>>,
) -> PyErr {
    use sno_core::DetailValue;
    let err = raise_code(py, kind.python_class(), kind.code(), message);
    let value = err.value(py);
    for detail in details {
        let name = detail.name;
        let _ = match detail.value {
            DetailValue::Uint(n) => value.setattr(name, n),
            DetailValue::UnixNs(ns) => value.setattr(name, ns),
            DetailValue::Text(text) => value.setattr(name, text),
            _ => value.setattr(name, py.None()),
        };
    }
    err
}

/// Maps a core error to its Python exception: its class, code and message, and its details as
/// attributes.
pub(crate) fn to_py(py: Python<'_>, e: Error) -> PyErr {
    with_details(py, e.kind(), e.to_string(), e.details().iter())
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

/// The Python exception of a lease error: its class (of `sno._errors`), `.code`, the Rust
/// message, and its details as attributes.
pub(crate) fn lease_to_py(py: Python<'_>, e: sno_lease::Error) -> PyErr {
    with_details(py, e.kind(), e.to_string(), e.details())
}
