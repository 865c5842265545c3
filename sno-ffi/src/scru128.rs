//! `sno_scru128_*`: SCRU128 IDs (25 base36 digits, lower case out, either case in).
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use std::ffi::c_char;

use sno_core::scru128::{self, Scru128Id};

use crate::formats::{self, c_generator, c_id};
use crate::types::sno_status;

/// Characters in the text form of a SCRU128 ID (no terminating NUL).
pub const SNO_SCRU128_ENCODED_LEN: usize = 25;

/// A SCRU128 ID: 48-bit Unix milliseconds, 24-bit counter_hi, 24-bit counter_lo, 32-bit
/// entropy, big-endian. Any 16 bytes are one; byte order (memcmp) is time order.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_scru128 {
    /// The binary form.
    pub bytes: [u8; 16],
}
c_id!(sno_scru128, Scru128Id, SNO_SCRU128_ENCODED_LEN, |b| Ok(
    Scru128Id::from_bytes(b)
));

/// An opaque, thread-safe SCRU128 generator (see sno_scru128_generator_new).
pub struct sno_scru128_generator {
    inner: scru128::Generator,
}
c_generator!(
    sno_scru128_generator,
    scru128::Monotonic<sno_core::rng::ThreadRng>
);

/// A new SCRU128 ID from the process-wide generator (the spec's algorithm with a 10 s rollback
/// allowance; reset after fork()). Never blocks. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru128_new(out: *mut sno_scru128) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::new_global(out, scru128::try_new) }
}

/// Writes the 25-character lower-case text (no NUL). Thread-safe.
///
/// # Safety
/// `id` must be NULL or valid; `out` NULL or valid for 25 byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru128_encode(
    id: *const sno_scru128,
    out: *mut c_char,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::encode(id, out) }
}

/// Writes the text and a NUL; `out_len` must be at least 26, else
/// SNO_STATUS_BUFFER_TOO_SMALL. Thread-safe.
///
/// # Safety
/// `id` must be NULL or valid; `out` NULL or valid for `out_len` byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru128_encode_cstr(
    id: *const sno_scru128,
    out: *mut c_char,
    out_len: usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::encode_cstr(id, out, out_len) }
}

/// Strictly decodes `len` bytes: exactly 25 characters of 0-9 and a-z in either case, at most
/// "f5lxx1zz5pnorynqglhzmsp33" (SNO_STATUS_VALUE_OVERFLOW above). On an invalid byte its
/// position, on a wrong length the length given, goes to `error_position` (may be NULL).
/// Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0); `out` and `error_position` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru128_decode(
    text: *const c_char,
    len: usize,
    out: *mut sno_scru128,
    error_position: *mut usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::decode(text, len, out, error_position, Scru128Id::decode) }
}

/// The timestamp: milliseconds since the Unix epoch (48 bits). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru128_timestamp_ms(id: sno_scru128) -> u64 {
    Scru128Id::from_bytes(id.bytes).unix_ms()
}

/// The 24-bit counter_hi field. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru128_counter_hi(id: sno_scru128) -> u32 {
    Scru128Id::from_bytes(id.bytes).counter_hi()
}

/// The 24-bit counter_lo field. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru128_counter_lo(id: sno_scru128) -> u32 {
    Scru128Id::from_bytes(id.bytes).counter_lo()
}

/// The 32-bit entropy field. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru128_entropy(id: sno_scru128) -> u32 {
    Scru128Id::from_bytes(id.bytes).entropy()
}

/// -1, 0 or 1 as `a` sorts before, equal to, or after `b` (time order, as memcmp). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru128_compare(a: sno_scru128, b: sno_scru128) -> i32 {
    a.bytes.cmp(&b.bytes) as i32
}

/// Creates a SCRU128 generator (10 s rollback allowance) on the system clock and a per-thread
/// CSPRNG. Free it with sno_scru128_generator_free. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru128_generator_new(
    out: *mut *mut sno_scru128_generator,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_new(out) }
}

/// Releases a SCRU128 generator; NULL is ignored. Call once, after every user is done.
///
/// # Safety
/// `generator` must be NULL or a live pointer from sno_scru128_generator_new.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru128_generator_free(generator: *mut sno_scru128_generator) {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_free(generator) }
}

/// The next SCRU128 ID: greater than the previous one unless the clock went back more than
/// 10 s, in which case the generator resets (the spec's default). Never blocks. Thread-safe:
/// share one generator between threads.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru128_generator_next(
    generator: *const sno_scru128_generator,
    out: *mut sno_scru128,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next()) }
}

/// The next SCRU128 ID for an explicit time in Unix milliseconds (the clock is not read), with
/// the same rules; outside 1..2^48-1 gives SNO_STATUS_MILLIS_OUT_OF_RANGE. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru128_generator_next_at(
    generator: *const sno_scru128_generator,
    unix_ms: i64,
    out: *mut sno_scru128,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next_at(unix_ms)) }
}
