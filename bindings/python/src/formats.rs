//! `sno.ULID`, `sno.UUID7`, `sno.SCRU128`, `sno.SCRU160`: one macro builds each value class, its
//! generator class and its module functions (the Python modules `sno.ulid`, `sno.uuid7`,
//! `sno.scru128` and `sno.scru160` re-export them under short names).

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{IntoPyDict, PyBytes, PyList, PyString, PyTuple, PyType};
use sno_core::Error;
use sno_core::monotonic::Shared;
use sno_core::scru128::Scru128Id;
use sno_core::scru160::Scru160Id;
use sno_core::ulid::Ulid;
use sno_core::uuid7::Uuid7;

pub(crate) use crate::batch::next;
use crate::batch::{global_value, list_of};
pub(crate) use crate::decode_text;
use crate::{args, datetime_from_ms, pickle_reduce, to_py};

static UUID_CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The standard library's `uuid.UUID` class, looked up once.
fn uuid_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    UUID_CLASS.import(py, "uuid", "UUID")
}

/// A `uuid.UUID` with the given 16 bytes.
fn to_uuid<'py>(py: Python<'py>, bytes: &[u8; 16]) -> PyResult<Bound<'py, PyAny>> {
    let kwargs = [("bytes", PyBytes::new(py, bytes))].into_py_dict(py)?;
    uuid_class(py)?.call((), Some(&kwargs))
}

/// The 16 bytes of a `uuid.UUID`, or `None` if `value` is not one.
fn uuid_bytes(value: &Bound<'_, PyAny>) -> PyResult<Option<[u8; 16]>> {
    if !value.is_instance(uuid_class(value.py())?)? {
        return Ok(None);
    }
    let bytes = value.getattr("bytes")?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    Ok(<[u8; 16]>::try_from(bytes).ok())
}

/// Milliseconds since 1970 as ISO 8601 UTC, for `repr()`; `None` past year 9999 (the limit of
/// ISO 8601's four-digit year and of `datetime`), which a 48-bit timestamp can reach.
pub(crate) fn iso_ms(ms: u64) -> Option<String> {
    let mut utc = [0u8; sno_core::time::UTC_LEN];
    sno_core::time::format_utc_millis(i64::try_from(ms).ok()?, &mut utc).map(str::to_owned)
}

/// `n` values of `make`, as a list of objects (`wrap`) or, with `as_str`, of their text; signals
/// are checked between chunks.
pub(crate) fn new_list<'py, T, W: IntoPyObject<'py>>(
    py: Python<'py>,
    n: usize,
    as_str: bool,
    make: impl Fn() -> Result<T, Error>,
    text: impl Fn(T) -> PyResult<Bound<'py, PyString>>,
    wrap: impl Fn(T) -> W,
) -> PyResult<Bound<'py, PyList>> {
    let make = || make().map_err(|e| to_py(py, e));
    if as_str {
        list_of(py, n, |_| Ok(text(make()?)?.into_any()))
    } else {
        list_of(py, n, |_| wrap(make()?).into_bound_py_any(py))
    }
}

/// A `str` of ASCII text written by a core encoder; `MemoryError` when Python cannot allocate
/// it (`PyString::new` would panic).
pub(crate) fn ascii_str<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyString>> {
    PyString::from_bytes(py, text)
}

/// Defines the value class `$class` (Python name `$name`) over core type `$core`, its generator
/// `$gen` on state `$state`, and the module functions `$new` / `$new_many` drawing from the
/// process-wide generator `$global()`. `$uuid` says whether `uuid.UUID` converts (same 128 bits); `$extra`
/// are the format's own methods; `$repr` gives the fields after the text in `repr()`.
macro_rules! py_format {
    (
        $class:ident, $name:literal, $core:ty,
        $gen:ident, $gen_name:literal, $state:ty, $global:path,
        $new:ident, $new_many:ident, $uuid:literal, bin = $bin:literal,
        repr = $repr:expr,
        { $($extra:tt)* }
    ) => {
        #[doc = concat!("A ", $name, ": immutable, hashable, ordered by time; `str()` is the canonical text.")]
        #[pyclass(frozen, eq, ord, hash, module = "sno", name = $name)]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub(crate) struct $class(pub(crate) $core);

        impl $class {
            fn coerce(value: &Bound<'_, PyAny>) -> PyResult<$core> {
                if let Ok(s) = value.cast::<PyString>() {
                    return decode_text(s, <$core>::decode);
                }
                if let Ok(b) = value.cast::<PyBytes>() {
                    return <$core>::from_slice(b.as_bytes()).map_err(|e| to_py(value.py(), e));
                }
                if let Ok(id) = value.cast::<$class>() {
                    return Ok(id.get().0);
                }
                if $uuid {
                    if let Some(bytes) = uuid_bytes(value)? {
                        return <$core>::from_slice(&bytes).map_err(|e| to_py(value.py(), e));
                    }
                }
                Err(PyTypeError::new_err(format!(
                    concat!("sno.", $name, "() takes a str, bytes (", $bin, "){}, not {}"),
                    if $uuid { " or uuid.UUID" } else { "" },
                    value.get_type().name()?
                )))
            }
        }

        #[pymethods]
        impl $class {
            /// Decodes text strictly, or takes the 16 raw bytes (or a `uuid.UUID` where it applies).
            #[new]
            fn py_new(value: &Bound<'_, PyAny>) -> PyResult<Self> {
                Self::coerce(value).map($class)
            }

            /// Strictly decodes the text form.
            #[staticmethod]
            fn from_str(text: &Bound<'_, PyString>) -> PyResult<Self> {
                decode_text(text, <$core>::decode).map($class)
            }

            #[doc = concat!("Takes the ", $bin, "-byte binary form.")]
            #[staticmethod]
            fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
                <$core>::from_slice(data).map($class).map_err(|e| to_py(py, e))
            }

            /// From the integer (big-endian bytes); negative or too large is a `DecodeError`
            /// (code `"value_overflow"`).
            #[staticmethod]
            fn from_int(value: &Bound<'_, pyo3::types::PyInt>) -> PyResult<Self> {
                let py = value.py();
                if value.lt(0i32)? {
                    return Err(to_py(py, Error::ValueOverflow));
                }
                let bytes = match value.call_method1("to_bytes", ($bin, "big")) {
                    Ok(bytes) => bytes,
                    Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) => {
                        return Err(to_py(py, Error::ValueOverflow));
                    }
                    Err(e) => return Err(e),
                };
                <$core>::from_slice(bytes.cast::<PyBytes>()?.as_bytes())
                    .map($class)
                    .map_err(|e| to_py(value.py(), e))
            }

            fn __str__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
                ascii_str(py, &self.0.encode_bytes())
            }

            fn __repr__(&self) -> String {
                let time = match iso_ms(self.0.unix_ms()) {
                    Some(iso) => format!("time='{iso}'"),
                    None => format!("unix_ms={}", self.0.unix_ms()),
                };
                #[allow(clippy::redundant_closure_call, reason = "the macro takes a formatter")]
                let fields: String = ($repr)(&self.0);
                format!(concat!("sno.", $name, "('{}', {}, {})"), self.0, time, fields)
            }

            fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                PyBytes::new(py, self.0.as_bytes())
            }

            #[doc = concat!("The ", $bin, "-byte binary form.")]
            #[getter]
            fn bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                PyBytes::new(py, self.0.as_bytes())
            }

            /// The integer (the bytes read big-endian).
            #[getter]
            fn int<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                py.get_type::<pyo3::types::PyInt>()
                    .call_method1("from_bytes", (PyBytes::new(py, self.0.as_bytes()), "big"))
            }

            /// The timestamp as an aware UTC `datetime` (millisecond precision).
            #[getter]
            fn timestamp<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                datetime_from_ms(py, self.0.unix_ms() as i64)
            }

            /// The timestamp in milliseconds since the Unix epoch.
            #[getter]
            fn unix_ms(&self) -> u64 {
                self.0.unix_ms()
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

            $($extra)*
        }

        #[doc = concat!("A thread-safe monotonic ", $name, " generator on the system clock.")]
        #[pyclass(frozen, module = "sno", name = $gen_name)]
        pub(crate) struct $gen(Shared<$state>);

        #[pymethods]
        impl $gen {
            #[new]
            fn py_new() -> Self {
                $gen(Shared::default())
            }

            /// The next value, greater than every earlier one of this generator.
            #[pyo3(name = "new")]
            fn next_value(&self, py: Python<'_>) -> PyResult<$class> {
                next(py, &self.0).map($class)
            }

            /// Like `new`, but raises at once where `new` would wait (a ULID millisecond's
            /// randomness used up: `RandomnessExhaustedError`).
            fn try_new(&self, py: Python<'_>) -> PyResult<$class> {
                self.0.try_next().map($class).map_err(|e| to_py(py, e))
            }

            /// The next value for an explicit time in Unix milliseconds (the clock is not read);
            /// outside the format's range a `TimeRangeError`.
            fn new_at(
                &self,
                py: Python<'_>,
                #[pyo3(from_py_with = args::time_i64)] unix_ms: i64,
            ) -> PyResult<$class> {
                self.0.next_at(unix_ms).map($class).map_err(|e| to_py(py, e))
            }

            fn __repr__(&self) -> &'static str {
                concat!("sno.", $gen_name, "()")
            }
        }

        #[doc = concat!("A new ", $name, " from the process-wide generator (reset after `os.fork()`); \
            a system clock outside the format's range is a `TimeRangeError`.")]
        #[pyfunction]
        fn $new(py: Python<'_>) -> PyResult<$class> {
            global_value(py, $global()).map($class).map_err(|e| to_py(py, e))
        }

        #[doc = concat!("`n` new ", $name, "s from the process-wide generator, as objects or \
            (`as_str=True`) their text.")]
        #[pyfunction]
        #[pyo3(signature = (n, *, as_str = false))]
        fn $new_many<'py>(
            py: Python<'py>,
            #[pyo3(from_py_with = args::count)] n: usize,
            as_str: bool,
        ) -> PyResult<Bound<'py, PyList>> {
            let make = || global_value(py, $global());
            new_list(py, n, as_str, make, |id| ascii_str(py, &id.encode_bytes()), $class)
        }
    };
}

py_format!(
    PyUlid,
    "ULID",
    Ulid,
    PyUlidGenerator,
    "ULIDGenerator",
    sno_core::ulid::Monotonic<sno_core::rng::ThreadRng>,
    sno_core::ulid::global_generator,
    ulid_new,
    ulid_new_many,
    true,
    bin = 16,
    repr = |u: &Ulid| format!("randomness=0x{:020x}", u.randomness()),
    {
        /// The 80 random bits, as an int.
        #[getter]
        fn randomness(&self) -> u128 {
            self.0.randomness()
        }

        /// The same 128 bits as a `uuid.UUID`.
        #[pyo3(name = "to_uuid")]
        fn as_uuid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_uuid(py, self.0.as_bytes())
        }

        /// The same 128 bits as a `sno.UUID7`, if they carry version 7 and the RFC variant
        /// (else `DecodeError`).
        #[pyo3(name = "to_uuid7")]
        fn as_uuid7(&self, py: Python<'_>) -> PyResult<PyUuid7> {
            Uuid7::try_from(self.0)
                .map(PyUuid7)
                .map_err(|e| to_py(py, e))
        }
    }
);

py_format!(
    PyUuid7,
    "UUID7",
    Uuid7,
    PyUuid7Generator,
    "UUID7Generator",
    sno_core::uuid7::Monotonic<sno_core::rng::ThreadRng>,
    sno_core::uuid7::global_generator,
    uuid7_new,
    uuid7_new_many,
    true,
    bin = 16,
    repr = |u: &Uuid7| format!("rand_a=0x{:03x}, rand_b=0x{:016x}", u.rand_a(), u.rand_b()),
    {
        /// Decodes an RFC 9562 string form, or with `lenient=True` also 32 bare hex digits and
        /// the braced form; the UUID must be version 7.
        #[staticmethod]
        #[pyo3(signature = (text, *, lenient = false))]
        fn parse(text: &Bound<'_, PyString>, lenient: bool) -> PyResult<Self> {
            let decode = if lenient {
                Uuid7::decode_lenient
            } else {
                Uuid7::decode
            };
            decode_text(text, decode).map(PyUuid7)
        }

        /// The 12-bit `rand_a` field (here the high part of the Method 1 counter).
        #[getter]
        fn rand_a(&self) -> u16 {
            self.0.rand_a()
        }

        /// The 62-bit `rand_b` field.
        #[getter]
        fn rand_b(&self) -> u64 {
            self.0.rand_b()
        }

        /// The version: 7.
        #[getter]
        fn version(&self) -> u8 {
            self.0.version()
        }

        /// The two variant bits: 0b10.
        #[getter]
        fn variant(&self) -> u8 {
            self.0.variant()
        }

        /// The 32 lower-case hex digits.
        #[getter]
        fn hex(&self) -> String {
            format!("{:032x}", self.0.to_u128())
        }

        /// The `uuid.UUID` with the same value.
        #[pyo3(name = "to_uuid")]
        fn as_uuid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            to_uuid(py, self.0.as_bytes())
        }

        /// The ULID with the same 128 bits (and the same timestamp).
        #[pyo3(name = "to_ulid")]
        fn as_ulid(&self) -> PyUlid {
            PyUlid(Ulid::from(self.0))
        }
    }
);

py_format!(
    PyScru128,
    "SCRU128",
    Scru128Id,
    PyScru128Generator,
    "SCRU128Generator",
    sno_core::scru128::Monotonic<sno_core::rng::ThreadRng>,
    sno_core::scru128::global_generator,
    scru128_new,
    scru128_new_many,
    false,
    bin = 16,
    repr = |s: &Scru128Id| format!(
        "counter_hi={}, counter_lo={}, entropy={}",
        s.counter_hi(),
        s.counter_lo(),
        s.entropy()
    ),
    {
        /// The 24-bit `counter_hi` field.
        #[getter]
        fn counter_hi(&self) -> u32 {
            self.0.counter_hi()
        }

        /// The 24-bit `counter_lo` field.
        #[getter]
        fn counter_lo(&self) -> u32 {
            self.0.counter_lo()
        }

        /// The 32-bit `entropy` field.
        #[getter]
        fn entropy(&self) -> u32 {
            self.0.entropy()
        }
    }
);

py_format!(
    PyScru160,
    "SCRU160",
    Scru160Id,
    PyScru160Generator,
    "SCRU160Generator",
    sno_core::scru160::Monotonic<sno_core::rng::ThreadRng>,
    sno_core::scru160::global_generator,
    scru160_new,
    scru160_new_many,
    false,
    bin = 20,
    repr = |s: &Scru160Id| format!(
        "counter={}, random16={}, random80=0x{:020x}",
        s.counter(),
        s.random16(),
        s.random80()
    ),
    {
        /// The 16-bit `counter` field.
        #[getter]
        fn counter(&self) -> u16 {
            self.0.counter()
        }

        /// The 16-bit `random16` field.
        #[getter]
        fn random16(&self) -> u16 {
            self.0.random16()
        }

        /// The 80-bit `random80` field.
        #[getter]
        fn random80(&self) -> u128 {
            self.0.random80()
        }

        /// The 40 lower-case hex digits (the other text form; `str()` is base32hex).
        #[getter]
        fn hex<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
            ascii_str(py, &self.0.encode_hex_bytes())
        }
    }
);

/// Adds the classes and functions to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyUlid>()?;
    m.add_class::<PyUlidGenerator>()?;
    m.add_class::<PyUuid7>()?;
    m.add_class::<PyUuid7Generator>()?;
    m.add_class::<PyScru128>()?;
    m.add_class::<PyScru128Generator>()?;
    m.add_function(wrap_pyfunction!(ulid_new, m)?)?;
    m.add_function(wrap_pyfunction!(ulid_new_many, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_new, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_new_many, m)?)?;
    m.add_function(wrap_pyfunction!(scru128_new, m)?)?;
    m.add_function(wrap_pyfunction!(scru128_new_many, m)?)?;
    m.add_class::<PyScru160>()?;
    m.add_class::<PyScru160Generator>()?;
    m.add_function(wrap_pyfunction!(scru160_new, m)?)?;
    m.add_function(wrap_pyfunction!(scru160_new_many, m)?)?;
    Ok(())
}
