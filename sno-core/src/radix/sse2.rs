//! SSE2 fast paths for the fixed-layout texts: the hyphenated UUID (hex) and the 26-character
//! ULID (Crockford base32). SSE2 is part of x86_64, so they need no detection and inline into
//! the callers. Each decoder returns `None` for any text it would reject, and its caller then asks
//! the scalar decoder for the exact error, so errors never depend on the CPU.
//!
//! [`spread40`] and [`join40`] (40 bits ⇄ eight 5-bit groups per 64-bit lane) serve the sno
//! codec's SSE2 and SSSE3 kernels too.

use core::arch::x86_64::*;

use crate::alphabet::CROCKFORD;

/// Writes 16 bytes as lower-case hex in the hyphenated layout `8-4-4-4-12`.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn encode_uuid(bytes: &[u8; 16], out: &mut [u8; 36]) {
    // SAFETY: `bytes` is 16 readable bytes; the load is unaligned.
    let b = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
    let nibble = _mm_set1_epi8(0x0F);
    let high = _mm_and_si128(_mm_srli_epi16(b, 4), nibble);
    let low = _mm_and_si128(b, nibble);
    // Digits 0..16 and 16..32, in text order.
    let h0 = hex_symbols(_mm_unpacklo_epi8(high, low));
    let h1 = hex_symbols(_mm_unpackhi_epi8(high, low));
    // Text 0..16: digits 0..8, '-', 8..12, '-', 12..14.
    let first = or4(
        _mm_and_si128(h0, v128(&const { mask(0, 8) })),
        _mm_and_si128(_mm_slli_si128::<1>(h0), v128(&const { mask(9, 13) })),
        _mm_and_si128(_mm_slli_si128::<2>(h0), v128(&const { mask(14, 16) })),
        v128(&const { hyphens(8, 13) }),
    );
    // Text 16..32: digits 14, 15, '-', 16..20, '-', 20..28.
    let second = or4(
        _mm_and_si128(_mm_srli_si128::<14>(h0), v128(&const { mask(0, 2) })),
        _mm_and_si128(_mm_slli_si128::<3>(h1), v128(&const { mask(3, 7) })),
        _mm_and_si128(_mm_slli_si128::<4>(h1), v128(&const { mask(8, 16) })),
        v128(&const { hyphens(2, 7) }),
    );
    // Text 32..36: digits 28..32.
    let tail = _mm_cvtsi128_si32(_mm_srli_si128::<12>(h1)) as u32;
    let p = out.as_mut_ptr();
    // SAFETY: the stores write 0..16, 16..32 and 32..36 of the 36-byte `out`, unaligned. Three
    // disjoint stores in the sizes a copy of the array loads, so the copy is forwarded.
    unsafe {
        _mm_storeu_si128(p.cast(), first);
        _mm_storeu_si128(p.add(16).cast(), second);
    }
    out[32..].copy_from_slice(&tail.to_le_bytes());
}

/// The 16 bytes of a hyphenated UUID (hex digits in either case), or `None` if a hyphen is
/// missing or a digit is not hex.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn decode_uuid(text: &[u8; 36]) -> Option<[u8; 16]> {
    if [text[8], text[13], text[18], text[23]] != [b'-'; 4] {
        return None;
    }
    let p = text.as_ptr();
    // SAFETY: every load reads 16 of the 36 bytes of `text` (offsets 0, 2, 16 and 20), unaligned.
    let (a, a2, c, b) = unsafe {
        (
            _mm_loadu_si128(p.cast()),
            _mm_loadu_si128(p.add(2).cast()),
            _mm_loadu_si128(p.add(16).cast()),
            _mm_loadu_si128(p.add(20).cast()),
        )
    };
    // Digits 0..16: text 0..8, 9..13, 14..18.
    let d0 = or4(
        _mm_and_si128(a, v128(&const { mask(0, 8) })),
        _mm_and_si128(_mm_srli_si128::<1>(a), v128(&const { mask(8, 12) })),
        _mm_and_si128(a2, v128(&const { mask(12, 16) })),
        _mm_setzero_si128(),
    );
    // Digits 16..32: text 19..23, 24..36.
    let d1 = _mm_or_si128(
        _mm_and_si128(_mm_srli_si128::<3>(c), v128(&const { mask(0, 4) })),
        _mm_and_si128(b, v128(&const { mask(4, 16) })),
    );
    let (v0, ok0) = hex_values(d0);
    let (v1, ok1) = hex_values(d1);
    if _mm_movemask_epi8(_mm_and_si128(ok0, ok1)) != 0xFFFF {
        return None;
    }
    let bytes = _mm_packus_epi16(join_nibbles(v0), join_nibbles(v1));
    let mut out = [0u8; 16];
    // SAFETY: `out` is 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), bytes) };
    Some(out)
}

/// Writes 16 bytes (a big-endian 128-bit number) as 26 Crockford base32 digits: the first byte
/// gives two digits (3 + 5 bits), the other 15 bytes three 40-bit groups of eight.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn encode_ulid(bytes: &[u8; 16], out: &mut [u8; 26]) {
    // The 40-bit big-endian groups: bytes 1..6, 6..11 and 11..16, from two 8-byte loads at 0
    // and 8, the way a 128-bit value is stored (a load at offset 3 would span both stores of a
    // freshly generated ULID and stall store forwarding).
    let be = |at: usize| u64::from_be_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let (a, b) = (be(0), be(8));
    let mask = (1u64 << 40) - 1;
    let (g1, g2, g3) = ((a >> 16) & mask, ((a & 0xFFFF) << 24) | (b >> 40), b & mask);
    let (g1, g2, g3) = (g1 as i64, g2 as i64, g3 as i64);
    let front = crockford_symbols(spread40(_mm_set_epi64x(g2, g1)));
    let back = crockford_symbols(spread40(_mm_set_epi64x(0, g3)));
    out[0] = CROCKFORD.symbols[usize::from(bytes[0] >> 5)];
    out[1] = CROCKFORD.symbols[usize::from(bytes[0] & 31)];
    let p = out.as_mut_ptr();
    // SAFETY: the stores write 2..18 and 18..26 of the 26-byte `out`, unaligned.
    unsafe {
        _mm_storeu_si128(p.add(2).cast(), front);
        _mm_storel_epi64(p.add(18).cast(), back);
    }
}

/// The 16 big-endian bytes of a 26-digit ULID text (either case), or `None` if a byte is not
/// Crockford base32 or the first digit is above 7 (the number would exceed 128 bits).
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn decode_ulid(text: &[u8; 26]) -> Option<[u8; 16]> {
    let (c0, c1) = (
        CROCKFORD.decode[usize::from(text[0])],
        CROCKFORD.decode[usize::from(text[1])],
    );
    if c0 > 7 || c1 > 31 {
        return None;
    }
    let p = text.as_ptr();
    // SAFETY: both loads read 16 of the 26 bytes of `text` (offsets 2 and 10), unaligned.
    let (x, z) = unsafe {
        (
            _mm_loadu_si128(p.add(2).cast()),
            _mm_loadu_si128(p.add(10).cast()),
        )
    };
    let (vx, okx) = crockford_values(x);
    let (vz, okz) = crockford_values(z);
    if _mm_movemask_epi8(_mm_and_si128(okx, okz)) != 0xFFFF {
        return None;
    }
    let (g1, g2) = join40(vx);
    let (_, g3) = join40(vz);
    let top = u128::from((c0 << 5) | c1);
    let value = (top << 120) | (u128::from(g1) << 80) | (u128::from(g2) << 40) | u128::from(g3);
    Some(value.to_be_bytes())
}

/// Nibble values 0..16 as lower-case hex digits: `'0' + v`, plus 39 (from `':'` to `'a'`) for
/// v ≥ 10.
#[inline]
#[target_feature(enable = "sse2")]
fn hex_symbols(v: __m128i) -> __m128i {
    let letters = _mm_cmpgt_epi8(v, _mm_set1_epi8(9));
    let gap = _mm_and_si128(letters, _mm_set1_epi8(39));
    _mm_add_epi8(_mm_add_epi8(v, _mm_set1_epi8(b'0' as i8)), gap)
}

/// The nibble value of each hex digit (either case) and a mask of the bytes that are digits.
#[inline]
#[target_feature(enable = "sse2")]
fn hex_values(c: __m128i) -> (__m128i, __m128i) {
    let (digit, is_digit, letter) = digits_and_letters(c);
    let is_letter = at_most(letter, 5);
    let values = _mm_or_si128(
        _mm_and_si128(is_digit, digit),
        _mm_and_si128(is_letter, _mm_add_epi8(letter, _mm_set1_epi8(10))),
    );
    (values, _mm_or_si128(is_digit, is_letter))
}

/// Pairs of nibbles (high first) joined into bytes, one per 16-bit lane.
#[inline]
#[target_feature(enable = "sse2")]
fn join_nibbles(v: __m128i) -> __m128i {
    _mm_and_si128(
        _mm_or_si128(_mm_slli_epi16(v, 4), _mm_srli_epi16(v, 8)),
        _mm_set1_epi16(0xFF),
    )
}

/// 5-bit values as Crockford symbols: `'0' + v`, +7 from `':'` to `'A'` for v ≥ 10, and +1 past
/// each skipped letter (I after v = 17, L after 19, O after 21, U after 26).
#[inline]
#[target_feature(enable = "sse2")]
fn crockford_symbols(v: __m128i) -> __m128i {
    let gt = |k: i8| _mm_cmpgt_epi8(v, _mm_set1_epi8(k));
    let base = _mm_add_epi8(
        _mm_add_epi8(v, _mm_set1_epi8(b'0' as i8)),
        _mm_and_si128(gt(9), _mm_set1_epi8(7)),
    );
    // Each comparison is −1 where true: subtracting adds the skip.
    let skips = _mm_add_epi8(_mm_add_epi8(gt(17), gt(19)), _mm_add_epi8(gt(21), gt(26)));
    _mm_sub_epi8(base, skips)
}

/// The value of each Crockford symbol (either case; I, L, O and U are not symbols) and a mask of
/// the bytes that are symbols.
#[inline]
#[target_feature(enable = "sse2")]
fn crockford_values(c: __m128i) -> (__m128i, __m128i) {
    let (digit, is_digit, k) = digits_and_letters(c);
    let eq = |s: u8| _mm_cmpeq_epi8(k, _mm_set1_epi8((s - b'a') as i8));
    let excluded = _mm_or_si128(
        _mm_or_si128(eq(b'i'), eq(b'l')),
        _mm_or_si128(eq(b'o'), eq(b'u')),
    );
    let is_letter = _mm_andnot_si128(excluded, at_most(k, 25));
    // 10 + k, less one per skipped letter before it (each comparison is −1 where true).
    let gt = |s: u8| _mm_cmpgt_epi8(k, _mm_set1_epi8((s - b'a') as i8));
    let skips = _mm_add_epi8(
        _mm_add_epi8(gt(b'i'), gt(b'l')),
        _mm_add_epi8(gt(b'o'), gt(b'u')),
    );
    let letter_value = _mm_add_epi8(_mm_add_epi8(k, _mm_set1_epi8(10)), skips);
    let values = _mm_or_si128(
        _mm_and_si128(is_digit, digit),
        _mm_and_si128(is_letter, letter_value),
    );
    (values, _mm_or_si128(is_digit, is_letter))
}

/// What both text alphabets (hex, Crockford) start from: each byte's value as a decimal digit
/// (`c − '0'`), the mask of the bytes that are digits, and its letter index `k` with the case
/// folded (setting bit 5 lower-cases exactly the letters: k = 0 ..= 25 for a–z in either case;
/// other bytes give other values, which the callers' range checks reject).
#[inline]
#[target_feature(enable = "sse2")]
fn digits_and_letters(c: __m128i) -> (__m128i, __m128i, __m128i) {
    let digit = _mm_sub_epi8(c, _mm_set1_epi8(b'0' as i8));
    let letter = _mm_sub_epi8(
        _mm_or_si128(c, _mm_set1_epi8(0x20)),
        _mm_set1_epi8(b'a' as i8),
    );
    (digit, at_most(digit, 9), letter)
}

/// All-ones in the bytes whose unsigned value is at most `max`.
#[inline]
#[target_feature(enable = "sse2")]
fn at_most(v: __m128i, max: u8) -> __m128i {
    _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(max as i8)), v)
}

/// All-ones in bytes `start..end`, zero elsewhere (built at compile time).
const fn mask(start: usize, end: usize) -> [u8; 16] {
    let mut m = [0u8; 16];
    let mut i = start;
    while i < end {
        m[i] = 0xFF;
        i += 1;
    }
    m
}

/// `'-'` at bytes `a` and `b`, zero elsewhere (built at compile time).
const fn hyphens(a: usize, b: usize) -> [u8; 16] {
    let mut m = [0u8; 16];
    m[a] = b'-';
    m[b] = b'-';
    m
}

/// A 16-byte table as a vector.
#[inline]
#[target_feature(enable = "sse2")]
fn v128(table: &[u8; 16]) -> __m128i {
    // SAFETY: `table` is 16 readable bytes; the load is unaligned.
    unsafe { _mm_loadu_si128(table.as_ptr().cast()) }
}

/// The sixteen 5-bit groups, one per byte in text order, of two 40-bit numbers held in the 64-bit
/// lanes (high half first): split 40 → 2 × 20 → 4 × 10 → 8 × 5 bits, each step putting the high
/// part in the lower lane. Uniform shifts only, so the compiler has nothing to rewrite. Shared
/// by the base-32 formats (ULID here, sno in its codec), which map the groups to their own
/// alphabet.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn spread40(v: __m128i) -> __m128i {
    // 40 → 20 + 20: the high 20 bits to the low 32-bit lane.
    let v = _mm_or_si128(
        _mm_srli_epi64(v, 20),
        _mm_slli_epi64(_mm_and_si128(v, _mm_set1_epi64x(0xF_FFFF)), 32),
    );
    // 20 → 10 + 10 within each 32-bit lane.
    let v = _mm_or_si128(
        _mm_srli_epi32(v, 10),
        _mm_slli_epi32(_mm_and_si128(v, _mm_set1_epi32(0x3FF)), 16),
    );
    // 10 → 5 + 5 within each 16-bit lane.
    _mm_or_si128(
        _mm_srli_epi16(v, 5),
        _mm_slli_epi16(_mm_and_si128(v, _mm_set1_epi16(0x1F)), 8),
    )
}

/// The inverse of [`spread40`]: sixteen 5-bit values (text order) joined into two 40-bit numbers,
/// the first eight values' and the last eight's.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn join40(values: __m128i) -> (u64, u64) {
    // 5 + 5 → 10: the first character of each pair is the high part.
    let tens = _mm_or_si128(
        _mm_slli_epi16(_mm_and_si128(values, _mm_set1_epi16(0xFF)), 5),
        _mm_srli_epi16(values, 8),
    );
    // 10 + 10 → 20, then 20 + 20 → 40 (bits 40..64 hold leftovers, masked off).
    let twenties = _mm_madd_epi16(tens, _mm_set1_epi32(0x0001_0400));
    let halves = _mm_or_si128(_mm_slli_epi64(twenties, 20), _mm_srli_epi64(twenties, 32));
    let hi = _mm_cvtsi128_si64(halves) as u64;
    let lo = _mm_cvtsi128_si64(_mm_unpackhi_epi64(halves, halves)) as u64;
    (hi & MASK40, lo & MASK40)
}

/// The low 40 bits.
const MASK40: u64 = (1 << 40) - 1;

/// The bitwise OR of four vectors.
#[inline]
#[target_feature(enable = "sse2")]
fn or4(a: __m128i, b: __m128i, c: __m128i, d: __m128i) -> __m128i {
    _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))
}

#[cfg(test)]
pub(super) mod tests {
    //! Each fast path against the scalar codecs it replaces: random values, and every byte value
    //! at every position of a valid text (the accept/reject decision and the value). Under Miri
    //! (which checks the unsafe loads and stores) fewer values, and one text for the byte sweep.
    use super::*;
    use crate::radix::scalar::{
        decode_base32, decode_uuid_scalar, encode_base32, encode_uuid_scalar,
    };

    /// SplitMix64: a fixed pseudo-random sequence, so failures reproduce.
    fn values(n: usize) -> impl Iterator<Item = [u8; 16]> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let edges = [[0u8; 16], [0xFF; 16], [0x80; 16], [0x7F; 16]];
        edges.into_iter().chain((0..n).map(move |_| {
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&next().to_le_bytes());
            b[8..].copy_from_slice(&next().to_le_bytes());
            b
        }))
    }

    fn uuid_scalar(bytes: &[u8; 16]) -> [u8; 36] {
        let mut out = [0u8; 36];
        encode_uuid_scalar(bytes, &mut out);
        out
    }

    /// Every byte value at every position of `text`: the fast decoder accepts exactly what the
    /// reference accepts, with the same value.
    fn sweep<const N: usize, T: PartialEq + core::fmt::Debug>(
        text: [u8; N],
        fast: impl Fn(&[u8; N]) -> Option<T>,
        reference: impl Fn(&[u8; N]) -> Option<T>,
    ) {
        for at in 0..N {
            for c in 0..=255u8 {
                let mut t = text;
                t[at] = c;
                assert_eq!(fast(&t), reference(&t), "byte {c:#04x} at {at}");
            }
        }
    }

    #[test]
    fn uuid_matches_scalar() {
        for bytes in values(if cfg!(miri) { 20 } else { 2000 }) {
            let mut text = [0u8; 36];
            // SAFETY: SSE2 is part of the x86_64 baseline.
            unsafe { encode_uuid(&bytes, &mut text) };
            assert_eq!(text, uuid_scalar(&bytes), "{bytes:02x?}");
            // SAFETY: as above.
            assert_eq!(unsafe { decode_uuid(&text) }, Some(bytes));
            let mut upper = text;
            upper.make_ascii_uppercase();
            // SAFETY: as above.
            assert_eq!(unsafe { decode_uuid(&upper) }, Some(bytes));
        }
    }

    #[test]
    fn uuid_decode_accepts_what_scalar_accepts() {
        for bytes in values(3).take(if cfg!(miri) { 1 } else { 7 }) {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            sweep(
                uuid_scalar(&bytes),
                |t| unsafe { decode_uuid(t) },
                decode_uuid_scalar,
            );
        }
    }

    /// A ULID encoder and decoder against the scalar codec: random values round trip in both
    /// cases, and the decoder accepts exactly what the scalar one accepts.
    pub(in crate::radix) fn check_ulid(
        encode: impl Fn(&[u8; 16], &mut [u8; 26]),
        decode: impl Fn(&[u8; 26]) -> Option<[u8; 16]>,
    ) {
        for bytes in values(if cfg!(miri) { 20 } else { 2000 }) {
            let value = u128::from_be_bytes(bytes);
            let mut text = [0u8; 26];
            encode(&bytes, &mut text);
            assert_eq!(text, encode_base32::<26>(value, &CROCKFORD), "{value:#x}");
            assert_eq!(decode(&text), Some(bytes));
            let mut lower = text;
            lower.make_ascii_lowercase();
            assert_eq!(decode(&lower), Some(bytes));
        }
        for bytes in values(3).take(if cfg!(miri) { 1 } else { 7 }) {
            let text = encode_base32::<26>(u128::from_be_bytes(bytes), &CROCKFORD);
            sweep(text, &decode, |t| {
                decode_base32::<26, 128>(t, &CROCKFORD)
                    .ok()
                    .map(u128::to_be_bytes)
            });
        }
    }

    #[test]
    fn ulid_matches_scalar() {
        check_ulid(
            // SAFETY: SSE2 is part of the x86_64 baseline.
            |bytes, text| unsafe { encode_ulid(bytes, text) },
            // SAFETY: as above.
            |text| unsafe { decode_ulid(text) },
        );
    }
}
