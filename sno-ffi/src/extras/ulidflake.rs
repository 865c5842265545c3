//! `sno_ulidflake_*` beyond the common surface (generated.rs): Ulid-Flake (a non-negative
//! `int64_t`: 43-bit ms since an epoch, then 20 random bits, or 15 random bits and a 5-bit
//! scalability id; 13 Crockford base32 characters).
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use sno_core::ulidflake::{self, Config, UlidFlake};

use crate::args::try_ref;
use crate::errors::ffi_boundary;
use crate::formats::{self, CGenerator};
use crate::generated::{sno_ulidflake, sno_ulidflake_generator};
use crate::status::sno_status;

/// The default epoch, 2024-01-01T00:00:00Z, in Unix milliseconds.
pub const SNO_ULIDFLAKE_DEFAULT_EPOCH_MS: i64 = 1_704_067_200_000;

/// Both readings of a Ulid-Flake (a value does not say which version made it).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_ulidflake_fields {
    /// Milliseconds since the epoch (43 bits).
    pub timestamp: u64,
    /// The low 20 bits: the stand-alone version's randomness.
    pub randomness: u32,
    /// Bits 5-19: the scalable version's randomness.
    pub scalable_randomness: u16,
    /// The low 5 bits: the scalable version's scalability id.
    pub sid: u8,
}

/// Settings of a Ulid-Flake generator (sno_ulidflake_generator_new).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct sno_ulidflake_options {
    /// The epoch in Unix milliseconds (SNO_ULIDFLAKE_DEFAULT_EPOCH_MS by default).
    pub epoch_ms: i64,
    /// -1 for the stand-alone version, else the scalable version's id (0 ..= 31).
    pub sid: i32,
    /// Random bytes per same-millisecond increment: 1 ..= 3 (scalable 1 ..= 2); 1 by default.
    pub entropy_size: u8,
}

/// Writes both readings of `id`. Thread-safe.
///
/// # Safety
/// `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_get_fields(
    id: sno_ulidflake,
    out: *mut sno_ulidflake_fields,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe {
        formats::read(id, out, |f| sno_ulidflake_fields {
            timestamp: f.timestamp(),
            randomness: f.randomness(),
            scalable_randomness: f.scalable_randomness(),
            sid: f.sid(),
        })
    }
}

/// A stand-alone Ulid-Flake from its timestamp (ms since the epoch, < 2^43, else
/// SNO_STATUS_MILLIS_OUT_OF_RANGE) and 20-bit randomness (else SNO_STATUS_VALUE_OVERFLOW).
/// Thread-safe.
///
/// # Safety
/// `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_from_fields(
    timestamp: u64,
    randomness: u32,
    out: *mut sno_ulidflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::build(out, || UlidFlake::from_fields(timestamp, randomness)) }
}

/// Deprecated: the same as sno_ulidflake_from_fields; kept for the 0.2 ABI.
///
/// # Safety
/// `out` NULL or writable.
#[deprecated(note = "use sno_ulidflake_from_fields")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_from_parts(
    timestamp: u64,
    randomness: u32,
    out: *mut sno_ulidflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { sno_ulidflake_from_fields(timestamp, randomness, out) }
}

/// A scalable Ulid-Flake from its timestamp, 15-bit randomness and 5-bit sid. Thread-safe.
///
/// # Safety
/// `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_from_scalable_fields(
    timestamp: u64,
    randomness: u16,
    sid: u8,
    out: *mut sno_ulidflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe {
        formats::build(out, || {
            UlidFlake::from_scalable_fields(timestamp, randomness, sid)
        })
    }
}

/// Deprecated: the same as sno_ulidflake_from_scalable_fields; kept for the 0.2 ABI.
///
/// # Safety
/// `out` NULL or writable.
#[deprecated(note = "use sno_ulidflake_from_scalable_fields")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_from_scalable_parts(
    timestamp: u64,
    randomness: u16,
    sid: u8,
    out: *mut sno_ulidflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { sno_ulidflake_from_scalable_fields(timestamp, randomness, sid, out) }
}

/// The default generator settings: stand-alone, default epoch, 1-byte increments.
#[unsafe(no_mangle)]
pub extern "C" fn sno_ulidflake_options_default() -> sno_ulidflake_options {
    sno_ulidflake_options {
        epoch_ms: ulidflake::DEFAULT_EPOCH_MS,
        sid: -1,
        entropy_size: 1,
    }
}

/// Creates a generator with `options` (NULL: sno_ulidflake_options_default()) on the system
/// clock and a per-thread CSPRNG. A negative epoch gives SNO_STATUS_MILLIS_OUT_OF_RANGE; a sid
/// outside -1 ..= 31 or an entropy_size outside its range SNO_STATUS_VALUE_OVERFLOW. Free it
/// with sno_ulidflake_generator_free. Thread-safe.
///
/// # Safety
/// `options` NULL or valid; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_generator_new(
    options: *const sno_ulidflake_options,
    out: *mut *mut sno_ulidflake_generator,
) -> sno_status {
    // SAFETY: NULL or valid per the contract.
    let options = unsafe { options.as_ref() }
        .copied()
        .unwrap_or_else(|| sno_ulidflake_options_default());
    // SAFETY: forwarded contract.
    unsafe {
        formats::generator_with(out, || {
            let sid = match options.sid {
                -1 => None,
                sid => Some(u8::try_from(sid).map_err(|_| sno_core::Error::ValueOverflow)?),
            };
            let config = Config {
                epoch_ms: options.epoch_ms,
                sid,
                entropy_size: options.entropy_size,
            };
            ulidflake::Monotonic::with_config(sno_core::rng::ThreadRng, config)
        })
    }
}

/// Gives a Ulid-Flake generator the scalable sid (0 ..= 31, else SNO_STATUS_VALUE_OVERFLOW),
/// typically in a fork() child, where a scalable generator inherited from the parent refuses to
/// mint (SNO_STATUS_FORKED) until this is called; a scalable generator keeps its last
/// timestamp and randomness, a stand-alone one becomes scalable and starts afresh. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_generator_repartition(
    generator: *const sno_ulidflake_generator,
    sid: u8,
) -> sno_status {
    ffi_boundary(|| {
        // SAFETY: NULL or live per the contract.
        let g = unsafe { try_ref(generator) }?;
        Ok(g.inner().repartition(sid)?)
    })
}
