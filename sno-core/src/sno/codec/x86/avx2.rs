//! AVX2 batch kernels: two IDs per step, one per 128-bit lane, with the SSSE3 algorithms (see
//! `ssse3.rs`, `sse2.rs`) on 256-bit registers. Steps read and write straight from the caller's slices,
//! never past the IDs of the step, except that an encode step reads the next ID too (16-byte
//! loads of 10-byte IDs); the last one or two IDs go through the SSSE3 single-ID kernels (a
//! stack buffer for a partial step cost more than the step; measured: scripts/bench-notes.md,
//! "AVX2: the batch's last IDs").

use core::arch::x86_64::*;

use super::{DEC_STORE, ENC_HALVES, ssse3};
use crate::error::Error;
use crate::platform::{repeat, v256};
use crate::radix::ssse3::{DEC_JOIN5, DEC_JOIN10};
use crate::sno::codec::scalar;

const HALVES: [u8; 32] = repeat(ENC_HALVES);
const JOIN5: [u8; 32] = repeat(DEC_JOIN5);
const JOIN10: [u8; 32] = repeat(DEC_JOIN10);
const STORE: [u8; 32] = repeat(DEC_STORE);

/// Encodes `src.len() / 10` IDs into `dst`; lengths are already checked (`dst` is 16 per ID).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn encode_many(src: &[u8], dst: &mut [u8]) {
    let n = src.len() / 10;
    let mut i = 0;
    while n - i >= 3 {
        // SAFETY: IDs i, i+1 and i+2 exist, so the 26 bytes read from 10·i are inside `src`, and
        // the 32 bytes written at 16·i are the two IDs' text inside `dst`.
        unsafe { encode2(src.as_ptr().add(10 * i), dst.as_mut_ptr().add(16 * i)) };
        i += 2;
    }
    // The last one or two IDs: one per step (AVX2 implies SSSE3).
    // SAFETY: SSSE3 is enabled on this function, hence present.
    scalar::encode_each(&src[10 * i..], &mut dst[16 * i..], |id| unsafe {
        ssse3::encode(id)
    });
}

/// Decodes `src.len() / 16` IDs into `dst` (10 bytes each), stopping at the first bad one with
/// the IDs before it written (see [`scalar::decode_many`]).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn decode_many(src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
    let n = src.len() / 16;
    let mut i = 0;
    while n - i >= 2 {
        // SAFETY: IDs i and i+1 exist, so the 32 bytes read at 16·i are inside `src`.
        let Some(ids) = (unsafe { decode2(src.as_ptr().add(16 * i)) }) else {
            return scalar::decode_many(&src[16 * i..16 * (i + 2)], &mut dst[10 * i..], i);
        };
        // SAFETY: the 20 bytes written from 10·i are the two IDs' slots inside `dst`.
        unsafe { store2(dst.as_mut_ptr().add(10 * i), ids) };
        i += 2;
    }
    // The last ID, if any: SSSE3 (implied by AVX2).
    scalar::decode_each(&src[16 * i..], &mut dst[10 * i..], i, |text| {
        // SAFETY: SSSE3 is enabled on this function, hence present.
        unsafe { ssse3::decode(text) }.finish(text)
    })
}

/// Encodes the IDs at `src` and `src + 10` into 32 characters at `dst`.
///
/// # Safety
/// `src` readable for 26 bytes, `dst` writable for 32; the CPU supports AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn encode2(src: *const u8, dst: *mut u8) {
    // SAFETY: per the contract; the loads are unaligned.
    let v = unsafe { _mm256_loadu2_m128i(src.add(10).cast(), src.cast()) };
    // Four 40-bit halves, one per 64-bit lane, split 40 → 20 → 10 → 5 as in `spread40`.
    let v = _mm256_shuffle_epi8(v, v256(&HALVES));
    let v = _mm256_or_si256(
        _mm256_srli_epi64(v, 20),
        _mm256_slli_epi64(_mm256_and_si256(v, _mm256_set1_epi64x(0xF_FFFF)), 32),
    );
    let v = _mm256_or_si256(
        _mm256_srli_epi32(v, 10),
        _mm256_slli_epi32(_mm256_and_si256(v, _mm256_set1_epi32(0x3FF)), 16),
    );
    let groups = _mm256_or_si256(
        _mm256_srli_epi16(v, 5),
        _mm256_slli_epi16(_mm256_and_si256(v, _mm256_set1_epi16(0x1F)), 8),
    );
    let letters = _mm256_cmpgt_epi8(groups, _mm256_set1_epi8(7));
    let gap = _mm256_and_si256(letters, _mm256_set1_epi8(39));
    let text = _mm256_add_epi8(_mm256_add_epi8(groups, _mm256_set1_epi8(b'2' as i8)), gap);
    // SAFETY: per the contract; the store is unaligned.
    unsafe { _mm256_storeu_si256(dst.cast(), text) };
}

/// Decodes the 32 characters at `src`: the two IDs in bytes 0..10 of each lane, or `None` when
/// a character is outside the alphabet.
///
/// # Safety
/// `src` readable for 32 bytes; the CPU supports AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn decode2(src: *const u8) -> Option<__m256i> {
    // SAFETY: per the contract; the load is unaligned.
    let c = unsafe { _mm256_loadu_si256(src.cast()) };
    let digit = _mm256_sub_epi8(c, _mm256_set1_epi8(b'2' as i8));
    let is_digit = _mm256_cmpeq_epi8(_mm256_min_epu8(digit, _mm256_set1_epi8(7)), digit);
    let letter = _mm256_sub_epi8(c, _mm256_set1_epi8(b'a' as i8));
    let is_letter = _mm256_cmpeq_epi8(_mm256_min_epu8(letter, _mm256_set1_epi8(23)), letter);
    if _mm256_movemask_epi8(_mm256_or_si256(is_digit, is_letter)) != -1 {
        return None;
    }
    let values = _mm256_sub_epi8(digit, _mm256_and_si256(is_letter, _mm256_set1_epi8(39)));
    let tens = _mm256_maddubs_epi16(values, v256(&JOIN5));
    let twenties = _mm256_madd_epi16(tens, v256(&JOIN10));
    let halves = _mm256_or_si256(
        _mm256_slli_epi64(twenties, 20),
        _mm256_srli_epi64(twenties, 32),
    );
    Some(_mm256_shuffle_epi8(halves, v256(&STORE)))
}

/// Writes the two IDs of [`decode2`]'s result at `dst` and `dst + 10`, and nothing past them.
///
/// # Safety
/// `dst` writable for 20 bytes; the CPU supports AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store2(dst: *mut u8, ids: __m256i) {
    let second = _mm256_extracti128_si256::<1>(ids);
    // SAFETY: per the contract, all unaligned: 16 bytes at `dst` (the first ID and 6 padding
    // bytes), then the second ID over that padding: 8 bytes at `dst + 10`, 2 at `dst + 18`.
    unsafe {
        _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(ids));
        _mm_storel_epi64(dst.add(10).cast(), second);
        dst.add(18)
            .cast::<u16>()
            .write_unaligned(_mm_extract_epi16::<4>(second) as u16);
    }
}
