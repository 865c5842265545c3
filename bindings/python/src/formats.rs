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
//! pydantic's hooks (`sno._pydantic`). The conversions they use are in `values.rs`; the members
//! `generated.rs` writes per format (`parse`, `from_fields`, field and extra properties) in
//! `members.rs`, the generators in `generators.rs`.
//!
//! What a format adds beyond the core's table and extras (conversions, constructors) is a
//! `#[pymethods]` block of its own beside it: `sno.rs`, `extras.rs`.

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyBytes, PyDict, PyString, PyTuple, PyType};
use sno_core::{Error, IdFormat};

use crate::values::*;
use crate::{datetime_from_ms, decode_text, to_py};

/// The core type of the values a value class holds.
pub(crate) trait Wraps {
    /// The core type.
    type Id: IdFormat;
}

/// One class per entry of the core's format table, named by its `python_class`.
macro_rules! py_formats {
    ($($variant:ident {
        ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt,
        max_text_len: $text:tt, generator: $generator:tt, process_generator: $process:tt,
        python_class: $class:literal $(, $fact:ident: $value:tt)* $(,)?
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

        /// The core value of `value` when it is an instance of a value class.
        pub(crate) fn any_value(value: &Bound<'_, PyAny>) -> Option<sno_core::AnyId> {
            $( if let Ok(v) = value.cast::<$variant>() {
                return Some(sno_core::AnyId::$variant(v.get().0));
            } )*
            None
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

        // Comparisons and hashing of a class whose values are UUIDs: a `uuid.UUID` with the same
        // 128 bits is equal (and hashes the same: `hash(int)`, as `uuid.UUID`'s), and orders with
        // it by value; any other type is `NotImplemented`.
        #[pymethods]
        impl Uuid7 {
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
    ($variant:ident, $ty:ty, $class:literal, $bin:tt) => {
        value_class!($variant, $ty, $class, $bin, by_value);
    };
}

/// The struct of class `$variant`: `by_value` compares and hashes within the class alone
/// (`#[pyclass(eq, ord, hash)]`); `uuid` leaves that to `py_class!`'s own comparisons.
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

        bits128!($bin, $variant);
    };
}

/// `to_uuid()` for the 128-bit formats: the same 128 bits as a `uuid.UUID`.
macro_rules! bits128 {
    (16, $variant:ident) => {
        #[pymethods]
        impl $variant {
            /// The same 128 bits as a `uuid.UUID`.
            #[pyo3(name = "to_uuid")]
            fn as_uuid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                to_uuid(py, &self.0)
            }
        }
    };
    ($other:tt, $variant:ident) => {};
}

/// `from_uuid(uuid)` of a 128-bit format whose value is the 128 bits alone (a format with a
/// param has `param_constructors!`'s): written into `generated.rs` by `tests/surfaces`.
macro_rules! from_uuid {
    ($variant:ident) => {
        #[pymethods]
        impl $variant {
            /// The value with the 128 bits of a `uuid.UUID` (any other type is a `TypeError`;
            /// bits the format refuses a `DecodeError`, e.g. a UUID7 of another version).
            #[staticmethod]
            fn from_uuid(uuid: &Bound<'_, PyAny>) -> PyResult<Self> {
                $crate::values::from_uuid(uuid).map($variant)
            }
        }
    };
}
pub(crate) use from_uuid;

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

sno_core::for_each_format!(py_formats);
