//! SSSE3 ULID codec: PSHUFB does the byte moves and the alphabet lookups that the SSE2 path
//! (`sse2.rs`) does with shifts, masks and comparisons, about half the instructions each way.
//! Selected at run time (the detection is cached); the SSE2 path serves x86_64 CPUs without
//! SSSE3. Like it, the decoder returns `None` for any text it would reject, and its caller asks
//! the scalar decoder for the exact error.
//!
//! Encode: text 0..16 and 10..26 each from one PSHUFB (the two bytes under each pair of digits
//! into a 16-bit lane), a multiply that splits the pair, and the alphabet lookup.
//!
//! Decode: the digits regrouped by PSHUFB as a top byte (two digits, 3 + 5 bits) and three
//! 40-bit groups (bytes 1..6, 6..11, 11..16; eight digits each), looked up, then joined with the
//! PMADDUBSW / PMADDWD steps of the SSSE3 sno decoder.

use core::arch::x86_64::*;

use crate::alphabet::CROCKFORD;
use crate::platform::{repeat, v128};

/// PMADDUBSW weights joining two 5-bit values into 10 bits: `a · 32 + b` (also the sno codec's
/// SSSE3, AVX2 and AVX-512 decoders').
pub(crate) const DEC_JOIN5: [u8; 16] = repeat([32, 1]);
/// PMADDWD weights joining two 10-bit values into 20 bits: `a · 1024 + b` (little-endian i16s).
pub(crate) const DEC_JOIN10: [u8; 16] = repeat([0, 4, 1, 0]);

/// Writes 16 bytes (a big-endian 128-bit number) as 26 Crockford base32 digits.
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn encode_ulid(bytes: &[u8; 16], out: &mut [u8; 26]) {
    // SAFETY: `bytes` is 16 readable bytes; the load is unaligned.
    let v = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
    let p = out.as_mut_ptr();
    // SAFETY: the stores write text 0..16 and 10..26 of the 26-byte `out`, unaligned: two
    // overlapping 16-byte stores, the loads a copy of the text makes.
    unsafe {
        _mm_storeu_si128(p.cast(), crockford_symbols(digits(v, &ENC_FIRST)));
        _mm_storeu_si128(p.add(10).cast(), crockford_symbols(digits(v, &ENC_LAST)));
    }
}

/// Sixteen digits of the number `v` (16 big-endian bytes), two per 16-bit lane. Each lane gets
/// the two bytes that hold its pair's ten bits (PSHUFB); PMULLW moves the masked pair to bits
/// 6..16, so that one uniform shift puts the first digit in the low byte and another the second
/// in the high byte. (A per-lane PMULHUW would skip a step, but LLVM rewrites a multiply by
/// powers of two into per-lane shifts, which SSE lacks and emulates at length.)
#[inline]
#[target_feature(enable = "ssse3")]
fn digits(v: __m128i, layout: &EncodeLayout) -> __m128i {
    let words = _mm_shuffle_epi8(v, v128(&layout.gather));
    let pair = _mm_mullo_epi16(_mm_and_si128(words, v128(&layout.mask)), v128(&layout.mul));
    let first = _mm_srli_epi16(pair, 11);
    let second = _mm_and_si128(_mm_slli_epi16(pair, 2), _mm_set1_epi16(31 << 8));
    _mm_or_si128(first, second)
}

/// The 16 big-endian bytes of a 26-digit ULID text (either case), or `None` if a byte is not
/// Crockford base32 or the first digit is above 7 (the number would exceed 128 bits).
///
/// # Safety
/// The CPU must support SSSE3.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn decode_ulid(text: &[u8; 26]) -> Option<[u8; 16]> {
    let p = text.as_ptr();
    // SAFETY: both loads read 16 of the 26 bytes of `text` (offsets 0 and 10), unaligned.
    let (x, z) = unsafe { (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(10).cast())) };
    // The digits regrouped as the encoder has them: digits 2..18, and 18..26 beside 0 and 1 (the
    // six bytes before them are '0' digits, so that 40-bit group is the top byte).
    let front = _mm_or_si128(
        _mm_shuffle_epi8(x, v128(&DEC_FRONT_X)),
        _mm_shuffle_epi8(z, v128(&DEC_FRONT_Z)),
    );
    let back = _mm_or_si128(
        _mm_or_si128(
            _mm_shuffle_epi8(x, v128(&DEC_BACK_X)),
            _mm_shuffle_epi8(z, v128(&DEC_BACK_Z)),
        ),
        v128(&DEC_BACK_FILL),
    );
    let (front, back) = (crockford_values(front), crockford_values(back));
    // Every digit valid (top bit set by the lookup), and the first digit (byte 6 of `back`) at
    // most 7.
    let valid = _mm_movemask_epi8(_mm_and_si128(front, back)) == 0xFFFF;
    if !valid || _mm_extract_epi16::<3>(back) & 0x18 != 0 {
        return None;
    }
    let digits = _mm_set1_epi8(31);
    let front = join40(_mm_and_si128(front, digits));
    let back = join40(_mm_and_si128(back, digits));
    let bytes = _mm_or_si128(
        _mm_shuffle_epi8(front, v128(&DEC_STORE_FRONT)),
        _mm_shuffle_epi8(back, v128(&DEC_STORE_BACK)),
    );
    let mut out = [0u8; 16];
    // SAFETY: `out` is 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), bytes) };
    Some(out)
}

/// Digit values 0..32 as Crockford symbols: PSHUFB over the first 16 symbols for v < 16 (v + 0x70
/// keeps the top bit clear) and over the last 16 for v ≥ 16 (v − 16 sets it below, giving zero).
#[inline]
#[target_feature(enable = "ssse3")]
fn crockford_symbols(v: __m128i) -> __m128i {
    let low = _mm_shuffle_epi8(v128(&SYMBOLS_LOW), _mm_add_epi8(v, _mm_set1_epi8(0x70)));
    let high = _mm_shuffle_epi8(v128(&SYMBOLS_HIGH), _mm_sub_epi8(v, _mm_set1_epi8(16)));
    _mm_or_si128(low, high)
}

/// The value of each Crockford symbol (either case) with the top bit set, or zero for a byte that
/// is not a symbol. A byte's high nibble picks its class (digits `0x3_`, letters A–O `0x4_`/`0x6_`,
/// letters P–Z `0x5_`/`0x7_`); PSHUFB of the class's selector gives 0 for the byte's own class and
/// 0x80 (a zero lookup) for the others, so exactly one of the three low-nibble tables answers.
#[inline]
#[target_feature(enable = "ssse3")]
fn crockford_values(c: __m128i) -> __m128i {
    let nibble = _mm_set1_epi8(0x0F);
    let high = _mm_and_si128(_mm_srli_epi16(c, 4), nibble);
    let low = _mm_and_si128(c, nibble);
    let class = |select: &[u8; 16], values: &[u8; 16]| {
        let index = _mm_or_si128(low, _mm_shuffle_epi8(v128(select), high));
        _mm_shuffle_epi8(v128(values), index)
    };
    _mm_or_si128(
        class(&SELECT_DIGITS, &VALUES_DIGITS),
        _mm_or_si128(
            class(&SELECT_A_TO_O, &VALUES_A_TO_O),
            class(&SELECT_P_TO_Z, &VALUES_P_TO_Z),
        ),
    )
}

/// Sixteen 5-bit values (text order) joined into two 40-bit numbers, one per 64-bit lane (bits
/// 40..64 hold leftovers): 5 + 5 → 10 with PMADDUBSW, 10 + 10 → 20 with PMADDWD, then 20 + 20.
#[inline]
#[target_feature(enable = "ssse3")]
fn join40(values: __m128i) -> __m128i {
    let tens = _mm_maddubs_epi16(values, v128(&DEC_JOIN5));
    let twenties = _mm_madd_epi16(tens, v128(&DEC_JOIN10));
    _mm_or_si128(_mm_slli_epi64(twenties, 20), _mm_srli_epi64(twenties, 32))
}

/// Zeroing index for PSHUFB.
const Z: u8 = 0x80;

/// The constants of [`digits`] for eight digit pairs.
struct EncodeLayout {
    /// PSHUFB pattern: the two bytes holding each pair, the first in the high byte of its lane.
    gather: [u8; 16],
    /// Per lane: the pair's ten bits, and the PMULLW factor moving them to bits 6..16.
    mask: [u8; 16],
    mul: [u8; 16],
}

/// Digit pairs 0..8 (text 0..16) and 5..13 (text 10..26).
const ENC_FIRST: EncodeLayout = encode_layout(0);
const ENC_LAST: EncodeLayout = encode_layout(5);

/// The layout of pairs `first..first + 8`. Pair `k` (digits `2k`, `2k + 1`) is bits
/// `10k − 2 .. 10k + 8` of the number counted from its top (26 digits are 130 bits, so the first
/// two bits are padding): bits `o .. o + 10` (`o` = 0, 2, 4 or 6) from the top of the 16-bit word
/// at byte `b`, that is its bits `6 − o .. 16 − o`, which a factor of `2^o` moves to 6..16.
/// Pair 0 starts two bits before byte 0: its word is byte 0 behind a zero byte, `o` = 6.
const fn encode_layout(first: usize) -> EncodeLayout {
    let mut l = EncodeLayout {
        gather: [0; 16],
        mask: [0; 16],
        mul: [0; 16],
    };
    let mut lane = 0;
    while lane < 8 {
        let start = 10 * (first + lane) as i32 - 2;
        let (b, o) = (start.div_euclid(8), start.rem_euclid(8) as u32);
        l.gather[2 * lane] = (b + 1) as u8;
        l.gather[2 * lane + 1] = if b < 0 { Z } else { b as u8 };
        put16(&mut l.mask, lane, 0x3FF << (6 - o));
        put16(&mut l.mul, lane, 1 << o);
        lane += 1;
    }
    l
}

/// Writes `value` as the little-endian 16-bit lane `lane` of `t`.
const fn put16(t: &mut [u8; 16], lane: usize, value: u16) {
    let [lo, hi] = value.to_le_bytes();
    t[2 * lane] = lo;
    t[2 * lane + 1] = hi;
}

/// Digits 2..18: text 2..16 from the load at 0, text 16..18 from the load at 10.
const DEC_FRONT_X: [u8; 16] = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, Z, Z];
const DEC_FRONT_Z: [u8; 16] = [Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 6, 7];
/// Digits 0 and 1 at bytes 6 and 7 (after six fill digits), digits 18..26 at bytes 8..16.
const DEC_BACK_X: [u8; 16] = [Z, Z, Z, Z, Z, Z, 0, 1, Z, Z, Z, Z, Z, Z, Z, Z];
const DEC_BACK_Z: [u8; 16] = [Z, Z, Z, Z, Z, Z, Z, Z, 8, 9, 10, 11, 12, 13, 14, 15];
const DEC_BACK_FILL: [u8; 16] = [
    b'0', b'0', b'0', b'0', b'0', b'0', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];
/// The 40-bit little-endian lanes as big-endian bytes: groups 1 and 2 at 1..11, group 3 at
/// 11..16, the top byte at 0.
const DEC_STORE_FRONT: [u8; 16] = [Z, 4, 3, 2, 1, 0, 12, 11, 10, 9, 8, Z, Z, Z, Z, Z];
const DEC_STORE_BACK: [u8; 16] = [0, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 12, 11, 10, 9, 8];

/// The first and last 16 Crockford symbols.
const SYMBOLS_LOW: [u8; 16] = half(0);
const SYMBOLS_HIGH: [u8; 16] = half(16);

const fn half(from: usize) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = CROCKFORD.symbols[from + i];
        i += 1;
    }
    t
}

/// Class selectors by high nibble: 0 for the class's nibbles, 0x80 for every other.
const SELECT_DIGITS: [u8; 16] = select(&[3]);
const SELECT_A_TO_O: [u8; 16] = select(&[4, 6]);
const SELECT_P_TO_Z: [u8; 16] = select(&[5, 7]);

const fn select(highs: &[u8]) -> [u8; 16] {
    let mut t = [Z; 16];
    let mut i = 0;
    while i < highs.len() {
        t[highs[i] as usize] = 0;
        i += 1;
    }
    t
}

/// Values by low nibble within a class (from the upper-case symbol `0x_0 + high · 16`), top bit
/// set, zero where the byte is not a symbol. Built from the alphabet's decode table.
const VALUES_DIGITS: [u8; 16] = values(0x30);
const VALUES_A_TO_O: [u8; 16] = values(0x40);
const VALUES_P_TO_Z: [u8; 16] = values(0x50);

const fn values(base: usize) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        let v = CROCKFORD.decode[base + i];
        if v < 32 {
            t[i] = 0x80 | v;
        }
        i += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    //! Against the scalar codec, with the checks of the SSE2 path; skipped on a CPU without SSSE3.
    use super::*;

    #[test]
    fn ulid_matches_scalar() {
        if !crate::platform::has_ssse3() {
            return;
        }
        crate::radix::sse2::tests::check_ulid(
            // SAFETY: SSSE3 is present (checked above).
            |bytes, text| unsafe { encode_ulid(bytes, text) },
            // SAFETY: as above.
            |text| unsafe { decode_ulid(text) },
        );
    }
}
