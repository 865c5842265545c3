//! The format-generic C API: one set of functions for every format of the core's table
//! (`sno_core::Format::ALL`), driven by `sno_core::AnyId`: detection, strict parsing, the binary
//! form, the canonical text, the time and the named fields. A format registered in the core
//! reaches C through these functions with no code here; only its `sno_format` value is
//! generated (generated.rs).
#![allow(non_camel_case_types, reason = "C naming for the C API")]

use std::ffi::{CStr, c_char};

use sno_core::model::{MAX_BINARY_LEN, MAX_FIELDS, MAX_TEXT_LEN};
use sno_core::{AnyId, Error, FieldValue, Format};

use crate::args::{copy_text, try_bytes, write_optional};
use crate::errors::{Failure, recording_boundary, value_boundary};
use crate::generated::{FORMATS, sno_format};
use crate::status::sno_status;

/// Passed as `format` to sno_inspect: detect the format as sno_detect does.
pub const SNO_FORMAT_DETECT: i32 = -1;
/// The longest canonical text of any format (a TypeID with a 63-character prefix), without the
/// NUL.
pub const SNO_MAX_TEXT_LEN: usize = 90;
/// Room for the longest canonical text with its NUL (sno_inspection.text).
pub const SNO_MAX_TEXT_SIZE: usize = SNO_MAX_TEXT_LEN + 1;
/// The longest binary form of any format (SCRU160: 20 bytes).
pub const SNO_MAX_BINARY_LEN: usize = 20;
/// The most named fields any format has.
pub const SNO_MAX_FIELDS: usize = 6;
/// Room for a field's name or unit with its NUL.
pub const SNO_FIELD_NAME_LEN: usize = 32;
/// Room for a text field's value (a TypeID prefix: at most 63 characters) with its NUL.
pub const SNO_FIELD_TEXT_LEN: usize = 64;
const _: () = assert!(
    SNO_MAX_TEXT_LEN == MAX_TEXT_LEN
        && SNO_MAX_BINARY_LEN == MAX_BINARY_LEN
        && SNO_MAX_FIELDS == MAX_FIELDS
);

/// Which member of a sno_field holds its value.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sno_field_kind {
    /// A number: `value` (and `value_hi` for fields wider than 64 bits).
    Uint = 0,
    /// A flag: `value` is 0 or 1.
    Bool = 1,
    /// Text: `text` (a TypeID's prefix).
    Text = 2,
}

/// A named field of an ID, as the core describes it (name, value, unit, width).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sno_field {
    /// The field's name, NUL-terminated, in snake case: "unix_ms", "units", "sequence", …
    pub name: [c_char; SNO_FIELD_NAME_LEN],
    /// What a number counts, NUL-terminated: "unix_ms" (ms since 1970), "sno_units" (4 ms
    /// units since 2010), "epoch_ms" (ms since the format's or the application's epoch) or
    /// "none".
    pub unit: [c_char; SNO_FIELD_NAME_LEN],
    /// Which member holds the value.
    pub kind: sno_field_kind,
    /// The field's width in bits (0 for text).
    pub bits: u8,
    /// A number's low 64 bits; a flag's 0 or 1.
    pub value: u64,
    /// A number's bits 64..127: non-zero only for fields wider than 64 bits (the 80-bit
    /// randomness of ULID and SCRU160).
    pub value_hi: u64,
    /// A text field's value, NUL-terminated; empty for numbers and flags.
    pub text: [c_char; SNO_FIELD_TEXT_LEN],
}

/// Everything about one ID (sno_inspect, sno_inspect_bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct sno_inspection {
    /// The format.
    pub format: sno_format,
    /// The length of the binary form in `bytes`.
    pub binary_len: usize,
    /// The binary form (a TypeID's is its UUID: the prefix is not part of it).
    pub bytes: [u8; SNO_MAX_BINARY_LEN],
    /// The length of the canonical text in `text`.
    pub text_len: usize,
    /// The canonical text, NUL-terminated.
    pub text: [c_char; SNO_MAX_TEXT_SIZE],
    /// Whether the ID carries its Unix time (a Nanoflake does not: its epoch is the
    /// application's).
    pub has_unix_ms: bool,
    /// Milliseconds since 1970 (for sno, the start of its 4 ms unit); 0 without `has_unix_ms`.
    pub unix_ms: i64,
    /// How many of `fields` are set, in layout order (most significant first).
    pub field_count: usize,
    /// The named fields.
    pub fields: [sno_field; SNO_MAX_FIELDS],
}

/// The core format numbered `format` (a sno_format value).
fn core_format(format: i32) -> Result<Format, Failure> {
    usize::try_from(format)
        .ok()
        .and_then(|i| FORMATS.get(i))
        .map(|entry| entry.0)
        .ok_or_else(|| {
            Failure::new(
                sno_status::UnknownFormat,
                format!("sno: {format} is no sno_format value"),
            )
        })
}

/// C's value of a core format.
fn c_format(format: Format) -> Result<sno_format, Failure> {
    FORMATS
        .iter()
        .find(|entry| entry.0 == format)
        .map(|entry| entry.1)
        .ok_or_else(|| Error::UnknownFormat.into())
}

/// Writes the inspection of `id` to `out`, or nothing on failure. Padding bytes are written
/// as zeros, so that C may compare inspections with memcmp.
///
/// # Safety
/// `out` must be valid for a write of a `sno_inspection`.
unsafe fn write_inspection(id: &AnyId, out: *mut sno_inspection) -> Result<(), Failure> {
    let mut buf = std::mem::MaybeUninit::<sno_inspection>::zeroed();
    // SAFETY: all-zero bytes are a valid sno_inspection (integers, arrays of integers, `false`,
    // and the enums' 0 variants SNO_FORMAT_SNO and SNO_FIELD_KIND_UINT). Fields are assigned one
    // by one below, which leaves the padding between them zero.
    let inspection = unsafe { buf.assume_init_mut() };
    inspection.format = c_format(id.format())?;
    let bytes = id.as_slice();
    inspection
        .bytes
        .get_mut(..bytes.len())
        .ok_or(sno_status::BufferTooSmall)?
        .copy_from_slice(bytes);
    inspection.binary_len = bytes.len();
    let text = id.text();
    copy_text(&mut inspection.text, &text)?;
    inspection.text_len = text.len();
    if let Some(ms) = id.unix_ms() {
        inspection.has_unix_ms = true;
        inspection.unix_ms = ms;
    }
    let fields = id.fields();
    for (slot, field) in inspection.fields.iter_mut().zip(fields.iter()) {
        copy_text(&mut slot.name, field.name)?;
        copy_text(&mut slot.unit, field.unit.name())?;
        slot.bits = field.bits;
        match field.value {
            FieldValue::Uint(v) => {
                slot.kind = sno_field_kind::Uint;
                slot.value = v as u64;
                slot.value_hi = (v >> 64) as u64;
            }
            FieldValue::Bool(b) => {
                slot.kind = sno_field_kind::Bool;
                slot.value = b.into();
            }
            FieldValue::Text(t) => {
                slot.kind = sno_field_kind::Text;
                copy_text(&mut slot.text, t)?;
            }
        }
    }
    inspection.field_count = fields.len().min(SNO_MAX_FIELDS);
    // SAFETY: `out` is valid for the write per the contract; a byte copy keeps the zero padding.
    unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr(), out, 1) };
    Ok(())
}

/// The format's name ("sno", "ulid", "uuid7", "scru128", "scru160", "nanoflake", "ulidflake",
/// …) as a static NUL-terminated string, or NULL for a value that is no sno_format. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn sno_format_name(format: i32) -> *const c_char {
    value_boundary(std::ptr::null(), || {
        usize::try_from(format)
            .ok()
            .and_then(|i| FORMATS.get(i))
            .map_or(std::ptr::null(), |entry| entry.2.as_ptr())
    })
}

/// The format named `name` (NUL-terminated): its sno_format_name or its name in prose ("ULID",
/// "UUIDv7", "Ulid-Flake"), in any case. SNO_STATUS_UNKNOWN_FORMAT for another name (the message,
/// which lists the names, goes to sno_last_error_message). Thread-safe.
///
/// # Safety
/// `name` NULL or a NUL-terminated string; `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_format_from_name(
    name: *const c_char,
    out: *mut sno_format,
) -> sno_status {
    recording_boundary(|| {
        if name.is_null() || out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        // SAFETY: non-NULL and NUL-terminated per the contract.
        let name = unsafe { CStr::from_ptr(name) };
        let format: Format = name.to_str().map_err(|_| Error::UnknownFormat)?.parse()?;
        let format = c_format(format)?;
        // SAFETY: checked non-NULL; writable per the contract.
        unsafe { out.write(format) };
        Ok(())
    })
}

/// The format `len` bytes of text are written in: the one format whose strict decoder accepts
/// them. SNO_STATUS_UNRECOGNIZED_FORMAT when none does; SNO_STATUS_AMBIGUOUS_FORMAT when several
/// do (a 13-character text can be a Ulid-Flake and a Nanoflake), or only a Nanoflake does (its
/// 1 to 13 base36 digits match almost any short word): name the format then (sno_inspect,
/// sno_parse_as). sno_format_candidates tells which formats accept the text; the message goes
/// to sno_last_error_message. Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0); `out_format` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_detect(
    text: *const c_char,
    len: usize,
    out_format: *mut sno_format,
) -> sno_status {
    recording_boundary(|| {
        // SAFETY: forwarded contract.
        let text = unsafe { try_bytes(text.cast(), len) }?;
        if out_format.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        let format = c_format(AnyId::detect(text)?.format())?;
        // SAFETY: checked non-NULL; writable per the contract.
        unsafe { out_format.write(format) };
        Ok(())
    })
}

/// The formats whose strict decoder accepts `len` bytes of text: bit `f` is set for the
/// sno_format `f` (`1u << SNO_FORMAT_ULID`, …); 0 for none (and for NULL text). Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_format_candidates(text: *const c_char, len: usize) -> u32 {
    value_boundary(0, || {
        // SAFETY: forwarded contract.
        let Ok(text) = (unsafe { try_bytes(text.cast(), len) }) else {
            return 0;
        };
        let candidates = AnyId::candidates(text);
        FORMATS
            .iter()
            .enumerate()
            .filter(|(_, entry)| candidates.contains(entry.0))
            .fold(0, |bits, (i, _)| bits | 1 << i)
    })
}

/// Strictly decodes `len` bytes of text as an ID of `format` (a sno_format value) and writes
/// its binary form (a TypeID's: its UUID) to `bytes_out`, its length to `bytes_written` (may be
/// NULL). `bytes_len` must be at least the format's binary length (SNO_MAX_BINARY_LEN always
/// is), else SNO_STATUS_BUFFER_TOO_SMALL. Fails with the format's decoding status (the message
/// goes to sno_last_error_message), or SNO_STATUS_UNKNOWN_FORMAT. Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0); `bytes_out` NULL or valid for
/// `bytes_len` writes; `bytes_written` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_parse_as(
    format: i32,
    text: *const c_char,
    len: usize,
    bytes_out: *mut u8,
    bytes_len: usize,
    bytes_written: *mut usize,
) -> sno_status {
    recording_boundary(|| {
        let format = core_format(format)?;
        // SAFETY: forwarded contract.
        let text = unsafe { try_bytes(text.cast(), len) }?;
        if bytes_out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        let id = AnyId::parse_as(format, text)?;
        let bytes = id.as_slice();
        if bytes_len < bytes.len() {
            return Err(sno_status::BufferTooSmall.into());
        }
        // SAFETY: non-NULL and valid for bytes_len >= bytes.len() writes per the contract.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), bytes_out, bytes.len());
            write_optional(bytes_written, bytes.len());
        }
        Ok(())
    })
}

/// Reads `len` bytes of text as an ID of `format` (a sno_format value, or SNO_FORMAT_DETECT to
/// detect it as sno_detect does) and writes everything about it to `out`: format, binary form,
/// canonical text, Unix time and named fields. Fails as sno_parse_as or sno_detect do (the
/// message goes to sno_last_error_message). Thread-safe.
///
/// # Safety
/// `text` valid for `len` reads (NULL only with len 0); `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_inspect(
    format: i32,
    text: *const c_char,
    len: usize,
    out: *mut sno_inspection,
) -> sno_status {
    recording_boundary(|| {
        let format = match format {
            SNO_FORMAT_DETECT => None,
            format => Some(core_format(format)?),
        };
        // SAFETY: forwarded contract.
        let text = unsafe { try_bytes(text.cast(), len) }?;
        if out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        let id = match format {
            None => AnyId::detect(text)?,
            Some(format) => AnyId::parse_as(format, text)?,
        };
        // SAFETY: checked non-NULL; writable per the contract.
        unsafe { write_inspection(&id, out) }
    })
}

/// As sno_inspect, from the binary form of an ID of `format` (`len` bytes: the format's binary
/// length, else SNO_STATUS_INVALID_LENGTH; bytes that are no value of the format, such as a
/// UUID that is not version 7, give the format's status). A TypeID's binary form is its UUID:
/// the prefix reads as empty. Thread-safe.
///
/// # Safety
/// `bytes` valid for `len` reads (NULL only with len 0); `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sno_inspect_bytes(
    format: i32,
    bytes: *const u8,
    len: usize,
    out: *mut sno_inspection,
) -> sno_status {
    recording_boundary(|| {
        let format = core_format(format)?;
        // SAFETY: forwarded contract.
        let bytes = unsafe { try_bytes(bytes, len) }?;
        if out.is_null() {
            return Err(sno_status::NullArgument.into());
        }
        let id = AnyId::from_slice_as(format, bytes)?;
        // SAFETY: checked non-NULL; writable per the contract.
        unsafe { write_inspection(&id, out) }
    })
}
