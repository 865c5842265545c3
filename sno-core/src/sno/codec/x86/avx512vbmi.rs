//! AVX-512 VBMI batch kernels: four IDs (40 bytes ⇄ 64 characters) per step. The main loops use
//! whole 64-byte loads and stores: on the 40-byte side the 24 bytes past the step belong to the
//! next step, which ignores them (encode) or rewrites them (decode, which stores a step only once
//! the next one validated). The last steps use masked loads and stores, so no step needs a copy.
//! Masked stores at every step made decode slower (measured: scripts/bench-notes.md, "AVX-512
//! VBMI: unmasked main loops").
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

use super::{DEC_ASCII, DEC_SCATTER4, ENC_GATHER4, ENC_MULTISHIFT, ENC_SYMBOLS64};
use crate::error::Error;
use crate::platform::{repeat, v512};
use crate::radix::ssse3::{DEC_JOIN5, DEC_JOIN10};
use crate::sno::codec::scalar;

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
    let encode4 = |ids: __m512i| {
        let halves = _mm512_permutexvar_epi8(gather, ids);
        let groups = _mm512_multishift_epi64_epi8(shifts, halves);
        _mm512_permutexvar_epi8(groups, symbols)
    };
    let mut i = 0;
    while i + 4 <= n && 10 * i + 64 <= src.len() {
        // SAFETY: bytes 10i..10i+64 are inside `src` (the last 24 are the next step's input,
        // ignored by the gather) and IDs i..i+4 are inside `dst`.
        unsafe {
            let ids = _mm512_loadu_si512(src.as_ptr().add(10 * i).cast());
            _mm512_storeu_si512(dst.as_mut_ptr().add(16 * i).cast(), encode4(ids));
        }
        i += 4;
    }
    while i < n {
        let r = (n - i).min(4);
        // SAFETY: the masks cover IDs i..i+r only, which are inside `src` (10 bytes each) and
        // `dst` (16 bytes each); masked-off bytes are neither read nor written, and never fault.
        unsafe {
            let ids = _mm512_maskz_loadu_epi8(first(10 * r), src.as_ptr().add(10 * i).cast());
            _mm512_mask_storeu_epi8(
                dst.as_mut_ptr().add(16 * i).cast(),
                first(16 * r),
                encode4(ids),
            );
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
    // The 40 decoded bytes (in the low bytes), or `None` if a character in `loaded` is outside
    // the alphabet.
    let decode4 = |text: __m512i, loaded: __mmask64| {
        let values = _mm512_permutex2var_epi8(ascii_lo, text, ascii_hi);
        if (_mm512_movepi8_mask(values) | _mm512_movepi8_mask(text)) & loaded != 0 {
            return None;
        }
        let tens = _mm512_maddubs_epi16(values, join5);
        let twenties = _mm512_madd_epi16(tens, join10);
        let halves = _mm512_or_si512(
            _mm512_slli_epi64::<20>(twenties),
            _mm512_srli_epi64::<32>(twenties),
        );
        Some(_mm512_permutexvar_epi8(scatter, halves))
    };
    // Main loop, software-pipelined: step `i`'s 40 bytes are stored by a whole 64-byte store
    // only once step `i + 4` validated, since its 24 extra bytes land on that step's IDs, which
    // must stay untouched if they turn out to be bad (the error contract of `decode_many`).
    let mut i = 0;
    let mut pending = None;
    while i + 4 <= n {
        // SAFETY: IDs i..i+4 are inside `src`.
        let text = unsafe { _mm512_loadu_si512(src.as_ptr().add(16 * i).cast()) };
        let decoded = decode4(text, u64::MAX);
        if let Some(ids) = pending {
            let out = dst.as_mut_ptr().wrapping_add(10 * (i - 4));
            if decoded.is_some() {
                // SAFETY: bytes 10(i-4)..10i+24 are inside `dst` (IDs up to i+4 are); the 24
                // past step i-4 are step i's, rewritten next.
                unsafe { _mm512_storeu_si512(out.cast(), ids) };
            } else {
                // SAFETY: the mask covers IDs i-4..i only, which are inside `dst`.
                unsafe { _mm512_mask_storeu_epi8(out.cast(), first(40), ids) };
            }
        }
        let Some(ids) = decoded else {
            return scalar::decode_many(&src[16 * i..16 * (i + 4)], &mut dst[10 * i..], i);
        };
        pending = Some(ids);
        i += 4;
    }
    if let Some(ids) = pending {
        // SAFETY: the mask covers IDs i-4..i only, which are inside `dst`.
        unsafe {
            _mm512_mask_storeu_epi8(dst.as_mut_ptr().add(10 * (i - 4)).cast(), first(40), ids)
        };
    }
    while i < n {
        let r = (n - i).min(4);
        let loaded = first(16 * r);
        // SAFETY: the mask covers IDs i..i+r only, which are inside `src`; masked-off bytes are
        // not read and read as zero.
        let text = unsafe { _mm512_maskz_loadu_epi8(loaded, src.as_ptr().add(16 * i).cast()) };
        let Some(ids) = decode4(text, loaded) else {
            return scalar::decode_many(&src[16 * i..16 * (i + r)], &mut dst[10 * i..], i);
        };
        // SAFETY: the mask covers IDs i..i+r only, which are inside `dst`.
        unsafe { _mm512_mask_storeu_epi8(dst.as_mut_ptr().add(10 * i).cast(), first(10 * r), ids) };
        i += r;
    }
    Ok(())
}
