//! `sno_ulid_*`: ULIDs (26 Crockford base32 characters, upper case out, either case in).
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use std::ffi::c_char;

use sno_core::ulid::{self, Ulid};

use crate::formats::{self, c_generator, c_id};
use crate::types::sno_status;
use crate::uuid7::sno_uuid7;

/// Characters in the text form of a ULID (no terminating NUL).
pub const SNO_ULID_ENCODED_LEN: usize = 26;

/// A ULID: 48-bit Unix milliseconds then 80 random bits, big-endian. Any 16 bytes are a ULID;
/// byte order (memcmp) is time order.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_ulid {
    /// The binary form.
    pub bytes: [u8; 16],
}
c_id!(sno_ulid, Ulid, SNO_ULID_ENCODED_LEN, |b| Ok(
    Ulid::from_bytes(b)
));

/// An opaque, thread-safe monotonic ULID generator (see sno_ulid_generator_new).
pub struct sno_ulid_generator {
    inner: ulid::Generator,
}
c_generator!(
    sno_ulid_generator,
    ulid::Monotonic<sno_core::rng::ThreadRng>
);

/// A new ULID from the process-wide monotonic generator (fresh randomness each millisecond,
/// +1 within one; reset after fork()). Sleeps into the next millisecond in the (2^-80-likely)
/// event that one millisecond's randomness is used up. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_new(out: *mut sno_ulid) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::new_global(out, ulid::try_new) }
}

/// Writes the 26-character upper-case text (no NUL). Thread-safe.
///
/// # Safety
/// `id` must be NULL or valid; `out` NULL or valid for 26 byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_encode(id: *const sno_ulid, out: *mut c_char) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::encode(id, out) }
}

/// Writes the text and a NUL; `out_len` must be at least 27, else
/// SNO_STATUS_BUFFER_TOO_SMALL. Thread-safe.
///
/// # Safety
/// `id` must be NULL or valid; `out` NULL or valid for `out_len` byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_encode_cstr(
    id: *const sno_ulid,
    out: *mut c_char,
    out_len: usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::encode_cstr(id, out, out_len) }
}

/// Strictly decodes `len` bytes: exactly 26 Crockford base32 characters in either case (no I,
/// L, O, U), the first at most '7' (SNO_STATUS_VALUE_OVERFLOW above). On an invalid byte its
/// position, on a wrong length the length given, goes to `error_position` (may be NULL).
/// Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0); `out` and `error_position` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_decode(
    text: *const c_char,
    len: usize,
    out: *mut sno_ulid,
    error_position: *mut usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::decode(text, len, out, error_position, Ulid::decode) }
}

/// The timestamp: milliseconds since the Unix epoch (48 bits). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_ulid_timestamp_ms(id: sno_ulid) -> u64 {
    Ulid::from_bytes(id.bytes).unix_ms()
}

/// -1, 0 or 1 as `a` sorts before, equal to, or after `b` (time order, as memcmp). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_ulid_compare(a: sno_ulid, b: sno_ulid) -> i32 {
    a.bytes.cmp(&b.bytes) as i32
}

/// The ULID with the same 128 bits as a UUIDv7 (its timestamp is the UUID's). Fails only with
/// SNO_STATUS_NOT_VERSION7 for a struct not holding a UUIDv7. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_from_uuid7(uuid: sno_uuid7, out: *mut sno_ulid) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::convert(uuid, out, |u| Ok(Ulid::from(u))) }
}

/// Creates a monotonic ULID generator on the system clock and a per-thread CSPRNG. Free it
/// with sno_ulid_generator_free. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_generator_new(out: *mut *mut sno_ulid_generator) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_new(out) }
}

/// Releases a ULID generator; NULL is ignored. Call once, after every user is done.
///
/// # Safety
/// `generator` must be NULL or a live pointer from sno_ulid_generator_new.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_generator_free(generator: *mut sno_ulid_generator) {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_free(generator) }
}

/// The next ULID, greater than every earlier one of this generator (a clock that went back
/// keeps the last timestamp); sleeps into the next millisecond if this one's randomness is used
/// up. Thread-safe: share one generator between threads.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_generator_next(
    generator: *const sno_ulid_generator,
    out: *mut sno_ulid,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next()) }
}

/// As sno_ulid_generator_next, but returns SNO_STATUS_RANDOMNESS_EXHAUSTED at once instead of
/// sleeping. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_generator_try_next(
    generator: *const sno_ulid_generator,
    out: *mut sno_ulid,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.try_next()) }
}

/// The next ULID for an explicit time in Unix milliseconds (the clock is not read), with the
/// same monotonic rules; outside 0..2^48 gives SNO_STATUS_MILLIS_OUT_OF_RANGE. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulid_generator_next_at(
    generator: *const sno_ulid_generator,
    unix_ms: i64,
    out: *mut sno_ulid,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next_at(unix_ms)) }
}
