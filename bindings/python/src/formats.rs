//! What single formats add to their value classes (built in `ids`, with a property per named
//! field and `from_fields`): other text forms, conversions, TypeID's prefix; and
//! `monotonic!`, the generator class and module functions of a format with a process-wide
//! generator and no settings, which `generated.rs` (written from the core's format table by
//! `tests/surfaces`) invokes for each such format.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::batch::{global_value, list_of};
use crate::ids::{Scru160, TypeId, Ulid, Uuid7, ascii_str, text, uuid_arg};
use crate::{decode_text, to_py, with_utf8};

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
                <<$class as $crate::ids::Wraps>::Id as sno_core::HasGenerator>::State,
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
                let state = <<$class as $crate::ids::Wraps>::Id as sno_core::HasGenerator>::state(
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
            fn new_at(
                &self,
                py: Python<'_>,
                #[pyo3(from_py_with = $crate::args::time_i64)] unix_ms: i64,
            ) -> PyResult<$class> {
                self.0.next_at(unix_ms).map($class).map_err(|e| $crate::to_py(py, e))
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

#[pymethods]
impl Ulid {
    /// The same 128 bits as a `sno.UUID7`, if they carry version 7 and the RFC variant (else
    /// `DecodeError`).
    #[pyo3(name = "to_uuid7")]
    fn as_uuid7(&self, py: Python<'_>) -> PyResult<Uuid7> {
        sno_core::uuid7::Uuid7::try_from(self.0)
            .map(Uuid7)
            .map_err(|e| to_py(py, e))
    }
}

#[pymethods]
impl Uuid7 {
    /// Decodes an RFC 9562 string form, or with `lenient=True` also 32 bare hex digits and the
    /// braced form; the UUID must be version 7.
    #[staticmethod]
    #[pyo3(signature = (text, *, lenient = false))]
    fn parse(text: &Bound<'_, PyString>, lenient: bool) -> PyResult<Self> {
        let decode = if lenient {
            sno_core::uuid7::Uuid7::decode_lenient
        } else {
            sno_core::uuid7::Uuid7::decode
        };
        decode_text(text, decode).map(Uuid7)
    }

    /// The 32 lower-case hex digits.
    #[getter]
    fn hex(&self) -> String {
        format!("{:032x}", self.0.to_u128())
    }

    /// The ULID with the same 128 bits (and the same timestamp).
    #[pyo3(name = "to_ulid")]
    fn as_ulid(&self) -> Ulid {
        Ulid(self.0.into())
    }
}

#[pymethods]
impl Scru160 {
    /// The 40 lower-case hex digits (the other text form; `str()` is base32hex).
    #[getter]
    fn hex<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        ascii_str(py, &self.0.encode_hex_bytes())
    }
}

#[pymethods]
impl TypeId {
    /// A new TypeID: `prefix` (`""`, or 1 to 63 of `a-z` and `_`, not at either end; else a
    /// `DecodeError`, code `"invalid_prefix"`) and a UUIDv7 from the process-wide generator.
    #[staticmethod]
    #[pyo3(name = "new")]
    fn new_value(prefix: &Bound<'_, PyString>) -> PyResult<Self> {
        let py = prefix.py();
        let uuid = global_value(
            py,
            sno_core::uuid7::try_new_nonblocking,
            sno_core::uuid7::try_new,
        )
        .map_err(|e| to_py(py, e))?;
        with_prefix(prefix, |p| sno_core::typeid::TypeId::from_uuid7(p, uuid))
    }

    /// The TypeID with `prefix` and any UUID: a `uuid.UUID`, its 16 bytes, a `sno.UUID7` or
    /// `sno.ULID` (the same 128 bits), or a UUID's text (a `sno.UUID7`'s strict form).
    #[staticmethod]
    fn from_uuid(prefix: &Bound<'_, PyString>, uuid: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = uuid.py();
        let raw = if let Ok(u) = uuid.cast::<Uuid7>() {
            u.get().0.to_bytes()
        } else if let Ok(u) = uuid.cast::<Ulid>() {
            u.get().0.to_bytes()
        } else if let Ok(s) = uuid.cast::<PyString>() {
            decode_text(s, sno_core::uuid7::Uuid7::decode)?.to_bytes()
        } else {
            let bytes = uuid_arg(uuid)?;
            // The core checks the length (the binary form of a TypeID is the UUID's 16 bytes).
            sno_core::typeid::TypeId::from_slice(bytes.as_bytes())
                .map_err(|e| to_py(py, e))?
                .uuid_bytes()
        };
        with_prefix(prefix, |p| sno_core::typeid::TypeId::from_uuid(p, raw))
    }

    /// The 26-character suffix: the UUID in lower-case Crockford base32.
    #[getter]
    fn suffix<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        let mut buf = [0u8; sno_core::typeid::SUFFIX_LEN];
        ascii_str(py, self.0.encode_suffix(&mut buf).as_bytes())
    }

    /// The UUID, as a `uuid.UUID` (as `to_uuid()`).
    #[getter]
    fn uuid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::ids::to_uuid(py, &self.0)
    }
}

/// `make` with the prefix text (a `str` with lone surrogates reaches the core's check as
/// U+FFFD, which it refuses).
fn with_prefix(
    prefix: &Bound<'_, PyString>,
    make: impl FnOnce(&str) -> Result<sno_core::typeid::TypeId, sno_core::Error>,
) -> PyResult<TypeId> {
    let made = with_utf8(prefix, |p| make(&String::from_utf8_lossy(p)))?;
    made.map(TypeId).map_err(|e| to_py(prefix.py(), e))
}
