//! CPU features on x86_64 with the `simd` feature, shared by the sno codec (`sno::codec`) and
//! the other formats' text codecs (`radix`): detection, and the table loads and builders their
//! kernels use.
//!
//! Detection uses `cpufeatures`: CPUID once, cached in an atomic, no std. When the build already
//! enables a feature (`-C target-feature` / `target-cpu`), `get()` is the constant `true` and the
//! branch folds away; under Miri it is `false` unless enabled statically.

use core::arch::x86_64::{__m128i, __m256i, __m512i};

cpufeatures::new!(ssse3_token, "ssse3");
cpufeatures::new!(avx2_token, "avx2");
cpufeatures::new!(avx512vbmi_token, "avx512f", "avx512bw", "avx512vbmi");

/// SSSE3 is available (PSHUFB, PMADDUBSW).
#[inline(always)]
pub(crate) fn has_ssse3() -> bool {
    ssse3_token::get()
}

/// AVX2 is available and enabled by the OS.
#[inline(always)]
pub(crate) fn has_avx2() -> bool {
    avx2_token::get()
}

/// AVX-512 F + BW + VBMI are available and the OS saves the ZMM state.
#[inline(always)]
pub(crate) fn has_avx512vbmi() -> bool {
    avx512vbmi_token::get()
}

/// `N` bytes made of `pattern` repeated.
pub(crate) const fn repeat<const P: usize, const N: usize>(pattern: [u8; P]) -> [u8; N] {
    let mut t = [0u8; N];
    let mut i = 0;
    while i < N {
        t[i] = pattern[i % P];
        i += 1;
    }
    t
}

/// Loads a 16-byte table.
#[inline(always)]
pub(crate) fn v128(t: &[u8; 16]) -> __m128i {
    // SAFETY: `t` is 16 readable bytes and the load is unaligned; SSE2 is baseline on x86_64.
    unsafe { core::arch::x86_64::_mm_loadu_si128(t.as_ptr().cast()) }
}

/// Loads a 32-byte table.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn v256(t: &[u8; 32]) -> __m256i {
    // SAFETY: `t` is 32 readable bytes and the load is unaligned; AVX is enabled on this function.
    unsafe { core::arch::x86_64::_mm256_loadu_si256(t.as_ptr().cast()) }
}

/// Loads a 64-byte table.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn v512(t: &[u8; 64]) -> __m512i {
    // SAFETY: `t` is 64 readable bytes and the load is unaligned; AVX-512F is enabled here.
    unsafe { core::arch::x86_64::_mm512_loadu_si512(t.as_ptr().cast()) }
}
