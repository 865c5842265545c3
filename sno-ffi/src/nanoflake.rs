//! `sno_nanoflake_*`: Nanoflakes (Snowflake layout in a non-negative `int64_t`: 41-bit ms since
//! an application epoch, 10-bit generator id, 12-bit sequence; base36 text).
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use std::ffi::c_char;

use sno_core::nanoflake::{self, Nanoflake};

use crate::boundary::{ffi_boundary, try_ref, write_optional};
use crate::formats::{self, CId, c_generator, c_i64_id};
use crate::types::sno_status;

/// The longest text of a Nanoflake (13 base36 digits; no terminating NUL).
pub const SNO_NANOFLAKE_MAX_ENCODED_LEN: usize = 13;

/// A Nanoflake: `timestamp << 22 | generator_id << 12 | sequence` (the spec text's layout,
/// Twitter's). Valid values are 0 ..= INT64_MAX; functions taking one refuse a negative value
/// with SNO_STATUS_VALUE_OVERFLOW. Numeric order is time order (per generator).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_nanoflake(pub i64);
c_i64_id!(
    sno_nanoflake,
    Nanoflake,
    SNO_NANOFLAKE_MAX_ENCODED_LEN,
    Nanoflake::encode_padded
);

/// The fields of a Nanoflake.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_nanoflake_fields {
    /// Milliseconds since the application's epoch (41 bits).
    pub timestamp: u64,
    /// The generator id (0 ..= 1023).
    pub generator_id: u16,
    /// The sequence within the millisecond (0 ..= 4095).
    pub sequence: u16,
    /// `value >> 24`: the timestamp as the Java/Kotlin/TypeScript references read it (their
    /// layout bug); add it to the epoch to read IDs they generated.
    pub reference_timestamp: u64,
}

/// An opaque, thread-safe Nanoflakes generator (see sno_nanoflake_generator_new).
pub struct sno_nanoflake_generator {
    inner: nanoflake::Generator,
}
c_generator!(sno_nanoflake_generator, nanoflake::Monotonic);

/// Writes the canonical text (base36, lower case, no padding: 1 to 13 characters) and a NUL;
/// `out_len` must be at least 14, else SNO_STATUS_BUFFER_TOO_SMALL. The number of characters
/// (without the NUL) goes to `written` (may be NULL). Thread-safe.
///
/// # Safety
/// `out` NULL or valid for `out_len` byte writes; `written` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_encode(
    id: sno_nanoflake,
    out: *mut c_char,
    out_len: usize,
    written: *mut usize,
) -> sno_status {
    ffi_boundary(|| {
        let id = id.to_core()?;
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        if out_len <= SNO_NANOFLAKE_MAX_ENCODED_LEN {
            return Err(sno_status::BufferTooSmall);
        }
        let mut buf = [0u8; SNO_NANOFLAKE_MAX_ENCODED_LEN];
        let text = id.encode(&mut buf).as_bytes();
        // SAFETY: non-NULL and valid for out_len > 13 writes per the contract.
        let out = unsafe { std::slice::from_raw_parts_mut(out.cast::<u8>(), text.len() + 1) };
        out[..text.len()].copy_from_slice(text);
        out[text.len()] = 0;
        // SAFETY: NULL or writable per the contract.
        unsafe { write_optional(written, text.len()) };
        Ok(())
    })
}

/// Writes the 13-character zero-padded text (no NUL), which sorts like the values.
/// Thread-safe.
///
/// # Safety
/// `out` NULL or valid for 13 byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_encode_padded(
    id: sno_nanoflake,
    out: *mut c_char,
) -> sno_status {
    // SAFETY: `&id` is valid; `out` forwarded.
    unsafe { formats::encode(&id, out) }
}

/// Strictly decodes `len` bytes: 1 to 13 base36 digits (0-9, a-z, either case; leading zeros
/// allowed), at most "1y2p0ij32e8e7" (SNO_STATUS_VALUE_OVERFLOW above); no sign, whitespace or
/// prefix. On an invalid byte its position, on a wrong length the length given, goes to
/// `error_position` (may be NULL). Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0); `out` and `error_position` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_decode(
    text: *const c_char,
    len: usize,
    out: *mut sno_nanoflake,
    error_position: *mut usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::decode(text, len, out, error_position, Nanoflake::decode) }
}

/// Writes the fields of `id`. Thread-safe.
///
/// # Safety
/// `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_get_fields(
    id: sno_nanoflake,
    out: *mut sno_nanoflake_fields,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe {
        formats::read(id, out, |n| sno_nanoflake_fields {
            timestamp: n.timestamp(),
            generator_id: n.generator_id(),
            sequence: n.sequence(),
            reference_timestamp: n.reference_timestamp(),
        })
    }
}

/// Builds a Nanoflake from its fields (SNO_STATUS_MILLIS_OUT_OF_RANGE for a timestamp above
/// 2^41-1, SNO_STATUS_VALUE_OVERFLOW for a generator id above 1023 or a sequence above 4095).
/// Thread-safe.
///
/// # Safety
/// `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_from_fields(
    timestamp: u64,
    generator_id: u16,
    sequence: u16,
    out: *mut sno_nanoflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe {
        formats::build(out, || {
            Nanoflake::from_fields(timestamp, generator_id, sequence)
        })
    }
}

/// Creates a generator for `generator_id` (0 ..= 1023, else SNO_STATUS_VALUE_OVERFLOW)
/// counting milliseconds from `epoch_ms` (Unix milliseconds, not negative, shared by every
/// generator of the application), on the system clock. IDs are unique only across generators
/// with distinct ids (one per process and thread pool). Free it with
/// sno_nanoflake_generator_free. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_generator_new(
    epoch_ms: i64,
    generator_id: u16,
    out: *mut *mut sno_nanoflake_generator,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_with(out, || nanoflake::Monotonic::new(epoch_ms, generator_id)) }
}

/// Gives a Nanoflakes generator a generator id (0 ..= 1023) of its own, keeping its last
/// timestamp and sequence (it never repeats its own IDs), typically in a fork() child, where a generator inherited from the parent refuses to mint
/// (SNO_STATUS_FORKED: resetting it would repeat the parent's IDs) until this is called.
/// Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_generator_repartition(
    generator: *const sno_nanoflake_generator,
    generator_id: u16,
) -> sno_status {
    ffi_boundary(|| {
        // SAFETY: NULL or live per the contract.
        let g = unsafe { try_ref(generator) }?;
        Ok(g.inner.repartition(generator_id)?)
    })
}

/// Releases a Nanoflakes generator; NULL is ignored. Call once, after every user is done.
///
/// # Safety
/// `generator` must be NULL or a live pointer from sno_nanoflake_generator_new.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_generator_free(generator: *mut sno_nanoflake_generator) {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_free(generator) }
}

/// The next Nanoflake: sequence 0 in a new millisecond, +1 within one. Waits for the next
/// millisecond when 4096 were made in this one, and for the clock to catch up when it went
/// back at most 1 s (further: SNO_STATUS_CLOCK_ROLLBACK). SNO_STATUS_MILLIS_OUT_OF_RANGE when
/// the clock is before the epoch or 2^41 ms past it. Thread-safe: share one generator between
/// threads.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_generator_next(
    generator: *const sno_nanoflake_generator,
    out: *mut sno_nanoflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next()) }
}

/// As sno_nanoflake_generator_next, but never waits: SNO_STATUS_RANDOMNESS_EXHAUSTED when this
/// millisecond's 4096 sequences are used, SNO_STATUS_CLOCK_ROLLBACK when the clock went back.
/// Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_generator_try_next(
    generator: *const sno_nanoflake_generator,
    out: *mut sno_nanoflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.try_next()) }
}

/// The next Nanoflake for an explicit time in Unix milliseconds (the clock is not read), with
/// the rules of sno_nanoflake_generator_try_next. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_nanoflake_generator_next_at(
    generator: *const sno_nanoflake_generator,
    unix_ms: i64,
    out: *mut sno_nanoflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next_at(unix_ms)) }
}
