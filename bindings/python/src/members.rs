//! The per-format members `generated.rs` writes for every value class from the core's table
//! (`tests/surfaces`): `parse`, `from_fields`, a property per named field, per other text form and
//! per number, and `unix_ms_at` (the core's `IdFormat::EXTRAS`); the macros and the generic
//! functions behind them.

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};
use sno_core::model::MAX_TEXT_LEN;
use sno_core::{Field, FieldValue, IdFormat};

use crate::values::*;
use crate::{text_error, to_py, with_utf8};

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
                    $crate::members::field(py, &self.0, $index)
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

/// The value of format `To` with the same bits as `id` (one of the core's
/// `Format::conversions`): `To`'s rules for its binary form, its errors.
pub(crate) fn convert<From: IdFormat, To: IdFormat>(py: Python<'_>, id: &From) -> PyResult<To> {
    To::from_slice(id.as_slice()).map_err(|e| to_py(py, e))
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
/// property per other text form (`text`), an `int` property per number (`number`), a method
/// `to_<name>()` per format the value converts to (`convert`: `Format::conversions`), and
/// `unix_ms_at(epoch_ms)` for a format whose epoch the caller knows (`epoch`, with `= ` and the
/// default epoch where it has one: a `tt`, so that pyo3 sees the literal and shows it in the
/// signature).
macro_rules! extra_properties {
    ($variant:ident { $($item:tt)* }) => {
        $crate::members::extra_properties!(@ $variant $($item)*);
    };
    (@ $variant:ident) => {};
    (@ $variant:ident text $name:ident, $doc:literal; $($rest:tt)*) => {
        #[pymethods]
        impl $variant {
            #[doc = $doc]
            #[getter]
            fn $name<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyString>> {
                $crate::members::text_form(py, &self.0, stringify!($name))
            }
        }
        $crate::members::extra_properties!(@ $variant $($rest)*);
    };
    (@ $variant:ident number $name:ident, $doc:literal; $($rest:tt)*) => {
        #[pymethods]
        impl $variant {
            #[doc = $doc]
            #[getter]
            fn $name(&self) -> PyResult<u64> {
                $crate::members::number(&self.0, stringify!($name))
            }
        }
        $crate::members::extra_properties!(@ $variant $($rest)*);
    };
    (@ $variant:ident convert $name:ident -> $target:ident, $doc:literal; $($rest:tt)*) => {
        #[pymethods]
        impl $variant {
            #[doc = $doc]
            #[allow(
                clippy::wrong_self_convention,
                reason = "a pyo3 method takes `&self`; Python names a conversion `to_<name>`"
            )]
            fn $name(&self, py: Python<'_>) -> PyResult<$crate::formats::$target> {
                $crate::members::convert(py, &self.0).map($crate::formats::$target)
            }
        }
        $crate::members::extra_properties!(@ $variant $($rest)*);
    };
    (@ $variant:ident epoch $(= $default:tt)?, $doc:literal; $($rest:tt)*) => {
        #[pymethods]
        impl $variant {
            #[doc = $doc]
            $(#[pyo3(signature = (epoch_ms = $default))])?
            fn unix_ms_at(
                &self,
                #[pyo3(from_py_with = $crate::args::any_epoch_ms)] epoch_ms: i64,
            ) -> PyResult<i64> {
                $crate::members::unix_ms_at(&self.0, epoch_ms)
            }
        }
        $crate::members::extra_properties!(@ $variant $($rest)*);
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
                match $crate::members::from_field_args(
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
                    <<Self as $crate::formats::Wraps>::Id as sno_core::IdFormat>::decode_lenient
                } else {
                    <<Self as $crate::formats::Wraps>::Id as sno_core::IdFormat>::decode
                };
                $crate::decode_text(text, decode).map($variant)
            }
        }
    };
}
pub(crate) use parse;

/// `new(<param>)` and `from_<binary>(<param>, <binary>)` of class `$variant`, whose format has a
/// param (the core's `Extras::param`: a text part outside the binary form, a prefix), written
/// into `generated.rs` by `tests/surfaces` with the core's names and documentation.
macro_rules! param_constructors {
    ($variant:ident, $param:ident, $from:ident, $binary:ident, $new_doc:literal, $from_doc:literal) => {
        #[pymethods]
        impl $variant {
            #[doc = $new_doc]
            #[staticmethod]
            #[pyo3(name = "new")]
            fn new_with_param($param: &Bound<'_, pyo3::types::PyString>) -> PyResult<Self> {
                $crate::members::new_with_param($param).map($variant)
            }

            /// The binary form (a `uuid.UUID` for a 128-bit format, else `bytes`).
            #[getter]
            fn $binary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                $crate::members::binary_value(py, &self.0)
            }

            #[doc = $from_doc]
            #[staticmethod]
            fn $from(
                $param: &Bound<'_, pyo3::types::PyString>,
                $binary: &Bound<'_, PyAny>,
            ) -> PyResult<Self> {
                $crate::members::with_param($param, $binary).map($variant)
            }
        }
    };
}
pub(crate) use param_constructors;

/// The binary form of `id`: a `uuid.UUID` for a 128-bit format, else `bytes`.
pub(crate) fn binary_value<'py, T: IdFormat>(
    py: Python<'py>,
    id: &T,
) -> PyResult<Bound<'py, PyAny>> {
    if T::FORMAT.column_type() == sno_core::ColumnType::Uuid {
        to_uuid(py, id)
    } else {
        pyo3::types::PyBytes::new(py, id.as_slice()).into_bound_py_any(py)
    }
}

/// `T`'s param (only formats with one have the constructors that ask).
fn param_of<T: IdFormat>() -> PyResult<sno_core::model::Param<T>> {
    T::EXTRAS
        .param
        .ok_or_else(|| PyTypeError::new_err(format!("{} values have no param", T::FORMAT)))
}

/// `make` with the param's text (a `str` with lone surrogates reaches the core's check as
/// U+FFFD, which it refuses), its error as a Python exception.
fn with_param_text<T>(
    param: &Bound<'_, PyString>,
    make: impl FnOnce(&str) -> Result<T, sno_core::Error>,
) -> PyResult<T> {
    with_utf8(param, |p| make(&String::from_utf8_lossy(p)))?.map_err(|e| to_py(param.py(), e))
}

/// A new value of `T` of `param` and a binary form from the process-wide generator of the
/// param's source format (the call that never blocks, and where it would wait, the core's
/// bounded wait with the thread detached).
pub(crate) fn new_with_param<T: IdFormat>(param: &Bound<'_, PyString>) -> PyResult<T> {
    let py = param.py();
    let p = param_of::<T>()?;
    let source = p.facts.source;
    let unknown = || Err(sno_core::Error::UnknownFormat);
    with_param_text(param, |text| {
        (p.check)(text)?;
        let binary = crate::batch::global_value(
            py,
            || sno_core::AnyId::try_new_nonblocking(source).unwrap_or_else(unknown),
            move || sno_core::AnyId::try_new(source).unwrap_or_else(unknown),
        )?;
        (p.with)(text, binary.as_slice())
    })
}

/// The value of `T` of `param` and `binary`: a value of a format with the same bits
/// (`sno.UUID7`, `sno.ULID`), a text of the param's source format, or the binary form (a
/// `uuid.UUID` or its bytes for a 128-bit format; `bytes`), its length checked by the core.
pub(crate) fn with_param<T: IdFormat>(
    param: &Bound<'_, PyString>,
    binary: &Bound<'_, PyAny>,
) -> PyResult<T> {
    let p = param_of::<T>()?;
    let same_bits = crate::formats::any_value(binary).filter(|v| T::FORMAT.same_bits(v.format()));
    let bytes = if let Some(value) = same_bits {
        value.as_slice().to_vec()
    } else if let Ok(text) = binary.cast::<PyString>() {
        with_utf8(text, |t| {
            sno_core::AnyId::parse_as(p.facts.source, t).map_err(|e| text_error(binary.py(), t, e))
        })??
        .as_slice()
        .to_vec()
    } else if T::FORMAT.column_type() == sno_core::ColumnType::Uuid {
        if !binary.is_instance(uuid_class(binary.py())?)? && !binary.is_instance_of::<PyBytes>() {
            return Err(binary_type_error::<T>(
                binary,
                &p.facts,
                "a uuid.UUID, its 16 bytes",
            ));
        }
        uuid_arg(binary)?.as_bytes().to_vec()
    } else {
        let bytes = binary
            .cast::<PyBytes>()
            .map_err(|_| binary_type_error::<T>(binary, &p.facts, "bytes"))?;
        bytes.as_bytes().to_vec()
    };
    with_param_text(param, |text| (p.with)(text, &bytes))
}

/// The `TypeError` of `from_<binary>(<param>, <binary>)` for a `binary` of another type: every
/// form it takes (`forms`, the values of the formats of the same bits, a text of the param's
/// source format), in the table's names.
fn binary_type_error<T: IdFormat>(
    binary: &Bound<'_, PyAny>,
    facts: &sno_core::model::ParamFacts,
    forms: &str,
) -> PyErr {
    let mut forms = vec![forms.to_owned()];
    forms.extend(
        sno_core::Format::ALL
            .into_iter()
            .filter(|f| T::FORMAT.same_bits(*f))
            .map(|f| format!("a sno.{}", f.python_class())),
    );
    let got = binary
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string());
    PyTypeError::new_err(format!(
        "{}.from_{binary_name}({}, {binary_name}): {binary_name} must be {} or a {}'s text, got {got}",
        T::FORMAT.python_class(),
        facts.setting.name(),
        forms.join(", "),
        facts.source.display_name(),
        binary_name = facts.binary,
    ))
}
