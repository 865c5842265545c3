//! What single formats add to their classes beyond what is generated from the core's table
//! and extras (a property per named field, per other text form and number, `from_fields`,
//! `unix_ms_at`, conversions, every generator class with its settings): UUIDv7's `hex` (as
//! `uuid.UUID`'s), a Nanoflake's `datetime(epoch_ms)`, and the `repartition` of the Nanoflakes
//! and Ulid-Flake generators, which give them another generator id or sid after a fork.

use pyo3::prelude::*;

use crate::formats::{Nanoflake as PyNanoflake, Uuid7};
use crate::generated::{NanoflakeGenerator, UlidFlakeGenerator};
use crate::generators::settings_error;
use crate::{args, datetime_from_ms};

#[pymethods]
impl Uuid7 {
    /// The 32 lower-case hex digits.
    #[getter]
    fn hex(&self) -> String {
        format!("{:032x}", self.0.to_u128())
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

#[pymethods]
impl NanoflakeGenerator {
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
            .map_err(|e| settings_error(py, e))
    }
}

#[pymethods]
impl UlidFlakeGenerator {
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
        self.0.repartition(sid).map_err(|e| settings_error(py, e))
    }
}
