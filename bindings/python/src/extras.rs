//! What single formats add to their value classes beyond what is generated from the core's
//! table and extras (a property per named field, per other text form and number, `from_fields`,
//! `unix_ms_at`, conversions, the generators of the formats without settings): UUIDv7's `hex`
//! (as `uuid.UUID`'s), a Nanoflake's `datetime(epoch_ms)`; and
//! the generators of Nanoflakes and Ulid-Flake, which take the formats' settings (epoch,
//! generator id, sid) and can be given another generator id or sid after a fork.

use pyo3::prelude::*;
use pyo3::types::PyList;
use sno_core::monotonic::Shared;
use sno_core::nanoflake;
use sno_core::rng::ThreadRng;
use sno_core::ulidflake::{self, Config};
use sno_core::{Error, SystemClock};

use crate::formats::{Nanoflake as PyNanoflake, UlidFlake as PyUlidFlake, Uuid7};
use crate::generators::{global, new_list, process_value};
use crate::{args, datetime_from_ms, raise_code, to_py};

#[pymethods]
impl Uuid7 {
    /// The 32 lower-case hex digits.
    #[getter]
    fn hex(&self) -> String {
        format!("{:032x}", self.0.to_u128())
    }
}

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

#[pymethods]
impl PyNanoflake {
    /// The time as an aware UTC `datetime`, given the epoch the ID was made with.
    fn datetime<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::any_epoch_ms)] epoch_ms: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        datetime_from_ms(py, self.0.unix_ms_at(epoch_ms))
    }
}

/// A thread-safe Nanoflakes generator on the system clock: `NanoflakeGenerator(epoch_ms,
/// generator_id)`. Unique IDs need a distinct generator id per generator (and process).
#[pyclass(frozen, module = "sno", name = "NanoflakeGenerator")]
pub(crate) struct PyNanoflakeGenerator(Shared<nanoflake::Monotonic>);

#[pymethods]
impl PyNanoflakeGenerator {
    /// `epoch_ms`: Unix milliseconds (not negative), shared by every generator of the
    /// application; `generator_id`: 0 ..= 1023. Otherwise `ConfigError`.
    #[new]
    #[pyo3(signature = (epoch_ms, generator_id, *, clock = None))]
    fn py_new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::epoch_ms)] epoch_ms: i64,
        #[pyo3(from_py_with = args::generator_id)] generator_id: u16,
        #[pyo3(from_py_with = args::clock)] clock: Option<SystemClock>,
    ) -> PyResult<Self> {
        nanoflake::Monotonic::new(epoch_ms, generator_id)
            .map(|m| {
                PyNanoflakeGenerator(Shared::with_state_and_clock(m, clock.unwrap_or_default()))
            })
            .map_err(|e| config_error(py, e))
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
}

crate::generators::generator_methods!(
    PyNanoflakeGenerator,
    PyNanoflake,
    "NanoflakeGenerator",
    "The next value: sequence 0 in a new millisecond, +1 within one. Waits for the next millisecond when 4096 were made in this one, and up to 1 s for a clock that went back (further: `ClockRegressionError`).",
    "Like `new`, but raises at once: `RandomnessExhaustedError` (4096 made this millisecond) or `ClockRegressionError` (the clock went back).",
    "The next value for an explicit time in Unix milliseconds (the clock is not read), with the rules of `try_new`."
);

/// A thread-safe monotonic Ulid-Flake generator on the system clock.
#[pyclass(frozen, module = "sno", name = "UlidFlakeGenerator")]
pub(crate) struct PyUlidFlakeGenerator(Shared<ulidflake::Monotonic<ThreadRng>>);

#[pymethods]
impl PyUlidFlakeGenerator {
    /// `sid=None` makes stand-alone values (20 random bits), `sid=0..31` scalable ones;
    /// `entropy_size` random bytes per same-millisecond increment (1..3, scalable 1..2).
    /// Otherwise `ConfigError`.
    #[new]
    #[pyo3(signature = (*, epoch_ms = 1_704_067_200_000, sid = None, entropy_size = 1, clock = None))]
    fn py_new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::epoch_ms)] epoch_ms: i64,
        #[pyo3(from_py_with = args::opt_sid)] sid: Option<u8>,
        #[pyo3(from_py_with = args::entropy_size)] entropy_size: u8,
        #[pyo3(from_py_with = args::clock)] clock: Option<SystemClock>,
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
            .map(|m| {
                PyUlidFlakeGenerator(Shared::with_state_and_clock(m, clock.unwrap_or_default()))
            })
            .map_err(|e| config_error(py, e))
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
}

crate::generators::generator_methods!(
    PyUlidFlakeGenerator,
    PyUlidFlake,
    "UlidFlakeGenerator",
    "The next value, greater than every earlier one of this generator (a clock that went back keeps the last timestamp); waits for the next millisecond when this one's randomness is used up.",
    "Like `new`, but raises `RandomnessExhaustedError` at once (the spec's overflow error; a retry may fit).",
    "The next value for an explicit time in Unix milliseconds (the clock is not read)."
);

/// A new stand-alone Ulid-Flake (default epoch) from the process-wide generator (reset after
/// `os.fork()`).
#[pyfunction]
fn ulidflake_new(py: Python<'_>) -> PyResult<PyUlidFlake> {
    process_value(py).map(PyUlidFlake)
}

/// `n` new Ulid-Flakes from the process-wide generator, as objects or (`as_str=True`) text.
#[pyfunction]
#[pyo3(signature = (n, *, as_str = false))]
fn ulidflake_new_many<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::count)] n: usize,
    as_str: bool,
) -> PyResult<Bound<'py, PyList>> {
    new_list(py, n, as_str, || global(py), PyUlidFlake)
}

/// Adds the classes and functions to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNanoflakeGenerator>()?;
    m.add_class::<PyUlidFlakeGenerator>()?;
    m.add_function(wrap_pyfunction!(ulidflake_new, m)?)?;
    m.add_function(wrap_pyfunction!(ulidflake_new_many, m)?)?;
    m.add("ULIDFLAKE_DEFAULT_EPOCH_MS", ulidflake::DEFAULT_EPOCH_MS)?;
    Ok(())
}
