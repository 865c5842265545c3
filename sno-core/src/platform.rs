//! CPU features on x86_64 with the `simd` feature, shared by the sno codec (`sno::codec`) and
//! the other formats' text codecs (`radix`): detection (feature bits, and the vendor where a
//! kernel's speed depends on it), and the table loads and builders their kernels use.
//!
//! Detection uses `cpufeatures`: CPUID once, cached in an atomic, no std. When the build already
//! enables a feature (`-C target-feature` / `target-cpu`), `get()` is the constant `true` and the
//! branch folds away; under Miri it is `false` unless enabled statically.

use core::arch::x86_64::{__m128i, __m256i, __m512i};
use core::sync::atomic::{AtomicU8, Ordering};

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

/// Whether single-ID decode calls the SSSE3 kernel rather than inlining the SSE2 one, which
/// depends on the micro-architecture more than on the feature bits. Measured per call in one
/// loop, the kernels in the shape of `codec::decode` (scripts/bench-notes.md, "Single-ID
/// decode kernel by CPU vendor"): on an Intel Xeon the SSSE3 call is the faster, on an AMD
/// EPYC (Zen 4) the inlined SSE2 kernel. So: SSSE3 on Intel CPUs that have it, SSE2 on AMD,
/// Hygon and the rest. A build that enables SSSE3 (`-C target-cpu=…`) always takes
/// SSSE3, which then inlines too. CPUID is read once and the answer cached, like `cpufeatures`.
#[inline(always)]
pub(crate) fn single_decode_calls_ssse3() -> bool {
    if cfg!(target_feature = "ssse3") {
        return true;
    }
    match SINGLE_DECODE.load(Ordering::Relaxed) {
        SSE2 => false,
        SSSE3 => true,
        _ => detect_single_decode(),
    }
}

/// `single_decode_calls_ssse3`'s cache: [`UNKNOWN`], [`SSSE3`] or [`SSE2`].
static SINGLE_DECODE: AtomicU8 = AtomicU8::new(UNKNOWN);
const SSE2: u8 = 0;
const SSSE3: u8 = 1;
const UNKNOWN: u8 = 2;

#[cold]
fn detect_single_decode() -> bool {
    let ssse3 = has_ssse3() && is_intel();
    // Racing first calls all store the same value.
    SINGLE_DECODE.store(if ssse3 { SSSE3 } else { SSE2 }, Ordering::Relaxed);
    ssse3
}

/// The CPU's vendor string (CPUID leaf 0) is `GenuineIntel`. Miri has no CPUID: not Intel.
fn is_intel() -> bool {
    if cfg!(miri) {
        return false;
    }
    // `__cpuid` is an `unsafe fn` before Rust 1.93 (this crate builds from 1.89).
    #[allow(unused_unsafe)]
    // SAFETY: every x86_64 CPU has CPUID and its leaf 0.
    let leaf0 = unsafe { core::arch::x86_64::__cpuid(0) };
    let mut vendor = [0u8; 12];
    for (chunk, reg) in vendor
        .chunks_exact_mut(4)
        .zip([leaf0.ebx, leaf0.edx, leaf0.ecx])
    {
        chunk.copy_from_slice(&reg.to_le_bytes());
    }
    &vendor == b"GenuineIntel"
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
