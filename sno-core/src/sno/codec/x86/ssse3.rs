//! SSSE3 kernels: one ID per step; the batch path on CPUs without AVX2.
//!
//! Encode: PSHUFB byte-reverses each 40-bit half into a 64-bit lane, then the SSE2 kernel's
//! shift-and-mask split and alphabet mapping.
//!
//! Decode: the SSE2 kernel's range checks (`sse2::values`), then PMADDUBSW / PMADDWD join
//! 5 → 10 → 20 bits and two 64-bit shifts join 20 → 40; PSHUFB puts the bytes in big-endian
//! order, and they leave in two integer registers (`Decoded`). On a bad byte the scalar code
//! reports the first one, so errors are identical to the scalar decoder's.

use core::arch::x86_64::*;

use super::{DEC_STORE, ENC_HALVES, sse2};
use crate::error::Error;
use crate::platform::v128;
use crate::radix::ssse3::{DEC_JOIN5, DEC_JOIN10};
use crate::sno::codec::scalar::{self, Decoded};

/// Encodes one ID.
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn encode(id: &[u8; 10]) -> [u8; 16] {
    // SAFETY: `id` is 10 readable bytes: 8 from its start, unaligned.
    let first8 = unsafe { _mm_loadl_epi64(id.as_ptr().cast()) };
    let v = _mm_insert_epi16::<4>(first8, i32::from(u16::from_le_bytes([id[8], id[9]])));
    let mut text = [0u8; 16];
    // SAFETY: `text` is 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_si128(text.as_mut_ptr().cast(), encode_vec(v)) };
    text
}

/// Strictly decodes one ID: the single-ID decoder on Intel CPUs, called out of line (see
/// `codec::decode`), and the per-ID step of the SSSE3 and AVX2 batches.
///
/// # Safety
/// The CPU must support SSSE3.
#[inline]
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn decode(text: &[u8; 16]) -> Decoded {
    // SAFETY: `text` is 16 readable bytes; the load is unaligned.
    let c = unsafe { _mm_loadu_si128(text.as_ptr().cast()) };
    let (bytes, invalid) = decode_vec(c);
    Decoded::new(
        _mm_cvtsi128_si64(bytes) as u64,
        _mm_extract_epi16::<4>(bytes) as u16,
        invalid,
    )
}

/// Encodes IDs one per step (CPUs with SSSE3 but no AVX2); lengths are already checked.
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn encode_many(src: &[u8], dst: &mut [u8]) {
    // SAFETY: SSSE3 is enabled on this function, hence present.
    scalar::encode_each(src, dst, |id| unsafe { encode(id) });
}

/// Decodes IDs one per step, stopping at the first bad one (see [`scalar::decode_many`]).
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn decode_many(src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
    // SAFETY: SSSE3 is enabled on this function, hence present.
    scalar::decode_each(src, dst, 0, |text| unsafe { decode(text) }.finish(text))
}

/// The 16 characters of the ID held in bytes 0..10 of `v` (bytes 10..16 are ignored).
#[inline]
#[target_feature(enable = "ssse3")]
fn encode_vec(v: __m128i) -> __m128i {
    sse2::encode_halves(_mm_shuffle_epi8(v, v128(&ENC_HALVES)))
}

/// Decodes 16 characters: the 10 ID bytes in bytes 0..10 of the result, and the PMOVMSKB mask
/// of the characters outside the alphabet (zero exactly when all are valid).
#[inline]
#[target_feature(enable = "ssse3")]
fn decode_vec(c: __m128i) -> (__m128i, u32) {
    let (values, invalid) = sse2::values(c);
    let tens = _mm_maddubs_epi16(values, v128(&DEC_JOIN5));
    let twenties = _mm_madd_epi16(tens, v128(&DEC_JOIN10));
    let halves = _mm_or_si128(_mm_slli_epi64(twenties, 20), _mm_srli_epi64(twenties, 32));
    (_mm_shuffle_epi8(halves, v128(&DEC_STORE)), invalid)
}
