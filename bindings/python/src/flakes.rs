//! `sno.Nanoflake` and `sno.UlidFlake`, the 64-bit formats: values are Python `int`s underneath
//! (`int(x)`, `x.int`, `from_int`), with 8-byte big-endian `bytes`. One macro builds what the two
//! value classes share; their generators take the formats' settings (epoch, generator id, sid).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyList, PyString, PyTuple};
use sno_core::Error;
use sno_core::monotonic::Shared;
use sno_core::nanoflake::{self, Nanoflake};
use sno_core::rng::ThreadRng;
use sno_core::ulidflake::{self, Config, UlidFlake};

use crate::batch::global_value;
use crate::formats::{ascii_str, decode_text, iso_ms, new_list, next};
use crate::{args, datetime_from_ms, pickle_reduce, raise_code, to_py};

// The signatures spell the default epoch as a literal, so that Python shows its value.
const _: () = assert!(ulidflake::DEFAULT_EPOCH_MS == 1_704_067_200_000);

/// Settings a generator refuses are `ConfigError`s with the core's code (not the decode or time
/// errors the same core error means for values). The binding checks each argument's range
/// first, so these are what only the core knows.
fn config_error(py: Python<'_>, e: Error) -> PyErr {
    match e {
        Error::ValueOverflow | Error::MillisOutOfRange { .. } => raise_code(
            py,
            "ConfigError",
            e.code(),
            format!("invalid generator settings: {e}"),
        ),
        other => to_py(py, other),
    }
}

/// Defines the value class `$class` (Python name `$name`) over a 64-bit core type; `$extra` are
/// the format's own methods; `$repr` gives the fields after the text in `repr()`.
macro_rules! py_int64 {
    ($class:ident, $name:literal, $core:ty, repr = $repr:expr, { $($extra:tt)* }) => {
        #[doc = concat!("A ", $name, ": immutable, hashable, ordered like its integer; `str()` is the canonical text.")]
        #[pyclass(frozen, eq, ord, hash, module = "sno", name = $name)]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub(crate) struct $class(pub(crate) $core);

        impl $class {
            fn coerce(value: &Bound<'_, PyAny>) -> PyResult<$core> {
                let py = value.py();
                if let Ok(s) = value.cast::<PyString>() {
                    return decode_text(s, <$core>::decode);
                }
                if let Ok(i) = value.cast::<PyInt>() {
                    return <$core>::from_i64(args::id_int64(i)?).map_err(|e| to_py(py, e));
                }
                if let Ok(b) = value.cast::<PyBytes>() {
                    return <$core>::from_slice(b.as_bytes()).map_err(|e| to_py(py, e));
                }
                if let Ok(id) = value.cast::<$class>() {
                    return Ok(id.get().0);
                }
                Err(PyTypeError::new_err(format!(
                    concat!("sno.", $name, "() takes a str, int or bytes (8), not {}"),
                    value.get_type().name()?
                )))
            }
        }

        #[pymethods]
        impl $class {
            /// Decodes text strictly, or takes the integer (0 ..= 2**63 - 1) or the 8 bytes.
            #[new]
            fn py_new(value: &Bound<'_, PyAny>) -> PyResult<Self> {
                Self::coerce(value).map($class)
            }

            /// Strictly decodes the text form.
            #[staticmethod]
            fn from_str(text: &Bound<'_, PyString>) -> PyResult<Self> {
                decode_text(text, <$core>::decode).map($class)
            }

            /// Takes the 8-byte big-endian binary form.
            #[staticmethod]
            fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
                <$core>::from_slice(data).map($class).map_err(|e| to_py(py, e))
            }

            /// From the integer (0 ..= 2**63 - 1; outside a `DecodeError`, code
            /// `"value_overflow"`).
            #[staticmethod]
            fn from_int(
                py: Python<'_>,
                #[pyo3(from_py_with = args::id_int64)] value: i64,
            ) -> PyResult<Self> {
                <$core>::from_i64(value).map($class).map_err(|e| to_py(py, e))
            }

            fn __str__(&self) -> String {
                self.0.to_string()
            }

            fn __repr__(&self) -> String {
                #[allow(clippy::redundant_closure_call, reason = "the macro takes a formatter")]
                let fields: String = ($repr)(&self.0);
                format!(concat!("sno.", $name, "('{}', {})"), self.0, fields)
            }

            fn __int__(&self) -> i64 {
                self.0.to_i64()
            }

            fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                PyBytes::new(py, self.0.as_bytes())
            }

            /// The 8-byte big-endian binary form.
            #[getter]
            fn bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                PyBytes::new(py, self.0.as_bytes())
            }

            /// The integer.
            #[getter]
            fn int(&self) -> i64 {
                self.0.to_i64()
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
    };
}

py_int64!(
    PyNanoflake,
    "Nanoflake",
    Nanoflake,
    repr = |n: &Nanoflake| format!(
        "timestamp_ms={}, generator_id={}, sequence={}",
        n.timestamp(),
        n.generator_id(),
        n.sequence()
    ),
    {
        /// The 41-bit timestamp: milliseconds since the application's epoch (which the value
        /// does not carry).
        #[getter]
        fn timestamp_ms(&self) -> u64 {
            self.0.timestamp()
        }

        /// The 10-bit generator id.
        #[getter]
        fn generator_id(&self) -> u16 {
            self.0.generator_id()
        }

        /// The 12-bit sequence.
        #[getter]
        fn sequence(&self) -> u16 {
            self.0.sequence()
        }

        /// `int >> 24`: the timestamp as the Java/Kotlin/TypeScript references read it (their
        /// layout bug); use it for IDs they generated.
        #[getter]
        fn reference_timestamp_ms(&self) -> u64 {
            self.0.reference_timestamp()
        }

        /// The 13-digit zero-padded text, which sorts like the values.
        #[getter]
        fn padded<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
            ascii_str(py, &self.0.encode_padded())
        }

        /// Milliseconds since 1970, given the epoch the ID was made with.
        fn unix_ms(&self, #[pyo3(from_py_with = args::any_epoch_ms)] epoch_ms: i64) -> i64 {
            self.0.unix_ms_at(epoch_ms)
        }

        /// The time as an aware UTC `datetime`, given the epoch the ID was made with.
        fn datetime<'py>(
            &self,
            py: Python<'py>,
            #[pyo3(from_py_with = args::any_epoch_ms)] epoch_ms: i64,
        ) -> PyResult<Bound<'py, PyAny>> {
            datetime_from_ms(py, self.0.unix_ms_at(epoch_ms))
        }
    }
);

py_int64!(
    PyUlidFlake,
    "UlidFlake",
    UlidFlake,
    repr = |f: &UlidFlake| {
        let time = match iso_ms(f.unix_ms() as u64) {
            Some(iso) => format!("time='{iso}'"),
            None => format!("unix_ms={}", f.unix_ms()),
        };
        format!(
            "{time}, randomness={}, scalable_randomness={}, sid={}",
            f.randomness(),
            f.scalable_randomness(),
            f.sid()
        )
    },
    {
        /// The 43-bit timestamp: milliseconds since the epoch.
        #[getter]
        fn timestamp_ms(&self) -> u64 {
            self.0.timestamp()
        }

        /// The time with the default epoch (2024-01-01), as an aware UTC `datetime`.
        #[getter]
        fn timestamp<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            datetime_from_ms(py, self.0.unix_ms())
        }

        /// Milliseconds since 1970 with `epoch_ms` (the default epoch, 2024-01-01, if omitted).
        #[pyo3(signature = (epoch_ms = 1_704_067_200_000))]
        fn unix_ms(&self, #[pyo3(from_py_with = args::any_epoch_ms)] epoch_ms: i64) -> i64 {
            self.0.unix_ms_at(epoch_ms)
        }

        /// The low 20 bits: a stand-alone value's randomness.
        #[getter]
        fn randomness(&self) -> u32 {
            self.0.randomness()
        }

        /// Bits 5-19: a scalable value's randomness.
        #[getter]
        fn scalable_randomness(&self) -> u16 {
            self.0.scalable_randomness()
        }

        /// The low 5 bits: a scalable value's scalability id.
        #[getter]
        fn sid(&self) -> u8 {
            self.0.sid()
        }
    }
);

/// A thread-safe Nanoflakes generator on the system clock: `NanoflakeGenerator(epoch_ms,
/// generator_id)`. Unique IDs need a distinct generator id per generator (and process).
#[pyclass(frozen, module = "sno", name = "NanoflakeGenerator")]
pub(crate) struct PyNanoflakeGenerator(Shared<nanoflake::Monotonic>);

#[pymethods]
impl PyNanoflakeGenerator {
    /// `epoch_ms`: Unix milliseconds (not negative), shared by every generator of the
    /// application; `generator_id`: 0 ..= 1023. Otherwise `ConfigError`.
    #[new]
    fn py_new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::epoch_ms)] epoch_ms: i64,
        #[pyo3(from_py_with = args::generator_id)] generator_id: u16,
    ) -> PyResult<Self> {
        nanoflake::Monotonic::new(epoch_ms, generator_id)
            .map(|m| PyNanoflakeGenerator(Shared::new(m)))
            .map_err(|e| config_error(py, e))
    }

    /// The next value: sequence 0 in a new millisecond, +1 within one. Waits for the next
    /// millisecond when 4096 were made in this one, and up to 1 s for a clock that went back
    /// (further: `ClockRegressionError`).
    #[pyo3(name = "new")]
    fn next_value(&self, py: Python<'_>) -> PyResult<PyNanoflake> {
        next(py, &self.0).map(PyNanoflake)
    }

    /// Like `new`, but raises at once: `RandomnessExhaustedError` (4096 made this millisecond)
    /// or `ClockRegressionError` (the clock went back).
    fn try_new(&self, py: Python<'_>) -> PyResult<PyNanoflake> {
        self.0.try_next().map(PyNanoflake).map_err(|e| to_py(py, e))
    }

    /// The next value for an explicit time in Unix milliseconds (the clock is not read), with
    /// the rules of `try_new`.
    fn new_at(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::time_i64)] unix_ms: i64,
    ) -> PyResult<PyNanoflake> {
        self.0
            .next_at(unix_ms)
            .map(PyNanoflake)
            .map_err(|e| to_py(py, e))
    }

    /// Gives the generator another generator id (0 ..= 1023), keeping its epoch and its last
    /// timestamp and sequence (it never repeats its own values): in a `fork()` child an
    /// inherited generator raises `ForkedGeneratorError` until it has one of its own. The new
    /// id must not be one any other generator of the application uses.
    fn repartition(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::generator_id)] generator_id: u16,
    ) -> PyResult<()> {
        self.0
            .repartition(generator_id)
            .map_err(|e| config_error(py, e))
    }

    fn __repr__(&self) -> &'static str {
        "sno.NanoflakeGenerator()"
    }
}

/// A thread-safe monotonic Ulid-Flake generator on the system clock.
#[pyclass(frozen, module = "sno", name = "UlidFlakeGenerator")]
pub(crate) struct PyUlidFlakeGenerator(Shared<ulidflake::Monotonic<ThreadRng>>);

#[pymethods]
impl PyUlidFlakeGenerator {
    /// `sid=None` makes stand-alone values (20 random bits), `sid=0..31` scalable ones;
    /// `entropy_size` random bytes per same-millisecond increment (1..3, scalable 1..2).
    /// Otherwise `ConfigError`.
    #[new]
    #[pyo3(signature = (*, epoch_ms = 1_704_067_200_000, sid = None, entropy_size = 1))]
    fn py_new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::epoch_ms)] epoch_ms: i64,
        #[pyo3(from_py_with = args::opt_sid)] sid: Option<u8>,
        #[pyo3(from_py_with = args::entropy_size)] entropy_size: u8,
    ) -> PyResult<Self> {
        if sid.is_some() && entropy_size > 2 {
            return Err(args::invalid_argument(
                py,
                format!(
                    "entropy_size must be in 1..=2 for scalable values (a sid is given), got {entropy_size}"
                ),
            ));
        }
        let config = Config {
            epoch_ms,
            sid,
            entropy_size,
        };
        ulidflake::Monotonic::with_config(ThreadRng, config)
            .map(|m| PyUlidFlakeGenerator(Shared::new(m)))
            .map_err(|e| config_error(py, e))
    }

    /// The next value, greater than every earlier one of this generator (a clock that went back
    /// keeps the last timestamp); waits for the next millisecond when this one's randomness is
    /// used up.
    #[pyo3(name = "new")]
    fn next_value(&self, py: Python<'_>) -> PyResult<PyUlidFlake> {
        next(py, &self.0).map(PyUlidFlake)
    }

    /// Like `new`, but raises `RandomnessExhaustedError` at once (the spec's overflow error; a
    /// retry may fit).
    fn try_new(&self, py: Python<'_>) -> PyResult<PyUlidFlake> {
        self.0.try_next().map(PyUlidFlake).map_err(|e| to_py(py, e))
    }

    /// The next value for an explicit time in Unix milliseconds (the clock is not read).
    fn new_at(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::time_i64)] unix_ms: i64,
    ) -> PyResult<PyUlidFlake> {
        self.0
            .next_at(unix_ms)
            .map(PyUlidFlake)
            .map_err(|e| to_py(py, e))
    }

    /// Gives the generator the scalable `sid` (0 ..= 31): in a `fork()` child a scalable
    /// generator inherited from the parent raises `ForkedGeneratorError` until it has a sid of
    /// its own (a stand-alone one reseeds by itself). A scalable generator keeps its last
    /// timestamp and randomness; a stand-alone one becomes scalable and starts afresh. The new
    /// sid must not be one any other generator of the application uses.
    fn repartition(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::sid)] sid: u8,
    ) -> PyResult<()> {
        self.0.repartition(sid).map_err(|e| config_error(py, e))
    }

    fn __repr__(&self) -> &'static str {
        "sno.UlidFlakeGenerator()"
    }
}

/// A new stand-alone Ulid-Flake (default epoch) from the process-wide generator (reset after
/// `os.fork()`).
#[pyfunction]
fn ulidflake_new(py: Python<'_>) -> PyResult<PyUlidFlake> {
    global_value(py, ulidflake::global_generator())
        .map(PyUlidFlake)
        .map_err(|e| to_py(py, e))
}

/// `n` new Ulid-Flakes from the process-wide generator, as objects or (`as_str=True`) text.
#[pyfunction]
#[pyo3(signature = (n, *, as_str = false))]
fn ulidflake_new_many<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::count)] n: usize,
    as_str: bool,
) -> PyResult<Bound<'py, PyList>> {
    let text = |id: UlidFlake| ascii_str(py, &id.encode_bytes());
    let make = || global_value(py, ulidflake::global_generator());
    new_list(py, n, as_str, make, text, PyUlidFlake)
}

/// Adds the classes and functions to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNanoflake>()?;
    m.add_class::<PyNanoflakeGenerator>()?;
    m.add_class::<PyUlidFlake>()?;
    m.add_class::<PyUlidFlakeGenerator>()?;
    m.add_function(wrap_pyfunction!(ulidflake_new, m)?)?;
    m.add_function(wrap_pyfunction!(ulidflake_new_many, m)?)?;
    m.add("ULIDFLAKE_DEFAULT_EPOCH_MS", ulidflake::DEFAULT_EPOCH_MS)?;
    Ok(())
}
