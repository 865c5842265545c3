//! x86_64 kernels for the sno codec, one file per instruction set; their CPU detection is in
//! `platform`, the base-32 steps they share with the ULID codec in `radix`.
//!
//! The tables below are shared by the kernels: the 16-byte ones drive PSHUFB and PMADDUBSW /
//! PMADDWD (SSSE3, and AVX2 per 128-bit lane), the 64-byte ones drive VPERMB/VPMULTISHIFTQB (AVX-512 VBMI).
//!
//! Bit layout recap: an ID is two 40-bit big-endian halves (bytes 0..5 and 5..10); character `j` of
//! a half holds bits `35 − 5j .. 40 − 5j` of it.

pub(super) mod avx2;
pub(super) mod avx512vbmi;
pub(crate) mod sse2;
pub(crate) mod ssse3;

use crate::platform::repeat;

/// PSHUFB pattern putting each 40-bit big-endian half of an ID (bytes 0..5, 5..10) in its own
/// 64-bit lane as a little-endian number, the top three bytes zero.
pub(super) const ENC_HALVES: [u8; 16] = [
    4, 3, 2, 1, 0, 0x80, 0x80, 0x80, 9, 8, 7, 6, 5, 0x80, 0x80, 0x80,
];

/// PSHUFB pattern writing the two 40-bit halves (low 5 bytes of each 64-bit lane, little-endian)
/// as 10 big-endian bytes; the last 6 bytes are zeroed.
pub(super) const DEC_STORE: [u8; 16] = [
    4, 3, 2, 1, 0, 12, 11, 10, 9, 8, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
];

/// VPERMB pattern for four IDs (40 bytes): 64-bit lane `k` gets half `k` with its five bytes
/// reversed, so the lane reads as the 40-bit big-endian half.
pub(super) const ENC_GATHER4: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let (k, j) = (i / 8, i % 8);
        t[i] = if j < 5 { 5 * k + 4 - j } else { 5 * k } as u8;
        i += 1;
    }
    t
};

/// VPMULTISHIFTQB offsets: byte `j` of each lane takes the 8 bits from bit `35 − 5j` (only the
/// low 5 are kept by the alphabet lookup).
pub(super) const ENC_MULTISHIFT: [u8; 64] = repeat([35, 30, 25, 20, 15, 10, 5, 0]);

/// VPERMB alphabet: the 32 symbols twice, so the lookup may ignore bit 5 of the index.
pub(super) const ENC_SYMBOLS64: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = crate::alphabet::SNO.symbols[i % 32];
        i += 1;
    }
    t
};

/// VPERMI2B decode table for ASCII, as its two 64-byte operands: the value, or `INVALID` (top bit
/// set) for bytes outside the alphabet.
pub(super) const DEC_ASCII: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut i = 0;
    while i < 128 {
        t[i / 64][i % 64] = crate::alphabet::SNO.decode[i];
        i += 1;
    }
    t
};

/// VPERMB pattern writing four IDs (40 bytes) from eight 40-bit little-endian lanes.
pub(super) const DEC_SCATTER4: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut m = 0;
    while m < 40 {
        let (r, within) = (m / 10, m % 10);
        let (half, j) = (within / 5, within % 5);
        t[m] = (8 * (2 * r + half) + 4 - j) as u8;
        m += 1;
    }
    t
};
