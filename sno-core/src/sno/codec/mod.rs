//! The sno text codec: 10 bytes ⇄ 16 characters, strict in both directions.
//!
//! Each operation picks its kernel, single IDs here, batches in `backends` (which also names
//! every kernel for tests and benchmarks):
//! 1. with the `simd` feature on x86_64, the best instruction set the CPU has: a compile-time
//!    constant when the build enables it (`-C target-cpu=…`), else CPUID once, cached, no std
//!    needed (`cpufeatures` and the vendor check, in `platform`); single IDs branch on that flag
//!    (no function pointer), batches decide once per slice;
//! 2. otherwise (other targets, Miri, `simd` off) the scalar code, which is also the reference
//!    the kernels are tested against.
//!
//! Every kernel reports a bad character through the scalar code, so errors never depend on the
//! CPU.
//!
//! Single-ID decode (`decode`): the kernels hand the ID back in two integer registers
//! (`scalar::Decoded`) and only the accepted case builds the `Result` inline; every rejection goes
//! through one cold out-of-line function. Which kernel depends on the CPU vendor
//! (`platform::single_decode_calls_ssse3`, with the figures): on Intel the SSSE3 kernel, called
//! out of line (a `#[target_feature]` function cannot be inlined into a caller built without
//! the feature), as its shorter join saves more than the call costs there; elsewhere, AMD
//! included, the SSE2 kernel inlined into the caller, with no call and no hand-over.

pub mod backends;
mod scalar;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) mod x86;

use self::scalar::Decoded;
use crate::error::Error;
use crate::sno::id::{BINARY_LEN, ENCODED_LEN, Id};

/// Encodes one ID.
#[inline]
pub(crate) fn encode(id: &[u8; BINARY_LEN]) -> [u8; ENCODED_LEN] {
    // SAFETY: SSE2 is part of the x86_64 baseline.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    return unsafe { x86::sse2::encode(id) };
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    scalar::encode(id)
}

/// Strictly decodes one ID from exactly 16 alphabet bytes, with the kernel chosen for this CPU.
#[inline]
pub(crate) fn decode(input: &[u8]) -> Result<Id, Error> {
    decode_with(input, |text| {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        return if crate::platform::single_decode_calls_ssse3() {
            // SAFETY: the CPU has SSSE3 (detected, or enabled at compile time).
            unsafe { x86::ssse3::decode(text) }
        } else {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            unsafe { x86::sse2::decode(text) }
        };
        #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
        scalar::decode(text)
    })
}

/// Strictly decodes one ID with `kernel`: the shape every single-ID decode shares (the public
/// one and each backend's), so that all of them inline the same way.
#[inline(always)]
pub(crate) fn decode_with(
    input: &[u8],
    kernel: impl FnOnce(&[u8; ENCODED_LEN]) -> Decoded,
) -> Result<Id, Error> {
    if let Ok(text) = <&[u8; ENCODED_LEN]>::try_from(input)
        && let Some(bytes) = kernel(text).bytes()
    {
        return Ok(Id::from_bytes(bytes));
    }
    Err(rejected(input))
}

/// The error for an input the kernel did not accept: its length, or its first bad byte.
#[cold]
#[inline(never)]
fn rejected(input: &[u8]) -> Error {
    match <&[u8; ENCODED_LEN]>::try_from(input) {
        Ok(text) => scalar::first_invalid(text),
        Err(_) => Error::InvalidLength {
            expected: ENCODED_LEN,
            actual: input.len(),
        },
    }
}
