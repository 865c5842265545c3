//! The sno text codec: 10 bytes ⇄ 16 characters, strict in both directions.
//!
//! Each operation picks its kernel, single IDs here, batches in `backends` (which also names
//! every kernel for tests and benchmarks):
//! 1. with the `simd` feature on x86_64, the best instruction set the CPU has: a compile-time
//!    constant when the build enables it (`-C target-cpu=…`), else CPUID once, cached, no std
//!    needed (`cpufeatures`, in `platform`); single IDs branch on that flag (no function
//!    pointer), batches decide once per slice;
//! 2. otherwise (other targets, Miri, `simd` off) the scalar code, which is also the reference
//!    the kernels are tested against.
//!
//! Every kernel reports a bad character through the scalar code, so errors never depend on the
//! CPU.

pub mod backends;
mod scalar;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) mod x86;

use crate::error::Error;
use crate::sno::id::{BINARY_LEN, ENCODED_LEN};

/// Encodes one ID.
#[inline]
pub(crate) fn encode(id: &[u8; BINARY_LEN]) -> [u8; ENCODED_LEN] {
    // SAFETY: SSE2 is part of the x86_64 baseline.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    return unsafe { x86::sse2::encode(id) };
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    scalar::encode(id)
}

/// Strictly decodes one ID from exactly 16 alphabet bytes.
#[inline]
pub(crate) fn decode(input: &[u8]) -> Result<[u8; BINARY_LEN], Error> {
    let Ok(text) = <&[u8; ENCODED_LEN]>::try_from(input) else {
        return Err(Error::InvalidLength {
            expected: ENCODED_LEN,
            actual: input.len(),
        });
    };
    // The SSSE3 kernel joins the digits with two multiplies and one PSHUFB where SSE2 needs
    // shifts and scalar stores, which outweighs its call (measured: 3.9 against 4.3 ns).
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    return if crate::platform::has_ssse3() {
        // SAFETY: SSSE3 is present (detected, or enabled at compile time).
        unsafe { x86::ssse3::decode(text) }
    } else {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { x86::sse2::decode(text) }
    };
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    scalar::decode(text)
}
