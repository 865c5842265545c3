//! What ULID, UUIDv7, SCRU128, SCRU160, KSUID and TypeID add to their value classes (built in
//! `ids`): field properties, `from_fields`, conversions; and the generators and module functions
//! of all but TypeID, the same for each (the Python modules `sno.ulid`, `sno.uuid7`,
//! `sno.scru128`, `sno.scru160`, `sno.ksuid` and `sno.typeid` re-export them under short names).

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use sno_core::monotonic::Shared;
use sno_core::rng::ThreadRng;

use crate::batch::{global_value, list_of, next};
use crate::ids::{Ksuid, Scru128, Scru160, TypeId, Ulid, Uuid7, ascii_str, field, text, uuid_arg};
use crate::{args, decode_text, to_py, with_utf8};

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

/// The generator class `$gen` (Python name `$gen_name`) of value class `$class` on state
/// `$state`, and the module functions `$new` / `$new_many` drawing from the process-wide
/// generator of core module `$module` (its `try_new_nonblocking` / `try_new`).
macro_rules! monotonic {
    ($class:ident, $gen:ident, $gen_name:literal, $state:ty, $module:ident, $new:ident, $new_many:ident) => {
        #[doc = concat!("A thread-safe monotonic generator on the system clock (`sno.", $gen_name, "`).")]
        #[pyclass(frozen, module = "sno", name = $gen_name)]
        pub(crate) struct $gen(Shared<$state>);

        #[pymethods]
        impl $gen {
            #[new]
            #[pyo3(signature = (*, clock = None))]
            fn py_new(
                #[pyo3(from_py_with = crate::args::clock)] clock: Option<sno_core::SystemClock>,
            ) -> Self {
                $gen(Shared::with_state_and_clock(
                    Default::default(),
                    clock.unwrap_or_default(),
                ))
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

        /// A new value from the process-wide generator (reset after `os.fork()`); a system
        /// clock outside the format's range is a `TimeRangeError`.
        #[pyfunction]
        fn $new(py: Python<'_>) -> PyResult<$class> {
            global_value(py, sno_core::$module::try_new_nonblocking, sno_core::$module::try_new).map($class).map_err(|e| to_py(py, e))
        }

        /// `n` new values from the process-wide generator, as objects or (`as_str=True`) their
        /// text.
        #[pyfunction]
        #[pyo3(signature = (n, *, as_str = false))]
        fn $new_many<'py>(
            py: Python<'py>,
            #[pyo3(from_py_with = args::count)] n: usize,
            as_str: bool,
        ) -> PyResult<Bound<'py, PyList>> {
            new_list(py, n, as_str, || global_value(py, sno_core::$module::try_new_nonblocking, sno_core::$module::try_new), $class)
        }
    };
}

monotonic!(
    Ulid,
    UlidGenerator,
    "ULIDGenerator",
    sno_core::ulid::Monotonic<ThreadRng>,
    ulid,
    ulid_new,
    ulid_new_many
);
monotonic!(
    Uuid7,
    Uuid7Generator,
    "UUID7Generator",
    sno_core::uuid7::Monotonic<ThreadRng>,
    uuid7,
    uuid7_new,
    uuid7_new_many
);
monotonic!(
    Scru128,
    Scru128Generator,
    "SCRU128Generator",
    sno_core::scru128::Monotonic<ThreadRng>,
    scru128,
    scru128_new,
    scru128_new_many
);
monotonic!(
    Scru160,
    Scru160Generator,
    "SCRU160Generator",
    sno_core::scru160::Monotonic<ThreadRng>,
    scru160,
    scru160_new,
    scru160_new_many
);
monotonic!(
    Ksuid,
    KsuidGenerator,
    "KSUIDGenerator",
    sno_core::ksuid::Monotonic<ThreadRng>,
    ksuid,
    ksuid_new,
    ksuid_new_many
);

#[pymethods]
impl Ulid {
    /// The ULID with the given fields; `unix_ms` at or above 2**48 is a `TimeRangeError`,
    /// `randomness` above 80 bits a `DecodeError`.
    #[staticmethod]
    fn from_fields(
        py: Python<'_>,
        #[pyo3(from_py_with = args::field)] unix_ms: u64,
        #[pyo3(from_py_with = args::field)] randomness: u128,
    ) -> PyResult<Self> {
        sno_core::ulid::Ulid::from_fields(unix_ms, randomness)
            .map(Ulid)
            .map_err(|e| to_py(py, e))
    }

    /// The 80 random bits.
    #[getter]
    fn randomness(&self) -> u128 {
        self.0.randomness()
    }

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
    /// The UUIDv7 with the given fields (version and variant are set); `unix_ms` at or above
    /// 2**48 is a `TimeRangeError`, a field above its width a `DecodeError`.
    #[staticmethod]
    fn from_fields(
        py: Python<'_>,
        #[pyo3(from_py_with = args::field)] unix_ms: u64,
        #[pyo3(from_py_with = args::field)] rand_a: u16,
        #[pyo3(from_py_with = args::field)] rand_b: u64,
    ) -> PyResult<Self> {
        sno_core::uuid7::Uuid7::from_fields(unix_ms, rand_a, rand_b)
            .map(Uuid7)
            .map_err(|e| to_py(py, e))
    }

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

    /// The ULID with the same 128 bits (and the same timestamp).
    #[pyo3(name = "to_ulid")]
    fn as_ulid(&self) -> Ulid {
        Ulid(self.0.into())
    }
}

#[pymethods]
impl Scru128 {
    /// The SCRU128 with the given fields; `unix_ms` at or above 2**48 is a `TimeRangeError`, a
    /// field above its width a `DecodeError`.
    #[staticmethod]
    fn from_fields(
        py: Python<'_>,
        #[pyo3(from_py_with = args::field)] unix_ms: u64,
        #[pyo3(from_py_with = args::field)] counter_hi: u32,
        #[pyo3(from_py_with = args::field)] counter_lo: u32,
        #[pyo3(from_py_with = args::field)] entropy: u32,
    ) -> PyResult<Self> {
        sno_core::scru128::Scru128Id::from_fields(unix_ms, counter_hi, counter_lo, entropy)
            .map(Scru128)
            .map_err(|e| to_py(py, e))
    }

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

#[pymethods]
impl Scru160 {
    /// The SCRU160 with the given fields; `unix_ms` at or above 2**48 is a `TimeRangeError`, a
    /// field above its width a `DecodeError`.
    #[staticmethod]
    fn from_fields(
        py: Python<'_>,
        #[pyo3(from_py_with = args::field)] unix_ms: u64,
        #[pyo3(from_py_with = args::field)] counter: u16,
        #[pyo3(from_py_with = args::field)] random16: u16,
        #[pyo3(from_py_with = args::field)] random80: u128,
    ) -> PyResult<Self> {
        sno_core::scru160::Scru160Id::from_fields(unix_ms, counter, random16, random80)
            .map(Scru160)
            .map_err(|e| to_py(py, e))
    }

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

#[pymethods]
impl Ksuid {
    /// The KSUID with the given fields: `timestamp_secs`, seconds since the KSUID epoch
    /// (2014-05-13T16:53:20Z), 32 bits, and the 128-bit `payload`; a field above its width is a
    /// `DecodeError` (code `"value_overflow"`).
    #[staticmethod]
    fn from_fields(
        #[pyo3(from_py_with = args::field)] timestamp_secs: u32,
        #[pyo3(from_py_with = args::field_u128)] payload: u128,
    ) -> Self {
        Ksuid(sno_core::ksuid::Ksuid::from_fields(timestamp_secs, payload))
    }

    /// The 32-bit `timestamp_secs` field (segmentio's `timestamp`): seconds since the KSUID
    /// epoch (2014-05-13T16:53:20Z); `.timestamp` is the `datetime`, as on every value class.
    #[getter]
    fn timestamp_secs(&self) -> u32 {
        self.0.timestamp_secs()
    }

    /// The 128-bit `payload` field.
    #[getter]
    fn payload(&self) -> u128 {
        self.0.payload()
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

    /// The type prefix (`""` for none).
    #[getter]
    fn prefix(&self) -> &str {
        self.0.prefix()
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

    /// The UUID's 4-bit version field (7 for generated TypeIDs).
    #[getter]
    fn version(&self) -> PyResult<u128> {
        field(&self.0, "version")
    }

    /// The UUID's 12-bit `rand_a` field.
    #[getter]
    fn rand_a(&self) -> PyResult<u128> {
        field(&self.0, "rand_a")
    }

    /// The UUID's two variant bits.
    #[getter]
    fn variant(&self) -> PyResult<u128> {
        field(&self.0, "variant")
    }

    /// The UUID's 62-bit `rand_b` field.
    #[getter]
    fn rand_b(&self) -> PyResult<u128> {
        field(&self.0, "rand_b")
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

/// Adds the generators and module functions to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<UlidGenerator>()?;
    m.add_class::<Uuid7Generator>()?;
    m.add_class::<Scru128Generator>()?;
    m.add_class::<Scru160Generator>()?;
    m.add_function(wrap_pyfunction!(ulid_new, m)?)?;
    m.add_function(wrap_pyfunction!(ulid_new_many, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_new, m)?)?;
    m.add_function(wrap_pyfunction!(uuid7_new_many, m)?)?;
    m.add_function(wrap_pyfunction!(scru128_new, m)?)?;
    m.add_function(wrap_pyfunction!(scru128_new_many, m)?)?;
    m.add_function(wrap_pyfunction!(scru160_new, m)?)?;
    m.add_function(wrap_pyfunction!(scru160_new_many, m)?)?;
    m.add_class::<KsuidGenerator>()?;
    m.add_function(wrap_pyfunction!(ksuid_new, m)?)?;
    m.add_function(wrap_pyfunction!(ksuid_new_many, m)?)?;
    Ok(())
}
