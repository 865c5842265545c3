//! The value class of every format, built from the core's format table by one macro: for each
//! entry of [`sno_core::for_each_format!`] a class `formats::<Variant>` (`sno.ID`, `sno.ULID`,
//! `sno.UUID7`, …) with the surface [`IdFormat`] gives every format: the constructor (`str`,
//! `bytes`, the same class; `uuid.UUID` for the 128-bit formats, `int` for the 64-bit ones whose
//! values are integers underneath), `from_str` / `parse` / `from_bytes` / `from_int`, `str()`,
//! `repr()` (from the named fields), `bytes`, `int(x)` / `.int`, `unix_ms` / `unix_ns` /
//! `timestamp`, `fields()` (a read-only property per named field is generated from the core's
//! table into `generated.rs`: `field_properties!`), ordering, hashing, pickling, `to_uuid()` /
//! `from_uuid()` on the 128-bit formats (`sno.UUID7` also equals the `uuid.UUID` of its value);
//! the class attributes the integrations read (`FORMAT`, `COLUMN_TYPE` / `POSTGRES_TYPE` /
//! `SQLITE_TYPE` from the core's `Format::column_type()`, the text pattern of JSON schemas); and
//! pydantic's hooks (`sno._pydantic`).
//!
//! What a format adds (other text forms, conversions, generators) is a
//! `#[pymethods]` block of its own beside it: `sno.rs`, `extras.rs`.

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyAttributeError, PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::sync::PyOnceLock;
use pyo3::types::{IntoPyDict, PyBool, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple, PyType};
use sno_core::model::MAX_TEXT_LEN;
use sno_core::{Error, Field, FieldValue, IdFormat};

use crate::batch::{global_value, list_of};
use crate::{datetime_from_ms, decode_text, to_py};

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
fn to_int<'py, T: IdFormat>(py: Python<'py>, id: &T) -> PyResult<Bound<'py, PyAny>> {
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
fn from_int<T: IdFormat>(value: &Bound<'_, PyAny>) -> PyResult<T> {
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
fn uuid_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
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
fn coerce<T: IdFormat>(value: &Bound<'_, PyAny>, class: &str) -> PyResult<T> {
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
fn repr<T: IdFormat>(id: &T, class: &str) -> String {
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
fn fields<'py, T: IdFormat>(py: Python<'py>, id: &T) -> PyResult<Bound<'py, PyDict>> {
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
/// whole value; a TypeID's binary form lacks its prefix).
fn pickle_reduce<'py, T: IdFormat>(
    obj: &Bound<'py, PyAny>,
    id: &T,
) -> PyResult<Bound<'py, PyTuple>> {
    let py = obj.py();
    let ctor = obj.get_type().getattr("from_str")?;
    let args = PyTuple::new(py, [text(py, id)?])?;
    PyTuple::new(py, [ctor, args.into_any()])
}

/// The core type of the values a value class holds.
pub(crate) trait Wraps {
    /// The core type.
    type Id: IdFormat;
}

/// Field `index` of the format's named fields (the core's `Format::fields`), read from `id`:
/// an `int`, a `bool` flag or `str` text. What the generated field properties return.
pub(crate) fn field<'py, T: IdFormat>(
    py: Python<'py>,
    id: &T,
    index: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let spec = T::FORMAT
        .fields()
        .get(index)
        .ok_or_else(|| PyAttributeError::new_err(format!("{} has no field {index}", T::FORMAT)))?;
    match Field::read(spec, id.as_slice(), id.param()).value {
        FieldValue::Uint(v) => match u64::try_from(v) {
            Ok(small) => small.into_bound_py_any(py),
            Err(_) => v.into_bound_py_any(py),
        },
        FieldValue::Bool(b) => b.into_bound_py_any(py),
        FieldValue::Text(t) => t.into_bound_py_any(py),
    }
}

/// A read-only property of class `$variant` per named field `$name` at position `$index` of
/// the core's `Format::fields` (written into `generated.rs` by `tests/surfaces`, with its
/// documentation, from the table), but for a name every class has already (`unix_ms`).
macro_rules! field_properties {
    ($variant:ident { $($name:ident = $index:literal, $doc:literal;)* }) => {
        #[pymethods]
        impl $variant {
            $(
                #[doc = $doc]
                #[getter]
                fn $name<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    $crate::formats::field(py, &self.0, $index)
                }
            )*
        }
    };
}
pub(crate) use field_properties;

/// The text form `name` of `id` (the format's `Extras::texts`) as a `str`.
pub(crate) fn text_form<'py, T: IdFormat>(
    py: Python<'py>,
    id: &T,
    name: &str,
) -> PyResult<Bound<'py, PyString>> {
    let form = T::EXTRAS.text(name).ok_or_else(|| {
        PyAttributeError::new_err(format!("{} has no text form {name}", T::FORMAT))
    })?;
    let mut buf = [0u8; MAX_TEXT_LEN];
    let len = (form.write)(id, &mut buf);
    ascii_str(py, buf.get(..len).unwrap_or_default())
}

/// The number `name` of `id` (the format's `Extras::numbers`).
pub(crate) fn number<T: IdFormat>(id: &T, name: &str) -> PyResult<u64> {
    let number = T::EXTRAS
        .number(name)
        .ok_or_else(|| PyAttributeError::new_err(format!("{} has no number {name}", T::FORMAT)))?;
    Ok((number.read)(id))
}

/// Milliseconds since 1970 of `id` made with the epoch `epoch_ms` (the format's
/// `Extras::epoch`).
pub(crate) fn unix_ms_at<T: IdFormat>(id: &T, epoch_ms: i64) -> PyResult<i64> {
    let epoch = T::EXTRAS
        .epoch
        .ok_or_else(|| PyAttributeError::new_err(format!("{} keeps no epoch apart", T::FORMAT)))?;
    Ok((epoch.unix_ms_at)(id, epoch_ms))
}

/// The properties and methods of what class `$variant`'s format has beyond the model (written
/// into `generated.rs` by `tests/surfaces` from the core's `IdFormat::EXTRAS`): a `str`
/// property per other text form (`text`), an `int` property per number (`number`), and
/// `unix_ms_at(epoch_ms)` for a format whose epoch the caller knows (`epoch`, with the default
/// epoch where it has one: a `tt`, so that pyo3 sees the literal and shows it in the signature).
macro_rules! extra_properties {
    ($variant:ident { $($item:tt)* }) => {
        $crate::formats::extra_properties!(@ $variant $($item)*);
    };
    (@ $variant:ident) => {};
    (@ $variant:ident text $name:ident, $doc:literal; $($rest:tt)*) => {
        #[pymethods]
        impl $variant {
            #[doc = $doc]
            #[getter]
            fn $name<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyString>> {
                $crate::formats::text_form(py, &self.0, stringify!($name))
            }
        }
        $crate::formats::extra_properties!(@ $variant $($rest)*);
    };
    (@ $variant:ident number $name:ident, $doc:literal; $($rest:tt)*) => {
        #[pymethods]
        impl $variant {
            #[doc = $doc]
            #[getter]
            fn $name(&self) -> PyResult<u64> {
                $crate::formats::number(&self.0, stringify!($name))
            }
        }
        $crate::formats::extra_properties!(@ $variant $($rest)*);
    };
    (@ $variant:ident epoch $default:tt; $($rest:tt)*) => {
        #[pymethods]
        impl $variant {
            /// Milliseconds since 1970 with `epoch_ms` (the default epoch if omitted; `unix_ms`
            /// is this with the default epoch), saturating.
            #[pyo3(signature = (epoch_ms = $default))]
            fn unix_ms_at(
                &self,
                #[pyo3(from_py_with = $crate::args::any_epoch_ms)] epoch_ms: i64,
            ) -> PyResult<i64> {
                $crate::formats::unix_ms_at(&self.0, epoch_ms)
            }
        }
        $crate::formats::extra_properties!(@ $variant $($rest)*);
    };
    (@ $variant:ident epoch; $($rest:tt)*) => {
        #[pymethods]
        impl $variant {
            /// Milliseconds since 1970, given the epoch the value was made with (saturating).
            fn unix_ms_at(
                &self,
                #[pyo3(from_py_with = $crate::args::any_epoch_ms)] epoch_ms: i64,
            ) -> PyResult<i64> {
                $crate::formats::unix_ms_at(&self.0, epoch_ms)
            }
        }
        $crate::formats::extra_properties!(@ $variant $($rest)*);
    };
}
pub(crate) use extra_properties;

/// `from_fields` of class `$variant`, with the Python signature `$signature` (the core's
/// inputs of the format, written into `generated.rs` by `tests/surfaces`): the value with the
/// given fields, by position or name, through the core's `AnyId::from_fields`.
macro_rules! from_fields {
    ($variant:ident, $signature:literal) => {
        #[pymethods]
        impl $variant {
            /// The value with the given fields, by position or name (those `fields()` names,
            /// less the ones the format computes, such as UUIDv7's version). A field above its
            /// width is a `DecodeError` (code `"value_overflow"`), a time outside the format's
            /// range a `TimeRangeError`.
            #[staticmethod]
            #[pyo3(signature = (*args, **kwargs), text_signature = $signature)]
            fn from_fields(
                args: &Bound<'_, pyo3::types::PyTuple>,
                kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
            ) -> PyResult<Self> {
                match $crate::formats::from_field_args(
                    <<Self as $crate::formats::Wraps>::Id as sno_core::IdFormat>::FORMAT,
                    args,
                    kwargs,
                )? {
                    sno_core::AnyId::$variant(id) => Ok($variant(id)),
                    // `AnyId::from_fields` makes a value of the format asked for.
                    _ => Err($crate::to_py(args.py(), sno_core::Error::UnknownFormat)),
                }
            }
        }
    };
}
pub(crate) use from_fields;

/// A `from_fields(*args, **kwargs)` call read as the core's inputs of `format`
/// (`AnyId::inputs`): the positional arguments in order, then the rest by name, with Python's
/// own `TypeError`s for a missing, unexpected or repeated argument; each value converted by its
/// kind (an int in `0 ..= 2**128 - 1`, a `bool`, a `str`).
pub(crate) fn from_field_args(
    format: sno_core::Format,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<sno_core::AnyId> {
    let py = args.py();
    let inputs = sno_core::AnyId::inputs(format);
    if args.len() > inputs.len() {
        return Err(PyTypeError::new_err(format!(
            "from_fields() takes {} positional arguments but {} were given",
            inputs.len(),
            args.len()
        )));
    }
    if let Some(kwargs) = kwargs {
        for key in kwargs.keys() {
            let key: String = key.extract()?;
            match inputs.iter().position(|i| i.name == key) {
                None => {
                    return Err(PyTypeError::new_err(format!(
                        "from_fields() got an unexpected keyword argument {key:?}"
                    )));
                }
                Some(at) if at < args.len() => {
                    return Err(PyTypeError::new_err(format!(
                        "from_fields() got multiple values for argument {key:?}"
                    )));
                }
                Some(_) => {}
            }
        }
    }
    let mut values = Vec::with_capacity(inputs.len());
    for (at, input) in inputs.iter().enumerate() {
        let value = match args.get_item(at) {
            Ok(value) => value,
            Err(_) => kwargs
                .map(|k| k.get_item(input.name))
                .transpose()?
                .flatten()
                .ok_or_else(|| {
                    PyTypeError::new_err(format!(
                        "from_fields() missing required argument {:?}",
                        input.name
                    ))
                })?,
        };
        values.push(value);
    }
    // The text fields first: the values handed to the core borrow them.
    let texts = inputs
        .iter()
        .zip(&values)
        .map(|(input, value)| match input.kind {
            sno_core::FieldKind::Text => value.extract::<String>().map(Some),
            _ => Ok(None),
        })
        .collect::<PyResult<Vec<_>>>()?;
    let made = sno_core::AnyId::from_fields(format, |input| -> PyResult<FieldValue<'_>> {
        let at = inputs
            .iter()
            .position(|i| i.name == input.name)
            .unwrap_or(0);
        match input.kind {
            sno_core::FieldKind::Bool => Ok(FieldValue::Bool(values[at].extract::<bool>()?)),
            sno_core::FieldKind::Text => {
                Ok(FieldValue::Text(texts[at].as_deref().unwrap_or_default()))
            }
            _ => Ok(FieldValue::Uint(crate::args::field_u128(&values[at])?)),
        }
    })?;
    made.map_err(|e| to_py(py, e))
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

/// One class per entry of the core's format table, named by its `python_class`.
macro_rules! py_formats {
    ($($variant:ident {
        ty: $ty:ty, name: $name:literal, display: $display:literal,
        binary_len: $bin:tt, max_text_len: $text:tt, min_text_len: $min:tt, column: $column:ident,
        pattern: $pattern:literal,
        text_order: $text_order:tt, epoch: $epoch:ident, process_generator: $process:tt, generator: $generator:tt,
        settings: [$($setting:ident),*], required: [$($required:ident),*],
        python_class: $class:literal, node_class: $node:literal $(, $fact:ident: $value:tt)* $(,)?
    }),* $(,)?) => {
        $( py_class!($variant, $ty, $class, $bin); )*

        /// `sno.detect(text)`: the value of the one format `text` is written in, through the
        /// core's detection (`sno_core::AnyId::detect`, which the `sno` CLI uses too); a
        /// `DecodeError` with code `ambiguous_format` when several formats (or only a Nanoflake)
        /// read it, `unrecognized_format` when none does.
        #[pyfunction]
        fn detect<'py>(text: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
            let py = text.py();
            match decode_text(text, sno_core::AnyId::detect)? {
                $( sno_core::AnyId::$variant(id) => $variant(id).into_bound_py_any(py), )*
                // `AnyId` is generated from the same table: every variant is listed above.
                _ => Err(to_py(py, Error::UnknownFormat)),
            }
        }

        /// Adds every value class, `ID_CLASSES` (the classes in the core's table order) and
        /// `detect` to the native module.
        pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            let py = m.py();
            $( m.add_class::<$variant>()?; )*
            m.add("ID_CLASSES", PyTuple::new(py, [$( py.get_type::<$variant>() ),*])?)?;
            m.add_function(wrap_pyfunction!(detect, m)?)?;
            Ok(())
        }
    };
}

/// UUIDv7 compares with `uuid.UUID` too. Every class's `parse` is in `generated.rs` (`parse!`:
/// lenient where the core's extras have a lenient decoder).
macro_rules! py_class {
    (Uuid7, $ty:ty, $class:literal, $bin:tt) => {
        value_class!(Uuid7, $ty, $class, $bin, uuid);
        uuid_comparisons!(Uuid7);
    };
    ($variant:ident, $ty:ty, $class:literal, $bin:tt) => {
        value_class!($variant, $ty, $class, $bin, by_value);
    };
}

/// The struct of class `$variant`: `by_value` compares and hashes within the class alone
/// (`#[pyclass(eq, ord, hash)]`); `uuid` leaves that to `uuid_comparisons!`.
macro_rules! value_struct {
    (by_value, $variant:ident, $ty:ty, $class:literal) => {
        #[doc = concat!("`sno.", $class, "`: immutable, hashable, ordered like its bytes (by time); `str()` is the canonical text.")]
        #[pyclass(frozen, eq, ord, hash, module = "sno", name = $class)]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub(crate) struct $variant(pub(crate) $ty);
    };
    (uuid, $variant:ident, $ty:ty, $class:literal) => {
        #[doc = concat!("`sno.", $class, "`: immutable, hashable, ordered like its bytes (by time), equal to the `uuid.UUID` of the same value; `str()` is the canonical text.")]
        #[pyclass(frozen, module = "sno", name = $class)]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub(crate) struct $variant(pub(crate) $ty);
    };
}

/// The class `$variant` (Python name `$class`) over the core type `$ty` of `$bin` bytes,
/// compared as `$cmp` says (see `value_struct!`).
macro_rules! value_class {
    ($variant:ident, $ty:ty, $class:literal, $bin:tt, $cmp:ident) => {
        value_struct!($cmp, $variant, $ty, $class);

        impl Wraps for $variant {
            type Id = $ty;
        }

        #[pymethods]
        impl $variant {
            /// The format's stable name (`"sno"`, `"ulid"`, …), from the core's table.
            #[classattr]
            const FORMAT: &'static str = <$ty as IdFormat>::FORMAT.name();

            /// The length of the binary form in bytes.
            #[classattr]
            const BINARY_LEN: usize = <$ty as IdFormat>::FORMAT.binary_len();

            /// The recommended database column (the core's `Format::column_type()`): `"bytes"`,
            /// `"uuid"` or `"bigint"`.
            #[classattr]
            const COLUMN_TYPE: &'static str = <$ty as IdFormat>::FORMAT.column_type().name();

            /// The PostgreSQL column type: `"bytea"`, `"uuid"` or `"bigint"`.
            #[classattr]
            const POSTGRES_TYPE: &'static str = <$ty as IdFormat>::FORMAT.column_type().postgres();

            /// The SQLite column type: `"BLOB"` or `"INTEGER"`.
            #[classattr]
            const SQLITE_TYPE: &'static str = <$ty as IdFormat>::FORMAT.column_type().sqlite();

            /// A regular expression every text that `from_str` accepts matches (for JSON
            /// schemas; `from_str` alone decides).
            #[classattr]
            const TEXT_PATTERN: &'static str = <$ty as IdFormat>::FORMAT.text_pattern();

            /// The shortest text `from_str` accepts.
            #[classattr]
            const TEXT_MIN_LEN: usize = <$ty as IdFormat>::FORMAT.min_text_len();

            /// The longest text `from_str` accepts.
            #[classattr]
            const TEXT_MAX_LEN: usize = <$ty as IdFormat>::FORMAT.max_text_len();

            /// pydantic v2's hook: the class as a model field type (`sno._pydantic`, which
            /// imports pydantic-core only when pydantic calls this).
            #[classmethod]
            fn __get_pydantic_core_schema__<'py>(
                cls: &Bound<'py, PyType>,
                source: &Bound<'py, PyAny>,
                handler: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
                pydantic_hook(cls, "core_schema", source, handler)
            }

            /// pydantic v2's hook: the JSON schema of the field (a string with the pattern and
            /// lengths above).
            #[classmethod]
            fn __get_pydantic_json_schema__<'py>(
                cls: &Bound<'py, PyType>,
                core_schema: &Bound<'py, PyAny>,
                handler: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyAny>> {
                pydantic_hook(cls, "json_schema", core_schema, handler)
            }

            /// Decodes text strictly, or takes the binary form, a value of the class, a
            /// `uuid.UUID` (128-bit formats) or the integer (64-bit formats).
            #[new]
            fn py_new(value: &Bound<'_, PyAny>) -> PyResult<Self> {
                if let Ok(s) = value.cast::<PyString>() {
                    return decode_text(s, <$ty as IdFormat>::decode).map($variant);
                }
                if let Ok(id) = value.cast::<Self>() {
                    return Ok(*id.get());
                }
                coerce(value, $class).map($variant)
            }

            /// Strictly decodes the text form.
            #[staticmethod]
            fn from_str(text: &Bound<'_, PyString>) -> PyResult<Self> {
                decode_text(text, <$ty as IdFormat>::decode).map($variant)
            }

            /// Takes the binary form.
            #[staticmethod]
            fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
                <$ty as IdFormat>::from_slice(data)
                    .map($variant)
                    .map_err(|e| to_py(py, e))
            }

            /// From the integer (the binary form read big-endian); negative or too large is a
            /// `DecodeError` (code `"value_overflow"`).
            #[staticmethod]
            fn from_int(value: &Bound<'_, PyAny>) -> PyResult<Self> {
                from_int(value).map($variant)
            }

            fn __str__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
                text(py, &self.0)
            }

            fn __repr__(&self) -> String {
                repr(&self.0, $class)
            }

            fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                PyBytes::new(py, self.0.as_slice())
            }

            fn __int__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                to_int(py, &self.0)
            }

            /// The binary form.
            #[getter]
            fn bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                PyBytes::new(py, self.0.as_slice())
            }

            /// The integer (the binary form read big-endian).
            #[getter]
            fn int<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                to_int(py, &self.0)
            }

            /// Milliseconds since 1970 (sno: the start of its 4 ms unit); `None` for a value
            /// that does not carry its epoch (a Nanoflake: `unix_ms_at(epoch_ms)`).
            #[getter]
            fn unix_ms(&self) -> Option<i64> {
                IdFormat::unix_ms(&self.0)
            }

            /// Nanoseconds since 1970 (saturated at 2**63 - 1, in 2262), or `None` as for `unix_ms`.
            #[getter]
            fn unix_ns(&self) -> Option<i64> {
                IdFormat::unix_ns(&self.0)
            }

            /// The time as an aware UTC `datetime` (millisecond precision), or `None` as for
            /// `unix_ms`; past year 9999 a `TimeRangeError`.
            #[getter]
            fn timestamp<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
                IdFormat::unix_ms(&self.0)
                    .map(|ms| datetime_from_ms(py, ms))
                    .transpose()
            }

            /// The named fields, in layout order: a dict of `int`s (and `bool` flags, `str`
            /// text).
            fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                fields(py, &self.0)
            }

            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
                pickle_reduce(slf.as_any(), &slf.get().0)
            }

            fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
                slf
            }

            fn __deepcopy__<'py>(
                slf: Bound<'py, Self>,
                _memo: &Bound<'py, PyAny>,
            ) -> Bound<'py, Self> {
                slf
            }
        }

        bits128!($bin, $variant, $ty);
    };
}

/// `to_uuid()` for the 128-bit formats, and `from_uuid(uuid)` for those whose value is the 128
/// bits alone (TypeID's `from_uuid` also takes the prefix: `formats.rs`).
macro_rules! bits128 {
    (16, TypeId, $ty:ty) => {
        to_uuid_method!(TypeId);
    };
    (16, $variant:ident, $ty:ty) => {
        to_uuid_method!($variant);

        #[pymethods]
        impl $variant {
            /// The value with the 128 bits of a `uuid.UUID` (any other type is a `TypeError`;
            /// bits the format refuses a `DecodeError`, e.g. a UUID7 of another version).
            #[staticmethod]
            fn from_uuid(uuid: &Bound<'_, PyAny>) -> PyResult<Self> {
                let py = uuid.py();
                if !uuid.is_instance(uuid_class(py)?)? {
                    return Err(PyTypeError::new_err(format!(
                        "from_uuid() takes a uuid.UUID, not {}",
                        uuid.get_type().name()?
                    )));
                }
                let bytes = uuid.getattr("bytes")?;
                <$ty as IdFormat>::from_slice(bytes.cast::<PyBytes>()?.as_bytes())
                    .map($variant)
                    .map_err(|e| to_py(py, e))
            }
        }
    };
    ($other:tt, $variant:ident, $ty:ty) => {};
}

/// `to_uuid()`: the same 128 bits as a `uuid.UUID`.
macro_rules! to_uuid_method {
    ($variant:ident) => {
        #[pymethods]
        impl $variant {
            /// The same 128 bits as a `uuid.UUID`.
            #[pyo3(name = "to_uuid")]
            fn as_uuid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                to_uuid(py, &self.0)
            }
        }
    };
}

/// Comparisons and hashing of a class whose values are UUIDs (`sno.UUID7`): a `uuid.UUID` with
/// the same 128 bits is equal (and hashes the same: `hash(int)`, as `uuid.UUID`'s), and orders
/// with it by value; any other type is `NotImplemented`.
macro_rules! uuid_comparisons {
    ($variant:ident) => {
        #[pymethods]
        impl $variant {
            fn __richcmp__<'py>(
                &self,
                other: &Bound<'py, PyAny>,
                op: CompareOp,
            ) -> PyResult<Bound<'py, PyAny>> {
                let py = other.py();
                let order = if let Ok(o) = other.cast::<Self>() {
                    self.0.cmp(&o.get().0)
                } else if other.is_instance(uuid_class(py)?)? {
                    let bytes = other.getattr("bytes")?;
                    self.0.as_slice().cmp(bytes.cast::<PyBytes>()?.as_bytes())
                } else {
                    return Ok(py.NotImplemented().into_bound(py));
                };
                Ok(PyBool::new(py, op.matches(order)).to_owned().into_any())
            }

            fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
                to_int(py, &self.0)?.hash()
            }
        }
    };
}

/// Calls `sno._pydantic.<name>(cls, a, b)`.
fn pydantic_hook<'py>(
    cls: &Bound<'py, PyType>,
    name: &str,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    cls.py()
        .import("sno._pydantic")?
        .call_method1(name, (cls, a, b))
}

/// `parse(text)`: strict decoding, as `from_str`.
/// `parse` of class `$variant` (written into `generated.rs` by `tests/surfaces`): strict (as
/// `from_str`), or for a format with a lenient decoder (the core's `Extras::lenient`) strict
/// unless `lenient=True`.
macro_rules! parse {
    ($variant:ident) => {
        #[pymethods]
        impl $variant {
            /// Strictly decodes the text form (as `from_str`).
            #[staticmethod]
            fn parse(text: &Bound<'_, pyo3::types::PyString>) -> PyResult<Self> {
                $crate::decode_text(
                    text,
                    <<Self as $crate::formats::Wraps>::Id as sno_core::IdFormat>::decode,
                )
                .map($variant)
            }
        }
    };
    ($variant:ident, lenient, $doc:literal) => {
        #[pymethods]
        impl $variant {
            #[doc = $doc]
            #[staticmethod]
            #[pyo3(signature = (text, *, lenient = false))]
            fn parse(text: &Bound<'_, pyo3::types::PyString>, lenient: bool) -> PyResult<Self> {
                let decode = if lenient {
                    $crate::formats::decode_lenient
                } else {
                    <<Self as $crate::formats::Wraps>::Id as sno_core::IdFormat>::decode
                };
                $crate::decode_text(text, decode).map($variant)
            }
        }
    };
}
pub(crate) use parse;

/// `T`'s lenient decoder (its `Extras::lenient`), or its strict one for a format without.
///
/// # Errors
/// The format's decoding error.
pub(crate) fn decode_lenient<T: IdFormat>(text: &[u8]) -> Result<T, Error> {
    match T::EXTRAS.lenient {
        Some(lenient) => (lenient.decode)(text),
        None => T::decode(text),
    }
}

sno_core::for_each_format!(py_formats);

// Every format's generators: the process-wide one, and `monotonic!`, the generator class and
// module functions of a format with a process-wide generator and no settings, which
// `generated.rs` (written from the core's format table by `tests/surfaces`) invokes for each.

/// `n` values of `make`, as a list of objects or, with `as_str`, of their text; signals are
/// checked between chunks.
pub(crate) fn new_list<'py, T, W>(
    py: Python<'py>,
    n: usize,
    as_str: bool,
    make: impl Fn() -> Result<T, sno_core::Error>,
    wrap: impl Fn(T) -> W,
) -> PyResult<Bound<'py, PyList>>
where
    T: sno_core::IdFormat,
    W: IntoPyObject<'py>,
{
    use pyo3::IntoPyObjectExt;
    let make = || make().map_err(|e| to_py(py, e));
    if as_str {
        list_of(py, n, |_| Ok(text(py, &make()?)?.into_any()))
    } else {
        list_of(py, n, |_| wrap(make()?).into_bound_py_any(py))
    }
}

/// The generator class `$gen` (Python name `$gen_name`) of value class `$class` on the core's
/// generator state of its format (`sno_core::HasGenerator`, of no settings), and the module
/// functions `$new` / `$new_many` drawing from the process-wide generator of the class's core
/// type (`sno_core::ProcessWide`).
macro_rules! monotonic {
    ($class:ident, $gen:ident, $gen_name:literal, $new:ident, $new_many:ident) => {
        #[doc = concat!("A thread-safe monotonic generator on the system clock (`sno.", $gen_name, "`).")]
        #[pyclass(frozen, module = "sno", name = $gen_name)]
        pub(crate) struct $gen(
            sno_core::monotonic::Shared<
                <<$class as $crate::formats::Wraps>::Id as sno_core::HasGenerator>::State,
            >,
        );

        #[pymethods]
        impl $gen {
            #[new]
            #[pyo3(signature = (*, clock = None))]
            fn py_new(
                py: Python<'_>,
                #[pyo3(from_py_with = $crate::args::clock)] clock: Option<sno_core::SystemClock>,
            ) -> PyResult<Self> {
                let settings = sno_core::GeneratorSettings::new();
                let state = <<$class as $crate::formats::Wraps>::Id as sno_core::HasGenerator>::state(
                    &settings,
                )
                .map_err(|e| $crate::to_py(py, e))?;
                Ok($gen(sno_core::monotonic::Shared::with_state_and_clock(
                    state,
                    clock.unwrap_or_default(),
                )))
            }

            /// The next value, greater than every earlier one of this generator.
            #[pyo3(name = "new")]
            fn next_value(&self, py: Python<'_>) -> PyResult<$class> {
                $crate::batch::next(py, &self.0).map($class)
            }

            /// Like `new`, but raises at once where `new` would wait (a millisecond's
            /// randomness used up: `RandomnessExhaustedError`).
            fn try_new(&self, py: Python<'_>) -> PyResult<$class> {
                self.0.try_next().map($class).map_err(|e| $crate::to_py(py, e))
            }

            /// The next value for an explicit time in Unix milliseconds (the clock is not read);
            /// outside the format's range a `TimeRangeError`.
            fn new_at_unix_ms(
                &self,
                py: Python<'_>,
                #[pyo3(from_py_with = $crate::args::time_i64)] unix_ms: i64,
            ) -> PyResult<$class> {
                self.0
                    .next_at_unix_ms(unix_ms)
                    .map($class)
                    .map_err(|e| $crate::to_py(py, e))
            }

            /// The old name of `new_at_unix_ms` (a `DeprecationWarning`).
            fn new_at(
                &self,
                py: Python<'_>,
                #[pyo3(from_py_with = $crate::args::time_i64)] unix_ms: i64,
            ) -> PyResult<$class> {
                $crate::errors::deprecated(py, "new_at", "new_at_unix_ms")?;
                self.new_at_unix_ms(py, unix_ms)
            }

            fn __repr__(&self) -> &'static str {
                concat!("sno.", $gen_name, "()")
            }
        }

        /// A new value from the process-wide generator (reset after `os.fork()`); a system
        /// clock outside the format's range is a `TimeRangeError`.
        #[pyfunction]
        fn $new(py: Python<'_>) -> PyResult<$class> {
            $crate::formats::process_value(py).map($class)
        }

        /// `n` new values from the process-wide generator, as objects or (`as_str=True`) their
        /// text.
        #[pyfunction]
        #[pyo3(signature = (n, *, as_str = false))]
        fn $new_many<'py>(
            py: Python<'py>,
            #[pyo3(from_py_with = $crate::args::count)] n: usize,
            as_str: bool,
        ) -> PyResult<Bound<'py, pyo3::types::PyList>> {
            $crate::formats::new_list(py, n, as_str, || $crate::formats::global(py), $class)
        }
    };
}
pub(crate) use monotonic;

/// The next value of `T`'s process-wide generator, waiting (detached from the interpreter)
/// where it must, as a Python exception.
pub(crate) fn process_value<T: sno_core::ProcessWide>(py: Python<'_>) -> PyResult<T> {
    global(py).map_err(|e| to_py(py, e))
}

/// The next value of `T`'s process-wide generator (`try_new_nonblocking`, then `try_new` with the
/// thread detached where that would wait).
pub(crate) fn global<T: sno_core::ProcessWide>(py: Python<'_>) -> Result<T, sno_core::Error> {
    global_value(py, T::try_new_nonblocking, T::try_new)
}
