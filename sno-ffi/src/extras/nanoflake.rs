//! `sno_nanoflake_*` beyond the common surface (generated.rs): Nanoflakes (Snowflake layout in
//! a non-negative `int64_t`: 41-bit ms since an application epoch, 10-bit generator id, 12-bit
//! sequence; base36 text).
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use std::ffi::c_char;

use sno_core::nanoflake::{self, Nanoflake};

use crate::args::{try_ref, write_optional};
use crate::errors::ffi_boundary;
use crate::formats::{self, CGenerator, CId};
use crate::generated::{SNO_NANOFLAKE_MAX_ENCODED_LEN, sno_nanoflake, sno_nanoflake_generator};
use crate::status::sno_status;

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
        Ok(g.inner().repartition(generator_id)?)
    })
}
