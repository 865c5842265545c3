//! `sno_scru160_*`: SCRU160 IDs (deprecated by SCRU128; for existing data): 32 base32hex
//! characters (upper case out) or 40 hex digits (lower case out), either case in.
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use std::ffi::c_char;

use sno_core::scru160::{self, Scru160Id};

use crate::formats::{self, c_generator, c_id};
use crate::types::sno_status;

/// Characters in the canonical (base32hex) text of a SCRU160 ID (no terminating NUL).
pub const SNO_SCRU160_ENCODED_LEN: usize = 32;
/// Characters in the hex text of a SCRU160 ID (no terminating NUL).
pub const SNO_SCRU160_HEX_LEN: usize = 40;

/// A SCRU160 ID: 48-bit Unix milliseconds, 16-bit counter, 16-bit random16, 80-bit random80,
/// big-endian. Any 20 bytes are one; byte order (memcmp) is time order.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_scru160 {
    /// The binary form.
    pub bytes: [u8; 20],
}
c_id!(sno_scru160, Scru160Id, SNO_SCRU160_ENCODED_LEN, |b| Ok(
    Scru160Id::from_bytes(b)
));

/// An opaque, thread-safe SCRU160 generator (see sno_scru160_generator_new).
pub struct sno_scru160_generator {
    inner: scru160::Generator,
}
c_generator!(
    sno_scru160_generator,
    scru160::Monotonic<sno_core::rng::ThreadRng>
);

/// A new SCRU160 ID from the process-wide generator (the reference algorithm: a random 15-bit
/// counter per millisecond, +1 within one; reset after fork()). Sleeps into the next
/// millisecond if one millisecond's 16-bit counter is used up. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru160_new(out: *mut sno_scru160) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::new_global(out, scru160::try_new) }
}

/// Writes the 32-character upper-case base32hex text (no NUL). Thread-safe.
///
/// # Safety
/// `id` must be NULL or valid; `out` NULL or valid for 32 byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru160_encode(
    id: *const sno_scru160,
    out: *mut c_char,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::encode(id, out) }
}

/// Writes the text and a NUL; `out_len` must be at least 33, else
/// SNO_STATUS_BUFFER_TOO_SMALL. Thread-safe.
///
/// # Safety
/// `id` must be NULL or valid; `out` NULL or valid for `out_len` byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru160_encode_cstr(
    id: *const sno_scru160,
    out: *mut c_char,
    out_len: usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::encode_cstr(id, out, out_len) }
}

/// Writes the 40 lower-case hex digits (no NUL). Thread-safe.
///
/// # Safety
/// `id` must be NULL or valid; `out` NULL or valid for 40 byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru160_encode_hex(
    id: *const sno_scru160,
    out: *mut c_char,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe {
        formats::encode_with(id, out, SNO_SCRU160_HEX_LEN, |id, out| {
            out.copy_from_slice(&id.encode_hex_bytes())
        })
    }
}

/// Strictly decodes `len` bytes: 32 base32hex characters (0-9, A-V) or 40 hex digits, either
/// case; the length picks the form (SNO_STATUS_INVALID_LENGTH for any other). On an invalid
/// byte its position, on a wrong length the length given, goes to `error_position` (may be
/// NULL). Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0); `out` and `error_position` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru160_decode(
    text: *const c_char,
    len: usize,
    out: *mut sno_scru160,
    error_position: *mut usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::decode(text, len, out, error_position, Scru160Id::decode) }
}

/// The timestamp: milliseconds since the Unix epoch (48 bits). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru160_timestamp_ms(id: sno_scru160) -> u64 {
    Scru160Id::from_bytes(id.bytes).unix_ms()
}

/// The 16-bit counter field. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru160_counter(id: sno_scru160) -> u16 {
    Scru160Id::from_bytes(id.bytes).counter()
}

/// The 16-bit random16 field (the 80-bit random80 is bytes 10..20). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru160_random16(id: sno_scru160) -> u16 {
    Scru160Id::from_bytes(id.bytes).random16()
}

/// -1, 0 or 1 as `a` sorts before, equal to, or after `b` (time order, as memcmp). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_scru160_compare(a: sno_scru160, b: sno_scru160) -> i32 {
    a.bytes.cmp(&b.bytes) as i32
}

/// Creates a SCRU160 generator (10 s rollback allowance) on the system clock and a per-thread
/// CSPRNG. Free it with sno_scru160_generator_free. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru160_generator_new(
    out: *mut *mut sno_scru160_generator,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_new(out) }
}

/// Releases a SCRU160 generator; NULL is ignored. Call once, after every user is done.
///
/// # Safety
/// `generator` must be NULL or a live pointer from sno_scru160_generator_new.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru160_generator_free(generator: *mut sno_scru160_generator) {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_free(generator) }
}

/// The next SCRU160 ID: greater than the previous one unless the clock went back more than
/// 10 s, in which case the generator resets (as the reference does after giving up waiting).
/// Sleeps into the next millisecond if this one's counter is used up. Thread-safe: share one
/// generator between threads.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru160_generator_next(
    generator: *const sno_scru160_generator,
    out: *mut sno_scru160,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next()) }
}

/// The next SCRU160 ID for an explicit time in Unix milliseconds (the clock is not read), with
/// the same rules; SNO_STATUS_RANDOMNESS_EXHAUSTED when that millisecond's counter is used up,
/// SNO_STATUS_MILLIS_OUT_OF_RANGE outside 1..2^48-1. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_scru160_generator_next_at(
    generator: *const sno_scru160_generator,
    unix_ms: i64,
    out: *mut sno_scru160,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next_at(unix_ms)) }
}
