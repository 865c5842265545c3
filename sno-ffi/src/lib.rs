//! The C ABI of libsno (`libsno.so`, `libsno.a`, `include/sno.h`).
//!
//! Every function is a plain `extern "C"` item (so cbindgen sees it), runs inside a panic
//! boundary, turns NULL pointers into `SNO_STATUS_NULL_ARGUMENT`, and writes outputs only on
//! success. Thread safety is stated per function.
//!
//! The layout every binding shares (docs/layout.md): sno's functions (`sno.rs`), the common
//! per-format functions generated from the core's format table (`generated.rs`, over the generic
//! helpers of `formats.rs`), what single formats add (`extras/`), the format-generic API over
//! `sno_core::AnyId` (`any.rs`), leases (`lease.rs`), errors and the panic boundary
//! (`errors.rs`: statuses are the core's error table's numbers), pointer arguments (`args.rs`),
//! and the C-visible types (`types.rs`) and constants (`constants.rs`).
#![deny(clippy::unwrap_used, clippy::panic)]

// Declared first: cbindgen writes the header's constants in the order of the modules.
mod constants;

mod any;
mod args;
mod errors;
mod extras;
mod formats;
// Written by tests/surfaces (SNO_BLESS=1 cargo test -p sno-surfaces).
#[rustfmt::skip]
mod generated;
mod lease;
mod sno;
#[rustfmt::skip]
mod status;
mod types;

use std::ffi::c_char;

pub use any::*;
pub use constants::*;
pub use errors::{sno_last_error_message, sno_status_str};
pub use extras::*;
pub use generated::*;
pub use lease::*;
pub use sno::*;
pub use status::sno_status;
pub use types::{
    sno_clock, sno_generator, sno_generator_options, sno_id, sno_lease, sno_lease_options,
    sno_snapshot, sno_stats,
};

/// The library's version as `(MAJOR << 16) | (MINOR << 8) | PATCH`; compare with
/// SNO_VERSION_NUMBER to detect a header/library mismatch. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_version() -> u32 {
    SNO_VERSION_NUMBER
}

/// The library's version as a static NUL-terminated string ("0.2.0"). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_version_string() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

#[cfg(test)]
mod tests;
