//! SSE2 kernels for one ID. SSE2 is part of x86_64 itself, so these need no detection and are
//! inlined into the caller: for one ID the call into a `#[target_feature]` kernel (SSSE3) costs
//! more than the work, so this is the single-ID encoder everywhere and the single-ID decoder on
//! every CPU but Intel's (see `codec::decode`).
//!
//! Encode: the two 40-bit halves (two big-endian scalar loads) go to the two 64-bit lanes, then
//! [`encode_halves`], which the SSSE3 kernel shares.
//!
//! Decode: [`values`] (range checks, shared with the SSSE3 kernel), then [`join40`]: 5 → 10 bits with 16-bit shifts,
//! 10 → 20 with PMADDWD, 20 → 40 with 64-bit shifts; the bytes leave in two integer registers
//! (`Decoded`), byte-swapped there.
//!
//! [`spread40`] and [`join40`] (40 bits ⇄ eight 5-bit groups per 64-bit lane) are the ULID
//! codec's, in `radix`.

use core::arch::x86_64::*;

use crate::error::Error;
use crate::radix::sse2::{join40, spread40};
use crate::sno::codec::scalar::{self, Decoded};

/// Encodes one ID.
///
/// # Safety
/// The CPU must support SSE2, which every x86_64 CPU does.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn encode(id: &[u8; 10]) -> [u8; 16] {
    let (hi, lo) = halves(id);
    let text = encode_halves(_mm_set_epi64x(lo as i64, hi as i64));
    let mut out = [0u8; 16];
    // One 16-byte store: a reader that copies the array with one 16-byte load is then served
    // from the store buffer (two 8-byte stores would stall it).
    // SAFETY: `out` is 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), text) };
    out
}

/// The 16 characters of two 40-bit numbers held in the 64-bit lanes (high half first).
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn encode_halves(v: __m128i) -> __m128i {
    let groups = spread40(v);
    // '2' + v, plus the gap from '9' + 1 to 'a' (39) for v ≥ 8.
    let letters = _mm_cmpgt_epi8(groups, _mm_set1_epi8(7));
    let gap = _mm_and_si128(letters, _mm_set1_epi8(39));
    _mm_add_epi8(_mm_add_epi8(groups, _mm_set1_epi8(b'2' as i8)), gap)
}

/// Strictly decodes one ID, inlined into the caller (the single-ID decoder on CPUs other than
/// Intel's, see `codec::decode`).
///
/// # Safety
/// The CPU must support SSE2, which every x86_64 CPU does.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn decode(text: &[u8; 16]) -> Decoded {
    // SAFETY: `text` is 16 readable bytes; the load is unaligned.
    let c = unsafe { _mm_loadu_si128(text.as_ptr().cast()) };
    let (values, invalid) = values(c);
    let (hi, lo) = join40(values);
    Decoded::from_halves(hi, lo, invalid)
}

/// The 5-bit values of 16 characters and the PMOVMSKB mask of those outside the alphabet: one
/// range check per run (`c − '2' ≤ 7`, `c − 'a' ≤ 23`, unsigned via PMINUB) over all 16 bytes.
/// Bytes outside the alphabet get arbitrary values.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn values(c: __m128i) -> (__m128i, u32) {
    let digit = _mm_sub_epi8(c, _mm_set1_epi8(b'2' as i8));
    let is_digit = _mm_cmpeq_epi8(_mm_min_epu8(digit, _mm_set1_epi8(7)), digit);
    let letter = _mm_sub_epi8(c, _mm_set1_epi8(b'a' as i8));
    let is_letter = _mm_cmpeq_epi8(_mm_min_epu8(letter, _mm_set1_epi8(23)), letter);
    let valid = _mm_movemask_epi8(_mm_or_si128(is_digit, is_letter)) as u32;
    let values = _mm_sub_epi8(digit, _mm_and_si128(is_letter, _mm_set1_epi8(39)));
    (values, valid ^ 0xFFFF)
}

/// Encodes IDs one per step; lengths are already checked.
///
/// # Safety
/// The CPU must support SSE2, which every x86_64 CPU does.
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn encode_many(src: &[u8], dst: &mut [u8]) {
    // SAFETY: SSE2 is enabled on this function, hence present.
    scalar::encode_each(src, dst, |id| unsafe { encode(id) });
}

/// Decodes IDs one per step, stopping at the first bad one (see [`scalar::decode_many`]).
///
/// # Safety
/// The CPU must support SSE2, which every x86_64 CPU does.
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn decode_many(src: &[u8], dst: &mut [u8]) -> Result<(), Error> {
    // SAFETY: SSE2 is enabled on this function, hence present.
    scalar::decode_each(src, dst, 0, |text| unsafe { decode(text) }.finish(text))
}

/// The two 40-bit big-endian halves of an ID, from an 8-byte and a 2-byte load. Those match how
/// a 10-byte value is copied (callers often hold a fresh copy on the stack: the C ABI does), so
/// the loads are served from the store buffer; an 8-byte load at offset 2 would span both
/// stores and stall (measured through the C ABI: scripts/bench-notes.md, "SSE2: an ID read as
/// 8 + 2 bytes").
#[inline(always)]
fn halves(id: &[u8; 10]) -> (u64, u64) {
    let first = u64::from_be_bytes(take8(id, 0));
    let last = u64::from(u16::from_be_bytes([id[8], id[9]]));
    (first >> 24, ((first & 0xFF_FFFF) << 16) | last)
}

/// Eight bytes from `at`.
#[inline(always)]
fn take8<const N: usize>(bytes: &[u8; N], at: usize) -> [u8; 8] {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    b
}
