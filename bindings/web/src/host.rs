//! The host's randomness: getrandom's custom backend (the core's seeds off Linux: the CSPRNG
//! of the random formats, the default partition) over the imported `sno.random_fill`, which
//! the JavaScript loader implements with `crypto.getRandomValues`.

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
#[link(wasm_import_module = "sno")]
unsafe extern "C" {
    /// Fills `len` bytes at `ptr` of this module's memory with `crypto.getRandomValues`.
    #[link_name = "random_fill"]
    fn host_random_fill(ptr: *mut u8, len: usize);
}

/// getrandom 0.3's custom backend (`--cfg getrandom_backend="custom"`, set by the build).
///
/// # Safety
/// `dest` must be valid for writes of `len` bytes (getrandom's contract).
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
#[unsafe(no_mangle)]
unsafe extern "Rust" fn __getrandom_v03_custom(
    dest: *mut u8,
    len: usize,
) -> Result<(), getrandom::Error> {
    // SAFETY: `dest` is valid for `len` bytes (the caller's contract); the import writes only
    // those bytes of this module's memory.
    unsafe { host_random_fill(dest, len) };
    Ok(())
}
