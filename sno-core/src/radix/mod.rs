//! The text codecs every format shares: base32 of a number (ULID, 26 digits; Ulid-Flake, 13) or of
//! 5-byte groups (SCRU160, RFC 4648 base32hex), base36 of a 128-bit number (SCRU128, 25 digits) or
//! of a 64-bit one without padding (Nanoflakes), base-N of a big-endian number of up to 20 bytes on
//! 32-bit limbs (base62, 27 digits for 20 bytes), and hexadecimal (UUID, SCRU160). Every decoder is
//! strict: exact length, every byte in the alphabet (reported by position), no value above the
//! format's maximum.
//!
//! The fixed layouts that dominate real traffic, the hyphenated UUID and the 26-digit ULID, have
//! SSE2 fast paths on x86_64 (`sse2.rs`, part of the baseline, so no detection); the ULID also
//! has an SSSE3 one (`ssse3.rs`, PSHUFB lookups), chosen by the cached detection in `platform`.
//! Other targets, builds without the `simd` feature, and every error report take the
//! scalar code (`scalar.rs`), which is also the reference the fast paths are tested against.

mod scalar;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) mod sse2;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) mod ssse3;

pub(crate) use scalar::{
    UUID_HYPHENS, decode_base_n, decode_base32, decode_base32_groups, decode_base36,
    decode_base36_u64, decode_hex, encode_base_n, encode_base32, encode_base32_groups,
    encode_base36, encode_base36_u64, encode_hex,
};

#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
use crate::alphabet::CROCKFORD;
use crate::error::Error;

/// Writes 16 bytes as the hyphenated lower-case UUID text.
#[inline]
pub(crate) fn encode_uuid(bytes: &[u8; 16], out: &mut [u8; 36]) {
    // SAFETY: SSE2 is part of the x86_64 baseline.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    unsafe {
        sse2::encode_uuid(bytes, out)
    };
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    scalar::encode_uuid_scalar(bytes, out);
}

/// The 16 bytes of a hyphenated UUID text (either case), or `None` if a hyphen is missing or a
/// digit is not hex (the caller finds which, for its error).
#[inline]
pub(crate) fn decode_uuid(text: &[u8; 36]) -> Option<[u8; 16]> {
    // SAFETY: SSE2 is part of the x86_64 baseline.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    return unsafe { sse2::decode_uuid(text) };
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    scalar::decode_uuid_scalar(text)
}

/// Writes a 128-bit number (16 big-endian bytes) as 26 Crockford base32 digits (ULID).
#[inline]
pub(crate) fn encode_ulid(bytes: &[u8; 16], out: &mut [u8; 26]) {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    if crate::platform::has_ssse3() {
        // SAFETY: SSSE3 is present (checked, or enabled at compile time).
        unsafe { ssse3::encode_ulid(bytes, out) }
    } else {
        // SAFETY: SSE2 is part of the x86_64 baseline.
        unsafe { sse2::encode_ulid(bytes, out) }
    }
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    {
        *out = encode_base32(u128::from_be_bytes(*bytes), &CROCKFORD);
    }
}

/// Strictly reads 26 Crockford base32 digits (either case) of a 128-bit number (ULID), as 16
/// big-endian bytes.
#[inline]
pub(crate) fn decode_ulid(input: &[u8]) -> Result<[u8; 16], Error> {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    if let Ok(text) = <&[u8; 26]>::try_from(input) {
        let fast = if crate::platform::has_ssse3() {
            // SAFETY: SSSE3 is present (checked, or enabled at compile time).
            unsafe { ssse3::decode_ulid(text) }
        } else {
            // SAFETY: SSE2 is part of the x86_64 baseline.
            unsafe { sse2::decode_ulid(text) }
        };
        if let Some(bytes) = fast {
            return Ok(bytes);
        }
    }
    scalar::decode_ulid_scalar(input)
}
