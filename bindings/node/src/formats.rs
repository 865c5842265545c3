//! The native half of every format's class, written once over the core's `AnyId` (a value
//! of any format): every function here takes a format index (the position in
//! `sno_core::Format::ALL`) and the value's canonical text, the one thing a class holds.
//! `formats()` hands JavaScript the core's table (`sno_core::js::JsTable`), from which
//! `formats.js` builds one class per format; `bits.rs` reads the binary form as one integer or
//! UUID text; `generators.rs` makes new values. A format registered in the core therefore gets
//! its class (parse, bytes, bigint, named fields, time, order, its extras), its process-wide
//! generator, `fromFields` and its monotonic `Generator` (the core's `AnyGenerator`) with no
//! edit here.

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use sno_core::js::{JsTable, MAX_NUMBER_BITS};
use sno_core::model::MAX_TEXT_LEN;
use sno_core::{AnyId, FieldValue, Format};

use crate::args::{bytes_arg, with_text};
use crate::errors::{OrThrow, R, napi_error, range_error, throwing};

/// The core's format table as JSON (`sno_core::js::JsTable`, in `Format::ALL` order), which
/// `formats.js` builds every class and namespace from.
#[napi(catch_unwind)]
pub fn formats() -> String {
    JsTable.to_string()
}

/// A core name (snake case) in JavaScript's camel case: `epoch_ms` → `epochMs`.
pub(crate) fn camel_case(name: &str) -> String {
    sno_core::model::CamelCase(name).to_string()
}

/// The format at `index` of `Format::ALL` (the index JavaScript passes), or a `RangeError`.
pub(crate) fn format_arg(index: u32) -> R<Format> {
    Format::ALL
        .get(index as usize)
        .copied()
        .ok_or_else(|| range_error(format!("unknown format index {index}")))
}

/// A JS string of canonical text.
pub(crate) fn js_text<'e>(env: &'e Env, text: &[u8]) -> R<JsString<'e>> {
    env.create_string_latin1(text).map_err(napi_error)
}

/// The value of format index `format` whose canonical text is `text` (a class holds only
/// canonical text, so this does not fail for the `fmt*` calls on a value's text).
pub(crate) fn value(format: u32, text: &str) -> R<AnyId> {
    Ok(AnyId::parse_as(format_arg(format)?, text.as_bytes())?)
}

/// Strictly decodes `text` and returns its canonical text, or `undefined` when `text` is
/// canonical already (the common case: no new string). Throws `TypeError` for a non-string and
/// `ERR_SNO_*` (with `position`, in UTF-8 bytes) for bad text.
#[napi(
    ts_args_type = "format: number, text: string",
    ts_return_type = "string | undefined",
    catch_unwind
)]
pub fn fmt_canonical<'e>(
    env: &'e Env,
    format: u32,
    text: Unknown,
) -> Result<Option<JsString<'e>>, String> {
    throwing(env, || {
        let format = format_arg(format)?;
        with_text(env, &text, "parse(text): text", |input| {
            let mut buf = [0u8; MAX_TEXT_LEN];
            let len = AnyId::canonical_text_as(format, input, &mut buf)?;
            if buf[..len] == *input {
                return Ok(None);
            }
            js_text(env, &buf[..len]).map(Some)
        })?
    })
}

/// The one format `text` is written in, through the core's detection (`AnyId::detect`, as the
/// `sno` CLI): `[format index, canonical text]`. Throws `ERR_SNO_AMBIGUOUS_FORMAT` when several
/// formats (or only a Nanoflake) read it, `ERR_SNO_UNRECOGNIZED_FORMAT` when none does.
#[napi(
    ts_args_type = "text: string",
    ts_return_type = "[number, string]",
    catch_unwind
)]
pub fn detect<'e>(env: &'e Env, text: Unknown) -> Result<(u32, JsString<'e>), String> {
    throwing(env, || {
        with_text(env, &text, "detect(text): text", |input| {
            let id = sno_core::AnyId::detect(input)?;
            let index = Format::ALL.iter().position(|f| *f == id.format());
            let index = u32::try_from(index.unwrap_or(0)).unwrap_or(0);
            Ok((index, js_text(env, id.text().as_bytes())?))
        })?
    })
}

/// The canonical text of the binary form (`fromBytes`).
#[napi(
    ts_args_type = "format: number, bytes: Uint8Array",
    ts_return_type = "string",
    catch_unwind
)]
pub fn fmt_from_bytes<'e>(
    env: &'e Env,
    format: u32,
    bytes: Unknown,
) -> Result<JsString<'e>, String> {
    throwing(env, || {
        let format = format_arg(format)?;
        let bytes = bytes_arg(env, &bytes, "fromBytes(bytes): bytes")?;
        js_text(env, AnyId::from_slice_as(format, &bytes)?.text().as_bytes())
    })
}

/// The binary form of a canonical text.
// A Buffer at run time, declared as the Uint8Array it is: the types need no @types/node.
#[napi(ts_return_type = "Uint8Array", catch_unwind)]
pub fn fmt_to_bytes<'e>(
    env: &'e Env,
    format: u32,
    text: String,
) -> Result<BufferSlice<'e>, String> {
    value(format, &text)
        .and_then(|id| js_bytes(env, id.as_slice()))
        .or_throw(env)
}

/// A new Buffer holding a copy of `bytes` (`napi_create_buffer_copy`). Not napi-rs's `Buffer`,
/// an external buffer over Rust's memory: in WebAssembly that memory is the module's, and a
/// Buffer over it is detached (empty) once the memory grows.
pub(crate) fn js_bytes<'e>(env: &'e Env, bytes: &[u8]) -> R<BufferSlice<'e>> {
    Ok(BufferSlice::copy_from(env, bytes)?)
}

/// The named fields of a canonical text, as an object keyed by their JavaScript names: a
/// number for fields of at most 53 bits, a bigint for wider ones, a boolean for a flag, a
/// string for text.
#[napi(
    ts_return_type = "Record<string, number | bigint | boolean | string>",
    catch_unwind
)]
pub fn fmt_fields<'e>(env: &'e Env, format: u32, text: String) -> Result<Object<'e>, String> {
    throwing(env, || {
        let id = value(format, &text)?;
        let mut object = Object::new(env)?;
        for field in id.fields().iter() {
            let name = camel_case(field.name);
            match field.value {
                FieldValue::Uint(v) if field.bits <= MAX_NUMBER_BITS => {
                    object.set(name, v as f64)?
                }
                FieldValue::Uint(v) => object.set(name, v)?,
                FieldValue::Bool(b) => object.set(name, b)?,
                FieldValue::Text(t) => object.set(name, t)?,
            }
        }
        Ok(object)
    })
}

/// Milliseconds since 1970 of a canonical text, or `undefined` for a format whose values do not
/// carry their epoch (Nanoflakes).
#[napi(catch_unwind)]
pub fn fmt_unix_ms(env: &Env, format: u32, text: String) -> Result<Option<f64>, String> {
    // Below 2^53 in every format (48-bit milliseconds, or an epoch plus 43 bits).
    value(format, &text)
        .map(|id| id.unix_ms().map(|ms| ms as f64))
        .or_throw(env)
}

/// Nanoseconds since 1970 of a canonical text (a bigint), or `undefined` as for `fmtUnixMs`.
#[napi(ts_return_type = "bigint | undefined", catch_unwind)]
pub fn fmt_unix_ns(env: &Env, format: u32, text: String) -> Result<Option<i64n>, String> {
    value(format, &text)
        .map(|id| id.unix_ns().map(i64n))
        .or_throw(env)
}

/// -1, 0 or 1: the order of two canonical texts' values (the formats whose text order is not
/// value order: Nanoflakes' unpadded base36, prefixes outside the binary form).
#[napi(ts_return_type = "-1 | 0 | 1", catch_unwind)]
pub fn fmt_compare(env: &Env, format: u32, a: String, b: String) -> Result<i32, String> {
    throwing(env, || {
        Ok(value(format, &a)?.cmp(&value(format, &b)?) as i32)
    })
}
