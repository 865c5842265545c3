//! AVX-512 VBMI batch kernels: four IDs (40 bytes ⇄ 64 characters) per step, with masked loads
//! and stores so the last partial step needs no copy.
//!
//! Encode: VPERMB puts each 40-bit half in its own 64-bit lane, byte-reversed so the lane reads
//! as the number; VPMULTISHIFTQB cuts the eight 5-bit groups (offsets 35, 30, …, 0); VPERMB over
//! the alphabet (stored twice, so the 3 stray high bits of each group index do not matter) maps
//! them to characters.
//!
//! Decode: VPERMI2B looks every character up in a 128-entry table (bytes ≥ 0x80 are caught by
//! their own top bit), so validation is one mask test for 64 characters; then VPMADDUBSW /
//! VPMADDWD join 5 → 10 → 20 bits, two shifts join 20 → 40, and VPERMB writes the 40 bytes.

use core::arch::x86_64::*;

use super::{
    DEC_ASCII, DEC_JOIN5, DEC_JOIN10, DEC_SCATTER4, ENC_GATHER4, ENC_MULTISHIFT, ENC_SYMBOLS64,
    repeat, v512,
};
use crate::codec::scalar;
use crate::error::Error;

const JOIN5: [u8; 64] = repeat(DEC_JOIN5);
const JOIN10: [u8; 64] = repeat(DEC_JOIN10);

/// The mask selecting the first `bytes` bytes of a 64-byte register.
#[inline(always)]
fn first(bytes: usize) -> __mmask64 {
    if bytes >= 64 {
        u64::MAX
    } else {
        (1u64 << bytes) - 1
    }
}

/// Encodes `src.len() / 10` IDs into `dst`; lengths are already checked (`dst` is 16 per ID).
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn encode_many(src: &[u8], dst: &mut [u8]) {
    let n = src.len() / 10;
    let gather = v512(&ENC_GATHER4);
    let shifts = v512(&ENC_MULTISHIFT);
    let symbols = v512(&ENC_SYMBOLS64);
    let mut i = 0;
    while i < n {
        let r = (n - i).min(4);
        // SAFETY: the masks cover IDs i..i+r only, which are inside `src` (10 bytes each) and
        // `dst` (16 bytes each); masked-off bytes are neither read nor written, and never fault.
        unsafe {
            let ids = _mm512_maskz_loadu_epi8(first(10 * r), src.as_ptr().add(10 * i).cast());
            let halves = _mm512_permutexvar_epi8(gather, ids);
            let groups = _mm512_multishift_epi64_epi8(shifts, halves);
            let text = _mm512_permutexvar_epi8(groups, symbols);
            _mm512_mask_storeu_epi8(dst.as_mut_ptr().add(16 * i).cast(), first(16 * r), text);
        }
        i += r;
    }
}

/// Decodes `src.len() / 16` IDs into `dst` (10 bytes each), stopping at the first bad one with
/// the IDs before it written (see [`scalar::decode_many`]).
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VBMI.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn decode_many(src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
    let n = src.len() / 16;
    let (ascii_lo, ascii_hi) = (v512(&DEC_ASCII[0]), v512(&DEC_ASCII[1]));
    let (join5, join10) = (v512(&JOIN5), v512(&JOIN10));
    let scatter = v512(&DEC_SCATTER4);
    let mut i = 0;
    while i < n {
        let r = (n - i).min(4);
        let loaded = first(16 * r);
        // SAFETY: the mask covers IDs i..i+r only, which are inside `src`; masked-off bytes are
        // not read and read as zero.
        let text = unsafe { _mm512_maskz_loadu_epi8(loaded, src.as_ptr().add(16 * i).cast()) };
        let values = _mm512_permutex2var_epi8(ascii_lo, text, ascii_hi);
        let bad = (_mm512_movepi8_mask(values) | _mm512_movepi8_mask(text)) & loaded;
        if bad != 0 {
            return scalar::decode_many(&src[16 * i..16 * (i + r)], &mut dst[10 * i..], i);
        }
        let tens = _mm512_maddubs_epi16(values, join5);
        let twenties = _mm512_madd_epi16(tens, join10);
        let halves = _mm512_or_si512(
            _mm512_slli_epi64::<20>(twenties),
            _mm512_srli_epi64::<32>(twenties),
        );
        let ids = _mm512_permutexvar_epi8(scatter, halves);
        // SAFETY: the mask covers IDs i..i+r only, which are inside `dst`.
        unsafe { _mm512_mask_storeu_epi8(dst.as_mut_ptr().add(10 * i).cast(), first(10 * r), ids) };
        i += r;
    }
    Ok(())
}
