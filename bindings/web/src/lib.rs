//! The web build of libsno: `sno-core` compiled for `wasm32-unknown-unknown` with a plain
//! export surface (numbers in, numbers out, text through one buffer of the module's memory),
//! which the package's hand-written JavaScript (`bindings/web/js/`) drives. No Node-API
//! emulation, no WASI: the module imports two functions, the host's clock (`sno.now_unix_ms`,
//! read by the core: `sno_core`'s `wasm_host`) and its randomness (`sno.random_fill`,
//! `crypto.getRandomValues`, read through getrandom's custom backend here).
//!
//! Every export follows one convention: its input text or bytes are in the I/O buffer
//! ([`io::buffer`], `len` bytes), its output replaces them there, and it returns the output's
//! length, or -1 after a failure, whose description [`errors::sno_error`] then writes. Built twice
//! (docs/wasm.md): the `sno` feature alone (`sno.wasm`) and `formats` alone (`formats.wasm`).

#![cfg_attr(not(target_family = "wasm"), allow(dead_code))]

mod errors;
#[cfg(feature = "formats")]
mod formats;
mod host;
mod io;
#[cfg(feature = "sno")]
mod sno;
mod values;
mod wait;
