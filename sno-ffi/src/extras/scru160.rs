//! `sno_scru160_*` beyond the common surface (generated.rs): SCRU160 IDs (deprecated by
//! SCRU128; for existing data): 32 base32hex characters (upper case out) or 40 hex digits (lower
//! case out), either case in.

use std::ffi::c_char;

use sno_core::scru160::Scru160Id;

use crate::formats;
use crate::generated::sno_scru160;
use crate::status::sno_status;

/// Characters in the hex text of a SCRU160 ID (no terminating NUL).
pub const SNO_SCRU160_HEX_LEN: usize = 40;

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
