//! Scalar sno codec: 10 bytes ⇄ 16 characters, RFC 4648 base32 bit grouping over the sno alphabet.
//! The reference every SIMD kernel is tested against, and the path on every other target.
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

/// Strictly decodes 16 alphabet bytes.
#[inline]
pub(crate) fn decode(input: &[u8; 16]) -> Decoded {
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
    Decoded::from_halves(hi, lo, u32::from(bad >> 7))
}

/// One ID as a single-ID decode kernel hands it back: in two integer registers (a 16-byte
/// struct of two `u64` is returned in RAX:RDX), so that an out-of-line kernel stores nothing
/// its caller then has to load back, and the caller writes the ID once, where it is wanted.
#[derive(Clone, Copy)]
pub(crate) struct Decoded {
    /// ID bytes 0..8 in memory order (`u64::from_le_bytes`).
    head: u64,
    /// ID bytes 8..10 in memory order in the low 16 bits; above them the mask of characters
    /// outside the alphabet (zero exactly when the text is valid).
    tail: u64,
}

impl Decoded {
    /// From ID bytes 0..8 and 8..10 (each as its little-endian number, i.e. in memory order)
    /// and a mask with a bit set for each character outside the alphabet.
    #[inline(always)]
    pub(crate) fn new(head: u64, tail: u16, invalid: u32) -> Self {
        Decoded {
            head,
            tail: u64::from(tail) | u64::from(invalid) << 16,
        }
    }

    /// From the two 40-bit big-endian halves of the ID (bytes 0..5 and 5..10) as numbers
    /// below 2^40.
    #[inline(always)]
    pub(crate) fn from_halves(hi: u64, lo: u64, invalid: u32) -> Self {
        Decoded::new(
            ((hi << 24) | (lo >> 16)).swap_bytes(),
            (lo as u16).swap_bytes(),
            invalid,
        )
    }

    /// The ID's bytes, or `None` if a character was outside the alphabet.
    #[inline(always)]
    pub(crate) fn bytes(self) -> Option<[u8; 10]> {
        if self.tail >> 16 != 0 {
            return None;
        }
        let mut id = [0u8; 10];
        crate::bytes::copy(&mut id[..8], &self.head.to_le_bytes());
        crate::bytes::copy(&mut id[8..], &(self.tail as u16).to_le_bytes());
        Some(id)
    }

    /// The ID's bytes, or the scalar decoder's error for `text` (the batch loops' form).
    #[inline(always)]
    pub(crate) fn finish(self, text: &[u8; 16]) -> Result<[u8; 10], Error> {
        self.bytes().ok_or_else(|| first_invalid(text))
    }
}

/// Encodes `src.len() / 10` IDs into `dst` (16 bytes each); the lengths are already checked.
pub(crate) fn encode_many(src: &[u8], dst: &mut [u8]) {
    encode_each(src, dst, encode);
}

/// Decodes `src.len() / 16` IDs into `dst` in order, stopping at the first bad one. The IDs
/// before it are written, the rest of `dst` is untouched; the error position counts from the
/// start of `src` plus `base` IDs, so kernels can hand over a block in the middle of a batch.
pub(crate) fn decode_many(src: &[u8], dst: &mut [u8], base: usize) -> Result<(), Error> {
    decode_each(src, dst, base, |text| decode(text).finish(text))
}

/// The batch loop of the one-ID-per-step kernels: `encode` on each 10-byte ID. Inlined into the
/// caller, so a `#[target_feature]` caller's closure gets its instruction set.
#[inline(always)]
pub(crate) fn encode_each(src: &[u8], dst: &mut [u8], encode: impl Fn(&[u8; 10]) -> [u8; 16]) {
    for (id, text) in src
        .as_chunks::<10>()
        .0
        .iter()
        .zip(dst.as_chunks_mut::<16>().0)
    {
        *text = encode(id);
    }
}

/// The batch loop of the one-ID-per-step kernels: `decode` on each 16-byte text, with the
/// semantics of [`decode_many`].
#[inline(always)]
pub(crate) fn decode_each(
    src: &[u8],
    dst: &mut [u8],
    base: usize,
    decode: impl Fn(&[u8; 16]) -> Result<[u8; 10], Error>,
) -> Result<(), Error> {
    let ids = dst.as_chunks_mut::<10>().0;
    for (i, (text, id)) in src.as_chunks::<16>().0.iter().zip(ids).enumerate() {
        match decode(text) {
            Ok(bytes) => *id = bytes,
            Err(Error::InvalidByte { position, byte }) => {
                return Err(Error::InvalidByte {
                    position: (base + i) * 16 + position,
                    byte,
                });
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The error for 16 bytes known to hold at least one byte outside the alphabet: the first such
/// byte and its position. Every kernel's rejection ends here, so errors equal the scalar ones.
#[cold]
pub(crate) fn first_invalid(input: &[u8; 16]) -> Error {
    match SNO.first_invalid(input) {
        Some((position, byte)) => Error::InvalidByte { position, byte },
        // decode() only calls this after seeing an INVALID entry. The web build traps without
        // the message, which with its file name would be in its modules (docs/wasm.md, "Sizes").
        #[cfg(not(all(feature = "web", target_family = "wasm", target_os = "unknown")))]
        None => unreachable!("first_invalid called on a valid input"),
        #[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
        None => core::arch::wasm32::unreachable(),
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
