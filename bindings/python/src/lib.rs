//! The native module `sno._sno`, re-exported by the `sno` package. It calls `sno-core`
//! directly, never the C ABI.
//!
//! The layout every binding shares (docs/layout.md): every format's value class comes from the
//! core's format table through one generic layer (`formats`, with `values` for its conversions);
//! its per-format members (`parse`, `from_fields`, a property per named field and extra:
//! `members`) and the generators of the formats with a process-wide generator and no settings
//! (`generators`) are invoked from `generated` (written from the same table by
//! `tests/surfaces`); what single
//! formats add sits beside them (`sno`, `extras`). `errors` maps core and lease errors to
//! Python exceptions, `args` reads arguments (`str` as UTF-8, counts, fields) and makes
//! `datetime`s; `lease` holds leases, `batch` the batches that check for signals, `cli` the
//! console script.

mod args;
mod batch;
mod cli;
mod errors;
mod extras;
mod formats;
mod generated;
mod generators;
mod lease;
mod members;
mod sno;
mod values;

// What every module uses, by these names (`crate::to_py`, …): defined in `errors` and `args`.
use args::{datetime_from_ms, decode_text, with_utf8};
use errors::{raise_code, text_error, to_py};
use pyo3::prelude::*;

/// The native part of the `sno` package.
#[pymodule(gil_used = false)]
fn _sno(m: &Bound<'_, PyModule>) -> PyResult<()> {
    formats::register(m)?;
    sno::register(m)?;
    cli::register(m)?;
    generated::register(m)?;
    lease::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ENCODED_LEN", sno_core::ENCODED_LEN)?;
    m.add("BINARY_LEN", sno_core::BINARY_LEN)?;
    m.add("MAX_BATCH", sno_core::MAX_BATCH)?;
    Ok(())
}
