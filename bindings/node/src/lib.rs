//! The native half of the Node.js package, all on the text form, in the layout every binding
//! shares (docs/layout.md): every format's class (`formats`: the core's table as JavaScript reads
//! it, and the operations written once over `sno_core::IdFormat`; `bits`: the binary form as
//! one integer or UUID text; `generators`: new values;
//! `extras`: what a format has beyond that), sno's hot
//! paths and generator (`sno`), leases (`lease`), errors (`errors`), arguments (`args`).
//! `formats.js` and `sno.js` build the public classes on top (JS objects holding the canonical
//! text: a napi class instance costs far more to create; measured: scripts/bench-notes.md,
//! "Node: `Id` as a JS object"). Calls `sno-core` and `sno-lease` directly, never the C ABI.
//! Every export runs under `catch_unwind`.
#![allow(missing_docs, reason = "napi-derive generates undocumented glue")]

pub mod args;
pub mod bits;
pub mod errors;
pub mod extras;
pub mod formats;
pub mod generators;
pub mod lease;
pub mod sno;

use napi_derive::napi;

/// The most IDs one batch call makes (`newStrings`, `newMany`, each format's `newStrings` /
/// `newMany`): 16 777 216, the core's `MAX_BATCH`.
#[napi]
pub const MAX_BATCH: u32 = sno_core::MAX_BATCH as u32;
