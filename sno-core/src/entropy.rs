//! Randomness from the operating system (`std`): the 32-byte seed of each thread's CSPRNG
//! ([`ThreadRng`](crate::rng::ThreadRng)) and the 64-bit draw behind the default partitions
//! (`partition`). Both go to `getrandom` first; neither is on a hot path. In a `web` build
//! without `std`, the draw comes from the JavaScript host (`wasm_host`).

#[cfg(feature = "std")]
use crate::clock::SystemClock;

/// 32 bytes from the operating system's CSPRNG: on Linux `getrandom(2)`, then `/dev/urandom`;
/// elsewhere the `getrandom` crate (Windows' `ProcessPrng`, macOS's `getentropy`, WASI's
/// `random_get`).
#[cfg(feature = "std")]
pub(crate) fn os_seed() -> std::io::Result<[u8; 32]> {
    let mut seed = [0u8; 32];
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let mut filled = 0;
        while filled < seed.len() {
            let rest = &mut seed[filled..];
            // SAFETY: `rest` is writable for its length; getrandom writes at most that many.
            let n = unsafe { libc::getrandom(rest.as_mut_ptr().cast(), rest.len(), 0) };
            if n > 0 {
                filled += n as usize;
            } else if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                break;
            }
        }
        if filled < seed.len() {
            use std::io::Read;
            std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut seed))?;
        }
    }
    // Elsewhere the getrandom crate: ProcessPrng on Windows (there is no /dev/urandom),
    // getentropy on macOS, random_get on WASI.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    getrandom::fill(&mut seed)?;
    Ok(seed)
}

/// 64 bits from the operating system, mixed with the pid (none on WASI) and time so that a
/// failing source still differs between processes.
pub(crate) fn entropy() -> u64 {
    let mut x: u64 = 0;
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let mut buf = [0u8; 8];
        // SAFETY: `buf` is 8 writable bytes; getrandom writes at most that many.
        let n = unsafe { libc::getrandom(buf.as_mut_ptr().cast(), buf.len(), 0) };
        if n == 8 {
            x = u64::from_ne_bytes(buf);
        }
    }
    #[cfg(all(feature = "std", not(any(target_os = "linux", target_os = "android"))))]
    {
        let mut buf = [0u8; 8];
        if getrandom::fill(&mut buf).is_ok() {
            x = u64::from_ne_bytes(buf);
        }
    }
    #[cfg(not(feature = "std"))]
    {
        let mut buf = [0u8; 8];
        crate::wasm_host::fill_random(&mut buf);
        x ^= u64::from_ne_bytes(buf);
    }
    // WASI has no process ids (std::process::id() panics there).
    // No process id on WASI, nor in a JavaScript engine (std panics there).
    #[cfg(all(
        feature = "std",
        not(any(target_os = "wasi", all(target_family = "wasm", target_os = "unknown")))
    ))]
    {
        x ^= u64::from(std::process::id()).rotate_left(32);
    }
    #[cfg(feature = "std")]
    {
        x ^= SystemClock::precise_unix_ns() as u64;
    }
    #[cfg(not(feature = "std"))]
    {
        x ^= crate::wasm_host::now_unix_ns() as u64;
    }
    // splitmix64 finaliser
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
