//! `sno_uuid7_*` beyond the common surface (generated.rs): UUIDv7 (RFC 9562), hyphenated
//! lower case out; RFC 9562 Method 1 counter.

use sno_core::uuid7::Uuid7;

use crate::args::{try_bytes, write_optional, write_out};
use crate::errors::ffi_boundary;
use crate::formats::CId;
use crate::generated::sno_uuid7;
use crate::status::sno_status;

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
