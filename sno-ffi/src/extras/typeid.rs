//! `sno_typeid_*`: what the generic API (any.rs) cannot do for a TypeID, whose prefix is not
//! part of its binary form (the UUID): make a new one, and write the text of a prefix and a
//! UUID. Reading one is the generic API's: `sno_inspect(SNO_FORMAT_TYPEID, …)` gives the UUID
//! (`bytes`), the prefix (the text field "prefix") and the UUID's fields.

use std::ffi::{CStr, c_char};

use sno_core::typeid::{self, TypeId};

use crate::args::{try_bytes, write_optional};
use crate::errors::{Failure, recording_boundary};
use crate::status::sno_status;

/// Characters in the longest TypeID text (a 63-character prefix, '_' and the 26-character
/// suffix; no terminating NUL).
pub const SNO_TYPEID_MAX_ENCODED_LEN: usize = 90;
/// Characters in the longest TypeID prefix.
pub const SNO_TYPEID_MAX_PREFIX_LEN: usize = 63;
const _: () = assert!(
    SNO_TYPEID_MAX_ENCODED_LEN == typeid::MAX_ENCODED_LEN
        && SNO_TYPEID_MAX_PREFIX_LEN == typeid::MAX_PREFIX_LEN
);

/// Writes the text of the TypeID that `make` builds from the prefix behind `prefix` (bytes
/// that are no UTF-8 are refused by the prefix rules), and a NUL, to `out`; its length to
/// `written`.
///
/// # Safety
/// `prefix` NULL or NUL-terminated; `out` NULL or valid for `out_len` writes; `written` NULL
/// or writable.
unsafe fn write_typeid(
    prefix: *const c_char,
    out: *mut c_char,
    out_len: usize,
    written: *mut usize,
    make: impl FnOnce(&str) -> Result<TypeId, Failure>,
) -> sno_status {
    recording_boundary(|| {
        if prefix.is_null() || out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        // SAFETY: non-NULL and NUL-terminated per the contract.
        let prefix = String::from_utf8_lossy(unsafe { CStr::from_ptr(prefix) }.to_bytes());
        let id = make(&prefix)?;
        let mut buf = [0u8; typeid::MAX_ENCODED_LEN];
        let text = id.encode(&mut buf).as_bytes();
        if out_len <= text.len() {
            return Err(sno_status::BufferTooSmall.into());
        }
        // SAFETY: non-NULL and valid for out_len > text.len() writes per the contract.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), out.cast::<u8>(), text.len());
            out.add(text.len()).write(0);
            write_optional(written, text.len());
        }
        Ok(())
    })
}

/// Writes the text of a new TypeID, with `prefix` (NUL-terminated; "" for none) and a UUIDv7
/// from the process-wide UUIDv7 generator (as sno_uuid7_new), and a NUL to `out`. `out_len`
/// must exceed the text's length (SNO_TYPEID_MAX_ENCODED_LEN + 1 always does), else
/// SNO_STATUS_BUFFER_TOO_SMALL; the length without the NUL goes to `written` (may be NULL). A
/// prefix the spec refuses (at most 63 of `a-z` and `_`, not starting or ending with `_`) is
/// SNO_STATUS_INVALID_PREFIX, with the rule in sno_last_error_message. Thread-safe.
///
/// # Safety
/// `prefix` NULL or NUL-terminated; `out` NULL or valid for `out_len` writes; `written` NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_typeid_new(
    prefix: *const c_char,
    out: *mut c_char,
    out_len: usize,
    written: *mut usize,
) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { write_typeid(prefix, out, out_len, written, |p| Ok(TypeId::try_new(p)?)) }
}

/// Writes the text of the TypeID with `prefix` (NUL-terminated; "" for none) and the UUID in
/// `uuid` (`uuid_len` bytes: 16, else SNO_STATUS_INVALID_LENGTH; any UUID, as the spec allows),
/// and a NUL to `out`, as sno_typeid_new does. With sno_parse_as (which gives the UUID) and the
/// prefix field of sno_inspect, it round-trips a TypeID. Thread-safe.
///
/// # Safety
/// `prefix` NULL or NUL-terminated; `uuid` valid for `uuid_len` reads (NULL only with length
/// 0); `out` NULL or valid for `out_len` writes; `written` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_typeid_from_uuid(
    prefix: *const c_char,
    uuid: *const u8,
    uuid_len: usize,
    out: *mut c_char,
    out_len: usize,
    written: *mut usize,
) -> sno_status {
    let make = |prefix: &str| {
        // SAFETY: forwarded contract.
        let uuid = TypeId::from_slice(unsafe { try_bytes(uuid, uuid_len) }?)?;
        Ok(TypeId::from_uuid(prefix, uuid.uuid_bytes())?)
    };
    // SAFETY: forwarded contract.
    unsafe { write_typeid(prefix, out, out_len, written, make) }
}
