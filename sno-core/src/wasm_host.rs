//! The platform of a `wasm32-unknown-unknown` build: a JavaScript engine, whose wall clock and
//! randomness the module imports from the module `sno` (bindings/web's loader provides them:
//! `now_unix_ms` is `Date.now()`, `random_fill` is `crypto.getRandomValues`). Rust's std has no
//! clock, process id or threads there (`SystemTime::now` and `process::id` panic).
//!
//! With `std`, the [`SystemClock`](crate::SystemClock), the fast clock's reading and the default
//! partition's entropy read the clock here (randomness then comes from the `getrandom` crate's
//! custom backend, which the embedding module defines). With the `web` feature and without
//! `std` (bindings/web's modules), this is what `std` brings elsewhere: [`HostClock`](crate::HostClock), the
//! randomness behind [`ThreadRng`](crate::rng::ThreadRng) and the default partitions. The
//! blocking waits (`next`, `Pause::sleep`) cannot sleep in a JavaScript engine and do not exist
//! without `std`: the web build's synchronous calls never wait (docs/wasm.md).

#[link(wasm_import_module = "sno")]
unsafe extern "C" {
    /// Milliseconds since 1970, as the host's `Date.now()` gives them (a whole number).
    #[link_name = "now_unix_ms"]
    fn host_now_unix_ms() -> f64;
    /// Fills `len` bytes at `ptr` of this module's memory with the host's CSPRNG
    /// (`crypto.getRandomValues`).
    #[cfg(all(feature = "web", not(feature = "std")))]
    #[link_name = "random_fill"]
    fn host_random_fill(ptr: *mut u8, len: usize);
}

/// The host's wall clock in nanoseconds since 1970 (whole milliseconds: `Date.now()`).
#[inline]
pub(crate) fn now_unix_ns() -> i64 {
    now_unix_ms().saturating_mul(1_000_000)
}

/// The host's wall clock in milliseconds since 1970.
#[inline]
pub(crate) fn now_unix_ms() -> i64 {
    // SAFETY: an imported function without arguments or memory access; the embedder's
    // loader provides it with every instance.
    let ms = unsafe { host_now_unix_ms() };
    // `as` truncates towards zero and saturates outside i64 (NaN reads 0): `Date.now()` is a
    // whole number, and a reading out of range is refused by the generators as any other bad
    // clock is.
    ms as i64
}

/// Fills `dest` from the host's CSPRNG (`crypto.getRandomValues`).
#[cfg(all(feature = "web", not(feature = "std")))]
pub(crate) fn fill_random(dest: &mut [u8]) {
    // SAFETY: `dest` is valid for writes of its length, and the import writes only those bytes
    // of this module's memory.
    unsafe { host_random_fill(dest.as_mut_ptr(), dest.len()) }
}
