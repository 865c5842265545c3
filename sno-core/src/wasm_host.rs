//! The platform of a `wasm32-unknown-unknown` build (std): a JavaScript engine, whose wall clock
//! the module imports (`sno.now_unix_ms`: `Date.now()`, bindings/web's loader). Rust's std has
//! no clock, process id or threads there (`SystemTime::now` and `process::id` panic), so the
//! [`SystemClock`](crate::SystemClock), the fast clock's reading and the default partition's
//! entropy read this instead; every other target is unchanged. Randomness comes from the
//! `getrandom` crate's custom backend, which the embedding module defines
//! (`crypto.getRandomValues`); the blocking waits (`next`, `Pause::sleep`) cannot sleep there
//! and are not called by the web build, whose synchronous calls never wait (docs/wasm.md).

#[link(wasm_import_module = "sno")]
unsafe extern "C" {
    /// Milliseconds since 1970, as the host's `Date.now()` gives them (a whole number).
    #[link_name = "now_unix_ms"]
    fn host_now_unix_ms() -> f64;
}

/// The host's wall clock in nanoseconds since 1970 (whole milliseconds: `Date.now()`).
#[inline]
pub(crate) fn now_unix_ns() -> i64 {
    // SAFETY: an imported function without arguments or memory access; the embedder's
    // loader provides it with every instance.
    let ms = unsafe { host_now_unix_ms() };
    // `as` saturates a reading outside i64 (NaN reads 0): the generators then refuse it as a
    // clock outside their range, as for any other bad clock.
    (ms.floor() as i64).saturating_mul(1_000_000)
}
