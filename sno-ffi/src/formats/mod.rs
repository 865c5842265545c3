//! What the per-format C functions (`sno_<format>_*`) share: the generic helpers their bodies
//! call, for values here and for generator handles in [`generators`]. The functions themselves
//! are generated (`generated.rs`, plain `extern "C"` items that cbindgen reads) from the core's
//! table.

use std::ffi::c_char;

use sno_core::model::MAX_TEXT_LEN;
use sno_core::{Error, Field, FieldValue, IdFormat, Unit};

use crate::args::{try_bytes, try_ref, write_optional, write_out};
use crate::errors::ffi_boundary;
use crate::status::sno_status;

pub(crate) mod generators;
mod value_type;
pub(crate) use generators::*;
pub(crate) use value_type::CId;

/// Implements [`CId`] for a `{ bytes: [u8; N] }` struct: the core value is the format's
/// [`IdFormat::from_slice`](sno_core::IdFormat::from_slice) (which refuses bytes that are no
/// value of the format: a UUID that is not version 7).
macro_rules! c_id {
    ($c:ty, $core:ty, $text:expr) => {
        impl $crate::formats::CId for $c {
            type Core = $core;
            const TEXT_LEN: usize = $text;
            fn to_core(self) -> Result<$core, sno_core::Error> {
                <$core as sno_core::IdFormat>::from_slice(&self.bytes)
            }
            fn from_core(id: $core) -> Self {
                Self {
                    bytes: id.to_bytes(),
                }
            }
            fn encode(id: &$core, out: &mut [u8]) {
                // Straight into the caller's buffer (`encode_with` passes exactly TEXT_LEN bytes):
                // no temporary to copy, whose reload would stall on the kernels' stores.
                match <&mut [u8; $text]>::try_from(out) {
                    Ok(out) => {
                        id.encode(out);
                    }
                    Err(_) => unreachable!("encode_with passes TEXT_LEN bytes"),
                }
            }
        }
    };
}
pub(crate) use c_id;

// sno's value type: `sno_id`, declared in `types.rs` with the other C types (the other formats'
// value types, with their `CId`, are in `generated.rs`).
c_id!(crate::types::sno_id, sno_core::Id, sno_core::ENCODED_LEN);

/// Implements [`CId`] for a `#[repr(transparent)]` wrapper of an `i64` (C sees `int64_t`):
/// negative values are refused with `SNO_STATUS_VALUE_OVERFLOW`; the fixed-length text is the
/// canonical one, or the format's text form `$form` ([`fixed_text`]).
macro_rules! c_i64_id {
    ($c:ident, $core:ty, $text:expr $(, $form:literal)?) => {
        impl $crate::formats::CId for $c {
            type Core = $core;
            const TEXT_LEN: usize = $text;
            fn to_core(self) -> Result<$core, sno_core::Error> {
                <$core>::from_i64(self.0)
            }
            fn from_core(id: $core) -> Self {
                $c(id.to_i64())
            }
            fn encode(id: &$core, out: &mut [u8]) {
                $crate::formats::fixed_text(id, [$($form)?].first().copied(), out);
            }
        }
    };
}
pub(crate) use c_i64_id;

/// Writes the text form `form` of `id` (one of the format's
/// [`Extras::texts`](sno_core::model::Extras::texts); `None`: the canonical text) into `out`,
/// which has its length.
pub(crate) fn fixed_text<T: IdFormat>(id: &T, form: Option<&str>, out: &mut [u8]) {
    let mut buf = [0u8; MAX_TEXT_LEN];
    let len = match form.and_then(|name| T::EXTRAS.text(name)) {
        Some(text) => (text.write)(id, &mut buf),
        None => id.write_text(&mut buf),
    };
    let len = len.min(out.len());
    out[..len].copy_from_slice(&buf[..len]);
}

/// `sno_<fmt>_unix_ms`: the time of the binary form `bytes` of `T` in Unix milliseconds (0 for
/// none). A binary form `T` refuses (a UUIDv7's other version bits) has its leading Unix
/// milliseconds read as they lie.
pub(crate) fn unix_ms<T: IdFormat>(bytes: &[u8]) -> u64 {
    let ms = match T::from_slice(bytes) {
        Ok(id) => id.unix_ms(),
        Err(_) => T::FORMAT
            .fields()
            .first()
            .filter(|f| f.unit == Unit::UnixMs)
            .and_then(|f| match Field::read(f, bytes, "").value {
                FieldValue::Uint(ms) => i64::try_from(ms).ok(),
                _ => None,
            }),
    };
    ms.and_then(|ms| u64::try_from(ms).ok()).unwrap_or(0)
}

/// Writes the text of `*id` (exactly `T::TEXT_LEN` bytes, no NUL) to `out`.
///
/// # Safety
/// `id` NULL or valid; `out` NULL or valid for `T::TEXT_LEN` writes.
pub(crate) unsafe fn encode<T: CId>(id: *const T, out: *mut c_char) -> sno_status {
    // SAFETY: forwarded contract.
    unsafe { encode_with(id, out, T::TEXT_LEN, T::encode) }
}

/// Writes another fixed-length text of `*id` (`len` bytes, no NUL, by `write`) to `out`.
///
/// # Safety
/// `id` NULL or valid; `out` NULL or valid for `len` writes.
pub(crate) unsafe fn encode_with<T: CId>(
    id: *const T,
    out: *mut c_char,
    len: usize,
    write: fn(&T::Core, &mut [u8]),
) -> sno_status {
    ffi_boundary(|| {
        // SAFETY: NULL or valid per the contract.
        let id = unsafe { try_ref(id) }?.to_core()?;
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        // SAFETY: non-NULL and valid for `len` writes per the contract.
        let out = unsafe { std::slice::from_raw_parts_mut(out.cast::<u8>(), len) };
        write(&id, out);
        Ok(())
    })
}

/// Writes the text of `*id` and a NUL; `out_len` must be at least `T::TEXT_LEN + 1`.
///
/// # Safety
/// `id` NULL or valid; `out` NULL or valid for `out_len` writes.
pub(crate) unsafe fn encode_cstr<T: CId>(
    id: *const T,
    out: *mut c_char,
    out_len: usize,
) -> sno_status {
    ffi_boundary(|| {
        // SAFETY: NULL or valid per the contract.
        let id = unsafe { try_ref(id) }?.to_core()?;
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        if out_len <= T::TEXT_LEN {
            return Err(sno_status::BufferTooSmall);
        }
        // SAFETY: non-NULL and valid for out_len > TEXT_LEN writes per the contract.
        let out = unsafe { std::slice::from_raw_parts_mut(out.cast::<u8>(), T::TEXT_LEN + 1) };
        T::encode(&id, &mut out[..T::TEXT_LEN]);
        out[T::TEXT_LEN] = 0;
        Ok(())
    })
}

/// Decodes `len` bytes of text with `parse`; on an invalid byte its position, on a wrong length
/// the length given, goes to `error_position` (may be NULL).
///
/// # Safety
/// `text` valid for `len` reads (NULL only with `len` 0); `out` NULL or writable;
/// `error_position` NULL or writable.
pub(crate) unsafe fn decode<T: CId>(
    text: *const c_char,
    len: usize,
    out: *mut T,
    error_position: *mut usize,
    parse: fn(&[u8]) -> Result<T::Core, Error>,
) -> sno_status {
    ffi_boundary(|| {
        // SAFETY: forwarded contract.
        let bytes = unsafe { try_bytes(text.cast(), len) }?;
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        match parse(bytes) {
            // SAFETY: checked non-NULL; writable per the contract.
            Ok(id) => unsafe { write_out(out, T::from_core(id)) },
            Err(e) => {
                let at = match e {
                    Error::InvalidByte { position, .. } => Some(position),
                    Error::InvalidLength { actual, .. } => Some(actual),
                    _ => None,
                };
                if let Some(at) = at {
                    // SAFETY: NULL or writable per the contract.
                    unsafe { write_optional(error_position, at) };
                }
                Err(e.into())
            }
        }
    })
}

/// Converts a value of one format into another's struct (`convert` may refuse).
///
/// # Safety
/// `out` NULL or writable.
pub(crate) unsafe fn convert<A: CId, B: CId>(
    from: A,
    out: *mut B,
    convert: fn(A::Core) -> Result<B::Core, Error>,
) -> sno_status {
    ffi_boundary(|| {
        let value = convert(from.to_core()?)?;
        // SAFETY: NULL or writable per the contract.
        unsafe { write_out(out, B::from_core(value)) }
    })
}

/// The value of `B` with the same bits as `value` (a conversion of the core's
/// `Format::conversions`): `B`'s rules for its binary form, its error where they are broken.
pub(crate) fn from_same_bits<A: IdFormat, B: IdFormat>(value: A) -> Result<B, Error> {
    B::from_slice(value.as_slice())
}

/// Writes the result of `make` (a format's `try_new`, from its process-wide generator) to `out`.
///
/// # Safety
/// `out` NULL or writable.
pub(crate) unsafe fn new_global<T: CId>(
    out: *mut T,
    make: fn() -> Result<T::Core, sno_core::Error>,
) -> sno_status {
    ffi_boundary(|| {
        if out.is_null() {
            return Err(sno_status::NullArgument);
        }
        let id = make()?;
        // SAFETY: checked non-NULL; writable per the contract.
        unsafe { write_out(out, T::from_core(id)) }
    })
}

/// Writes `read(value)` (a fields struct) to `out`, if `id` is a value of the format.
///
/// # Safety
/// `out` NULL or writable.
pub(crate) unsafe fn read<T: CId, R>(id: T, out: *mut R, read: fn(T::Core) -> R) -> sno_status {
    ffi_boundary(|| {
        let value = read(id.to_core()?);
        // SAFETY: NULL or writable per the contract.
        unsafe { write_out(out, value) }
    })
}

/// Writes the value `make` builds from fields (it may refuse them) to `out`.
///
/// # Safety
/// `out` NULL or writable.
pub(crate) unsafe fn build<T: CId>(
    out: *mut T,
    make: impl FnOnce() -> Result<T::Core, Error>,
) -> sno_status {
    ffi_boundary(|| {
        let value = T::from_core(make()?);
        // SAFETY: NULL or writable per the contract.
        unsafe { write_out(out, value) }
    })
}

/// `sno_<fmt>_new` and `sno_<fmt>_from_<binary>` of a format with a param (a text part outside
/// its binary form, [`Param`](sno_core::model::Param)): writes the text of the value of
/// `format` with the param behind `param` (bytes that are no UTF-8 are refused by the param's
/// rules) and the binary form `binary` (`None`: a new one from the process-wide generator of the
/// param's source format), and a NUL, to `out`; its length to `written`.
///
/// # Safety
/// `param` NULL or NUL-terminated; `binary`'s pointer valid for its length's reads (NULL only
/// with length 0); `out` NULL or valid for `out_len` writes; `written` NULL or writable.
pub(crate) unsafe fn with_param(
    format: sno_core::Format,
    param: *const c_char,
    binary: Option<(*const u8, usize)>,
    out: *mut c_char,
    out_len: usize,
    written: *mut usize,
) -> sno_status {
    crate::errors::recording_boundary(|| {
        if param.is_null() || out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        // SAFETY: non-NULL and NUL-terminated per the contract.
        let param = unsafe { std::ffi::CStr::from_ptr(param) }.to_bytes();
        let param = String::from_utf8_lossy(param);
        let made = match binary {
            Some((ptr, len)) => {
                // SAFETY: valid for `len` reads per the contract.
                let binary = unsafe { try_bytes(ptr, len) }?;
                sno_core::AnyId::with_param(format, &param, binary)
            }
            None => sno_core::AnyId::try_new_with_param(format, &param),
        };
        let text = made.ok_or(Error::UnknownFormat)??.text();
        // Only what is written is borrowed (a caller may pass a generous `out_len`).
        let len = out_len.min(text.len() + 1);
        // SAFETY: non-NULL and valid for `out_len` >= `len` writes per the contract.
        let out = unsafe { std::slice::from_raw_parts_mut(out, len) };
        crate::args::copy_text(out, &text)?;
        // SAFETY: NULL or writable per the contract.
        unsafe { write_optional(written, text.len()) };
        Ok(())
    })
}
