//! `sno_uuid7_*`: UUIDv7 (RFC 9562), hyphenated lower case out; RFC 9562 Method 1 counter.
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use std::ffi::c_char;

use sno_core::ulid::Ulid;
use sno_core::uuid7::{self, Uuid7};

use crate::boundary::{ffi_boundary, try_bytes, write_optional, write_out};
use crate::formats::{self, CId, c_generator, c_id};
use crate::types::sno_status;
use crate::ulid::sno_ulid;

/// Characters in the hyphenated text form of a UUID (no terminating NUL).
pub const SNO_UUID7_ENCODED_LEN: usize = 36;

/// A UUIDv7: 48-bit Unix milliseconds, version 7, 12 bits rand_a, variant 10, 62 bits rand_b,
/// big-endian; byte order (memcmp) is time order. Functions taking one check the version and
/// variant bits (SNO_STATUS_NOT_VERSION7) where the value is read as a UUIDv7; build one from
/// raw bytes with sno_uuid7_from_bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_uuid7 {
    /// The binary form.
    pub bytes: [u8; 16],
}
c_id!(sno_uuid7, Uuid7, SNO_UUID7_ENCODED_LEN, Uuid7::from_bytes);

/// An opaque, thread-safe UUIDv7 generator (see sno_uuid7_generator_new).
pub struct sno_uuid7_generator {
    inner: uuid7::Generator,
}
c_generator!(
    sno_uuid7_generator,
    uuid7::Monotonic<sno_core::rng::ThreadRng>
);

/// A new UUIDv7 from the process-wide generator: RFC 9562 §6.2 Method 1 (a 42-bit counter
/// seeded randomly each millisecond, 32 fresh random bits per UUID), strictly increasing within
/// the process, reset after fork(). Never blocks. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_new(out: *mut sno_uuid7) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::new_global(out, uuid7::try_new) }
}

/// Writes the 36-character hyphenated lower-case text (no NUL); SNO_STATUS_NOT_VERSION7 if
/// `id` does not hold a UUIDv7. Thread-safe.
///
/// # Safety
/// `id` must be NULL or valid; `out` NULL or valid for 36 byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_encode(id: *const sno_uuid7, out: *mut c_char) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::encode(id, out) }
}

/// Writes the text and a NUL; `out_len` must be at least 37, else
/// SNO_STATUS_BUFFER_TOO_SMALL. Thread-safe.
///
/// # Safety
/// `id` must be NULL or valid; `out` NULL or valid for `out_len` byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_encode_cstr(
    id: *const sno_uuid7,
    out: *mut c_char,
    out_len: usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::encode_cstr(id, out, out_len) }
}

/// Strictly decodes an RFC 9562 string form: hyphenated (either case), or "urn:uuid:" followed
/// by one. The UUID must be version 7 with the RFC variant (SNO_STATUS_NOT_VERSION7). On an
/// invalid byte its position, on a wrong length the length given, goes to `error_position` (may
/// be NULL). Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0); `out` and `error_position` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_decode(
    text: *const c_char,
    len: usize,
    out: *mut sno_uuid7,
    error_position: *mut usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::decode(text, len, out, error_position, Uuid7::decode) }
}

/// As sno_uuid7_decode, also accepting 32 bare hex digits and the braced "{...}" form.
/// Thread-safe.
///
/// # Safety
/// As sno_uuid7_decode.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_decode_lenient(
    text: *const c_char,
    len: usize,
    out: *mut sno_uuid7,
    error_position: *mut usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::decode(text, len, out, error_position, Uuid7::decode_lenient) }
}

/// A UUIDv7 from `len` raw bytes: exactly 16 (SNO_STATUS_INVALID_LENGTH), with version 7 and
/// the RFC variant (SNO_STATUS_NOT_VERSION7). Thread-safe.
///
/// # Safety
/// `bytes` valid for `len` reads (NULL only with len 0); `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_from_bytes(
    bytes: *const u8,
    len: usize,
    out: *mut sno_uuid7,
) -> sno_status {
    ffi_boundary(|| {
        // SAFETY: forwarded contract.
        let id = Uuid7::from_slice(unsafe { try_bytes(bytes, len) }?)?;
        // SAFETY: NULL or writable per the contract.
        unsafe { write_out(out, sno_uuid7::from_core(id)) }
    })
}

/// The fields of a UUIDv7: `unix_ts_ms` (48 bits), `rand_a` (12 bits) and `rand_b` (62 bits);
/// any out-pointer may be NULL. SNO_STATUS_NOT_VERSION7 if `id` does not hold a UUIDv7.
/// Thread-safe.
///
/// # Safety
/// Each out-pointer must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_fields(
    id: sno_uuid7,
    unix_ts_ms: *mut u64,
    rand_a: *mut u16,
    rand_b: *mut u64,
) -> sno_status {
    ffi_boundary(|| {
        let id = id.to_core()?;
        // SAFETY: each pointer is NULL or writable per the contract.
        unsafe {
            write_optional(unix_ts_ms, id.unix_ms());
            write_optional(rand_a, id.rand_a());
            write_optional(rand_b, id.rand_b());
        }
        Ok(())
    })
}

/// The timestamp: milliseconds since the Unix epoch (the top 48 bits). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_uuid7_timestamp_ms(id: sno_uuid7) -> u64 {
    Ulid::from_bytes(id.bytes).unix_ms()
}

/// -1, 0 or 1 as `a` sorts before, equal to, or after `b` (time order, as memcmp). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_uuid7_compare(a: sno_uuid7, b: sno_uuid7) -> i32 {
    a.bytes.cmp(&b.bytes) as i32
}

/// The UUIDv7 with the same 128 bits as a ULID, if they carry version 7 and the RFC variant
/// (else SNO_STATUS_NOT_VERSION7: a random ULID is not a UUIDv7). Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_from_ulid(ulid: sno_ulid, out: *mut sno_uuid7) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::convert(ulid, out, Uuid7::try_from) }
}

/// Creates a UUIDv7 generator on the system clock and a per-thread CSPRNG. Free it with
/// sno_uuid7_generator_free. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_generator_new(out: *mut *mut sno_uuid7_generator) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_new(out) }
}

/// Releases a UUIDv7 generator; NULL is ignored. Call once, after every user is done.
///
/// # Safety
/// `generator` must be NULL or a live pointer from sno_uuid7_generator_new.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_generator_free(generator: *mut sno_uuid7_generator) {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_free(generator) }
}

/// The next UUIDv7, greater than every earlier one of this generator (a clock that went back
/// keeps the last timestamp; a counter overflow moves it 1 ms ahead). Never blocks.
/// Thread-safe: share one generator between threads.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_generator_next(
    generator: *const sno_uuid7_generator,
    out: *mut sno_uuid7,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next()) }
}

/// The next UUIDv7 for an explicit time in Unix milliseconds (the clock is not read), with the
/// same rules; outside 0..2^48 gives SNO_STATUS_MILLIS_OUT_OF_RANGE. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_uuid7_generator_next_at(
    generator: *const sno_uuid7_generator,
    unix_ms: i64,
    out: *mut sno_uuid7,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next_at(unix_ms)) }
}
