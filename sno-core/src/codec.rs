//! Scalar sno codec: 10 bytes ⇄ 16 characters, RFC 4648 base32 bit grouping over the sno alphabet.
//!
//! The 80 bits are handled as two independent 40-bit halves (bytes 0..5 → chars 0..8,
//! bytes 5..10 → chars 8..16), which is exact because 40 is a multiple of 5.

use crate::alphabet::{INVALID, SNO};
use crate::error::Error;

/// Encodes 10 bytes into 16 alphabet bytes.
#[inline]
pub(crate) const fn encode(bytes: &[u8; 10]) -> [u8; 16] {
    let hi = load40(bytes, 0);
    let lo = load40(bytes, 5);
    let mut out = [0u8; 16];
    let mut i = 0;
    while i < 8 {
        let shift = 35 - 5 * i as u32;
        out[i] = SNO.symbols[((hi >> shift) & 31) as usize];
        out[8 + i] = SNO.symbols[((lo >> shift) & 31) as usize];
        i += 1;
    }
    out
}

/// Strictly decodes exactly 16 alphabet bytes.
#[inline]
pub(crate) fn decode(input: &[u8]) -> Result<[u8; 10], Error> {
    let Ok(input) = <&[u8; 16]>::try_from(input) else {
        return Err(Error::InvalidLength {
            expected: 16,
            actual: input.len(),
        });
    };
    let mut hi = 0u64;
    let mut lo = 0u64;
    let mut bad = 0u8;
    for i in 0..8 {
        let a = SNO.decode[input[i] as usize];
        let b = SNO.decode[input[8 + i] as usize];
        bad |= a | b;
        hi = (hi << 5) | u64::from(a & 31);
        lo = (lo << 5) | u64::from(b & 31);
    }
    // Values are < 32; only INVALID has the top bit set.
    if bad & 0x80 != 0 {
        return Err(first_invalid(input));
    }
    let mut out = [0u8; 10];
    out[..5].copy_from_slice(&hi.to_be_bytes()[3..]);
    out[5..].copy_from_slice(&lo.to_be_bytes()[3..]);
    Ok(out)
}

#[cold]
fn first_invalid(input: &[u8; 16]) -> Error {
    match SNO.first_invalid(input) {
        Some((position, byte)) => Error::InvalidByte { position, byte },
        // decode() only calls this after seeing an INVALID entry.
        None => unreachable!("first_invalid called on a valid input"),
    }
}

#[inline]
const fn load40(b: &[u8; 10], at: usize) -> u64 {
    (b[at] as u64) << 32
        | (b[at + 1] as u64) << 24
        | (b[at + 2] as u64) << 16
        | (b[at + 3] as u64) << 8
        | b[at + 4] as u64
}

const _: () = assert!(
    INVALID & 0x80 != 0,
    "the decode loop detects INVALID by its top bit"
);
