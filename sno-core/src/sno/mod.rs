//! The sno format, in its own module like every other format, though its API is re-exported at
//! the crate root (`sno_core::Id`, `sno_core::Generator`, `sno_core::new`, …):
//!
//! * `id`: the 10-byte [`Id`](crate::Id) and its fields;
//! * `codec`: the text kernels (scalar, and SSE2 … AVX-512 VBMI on x86_64), with `backends`
//!   naming each of them; `text`: the methods and traits of `Id` that go through them;
//! * `generator`: the wait-free [`Generator`](crate::Generator); `global`: the process-wide one
//!   behind [`new`](crate::new) (`std`).

#[cfg(target_has_atomic = "64")]
mod builder;
pub(crate) mod codec;
#[cfg(target_has_atomic = "64")]
mod engine;
#[cfg(target_has_atomic = "64")]
pub mod generator;
#[cfg(all(test, target_has_atomic = "64"))]
mod generator_tests;
#[cfg(feature = "std")]
pub(crate) mod global;
pub(crate) mod id;
#[cfg(target_has_atomic = "64")]
mod snapshot;
#[cfg(target_has_atomic = "64")]
mod state;
mod text;
