//! `sno_ulid_*` beyond the common surface (generated.rs): ULIDs (26 Crockford base32
//! characters, upper case out, either case in).

use sno_core::ulid::Ulid;

use crate::formats;
use crate::generated::{sno_ulid, sno_uuid7};
use crate::status::sno_status;

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
