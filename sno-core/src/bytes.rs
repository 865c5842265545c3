//! Byte and time helpers of the formats' codecs: exact-length binary parsing, a 16-byte
//! big-endian store, a big-endian field read, and millisecond fields checked against their
//! width.

use crate::error::Error;

/// The exact-length binary parser every ID type offers as `from_slice`.
pub(crate) fn array_from_slice<const N: usize>(bytes: &[u8]) -> Result<[u8; N], Error> {
    <[u8; N]>::try_from(bytes).map_err(|_| Error::InvalidLength {
        expected: N,
        actual: bytes.len(),
    })
}

/// `value` as 16 big-endian bytes, written by one 16-byte store on x86_64: a caller that copies a
/// freshly generated ID with one 16-byte load (the usual move of a 16-byte array) is then served
/// from the store buffer, while `u128::to_be_bytes` compiles to two 8-byte stores, from which
/// such a load cannot be forwarded and waits for them to reach the cache.
#[inline]
pub(crate) fn be_bytes(value: u128) -> [u8; 16] {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    {
        use core::arch::x86_64::{_mm_set_epi64x, _mm_storeu_si128};
        let high = ((value >> 64) as u64).swap_bytes() as i64;
        let low = (value as u64).swap_bytes() as i64;
        let mut out = [0u8; 16];
        // SAFETY: SSE2 is part of the x86_64 baseline; `out` is 16 writable bytes and the store
        // is unaligned.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_set_epi64x(low, high)) };
        out
    }
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    value.to_be_bytes()
}

/// `bytes[from..]` (at most 16 bytes) as a big-endian number: a field at the end of an ID's
/// bytes.
#[inline]
pub(crate) const fn be_u128_from(bytes: &[u8], from: usize) -> u128 {
    let mut v = 0u128;
    let mut i = from;
    while i < bytes.len() {
        v = (v << 8) | bytes[i] as u128;
        i += 1;
    }
    v
}

/// A 48-bit millisecond timestamp, or [`Error::MillisOutOfRange`].
#[inline]
pub(crate) fn millis48(unix_millis: i64) -> Result<u64, Error> {
    millis_since(unix_millis, 0, (1 << 48) - 1)
}

/// A 48-bit millisecond timestamp other than the two that SCRU128 and SCRU160 reserve (0 and
/// 2^48 − 1, never generated), or [`Error::MillisOutOfRange`].
#[inline]
pub(crate) fn unreserved_millis48(unix_millis: i64) -> Result<u64, Error> {
    u64::try_from(unix_millis)
        .ok()
        .filter(|&t| t > 0 && t < (1 << 48) - 1)
        .ok_or(Error::MillisOutOfRange { unix_millis })
}

/// Milliseconds from `epoch_ms` to `unix_millis`, if within `0 ..= max`, else
/// [`Error::MillisOutOfRange`].
#[inline]
pub(crate) fn millis_since(unix_millis: i64, epoch_ms: i64, max: u64) -> Result<u64, Error> {
    unix_millis
        .checked_sub(epoch_ms)
        .and_then(|ms| u64::try_from(ms).ok())
        .filter(|&ms| ms <= max)
        .ok_or(Error::MillisOutOfRange { unix_millis })
}

// ---- Indexing that traps in the web build ---------------------------------------------------
//
// The web build's modules (bindings/web) trap on a panic; a failed bounds, range or length check
// would first format its message with `core::fmt` (the index and the length), which is then in
// the module for those checks alone (docs/wasm.md, "Sizes"). These helpers are the indexing of
// the paths that build reaches: there a failed check traps at once (the same outcome, without the
// message); in every other build they are the same expression as before, inlined (and a panic
// names the caller's line, as before: `track_caller`, left out of the web build, where it would
// put each caller's file name into the module for the length check's message).

/// `&s[i]`: an index or a range of `s` (the web build traps where it is out of bounds).
#[inline(always)]
#[cfg_attr(
    not(all(feature = "web", target_family = "wasm", target_os = "unknown")),
    track_caller
)]
pub(crate) fn at<T, I: core::slice::SliceIndex<[T]>>(s: &[T], i: I) -> &I::Output {
    #[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
    match s.get(i) {
        Some(x) => x,
        None => core::arch::wasm32::unreachable(),
    }
    #[cfg(not(all(feature = "web", target_family = "wasm", target_os = "unknown")))]
    &s[i]
}

/// `&mut s[i]` (the web build traps where it is out of bounds).
#[inline(always)]
#[cfg_attr(
    not(all(feature = "web", target_family = "wasm", target_os = "unknown")),
    track_caller
)]
pub(crate) fn at_mut<T, I: core::slice::SliceIndex<[T]>>(s: &mut [T], i: I) -> &mut I::Output {
    #[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
    match s.get_mut(i) {
        Some(x) => x,
        None => core::arch::wasm32::unreachable(),
    }
    #[cfg(not(all(feature = "web", target_family = "wasm", target_os = "unknown")))]
    &mut s[i]
}

/// `to.copy_from_slice(from)` (the web build traps where the lengths differ).
#[inline(always)]
#[cfg_attr(
    not(all(feature = "web", target_family = "wasm", target_os = "unknown")),
    track_caller
)]
pub(crate) fn copy<T: Copy>(to: &mut [T], from: &[T]) {
    #[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
    {
        if to.len() != from.len() {
            core::arch::wasm32::unreachable()
        }
        // SAFETY: as `copy_from_slice`, whose outlined length check would stay in the module:
        // the lengths are equal (checked above), and a shared and a unique borrow cannot
        // overlap.
        unsafe { core::ptr::copy_nonoverlapping(from.as_ptr(), to.as_mut_ptr(), to.len()) }
    }
    #[cfg(not(all(feature = "web", target_family = "wasm", target_os = "unknown")))]
    to.copy_from_slice(from)
}

/// `n % d` (the web build traps where `d` is zero). For sno's generator, which needs 64-bit
/// atomics.
#[cfg(target_has_atomic = "64")]
#[inline(always)]
#[cfg_attr(
    not(all(feature = "web", target_family = "wasm", target_os = "unknown")),
    track_caller
)]
pub(crate) fn rem(n: u64, d: u64) -> u64 {
    #[cfg(all(feature = "web", target_family = "wasm", target_os = "unknown"))]
    match n.checked_rem(d) {
        Some(r) => r,
        None => core::arch::wasm32::unreachable(),
    }
    #[cfg(not(all(feature = "web", target_family = "wasm", target_os = "unknown")))]
    {
        n % d
    }
}
