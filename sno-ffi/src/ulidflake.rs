//! `sno_ulidflake_*`: Ulid-Flake (a non-negative `int64_t`: 43-bit ms since an epoch, then 20
//! random bits, or 15 random bits and a 5-bit scalability id; 13 Crockford base32 characters).
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use std::ffi::c_char;

use sno_core::ulidflake::{self, Config, UlidFlake};

use crate::boundary::{ffi_boundary, try_ref};
use crate::formats::{self, c_generator, c_i64_id};
use crate::types::sno_status;

/// Characters in the text form of a Ulid-Flake (no terminating NUL).
pub const SNO_ULIDFLAKE_ENCODED_LEN: usize = 13;
/// The default epoch, 2024-01-01T00:00:00Z, in Unix milliseconds.
pub const SNO_ULIDFLAKE_DEFAULT_EPOCH_MS: i64 = 1_704_067_200_000;

/// A Ulid-Flake: `timestamp << 20 | randomness` (stand-alone) or `timestamp << 20 |
/// randomness << 5 | sid` (scalable). Valid values are 0 ..= INT64_MAX; functions taking one
/// refuse a negative value with SNO_STATUS_VALUE_OVERFLOW. Numeric order is time order.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct sno_ulidflake(pub i64);
c_i64_id!(
    sno_ulidflake,
    UlidFlake,
    SNO_ULIDFLAKE_ENCODED_LEN,
    UlidFlake::encode_bytes
);

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

/// An opaque, thread-safe Ulid-Flake generator (see sno_ulidflake_generator_new).
pub struct sno_ulidflake_generator {
    inner: ulidflake::Generator,
}
c_generator!(
    sno_ulidflake_generator,
    ulidflake::Monotonic<sno_core::rng::ThreadRng>
);

/// A new stand-alone Ulid-Flake (default epoch) from the process-wide generator (fresh
/// randomness each millisecond, + a random 1..255 within one; reset after fork()). Sleeps
/// into the next millisecond when one millisecond's randomness is used up. Thread-safe.
///
/// # Safety
/// `out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_new(out: *mut sno_ulidflake) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::new_global(out, ulidflake::try_new) }
}

/// Writes the 13-character upper-case text (no NUL). Thread-safe.
///
/// # Safety
/// `out` NULL or valid for 13 byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_encode(id: sno_ulidflake, out: *mut c_char) -> sno_status {
    // SAFETY: `&id` is valid; `out` forwarded.
    unsafe { formats::encode(&id, out) }
}

/// Writes the text and a NUL; `out_len` must be at least 14, else
/// SNO_STATUS_BUFFER_TOO_SMALL. Thread-safe.
///
/// # Safety
/// `out` NULL or valid for `out_len` byte writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_encode_cstr(
    id: sno_ulidflake,
    out: *mut c_char,
    out_len: usize,
) -> sno_status {
    // SAFETY: `&id` is valid; `out` forwarded.
    unsafe { formats::encode_cstr(&id, out, out_len) }
}

/// Strictly decodes `len` bytes: exactly 13 Crockford base32 characters (no I, L, O, U), either
/// case, the first at most '7' (SNO_STATUS_VALUE_OVERFLOW above). On an invalid byte its
/// position, on a wrong length the length given, goes to `error_position` (may be NULL).
/// Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0); `out` and `error_position` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_decode(
    text: *const c_char,
    len: usize,
    out: *mut sno_ulidflake,
    error_position: *mut usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::decode(text, len, out, error_position, UlidFlake::decode) }
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
pub unsafe extern "C" fn sno_ulidflake_from_parts(
    timestamp: u64,
    randomness: u32,
    out: *mut sno_ulidflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::build(out, || UlidFlake::from_fields(timestamp, randomness)) }
}

/// A scalable Ulid-Flake from its timestamp, 15-bit randomness and 5-bit sid. Thread-safe.
///
/// # Safety
/// `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_from_scalable_parts(
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
    let options = if options.is_null() {
        sno_ulidflake_options_default()
    } else {
        // SAFETY: non-NULL and valid per the contract.
        match unsafe { try_ref(options) } {
            Ok(o) => *o,
            Err(status) => return status,
        }
    };
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
        Ok(g.inner.repartition(sid)?)
    })
}

/// Releases a Ulid-Flake generator; NULL is ignored. Call once, after every user is done.
///
/// # Safety
/// `generator` must be NULL or a live pointer from sno_ulidflake_generator_new.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_generator_free(generator: *mut sno_ulidflake_generator) {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_free(generator) }
}

/// The next Ulid-Flake: greater than the previous one (a clock that went back keeps the last
/// timestamp). Sleeps into the next millisecond when this one's randomness is used up.
/// Thread-safe: share one generator between threads.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_generator_next(
    generator: *const sno_ulidflake_generator,
    out: *mut sno_ulidflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next()) }
}

/// As sno_ulidflake_generator_next, but returns SNO_STATUS_RANDOMNESS_EXHAUSTED at once (the
/// spec's overflow error; the state is unchanged and a retry may fit) instead of sleeping.
/// Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_generator_try_next(
    generator: *const sno_ulidflake_generator,
    out: *mut sno_ulidflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.try_next()) }
}

/// The next Ulid-Flake for an explicit time in Unix milliseconds (the clock is not read), with
/// the rules of sno_ulidflake_generator_try_next; before the epoch or 2^43 ms past it gives
/// SNO_STATUS_MILLIS_OUT_OF_RANGE. Thread-safe.
///
/// # Safety
/// `generator` must be NULL or live; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_ulidflake_generator_next_at(
    generator: *const sno_ulidflake_generator,
    unix_ms: i64,
    out: *mut sno_ulidflake,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { formats::generator_step(generator, out, |g| g.next_at(unix_ms)) }
}
