//! The native module `sno._sno`, re-exported by the `sno` package. It calls `sno-core`
//! directly, never the C ABI.
//!
//! Every format's value class comes from the core's format table through one generic layer
//! (`ids`, with a property per named field), and the generators of the formats with a
//! process-wide generator and no settings from `generated` (written from the same table by
//! `tests/surfaces`); what a format adds sits beside them (`sno`, `formats`, `flakes`).
//! `convert` maps core errors to Python exceptions, reads `str` arguments and makes `datetime`s.

mod args;
mod batch;
mod cli;
mod convert;
mod flakes;
mod formats;
mod generated;
mod ids;
mod lease;
mod sno;

// What every module uses, by these names (`crate::to_py`, …): defined in `convert`.
use convert::{datetime_from_ms, decode_text, raise_code, text_error, to_py, with_utf8};
use pyo3::prelude::*;

/// The native part of the `sno` package.
#[pymodule(gil_used = false)]
fn _sno(m: &Bound<'_, PyModule>) -> PyResult<()> {
    ids::register(m)?;
    sno::register(m)?;
    cli::register(m)?;
    generated::register(m)?;
    flakes::register(m)?;
    lease::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ENCODED_LEN", sno_core::ENCODED_LEN)?;
    m.add("BINARY_LEN", sno_core::BINARY_LEN)?;
    m.add("MAX_BATCH", sno_core::MAX_BATCH)?;
    Ok(())
}
