//! What formats have beyond the core's model, for `formats.js`: the extras the core states as
//! data (`IdFormat::EXTRAS`), each read generically (the time for a caller's epoch, `unixMsAt`;
//! a lenient decoder, `parseLenient`; other text forms and numbers, getters), and TypeID's
//! constructors. Everything every format has (value, process-wide generator, `fromFields`,
//! `Generator`) is generic, in `formats.rs`; a format added to the core appears there, its
//! extras included, with no edit here.

use napi::JsString;
use napi::bindgen_prelude::*;
use napi_derive::napi;

use sno_core::model::MAX_TEXT_LEN;
use sno_core::typeid::TypeId;
use sno_core::uuid7::Uuid7;
use sno_core::{AnyId, Error as SnoError};

use crate::args::{MAX_DATE_MS, bytes_arg, epoch_arg, text_arg, with_text};
use crate::errors::{Fail, OrThrow, range_error};
use crate::formats::{format_arg, id_text, js_text};

/// Milliseconds since 1970 of a canonical text of a format with an epoch (the core's
/// `Extras::epoch`: Ulid-Flake, Nanoflake) made with the epoch `epochMs`: the core's saturating
/// `unix_ms_at`. `epochMs` must be an integer within the `Date` range (`formats.js` checks that
/// it is a number; `method` names the method in errors).
#[napi(catch_unwind)]
pub fn fmt_unix_ms_at(
    env: &Env,
    format: u32,
    text: String,
    epoch_ms: f64,
    method: String,
) -> Result<f64, String> {
    (|| {
        let format = format_arg(format)?;
        let epoch = epoch_arg(
            &format!("{method}(epochMs): epochMs"),
            epoch_ms,
            -MAX_DATE_MS,
        )?;
        let unix_ms = AnyId::parse_as(format, text.as_bytes())?
            .unix_ms_at(epoch)
            .ok_or_else(|| range_error(format!("{format} values have no epoch")))?;
        // |epoch| <= 8.64e15 and the field below 2^43: the sum is an exact double.
        Ok(unix_ms as f64)
    })()
    .or_throw(env)
}

/// The canonical text of a value of `format` in any form its lenient decoder takes (the core's
/// `Extras::lenient`: UUIDv7's 32 bare hex digits and `{…}`), or `undefined` when `text` is
/// canonical already (`<Class>.parseLenient`).
#[napi(
    ts_args_type = "format: number, text: string",
    ts_return_type = "string | undefined",
    catch_unwind
)]
pub fn fmt_canonical_lenient<'e>(
    env: &'e Env,
    format: u32,
    text: Unknown,
) -> Result<Option<JsString<'e>>, String> {
    (|| {
        let format = format_arg(format)?;
        with_text(env, &text, "parseLenient(text): text", |input| {
            let canonical = AnyId::parse_lenient_as(format, input)?.text();
            if canonical.as_bytes() == input {
                return Ok(None);
            }
            js_text(env, canonical.as_bytes()).map(Some)
        })?
    })()
    .or_throw(env)
}

/// The text form `name` (the core's `Extras::texts`: SCRU160's `hex`, a Nanoflake's `padded`,
/// TypeID's `suffix`) of a canonical text of `format`.
#[napi(catch_unwind)]
pub fn fmt_text_form(env: &Env, format: u32, text: String, name: String) -> Result<String, String> {
    (|| {
        let format = format_arg(format)?;
        let mut buf = [0u8; MAX_TEXT_LEN];
        let len = AnyId::parse_as(format, text.as_bytes())?
            .write_text_form(&name, &mut buf)
            .ok_or_else(|| range_error(format!("{format} has no text form {name}")))?;
        Ok(String::from_utf8_lossy(&buf[..len]).into_owned())
    })()
    .or_throw(env)
}

/// The number `name` (the core's `Extras::numbers`: a Nanoflake's `reference_timestamp_ms`) of
/// a canonical text of `format`.
#[napi(catch_unwind)]
pub fn fmt_number(env: &Env, format: u32, text: String, name: String) -> Result<f64, String> {
    (|| {
        let format = format_arg(format)?;
        let number = AnyId::parse_as(format, text.as_bytes())?
            .number(&name)
            .ok_or_else(|| range_error(format!("{format} has no number {name}")))?;
        Ok(number as f64)
    })()
    .or_throw(env)
}

/// The text of a new TypeID with `prefix` and a UUIDv7 from the process-wide generator
/// (`TypeId.generate`, `typeid.new`, `typeid.newString`).
#[napi(
    ts_args_type = "prefix: string",
    ts_return_type = "string",
    catch_unwind
)]
pub fn typeid_new_string<'e>(env: &'e Env, prefix: Unknown) -> Result<JsString<'e>, String> {
    (|| {
        let prefix = text_arg(env, &prefix, "TypeId.generate(prefix): prefix")?;
        let id = TypeId::try_new(&prefix).map_err(|e| match e {
            SnoError::InvalidPrefix { .. } => Fail::Argument(e),
            e => e.into(),
        })?;
        id_text(env, &id)
    })()
    .or_throw(env)
}

/// The text of the TypeID with `prefix` and the UUID `uuid`: its 16 bytes (any version) or a
/// UUIDv7's text, which the core's UUIDv7 decoder reads (`TypeId.fromUuid`).
#[napi(
    ts_args_type = "prefix: string, uuid: string | Uint8Array",
    ts_return_type = "string",
    catch_unwind
)]
pub fn typeid_from_uuid<'e>(
    env: &'e Env,
    prefix: Unknown,
    uuid: Unknown,
) -> Result<JsString<'e>, String> {
    (|| {
        let prefix = text_arg(env, &prefix, "TypeId.fromUuid(prefix, uuid): prefix")?;
        let bytes: [u8; 16] = if uuid.get_type()? == ValueType::String {
            with_text(
                env,
                &uuid,
                "TypeId.fromUuid(prefix, uuid): uuid",
                Uuid7::decode,
            )??
            .to_bytes()
        } else {
            let bytes = bytes_arg(env, &uuid, "TypeId.fromUuid(prefix, uuid): uuid")?;
            TypeId::from_slice(&bytes)?.uuid_bytes()
        };
        let id = TypeId::from_uuid(&prefix, bytes).map_err(Fail::Argument)?;
        id_text(env, &id)
    })()
    .or_throw(env)
}
