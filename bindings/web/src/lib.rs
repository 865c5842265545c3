//! The web build of libsno: `sno-core` compiled for `wasm32-unknown-unknown` without `std` (its
//! `web` feature: the host's clock and randomness, imported from the module `sno`), with a plain
//! export surface (numbers in, numbers out, text through one buffer of the module's memory)
//! that the package's hand-written JavaScript (`bindings/web/js/`) drives. No Node-API
//! emulation, no WASI, no `std`: its allocator ([`heap`]) and a panic handler that traps
//! instead of formatting are this crate's, so that a module holds only what its exports reach
//! (docs/wasm.md, "Sizes").
//!
//! Every export follows one convention: its input text or bytes are in the I/O buffer
//! ([`io`], `len` bytes), its output replaces them there, and it returns the output's length,
//! or -1 after a failure, whose description `sno_error` then writes. Built once per module
//! (`scripts/build-web`): `sno` (`sno.wasm`: sno's process-wide generator, default partitions)
//! and `formats` (`formats.wasm`: every format's values, sno's `Id` among them, every format's
//! `Generator`s, the other formats' process-wide generators, detection). On other targets the
//! crate is empty.

#![cfg(all(target_family = "wasm", target_os = "unknown"))]
#![cfg_attr(not(test), no_std)]

extern crate alloc;

mod errors;
#[cfg(feature = "formats")]
mod formats;
mod heap;
mod io;
mod local;
#[cfg(feature = "sno")]
mod sno;
#[cfg(feature = "table")]
mod table;
#[cfg(feature = "formats")]
mod values;
#[cfg(feature = "formats")]
mod wait;

/// A panic is a bug (every failure the core can report is returned as an error): the module
/// traps (`unreachable`, a `WebAssembly.RuntimeError` in JavaScript) without formatting a
/// message, so that no panic message or its formatting is in the module.
#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}
