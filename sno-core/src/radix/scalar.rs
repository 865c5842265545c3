//! The scalar text codecs behind [`radix`](super): portable Rust, the path of other targets and
//! of builds without `simd`, the error report behind every fast path, and the reference the fast
//! paths are tested against.

use crate::alphabet::{Alphabet, BASE36, CROCKFORD};
use crate::bytes::{at, at_mut, copy};
use crate::error::Error;

/// Positions of the hyphens in the hyphenated UUID form (`8-4-4-4-12`).
pub(crate) const UUID_HYPHENS: [usize; 4] = [8, 13, 18, 23];

/// The digit groups of the hyphenated UUID text (`8-4-4-4-12`).
#[cfg(any(test, not(all(feature = "simd", target_arch = "x86_64"))))]
const UUID_GROUPS: [core::ops::Range<usize>; 5] = [0..8, 9..13, 14..18, 19..23, 24..36];

/// [`encode_uuid`](super::encode_uuid) without SIMD: the other targets' path, and the reference in tests.
#[cfg(any(test, not(all(feature = "simd", target_arch = "x86_64"))))]
pub(crate) fn encode_uuid_scalar(bytes: &[u8; 16], out: &mut [u8; 36]) {
    *out = [b'-'; 36];
    let mut from = 0;
    for group in UUID_GROUPS {
        let len = group.len() / 2;
        encode_hex(
            at(bytes, from..from + len),
            at_mut(out, group),
            &crate::alphabet::HEX,
        );
        from += len;
    }
}

/// [`decode_uuid`](super::decode_uuid) without SIMD: the other targets' path, and the reference in tests.
#[cfg(any(test, not(all(feature = "simd", target_arch = "x86_64"))))]
pub(crate) fn decode_uuid_scalar(text: &[u8; 36]) -> Option<[u8; 16]> {
    let mut digits = [0u8; 32];
    let mut offset = 0;
    for group in UUID_GROUPS {
        copy(
            at_mut(&mut digits, offset..offset + group.len()),
            at(text, group.clone()),
        );
        offset += group.len();
    }
    let mut bytes = [0u8; 16];
    let hyphens = UUID_HYPHENS.iter().all(|&h| *at(text, h) == b'-');
    (hyphens && decode_hex(&digits, &mut bytes, 0, &crate::alphabet::HEX).is_ok()).then_some(bytes)
}

/// The scalar ULID decoder: the reference, and the error report behind the fast paths.
#[cfg_attr(all(feature = "simd", target_arch = "x86_64"), cold)]
pub(crate) fn decode_ulid_scalar(input: &[u8]) -> Result<[u8; 16], Error> {
    decode_base32::<26, 128>(input, &CROCKFORD).map(u128::to_be_bytes)
}

/// `value` as `LEN` base-32 digits, most significant first (5 bits each; the top
/// `5 · LEN − 128` bits are zero). Works on 60-bit pieces so every shift is a 64-bit one.
pub(crate) fn encode_base32<const LEN: usize>(value: u128, alphabet: &Alphabet<32>) -> [u8; LEN] {
    let mut out = [0u8; LEN];
    let mut rest = value;
    let mut end = LEN;
    while end > 0 {
        let piece = (rest as u64) & ((1 << 60) - 1);
        rest >>= 60;
        let start = end.saturating_sub(12);
        for (k, o) in at_mut(&mut out, start..end).iter_mut().rev().enumerate() {
            *o = alphabet.symbols[((piece >> (5 * k)) & 31) as usize];
        }
        end = start;
    }
    out
}

/// Reads `LEN` base-32 digits of a `BITS`-bit number (`BITS` ≤ 128, `5 · LEN` ≥ `BITS`): the
/// first digit's top `5 · LEN − BITS` bits must be zero, else [`Error::ValueOverflow`].
pub(crate) fn decode_base32<const LEN: usize, const BITS: u32>(
    input: &[u8],
    alphabet: &Alphabet<32>,
) -> Result<u128, Error> {
    let digits = digits::<LEN, 32>(input, alphabet)?;
    let spare = 5 * LEN as u32 - BITS;
    if u32::from(digits[0]) >> (5 - spare) != 0 {
        return Err(Error::ValueOverflow);
    }
    // 12 digits (60 bits) at a time in u64, joined in u128 once per piece.
    let mut value = 0u128;
    for chunk in digits.rchunks(12).rev() {
        let piece = chunk.iter().fold(0u64, |v, &d| (v << 5) | u64::from(d));
        value = (value << (5 * chunk.len())) | u128::from(piece);
    }
    Ok(value)
}

/// 36^6, the largest power of 36 below 2^32: the limb of the base36 conversions.
const B36_6: u64 = 36u64.pow(6);

/// Writes `value` as 25 base-36 digits (SCRU128), most significant first: one 128-bit division by
/// 36^12 (a constant), a 64-bit one for the top digit (36^12 = 2^24 · 3^24), then two 12-digit
/// halves written two digits at a time from a 1 296-entry table; the four 6-digit pieces are
/// independent, so the CPU works on them in parallel.
/// Lower case ([`BASE36`]), as SCRU128 writes it.
#[cfg(not(all(feature = "web", target_family = "wasm", target_os = "unknown")))]
#[inline]
pub(crate) fn encode_base36(value: u128, out: &mut [u8; 25]) {
    const D: u128 = B36_12 as u128;
    let high = value / D;
    let low = (value - high * D) as u64;
    // high < 2^128 / 36^12 < 2^67: its quotient by 36^12 is the first digit (< 16).
    let first = ((high >> 24) as u64) / 3u64.pow(24);
    let middle = (high - u128::from(first) * D) as u64;
    out[0] = BASE36.symbols[first as usize];
    for (piece, at) in [
        (middle / B36_6, 1),
        (middle % B36_6, 7),
        (low / B36_6, 13),
        (low % B36_6, 19),
    ] {
        // piece < 36^6 = 1296^3: three digit pairs.
        let piece = piece as u32;
        let (a, rest) = (piece / (1296 * 1296), piece % (1296 * 1296));
        for (k, pair) in [a, rest / 1296, rest % 1296].into_iter().enumerate() {
            out[at + 2 * k..at + 2 * k + 2].copy_from_slice(&base36_pair(pair));
        }
    }
}

/// The web build's [`encode_base36`] (bindings/web): the same digits, from the four 6-digit
/// pieces divided off a 32-bit limb at a time in 64-bit arithmetic, so that its module holds no
/// 128-bit division routine (with `GeneratorBuilder`'s units, 0.3 kB of `formats.wasm`
/// gzipped: docs/wasm.md, "Sizes"), and written without indexing that could panic.
#[cfg(any(
    test,
    all(feature = "web", target_family = "wasm", target_os = "unknown")
))]
pub(crate) fn encode_base36_by_limbs(value: u128, out: &mut [u8; 25]) {
    let mut rest = value;
    let mut pieces = [0u32; 4];
    for piece in pieces.iter_mut().rev() {
        // `rest` divided by 36^6, most significant limb first: each remainder is below 36^6 <
        // 2^32, so a step's dividend fits in 64 bits and its quotient in a limb.
        let (mut quotient, mut remainder) = (0u128, 0u64);
        for shift in [96, 64, 32, 0] {
            let step = (remainder << 32) | u64::from((rest >> shift) as u32);
            quotient |= u128::from(step / B36_6) << shift;
            remainder = step % B36_6;
        }
        *piece = remainder as u32;
        rest = quotient;
    }
    let mut digits = out.iter_mut();
    // What is left is the top digit: 2^128 < 16 · 36^24.
    if let (Some(digit), Some(&symbol)) = (digits.next(), BASE36.symbols.get(rest as usize)) {
        *digit = symbol;
    }
    for piece in pieces {
        // piece < 36^6 = 1296^3: three digit pairs.
        let (a, rest) = (piece / (1296 * 1296), piece % (1296 * 1296));
        for pair in [a, rest / 1296, rest % 1296] {
            // The pair first: zip stops on it without taking a third digit.
            for (symbol, digit) in base36_pair(pair).into_iter().zip(&mut digits) {
                *digit = symbol;
            }
        }
    }
}

#[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
pub(crate) use encode_base36_by_limbs as encode_base36;

/// The two base-36 digits of `pair` (0 ..= 1295): from [`BASE36_PAIRS`], or computed in the
/// web build (bindings/web), whose module the table would grow by 2.6 kB (docs/wasm.md, "Sizes").
#[inline]
fn base36_pair(pair: u32) -> [u8; 2] {
    #[cfg(not(all(feature = "web", target_family = "wasm", target_os = "unknown")))]
    return BASE36_PAIRS[pair as usize];
    #[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
    [
        *at(&BASE36.symbols, (pair / 36) as usize),
        *at(&BASE36.symbols, (pair % 36) as usize),
    ]
}

/// Every two-digit lower-case base-36 string, by value (0 ..= 1295).
#[cfg(not(all(feature = "web", target_family = "wasm", target_os = "unknown")))]
static BASE36_PAIRS: [[u8; 2]; 1296] = {
    let mut t = [[0u8; 2]; 1296];
    let mut i = 0;
    while i < 1296 {
        t[i] = [BASE36.symbols[i / 36], BASE36.symbols[i % 36]];
        i += 1;
    }
    t
};

/// Reads 25 base-36 digits; values above 2^128 − 1 are [`Error::ValueOverflow`].
pub(crate) fn decode_base36(input: &[u8], alphabet: &Alphabet<36>) -> Result<u128, Error> {
    let digits = digits::<25, 36>(input, alphabet)?;
    // The first digit alone, then four chunks of six (each < 36^6, so u64 arithmetic).
    let mut value = u128::from(digits[0]);
    for chunk in digits[1..].chunks_exact(6) {
        let part = chunk.iter().fold(0u64, |v, &d| v * 36 + u64::from(d));
        value = value
            .checked_mul(u128::from(B36_6))
            .and_then(|v| v.checked_add(u128::from(part)))
            .ok_or(Error::ValueOverflow)?;
    }
    Ok(value)
}

/// 36^12, the largest power of 36 below 2^63: where a 13-digit base36 number needs a check.
const B36_12: u64 = 36u64.pow(12);

/// `value` as base-36 digits without leading zeros (`"0"` for zero), right-aligned in a 13-byte
/// buffer left-padded with the zero symbol; returns the buffer and where the digits start.
pub(crate) fn encode_base36_u64(value: u64, alphabet: &Alphabet<36>) -> ([u8; 13], usize) {
    let mut out = [alphabet.symbols[0]; 13];
    let mut rest = value;
    let mut start = 13;
    loop {
        start -= 1;
        out[start] = alphabet.symbols[(rest % 36) as usize];
        rest /= 36;
        if rest == 0 || start == 0 {
            return (out, start);
        }
    }
}

/// Reads 1 ..= 13 base-36 digits (leading zeros allowed); values above `max` are
/// [`Error::ValueOverflow`].
pub(crate) fn decode_base36_u64(
    input: &[u8],
    max: u64,
    alphabet: &Alphabet<36>,
) -> Result<u64, Error> {
    if input.is_empty() || input.len() > 13 {
        return Err(Error::InvalidLength {
            expected: if input.is_empty() { 1 } else { 13 },
            actual: input.len(),
        });
    }
    let mut digits = [0u8; 13];
    let digits = &mut digits[..input.len()];
    digit_values(input, digits, alphabet)?;
    // The last 12 digits fit a u64 (36^12 < 2^63); a 13th is joined with a checked step.
    let split = digits.len().saturating_sub(12);
    let low = digits[split..]
        .iter()
        .fold(0u64, |v, &d| v * 36 + u64::from(d));
    digits[..split]
        .iter()
        .try_fold(low, |v, &d| {
            u64::from(d)
                .checked_mul(B36_12)
                .and_then(|h| h.checked_add(v))
        })
        .filter(|&v| v <= max)
        .ok_or(Error::ValueOverflow)
}

/// The most 32-bit limbs [`encode_base_n`] and [`decode_base_n`] work on (160 bits, the widest binary form).
const MAX_LIMBS: usize = 5;

/// The largest power of `base` that is at most 2^32, and its exponent: the limb of the base-N
/// conversions (62^5 for base62, 36^6 for base36).
const fn limb_power(base: u64) -> (u64, usize) {
    let (mut power, mut digits) = (1u64, 0usize);
    while power * base <= 1 << 32 {
        power *= base;
        digits += 1;
    }
    (power, digits)
}

/// Writes the big-endian number `bytes` as `LEN` base-`N` digits, most significant first,
/// left-padded with the zero symbol (20 bytes: 27 base62 digits). `LEN` must be long
/// enough for every value (`N^LEN ≥ 2^(8 · BYTES)`); `BYTES` a multiple of 4, at most 20.
///
/// Schoolbook division on 32-bit limbs: each pass divides the number by the largest power of
/// `N` at most 2^32 (a compile-time constant) and writes the remainder's digits.
pub(crate) fn encode_base_n<const BYTES: usize, const LEN: usize, const N: usize>(
    bytes: &[u8; BYTES],
    alphabet: &Alphabet<N>,
) -> [u8; LEN] {
    const { assert!(BYTES.is_multiple_of(4) && BYTES / 4 <= MAX_LIMBS) };
    let (power, width) = const { limb_power(N as u64) };
    let mut limbs = [0u32; MAX_LIMBS];
    let limbs = &mut limbs[..BYTES / 4];
    for (limb, b) in limbs.iter_mut().zip(bytes.chunks_exact(4)) {
        *limb = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    }
    let mut out = [alphabet.symbols[0]; LEN];
    let mut end = LEN;
    while end > 0 {
        // limbs, rem = limbs / power, limbs % power; (rem << 32 | limb) < power · 2^32 ≤ 2^64.
        let mut rem = 0u64;
        for limb in limbs.iter_mut() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / power) as u32;
            rem = cur % power;
        }
        let start = end.saturating_sub(width);
        for o in at_mut(&mut out, start..end).iter_mut().rev() {
            *o = alphabet.symbols[(rem % N as u64) as usize];
            rem /= N as u64;
        }
        end = start;
    }
    debug_assert!(limbs.iter().all(|&l| l == 0), "LEN too short for the value");
    out
}

/// Strictly reads exactly `LEN` base-`N` digits as a `BYTES`-byte big-endian number: the
/// length, every byte in the alphabet (the first bad one by position), and values at or above
/// 2^(8 · BYTES) are [`Error::ValueOverflow`] (never a wrap). `BYTES` as in [`encode_base_n`].
pub(crate) fn decode_base_n<const BYTES: usize, const LEN: usize, const N: usize>(
    input: &[u8],
    alphabet: &Alphabet<N>,
) -> Result<[u8; BYTES], Error> {
    const { assert!(BYTES.is_multiple_of(4) && BYTES / 4 <= MAX_LIMBS) };
    let (power, width) = const { limb_power(N as u64) };
    let digits = digits::<LEN, N>(input, alphabet)?;
    let mut limbs = [0u32; MAX_LIMBS];
    let limbs = &mut limbs[..BYTES / 4];
    // A short first chunk, so that the others are `width` digits; each step is
    // limbs = limbs · power + chunk (the first: 0 · power + chunk).
    let mut at = 0;
    let mut take = match LEN % width {
        0 => width,
        short => short,
    };
    while at < LEN {
        let chunk = self::at(&digits, at..at + take)
            .iter()
            .fold(0u64, |v, &d| v * N as u64 + u64::from(d));
        // limb · power + carry < 2^64 (limb < 2^32, power ≤ 2^32, carry < 2^32).
        let mut carry = chunk;
        for limb in limbs.iter_mut().rev() {
            let t = u64::from(*limb) * power + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        // A carry out of the top limb: the number has more than 8 · BYTES bits (and only grows).
        if carry != 0 {
            return Err(Error::ValueOverflow);
        }
        at += take;
        take = width;
    }
    let mut out = [0u8; BYTES];
    for (b, limb) in out.chunks_exact_mut(4).zip(limbs.iter()) {
        copy(b, &limb.to_be_bytes());
    }
    Ok(out)
}

/// The `LEN` digit values of `input`, or the length or first-bad-byte error.
fn digits<const LEN: usize, const N: usize>(
    input: &[u8],
    alphabet: &Alphabet<N>,
) -> Result<[u8; LEN], Error> {
    let Ok(input) = <&[u8; LEN]>::try_from(input) else {
        return Err(Error::InvalidLength {
            expected: LEN,
            actual: input.len(),
        });
    };
    let mut out = [0u8; LEN];
    digit_values(input, &mut out, alphabet)?;
    Ok(out)
}

/// Writes the value of every byte of `input` to `out` (as long), or reports the first byte
/// outside the alphabet.
fn digit_values<const N: usize>(
    input: &[u8],
    out: &mut [u8],
    alphabet: &Alphabet<N>,
) -> Result<(), Error> {
    let mut bad = 0u8;
    for (o, &c) in out.iter_mut().zip(input) {
        *o = alphabet.decode[c as usize];
        bad |= *o;
    }
    // Values are below 128; only INVALID has the top bit set.
    if bad & 0x80 != 0 {
        let (position, byte) = alphabet.first_invalid(input).unwrap_or((0, *at(input, 0)));
        return Err(Error::InvalidByte { position, byte });
    }
    Ok(())
}

/// Writes `bytes` (a multiple of 5 long) as RFC 4648 base32 without padding into `out` (8 symbols
/// per 5 bytes).
pub(crate) fn encode_base32_groups(bytes: &[u8], out: &mut [u8], alphabet: &Alphabet<32>) {
    // Whole groups (`as_chunks`: no division by a chunk size in the zip, whose panic's message
    // would be in the web build's modules).
    for (group, text) in bytes
        .as_chunks::<5>()
        .0
        .iter()
        .zip(out.as_chunks_mut::<8>().0)
    {
        let v = group.iter().fold(0u64, |v, &b| (v << 8) | u64::from(b));
        for (k, o) in text.iter_mut().rev().enumerate() {
            *o = alphabet.symbols[((v >> (5 * k)) & 31) as usize];
        }
    }
}

/// Reads RFC 4648 base32 without padding (`input` exactly 8/5 as long as `out`) into `out`.
pub(crate) fn decode_base32_groups<const LEN: usize>(
    input: &[u8],
    out: &mut [u8],
    alphabet: &Alphabet<32>,
) -> Result<(), Error> {
    let digits = digits::<LEN, 32>(input, alphabet)?;
    for (text, group) in digits
        .as_chunks::<8>()
        .0
        .iter()
        .zip(out.as_chunks_mut::<5>().0)
    {
        let v = text.iter().fold(0u64, |v, &d| (v << 5) | u64::from(d));
        copy(group, &v.to_be_bytes()[3..]);
    }
    Ok(())
}

/// Writes `bytes` as lower-case hex into `out` (twice as long).
pub(crate) fn encode_hex(bytes: &[u8], out: &mut [u8], alphabet: &Alphabet<16>) {
    for (b, pair) in bytes.iter().zip(out.chunks_exact_mut(2)) {
        pair[0] = alphabet.symbols[usize::from(b >> 4)];
        pair[1] = alphabet.symbols[usize::from(b & 15)];
    }
}

/// Reads hex digit pairs from `input` into `out` (half as long); a bad byte is reported at
/// `offset` plus its index in `input`.
pub(crate) fn decode_hex(
    input: &[u8],
    out: &mut [u8],
    offset: usize,
    alphabet: &Alphabet<16>,
) -> Result<(), Error> {
    let mut bad = 0u8;
    for (pair, o) in input.chunks_exact(2).zip(out.iter_mut()) {
        let (h, l) = (
            alphabet.decode[pair[0] as usize],
            alphabet.decode[pair[1] as usize],
        );
        bad |= h | l;
        *o = (h << 4) | (l & 15);
    }
    if bad & 0x80 != 0 {
        let (position, byte) = alphabet.first_invalid(input).unwrap_or((0, *at(input, 0)));
        return Err(Error::InvalidByte {
            position: offset + position,
            byte,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabet::{BASE36, BASE62, CROCKFORD};

    #[test]
    fn base36_edges() {
        assert_eq!(&base36(0), b"0000000000000000000000000");
        assert_eq!(&base36(u128::MAX), b"f5lxx1zz5pnorynqglhzmsp33");
        assert_eq!(
            decode_base36(b"f5lxx1zz5pnorynqglhzmsp33", &BASE36),
            Ok(u128::MAX)
        );
        assert_eq!(
            decode_base36(b"f5lxx1zz5pnorynqglhzmsp34", &BASE36),
            Err(Error::ValueOverflow)
        );
        for v in [1u128, 35, 36, 36u128.pow(24), u128::MAX / 3] {
            assert_eq!(decode_base36(&base36(v), &BASE36), Ok(v));
        }
    }

    fn base36(v: u128) -> [u8; 25] {
        let mut out = [0u8; 25];
        encode_base36(v, &mut out);
        out
    }

    /// The textbook encoder: repeated division of `v` by the base.
    fn textbook<const LEN: usize, const N: usize>(v: u128, a: &Alphabet<N>) -> [u8; LEN] {
        let mut out = [0u8; LEN];
        let mut rest = v;
        for o in out.iter_mut().rev() {
            *o = a.symbols[(rest % N as u128) as usize];
            rest /= N as u128;
        }
        out
    }

    /// Pseudo-random values, their shifts, and `base^k - 1` for `k` below `digits` (the
    /// largest of each length), three per step.
    fn samples(base: u128, digits: u128) -> impl Iterator<Item = u128> {
        let mut x = 0x0123_4567_89AB_CDEF_u128;
        (0..if cfg!(miri) { 100 } else { 20_000u128 }).flat_map(move |i| {
            x = x
                .wrapping_mul(0x2545_F491_4F6C_DD1D_9E37_79B9_7F4A_7C15)
                .wrapping_add(i);
            [x, x >> (i % 128), base.pow((i % digits) as u32) - 1]
        })
    }

    /// The table-driven encoder against the textbook one (repeated division by 36).
    #[test]
    fn base36_matches_repeated_division() {
        for v in samples(36, 25) {
            let want = textbook::<25, 36>(v, &BASE36);
            assert_eq!(base36(v), want, "{v}");
            let mut by_limbs = [0u8; 25];
            encode_base36_by_limbs(v, &mut by_limbs);
            assert_eq!(by_limbs, want, "{v}, by limbs");
        }
    }

    #[test]
    fn base32_edges() {
        let max = encode_base32::<26>(u128::MAX, &CROCKFORD);
        assert_eq!(&max, b"7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
        assert_eq!(decode_base32::<26, 128>(&max, &CROCKFORD), Ok(u128::MAX));
        assert_eq!(
            decode_base32::<26, 128>(b"80000000000000000000000000", &CROCKFORD),
            Err(Error::ValueOverflow)
        );
        assert_eq!(
            decode_base32::<13, 63>(b"7ZZZZZZZZZZZZ", &CROCKFORD),
            Ok(u128::from(i64::MAX as u64))
        );
        assert_eq!(
            decode_base32::<13, 63>(b"8000000000000", &CROCKFORD),
            Err(Error::ValueOverflow)
        );
    }

    #[test]
    fn base36_u64_edges() {
        for (v, text) in [
            (0u64, "0"),
            (35, "z"),
            (36, "10"),
            (i64::MAX as u64, "1y2p0ij32e8e7"),
        ] {
            let (buf, start) = encode_base36_u64(v, &BASE36);
            assert_eq!(&buf[start..], text.as_bytes());
            assert_eq!(decode_base36_u64(&buf, i64::MAX as u64, &BASE36), Ok(v));
        }
        assert_eq!(encode_base36_u64(u64::MAX, &BASE36), (*b"3w5e11264sgsf", 0));
        assert_eq!(
            decode_base36_u64(b"3w5e11264sgsf", u64::MAX, &BASE36),
            Ok(u64::MAX)
        );
        for over in [&b"3w5e11264sgsg"[..], b"zzzzzzzzzzzzz", b"1y2p0ij32e8e8"] {
            assert_eq!(
                decode_base36_u64(over, i64::MAX as u64, &BASE36),
                Err(Error::ValueOverflow)
            );
        }
        assert_eq!(
            decode_base36_u64(b"", 9, &BASE36),
            Err(Error::InvalidLength {
                expected: 1,
                actual: 0
            })
        );
        assert_eq!(
            decode_base36_u64(b"1_0", 99, &BASE36),
            Err(Error::InvalidByte {
                position: 1,
                byte: b'_'
            })
        );
    }

    /// The 20-byte base62 edges: nil, the maximum 2^160 − 1, and one above it.
    #[test]
    fn base62_edges() {
        let max = [0xFF; 20];
        let text = encode_base_n::<20, 27, 62>(&max, &BASE62);
        assert_eq!(&text, b"aWgEPTl1tmebfsQzFP4bxwgy80V");
        assert_eq!(decode_base_n::<20, 27, 62>(&text, &BASE62), Ok(max));
        let zero = encode_base_n::<20, 27, 62>(&[0; 20], &BASE62);
        assert_eq!(&zero, b"000000000000000000000000000");
        assert_eq!(decode_base_n::<20, 27, 62>(&zero, &BASE62), Ok([0; 20]));
        for over in [
            &b"aWgEPTl1tmebfsQzFP4bxwgy80W"[..],
            b"aWgEPTl1tmebfsQzFP4bxwgy810",
            b"b00000000000000000000000000",
            b"zzzzzzzzzzzzzzzzzzzzzzzzzzz",
        ] {
            assert_eq!(
                decode_base_n::<20, 27, 62>(over, &BASE62),
                Err(Error::ValueOverflow)
            );
        }
        assert_eq!(
            decode_base_n::<20, 27, 62>(b"aWgEPTl1tmebfsQzFP4bxwgy80", &BASE62),
            Err(Error::InvalidLength {
                expected: 27,
                actual: 26
            })
        );
        assert_eq!(
            decode_base_n::<20, 27, 62>(b"0ujtsYcgvSTl8PAuAdqWYSMnL-v", &BASE62),
            Err(Error::InvalidByte {
                position: 25,
                byte: b'-'
            })
        );
    }

    /// The limb codec against the textbook one (repeated division of a u128 by the base), as
    /// base62 and base36 of 16 bytes; and against SCRU128's tuned base36 encoder.
    #[test]
    fn base_n_matches_repeated_division() {
        for v in samples(62, 22) {
            let bytes = v.to_be_bytes();
            let b62 = encode_base_n::<16, 22, 62>(&bytes, &BASE62);
            assert_eq!(b62, textbook::<22, 62>(v, &BASE62), "{v}");
            assert_eq!(decode_base_n::<16, 22, 62>(&b62, &BASE62), Ok(bytes));
            let b36 = encode_base_n::<16, 25, 36>(&bytes, &BASE36);
            assert_eq!(b36, base36(v), "{v}");
            assert_eq!(decode_base_n::<16, 25, 36>(&b36, &BASE36), Ok(bytes));
        }
        // 16 bytes: above 2^128 − 1 overflows, as SCRU128's decoder says.
        assert_eq!(
            decode_base_n::<16, 25, 36>(b"f5lxx1zz5pnorynqglhzmsp34", &BASE36),
            Err(Error::ValueOverflow)
        );
    }

    #[test]
    fn base32_groups_are_rfc4648() {
        let mut text = [0u8; 16];
        encode_base32_groups(b"0123456789", &mut text, &crate::alphabet::BASE32HEX);
        // RFC 4648 base32hex of "0123456789" (checked with Python's base64.b32hexencode).
        assert_eq!(&text, b"60OJ4CPK6KR3EE1P");
        let mut back = [0u8; 10];
        decode_base32_groups::<16>(&text, &mut back, &crate::alphabet::BASE32HEX).unwrap();
        assert_eq!(&back, b"0123456789");
    }
}
